"""Bots think in worker processes, so that a search of a second never holds the serving
process's interpreter (its GIL) while other tables' moves wait.

The pool's processes are started with ``spawn`` (a fork of a threaded server could
inherit a lock held mid-way) the first time a bot must think, and load what the server
has: the installed games through their entry points, and the games registered in this
process only (a test's, a plugin file's), handed over when the pool starts. A decision
travels as the game's id, the state's JSON (the engine's exact round trip), the seat,
the generator's seed, the legal moves and the budget; the answer is the move.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any

from ludoteca.bots import Budget, make_bot
from ludoteca.bots.base import BotContext
from ludoteca.engine import Rng
from ludoteca.games import load, register, registered

log = logging.getLogger("ludoteca.server.bots")


def _start(games: list[Any]) -> None:
    """In each new worker process: the games registered in the server's process, and a
    watch that ends this process when the server's is gone (killed, it cannot tell)."""
    for game in games:
        register(game)
    parent = os.getppid()

    def watch() -> None:
        while True:
            time.sleep(1)
            if os.getppid() != parent:
                os._exit(0)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def think(bot: str, game_id: str, state: dict[str, Any], seat: int, seed: int, seconds: float,
          legal: list[Any]) -> Any:
    """In a worker process: the bot's move."""
    game = load(game_id)
    context = BotContext(game, game.from_json(state), seat, Rng(seed), Budget(seconds=seconds), legal=legal)
    return make_bot(bot).choose(context)


class WorkerPool:
    """Worker processes started on first use (spawned, with the server's games registered),
    for the work that must never run in the process serving moves: bots' thinking, reviews."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._pool: ProcessPoolExecutor | None = None
        self._lock = threading.Lock()
        self._closed = False

    def run(self, fn: Callable[..., Any], *args: Any) -> Future[Any]:
        with self._lock:
            if self._closed:
                raise RuntimeError("shutting down")
            if self._pool is None:
                self._pool = ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"),
                                                 initializer=_start, initargs=(registered(),))
            return self._pool.submit(fn, *args)

    def shutdown(self) -> None:
        with self._lock:
            self._closed = True
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)


class Thinkers(WorkerPool):
    """The pool of thinking processes."""

    def submit(self, bot: str, game: Any, state: Any, seat: int, seed: int, seconds: float,
               legal: list[Any]) -> Future[Any]:
        return self.run(think, bot, game.id, game.to_json(state), seat, seed, seconds, legal)
