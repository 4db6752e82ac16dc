"""Crusaders bot hooks (ludoteca.games.crusaders.ai): evaluation, rollout policy, playouts."""

from __future__ import annotations

from typing import Any

import pytest

from ludoteca.bots import BotContext, Budget, ISMCTSBot
from ludoteca.engine import Game, Rng, canonical
from ludoteca.games import load
from ludoteca.games.crusaders import ai
from ludoteca.games.crusaders.state import CrusadersState


@pytest.fixture(scope="module")
def game() -> Game[Any]:
    return load("crusaders")


def _walk(game: Game[Any], state: CrusadersState, rng: Rng, steps: int) -> CrusadersState:
    """Uniform random moves from ``state`` (in place) until ``steps`` are played or the game ends."""
    for _ in range(steps):
        if game.result(state) is not None:
            break
        seat = game.pending(state)[0].seat
        game.perform(state, seat, rng.choice(game.legal(state, seat)))
    return state


def _play(game: Game[Any], state: CrusadersState, rng: Rng, policy: bool) -> int:
    """Play to the end with the rollout policy (or uniformly at random) for every seat;
    return the number of decisions."""
    moves = 0
    while game.result(state) is None:
        seat = game.pending(state)[0].seat
        legal = game.legal(state, seat)
        game.perform(state, seat, ai.rollout_policy(game, state, seat, legal, rng) if policy else rng.choice(legal))
        moves += 1
        assert moves <= game.max_moves
    return moves


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_evaluate_one_value_per_seat_in_unit_range(game: Game[Any], seats: int) -> None:
    rng = Rng(seats)
    for seed in range(4):
        state = game.setup(seats, None, seed)
        for steps in (0, 5, 40, 150, 400, 5000):
            _walk(game, state, rng, steps if steps < 5000 else game.max_moves)
            values = ai.evaluate(game, state)
            assert len(values) == seats
            assert all(0.0 <= v <= 1.0 for v in values), values
            # the win share part sums to 0.9, the score place part adds at most 0.1 per seat
            assert 0.9 - 1e-9 <= sum(values) <= 0.9 + 0.1 * seats + 1e-9


def test_more_influence_evaluates_higher(game: Game[Any]) -> None:
    rng = Rng(3)
    for seats, steps in ((2, 30), (2, 200), (3, 120), (4, 60)):
        state = _walk(game, game.setup(seats, None, steps), rng, steps)
        assert game.result(state) is None
        base = ai.evaluate(game, state)
        for seat in range(seats):
            richer = state.clone()
            richer.players[seat].influence += 25
            values = ai.evaluate(game, richer)
            assert values[seat] > base[seat]


def test_equal_boards_equal_values_and_the_leader_first(game: Game[Any]) -> None:
    state = game.setup(3, {"knight_orders": False, "wheel": "first_game"}, 1)
    while state.phase == "setup":
        seat = game.pending(state)[0].seat
        game.perform(state, seat, game.legal(state, seat)[0])
    values = ai.evaluate(game, state)
    assert values[0] == pytest.approx(values[1]) == pytest.approx(values[2])
    state.players[1].influence += 10
    state.players[2].influence += 20
    values = ai.evaluate(game, state)
    assert values[2] > values[1] > values[0]


def test_evaluate_a_finished_game_follows_the_result(game: Game[Any]) -> None:
    state = game.setup(2, None, 11)
    _play(game, state, Rng(11), policy=True)
    result = game.result(state)
    assert result is not None
    values = ai.evaluate(game, state)
    winner = result.ranks.index(1)
    if result.scores[0] != result.scores[1]:
        assert values[winner] > values[1 - winner]


@pytest.mark.parametrize("options", [None, {"knight_orders": False, "wheel": "individual"},
                                     {"wheel": "first_game"}, {"wheel": "learning"}, {"wheel": "tournament"},
                                     {"knight_orders": False, "wheel": "tournament"}])
def test_rollout_policy_returns_a_legal_move(game: Game[Any], options: dict[str, Any] | None) -> None:
    rng = Rng(5)
    checked = 0
    phases = set()
    for seats in (2, 3, 4, 5):
        for seed in range(3):
            state = game.setup(seats, options, seed)
            while game.result(state) is None and state.round < 30:
                seat = game.pending(state)[0].seat
                legal = game.legal(state, seat)
                move = ai.rollout_policy(game, state, seat, legal, rng)
                assert move in legal, (state.phase, move)
                checked += 1
                phases.add(state.phase)
                # walk on at random, so the policy sees states it would not reach itself
                game.perform(state, seat, move if rng.below(2) else rng.choice(legal))
    assert checked > 1000
    assert {"turn", "split", "move", "crusade", "build", "setup"} <= phases


def test_rollout_policy_draws_only_from_its_rng(game: Game[Any]) -> None:
    state = _walk(game, game.setup(3, None, 2), Rng(2), 60)
    seat = game.pending(state)[0].seat
    legal = game.legal(state, seat)
    before = canonical(game.to_json(state))
    picks = {canonical(ai.rollout_policy(game, state, seat, legal, Rng(9))) for _ in range(5)}
    assert len(picks) == 1
    assert canonical(game.to_json(state)) == before  # neither the state nor its rng is touched


def test_hidden_knight_orders_do_not_change_the_hooks(game: Game[Any]) -> None:
    # Seat 1 has chosen its order, seat 0 has not: samples for seat 0 differ only in seat 1's
    # hidden offers and choice, so seat 0's policy and evaluation must not differ.
    state = game.setup(2, None, 4)
    game.perform(state, 1, game.legal(state, 1)[0])
    assert state.phase == "order" and not state.revealed
    samples = [game.determinize(state, 0, Rng(i)) for i in range(12)]
    assert len({canonical(s.players[1].offers) for s in samples}) > 1
    legal = game.legal(state, 0)
    assert len({canonical(ai.rollout_policy(game, s, 0, legal, Rng(1))) for s in samples}) == 1
    assert len({tuple(ai.evaluate(game, s)) for s in samples}) == 1


@pytest.mark.parametrize("seats", [2, 4])
def test_policy_playouts_end_by_the_supply_long_before_random_ones(game: Game[Any], seats: int) -> None:
    # Measured over 20 seeds at two seats: the policy's games end after 28 rounds on
    # average (23-33), by the supply running out; uniform random ones all reach the
    # 60-round cap with the supply not empty.
    policy_rounds, random_rounds = [], []
    for seed in range(4):
        for policy, rounds in ((True, policy_rounds), (False, random_rounds)):
            state = game.setup(seats, None, seed)
            _play(game, state, Rng(seed), policy)
            assert game.result(state) is not None and state.phase == "over"
            rounds.append(state.round)
            if policy:
                assert state.ending and state.supply == 0
    assert max(policy_rounds) < 40, policy_rounds
    assert sum(policy_rounds) / len(policy_rounds) < 0.7 * sum(random_rounds) / len(random_rounds)


def test_ismcts_with_the_hooks_picks_a_legal_move(game: Game[Any]) -> None:
    state = _walk(game, game.setup(2, None, 8), Rng(8), 80)
    seat = game.pending(state)[0].seat
    ctx = BotContext(game, state, seat, Rng(1), Budget(iterations=30))
    move = ISMCTSBot(Budget(iterations=30)).choose(ctx)
    assert move in ctx.legal
