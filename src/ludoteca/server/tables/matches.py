"""Matches in memory, as a cache of the move log, and the guard around engine calls.

A cached match is only ever trusted at the version it was read at: before each use it is
brought up to the table's stored version (by playing the moves stored since, or by
replaying the log after an undo). Another process may have moved in between.
"""

from __future__ import annotations

import bisect
import ctypes
import hashlib
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

import orjson
from sqlalchemy.orm import Session as OrmSession

from ludoteca.engine import Event, Game, LudotecaError, Match
from ludoteca.games import load
from ludoteca.server.kernel.errors import ApiError
from ludoteca.server.kernel.models import GameTable
from ludoteca.server.tables.snapshot import SeatSnapshot, TableSnapshot
from ludoteca.server.tables.store import TableStatements

T = TypeVar("T")


class EngineTimeout(Exception):
    pass


class _Overrun(BaseException):
    """Raised inside a thread whose engine call ran past its deadline. A BaseException,
    so that the game's own ``except Exception`` cannot swallow it."""


class EngineGuard:
    """Runs engine calls with a time limit, in the calling thread (a worker thread,
    never the event loop): a watchdog raises ``_Overrun`` asynchronously in a thread
    whose call overran. That stops a game stuck in a Python loop; one stuck inside a
    C call is stopped when the call returns. A move that overran suspends its table and
    drops the cached match, since the state may be half-changed; any other call that
    overran answers 503 ``engine_timeout``.

    Running inline, rather than on a pool with a timeout, saves two thread switches per
    call, which on a busy 2-core machine cost more than the engine call itself."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self._lock = threading.Lock()
        self._running: dict[int, tuple[int, float]] = {}  # token -> (thread id, deadline)
        self._fired: set[int] = set()
        self._next = 0
        self._stop = threading.Event()
        self._watchdog = threading.Thread(target=self._watch, name="engine-watchdog", daemon=True)
        self._watchdog.start()

    def _watch(self) -> None:
        tick = min(0.05, self.seconds / 4)
        while not self._stop.wait(tick):
            moment = time.monotonic()
            with self._lock:
                for token, (thread_id, deadline) in list(self._running.items()):
                    if moment > deadline and token not in self._fired:
                        self._fired.add(token)
                        ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread_id),
                                                                   ctypes.py_object(_Overrun))

    def call(self, fn: Callable[..., T], *args: Any) -> T:
        if threading.current_thread() is self._watchdog:
            return fn(*args)
        with self._lock:
            self._next += 1
            token = self._next
            thread_id = threading.get_ident()
            self._running[token] = (thread_id, time.monotonic() + self.seconds)
        try:
            try:
                return fn(*args)
            finally:
                with self._lock:
                    del self._running[token]
                    fired = token in self._fired
                    self._fired.discard(token)
                if fired:  # finished just as the watchdog fired: drop the pending exception
                    ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread_id), None)
        except _Overrun:
            raise EngineTimeout from None

    def shutdown(self) -> None:
        self._stop.set()


@dataclass
class Entry:
    match: Match
    version: int
    undo_version: int
    versions: list[int] = field(default_factory=list)
    """The table version at which each move landed (parallel to ``match.moves``)."""
    row: TableSnapshot | None = None
    """The table's row at ``version`` (None: read it again), and below its seats: the
    move path trusts them without reading, because its versioned UPDATE also checks the
    row's revision, which every other change to the table bumps."""
    seats: list[SeatSnapshot] | None = None
    creator: str | None = None
    statics: StaticParts | None = None

    def static_refs(self, view: dict[str, Any]) -> dict[str, Any]:
        if self.statics is None:
            self.statics = StaticParts(self.match.game)
        return self.statics.refs(view)

    def keep(self, row: TableSnapshot, seats: list[SeatSnapshot], creator: str | None = None) -> None:
        """Keep the row and seats just read with the match, if they are at its version."""
        if self.version == row.version:
            self.row, self.seats, self.creator = row, seats, creator

    def advance(self, version: int) -> None:
        """A move the match played landed at table version ``version``."""
        self.version = version
        self.versions.append(version)

    def number_at(self, version: int) -> int:
        """How many moves had landed at table version ``version``."""
        return bisect.bisect_right(self.versions, version)


def static_digest(value: Any) -> str:
    """A short name for a static view part's content: the client keeps parts by it."""
    return hashlib.sha256(orjson.dumps(value, option=orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS)).hexdigest()[:20]


class StaticParts:
    """A match's static view parts (``Game.static_view_keys``): sent to each client once
    (``GET /api/tables/{id}/static/{key}``), referred to as ``{"$static": digest}`` in
    every view after. They are the same for every seat and never change in a match."""

    def __init__(self, game: Game[Any]) -> None:
        self.keys: tuple[str, ...] = tuple(game.static_view_keys)
        self.parts: dict[str, tuple[str, Any]] = {}  # key -> (digest, value)

    def refs(self, view: dict[str, Any]) -> dict[str, Any]:
        """``view`` with each static part replaced by a reference to it."""
        if not self.keys:
            return view
        out = dict(view)
        for key in self.keys:
            if key in out:
                if key not in self.parts:
                    self.parts[key] = (static_digest(out[key]), out[key])
                out[key] = {"$static": self.parts[key][0]}
        return out


class MatchCache:
    def __init__(self, guard: EngineGuard, store: TableStatements, size: int = 4096) -> None:
        self.guard = guard
        self.store = store
        self.size = size
        self._entries: OrderedDict[str, Entry] = OrderedDict()
        self._lock = threading.Lock()
        self._table_locks: dict[str, threading.Lock] = {}

    def table_lock(self, table_id: str) -> threading.Lock:
        """Serialises changes to one table inside this process (other processes are kept
        out by the database's unique constraints and versioned updates)."""
        with self._lock:
            lock = self._table_locks.get(table_id)
            if lock is None:
                if len(self._table_locks) > 4 * self.size:
                    self._table_locks = {k: v for k, v in self._table_locks.items() if v.locked()}
                lock = self._table_locks[table_id] = threading.Lock()
            return lock

    def drop(self, table_id: str) -> None:
        with self._lock:
            self._entries.pop(table_id, None)

    def forget_row(self, table_id: str) -> None:
        """The table's seats or status changed: the next reader reads them again."""
        with self._lock:
            entry = self._entries.get(table_id)
            if entry is not None:
                entry.row = entry.seats = None

    def peek(self, table_id: str) -> Entry | None:
        with self._lock:
            return self._entries.get(table_id)

    def _put(self, table_id: str, entry: Entry) -> None:
        with self._lock:
            self._entries[table_id] = entry
            self._entries.move_to_end(table_id)
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)

    def sync(self, db: OrmSession, row: TableSnapshot | GameTable) -> Entry:
        """The table's match at ``row.version``, from the cache or the move log.
        Moves that landed after ``row`` was read are left out: another process may have
        committed one meanwhile, and the caller's checks were made against ``row``.
        Callers that change the match hold ``table_lock``; readers get the same object
        and must only read it under that lock too."""
        entry = self.peek(row.id)
        if entry is not None and entry.version == row.version:
            return entry
        try:
            if entry is not None and entry.version < row.version and row.undo_version <= entry.version:
                rows = self.store.moves_since(db, row.id, entry.match.version, row.version)
                self.guard.call(_play_all, entry.match, rows)
                entry.versions.extend(r.version for r in rows)
            else:
                rows = self.store.moves_since(db, row.id, 0, row.version)
                game = load(row.game)
                match = self.guard.call(_replay, game, row, rows)
                entry = Entry(match, row.version, row.undo_version, [r.version for r in rows])
        except EngineTimeout:
            self.drop(row.id)
            raise ApiError(503, "engine_timeout", "this table's game did not answer in time") from None
        except LudotecaError as error:
            self.drop(row.id)
            raise ApiError(503, "table_unavailable", f"this table cannot be loaded: {error.code}") from None
        entry.version = row.version
        entry.undo_version = row.undo_version
        entry.row = entry.seats = None
        self._put(row.id, entry)
        return entry


def _replay(game: Any, row: TableSnapshot | GameTable, rows: list[Any]) -> Match:
    match = Match.new(row.game, row.seats, row.options, row.seed, game=game)
    _play_all(match, rows)
    return match


def _play_all(match: Match, rows: list[Any]) -> None:
    for seat, move, _version in rows:
        match.play(seat, move)


def _number(item: tuple[int, Event]) -> int:
    return item[0]


def events_json(events: list[tuple[int, Event]], seat: int | None, since_number: int = 0) -> list[dict[str, Any]]:
    """The events after move ``since_number`` that ``seat`` may read. The list is in move
    order: the start is found by bisection, not by reading the whole game's log (which
    made every update of a long game cost more than the one before)."""
    start = bisect.bisect_right(events, since_number, key=_number) if since_number > 0 else 0
    return [{"number": n, "key": e.key, "args": dict(e.args), "to": e.to}
            for n, e in events[start:] if n > since_number and (e.to is None or e.to == seat)]
