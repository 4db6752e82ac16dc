"""HW-40..HW-53: the Picts, one and two players, the end of the game."""

from __future__ import annotations

import json

from ludoteca.engine import Result
from ludoteca.games.hadrianswall import scoring, years

from .hw_helpers import C, G, choose_all, end_year_all, fill, give, main, new, sampled_positions, set_count


def test_hw_40_pict_cards_by_difficulty_and_year() -> None:
    assert [r["easy"] for r in C.years] == [1, 2, 3, 4, 6, 8]
    assert [r["normal"] for r in C.years] == [1, 2, 4, 6, 8, 10]
    assert [r["hard"] for r in C.years] == [1, 3, 5, 7, 9, 12]
    assert [r["valour"] for r in C.years] == [1, 2, 2, 3, 3, 4]
    state = main(1, difficulty="hard")
    end_year_all(state)
    assert len(state.attack_cards) == 1
    choose_all(state)
    end_year_all(state)
    assert len(state.attack_cards) == 3


def test_hw_41_cohorts_block_cards_of_their_direction() -> None:
    state = main(1)
    p = state.players[0]
    set_count(state, 0, "cohort_left", 2)
    set_count(state, 0, "cohort_centre", 0)
    out = years.resolve_attack(p, [2, 1, 0], 3)
    assert out["breaches"] == 1 and out["disdain"] == 1 and out["valour"] == 2
    out = years.resolve_attack(p, [2, 0, 0], 3)
    assert out["breaches"] == 0 and out["valour"] == 3


def test_hw_42_favours_cancel_cards_by_choice() -> None:
    state = main(1, seed=4)
    p = state.players[0]
    p.dir_favours = [0, 1, 0]
    p.temple_favours = 1
    card = next(c.id for c in C.fate if c.attack == "centre" and c.id in state.fate_deck)
    state.fate_deck.remove(card)
    state.fate_deck.append(card)
    G.apply(state, 0, {"type": "end_year"})
    assert state.phase == "attack" and p.hits == [0, 1, 0]
    assert G.legal(state, 0) == [{"type": "favour", "direction": "centre", "favour": "diplomat"},
                                 {"type": "favour", "direction": "centre", "favour": "temple"}, {"type": "hold"}]
    G.apply(state, 0, {"type": "favour", "direction": "centre", "favour": "temple"})
    assert state.phase == "choose" and state.year == 2  # nothing left to cancel: the attack resolves
    assert p.temple_favours == 0 and p.dir_favours == [0, 1, 0]
    assert state.last_attack[0]["favours"] == 1 and state.last_attack[0]["breaches"] == 0
    assert p.disdain == 0 and p.count[C.section_index["valour"]] == 1
    p.dir_favours = [1, 0, 0]
    p.hits = [0, 1, 0]
    assert years.favour_options(p) == []  # a diplomat covers its own direction only


def test_hw_43_valour_and_disdain() -> None:
    p = main(1).players[0]
    assert years.resolve_attack(p, [0, 0, 0], 4) == {
        "left": 0, "centre": 0, "right": 0, "breaches": 0, "disdain": 0, "valour": 4}
    part = years.resolve_attack(p, [1, 0, 0], 4)
    assert (part["disdain"], part["valour"]) == (1, 3)
    worst = years.resolve_attack(p, [5, 5, 5], 4)
    assert (worst["disdain"], worst["valour"]) == (4, 0)
    state = main(1, seed=3)
    end_year_all(state)
    assert state.players[0].disdain + state.players[0].count[C.section_index["valour"]] == 1


def test_hw_44_next_year_then_end_after_six() -> None:
    state = main(2, seed=8)
    for year in range(1, 7):
        assert state.year == year
        choose_all(state)
        end_year_all(state)
    assert state.phase == "over" and state.year == 6
    assert G.result(state) is not None and G.pending(state) == []


def test_hw_45_neutral_deck_for_one_and_two() -> None:
    solo = main(1)
    assert len(solo.neutral_open) == 2 and len(solo.neutral_deck) == 10
    duo = main(2)
    assert len(duo.neutral_open) == 1
    assert main(3).neutral_open == []
    set_count(solo, 0, "traders", 9)
    set_count(solo, 0, "market", 1)
    give(solo, resources=1)
    fill(solo, 0, "goods_1")
    assert {"type": "trade", "from": "neutral", "card": solo.neutral_open[0]} in G.legal(solo, 0)


def test_hw_46_neutral_cost_adds_pict_cards() -> None:
    state = main(1, seed=6)
    set_count(state, 0, "traders", 9)
    set_count(state, 0, "market", 1)
    give(state, resources=2)
    for i in (1, 2):
        fill(state, 0, f"goods_{i}")
        G.apply(state, 0, {"type": "trade", "from": "neutral", "card": state.neutral_open[0]})
    assert state.players[0].extra_picts == 2
    end_year_all(state)
    assert len(state.attack_cards) == 1 + 2 and state.last_attack[0]["extra"] == 2
    assert state.players[0].extra_picts == 0


def test_hw_47_solo_ranks() -> None:
    assert [scoring.solo_rank(x) for x in (0, 39, 40, 55, 60, 69, 70, 99)] == [
        "miles", "miles", "centurion", "primus_pilus", "praefectus_castrorum", "praefectus_castrorum",
        "legatus_legionis", "legatus_legionis"]
    state = new(1)
    state.phase = "over"
    assert "solo_rank" in G.result(state).breakdown[0]


def test_hw_48_attribute_boxes_score_one_each() -> None:
    state = main(1)
    for a, n in zip(("renown", "piety", "valour", "discipline"), (3, 4, 5, 6), strict=True):
        set_count(state, 0, a, n)
    state.players[0].guidelines = []
    assert scoring.score(state, 0)["total"] == 18


def test_hw_49_disdain_penalty_table() -> None:
    assert [scoring.disdain_penalty(d) for d in range(12)] == [0, 1, 3, 5, 7, 9, 12, 15, 18, 22, 22, 22]
    state = main(1)
    state.players[0].guidelines = []
    state.players[0].disdain = 3
    assert scoring.score(state, 0)["total"] == -5


def test_hw_50_guideline_cards() -> None:
    state = main(1)
    p = state.players[0]
    p.guidelines = ["p0-engineer", "p0-aristocrat", "p0-ranger", "p0-trainer", "p0-vanguard", "p0-defender"]
    for b in ("granary_large", "inn_large", "workshop_large", "temple_large"):
        p.boxes[C.box_index[b]] = 1
    p.disdain = 2
    p.map = sum(1 << (r * 5 + c) for r in range(4) for c in (0, 1, 2))
    set_count(state, 0, "gladiator_1", 6)
    set_count(state, 0, "gladiator_2", 2)
    set_count(state, 0, "wall_guard", 13)
    set_count(state, 0, "wall", 7)
    points = scoring.score(state, 0)["guidelines"]
    assert points == {"p0-engineer": 2, "p0-aristocrat": 2, "p0-ranger": 2, "p0-trainer": 2, "p0-vanguard": 2,
                      "p0-defender": 1}
    assert scoring.card_points(p, "p0-forager") == 0
    set_count(state, 0, "production", 9)
    assert scoring.card_points(p, "p0-forager") == 3


def test_hw_48_to_50_the_bare_total_is_the_scored_total() -> None:
    """``scoring.total`` (for the bots) must equal the breakdown's total, at every stage."""
    compared = 0
    for state in sampled_positions(11, every=8):
        for reader in range(3):
            assert scoring.total(state, reader) == scoring.score(state, reader)["total"]
            compared += 1
    assert compared > 100


def test_hw_51_ties_least_disdain_then_guidelines() -> None:
    state = main(3)
    for seat, (disdain, goods) in enumerate(((1, 0), (0, 0), (0, 4))):
        p = state.players[seat]
        p.guidelines = [f"p{seat}-merchant"]
        p.disdain = disdain
        p.goods = [1] * goods + [0] * (8 - goods)
        set_count(state, seat, "goods", goods)
        set_count(state, seat, "renown", 5 + (1 if disdain else 0) - (1 if goods else 0))
    result = scoring.result(state)
    assert result.scores == (5, 5, 5)
    assert result.ranks == (3, 2, 1)
    assert isinstance(result, Result)


def test_hw_52_hidden_information() -> None:
    state = new(3, seed=11)
    hand = state.players[0].hand[:]
    G.apply(state, 0, {"type": "choose", "guideline": hand[0]})
    secrets = G.secrets(state)
    assert set(hand) <= secrets[0]
    assert set(state.fate_deck) <= secrets[None]
    for reader in (1, 2, None):
        text = json.dumps(G.view(state, reader))
        assert all(json.dumps(c) not in text for c in hand)
    choose_all(state)
    # Once every seat has chosen, both cards are revealed to all (HW-5).
    text = json.dumps(G.view(state, 1))
    assert json.dumps(hand[1]) in text and json.dumps(hand[0]) in text
    assert hand[0] not in G.secrets(state)[0]


def test_hw_53_the_last_attack_ends_the_game() -> None:
    state = main(1, seed=2)
    for _ in range(5):
        end_year_all(state)
        choose_all(state)
    assert state.year == 6
    end_year_all(state)
    assert state.phase == "over" and state.year == 6
    assert G.legal(state, 0) == [] and G.pending(state) == []
    assert state.players[0].todo == []


def _on_top(state, attack: str) -> None:
    card = next(c.id for c in C.fate if c.attack == attack and c.id in state.fate_deck)
    state.fate_deck.remove(card)
    state.fate_deck.append(card)


def test_hw_41_a_cohort_never_covers_another_direction() -> None:
    state = main(1, seed=5)
    set_count(state, 0, "cohort_left", 6)
    set_count(state, 0, "cohort_centre", 6)
    _on_top(state, "right")
    end_year_all(state)
    attack = state.last_attack[0]
    assert (attack["left"], attack["centre"], attack["right"]) == (0, 0, 1)
    assert attack["breaches"] == 1 and state.players[0].disdain == 1
    other = main(1)
    set_count(other, 0, "cohort_right", 2)
    out = years.resolve_attack(other.players[0], [0, 0, 3], 4)  # two blocked, the third breaches
    assert (out["breaches"], out["disdain"], out["valour"]) == (1, 1, 3)


def test_hw_44_attack_valour_gives_workers_for_next_year() -> None:
    state = main(1, seed=4)
    for name in ("cohort_left", "cohort_centre", "cohort_right"):
        set_count(state, 0, name, 6)
    set_count(state, 0, "valour", 2)
    end_year_all(state)  # year 1: a full defence is worth 1 valour, the 3rd box: a soldier
    assert state.year == 2 and state.players[0].count[C.section_index["valour"]] == 3
    gain = C.fate_index[state.year_card].gain
    assert state.players[0].stock[0] == gain[0] + 1


def test_hw_50_guideline_cards_architect_fighter_merchant_planner_pontiff() -> None:
    state = main(1)
    p = state.players[0]
    set_count(state, 0, "archway", 1)
    set_count(state, 0, "statue", 1)
    assert scoring.card_points(p, "p0-architect") == 2
    set_count(state, 0, "cohort_left", 6)
    set_count(state, 0, "cohort_right", 5)
    assert scoring.card_points(p, "p0-fighter") == 1
    p.goods = [2, 2, 2, 2, 2, 2, 0, 0]
    set_count(state, 0, "goods", 6)
    assert scoring.card_points(p, "p0-merchant") == 2  # repeats count
    for name in ("traders", "performers", "priests", "apparitors"):
        set_count(state, 0, name, 9)
    assert scoring.card_points(p, "p0-planner") == 2
    set_count(state, 0, "patricians", 9)
    assert scoring.card_points(p, "p0-planner") == 3
    set_count(state, 0, "small_temple", 1)
    set_count(state, 0, "medium_temple", 2)
    assert scoring.card_points(p, "p0-pontiff") == 1
    set_count(state, 0, "medium_temple", 3)
    set_count(state, 0, "large_temple", 3)
    assert scoring.card_points(p, "p0-pontiff") == 3


def test_hw_52_choosing_shows_nothing_to_the_others_until_all_chose() -> None:
    state = main(2, seed=7)
    end_year_all(state)
    assert state.year == 2 and state.phase == "choose"
    old = [p.prospect for p in state.players]
    hand = state.players[0].hand[:]
    events = G.apply(state, 0, {"type": "choose", "guideline": hand[1]})
    assert all(card not in json.dumps([e.args for e in events]) for card in hand)
    p = state.players[0]
    assert p.prospect == old[0] and len(p.guidelines) == 1  # nothing changes before all chose
    assert G.legal(state, 0) == [] and [d.seat for d in G.pending(state)] == [1]
    other = json.dumps(G.view(state, 1))
    assert all(json.dumps(card) not in other for card in hand)
    choose_all(state)
    assert p.prospect == hand[0] and p.guidelines[-1] == hand[1]
