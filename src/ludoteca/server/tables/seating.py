"""Seating: joining, leaving, bots in seats, kicking, and starting the game."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session as OrmSession

from ludoteca.bots.base import seatable_bot_names

from ..auth import Actor
from ..db import now, now_ms
from ..errors import ApiError, not_found
from ..models import GameTable, TableSeat
from .base import TablesBase, resigned_seats


class Seating(TablesBase):
    def _change_seats(self, actor: Actor, table_id: str, change: Any) -> dict[str, Any]:
        with self.server.transaction() as db:
            # Row locks (PostgreSQL) so two joins cannot take the same seat; SQLite's
            # write transactions are exclusive already.
            row = db.get(GameTable, table_id, populate_existing=True, with_for_update=True)
            if row is None:
                raise not_found()
            seats = list(db.scalars(select(TableSeat).where(TableSeat.table_id == table_id)
                                    .order_by(TableSeat.seat).with_for_update()))
            change(db, row, seats)
            row.revision = (row.revision or 0) + 1
            db.flush()
            summary = self._summary(db, row, self._seats(db, table_id))
        self.server.cache.forget_row(table_id)
        self.server.lobby_changed(table_id)
        return summary

    def join(self, actor: Actor, table_id: str, seat: int | None) -> dict[str, Any]:
        def change(db: OrmSession, row: GameTable, seats: list[TableSeat]) -> None:
            own = self._own(seats, actor)
            if row.status == "playing":
                # Taking back one's seat from the zombie bot.
                gone = resigned_seats(row.resigned)  # a resigned seat is the bot's for good
                mine = [s for s in seats if s.user_id == actor.user_id and s.zombie and s.seat not in gone]
                if not mine:
                    raise ApiError(409, "already_started", "this table has started")
                for s in mine:
                    s.zombie = False
                    if row.mode == "realtime" and (s.bank_ms or 0) <= 0:
                        # A seat that timed out comes back with one increment to play with.
                        s.bank_ms = max(int(row.clock["increment_seconds"] * 1000), 30_000)
                row.turn_started_ms = now_ms()
                return
            if row.status != "open":
                raise ApiError(409, "not_open", "this table is not open")
            if row.rated and actor.guest:
                raise ApiError(403, "guest_rated", "guests cannot play rated tables")
            if own:
                raise ApiError(409, "already_seated", "you already sit at this table")
            free = [s for s in seats if s.user_id is None and s.bot is None]
            if seat is not None:
                free = [s for s in free if s.seat == seat]
            if not free:
                raise ApiError(409, "no_free_seat", "no free seat here")
            free[0].user_id = actor.user_id

        return self._change_seats(actor, table_id, change)

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
            elif row.status == "playing":
                for s in mine:  # the bot plays on; the player may come back (join)
                    s.zombie = True
            else:
                raise ApiError(409, "over", "this table is over")

        summary = self._change_seats(actor, table_id, change)
        self.server.bots.schedule(table_id)
        return summary

    def add_bot(self, actor: Actor, table_id: str, seat: int | None, bot: str) -> dict[str, Any]:
        if bot not in seatable_bot_names():
            raise ApiError(422, "no_bot", f"no bot {bot!r}; bots: {', '.join(seatable_bot_names())}")

        def change(db: OrmSession, row: GameTable, seats: list[TableSeat]) -> None:
            self._creator(row, actor)
            if row.status != "open":
                raise ApiError(409, "not_open", "this table is not open")
            seat_bot(seats, seat, bot)

        return self._change_seats(actor, table_id, change)

    def kick(self, actor: Actor, table_id: str, seat: int) -> dict[str, Any]:
        def change(db: OrmSession, row: GameTable, seats: list[TableSeat]) -> None:
            self._creator(row, actor)
            if row.status != "open":
                raise ApiError(409, "not_open", "only an unstarted table's seats can be emptied")
            target = [s for s in seats if s.seat == seat]
            if not target or target[0].user_id == actor.user_id:
                raise ApiError(409, "bad_seat", "no one to kick at that seat")
            target[0].user_id = None
            target[0].bot = None

        return self._change_seats(actor, table_id, change)

    def start(self, actor: Actor, table_id: str) -> dict[str, Any]:
        lock = self.server.cache.table_lock(table_id)
        with lock:
            def change(db: OrmSession, row: GameTable, seats: list[TableSeat]) -> None:
                self._creator(row, actor)
                if row.status != "open":
                    raise ApiError(409, "not_open", "this table is not open")
                if any(s.user_id is None and s.bot is None for s in seats):
                    raise ApiError(409, "seats_free", "every seat needs a player or a bot")
                entry = self.server.cache.sync(db, row)
                row.status = "playing"
                row.started_at = now()
                row.pending = self._pending(entry)
                row.turn_started_ms = now_ms()
                for s in seats:
                    if row.mode == "realtime":
                        s.bank_ms = int(row.clock["initial_seconds"] * 1000)

            summary = self._change_seats(actor, table_id, change)
        self.server.bots.schedule(table_id)
        return summary


def seat_bot(seats: list[TableSeat], seat: int | None, bot: str) -> None:
    """Sits ``bot`` at the free seat ``seat`` (the first free one if None)."""
    free = [s for s in seats if s.user_id is None and s.bot is None and (seat is None or s.seat == seat)]
    if not free:
        raise ApiError(409, "no_free_seat", "no free seat here")
    free[0].bot = bot
