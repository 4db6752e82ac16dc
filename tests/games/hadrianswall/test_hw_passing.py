"""HW-54, HW-55: paying a neighbour for its card; HW-53 and HW-47 as players see them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ludoteca.engine import OptionError
from ludoteca.games.hadrianswall import scoring

from .hw_helpers import G, choose_all, count, end_year_all, fill, fill_ids, give, main, new, set_count, stock

I18N = Path(__file__).parents[3] / "src" / "ludoteca" / "games" / "hadrianswall" / "i18n"


def _market(state, seat: int = 0, resources: int = 2) -> None:
    set_count(state, seat, "traders", 9)
    set_count(state, seat, "market", 1)
    give(state, seat, resources=resources)


def _scouts(state, seat: int = 0, soldiers: int = 2) -> None:
    set_count(state, seat, "patricians", 9)
    give(state, seat, soldiers=soldiers)


def test_hw_54_two_seats_a_neighbour_who_ended_gets_its_year_back() -> None:
    state = main(2, seed=1)
    _market(state)
    set_count(state, 1, "fort", 1)  # so that a resource opens wall_1 for seat 1
    G.apply(state, 1, {"type": "end_year"})
    assert [d.seat for d in G.pending(state)] == [0] and G.legal(state, 1) == []
    fill(state, 0, "goods_1")
    events = G.apply(state, 0, {"type": "trade", "from": "seat", "seat": 1})
    assert [e.key for e in events] == ["hw.trade", "hw.reopen"]
    assert events[1].args == {"seat": 1, "from_seat": 0, "gain": "resources"}
    # The resource is there, and seat 1 decides again: it may spend it at once.
    assert stock(state, 1)["resources"] == 1 and not state.players[1].ended
    assert [d.seat for d in G.pending(state)] == [0, 1]
    assert "wall_1" in fill_ids(state, 1)
    fill(state, 1, "wall_1")
    assert count(state, 1, "wall") == 1
    G.apply(state, 1, {"type": "end_year"})  # and ends its year again
    assert state.year == 1 and state.phase == "main"
    G.apply(state, 0, {"type": "end_year"})
    assert state.phase in ("attack", "choose")  # everyone has finished: the Picts attack


def test_hw_54_six_seats_only_the_neighbour_paid_gets_its_year_back() -> None:
    state = main(6, seed=4)
    _scouts(state)
    _market(state, resources=1)
    for seat in (1, 3, 5):
        G.apply(state, seat, {"type": "end_year"})
    fill(state, 0, "scout_1")
    sources = G.legal(state, 0)
    assert {"type": "scout", "from": "seat", "seat": 5} in sources
    assert not any(m.get("seat") == 3 for m in sources)  # not a neighbour
    G.apply(state, 0, {"type": "scout", "from": "seat", "seat": 5})
    assert stock(state, 5)["soldiers"] == 1
    assert [p.ended for p in state.players] == [False, True, False, True, False, False]
    assert {"type": "end_year"} in G.legal(state, 5)
    state.players[0].todo = []  # the placement is HW-38's business
    fill(state, 0, "goods_1")
    G.apply(state, 0, {"type": "trade", "from": "seat", "seat": 1})
    assert stock(state, 1)["resources"] == 1
    assert [p.ended for p in state.players] == [False, False, False, True, False, False]
    assert sorted(d.seat for d in G.pending(state)) == [0, 1, 2, 4, 5]
    # A neighbour that has not ended keeps playing as before: no event, no change.
    give(state, 0, soldiers=1)
    fill(state, 0, "scout_2")
    events = G.apply(state, 0, {"type": "scout", "from": "seat", "seat": 1})
    assert [e.key for e in events] == ["hw.scout"]
    end_year_all(state)
    assert state.year == 2


def test_hw_54_the_year_waits_for_the_seat_given_back_its_year() -> None:
    state = main(3, seed=2)
    _market(state, resources=1)
    for seat in (1, 2):
        G.apply(state, seat, {"type": "end_year"})
    fill(state, 0, "goods_1")
    G.apply(state, 0, {"type": "trade", "from": "seat", "seat": 2})
    G.apply(state, 0, {"type": "end_year"})
    assert state.phase == "main" and state.year == 1  # seat 2 has not finished again yet
    assert [d.seat for d in G.pending(state)] == [2]
    G.apply(state, 2, {"type": "end_year"})
    assert state.phase in ("attack", "choose")


def test_hw_55_without_resource_passing_a_neighbours_card_costs_a_pict_card() -> None:
    state = main(3, seed=1, resource_passing=False)
    assert G.view(state, 0)["resource_passing"] is False
    _market(state, resources=1)
    _scouts(state, soldiers=1)
    G.apply(state, 1, {"type": "end_year"})
    fill(state, 0, "goods_1")
    assert {"type": "trade", "from": "seat", "seat": 1} in G.legal(state, 0)  # still offered
    events = G.apply(state, 0, {"type": "trade", "from": "seat", "seat": 1})
    assert [e.key for e in events] == ["hw.trade"]
    assert stock(state, 1)["resources"] == 0 and state.players[1].ended  # nothing passed
    assert stock(state)["resources"] == 0 and state.players[0].extra_picts == 1
    fill(state, 0, "scout_1")
    G.apply(state, 0, {"type": "scout", "from": "seat", "seat": 2})
    assert stock(state, 2)["soldiers"] == 0 and state.players[0].extra_picts == 2
    state.players[0].todo = []
    year_cards = {"easy": 1, "normal": 1, "hard": 1}[state.difficulty]
    end_year_all(state)
    assert len(state.attack_cards) == year_cards + 2
    assert [a["extra"] for a in state.last_attack] == [2, 0, 0]
    assert state.players[0].extra_picts == 0


def test_hw_55_the_option_is_on_by_default_and_not_for_solo() -> None:
    assert new(3).passing is True and G.view(new(2), None)["resource_passing"] is True
    assert new(2, resource_passing=False).passing is False
    with pytest.raises(OptionError):
        G.setup(1, {"resource_passing": False}, 0)
    option = next(o for o in G.options if o.name == "resource_passing")
    assert option.kind == "bool" and option.default is True and 1 not in option.seats
    tables = {lang: json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8")) for lang in ("en", "ja", "vi")}
    for lang, table in tables.items():
        for o in G.options:
            assert table[f"hw.option.{o.name}"] and table[f"hw.option.{o.name}.help"], lang
        assert table["hw.ui.from_seat_pict"] and table["hw.reopen"], lang


def test_hw_53_workers_won_in_the_last_attack_are_not_shown() -> None:
    state = main(1, seed=2)
    for _ in range(5):
        end_year_all(state)
        choose_all(state)
    state.players[0].todo = []
    set_count(state, 0, "valour", 2)  # the next valour box (3) gives a soldier
    for d in ("cohort_left", "cohort_centre", "cohort_right"):
        set_count(state, 0, d, 6)  # a full defence: valour for the whole attack potential
    events = G.apply(state, 0, {"type": "end_year"})
    while state.phase == "attack":
        events = G.apply(state, 0, {"type": "hold"})
    assert state.phase == "over"
    # HW-47: solo, the last line of the log names the rank.
    assert events[-1].key == "hw.over_solo"
    assert events[-1].args["solo_rank"] == scoring.solo_rank(events[-1].args["scores"][0])
    assert count(state, 0, "valour") == 2 + 4  # year 6's potential is 4
    assert state.players[0].stock == [0, 0, 0, 0, 0]
    assert set(G.view(state, 0)["players"][0]["stock"].values()) == {0}
    assert set(G.view(state, None)["players"][0]["stock"].values()) == {0}


def test_hw_47_the_solo_rank_has_a_name_in_every_language() -> None:
    from ludoteca.games.hadrianswall.components import components

    tables = {lang: json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8")) for lang in ("en", "ja", "vi")}
    for table in tables.values():
        assert table["_names"]["solo_rank"] == "hw.rank.{id}"
        assert table["hw.breakdown.solo_rank"] and "{rank}" in table["hw.ui.solo_rank"]
        for _least, rank in components().solo_ranks:
            assert table[f"hw.rank.{rank}"]
    assert tables["ja"]["hw.rank.centurion"] != "centurion"
