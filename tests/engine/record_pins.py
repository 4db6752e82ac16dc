"""Record pins: a digest of a seeded random-bot game, move for move.

Engine speed work must not change behaviour. A pin hashes, at every decision, who was
asked what (the pending decisions), every legal move in order, the move the seeded
random bot chose and the events it caused; every few moves the full state JSON, the
spectator's view and the mover's view, and that a clone serialises the same; at the end
the final state and the result. Same seed, same digest, before and after an optimisation.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any

from ludoteca.engine import Game, Rng, canonical

CHECK_EVERY = 17


def record_digest(game: Game[Any], seats: int, options: Mapping[str, object] | None, seed: int) -> str:
    digest = hashlib.sha256()

    def feed(value: Any) -> None:
        digest.update(canonical(value).encode())
        digest.update(b"\n")

    state = game.setup(seats, options, seed)
    bot = Rng(seed * 7919 + seats)
    moves = 0
    while game.result(state) is None:
        decisions = game.pending(state)
        feed([d.to_json() for d in decisions])
        seat = decisions[bot.below(len(decisions))].seat if len(decisions) > 1 else decisions[0].seat
        legal = game.legal(state, seat)
        feed(legal)
        move = legal[bot.below(len(legal))]
        events = game.perform(state, seat, move)
        feed([seat, move, [e.to_json() for e in events]])
        moves += 1
        if moves % CHECK_EVERY == 0:
            full = game.to_json(state)
            assert game.to_json(game.clone(state)) == full
            feed(full)
            feed(game.view(state, None))
            feed(game.view(state, seat))
        assert moves <= game.max_moves
    feed(game.to_json(state))
    result = game.result(state)
    assert result is not None
    feed(result.to_json())
    feed(moves)
    return digest.hexdigest()
