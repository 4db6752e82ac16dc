"""IW-12 to IW-18: half journey, tent majorities, the end, totems, settlements, winner, secrets.

Worked examples: each position is small enough to check by hand; the expected points
are spelled out in the comments.
"""

from __future__ import annotations

import json

import pytest
from iwari_helpers import GAME, deal, legal_types, new, play, put_tents, put_totems, tindex

from ludoteca.engine import Rng
from ludoteca.games.iwari.rules import CARD_IDS, CARD_INDEX
from ludoteca.games.iwari.scoring import (
    end_scoring,
    majority_points,
    settlements,
    tent_scoring,
    totem_scoring,
)
from ludoteca.games.iwari.state import OVER, START
from ludoteca.games.iwari.views import secrets


def _exhaust_on_next_draw(state) -> None:  # type: ignore[no-untyped-def]
    """Leave one card in the deck; the rest goes to the discard pile."""
    state.discard.extend(state.deck[:-1])
    del state.deck[:-1]


def test_iw_12_half_journey_scoring_when_the_deck_first_runs_out() -> None:
    state = new(3)
    put_tents(state, 0, "tundra-1.1", "tundra-1.2")
    put_tents(state, 1, "tundra-1.4")
    put_tents(state, 2, "forest-1.1")
    _exhaust_on_next_draw(state)
    discards = sorted(state.discard)
    play(state, 0, {"type": "discard", "card": GAME.legal(state, 0)[-1]["card"]})
    discarded = state.discard[-1]
    events = play(state, 0, {"type": "draw", "from": "deck"})
    assert "iwari.half_journey" in [e.key for e in events]
    # tundra-1: tribe 0 has 2 of 3 tents -> 3; tribe 1 scores tribe 0's 2; forest-1: tribe 2 alone -> 1
    assert state.scores == [3, 2, 1]
    assert state.exhaustions == 1 and not state.end_triggered
    assert state.half is not None and state.half[tindex(state, "tundra-1")] == [3, 2, 0]
    assert sorted(state.deck) == sorted([*discards, discarded]) and state.discard == []  # reshuffled
    assert state.current == 1  # the hand was full again: the turn passed


@pytest.mark.parametrize(("counts", "points"), [
    ([3, 3, 2, 1], [9, 9, 3, 2]),  # tie at the top: both score all 9; 2 scores 3, 1 scores 2
    ([4, 2, 0], [6, 4, 0]),  # absent tribes score nothing
    ([2, 2, 2], [6, 6, 6]),
    ([1, 3, 3, 2, 0], [2, 9, 9, 3, 0]),
    ([0, 0, 0], [0, 0, 0]),
    ([1, 2, 2, 1, 5], [2, 5, 5, 2, 11]),  # the 1s sit just below the tied 2s
])
def test_iw_13_tent_scoring_majority_and_the_player_just_above(counts: list[int], points: list[int]) -> None:
    assert majority_points(counts) == points


def test_iw_13_tent_scoring_on_the_board_with_ties_and_factor() -> None:
    state = new(4)
    put_tents(state, 0, "tundra-3.1", "tundra-3.2")
    put_tents(state, 1, "tundra-3.3", "tundra-3.4")
    put_tents(state, 2, "tundra-3.5")
    rows = tent_scoring(state)
    t = tindex(state, "tundra-3")
    assert rows[t] == [5, 5, 2, 0]
    state.territory_factor[t] = 2  # a feat on it
    assert tent_scoring(state)[t] == [10, 10, 4, 0]


def test_iw_14_end_when_the_deck_runs_out_again_after_the_round() -> None:
    state = new(3)
    state.exhaustions = 1
    _exhaust_on_next_draw(state)
    state.discard.clear()
    play(state, 0, {"type": "discard", "card": GAME.legal(state, 0)[-1]["card"]})
    events = play(state, 0, {"type": "draw", "from": "deck"})
    assert state.end_triggered and "iwari.end_triggered" in [e.key for e in events]
    assert GAME.result(state) is None and state.current == 1  # seats 1 and 2 still play
    for seat in (1, 2):
        play(state, seat, {"type": "discard", "card": GAME.legal(state, seat)[-1]["card"]})
        play(state, seat, GAME.legal(state, seat)[0])  # the deck is empty: from the display
    assert state.phase == OVER and GAME.result(state) is not None and state.turns == 3


def test_iw_14_end_when_a_tribe_places_its_last_tent() -> None:
    state = new(3)
    state.current = state.tribe = 2  # the last seat of the round
    state.tents_left[2] = 1
    put_tents(state, 0, "tundra-1.1")
    deal(state, 2, "tundra-01", "tundra-02", "tundra-03")
    play(state, 2, {"type": "territory", "territory": "tundra-1"})
    play(state, 2, {"type": "tent", "space": "tundra-1.2"})
    events = play(state, 2, {"type": "pay", "cards": ["tundra-01"]})
    assert state.end_triggered and events[-1].args["reason"] == "tents"
    assert "tent" not in {m["type"] for m in GAME.legal(state, 2)}  # no tent left
    play(state, 2, {"type": "done"})
    play(state, 2, {"type": "draw", "from": "deck"})
    assert state.phase == OVER  # seat 2 closed the round


def test_iw_14_end_scoring_adds_tents_totems_settlements() -> None:
    state = new(3)
    state.covered = [0] * len(state.covered)
    put_tents(state, 0, "tundra-1.1", "tundra-1.2", "tundra-1.3", "tundra-1.4")  # a settlement of 4
    put_tents(state, 1, "tundra-1.5")
    put_totems(state, "tundra-1", 1, 2)
    put_totems(state, "glacier-1", 1, 1)
    final = end_scoring(state)
    # tents: tundra-1, 4 + 1 tents: tribe 0 scores 5, tribe 1 scores 4
    # totems: connection 1 (tundra-1 + glacier-1): tribe 1 holds both majorities: 3 totems
    # settlements: tribe 0, 4 tents
    assert final["totals"] == [5 + 4, 4 + 3, 0]


def test_iw_15_totem_scoring_per_connection_with_ties() -> None:
    state = new(3)
    state.covered = [0] * len(state.covered)
    put_totems(state, "tundra-1", 0, 2)
    put_totems(state, "tundra-1", 1, 2)  # tundra-1: 2 / 2, tribes 0 and 1 both hold the majority
    put_totems(state, "glacier-1", 1, 1)
    put_totems(state, "glacier-1", 2, 1)  # glacier-1: tribes 1 and 2 tied
    put_totems(state, "forest-1", 0, 1)  # forest-1: tribe 0
    put_totems(state, "tundra-2", 2, 3)  # tundra-2: tribe 2
    rows = totem_scoring(state)
    assert rows[0] == [0, 6, 0]  # 1: tundra-1 + glacier-1: only tribe 1 holds both; 4 + 2 totems
    assert rows[1] == [5, 0, 0]  # 2: tundra-1 + forest-1: tribe 0 holds both; 4 + 1
    assert rows[2] == [0, 0, 5]  # 3: glacier-1 + tundra-2: tribe 2; 2 + 3
    assert rows[3] == [0, 0, 0]  # 4 (sea): glacier-1 + coast-1: nobody holds coast-1
    assert rows[4] == [0, 0, 0]  # 5: tundra-2 + forest-2: nobody holds forest-2
    # two tribes tied in both territories: both score everything
    put_totems(state, "tundra-3", 0, 1)
    put_totems(state, "tundra-3", 2, 1)
    put_totems(state, "glacier-2", 0, 2)
    put_totems(state, "glacier-2", 2, 2)
    assert totem_scoring(state)[12] == [6, 0, 6]  # 13: tundra-3 + glacier-2: 2 + 4 totems each
    state.connection_factor[2] = 2  # a feat on connection 3
    assert totem_scoring(state)[2] == [0, 0, 10]


def test_iw_15_mountains_worked_example() -> None:
    state = new(3)
    state.covered = [0] * len(state.covered)
    put_totems(state, "coast-1", 1, 1)
    put_totems(state, "forest-2", 1, 2)
    put_totems(state, "forest-2", 0, 1)
    put_totems(state, "tundra-2", 1, 1)
    before = totem_scoring(state)
    assert before[7] == [0, 4, 0]  # 8 (sea): coast-1 + forest-2, tribe 1 holds both: 1 + 3 totems
    assert before[4] == [0, 4, 0]  # 5: tundra-2 + forest-2: 1 + 3
    state.covered[7] = 1  # a mountain on connection 8 (a 3-peak spot)
    after = totem_scoring(state)
    assert after[7] == [0, 0, 0] and after[4] == before[4]  # only the covered one stops scoring


def test_iw_16_settlements_cross_territories() -> None:
    state = new(3)
    # tundra-1.4 - tundra-1.5 (its own road), tundra-1.5 - glacier-1.1 (a road between territories),
    # glacier-1.1 - glacier-1.2: four tents of tribe 0 in two territories
    put_tents(state, 0, "tundra-1.4", "tundra-1.5", "glacier-1.1", "glacier-1.2")
    put_tents(state, 1, "tundra-2.1", "tundra-2.2", "tundra-2.3")  # three tents: not a settlement
    groups = settlements(state)
    assert [len(g) for g in groups[0]] == [4]
    assert groups[1] == []
    # tundra-1: tribe 0 alone with 2 tents -> 2; glacier-1: alone with 2 -> 2; the settlement: 4
    assert sum(row[0] for row in tent_scoring(state)) == 2 + 2
    assert end_scoring(state)["totals"][0] == 2 + 2 + 4


def test_iw_16_another_tribe_interrupts_a_settlement() -> None:
    state = new(3)
    put_tents(state, 2, "desert-1.1", "desert-1.2", "desert-1.4", "tundra-3.1")
    put_tents(state, 0, "desert-1.3")  # cuts desert-1 in two
    assert settlements(state)[2] == []
    state2 = new(3)
    put_tents(state2, 2, "desert-1.1", "desert-1.2", "desert-1.3", "desert-1.4", "tundra-3.1")
    assert [len(g) for g in settlements(state2)[2]] == [5]  # 4 in desert-1 and 1 across the road


def test_iw_17_winner_and_tie_break_by_unused_pieces() -> None:
    state = new(3)
    state.phase = OVER
    state.scores = [10, 10, 8]
    state.tents_left = [5, 6, 9]
    result = GAME.result(state)
    assert result is not None and result.ranks == (2, 1, 3) and result.winners == (1,)
    assert result.tiebreak == ((5 + 8,), (6 + 8,), (9 + 8,))
    state.tents_left = [6, 6, 9]
    assert GAME.result(state).ranks == (1, 1, 3)  # type: ignore[union-attr]  # shared win


def test_iw_17_result_breakdown_adds_up() -> None:
    for seats in (2, 3, 5):
        state = new(seats, 4, feats=True, expeditions=True)
        rng = Rng(4)
        while GAME.result(state) is None:
            seat = GAME.pending(state)[0].seat
            GAME.perform(state, seat, rng.choice(GAME.legal(state, seat)))
        result = GAME.result(state)
        assert result is not None
        for seat, part in enumerate(result.breakdown):
            half = part.get("half_journey", {}).get("total", 0)
            assert half + part["end_journey"]["total"] + sum(part["expeditions"].values()) == result.scores[seat]
            end = part["end_journey"]
            assert end["total"] == (end["tents_total"] + end["totems_total"] + end["settlements_total"]
                                    + end["purple_road"])


def test_iw_18_hands_and_deck_are_hidden() -> None:
    state = new(3)
    deal(state, 0, "tundra-01", "coast-01", "desert-01")
    hidden = secrets(state)
    assert hidden[0] == {"tundra-01", "coast-01", "desert-01"}
    assert len(hidden[None]) == len(state.deck)
    other = json.dumps(GAME.view(state, 1))
    spectator = json.dumps(GAME.view(state, None))
    for card in hidden[0] | hidden[None]:
        assert f'"{card}"' not in other and f'"{card}"' not in spectator
    assert GAME.view(state, 0)["hand"] == ["tundra-01", "coast-01", "desert-01"]
    assert GAME.view(state, 1)["hand_sizes"] == [3, 3, 3] and GAME.view(state, 1)["deck"] == len(state.deck)
    play(state, 0, {"type": "discard", "card": "coast-01"})
    top = state.deck[-1]
    events = play(state, 0, {"type": "draw", "from": "deck"})
    public = [e for e in events if e.to is None]
    private = [e for e in events if e.to == 0]
    assert private and private[0].args["card"] == GAME.view(state, 0)["hand"][
        sorted(state.hands[0]).index(top)]
    assert all(f'"{card}"' not in json.dumps(e.to_json()) for e in public for card in CARD_IDS)
    assert state.phase == START and CARD_INDEX["coast-01"] in state.discard


def test_iw_18_a_draw_from_the_deck_cannot_be_undone() -> None:
    from ludoteca.engine import Match

    match = Match.new("iwari", 3, {}, 5, game=GAME)
    hand = GAME.legal(match.state, 0)
    discard = next(m for m in hand if m["type"] == "discard")
    match.play(0, discard)
    assert match.can_undo(0)  # nothing hidden was shown yet
    match.play(0, {"type": "draw", "from": "deck"})
    assert not match.can_undo(0)  # the deck's top card is now known


def test_iw_18_determinize_resamples_only_what_the_seat_cannot_see() -> None:
    state = new(4, 9)
    rng = Rng(1)
    unseen = sorted([*state.deck, *state.hands[1], *state.hands[2], *state.hands[3]])
    changed = False
    for _ in range(10):
        sample = GAME.determinize(state, 0, rng)
        assert sample.hands[0] == state.hands[0] and sample.display == state.display
        assert [len(h) for h in sample.hands] == [len(h) for h in state.hands]
        assert sorted([*sample.deck, *sample.hands[1], *sample.hands[2], *sample.hands[3]]) == unseen
        assert GAME.view(sample, 0) == GAME.view(state, 0)
        changed |= sample.hands[1] != state.hands[1]
    assert changed


def test_iw_18_state_json_round_trip_mid_game() -> None:
    state = new(2, 3, feats=True, expeditions=True, map="long-road")
    rng = Rng(3)
    for _ in range(120):
        seat = GAME.pending(state)[0].seat
        GAME.perform(state, seat, rng.choice(GAME.legal(state, seat)))
    data = json.loads(json.dumps(GAME.to_json(state)))
    again = GAME.from_json(data)
    assert GAME.to_json(again) == data
    assert GAME.legal(again, again.current) == GAME.legal(state, state.current)


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_iw_14_every_game_ends_well_within_max_moves(seats: int) -> None:
    longest = 0
    for seed in range(15):
        state = new(seats, seed, feats=True, expeditions=True)
        rng = Rng(seed)
        moves = 0
        while GAME.result(state) is None:
            seat = GAME.pending(state)[0].seat
            GAME.perform(state, seat, rng.choice(GAME.legal(state, seat)))
            moves += 1
        longest = max(longest, moves)
        assert state.end_triggered and state.exhaustions >= 1
    assert longest < GAME.max_moves // 4


def test_iw_14_first_seat_places_its_last_tent_the_round_is_played_out() -> None:
    state = new(3)
    state.tents_left[0] = 1
    put_tents(state, 1, "tundra-1.1")
    deal(state, 0, "tundra-01", "tundra-02", "tundra-03")
    play(state, 0, {"type": "territory", "territory": "tundra-1"})
    play(state, 0, {"type": "tent", "space": "tundra-1.2"})
    play(state, 0, {"type": "pay", "cards": ["tundra-01"]})
    assert state.end_triggered and state.tents_left[0] == 0
    assert legal_types(state, 0) == {"totem", "done"}  # no tent left, a totem still goes
    play(state, 0, {"type": "done"})
    play(state, 0, {"type": "draw", "from": "deck"})
    for seat in (1, 2):  # the other seats still play their turn of this round
        assert GAME.result(state) is None and state.current == seat and state.phase == START
        play(state, seat, {"type": "discard", "card": GAME.legal(state, seat)[-1]["card"]})
        play(state, seat, {"type": "draw", "from": "deck"})
    assert state.phase == OVER and state.turns == 3 and GAME.result(state) is not None
