"""The clock scan: seats whose time ran out get a bot, and tables where a bot should have
moved are found again. And the heartbeat: every process notes in the database that the
server is serving; a process starting after a gap (no process served: a crash, a stop,
an upgrade) moves every running turn's start on by the gap, so that the time nobody
could play is charged to nobody and each clock goes on as it stood."""

from __future__ import annotations

import contextlib
import logging
from typing import Any

from sqlalchemy import bindparam, select, update
from sqlalchemy.exc import IntegrityError

from ..db import now_ms
from ..models import GameTable, Meta, TableSeat
from .base import _S, _T, TablesBase

# The clock scan runs every second over every playing table: plain rows, few columns.
_SCAN_TABLES = select(_T.c.id, _T.c.status, _T.c.mode, _T.c.clock, _T.c.pending, _T.c.turn_started_ms,
                      _T.c.version).where(_T.c.status == "playing", _T.c.turn_started_ms.is_not(None))
_SCAN_SEATS = select(_S.c.table_id, _S.c.seat, _S.c.user_id, _S.c.zombie, _S.c.bank_ms).where(
    _S.c.table_id.in_(select(_T.c.id).where(_T.c.status == "playing")), _S.c.user_id.is_not(None),
    _S.c.zombie.is_(False))

log = logging.getLogger("ludoteca.server.tables")

SERVING = "serving_ms"
"""The server_meta key of the heartbeat: when some process last said it was serving."""

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

    def heartbeat(self) -> None:
        """Note that the server serves now (called by every process's clock scan)."""
        at = now_ms()
        with contextlib.suppress(IntegrityError), self.server.transaction() as db:
            row = db.get(Meta, SERVING)
            if row is None:
                db.add(Meta(key=SERVING, value=str(at)))  # a racing first insert loses harmlessly
            elif int(row.value) < at:
                row.value = str(at)

    def resume_clocks(self, slack_ms: int) -> int:
        """At start: if no process has served for more than ``slack_ms``, move the start of
        every running turn on by that gap and return it (0 otherwise). The heartbeat is
        claimed with a compare-and-set, so of several processes starting at once only one
        moves the clocks."""
        at = now_ms()
        with self.server.transaction() as db:
            last = db.scalar(select(Meta.value).where(Meta.key == SERVING))
            if last is None:
                db.add(Meta(key=SERVING, value=str(at)))
                return 0
            claim = update(Meta).where(Meta.key == SERVING, Meta.value == last).values(value=str(at))
            claimed = db.connection().execute(claim)
            gap = at - int(last)
            if claimed.rowcount != 1 or gap <= slack_ms:
                return 0
            # The revision moves too: a process that kept a copy of a row (one that hung
            # rather than died) re-reads it before its next move.
            db.execute(update(GameTable).where(GameTable.status == "playing", GameTable.turn_started_ms.is_not(None))
                       .values(turn_started_ms=GameTable.turn_started_ms + gap, revision=GameTable.revision + 1))
        log.warning("the server was not serving for %.1f s: clocks resume as they stood", gap / 1000)
        return gap
