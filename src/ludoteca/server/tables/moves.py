"""The move path (``submit_move``) is the heart of the server: under the table's lock in
this process, it checks the caller, the version and the move, plays it on the cached
match, then inserts the move row and bumps the table's version in one transaction whose
unique constraint (table, number) and versioned UPDATE keep out a racing move from any
other process. Only after the commit is the move acknowledged and announced."""

from __future__ import annotations

import logging
import uuid
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


class Moves(TablesBase):
    def submit_move(self, mover: Actor | BotMover, table_id: str, version: int, move: Any, move_id: str | None,
                    seat: int | None = None) -> dict[str, Any]:
        given = move_id is not None
        move_id = move_id or uuid.uuid4().hex
        with self.server.cache.table_lock(table_id):
            result = self._submit_locked(mover, table_id, version, move, move_id, seat, given)
        bots = result.pop("_bots", True)
        if not result.get("duplicate"):
            self.server.changed(table_id, result["version"], bots)
        return result

    def _submit_locked(self, mover: Actor | BotMover, table_id: str, version: int, move: Any, move_id: str,
                       seat: int | None, given: bool = True, retry: bool = True) -> dict[str, Any]:
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
            new_version = row.version + 1
            pending = sorted(set(self.server.guard.call(match.pending)))
            result = self.server.guard.call(match.result)
            # Seats that resigned rank last whatever the engine's scores say.
            final = None if result is None else with_resignations(result.to_json(), getattr(row, "resigned", None))
            at = now_ms()
            banks = self._charge_clocks(row, seats, acting.seat, at)
            played = match.moves[-1]
            with self.server.write_connection() as connection:
                connection.execute(_INSERT_MOVE, {
                    "table_id": table_id, "number": match.version, "version": new_version, "seat": acting.seat,
                    "move": played.move, "move_id": move_id, "undoable": played.undoable,
                    "events": [e.to_json() for e in events], "by_bot": isinstance(mover, BotMover),
                    "created_at": now()})
                bump = {"b_id": table_id, "b_old": row.version, "b_revision": row.revision, "b_version": new_version,
                        "b_moves": match.version, "b_pending": pending if result is None else [], "b_at": at}
                if result is None:
                    done = connection.execute(_BUMP, bump)
                else:
                    done = connection.execute(_FINISH, {**bump, "b_result": final, "b_finished": now()})
                if done.rowcount != 1:
                    raise Stale
                if banks:
                    connection.execute(_SET_BANK, [{"b_table": table_id, "b_seat": seat_number, "b_bank": bank}
                                                   for seat_number, bank in banks.items()])
                if result is not None and row.rated:
                    # Joins the move's transaction: its commit flushes, the move's commits.
                    with OrmSession(bind=connection, join_transaction_mode="rollback_only") as db:
                        self._rate(db, row, seats, list(final["ranks"]) if final else [])
                        db.commit()
        except (IntegrityError, Stale):
            cache.drop(table_id)
            with self.server.sessions() as fresh:
                earlier = self._earlier(fresh, table_id, move_id, acting.seat, move)
                if earlier is not None:
                    return earlier
                current = fresh.scalar(select(GameTable.version).where(GameTable.id == table_id))
            if current is not None and current >= version and retry:
                # The seats or the status changed under the copy this process kept, or
                # another process's move landed (which may belong to the same
                # simultaneous decision): check again against what is stored now.
                return self._submit_locked(mover, table_id, version, move, move_id, seat, given, retry=False)
            raise ApiError(409, "stale_version", "another move landed first; refresh and try again",
                           version=current) from None
        except BaseException:
            cache.drop(table_id)
            raise
        entry.version = new_version
        entry.versions.append(new_version)
        row.version, row.moves_count, row.turn_started_ms = new_version, match.version, at
        row.pending = pending if result is None else []
        if result is not None:
            row.status, row.result = "over", final
        for s in seats:
            if s.seat in banks:
                s.bank_ms = banks[s.seat]
        if result is not None:
            self.server.lobby_changed(table_id)
        return {"version": new_version, "number": match.version, "seat": acting.seat, "duplicate": False,
                "events": [e.to_json() for e in events if e.visible_to(acting.seat)], "over": result is not None,
                "_bots": result is None and any(s.bot is not None or s.zombie for s in seats)}

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
