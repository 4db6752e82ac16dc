"""The clock scan: seats whose time ran out get a bot, and tables where a bot should have
moved are found again."""

from __future__ import annotations

from typing import Any

from sqlalchemy import bindparam, select, update

from ..db import now_ms
from ..models import GameTable, TableSeat
from .base import _S, _T, TablesBase

# The clock scan runs every second over every playing table: plain rows, few columns.
_SCAN_TABLES = select(_T.c.id, _T.c.status, _T.c.mode, _T.c.clock, _T.c.pending, _T.c.turn_started_ms,
                      _T.c.version).where(_T.c.status == "playing", _T.c.turn_started_ms.is_not(None))
_SCAN_SEATS = select(_S.c.table_id, _S.c.seat, _S.c.user_id, _S.c.zombie, _S.c.bank_ms).where(
    _S.c.table_id.in_(select(_T.c.id).where(_T.c.status == "playing")), _S.c.user_id.is_not(None),
    _S.c.zombie.is_(False))

_SCAN_IDLE = select(_T.c.id, _T.c.pending).where(_T.c.status == "playing",
                                                 _T.c.turn_started_ms < bindparam("before"))


class Clocks(TablesBase):
    def expire_clocks(self) -> list[str]:
        """Put a bot in every seat whose time ran out; return the tables changed. Reads
        first and writes only when a clock has run out, so the scan costs no write lock."""
        at = now_ms()
        with self.server.sessions() as db:
            connection = db.connection()
            rows = list(connection.execute(_SCAN_TABLES))
            seats_by_table: dict[str, list[Any]] = {}
            if rows:
                for seat in connection.execute(_SCAN_SEATS):
                    seats_by_table.setdefault(seat.table_id, []).append(seat)
        out: list[tuple[str, int, int]] = []  # (table, seat, version seen)
        for row in rows:
            for info in (self.clocks(row, seats_by_table.get(row.id, []), at) or {}).get("seats", []):
                if info["running"] and (info["remaining_ms"] <= 0 if row.mode == "realtime"
                                        else at >= info["deadline_ms"]):
                    out.append((row.id, info["seat"], row.version))
        changed: set[str] = set()
        for table_id, seat_number, version in out:
            with self.server.transaction() as db:
                # Only if nothing moved meanwhile: a move just in time wins over the clock.
                still = db.scalar(select(GameTable.id).where(GameTable.id == table_id, GameTable.version == version,
                                                             GameTable.status == "playing"))
                if still is not None:
                    db.execute(update(TableSeat).where(TableSeat.table_id == table_id,
                                                       TableSeat.seat == seat_number).values(zombie=True))
                    db.execute(update(GameTable).where(GameTable.id == table_id)
                               .values(revision=GameTable.revision + 1))
                    changed.add(table_id)
            self.server.cache.forget_row(table_id)
        for table_id in changed:
            self.server.lobby_changed(table_id)
            self.server.bots.schedule(table_id)
        return sorted(changed)

    def idle_bot_tables(self, idle_ms: int) -> list[str]:
        """Playing tables where a bot must decide and nothing happened lately: after a
        restart, or when the process that should have moved went away."""
        at = now_ms()
        with self.server.sessions() as db:
            rows = db.connection().execute(_SCAN_IDLE, {"before": at - idle_ms}).all()
            idle = [r.id for r in rows]
            if not idle:
                return []
            bot_seats = db.execute(select(TableSeat.table_id, TableSeat.seat).where(
                TableSeat.table_id.in_(idle), (TableSeat.bot.is_not(None)) | (TableSeat.zombie.is_(True)))).all()
        pending = {r.id: set(r.pending) for r in rows}
        return sorted({t for t, s in bot_seats if s in pending.get(t, ())})
