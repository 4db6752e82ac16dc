"""Game states for the hooks' tests: reached by play, at every stage of a game."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from ludoteca.engine import Game, Move, Rng, Seat

Policy = Callable[[Game[Any], Any, Seat, list[Move], Rng], Move]


def unfinished_states(game: Game[Any], seats: int, count: int, seed: int, most_steps: int,
                      options: dict[str, Any] | None = None, policy: Policy | None = None) -> Iterator[Any]:
    """``count`` games from fresh set-ups, each played for a random number of decisions
    below ``most_steps`` (uniformly at random, or by ``policy``); yields those not over."""
    rng = Rng(seed)
    for n in range(count):
        state = game.setup(seats, options or {}, seed * 1000 + n)
        for _ in range(rng.below(most_steps)):
            if game.result(state) is not None:
                break
            seat = game.pending(state)[0].seat
            legal = game.legal(state, seat)
            game.perform(state, seat, policy(game, state, seat, legal, rng) if policy else rng.choice(legal))
        if game.result(state) is None:
            yield state
