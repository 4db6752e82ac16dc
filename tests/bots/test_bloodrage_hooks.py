"""Blood Rage's bot hooks (ludoteca.games.bloodrage.ai): shapes, sense, legality, no peeking."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ludoteca.bots import BotContext, Budget, ISMCTSBot
from ludoteca.engine import Rng, canonical
from ludoteca.games import load
from ludoteca.games.bloodrage import BloodRageGame, ai
from ludoteca.games.bloodrage.components import LOC_INDEX, OUTER, RESERVE
from ludoteca.games.bloodrage.state import BRState

from .walks import unfinished_states

GAME: BloodRageGame = load("bloodrage")  # type: ignore[assignment]


def random_states(seats: int, count: int, seed: int) -> Iterator[BRState]:
    """Unfinished states reached by uniform random play, at every stage of the game."""
    return unfinished_states(GAME, seats, count, seed, 30 + 40 * seats)


def test_the_evaluation_has_a_weight_per_feature_in_every_age() -> None:
    assert all(len(w) == len(ai.FEATURES) for w in ai.WEIGHTS.values())


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_evaluate_one_value_per_seat_in_unit_range(seats: int) -> None:
    ages = set()
    seen = 0
    for state in random_states(seats, 25, seats):
        values = ai.evaluate(GAME, state)
        assert len(values) == seats
        assert all(0.0 <= v <= 1.0 for v in values), values
        ages.add(state.age)
        seen += 1
    assert seen >= 15 and len(ages) >= 2


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_the_start_evaluates_equal(seats: int) -> None:
    values = ai.evaluate(GAME, GAME.setup(seats, {}, 5))
    assert max(values) - min(values) < 1e-9


def test_more_glory_evaluates_higher() -> None:
    checked = 0
    for state in random_states(2, 15, 7):
        before = ai.evaluate(GAME, state)
        richer = state.clone()
        richer.glory[0] += 15
        after = ai.evaluate(GAME, richer)
        assert after[0] > before[0] and after[1] < before[1]
        checked += 1
    assert checked >= 10
    state = GAME.setup(3, {}, 1)
    state.glory[1] = 10
    values = ai.evaluate(GAME, state)
    assert values[1] > values[0] == pytest.approx(values[2])


def test_a_winnable_pillage_and_a_legendary_stat_count() -> None:
    state = GAME.setup(2, {}, 2)
    p = next(p for p in OUTER if not state.destroyed[p] and p != state.ragnarok[0])
    leader = state.kinds[1].index("leader")
    state.locs[1][leader] = p  # seat 1 alone in an unpillaged province
    assert state.locs[1][leader] != RESERVE
    values = ai.evaluate(GAME, state)
    assert values[1] > 0.5 > values[0]
    state = GAME.setup(2, {}, 2)
    state.stats[0][1] = 3  # Axes at the 4th step: 10 glory at the end (BR-51)
    points = ai.estimate_points(state)
    assert points[0] - points[1] >= 10


def test_a_pass_is_not_rewarded() -> None:
    """The search spreads its priors over the differences among sibling moves: a pass
    (which forfeits the rest of the rage and this age's pillages) must never evaluate
    better for the passing seat than the state before it."""
    checked = 0
    for seats in (2, 3):
        for state in random_states(seats, 60, 70 + seats):
            if state.phase != "action" or state.stack:
                continue
            seat = state.turn
            legal = GAME.legal(state, seat)
            if len(legal) < 2:
                continue
            points = ai.estimate_points(state)
            after = state.clone()
            GAME.perform(after, seat, {"type": "pass"})
            if after.age != state.age or after.phase != "action":
                continue  # the pass ended the phase: quests and Ragnarok ran
            assert ai.estimate_points(after)[seat] <= points[seat] + 1e-9
            checked += 1
    assert checked >= 10


def test_hidden_moves_change_no_evaluation() -> None:
    """Draft picks and face-down battle cards move only hidden cards: every such sibling
    evaluates the same, so the search's prior favours none of them."""
    checked = 0
    for state in random_states(3, 60, 90):
        decisions = GAME.pending(state)
        if not decisions:
            continue
        seat = decisions[0].seat
        legal = GAME.legal(state, seat)
        if legal[0]["type"] not in ("pick", "play") or len(legal) < 2:
            continue
        values = set()
        for move in legal:
            after = state.clone()
            GAME.perform(after, seat, move)
            if after.battle is not None and any(after.battle.played):
                break  # the last card chosen: the reveal is public and may differ
            values.add(tuple(ai.evaluate(GAME, after)))
        else:
            assert len(values) == 1
            checked += 1
    assert checked >= 5


def test_evaluate_reads_no_hidden_information() -> None:
    """From every seat's point of view, determinize resamples the other hands, packs,
    face-down quests and battle cards and the decks: the evaluation (of every seat) must
    not move, as it may read none of them."""
    differing = 0
    for seats in (2, 3, 4):
        for state in random_states(seats, 15, 40 + seats):
            values = ai.evaluate(GAME, state)
            for watcher in range(seats):
                for seed in range(3):
                    other = GAME.determinize(state, watcher, Rng(seed))
                    differing += other.hands != state.hands or other.quests != state.quests
                    assert ai.evaluate(GAME, other) == values
    assert differing > 50


def test_rollout_policy_reads_only_its_own_hand() -> None:
    for state in random_states(3, 20, 50):
        seat = GAME.pending(state)[0].seat
        legal = GAME.legal(state, seat)
        move = ai.rollout_policy(GAME, state, seat, legal, Rng(9))
        for seed in range(3):
            other = GAME.determinize(state, seat, Rng(seed))
            other_legal = GAME.legal(other, seat)
            assert other_legal == legal
            assert ai.rollout_policy(GAME, other, seat, other_legal, Rng(9)) == move


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_rollout_policy_returns_a_legal_move(seats: int) -> None:
    rng = Rng(11)
    checked = 0
    for state in random_states(seats, 6, 20 + seats):
        for _ in range(80):
            if GAME.result(state) is not None:
                break
            seat = GAME.pending(state)[0].seat
            legal = GAME.legal(state, seat)
            move = ai.rollout_policy(GAME, state, seat, legal, rng)
            assert canonical(move) in {canonical(m) for m in legal}
            GAME.apply(state, seat, move)  # the checked path
            checked += 1
    assert checked > 200


def test_policy_prefers_a_winning_pillage() -> None:
    state = GAME.setup(2, {}, 4)
    while state.phase != "action" or state.stack:
        seat = GAME.pending(state)[0].seat
        GAME.perform(state, seat, GAME.legal(state, seat)[0])
    seat = state.turn
    p = next(p for p in OUTER if not state.destroyed[p])
    leader = state.kinds[seat].index("leader")
    state.locs[seat][leader] = p
    legal = GAME.legal(state, seat)
    rng = Rng(1)
    pillages = sum(ai.rollout_policy(GAME, state, seat, legal, rng)["type"] == "pillage" for _ in range(400))
    # Half the time at least (once in ten the policy plays uniformly instead).
    assert pillages >= 160
    assert LOC_INDEX  # the board's locations are importable for tests like this one


def test_playouts_with_the_hooks_end_cleanly() -> None:
    rng = Rng(3)
    for n, seats in enumerate((2, 3, 4, 2)):
        state = GAME.setup(seats, {}, 500 + n)
        moves = 0
        while GAME.result(state) is None:
            seat = GAME.pending(state)[0].seat
            legal = GAME.legal(state, seat)
            GAME.perform(state, seat, ai.rollout_policy(GAME, state, seat, legal, rng))
            values = ai.evaluate(GAME, state)
            assert len(values) == seats
            moves += 1
            assert moves <= GAME.max_moves
        assert state.over
        result = GAME.result(state)
        assert result is not None and len(result.scores) == seats
        assert ai.estimate_points(state) == [float(g) for g in state.glory]


def test_ismcts_with_the_hooks_plays_legal_moves() -> None:
    for state in random_states(2, 3, 60):
        seat = GAME.pending(state)[0].seat
        ctx = BotContext(GAME, state, seat, Rng(1), Budget(iterations=15))
        bot = ISMCTSBot(Budget(iterations=15))
        assert canonical(bot.choose(ctx)) in {canonical(m) for m in ctx.legal}
