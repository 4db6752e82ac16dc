"""Aborting a table: a moderator's decision, carried out by the tables."""

from __future__ import annotations

from typing import Any

from ludoteca.server.kernel.clock import now
from ludoteca.server.kernel.errors import ApiError
from ludoteca.server.tables.endings import Ending, Endings
from ludoteca.server.tables.runtime import TableRuntime


class TableAbort:
    """Ends a table with no result: open or in play, it becomes ``aborted``, no one wins,
    no rating moves. The end goes through ``Endings`` (kind ``aborted``) like every
    other, so its readers and subscribers hear of it once."""

    def __init__(self, runtime: TableRuntime, endings: Endings) -> None:
        self.runtime, self.endings = runtime, endings

    def __call__(self, table_id: str) -> dict[str, Any]:
        store = self.runtime.store
        with self.runtime.cache.table_lock(table_id), self.runtime.transaction() as db:
            row, seats = store.lock(db, table_id)
            if row.status not in ("open", "playing"):
                raise ApiError(409, "not_playing", "only an open table or a game in play can be aborted")
            row.status, row.result, row.pending, row.finished_at = "aborted", None, [], now()
            row.turn_started_ms = None
            row.revision = (row.revision or 0) + 1
            ending = Ending(table_id, row.game, row.rated, "aborted", {},
                            tuple((s.seat, s.user_id) for s in seats))
            self.endings.record(db.connection(), ending)
        self.runtime.cache.forget_row(table_id)
        self.endings.announce(ending)
        return {"id": table_id, "status": "aborted"}
