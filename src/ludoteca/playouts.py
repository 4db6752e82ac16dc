"""Engine speed by random playouts, shared by ``ludoteca bench`` and the bench/ scripts."""

from __future__ import annotations

import copy
import time
from collections.abc import Iterator
from typing import Any

from rich.console import Console

from ludoteca.engine import Game, Rng


def measure(game: Game[Any], players: int, seconds: float, seed: int = 0,
            progress: Console | None = None) -> dict[str, Any]:
    """Random playouts for about ``seconds`` of CPU time, then clone timing on a mid-game state."""
    rng = Rng(seed)
    games = decisions = legal_total = 0
    mid_state = None
    # CPU time is what "per core" means, and it stays stable on a loaded machine; the
    # wall-clock figure is kept beside it.
    started = time.perf_counter()
    cpu_started = time.process_time()
    deadline = cpu_started + seconds
    while time.process_time() < deadline:
        state = game.setup(players, None, seed + games)
        moves = 0
        while game.result(state) is None:
            seat = game.pending(state)[0].seat
            legal = game.legal(state, seat)
            legal_total += len(legal)
            game.perform(state, seat, rng.choice(legal))
            moves += 1
            if mid_state is None and moves == 40:
                mid_state = game.clone(state)
        decisions += moves
        games += 1
    elapsed = time.process_time() - cpu_started
    wall = time.perf_counter() - started
    sample = mid_state if mid_state is not None else game.setup(players, None, seed)
    clone_us = _per_call(lambda: game.clone(sample)) * 1e6
    deepcopy_us = _per_call(lambda: copy.deepcopy(sample), budget=0.3) * 1e6
    if progress:
        progress.print(f"[dim]{games} games in {elapsed:.2f} s of CPU time ({wall:.2f} s wall-clock)[/dim]")
    return {
        "game": game.id,
        "players": players,
        "games": games,
        "cpu_seconds": round(elapsed, 3),
        "wall_seconds": round(wall, 3),
        "games_per_second": games / elapsed,
        "decisions_per_second": decisions / elapsed,
        "decisions_per_game": decisions / max(games, 1),
        "legal_moves_per_decision": legal_total / max(decisions, 1),
        "clone_microseconds": clone_us,
        "deepcopy_microseconds": deepcopy_us,
        "clone_speedup_over_deepcopy": deepcopy_us / clone_us,
    }


def _per_call(fn: Any, budget: float = 0.3) -> float:
    calls = 0
    started = time.process_time()
    while True:
        for _ in range(100):
            fn()
        calls += 100
        elapsed = time.process_time() - started
        if elapsed > budget:
            return elapsed / calls


def midgame_contexts(game: Game[Any], players: int, seed: int = 0, positions: int = 5) -> Iterator[Any]:
    """Decisions to search from: ``positions`` games of seeds ``seed``, ``seed + 1``, ...
    each played at random for 10 to 49 moves; a game over by then, or a decision with a
    single legal move, is skipped. Yields a BotContext for the seat to decide."""
    from ludoteca.bots.base import BotContext

    rng = Rng(seed)
    for position in range(positions):
        state = game.setup(players, None, seed + position)
        for _ in range(rng.below(40) + 10):
            if game.result(state) is not None:
                break
            seat = game.pending(state)[0].seat
            game.perform(state, seat, rng.choice(game.legal(state, seat)))
        if game.result(state) is not None:
            continue
        ctx = BotContext(game, state, game.pending(state)[0].seat, rng.fork())
        if len(ctx.legal) > 1:
            yield ctx
