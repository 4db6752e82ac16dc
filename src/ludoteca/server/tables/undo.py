"""Undo: taking back the last move, where the game allows it."""

from __future__ import annotations

from sqlalchemy.exc import IntegrityError

from ludoteca.engine import UndoError
from ludoteca.server.kernel.clock import now_ms
from ludoteca.server.kernel.errors import ApiError
from ludoteca.server.kernel.identity import Actor
from ludoteca.server.kernel.protocol import UndoReceipt
from ludoteca.server.tables import clocks
from ludoteca.server.tables.access import acting_seat, not_a_bots_seat
from ludoteca.server.tables.matches import EngineTimeout
from ludoteca.server.tables.notices import Notices
from ludoteca.server.tables.runtime import TableRuntime
from ludoteca.server.tables.store import Stale, TableStatements


class Undo:
    def __init__(self, runtime: TableRuntime, store: TableStatements, notices: Notices) -> None:
        self.runtime, self.store, self.notices = runtime, store, notices

    def undo(self, actor: Actor, table_id: str, version: int, seat: int | None) -> UndoReceipt:
        runtime, cache = self.runtime, self.runtime.cache
        with cache.table_lock(table_id):
            with runtime.sessions() as db:
                row = self.store.table(db, table_id)
                seats = self.store.seats(db, table_id)
                acting = acting_seat(actor, seats, seat, row.pending)
                if row.status != "playing":
                    raise ApiError(409, "not_playing", "this table is not being played", version=row.version)
                if version != row.version:
                    raise ApiError(409, "stale_version", "the table has changed; refresh and try again",
                                   version=row.version)
                not_a_bots_seat(acting, row.version)
                last = self.store.last_move(db, table_id)
                entry = cache.sync(db, row)
            match = entry.match
            if not match.can_undo(acting.seat) or last is None or last.by_bot:
                # A bot's move (a seat its player left, timed out or resigned) is nobody's to take back.
                raise ApiError(422, "undo_forbidden", "this move cannot be taken back", version=row.version)
            number = match.version
            try:
                runtime.guard.call(match.undo, acting.seat)
            except UndoError as error:
                raise ApiError(422, error.code, error.message, version=row.version) from None
            except EngineTimeout:
                cache.drop(table_id)
                raise ApiError(503, "engine_timeout", "this table's game did not answer in time") from None
            try:
                new_version = row.version + 1
                pending = sorted(set(runtime.guard.call(match.pending)))
                turn_start, banks = clocks.after_undo(row, seats, acting.seat, now_ms())
                with runtime.write_connection() as connection:
                    self.store.take_back(connection, table_id, number, row.version, new_version, match.version,
                                         pending, turn_start, banks)
            except (IntegrityError, Stale):
                cache.drop(table_id)
                raise ApiError(409, "stale_version", "another move landed first", version=row.version + 1) from None
            except BaseException:
                cache.drop(table_id)
                raise
            entry.version = entry.undo_version = new_version
            entry.versions.pop()
            entry.row = entry.seats = None
        self.notices.moved(table_id, new_version)
        return {"version": new_version, "moves": match.version}
