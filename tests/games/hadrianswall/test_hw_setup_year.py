"""HW-1..HW-11: components, set-up and the year."""

from __future__ import annotations

import pytest

from ludoteca.engine import OptionError
from ludoteca.games.hadrianswall import cards, sheets, years
from ludoteca.games.hadrianswall import components as comp

from .hw_helpers import (
    C,
    G,
    choose_all,
    count,
    end_year_all,
    fill,
    fill_ids,
    give,
    main,
    new,
    rejected,
    sampled_positions,
    set_count,
    stock,
    why,
)


def test_hw_1_components_are_complete_and_validated() -> None:
    assert len(C.boxes) == 343 and len(C.sections) == 49
    assert len(C.fate) == 48
    for d in ("left", "centre", "right"):
        assert sum(1 for c in C.fate if c.attack == d) == 16
    assert sorted(c.id for c in C.cards) == sorted(
        ["architect", "aristocrat", "defender", "engineer", "fighter", "forager", "merchant", "planner",
         "pontiff", "ranger", "trainer", "vanguard"])
    for name in ("fate_cards", "player_cards", "years", "sheet_a", "sheet_b"):
        provenance = comp._load(f"{name}.json")["_provenance"]
        assert {"confirmed", "reconstructed"} <= set(provenance)
    reconstructed = comp._load("sheet_b.json")["_provenance"]["reconstructed"]
    assert all(word in reconstructed for word in ("Theatre", "gladiator arena", "Diplomats", "Scouts"))
    assert C.sections[C.section_index["wall_guard"]].per_year == 0
    assert [C.sections[C.section_index[s]].per_year for s in ("training_grounds", "forum", "performances",
                                                               "bribes", "court_1")] == [1, 1, 1, 2, 1]
    with pytest.raises(comp.DataError):
        comp._sheets([{"sheet": "A", "sections": [
            {"id": "x", "kind": "track", "cost": [{"soldiers": 1}], "boxes": [{"id": "x_1", "reward": ["gold"]}]}]}])
    with pytest.raises(comp.DataError):
        comp._sheets([{"sheet": "A", "sections": [
            {"id": "x", "kind": "track", "cost": [{"soldiers": 1}],
             "boxes": [{"id": "x_1", "lock": {"nowhere": 1}}]}]}])


def test_hw_2_setup_production_decks_and_difficulty() -> None:
    state = new(3, seed=4)
    assert all(p.count[C.section_index["production"]] == 1 for p in state.players)
    assert all(len(p.deck) == 10 and len(p.hand) == 2 for p in state.players)
    assert state.neutral_deck == []
    assert len(new(2).neutral_deck) == 12
    assert new(1, seed=1).fate_deck != new(1, seed=2).fate_deck
    assert [o.name for o in G.options] == ["difficulty", "resource_passing"]
    assert new(1, difficulty="hard").difficulty == "hard"
    with pytest.raises(OptionError):
        new(1, difficulty="brutal")


def test_hw_3_fate_deck_reshuffles_the_discard_but_not_cards_on_show() -> None:
    state = new(1)
    state.fate_deck = []
    state.fate_discard = ["fate-01", "fate-02", "fate-03"]
    state.year_card = "fate-01"
    state.flips = []
    state.attack_cards = []
    state.attack_cards = ["fate-02"]
    card = cards.flip_fate(state)
    assert card in ("fate-02", "fate-03")
    assert "fate-01" in state.fate_discard and card in state.fate_discard
    assert len(state.fate_deck) == 1
    assert state.attack_cards == []  # last year's Picts left the table with the reshuffle
    state.fate_deck, state.fate_discard = [], [c.id for c in C.fate]
    for _ in range(500):  # a long year of market flips and fights never runs dry
        cards.flip_fate(state)
    assert len(state.fate_deck) + len(state.fate_discard) == 48
    state.fate_deck = []
    state.attack_cards = ["fate-05"]
    state.fate_discard = ["fate-05", "fate-06", "fate-07"]
    assert cards.flip_fate(state, attacking=True) in ("fate-06", "fate-07")
    assert state.attack_cards == ["fate-05"] and "fate-05" not in state.fate_deck


def test_hw_4_fate_card_gives_every_seat_its_workers() -> None:
    state = new(3, seed=7)
    gain = C.fate_index[state.year_card].gain
    for p in state.players:
        assert p.stock[:4] == list(gain[:4])
        assert p.stock[4] == gain[4] + 1  # plus the production box of HW-6
    assert state.year == 1 and state.year_card in state.fate_discard


def test_hw_5_player_cards_hidden_until_all_chose_then_gift() -> None:
    state = new(2, seed=3)
    assert {d.seat for d in G.pending(state)} == {0, 1}
    hand = state.players[0].hand[:]
    G.apply(state, 0, {"type": "choose", "guideline": hand[0]})
    assert [d.seat for d in G.pending(state)] == [1]
    assert state.players[0].prospect is None
    view = str(G.view(state, 1))
    assert hand[0] not in view and hand[1] not in view
    before = stock(state, 0)
    G.apply(state, 1, G.legal(state, 1)[0])
    p = state.players[0]
    assert p.prospect == hand[1] and p.guidelines == [hand[0]]
    gift = C.card_index[hand[1].split("-", 1)[1]].gift
    assert [stock(state, 0)[k] - before[k] for k in before] == list(gift)
    assert state.phase == "main"


def test_hw_6_production_inns_workshops_roads() -> None:
    state = main(1, seed=5)
    set_count(state, 0, "production", 4)
    set_count(state, 0, "inn", 1)
    set_count(state, 0, "workshop", 2)
    set_count(state, 0, "road", 1)
    set_count(state, 0, "cohort_left", 6)
    set_count(state, 0, "cohort_centre", 6)
    set_count(state, 0, "cohort_right", 6)
    end_year_all(state)
    assert state.year == 2
    p = state.players[0]
    gain = C.fate_index[state.year_card].gain
    valour_gain = 0  # the valour of year 1 fills box 1 or 2: no worker
    assert p.stock[4] == gain[4] + 4
    assert p.stock[3] == gain[3] + 1
    assert p.stock[1] == gain[1] + 2 + valour_gain
    assert p.todo == [["attribute", "renown", "piety", "valour", "discipline"]]
    choose_all(state)
    assert [m["attribute"] for m in G.legal(state, 0)] == ["renown", "piety", "valour", "discipline"]


def test_hw_7_box_order_locks_year_limits_and_reasons() -> None:
    state = main(1)
    give(state, soldiers=3, builders=3)
    assert why(state, 0, "fort_2") == "order"
    assert why(state, 0, "wall_1") == "locked"
    assert why(state, 0, "cohort_left_1") == "earned"
    assert why(state, 0, "mining_1") == "cost"
    fill(state, 0, "fort_1", "soldiers")
    assert why(state, 0, "fort_1") == "filled"
    assert why(state, 0, "fort_2") is None
    fill(state, 0, "training_grounds_1")
    assert why(state, 0, "training_grounds_2") == "year_limit"
    assert rejected(state, 0, {"type": "fill", "box": "fort_2", "pay": "soldiers"}) == "decision_owed"
    G.apply(state, 0, {"type": "cohort", "cohort": "left"})
    legal = set(fill_ids(state))
    status = sheets.box_status(state, 0)
    assert legal == {b for b, reason in status.items() if reason == "open"}
    assert rejected(state, 0, {"type": "fill", "box": "inn_small"}) == "box_locked"


def test_hw_7_every_boxs_status_is_the_reason_block_gives() -> None:
    """The views read ``box_status`` (with its checks inlined for speed): box by box it
    must say what ``block`` says, in random games at every stage."""
    compared = 0
    for state in sampled_positions(4, every=12):
        for reader in range(3):
            status = sheets.box_status(state, reader)
            assert status == {box.id: sheets.block(state, reader, box.index) or "open" for box in sheets.BOXES}
            compared += 1
    assert compared > 50


def test_hw_8_rewards_cascade_and_are_lost_when_full() -> None:
    state = main(1)
    set_count(state, 0, "renown", 2)
    sheets.gain(state, 0, "renown")
    assert count(state, 0, "renown") == 3 and stock(state)["civilians"] == 1
    sheets.gain(state, 0, "traders")
    assert count(state, 0, "traders") == 1 and stock(state)["servants"] == 1
    sheets.gain(state, 0, "cohort")
    assert state.players[0].todo == [["cohort"]]
    G.apply(state, 0, {"type": "cohort", "cohort": "right"})
    assert count(state, 0, "cohort_right") == 1
    set_count(state, 0, "valour", 25)
    sheets.gain(state, 0, "valour")
    assert count(state, 0, "valour") == 25
    set_count(state, 0, "wall_guard", 6)
    sheets.gain(state, 0, "sword")  # box 7 needs the small granary: the sword is lost
    assert count(state, 0, "wall_guard") == 6


def test_hw_9_simultaneous_year_ends_when_all_ended() -> None:
    state = main(3, seed=2)
    assert [d.seat for d in G.pending(state)] == [0, 1, 2]
    give(state, 2, soldiers=1)
    fill(state, 2, "fort_1", "soldiers")
    G.apply(state, 1, {"type": "end_year"})
    assert [d.seat for d in G.pending(state)] == [0, 2]
    assert G.legal(state, 1) == []
    G.apply(state, 0, {"type": "end_year"})
    assert state.year == 1
    G.apply(state, 2, {"type": "end_year"})
    assert state.year == 2 and state.phase == "choose"


def test_hw_10_paying_names_the_payment() -> None:
    state = main(1)
    give(state, soldiers=1, builders=1)
    moves = [m for m in G.legal(state, 0) if m.get("box") == "fort_1"]
    assert {m["pay"] for m in moves} == {"soldiers", "builders"}
    fill(state, 0, "fort_1", "builders")
    assert stock(state)["builders"] == 0 and stock(state)["soldiers"] == 1
    assert rejected(state, 0, {"type": "fill", "box": "fort_2", "pay": "civilians"}) == "bad_payment"


def test_hw_11_leftovers_are_lost_at_year_end() -> None:
    state = main(1, seed=9)
    give(state, soldiers=10, builders=10, servants=10, civilians=10, resources=10)
    for name in ("cohort_left", "cohort_centre", "cohort_right"):
        set_count(state, 0, name, 6)
    end_year_all(state)
    gain = C.fate_index[state.year_card].gain
    assert state.players[0].stock[:4] == list(gain[:4])
    assert state.players[0].stock[4] == gain[4] + 1


def test_hw_3_new_year_reshuffles_last_years_cards_too() -> None:
    state = main(1, seed=2)
    end_year_all(state)  # into year 2, choose phase
    old = state.year_card
    state.fate_deck = []
    state.fate_discard = [c.id for c in C.fate]
    years.start_year(state, [])
    # Nothing is on show when a year begins: last year's fate card goes back into the deck.
    assert old in state.fate_deck or state.year_card == old
    assert state.fate_discard == [state.year_card] and len(state.fate_deck) == 47
