"""Iwari's bot hooks (ludoteca.games.iwari.ai): shapes, sense, legality, no peeking."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from ludoteca.bots import BotContext, Budget, ISMCTSBot
from ludoteca.engine import Rng, canonical
from ludoteca.games import load
from ludoteca.games.iwari import IwariGame, ai
from ludoteca.games.iwari.state import OVER, START, IwariState

from .walks import unfinished_states

GAME: IwariGame = load("iwari")  # type: ignore[assignment]

OPTION_SETS: tuple[dict[str, Any], ...] = (
    {},
    {"feats": True, "expeditions": True},
    {"map": "floating-lands", "feats": True},
    {"map": "long-road", "expeditions": True},
    {"map": "glacial-mass"},
)


def random_states(seats: int, count: int, seed: int, options: dict[str, Any] | None = None) -> Iterator[IwariState]:
    """Unfinished states reached by uniform random play, at every stage of the game."""
    return unfinished_states(GAME, seats, count, seed, 260, options)


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_evaluate_one_value_per_seat_in_unit_range(seats: int) -> None:
    seen = 0
    for options in OPTION_SETS:
        for state in random_states(seats, 6, seats, options):
            values = ai.evaluate(GAME, state)
            assert len(values) == seats
            assert all(0.0 <= v <= 1.0 for v in values), values
            seen += 1
    assert seen >= 20


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_equal_positions_evaluate_equal(seats: int) -> None:
    state = GAME.setup(seats, {}, 3)
    values = ai.evaluate(GAME, state)
    assert max(values) - min(values) < 1e-9
    # As many tents for every seat's tribe in one territory: tied majorities, so still
    # (nearly) equal (settlement hopes aside: which spaces touch differs a little).
    board = state.board
    tribes = state.tribes
    t = max(board.territories, key=lambda t: len(t.spaces))
    each = len(t.spaces) // seats
    for seat in range(seats):
        for space in t.spaces[each * seat:each * seat + each]:
            state.tents[space] = seat
            state.tent_count[t.index * tribes + seat] += 1
            state.free[t.index] -= 1
            state.tents_left[seat] -= 1
            state.pieces_in[t.index] += 1
    values = ai.evaluate(GAME, state)
    assert max(values) - min(values) < 0.02, values


def test_more_points_evaluate_higher() -> None:
    for state in random_states(2, 10, 7):
        before = ai.evaluate(GAME, state)
        richer = state.copy()
        richer.scores[0] += 15
        after = ai.evaluate(GAME, richer)
        assert after[0] > before[0] and after[1] < before[1]
    # On an empty board, a seat ahead on points is expected to win.
    state = GAME.setup(3, {}, 1)
    state.scores[1] = 10
    values = ai.evaluate(GAME, state)
    assert values[1] > values[0] == pytest.approx(values[2])


def test_a_tent_majority_counts_for_its_holder() -> None:
    state = GAME.setup(2, {}, 2)
    t = max(state.board.territories, key=lambda t: len(t.spaces))
    for space in t.spaces[:3]:
        state.tents[space] = 1
        state.tent_count[t.index * state.tribes + 1] += 1
        state.free[t.index] -= 1
        state.tents_left[1] -= 1
        state.pieces_in[t.index] += 1
    values = ai.evaluate(GAME, state)
    assert values[1] > 0.5 > values[0]
    points = ai.estimate_points(state)
    # 3 tents of one tribe: 3 points at half journey, 3 more at the end, plus half a
    # settlement if they touch.
    assert 6 - 1e-9 <= points[1] - points[0] <= 6 + 1.5 + 1e-9


def test_a_discard_changes_no_evaluation() -> None:
    """The search spreads its priors over the differences among sibling moves: if a
    discard moved the evaluation at all (say, as progress of the game), a trailing seat
    would be pushed to discard instead of placing (seen: 8 discards in one game)."""
    checked = 0
    for state in random_states(2, 30, 70):
        if state.phase != START:
            continue
        seat = state.current
        values = ai.evaluate(GAME, state)
        for move in GAME.legal(state, seat):
            if move["type"] == "discard":
                after = state.copy()
                GAME.perform(after, seat, move)
                if after.phase != START:  # still mid-turn (the draw comes next)
                    assert ai.evaluate(GAME, after) == pytest.approx(values)
                    checked += 1
    assert checked >= 3


@pytest.mark.parametrize("seats", [2, 3, 5])
def test_rollout_policy_returns_a_legal_move(seats: int) -> None:
    rng = Rng(11)
    checked = 0
    for options in OPTION_SETS:
        for state in random_states(seats, 8, 20 + seats, options):
            # Walk on with the policy from each state: every phase gets asked.
            for _ in range(40):
                if GAME.result(state) is not None:
                    break
                seat = GAME.pending(state)[0].seat
                legal = GAME.legal(state, seat)
                move = ai.rollout_policy(GAME, state, seat, legal, rng)
                assert canonical(move) in {canonical(m) for m in legal}
                GAME.apply(state, seat, move)  # the checked path
                checked += 1
    assert checked > 500


def test_rollout_policy_does_not_discard_while_it_can_place() -> None:
    rng = Rng(5)
    starts = 0
    for state in random_states(2, 40, 31):
        if state.phase != START:
            continue
        seat = state.current
        legal = GAME.legal(state, seat)
        if legal[0]["type"] != "territory":
            continue
        for _ in range(10):
            assert ai.rollout_policy(GAME, state, seat, legal, rng)["type"] == "territory"
        starts += 1
    assert starts >= 3


def _hidden_resampled(state: IwariState, seat: int, seed: int) -> IwariState:
    other = GAME.determinize(state, seat, Rng(seed))
    assert other.hands[seat] == state.hands[seat]
    return other


def test_hooks_read_no_hidden_information() -> None:
    """Evaluate and the policy give the same answer whatever the other hands and the
    deck's order, as determinize resamples them from the deciding seat's view."""
    differing = 0
    for seats in (2, 3, 4):
        for state in random_states(seats, 12, 40 + seats):
            seat = state.current
            values = ai.evaluate(GAME, state)
            legal = GAME.legal(state, seat)
            move = ai.rollout_policy(GAME, state, seat, legal, Rng(9))
            for seed in range(4):
                other = _hidden_resampled(state, seat, seed)
                differing += other.hands != state.hands or other.deck != state.deck
                assert ai.evaluate(GAME, other) == values
                other_legal = GAME.legal(other, seat)
                assert other_legal == legal
                assert ai.rollout_policy(GAME, other, seat, other_legal, Rng(9)) == move
            # And from another seat's view (its own hand kept, the mover's resampled):
            # the evaluation of the board does not change either.
            watcher = (seat + 1) % seats
            assert ai.evaluate(GAME, GAME.determinize(state, watcher, Rng(99))) == values
    assert differing > 50


def test_policy_playouts_end_cleanly_and_beat_random() -> None:
    rng = Rng(3)
    wins = 0.0
    games = 12
    for n in range(games):
        state = GAME.setup(2, {}, 500 + n)
        hero = n % 2
        moves = 0
        while GAME.result(state) is None:
            seat = GAME.pending(state)[0].seat
            legal = GAME.legal(state, seat)
            move = ai.rollout_policy(GAME, state, seat, legal, rng) if seat == hero else rng.choice(legal)
            GAME.perform(state, seat, move)
            moves += 1
            assert moves <= GAME.max_moves
        assert state.phase == OVER
        result = GAME.result(state)
        assert result is not None
        scores = result.scores
        wins += 1.0 if scores[hero] > scores[1 - hero] else 0.5 if scores[hero] == scores[1 - hero] else 0.0
    # Measured: the policy won 99.5% of 200 such games, 51 points to 26 on average.
    assert wins / games >= 0.8


def test_ismcts_with_the_hooks_plays_legal_moves() -> None:
    for state in random_states(2, 3, 60):
        seat = GAME.pending(state)[0].seat
        ctx = BotContext(GAME, state, seat, Rng(1), Budget(iterations=15))
        bot = ISMCTSBot(Budget(iterations=15))
        assert canonical(bot.choose(ctx)) in {canonical(m) for m in ctx.legal}
