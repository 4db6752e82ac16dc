"""A closed account's seats: freed at tables not yet started; in a game in play a bot
takes the seat over (its results, records and chat lines stay, under its new name)."""

from __future__ import annotations

from sqlalchemy import select, update
from sqlalchemy.orm import Session as OrmSession

from ludoteca.server.kernel.models import GameTable, TableSeat


def close_account(db: OrmSession, user_id: int) -> None:
    open_tables = select(GameTable.id).where(GameTable.status == "open")
    db.execute(update(TableSeat).where(TableSeat.user_id == user_id, TableSeat.table_id.in_(open_tables))
               .values(user_id=None))
    playing = select(GameTable.id).where(GameTable.status == "playing")
    db.execute(update(TableSeat).where(TableSeat.user_id == user_id, TableSeat.table_id.in_(playing))
               .values(zombie=True))
