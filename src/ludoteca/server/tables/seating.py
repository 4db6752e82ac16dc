"""Seating: joining, leaving, bots in seats, kicking, and starting the game."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sqlalchemy.orm import Session as OrmSession

from ludoteca.bots.base import seatable_bot_names
from ludoteca.server.kernel.clock import now_ms
from ludoteca.server.kernel.errors import ApiError
from ludoteca.server.kernel.identity import Actor
from ludoteca.server.kernel.models import GameTable, TableSeat
from ludoteca.server.moderation.service import may_meet
from ludoteca.server.tables import clocks
from ludoteca.server.tables.access import require_host
from ludoteca.server.tables.notices import Notices
from ludoteca.server.tables.opening import Opening
from ludoteca.server.tables.runtime import TableRuntime
from ludoteca.server.tables.snapshot import TableSnapshot, resigned_seats
from ludoteca.server.tables.store import TableStatements
from ludoteca.server.tables.summary import Summaries

Change = Callable[[OrmSession, GameTable, list[TableSeat]], None]


class Seating:
    def __init__(self, runtime: TableRuntime, store: TableStatements, summaries: Summaries, notices: Notices,
                 opening: Opening) -> None:
        self.runtime, self.store, self.summaries, self.notices = runtime, store, summaries, notices
        self.opening = opening

    def _change_seats(self, table_id: str, change: Change) -> dict[str, Any]:
        with self.runtime.transaction() as db:
            row, seats = self.store.lock(db, table_id)
            change(db, row, seats)
            row.revision = (row.revision or 0) + 1
            db.flush()
            summary = self.summaries.summary(db, TableSnapshot.of(row), self.store.seats(db, table_id))
        self.runtime.cache.forget_row(table_id)
        self.notices.table_changed(table_id)
        return summary

    def join(self, actor: Actor, table_id: str, seat: int | None) -> dict[str, Any]:
        def change(db: OrmSession, row: GameTable, seats: list[TableSeat]) -> None:
            own = [s.seat for s in seats if s.user_id == actor.user_id]
            if row.status == "playing":
                # Taking back one's seat from the zombie bot.
                gone = resigned_seats(row.resigned)  # a resigned seat is the bot's for good
                mine = [s for s in seats if s.user_id == actor.user_id and s.zombie and s.seat not in gone]
                if not mine:
                    raise ApiError(409, "already_started", "this table has started")
                at = now_ms()
                settle_clocks(row, seats, at)  # the others' time so far stays spent
                for s in mine:
                    s.zombie = False
                    bank = clocks.comeback_bank(row, s.bank_ms)
                    if bank is not None:
                        s.bank_ms = bank
                row.turn_started_ms = at
                return
            if row.status != "open":
                raise ApiError(409, "not_open", "this table is not open")
            if row.rated and actor.guest:
                raise ApiError(403, "guest_rated", "guests cannot play rated tables")
            if own:
                raise ApiError(409, "already_seated", "you already sit at this table")
            if not may_meet(db, actor.user_id, [s.user_id for s in seats if s.user_id is not None]):
                raise ApiError(403, "blocked", "a player at this table has blocked you")
            free = [s for s in seats if s.user_id is None and s.bot is None]
            if seat is not None:
                free = [s for s in free if s.seat == seat]
            if not free:
                raise ApiError(409, "no_free_seat", "no free seat here")
            free[0].user_id = actor.user_id

        return self._change_seats(table_id, change)

    def leave(self, actor: Actor, table_id: str) -> dict[str, Any]:
        def change(db: OrmSession, row: GameTable, seats: list[TableSeat]) -> None:
            mine = [s for s in seats if s.user_id == actor.user_id]
            if not mine:
                raise ApiError(409, "not_seated", "you do not sit at this table")
            if row.status == "open":
                for s in mine:
                    s.user_id = None
                if all(s.user_id is None for s in seats):
                    row.status = "aborted"
                elif row.created_by == actor.user_id:
                    # The host leaves: the next person seated hosts the table.
                    row.created_by = next(s.user_id for s in seats if s.user_id is not None)
            elif row.status == "playing":
                settle_clocks(row, seats, now_ms())  # the leaver's time so far is charged
                for s in mine:  # the bot plays on; the player may come back (join)
                    s.zombie = True
            else:
                raise ApiError(409, "over", "this table is over")

        summary = self._change_seats(table_id, change)
        self.notices.schedule_bots(table_id)
        return summary

    def add_bot(self, actor: Actor, table_id: str, seat: int | None, bot: str) -> dict[str, Any]:
        if bot not in seatable_bot_names():
            raise ApiError(422, "no_bot", f"no bot {bot!r}; bots: {', '.join(seatable_bot_names())}")

        def change(db: OrmSession, row: GameTable, seats: list[TableSeat]) -> None:
            require_host(row.created_by, actor, seats)
            if row.status != "open":
                raise ApiError(409, "not_open", "this table is not open")
            seat_bot(seats, seat, bot)

        return self._change_seats(table_id, change)

    def kick(self, actor: Actor, table_id: str, seat: int) -> dict[str, Any]:
        def change(db: OrmSession, row: GameTable, seats: list[TableSeat]) -> None:
            require_host(row.created_by, actor, seats)
            if row.status != "open":
                raise ApiError(409, "not_open", "only an unstarted table's seats can be emptied")
            target = [s for s in seats if s.seat == seat]
            if not target or target[0].user_id == actor.user_id:
                raise ApiError(409, "bad_seat", "no one to kick at that seat")
            target[0].user_id = None
            target[0].bot = None

        return self._change_seats(table_id, change)

    def start(self, actor: Actor, table_id: str) -> dict[str, Any]:
        """The host starts their open table (``Opening.start``), every seat taken."""
        with self.runtime.cache.table_lock(table_id):
            def change(db: OrmSession, row: GameTable, seats: list[TableSeat]) -> None:
                require_host(row.created_by, actor, seats)
                if row.status != "open":
                    raise ApiError(409, "not_open", "this table is not open")
                self.opening.start(db, row, seats)

            summary = self._change_seats(table_id, change)
        self.notices.schedule_bots(table_id)
        return summary


def settle_clocks(row: GameTable, seats: list[TableSeat], at_ms: int) -> None:
    """Before who plays a seat changes: every running seat is charged its time up to
    ``at_ms`` and the turn starts again then (realtime; the clock policy decides)."""
    banks = clocks.settle(row, seats, at_ms)
    if banks is None:
        return
    for s in seats:
        if s.seat in banks:
            s.bank_ms = banks[s.seat]
    row.turn_started_ms = at_ms


def seat_bot(seats: list[TableSeat], seat: int | None, bot: str) -> None:
    """Sits ``bot`` at the free seat ``seat`` (the first free one if None)."""
    free = [s for s in seats if s.user_id is None and s.bot is None and (seat is None or s.seat == seat)]
    if not free:
        raise ApiError(409, "no_free_seat", "no free seat here")
    free[0].bot = bot
