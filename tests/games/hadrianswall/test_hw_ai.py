"""The bot hooks: the rollout policy plays legal moves, the evaluation is on the reward's scale."""

from __future__ import annotations

from ludoteca.engine import Rng
from ludoteca.games.hadrianswall import ai

from .hw_helpers import G, new


def test_hw_ai_rollout_policy_and_evaluation() -> None:
    for seats in (1, 3):
        state = new(seats, seed=seats)
        rng = Rng(5)
        steps = 0
        while G.result(state) is None:
            seat = G.pending(state)[0].seat
            legal = G.legal(state, seat)
            move = ai.rollout_policy(G, state, seat, legal, rng)
            assert move in legal
            G.perform(state, seat, move)
            steps += 1
            if steps % 50 == 0:
                values = ai.evaluate(G, state)
                assert len(values) == seats
                if seats > 1:
                    assert abs(sum(values) - 1.0) < 1e-9 and all(0.0 <= v <= 1.0 for v in values)
        assert steps <= G.max_moves
