"""Bots in seats. They run on their own worker pool, off the event loop, with a time
budget, and play through the same checked, versioned path as people."""

from __future__ import annotations

import asyncio
import logging
import secrets
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from ludoteca.bots import Budget, make_bot
from ludoteca.bots.base import BotContext
from ludoteca.bots.random_bot import RandomBot
from ludoteca.engine import Rng
from ludoteca.server.kernel.errors import ApiError
from ludoteca.server.kernel.protocol import MoveReceipt
from ludoteca.server.kernel.workers import Thinkers
from ludoteca.server.seatbots.zombies import ZombieLevels
from ludoteca.server.tables.access import BotMover
from ludoteca.server.tables.runtime import TableRuntime

log = logging.getLogger("ludoteca.server.bots")

MAX_BOT_MOVES = 10_000
"""Moves one job plays at most before it lets others have the worker."""
MAX_REFUSALS = 50
"""Refusals in a row (another move landed first) after which a job gives up until the
clock scan finds the table idle again: a race lost that often is no race but a fault."""

# The bot that plays a person's seat while they are away or out of time is no longer
# one fixed bot: zombies.ZombieLevels chooses a level per seat, once (by the table's
# option, else the player's rating in the game), and stores it.


Submit = Callable[[BotMover, str, int, Any, str, int], MoveReceipt]
"""How a bot's move is sent (mover, table, version, move, move id, seat): the move
pipeline's, in the server."""


class BotRunner:
    def __init__(self, server: TableRuntime, submit: Submit) -> None:
        self.server = server
        self.submit = submit
        self.zombies = ZombieLevels(server)
        self.pool = ThreadPoolExecutor(max_workers=server.settings.bot_workers, thread_name_prefix="bot")
        # Bots choose on their own pool so that a slow search cannot delay another table's
        # engine calls; a choice that overruns its budget is replaced by a random move.
        # Searching bots think in processes (LUDOTECA_BOT_PROCESSES; 0: in threads here).
        self.think = ThreadPoolExecutor(max_workers=max(2, server.settings.bot_workers), thread_name_prefix="think")
        processes = server.settings.bot_processes
        self.processes: Thinkers | None = Thinkers(processes) if processes else None
        self.loop: asyncio.AbstractEventLoop | None = None
        self._lock = threading.Lock()
        self._queued: set[str] = set()
        self._again: set[str] = set()
        self._closed = False

    def schedule(self, table_id: str) -> None:
        """Let the bots of ``table_id`` play if one must decide. Thread-safe; a table is
        worked on by at most one job per process at a time."""
        with self._lock:
            if self._closed:
                return
            if table_id in self._queued:
                self._again.add(table_id)
                return
            self._queued.add(table_id)
        self.pool.submit(self._job, table_id)

    def _job(self, table_id: str) -> None:
        try:
            while True:
                try:
                    self._play(table_id)
                except Exception:
                    log.exception("bot job for table %s failed", table_id)
                with self._lock:
                    if table_id in self._again and not self._closed:
                        self._again.discard(table_id)
                        continue
                    self._queued.discard(table_id)
                    return
        except BaseException:
            with self._lock:
                self._queued.discard(table_id)
            raise

    def _play(self, table_id: str) -> None:
        server = self.server
        settings = server.settings
        refused = 0
        for _ in range(MAX_BOT_MOVES):  # a bound, in case bots keep each other busy forever
            if self._closed or refused > MAX_REFUSALS:
                if refused > MAX_REFUSALS:
                    # Given up for now: the clock scan finds the table idle and tries again.
                    log.warning("bot moves at table %s refused %d times in a row; trying later", table_id, refused)
                return
            with server.sessions() as db:
                row = server.store.table_or_none(db, table_id)
                if row is None or row.status != "playing":
                    return
                seats = server.store.seats(db, table_id)
                playing = {s.seat: s for s in seats if s.played_by_bot}
                due = [seat for seat in row.pending if seat in playing]
                if not due:
                    return
                with server.cache.table_lock(table_id):
                    entry = server.cache.sync(db, row)
                    game = entry.match.game
                    state = server.guard.call(game.clone, entry.match.state)
                    number = entry.match.version
            if settings.bot_delay_seconds:
                time.sleep(settings.bot_delay_seconds)
            seat = due[0]
            # A person's seat gets its level chosen (and stored) the first time a bot
            # plays it; outside the read session above, as the choice writes.
            name = playing[seat].bot or self.zombies.level(table_id, row.game, seat, playing[seat].user_id)
            seed = (row.seed * 1_000_003 + number * 7_919 + seat) & ((1 << 64) - 1)
            try:
                move = self._choose(name, game, state, seat, seed, settings.bot_seconds)
            except RuntimeError:
                if self._closed:  # shutting down: the pool is gone
                    return
                raise
            try:
                # An id no client can guess: a player who sent moves with the ids a bot
                # would use next had the bot's moves refused as reused ids, for ever.
                self.submit(BotMover(name), table_id, row.version, move, f"bot:{secrets.token_hex(16)}", seat)
                refused = 0
            except ApiError as error:
                if error.status == 409:
                    refused += 1
                    continue  # someone else moved first: look again
                log.warning("bot move refused at table %s: %s %s", table_id, error.code, error.message)
                return

    def _choose(self, name: str, game: Any, state: Any, seat: int, seed: int, seconds: float) -> Any:
        bot = make_bot(name)
        legal = self.server.guard.call(game.legal, state, seat)
        rng = Rng(seed)
        future = None
        if self.processes is not None and not isinstance(bot, RandomBot):  # a random pick needs no process
            try:
                future = self.processes.submit(name, game, state, seat, seed, seconds, legal)
            except RuntimeError:
                raise
            except Exception:
                log.exception("bot %s could not think in a process; thinking here", name)
        if future is None:
            future = self.think.submit(bot.choose, BotContext(game, state, seat, rng, Budget(seconds=seconds),
                                                              legal=legal))
        try:
            return future.result(timeout=seconds * 2 + 1)
        except FutureTimeout:
            log.warning("bot %s overran its budget; playing a random move", name)
            return rng.choice(legal)
        except BrokenProcessPool:
            log.error("a bot's thinking process died; playing a random move")
            return rng.choice(legal)

    def shutdown(self) -> None:
        with self._lock:
            self._closed = True
        self.pool.shutdown(wait=False, cancel_futures=True)
        self.think.shutdown(wait=False, cancel_futures=True)
        if self.processes is not None:
            self.processes.shutdown()
