"""HW-25..HW-39: sheet B."""

from __future__ import annotations

from ludoteca.games.hadrianswall import cards

from .hw_helpers import C, G, count, fill, fill_ids, give, main, set_count, stock, why


def test_hw_25_citizen_tracks_cost_a_civilian() -> None:
    state = main(1)
    give(state, civilians=1)
    assert {"traders_1", "performers_1", "priests_1", "apparitors_1", "patricians_1"} <= set(fill_ids(state))
    fill(state, 0, "traders_1")
    assert stock(state) == {"soldiers": 0, "builders": 0, "servants": 1, "civilians": 0, "resources": 0}
    assert why(state, 0, "traders_2") == "cost"


def test_hw_26_precinct() -> None:
    state = main(1)
    give(state, servants=1, civilians=1)
    assert why(state, 0, "precinct_small") == "locked"
    set_count(state, 0, "traders", 3)
    fill(state, 0, "precinct_small")
    assert count(state, 0, "piety") == 1 and count(state, 0, "production") == 2
    assert stock(state)["resources"] == 1


def test_hw_27_market_and_goods_boxes() -> None:
    state = main(3)
    set_count(state, 0, "traders", 4)
    give(state, servants=1, builders=1, resources=3)
    assert why(state, 0, "goods_1") == "locked"
    fill(state, 0, "market")
    assert count(state, 0, "renown") == 1
    assert [b for b in fill_ids(state) if b.startswith("goods")] == ["goods_1"]
    set_count(state, 0, "traders", 9)
    assert [b for b in fill_ids(state) if b.startswith("goods")] == [f"goods_{i}" for i in range(1, 9)]
    fill(state, 0, "goods_7")
    assert stock(state)["servants"] == 1
    assert state.players[0].todo == [["trade", 6]]


def test_hw_28_trade_goods_pay_the_neighbour_and_give_renown() -> None:
    state = main(3, seed=1)
    p = state.players[0]
    set_count(state, 0, "traders", 9)
    set_count(state, 0, "market", 1)
    give(state, resources=8)
    set_count(state, 1, "fort", 1)
    assert "wall_1" not in fill_ids(state, 1)
    sources = None
    for i in range(1, 5):
        fill(state, 0, f"goods_{i}")
        sources = G.legal(state, 0)
        assert {"type": "trade", "from": "fate"} in sources
        assert {"type": "trade", "from": "seat", "seat": 2} in sources
        G.apply(state, 0, {"type": "trade", "from": "seat", "seat": 1})
    good = C.card_index[state.players[1].prospect.split("-", 1)[1]].good
    assert p.goods[:4] == [good] * 4
    assert count(state, 0, "renown") == 1  # a repeated kind gives no renown
    assert state.players[1].stock[4] == 4 and stock(state)["resources"] == 4
    assert "wall_1" in fill_ids(state, 1)  # the neighbour may spend it at once
    p.goods = [1, 2, 3, 0, 0, 0, 0, 0]
    set_count(state, 0, "goods", 3)
    set_count(state, 0, "renown", 0)
    fill(state, 0, "goods_4")
    state.fate_deck.append(next(c.id for c in C.fate if c.good == 4))
    G.apply(state, 0, {"type": "trade", "from": "fate"})
    assert p.goods[3] == 4 and count(state, 0, "renown") == 2


def test_hw_29_theatre_once_a_year() -> None:
    state = main(1)
    set_count(state, 0, "performers", 3)
    give(state, servants=1, builders=1, resources=3)
    fill(state, 0, "theatre")
    assert count(state, 0, "renown") == 1
    assert {"performance_1", "performance_2"} <= set(fill_ids(state))
    assert why(state, 0, "performance_3") == "locked"
    fill(state, 0, "performance_2")
    assert stock(state)["soldiers"] == 1 and count(state, 0, "discipline") == 1
    assert why(state, 0, "performance_1") == "year_limit"


def test_hw_30_gladiator_arena_and_training() -> None:
    state = main(1)
    set_count(state, 0, "performers", 2)
    give(state, servants=2, builders=1, resources=1, civilians=1)
    assert why(state, 0, "arena") == "locked"
    set_count(state, 0, "performers", 3)
    fill(state, 0, "arena")
    pays = {m["pay"] for m in G.legal(state, 0) if m.get("box") == "gladiator_1_1"}
    assert pays == {"servants", "civilians"}
    fill(state, 0, "gladiator_1_1", "civilians")
    assert state.players[0].todo == [["fight", 0]]
    G.apply(state, 0, {"type": "fight", "gladiator": 1, "fight": False})
    assert why(state, 0, "gladiator_1_2") == "locked"  # needs performers 4
    state.players[0].glad_damage[0] = 1
    set_count(state, 0, "performers", 9)
    assert why(state, 0, "gladiator_1_2") == "dead"


def _top(state, damage: int) -> None:
    card = next(c.id for c in C.fate if c.gladiator == damage and c.id in state.fate_deck)
    state.fate_deck.remove(card)
    state.fate_deck.append(card)


def test_hw_31_gladiator_fights_damage_death_and_survival() -> None:
    state = main(1)
    p = state.players[0]
    set_count(state, 0, "arena", 1)
    set_count(state, 0, "performers", 9)
    set_count(state, 0, "gladiator_1", 3)
    give(state, servants=1)
    fill(state, 0, "gladiator_1_4", "servants")
    _top(state, 3)
    G.apply(state, 0, {"type": "fight", "gladiator": 1, "fight": True})
    assert p.glad_damage[0] == 3 and p.glad_fought[0] == state.year
    assert count(state, 0, "renown") == 2 and count(state, 0, "piety") == 0  # strength 4 lives: 2 renown
    assert state.flips[-1] in state.fate_discard
    give(state, servants=1)
    fill(state, 0, "gladiator_1_5", "servants")
    assert state.players[0].todo == []  # he has fought this year
    give(state, civilians=1)
    fill(state, 0, "gladiator_2_1", "civilians")
    _top(state, 2)
    G.apply(state, 0, {"type": "fight", "gladiator": 2, "fight": True})
    assert p.glad_damage[1] == 1  # never more than his health
    assert count(state, 0, "piety") == 2  # strength 1 dies: 2 piety
    give(state, servants=1)
    assert why(state, 0, "gladiator_2_2") == "dead"


def test_hw_32_gardens() -> None:
    state = main(1)
    set_count(state, 0, "priests", 4)
    give(state, servants=1, builders=1, resources=1)
    fill(state, 0, "garden_small")
    assert count(state, 0, "piety") == 1
    assert [count(state, 0, c) for c in ("traders", "performers", "priests")] == [1, 1, 5]
    give(state, servants=1, builders=1, resources=2)
    assert why(state, 0, "garden_large") == "locked"


def test_hw_33_temples_order_boxes_and_favours() -> None:
    state = main(1)
    set_count(state, 0, "priests", 9)
    give(state, servants=4, builders=3, resources=5, soldiers=1)
    fill(state, 0, "temple_small")
    assert why(state, 0, "temple_large") == "order"
    fill(state, 0, "temple_medium")
    assert why(state, 0, "medium_temple_1") == "locked"  # the small temple is not full
    fill(state, 0, "small_temple_1", "soldiers")
    assert state.players[0].temple_favours == 1
    assert count(state, 0, "piety") == 3
    assert why(state, 0, "medium_temple_1") is None


def test_hw_34_bribes_need_disdain_twice_a_year() -> None:
    state = main(1)
    set_count(state, 0, "apparitors", 8)
    set_count(state, 0, "baths", 1)
    give(state, resources=10)
    assert why(state, 0, "bribe_1") == "no_disdain"
    state.players[0].disdain = 3
    fill(state, 0, "bribe_1")
    fill(state, 0, "bribe_6")
    assert stock(state)["resources"] == 6
    assert why(state, 0, "bribe_2") == "year_limit"
    from ludoteca.games.hadrianswall import scoring

    assert scoring.final_disdain(state.players[0]) == 1


def test_hw_35_courthouse_columns_once_a_year() -> None:
    state = main(1)
    set_count(state, 0, "apparitors", 8)
    give(state, servants=2, builders=2, resources=2)
    fill(state, 0, "courthouse")
    assert count(state, 0, "renown") == 1
    fill(state, 0, "court_1_1")
    assert stock(state)["servants"] == 1
    fill(state, 0, "court_2_1")
    assert stock(state)["servants"] == 3 and stock(state)["builders"] == 0
    fill(state, 0, "court_3_1")
    assert stock(state)["builders"] == 1 and stock(state)["servants"] == 2
    assert why(state, 0, "court_1_2") == "year_limit"


def test_hw_36_diplomats_directions_differ() -> None:
    state = main(1)
    set_count(state, 0, "patricians", 6)
    give(state, servants=2, soldiers=2, resources=4)
    fill(state, 0, "diplomat_1")
    assert count(state, 0, "valour") == 1
    G.apply(state, 0, {"type": "diplomat", "direction": "left"})
    fill(state, 0, "diplomat_2")
    assert [m["direction"] for m in G.legal(state, 0)] == ["centre", "right"]
    G.apply(state, 0, {"type": "diplomat", "direction": "right"})
    assert state.players[0].dir_favours == [2, 0, 2]


def test_hw_37_scouts_pay_the_neighbour() -> None:
    state = main(3, seed=2)
    set_count(state, 0, "patricians", 9)
    give(state, soldiers=1)
    fill(state, 0, "scout_1")
    sources = G.legal(state, 0)
    assert {"type": "scout", "from": "own"} in sources
    assert {"type": "scout", "from": "seat", "seat": 1} in sources
    assert {"type": "scout", "from": "seat", "seat": 2} in sources
    G.apply(state, 0, {"type": "scout", "from": "seat", "seat": 2})
    assert state.players[2].stock[0] == 1 and stock(state)["soldiers"] == 0
    pattern = C.card_index[state.players[2].prospect.split("-", 1)[1]].pattern
    assert state.players[0].todo == [["place", pattern]]


def test_hw_38_map_placement_rewards_and_rows() -> None:
    state = main(1)
    p = state.players[0]
    p.todo = [["place", "I"]]
    assert G.legal(state, 0) == [{"type": "orient", "shape": [0, 1, 2, 3]},
                                 {"type": "orient", "shape": [0, 5, 10, 15]}]
    G.apply(state, 0, {"type": "orient", "shape": [0, 5, 10, 15]})
    moves = G.legal(state, 0)
    assert {"type": "place", "cells": [4, 9, 14, 19]} in moves and len(moves) == 5
    assert all(m["cells"][3] - m["cells"][0] == 15 for m in moves)
    p.map = 1 << 4  # cell 4 filled: the top row needs cells 0..3
    p.todo = [["place", "I"]]
    G.apply(state, 0, {"type": "orient", "shape": [0, 1, 2, 3]})
    G.apply(state, 0, {"type": "place", "cells": [0, 1, 2, 3]})
    assert stock(state)["resources"] == 1  # cell 0 (the 1st cell)
    assert count(state, 0, "valour") == 1  # the top row is full
    p.todo = [["place", "O"]]  # one orientation: straight to the places
    G.apply(state, 0, {"type": "place", "cells": [5, 6, 10, 11]})
    assert stock(state)["servants"] == 1  # cell 6 (the 7th)
    p.todo = [["place", "I"]]  # only the bottom row still takes a line of four
    assert G.legal(state, 0) == [{"type": "place", "cells": [15, 16, 17, 18]},
                                 {"type": "place", "cells": [16, 17, 18, 19]}]
    assert len(C.placements["L"]) == 68 and len(C.orientations["L"]) == 8


def test_hw_39_neighbours() -> None:
    assert cards.neighbours(main(1), 0) == []
    assert cards.neighbours(main(2), 0) == [1]
    assert cards.neighbours(main(5), 0) == [4, 1]
    assert cards.neighbours(main(5), 4) == [3, 0]


def test_hw_26_precinct_builds_top_to_bottom() -> None:
    state = main(1)
    set_count(state, 0, "traders", 9)
    give(state, servants=3, civilians=6)
    assert why(state, 0, "precinct_medium") == "order" and why(state, 0, "precinct_large") == "order"
    fill(state, 0, "precinct_small")
    assert why(state, 0, "precinct_large") == "order"
    fill(state, 0, "precinct_medium")
    fill(state, 0, "precinct_large")
    assert [count(state, 0, a) for a in ("piety", "discipline", "renown")] == [1, 1, 1]
    assert count(state, 0, "production") == 4 and stock(state)["resources"] == 3


def test_hw_28_each_new_kind_gives_1_1_1_2_2_3_renown() -> None:
    state = main(1)
    p = state.players[0]
    set_count(state, 0, "traders", 9)
    set_count(state, 0, "market", 1)
    give(state, resources=8)
    gained = []
    for i, good in enumerate((1, 2, 3, 3, 4, 5, 6), start=1):
        before = count(state, 0, "renown")
        fill(state, 0, f"goods_{i}")
        state.fate_deck.append(next(c.id for c in C.fate if c.good == good and c.id in state.fate_deck))
        G.apply(state, 0, {"type": "trade", "from": "fate"})
        gained.append(count(state, 0, "renown") - before)
    assert gained == [1, 1, 1, 0, 2, 2, 3]  # the repeated 3 is written down but gives nothing
    assert p.goods[:7] == [1, 2, 3, 3, 4, 5, 6]
    assert stock(state)["resources"] == 1 and stock(state)["servants"] == 1  # the 7th box's servant


def test_hw_32_garden_icons_of_a_full_track_are_lost() -> None:
    state = main(1)
    set_count(state, 0, "priests", 7)
    set_count(state, 0, "traders", 9)
    set_count(state, 0, "gardens", 1)
    give(state, servants=1, builders=1, resources=2)
    fill(state, 0, "garden_large")
    assert [count(state, 0, c) for c in ("traders", "performers", "priests", "apparitors", "patricians")] == [
        9, 1, 8, 1, 1]
    assert count(state, 0, "piety") == 2  # the garden's own piety and the 8th priest's
    # performers 1 and apparitors 1 give a builder each, patricians 1 a resource; traders 10 does not exist
    assert stock(state) == {"soldiers": 0, "builders": 2, "servants": 0, "civilians": 0, "resources": 1}


def test_hw_33_large_temple_boxes_need_the_medium_temple_full() -> None:
    state = main(1)
    set_count(state, 0, "priests", 9)
    set_count(state, 0, "temples", 3)
    set_count(state, 0, "small_temple", 1)
    set_count(state, 0, "medium_temple", 2)
    give(state, civilians=2)
    assert why(state, 0, "large_temple_1") == "locked"
    fill(state, 0, "medium_temple_3", "civilians")
    assert state.players[0].temple_favours == 1  # the medium temple's last box
    assert why(state, 0, "large_temple_1") is None
    assert why(state, 0, "large_temple_2") == "order"


def test_hw_37_own_pattern_pays_the_supply_a_neutral_one_the_card() -> None:
    state = main(1, seed=3)
    p = state.players[0]
    set_count(state, 0, "patricians", 9)
    give(state, soldiers=2)
    fill(state, 0, "scout_1")
    sources = G.legal(state, 0)
    assert {"type": "scout", "from": "own"} in sources
    assert {"type": "scout", "from": "neutral", "card": state.neutral_open[1]} in sources
    G.apply(state, 0, {"type": "scout", "from": "own"})
    assert stock(state)["soldiers"] == 1 and p.extra_picts == 0
    p.todo = []
    fill(state, 0, "scout_2")
    card = state.neutral_open[0]
    G.apply(state, 0, {"type": "scout", "from": "neutral", "card": card})
    assert stock(state)["soldiers"] == 0 and p.extra_picts == 1
    assert p.todo[0] == ["place", C.card_index[card.split("-", 1)[1]].pattern]


def test_hw_39_who_counts_as_a_neighbour_when_trading() -> None:
    def sources(seats: int) -> list[dict]:
        state = main(seats, seed=1)
        set_count(state, 0, "traders", 9)
        set_count(state, 0, "market", 1)
        give(state, resources=1)
        fill(state, 0, "goods_1")
        return G.legal(state, 0)

    solo = sources(1)
    assert [m["from"] for m in solo] == ["fate", "neutral", "neutral"]
    duo = sources(2)
    assert [(m["from"], m.get("seat")) for m in duo] == [("fate", None), ("seat", 1), ("neutral", None)]
    trio = sources(3)
    assert [(m["from"], m.get("seat")) for m in trio] == [("fate", None), ("seat", 2), ("seat", 1)]
    six = sources(6)
    assert [m.get("seat") for m in six if m["from"] == "seat"] == [5, 1]
