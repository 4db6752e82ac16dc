"""Resigning: a player concedes a game in play. When one seat is left standing (always at
two seats) the game ends and it wins; otherwise the resigner ranks last and a bot plays
the seat on for the others. Rated tables count it like any other result."""

from __future__ import annotations

from typing import Any

from ludoteca.server.kernel.clock import now
from ludoteca.server.kernel.errors import ApiError
from ludoteca.server.kernel.identity import Actor
from ludoteca.server.tables.endings import Ending, Endings, counts_for_ratings
from ludoteca.server.tables.notices import Notices
from ludoteca.server.tables.results import ended_by_resignation
from ludoteca.server.tables.runtime import TableRuntime
from ludoteca.server.tables.snapshot import TableSnapshot, resigned_seats
from ludoteca.server.tables.store import TableStatements
from ludoteca.server.tables.summary import Summaries


class Resign:
    def __init__(self, runtime: TableRuntime, store: TableStatements, summaries: Summaries, notices: Notices,
                 endings: Endings) -> None:
        self.runtime, self.store, self.summaries = runtime, store, summaries
        self.notices, self.endings = notices, endings

    def resign(self, actor: Actor, table_id: str, seat: int | None = None) -> dict[str, Any]:
        ending = None
        with self.runtime.cache.table_lock(table_id), self.runtime.transaction() as db:
            row, seats = self.store.lock(db, table_id)
            if row.status != "playing":
                raise ApiError(409, "not_playing", "only a game in play can be resigned", version=row.version)
            gone = resigned_seats(row.resigned)
            mine = [s for s in seats if s.user_id == actor.user_id and s.seat not in gone]
            if seat is not None:
                mine = [s for s in mine if s.seat == seat]
            if not mine:
                raise ApiError(409, "not_seated", "you have no seat in play at this table")
            if len(mine) > 1:
                raise ApiError(422, "which_seat", "you play several seats: say which one resigns")
            chosen = mine[0]
            resigned = [*(row.resigned or []), {"seat": chosen.seat, "after": row.moves_count}]
            row.resigned = resigned
            standing = [s.seat for s in seats if s.seat not in resigned_seats(resigned)]
            over = len(standing) <= 1
            if not over:
                chosen.zombie = True  # a bot plays the seat on (and it cannot be taken back)
            else:
                result = ended_by_resignation(row.seats, resigned)
                row.status, row.result, row.pending, row.finished_at = "over", result, [], now()
                ending = Ending(table_id, row.game, counts_for_ratings(row.rated, row.private), "resigned", result,
                                tuple((s.seat, s.user_id) for s in seats))
                self.endings.record(db.connection(), ending)
            row.revision = (row.revision or 0) + 1
            db.flush()
            summary = self.summaries.summary(db, TableSnapshot.of(row), self.store.seats(db, table_id))
        self.runtime.cache.forget_row(table_id)
        if ending is not None:
            self.endings.announce(ending)
        else:
            self.notices.table_changed(table_id)
            self.notices.schedule_bots(table_id)
        return {"table": summary, "seat": chosen.seat, "over": over}
