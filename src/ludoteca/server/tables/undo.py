"""Undo: taking back the last move, where the game allows it."""

from __future__ import annotations

from typing import Any

from sqlalchemy import delete, update
from sqlalchemy.exc import IntegrityError

from ludoteca.engine import UndoError

from ..auth import Actor
from ..db import now_ms
from ..errors import ApiError
from ..matches import EngineTimeout
from ..models import MoveRow
from .base import _T, TablesBase
from .moves import Stale


class Undo(TablesBase):
    def undo(self, actor: Actor, table_id: str, version: int, seat: int | None) -> dict[str, Any]:
        cache = self.server.cache
        with cache.table_lock(table_id):
            with self.server.sessions() as db:
                row = self._row(db, table_id)
                seats = self._seats(db, table_id)
                acting = self._acting_seat(actor, seats, seat, row.pending)
                if row.status != "playing":
                    raise ApiError(409, "not_playing", "this table is not being played", version=row.version)
                if version != row.version:
                    raise ApiError(409, "stale_version", "the table has changed; refresh and try again",
                                   version=row.version)
                entry = cache.sync(db, row)
            match = entry.match
            if not match.can_undo(acting.seat):
                raise ApiError(422, "undo_forbidden", "this move cannot be taken back", version=row.version)
            number = match.version
            try:
                self.server.guard.call(match.undo, acting.seat)
            except UndoError as error:
                raise ApiError(422, error.code, error.message, version=row.version) from None
            except EngineTimeout:
                cache.drop(table_id)
                raise ApiError(503, "engine_timeout", "this table's game did not answer in time") from None
            try:
                new_version = row.version + 1
                pending = sorted(set(self.server.guard.call(match.pending)))
                with self.server.writing() as db:
                    db.execute(delete(MoveRow).where(MoveRow.table_id == table_id, MoveRow.number == number))
                    done = db.connection().execute(
                        update(_T).where(_T.c.id == table_id, _T.c.version == row.version)
                        .values(version=new_version, moves_count=match.version, pending=pending,
                                undo_version=new_version, turn_started_ms=now_ms()))
                    if done.rowcount != 1:
                        raise Stale
                    db.commit()
            except (IntegrityError, Stale):
                cache.drop(table_id)
                raise ApiError(409, "stale_version", "another move landed first", version=row.version + 1) from None
            except BaseException:
                cache.drop(table_id)
                raise
            entry.version = entry.undo_version = new_version
            entry.versions.pop()
            entry.row = entry.seats = None
        self.server.changed(table_id, new_version)
        return {"version": new_version, "moves": match.version}
