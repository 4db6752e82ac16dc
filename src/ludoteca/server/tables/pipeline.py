"""The move pipeline: every move, from a WebSocket, HTTP or a bot, goes through here.

    move / move_blocking      queue the move to a worker (a table always to the same one)
    _process                  the worker takes what is queued; for each move, under its
                              table's lock:
      stage                     check the mover, the version and the move; play it on the
                              cached match (from here the cache is ahead of the database)
    _write                    write the group in one transaction (``TableStatements.write_moves``;
                              a game's end is recorded in it: ratings), commit once
      _write_alone              (a group refused: each move again in its own transaction)
      _conflict                 (a move lost a race: its earlier answer, a retry, or 409)
    _commit                   the cached row and seats move to the new version; the receipt
    _answer                   after the commit, outside every lock: endings announced,
                              this process's live updates prepared, the other processes
                              and the bots told, the answers handed to the event loop

The unique constraint (table, number) and the versioned UPDATE keep out a racing move
from any other process. A move is acknowledged only after its commit. Before the
workers start (and once they stop) ``submit`` runs the same steps in the caller's thread.
Two moves of one table are never in one group: the second waits for the next, so each is
checked against the committed first.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import threading
import uuid
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from sqlalchemy.exc import IntegrityError

from ludoteca.engine import Event, IllegalMove, Move, canonical
from ludoteca.server.kernel.clock import now_ms
from ludoteca.server.kernel.errors import ApiError
from ludoteca.server.kernel.protocol import MoveReceipt
from ludoteca.server.tables import clocks
from ludoteca.server.tables.access import BotMover, Mover, acting_seat
from ludoteca.server.tables.endings import Ending, Endings, counts_for_ratings
from ludoteca.server.tables.matches import EngineTimeout, Entry
from ludoteca.server.tables.notices import Notices
from ludoteca.server.tables.results import with_resignations
from ludoteca.server.tables.runtime import TableRuntime
from ludoteca.server.tables.snapshot import SeatSnapshot, TableSnapshot
from ludoteca.server.tables.store import MoveWrite, Stale, StoredMove, TableStatements

log = logging.getLogger("ludoteca.server.tables")

MAX_GROUP = 64
"""Moves written in one transaction at most: beyond some dozens the commit costs nothing
more per move, and the first move of a group would wait for all the others."""


class LiveUpdates(Protocol):
    """What the pipeline needs of this process's live connections."""

    process: str
    """This process's name among those sharing the hub."""

    def prepare(self, table_id: str, version: int) -> Any:
        """In a worker thread, after a move's commit: the updates of this process's
        clients of the table, encoded; ``deliver`` sends them on the event loop."""
        ...

    def deliver(self, prepared: Any) -> None: ...


@dataclass(frozen=True, slots=True)
class Written:
    """A move's outcome: its receipt, whether bots may have to play now, and the game's
    end if it ended it."""

    receipt: MoveReceipt
    wake_bots: bool = False
    ending: Ending | None = None


@dataclass(slots=True)
class Staged:
    """A move checked and played on the cached match, not yet written: what the write
    and the receipt need. From here until the write is committed (or the entry dropped)
    the cached match is ahead of the database."""

    request: Request
    entry: Entry
    table: TableSnapshot
    seats: list[SeatSnapshot]
    acting: int
    events: list[Event]
    write: MoveWrite
    ending: Ending | None


@dataclass(eq=False, slots=True)
class Request:
    mover: Mover
    table_id: str
    version: int
    """The version the mover chose at (the table's may be later: a simultaneous decision)."""
    move: Move
    move_id: str
    seat: int | None
    given: bool
    """The client named the move (a server-made id cannot have been used before)."""
    future: asyncio.Future[MoveReceipt] | concurrent.futures.Future[MoveReceipt] | None = None
    outcome: Written | BaseException | None = field(default=None)


class MovePipeline:
    def __init__(self, runtime: TableRuntime, store: TableStatements, endings: Endings, notices: Notices, workers: int,
                 live: LiveUpdates | None = None) -> None:
        self.runtime = runtime
        self.store = store
        self.endings = endings
        self.notices = notices
        self.live = live
        """This process's live connections: the updates made with the commit."""
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

    @staticmethod
    def _request(mover: Mover, table_id: str, version: int, move: Move, move_id: str | None,
                 seat: int | None) -> Request:
        return Request(mover, table_id, version, move, move_id or uuid.uuid4().hex, seat, move_id is not None)

    async def move(self, mover: Mover, table_id: str, version: int, move: Move, move_id: str | None,
                   seat: int | None = None) -> MoveReceipt:
        """On the event loop: the move's receipt once committed (or its ApiError)."""
        if not self._threads or self._closed:  # not started, or stopping: in a thread of its own
            return await asyncio.to_thread(self.submit, mover, table_id, version, move, move_id, seat)
        request = self._request(mover, table_id, version, move, move_id, seat)
        future: asyncio.Future[MoveReceipt] = asyncio.get_running_loop().create_future()
        request.future = future
        self._put(request)
        return await future

    def move_blocking(self, mover: Mover, table_id: str, version: int, move: Move, move_id: str | None,
                      seat: int | None = None) -> MoveReceipt:
        """From a worker thread (an HTTP request, a bot): the same, waiting."""
        if not self._threads or self._closed:
            return self.submit(mover, table_id, version, move, move_id, seat)
        request = self._request(mover, table_id, version, move, move_id, seat)
        future: concurrent.futures.Future[MoveReceipt] = concurrent.futures.Future()
        request.future = future
        self._put(request)
        return future.result()

    def submit(self, mover: Mover, table_id: str, version: int, move: Move, move_id: str | None,
               seat: int | None = None) -> MoveReceipt:
        """The whole path in the caller's thread, one move in its own transaction."""
        request = self._request(mover, table_id, version, move, move_id, seat)
        with self.runtime.cache.table_lock(table_id):
            staged = self.stage(request)
            written = staged if isinstance(staged, Written) else self._write_alone(staged)
        self._after(request, written, prepared=False)
        return written.receipt

    def _put(self, request: Request) -> None:
        index = hash(request.table_id) % len(self._queues)
        wake = self._wake[index]
        with wake:
            self._queues[index].append(request)
            wake.notify()

    # -- staging ---------------------------------------------------------------------------

    def stage(self, request: Request) -> Staged | Written:
        """Under the table's lock: check the move and play it on the cached match. A
        ``Written`` is the receipt of a move already made under this id."""
        runtime, store = self.runtime, self.store
        cache, table_id, version = runtime.cache, request.table_id, request.version
        entry = cache.peek(table_id)
        if entry is not None and entry.row is not None and entry.seats is not None and version == entry.version:
            # The fast path: the row and seats this process wrote or read at this version.
            # If another process changed the table since, the versioned UPDATE finds out.
            # A reused move id is caught by the unique constraint instead.
            table, seats = entry.row, entry.seats
            acting = acting_seat(request.mover, seats, request.seat, table.pending)
            _check_move(acting.seat, table, version, entry)
            _not_resigned(request.mover, acting.seat, table)
        else:
            # Read and check outside any write transaction: the write is guarded by the
            # versioned UPDATE and the unique constraints, and stays short.
            with runtime.sessions() as db:
                table = store.table(db, table_id)
                seats = store.seats(db, table_id)
                acting = acting_seat(request.mover, seats, request.seat, table.pending)
                earlier = store.earlier_move(db, table_id, request.move_id) if request.given else None
                if earlier is not None:
                    return Written(_duplicate(earlier, acting.seat, request.move))
                _check_status(table)
                entry = cache.sync(db, table)
                _check_move(acting.seat, table, version, entry)
                _not_resigned(request.mover, acting.seat, table)
                entry.keep(table, seats)
        match = entry.match
        try:
            events = runtime.guard.call(match.play, acting.seat, request.move)
        except IllegalMove as error:
            if version != table.version:  # chosen before other seats' moves, no longer legal
                raise ApiError(409, "stale_version", "the table has changed; refresh and try again",
                               version=table.version) from None
            raise ApiError(422, error.code, error.message, version=table.version) from None
        except EngineTimeout:
            cache.drop(table_id)
            self.suspend(table_id)
            raise ApiError(503, "engine_timeout", "this table's game did not answer in time") from None
        # From here the cached match is ahead of the database: any failure drops it.
        try:
            pending = sorted(set(runtime.guard.call(match.pending)))
            result = runtime.guard.call(match.result)
        except BaseException:
            cache.drop(table_id)
            raise
        at = now_ms()
        final = None if result is None else with_resignations(result.to_json(), table.resigned)
        played = match.moves[-1]
        write = MoveWrite(table_id, match.version, table.version + 1, table.version, table.revision, acting.seat,
                          played.move, request.move_id, played.undoable, [e.to_json() for e in events],
                          isinstance(request.mover, BotMover), pending if final is None else [], at, final,
                          clocks.charge(table, seats, acting.seat, at))
        ending = None if final is None else Ending(
            table_id, table.game, counts_for_ratings(table.rated, table.private), "played", final,
            tuple((s.seat, s.user_id) for s in seats))
        return Staged(request, entry, table, seats, acting.seat, events, write, ending)

    # -- writing ------------------------------------------------------------------------------

    def _write(self, group: Sequence[Staged]) -> None:
        """The group's moves, and the games they end, in one transaction."""
        with self.runtime.write_connection() as connection:
            self.store.write_moves(connection, [s.write for s in group])
            for s in group:
                if s.ending is not None:
                    self.endings.record(connection, s.ending)

    def _write_alone(self, staged: Staged, retry: bool = True) -> Written:
        """Write one staged move in its own transaction, then commit it to the cache."""
        try:
            self._write([staged])
        except (IntegrityError, Stale):
            return self._conflict(staged, retry)
        except BaseException:
            self.runtime.cache.drop(staged.request.table_id)
            raise
        return self._commit(staged)

    def _conflict(self, staged: Staged, retry: bool) -> Written:
        """The write lost to a unique constraint or the versioned UPDATE: the move was
        made already under this id, or the table changed under this process's copy."""
        request = staged.request
        table_id, version = request.table_id, request.version
        self.runtime.cache.drop(table_id)
        with self.runtime.sessions() as fresh:
            earlier = self.store.earlier_move(fresh, table_id, request.move_id)
            if earlier is not None:
                return Written(_duplicate(earlier, staged.acting, request.move))
            current = self.store.version(fresh, table_id)
        if current is not None and current >= version and retry:
            # The seats or the status changed under the copy this process kept, or
            # another process's move landed (which may belong to the same simultaneous
            # decision): check again against what is stored now.
            again = self.stage(request)
            return again if isinstance(again, Written) else self._write_alone(again, retry=False)
        raise ApiError(409, "stale_version", "another move landed first; refresh and try again",
                       version=current) from None

    def _commit(self, staged: Staged) -> Written:
        """After the commit: the cached entry, and the row and seats it keeps (unless they
        were let go meanwhile), move to the new version; the receipt."""
        entry, table, write = staged.entry, staged.table, staged.write
        entry.advance(write.version)
        if entry.row is table:
            entry.row = table.moved(write.version, write.number, write.pending, write.at, write.result)
        if entry.seats is staged.seats and write.banks:
            entry.seats = [s.with_bank(write.banks[s.seat]) if s.seat in write.banks else s for s in staged.seats]
        over = write.result is not None
        receipt: MoveReceipt = {
            "version": write.version, "number": write.number, "seat": staged.acting, "duplicate": False,
            "events": [e.to_json() for e in staged.events if e.visible_to(staged.acting)], "over": over}
        return Written(receipt, not over and any(s.played_by_bot for s in staged.seats), staged.ending)

    def suspend(self, table_id: str) -> None:
        """A table whose game hung is set aside so that it cannot hang the server again."""
        log.error("table %s suspended: its engine call overran", table_id)
        with self.runtime.transaction() as db:
            self.store.suspend(db, table_id)

    # -- after the commit ---------------------------------------------------------------------

    def _after(self, request: Request, written: Written, prepared: bool) -> Any:
        """Outside every lock: the game's end announced, the other processes told, bots
        woken. With ``prepared``, this process's live updates are made here (returned,
        for the event loop to deliver) and the notice goes to the others only."""
        if written.receipt["duplicate"]:
            return None
        if written.ending is not None:
            self.endings.announce(written.ending)
        table_id, version = request.table_id, written.receipt["version"]
        live = self.live
        if prepared and live is not None:
            try:
                made = live.prepare(table_id, version)
            except Exception:
                log.exception("live updates of table %s failed; the notice goes the ordinary way", table_id)
            else:
                self.notices.moved(table_id, version, written.wake_bots, origin=live.process)
                return made
        self.notices.moved(table_id, version, written.wake_bots)
        return None

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
                    if request.outcome is None:
                        request.outcome = error
            self._answer(group)

    def _process(self, group: list[Request]) -> None:
        cache = self.runtime.cache
        held: list[threading.Lock] = []
        staged: list[Staged] = []
        try:
            for request in group:
                lock = cache.table_lock(request.table_id)
                lock.acquire()
                held.append(lock)
                try:
                    done = self.stage(request)
                except BaseException as error:
                    request.outcome = error
                    continue
                if isinstance(done, Written):
                    request.outcome = done
                else:
                    staged.append(done)
            alone: list[Staged] = []
            if staged:
                try:
                    self._write(staged)
                except Exception as error:
                    if not isinstance(error, Stale):
                        log.info("a move group was refused (%s); writing its moves one at a time",
                                 type(error).__name__)
                    alone = staged
                else:
                    for s in staged:
                        s.request.outcome = self._commit(s)
            for s in alone:
                try:
                    s.request.outcome = self._write_alone(s)
                except BaseException as error:
                    s.request.outcome = error
        finally:
            for lock in held:
                lock.release()

    def _answer(self, group: list[Request]) -> None:
        """After the commit and outside every lock: endings, notices, bots, this
        process's live updates, and the answers, handed to the event loop in one call."""
        prepared = []
        for request in group:
            if isinstance(request.outcome, Written):
                made = self._after(request, request.outcome, prepared=True)
                if made is not None:
                    prepared.append(made)
        waiting = []
        for request in group:
            future, outcome = request.future, request.outcome
            if isinstance(future, concurrent.futures.Future):
                _settle(future, outcome)
            else:
                waiting.append(request)
        loop = self.loop
        if loop is not None and not loop.is_closed() and (waiting or prepared):
            with contextlib.suppress(RuntimeError):  # the loop closed meanwhile: shutting down
                loop.call_soon_threadsafe(_deliver, self.live, waiting, prepared)


def _settle(future: asyncio.Future[MoveReceipt] | concurrent.futures.Future[MoveReceipt],
            outcome: Written | BaseException | None) -> None:
    if isinstance(outcome, BaseException):
        future.set_exception(outcome)
    else:
        assert outcome is not None
        future.set_result(outcome.receipt)


def _deliver(live: LiveUpdates | None, waiting: list[Request], prepared: list[Any]) -> None:
    """On the event loop: the live updates first, then the answers."""
    if live is not None:
        for item in prepared:
            live.deliver(item)
    for request in waiting:
        future = request.future
        if future is None or future.done():
            continue
        _settle(future, request.outcome)


def _duplicate(earlier: StoredMove, seat: int, move: Move) -> MoveReceipt:
    """The receipt of a move already made under this id: a retry is harmless."""
    if earlier.seat != seat or canonical(earlier.move) != canonical(move):
        raise ApiError(409, "move_id_reused", "this move id was used for another move")
    return {"version": earlier.version, "number": earlier.number, "seat": earlier.seat, "duplicate": True,
            "events": [e for e in earlier.events if e.get("to") in (None, seat)], "over": False}


def _check_status(table: TableSnapshot) -> None:
    if table.status == "over":
        raise ApiError(409, "game_over", "the game is over", version=table.version)
    if table.status != "playing":
        raise ApiError(409, "not_playing", "this table is not being played", version=table.version)


def _not_resigned(mover: Mover, seat: int, table: TableSnapshot) -> None:
    """A person whose seat resigned plays it no more: the bot does."""
    if not isinstance(mover, BotMover) and seat in table.resigned_seats:
        raise ApiError(403, "resigned", "this seat resigned: a bot plays it on", version=table.version)


def _check_move(seat: int, table: TableSnapshot, version: int, entry: Entry) -> None:
    """Whether the table's status and the version let ``seat`` move now. A move chosen at
    an earlier version is still taken if every move since was another seat's within the
    same simultaneous decision of independent choices (whether it is still legal,
    playing it tells)."""
    _check_status(table)
    if version != table.version and not _independent(entry, table, version, seat):
        raise ApiError(409, "stale_version", "the table has changed; refresh and try again", version=table.version)
    if seat not in table.pending:
        raise ApiError(403, "not_your_turn", f"seat {seat} has nothing to decide now", version=table.version)


def _independent(entry: Entry, table: TableSnapshot, version: int, seat: int) -> bool:
    """Whether only other seats' moves of one simultaneous decision, still pending, landed
    between ``version`` and now (no undo: an undo's version starts afresh)."""
    return (entry.version == table.version and entry.undo_version <= version < table.version
            and entry.match.independent_since(entry.number_at(version), seat))

