"""Playing whole matches with bots in every seat (simulate, tests, benchmarks)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ludoteca.engine import Game, Match, Rng

from .base import Bot, BotContext, Budget


def bot_rng(seed: int, seat: int) -> Rng:
    """Each seat's bot gets its own generator, derived from the match seed."""
    return Rng((seed * 1_000_003 + seat * 7_919 + 0x5EED) & ((1 << 64) - 1))


def play_match(game: Game[Any], seats: int, options: Mapping[str, object] | None, seed: int,
               bots: Sequence[Bot], budget: Budget | None = None, max_moves: int | None = None) -> Match:
    """Play a whole match through the checked path (``Match.play``). Where several seats
    decide at once, they are asked in seat order, each from its own view."""
    match = Match.new(game.id, seats, options, seed, game=game)
    rngs = [bot_rng(seed, seat) for seat in range(seats)]
    limit = max_moves or game.max_moves
    while not match.over:
        pending = match.pending()
        if not pending:
            raise RuntimeError(f"{game.id}: the game is not over but no seat has a decision")
        seat = pending[0]
        ctx = BotContext(game, match.state, seat, rngs[seat], budget)
        match.play(seat, bots[seat].choose(ctx))
        if match.version > limit:
            raise RuntimeError(f"{game.id}: no result after {limit} moves")
    return match


def random_playout(game: Game[Any], state: Any, rng: Rng, max_moves: int | None = None) -> int:
    """Play uniformly random legal moves on ``state`` in place, unchecked (fast); return
    the number of decisions taken."""
    limit = max_moves or game.max_moves
    moves = 0
    while game.result(state) is None:
        seat = game.pending(state)[0].seat
        game.perform(state, seat, rng.choice(game.legal(state, seat)))
        moves += 1
        if moves > limit:
            raise RuntimeError(f"{game.id}: no result after {limit} moves")
    return moves
