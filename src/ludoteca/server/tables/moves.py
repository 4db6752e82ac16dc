"""The move path (``submit_move``) is the heart of the server: under the table's lock in
this process, it checks the caller, the version and the move, plays it on the cached
match, then inserts the move row and bumps the table's version in one transaction whose
unique constraint (table, number) and versioned UPDATE keep out a racing move from any
other process. Only after the commit is the move acknowledged and announced."""

from __future__ import annotations

import logging
import uuid
from dataclasses import dataclass
from typing import Any

from sqlalchemy import bindparam, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session as OrmSession

from ludoteca.engine import IllegalMove, canonical

from .. import ratings
from ..auth import Actor
from ..db import now, now_ms
from ..errors import ApiError
from ..matches import EngineTimeout, Entry
from ..models import GameTable, TableSeat, User
from .base import _M, _S, _T, BotMover, TableRow, TablesBase, resigned_seats
from .resign import with_resignations

log = logging.getLogger("ludoteca.server.tables")

_READ_EARLIER = select(_M).where(_M.c.table_id == bindparam("id"), _M.c.move_id == bindparam("move_id"))
_INSERT_MOVE = insert(_M)
_BUMP_VALUES: dict[str, Any] = {"version": bindparam("b_version"), "moves_count": bindparam("b_moves"),
                "pending": bindparam("b_pending"), "turn_started_ms": bindparam("b_at")}
_BUMP_WHERE = (_T.c.id == bindparam("b_id"), _T.c.version == bindparam("b_old"),
               _T.c.revision == bindparam("b_revision"))
_BUMP = update(_T).where(*_BUMP_WHERE).values(**_BUMP_VALUES)
_FINISH = update(_T).where(*_BUMP_WHERE).values(**_BUMP_VALUES, status="over", result=bindparam("b_result"),
                                                finished_at=bindparam("b_finished"))
_SET_BANK = (update(_S).where(_S.c.table_id == bindparam("b_table"), _S.c.seat == bindparam("b_seat"))
             .values(bank_ms=bindparam("b_bank")))


class Stale(Exception):
    pass


@dataclass
class Staged:
    """A move checked and played on the cached match, not yet written: what the write
    and the acknowledgement need. From here until the write is committed (or the entry
    dropped) the cached match is ahead of the database."""

    mover: Actor | BotMover
    table_id: str
    version: int
    """The version the mover chose at (the table's may be later: a simultaneous decision)."""
    move: Any
    move_id: str
    seat: int | None
    given: bool
    entry: Entry
    row: TableRow
    seats: list[Any]
    acting: int
    events: list[Any]
    new_version: int
    number: int
    played: Any
    pending: list[int]
    result: Any
    at: int
    banks: dict[int, int]

    @property
    def final(self) -> dict[str, Any] | None:
        """The result as stored: seats that resigned rank last whatever the engine's
        scores say."""
        if self.result is None:
            return None
        return with_resignations(self.result.to_json(), getattr(self.row, "resigned", None))

    @property
    def rated_finish(self) -> bool:
        """Rating players needs the ORM: such a move is written on its own."""
        return self.result is not None and bool(self.row.rated)


class Moves(TablesBase):
    def submit_move(self, mover: Actor | BotMover, table_id: str, version: int, move: Any, move_id: str | None,
                    seat: int | None = None) -> dict[str, Any]:
        given = move_id is not None
        move_id = move_id or uuid.uuid4().hex
        with self.server.cache.table_lock(table_id):
            result = self._submit_locked(mover, table_id, version, move, move_id, seat, given)
        self._announce(table_id, result)
        return result

    def _announce(self, table_id: str, result: dict[str, Any]) -> None:
        """After the commit: tell every process, let bots play (the internal ``_bots``
        flag is taken out of the acknowledgement here)."""
        bots = result.pop("_bots", True)
        if not result.get("duplicate"):
            self.server.changed(table_id, result["version"], bots)

    def _submit_locked(self, mover: Actor | BotMover, table_id: str, version: int, move: Any, move_id: str,
                       seat: int | None, given: bool = True, retry: bool = True) -> dict[str, Any]:
        staged = self._stage(mover, table_id, version, move, move_id, seat, given)
        if isinstance(staged, dict):
            return staged
        return self._write_alone(staged, retry)

    def _write_alone(self, staged: Staged, retry: bool = True) -> dict[str, Any]:
        """Write one staged move in its own transaction (through SQLAlchemy Core, and the
        ORM only to rate a finished game), then acknowledge it."""
        try:
            with self.server.write_connection() as connection:
                self._write(connection, staged)
        except (IntegrityError, Stale):
            return self._conflict(staged, retry)
        except BaseException:
            self.server.cache.drop(staged.table_id)
            raise
        return self._finish(staged)

    def _stage(self, mover: Actor | BotMover, table_id: str, version: int, move: Any, move_id: str,
               seat: int | None, given: bool) -> Staged | dict[str, Any]:
        """Under the table's lock: check the move and play it on the cached match. A
        dict is the acknowledgement of a move already made with this id."""
        cache = self.server.cache
        entry = cache.peek(table_id)
        if entry is not None and entry.row is not None and entry.seats is not None and version == entry.version:
            # The fast path: the row and seats this process wrote or read at this version.
            # If another process changed the table since, the versioned UPDATE below
            # finds out. A reused move id is caught by the unique constraint instead.
            row, seats = entry.row, entry.seats
            acting = self._acting_seat(mover, seats, seat, row.pending)
            self._check_move(acting, row, version, entry)
            self._not_resigned(mover, acting, row)
        else:
            # Read and check outside any write transaction: the write below is guarded by
            # the versioned UPDATE and the unique constraints, and stays short.
            with self.server.sessions() as db:
                row = self._row(db, table_id)
                seats = self._seats(db, table_id)
                acting = self._acting_seat(mover, seats, seat, row.pending)
                # A fresh server-made id cannot have been used: skip the look-up.
                earlier = self._earlier(db, table_id, move_id, acting.seat, move) if given else None
                if earlier is not None:
                    return earlier
                self._check_status(row)
                entry = cache.sync(db, row)
                self._check_move(acting, row, version, entry)
                self._not_resigned(mover, acting, row)
                self._remember(entry, row, seats)
                if entry.row is not None and entry.seats is not None:
                    row, seats = entry.row, entry.seats
        match = entry.match
        try:
            events = self.server.guard.call(match.play, acting.seat, move)
        except IllegalMove as error:
            if version != row.version:  # chosen before other seats' moves, no longer legal
                raise ApiError(409, "stale_version", "the table has changed; refresh and try again",
                               version=row.version) from None
            raise ApiError(422, error.code, error.message, version=row.version) from None
        except EngineTimeout:
            cache.drop(table_id)
            self._suspend(table_id)
            raise ApiError(503, "engine_timeout", "this table's game did not answer in time") from None
        # From here the cached match is ahead of the database: any failure drops it.
        try:
            pending = sorted(set(self.server.guard.call(match.pending)))
            result = self.server.guard.call(match.result)
        except BaseException:
            cache.drop(table_id)
            raise
        at = now_ms()
        return Staged(mover, table_id, version, move, move_id, seat, given, entry, row, seats, acting.seat, events,
                      row.version + 1, match.version, match.moves[-1], pending, result, at,
                      self._charge_clocks(row, seats, acting.seat, at))

    def _write(self, connection: Any, staged: Staged) -> None:
        """The move's statements, in the caller's transaction (SQLAlchemy Core)."""
        row, result = staged.row, staged.result
        connection.execute(_INSERT_MOVE, {
            "table_id": staged.table_id, "number": staged.number, "version": staged.new_version,
            "seat": staged.acting, "move": staged.played.move, "move_id": staged.move_id,
            "undoable": staged.played.undoable, "events": [e.to_json() for e in staged.events],
            "by_bot": isinstance(staged.mover, BotMover), "created_at": now()})
        bump = {"b_id": staged.table_id, "b_old": row.version, "b_revision": row.revision,
                "b_version": staged.new_version, "b_moves": staged.number,
                "b_pending": staged.pending if result is None else [], "b_at": staged.at}
        if result is None:
            done = connection.execute(_BUMP, bump)
        else:
            done = connection.execute(_FINISH, {**bump, "b_result": staged.final, "b_finished": now()})
        if done.rowcount != 1:
            raise Stale
        if staged.banks:
            connection.execute(_SET_BANK, [{"b_table": staged.table_id, "b_seat": seat_number, "b_bank": bank}
                                           for seat_number, bank in staged.banks.items()])
        if result is not None and row.rated:
            # Joins the move's transaction: its commit flushes, the move's commits.
            with OrmSession(bind=connection, join_transaction_mode="rollback_only") as db:
                self._rate(db, row, staged.seats, list((staged.final or {})["ranks"]))
                db.commit()

    def _conflict(self, staged: Staged, retry: bool) -> dict[str, Any]:
        """The write lost to a unique constraint or the versioned UPDATE: the move was
        made already with this id, or the table changed under this process's copy."""
        table_id, version = staged.table_id, staged.version
        self.server.cache.drop(table_id)
        with self.server.sessions() as fresh:
            earlier = self._earlier(fresh, table_id, staged.move_id, staged.acting, staged.move)
            if earlier is not None:
                return earlier
            current = fresh.scalar(select(GameTable.version).where(GameTable.id == table_id))
        if current is not None and current >= version and retry:
            # The seats or the status changed under the copy this process kept, or
            # another process's move landed (which may belong to the same
            # simultaneous decision): check again against what is stored now.
            return self._submit_locked(staged.mover, table_id, version, staged.move, staged.move_id, staged.seat,
                                       staged.given, retry=False)
        raise ApiError(409, "stale_version", "another move landed first; refresh and try again",
                       version=current) from None

    def _finish(self, staged: Staged) -> dict[str, Any]:
        """After the commit: the cached entry and row move to the new version; the
        acknowledgement."""
        entry, row, result = staged.entry, staged.row, staged.result
        entry.version = staged.new_version
        entry.versions.append(staged.new_version)
        row.version, row.moves_count, row.turn_started_ms = staged.new_version, staged.number, staged.at
        row.pending = staged.pending if result is None else []
        if result is not None:
            row.status, row.result = "over", staged.final
        for s in staged.seats:
            if s.seat in staged.banks:
                s.bank_ms = staged.banks[s.seat]
        if result is not None:
            self.server.lobby_changed(staged.table_id)
        return {"version": staged.new_version, "number": staged.number, "seat": staged.acting, "duplicate": False,
                "events": [e.to_json() for e in staged.events if e.visible_to(staged.acting)],
                "over": result is not None,
                "_bots": result is None and any(s.bot is not None or s.zombie for s in staged.seats)}

    @staticmethod
    def _check_status(row: TableRow) -> None:
        if row.status == "over":
            raise ApiError(409, "game_over", "the game is over", version=row.version)
        if row.status != "playing":
            raise ApiError(409, "not_playing", "this table is not being played", version=row.version)

    @staticmethod
    def _not_resigned(mover: Actor | BotMover, acting: Any, row: TableRow) -> None:
        """A person whose seat resigned plays it no more: the bot does."""
        if not isinstance(mover, BotMover) and acting.seat in resigned_seats(getattr(row, "resigned", None)):
            raise ApiError(403, "resigned", "this seat resigned: a bot plays it on", version=row.version)

    @classmethod
    def _check_move(cls, acting: Any, row: TableRow, version: int, entry: Entry) -> None:
        """Whether the table's status and the version let ``acting`` move now. A move
        chosen at an earlier version is still taken if every move since was another
        seat's within the same simultaneous decision of independent choices (whether it
        is still legal, playing it tells)."""
        cls._check_status(row)
        if version != row.version and not cls._independent(entry, row, version, acting.seat):
            raise ApiError(409, "stale_version", "the table has changed; refresh and try again",
                           version=row.version)
        if acting.seat not in row.pending:
            raise ApiError(403, "not_your_turn", f"seat {acting.seat} has nothing to decide now",
                           version=row.version)

    @staticmethod
    def _independent(entry: Entry, row: TableRow, version: int, seat: int) -> bool:
        """Whether only other seats' moves of one simultaneous decision, still pending,
        landed between ``version`` and now (no undo: an undo's version starts afresh)."""
        return (entry.version == row.version and entry.undo_version <= version < row.version
                and entry.match.independent_since(entry.number_at(version), seat))

    @staticmethod
    def _earlier(db: OrmSession, table_id: str, move_id: str, seat: int, move: Any) -> dict[str, Any] | None:
        """The acknowledgement of a move already made with this id: a retry is harmless."""
        row = db.connection().execute(_READ_EARLIER, {"id": table_id, "move_id": move_id}).first()
        if row is None:
            return None
        if row.seat != seat or canonical(row.move) != canonical(move):
            raise ApiError(409, "move_id_reused", "this move id was used for another move")
        return {"version": row.version, "number": row.number, "seat": row.seat, "duplicate": True,
                "events": [e for e in row.events if e.get("to") in (None, seat)], "over": False}

    @staticmethod
    def _charge_clocks(row: TableRow, seats: list[TableSeat], mover: int, at: int) -> dict[int, int]:
        """Realtime: every seat that was deciding pays for the time that passed; the mover
        gains its increment. Turn-based clocks restart with each decision. Returns the
        new banks."""
        banks: dict[int, int] = {}
        if row.mode != "realtime" or row.turn_started_ms is None:
            return banks
        elapsed = max(0, at - row.turn_started_ms)
        for s in seats:
            if s.seat in row.pending and s.user_id is not None and not s.zombie:
                bank = max(0, (s.bank_ms or 0) - elapsed)
                if s.seat == mover:
                    bank += int(row.clock["increment_seconds"] * 1000)
                banks[s.seat] = bank
        return banks

    @staticmethod
    def _rate(db: OrmSession, row: TableRow, seats: list[TableSeat], ranks: list[int]) -> None:
        guests = set(db.scalars(select(User.id).where(User.guest.is_(True),
                                                       User.id.in_([s.user_id for s in seats if s.user_id]))))
        players = [(s.user_id, ranks[s.seat]) for s in seats if s.user_id is not None and s.user_id not in guests]
        if len({p for p, _ in players}) == len(players):  # one person in two seats is not a contest
            ratings.update(db, row.game, players)

    def _suspend(self, table_id: str) -> None:
        """A table whose game hung is set aside so that it cannot hang the server again."""
        log.error("table %s suspended: its engine call overran", table_id)
        with self.server.transaction() as db:
            db.execute(update(GameTable).where(GameTable.id == table_id)
                       .values(status="suspended", revision=GameTable.revision + 1))
