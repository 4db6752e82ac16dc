"""Group commit: the moves of many tables written in one transaction.

Every move, from a WebSocket, HTTP or a bot, is queued to one of a few move workers
(threads; a table always goes to the same one). A worker takes what is queued, stages
each move under its table's lock (checked and played on the cached match, as
``Moves._stage`` does for one), writes all of them in one transaction through the
database driver (no ORM, no SQLAlchemy statement execution), commits once, and only then
acknowledges each. After the commit, still in the worker, it builds the updates of this
process's live clients for each table (encoded once per audience) and hands the
acknowledgements and the updates to the event loop in one call: one hop from the loop to
the worker and one back per group of moves, not per move.

A group that fails (a reused move id, a table another process changed meanwhile, the
database refusing) is rolled back and its moves written again one at a time through the
ordinary path, which tells each its own outcome. A move that finishes a rated game is
written alone (rating goes through the ORM). Two moves of one table are never in one
group: the second waits for the next, so each is checked against the committed first.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import threading
import uuid
from collections import deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import orjson

from ..auth import Actor
from ..db import now
from .base import BotMover
from .moves import Moves, Staged, Stale

if TYPE_CHECKING:
    from ..core import Core

log = logging.getLogger("ludoteca.server.tables")

MAX_GROUP = 64
"""Moves written in one transaction at most: beyond some dozens the commit costs nothing
more per move, and the first move of a group would wait for all the others."""


@dataclass(eq=False)
class Request:
    mover: Actor | BotMover
    table_id: str
    version: int
    move: Any
    move_id: str
    seat: int | None
    given: bool
    future: asyncio.Future[dict[str, Any]] | concurrent.futures.Future[dict[str, Any]]
    outcome: tuple[dict[str, Any] | None, BaseException | None] = field(default=(None, None))


def _json(value: Any) -> str:
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


class DriverWriter:
    """The group's statements in the database driver's own terms (sqlite3 or psycopg),
    built once."""

    def __init__(self, sqlite: bool) -> None:
        self.sqlite = sqlite
        p = (lambda name: f":{name}") if sqlite else (lambda name: f"%({name})s")
        columns = ("table_id", "number", "version", "seat", "move", "move_id", "undoable", "events", "by_bot",
                   "created_at")
        self.insert = f"INSERT INTO moves ({', '.join(columns)}) VALUES ({', '.join(p(c) for c in columns)})"
        sets = (f"version = {p('version')}, moves_count = {p('moves')}, pending = {p('pending')}, "
                f"turn_started_ms = {p('at')}")
        where = f"WHERE id = {p('id')} AND version = {p('old')} AND revision = {p('revision')}"
        self.bump = f"UPDATE tables SET {sets} {where}"
        self.finish = (f"UPDATE tables SET {sets}, status = 'over', result = {p('result')}, "
                       f"finished_at = {p('finished')} {where}")
        self.bank = f"UPDATE table_seats SET bank_ms = {p('bank')} WHERE table_id = {p('table')} AND seat = {p('seat')}"

    def _time(self, value: Any) -> Any:
        # SQLAlchemy keeps SQLite times as text in this form; PostgreSQL takes the object.
        return value.strftime("%Y-%m-%d %H:%M:%S.%f") if self.sqlite else value

    def write(self, raw: Any, group: list[Staged]) -> None:
        """One transaction for the whole group; raises (after rolling back) if any
        statement fails or any table's version moved on."""
        sqlite = self.sqlite
        at = self._time(now())
        moves: list[dict[str, Any]] = []
        banks: list[dict[str, Any]] = []
        for s in group:
            moves.append({"table_id": s.table_id, "number": s.number, "version": s.new_version, "seat": s.acting,
                          "move": _json(s.played.move), "move_id": s.move_id,
                          "undoable": int(s.played.undoable) if sqlite else s.played.undoable,
                          "events": _json([e.to_json() for e in s.events]),
                          "by_bot": int(isinstance(s.mover, BotMover)) if sqlite else isinstance(s.mover, BotMover),
                          "created_at": at})
            banks.extend({"table": s.table_id, "seat": seat, "bank": bank} for seat, bank in s.banks.items())
        cursor = raw.cursor()
        try:
            if sqlite:
                cursor.execute("BEGIN IMMEDIATE")
            cursor.executemany(self.insert, moves)
            # One statement per kind, many rows: a round trip each on PostgreSQL, not one
            # per table. Each row names one table (its key) at the version the move was
            # checked against: the drivers sum the rows changed, so a shortfall means some
            # table moved on under this process's copy.
            bumps, finishes = [], []
            for s in group:
                bump = {"id": s.table_id, "old": s.row.version, "revision": s.row.revision,
                        "version": s.new_version, "moves": s.number, "at": s.at,
                        "pending": _json(s.pending if s.result is None else [])}
                if s.result is None:
                    bumps.append(bump)
                else:
                    finishes.append({**bump, "result": _json(s.final), "finished": at})
            for statement, rows in ((self.bump, bumps), (self.finish, finishes)):
                if rows:
                    cursor.executemany(statement, rows)
                    if cursor.rowcount != len(rows):
                        raise Stale
            if banks:
                cursor.executemany(self.bank, banks)
            if sqlite:
                cursor.execute("COMMIT")
            else:
                raw.commit()
        except BaseException:
            try:
                if sqlite:
                    cursor.execute("ROLLBACK")
                else:
                    raw.rollback()
            except Exception:
                log.exception("rollback of a move group failed")
            raise
        finally:
            cursor.close()


class GroupCommit:
    def __init__(self, core: Core, moves: Moves, workers: int) -> None:
        self.core = core
        self.moves = moves
        self.writer = DriverWriter(core.sqlite)
        self.loop: asyncio.AbstractEventLoop | None = None
        self._queues: list[deque[Request]] = [deque() for _ in range(max(1, workers))]
        self._wake = [threading.Condition() for _ in self._queues]
        self._threads: list[threading.Thread] = []
        self._closed = False

    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        for index in range(len(self._queues)):
            thread = threading.Thread(target=self._run, args=(index,), name=f"moves-{index}", daemon=True)
            thread.start()
            self._threads.append(thread)

    def stop(self) -> None:
        self._closed = True
        for wake in self._wake:
            with wake:
                wake.notify()
        for thread in self._threads:
            thread.join(timeout=10)

    # -- submitting -------------------------------------------------------------------

    def _request(self, mover: Actor | BotMover, table_id: str, version: int, move: Any, move_id: str | None,
                 seat: int | None, future: Any) -> Request:
        return Request(mover, table_id, version, move, move_id or "", seat, move_id is not None, future)

    async def move(self, mover: Actor | BotMover, table_id: str, version: int, move: Any, move_id: str | None,
                   seat: int | None = None) -> dict[str, Any]:
        """On the event loop: the move's acknowledgement once committed (or its ApiError)."""
        if not self._threads or self._closed:  # not started, or stopping: the ordinary path
            return await asyncio.to_thread(self.moves.submit_move, mover, table_id, version, move, move_id, seat)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._put(self._request(mover, table_id, version, move, move_id, seat, future))
        return await future

    def move_blocking(self, mover: Actor | BotMover, table_id: str, version: int, move: Any,
                      move_id: str | None, seat: int | None = None) -> dict[str, Any]:
        """From a worker thread (an HTTP request, a bot): the same, waiting."""
        if not self._threads or self._closed:
            return self.moves.submit_move(mover, table_id, version, move, move_id, seat)
        future: concurrent.futures.Future[dict[str, Any]] = concurrent.futures.Future()
        self._put(self._request(mover, table_id, version, move, move_id, seat, future))
        return future.result()

    def _put(self, request: Request) -> None:
        if not request.move_id:
            request.move_id = uuid.uuid4().hex
        index = hash(request.table_id) % len(self._queues)
        wake = self._wake[index]
        with wake:
            self._queues[index].append(request)
            wake.notify()

    # -- the worker -------------------------------------------------------------------

    def _run(self, index: int) -> None:
        queue, wake = self._queues[index], self._wake[index]
        while True:
            with wake:
                while not queue and not self._closed:
                    wake.wait()
                if self._closed and not queue:
                    return
                group: list[Request] = []
                tables: set[str] = set()
                later: list[Request] = []
                while queue and len(group) < MAX_GROUP:
                    request = queue.popleft()
                    if request.table_id in tables:
                        later.append(request)  # checked against the committed first one, next time
                    else:
                        tables.add(request.table_id)
                        group.append(request)
                queue.extendleft(reversed(later))
            try:
                self._process(group)
            except BaseException as error:  # never lose a request: each gets an answer
                log.exception("move group failed")
                for request in group:
                    if request.outcome == (None, None):
                        request.outcome = (None, error)
            self._answer(group)

    def _process(self, group: list[Request]) -> None:
        moves, cache = self.moves, self.core.cache
        held: list[threading.Lock] = []
        staged: list[tuple[Request, Staged]] = []
        try:
            for request in group:
                lock = cache.table_lock(request.table_id)
                lock.acquire()
                held.append(lock)
                try:
                    done = moves._stage(request.mover, request.table_id, request.version, request.move,
                                        request.move_id, request.seat, request.given)
                except BaseException as error:
                    request.outcome = (None, error)
                    continue
                if isinstance(done, dict):
                    request.outcome = (done, None)
                else:
                    staged.append((request, done))
            together = [(r, s) for r, s in staged if not s.rated_finish]
            alone = [(r, s) for r, s in staged if s.rated_finish]
            if together:
                try:
                    self._write(s for _, s in together)
                except Exception as error:
                    if not isinstance(error, Stale):
                        log.info("a move group was refused (%s); writing its moves one at a time",
                                 type(error).__name__)
                    alone = together + alone
                else:
                    for request, s in together:
                        request.outcome = (moves._finish(s), None)
            for request, s in alone:
                try:
                    request.outcome = (moves._write_alone(s), None)
                except BaseException as error:
                    request.outcome = (None, error)
        finally:
            for lock in held:
                lock.release()

    def _write(self, group: Any) -> None:
        staged = list(group)
        core = self.core
        with core._write_lock:
            raw = core._write_engine.raw_connection()
            try:
                self.writer.write(raw.driver_connection, staged)
            except Stale:
                raise
            except BaseException:
                raw.invalidate()  # it may be broken: the pool opens a new one
                raise
            finally:
                raw.close()

    def _answer(self, group: list[Request]) -> None:
        """After the commit and outside every lock: notices, bots, this process's live
        updates, and the answers, handed to the event loop in one call."""
        core = self.core
        live = core.live
        prepared = []
        for request in group:
            result, _error = request.outcome
            if result is None:
                continue
            bots = result.pop("_bots", True)
            if result.get("duplicate"):
                continue
            try:
                prepared.append(live.prepare(request.table_id, result["version"]))
            except Exception:
                log.exception("live updates of table %s failed; the notice goes the ordinary way",
                              request.table_id)
                core.changed(request.table_id, result["version"], bots)
            else:
                core.changed(request.table_id, result["version"], bots, origin=live.process)
        waiting = []
        for request in group:
            result, error = request.outcome
            if isinstance(request.future, concurrent.futures.Future):
                if error is not None:
                    request.future.set_exception(error)
                else:
                    request.future.set_result(result or {})
            else:
                waiting.append(request)
        loop = self.loop
        if loop is not None and not loop.is_closed() and (waiting or prepared):
            with contextlib.suppress(RuntimeError):  # the loop closed meanwhile: shutting down
                loop.call_soon_threadsafe(_deliver, live, waiting, prepared)


def _deliver(live: Any, waiting: list[Request], prepared: list[Any]) -> None:
    """On the event loop: the live updates first, then the answers."""
    for item in prepared:
        if item is not None:
            live.deliver(item)
    for request in waiting:
        future = request.future
        assert isinstance(future, asyncio.Future)
        if future.done():
            continue
        result, error = request.outcome
        if error is not None:
            future.set_exception(error)
        else:
            future.set_result(result or {})
