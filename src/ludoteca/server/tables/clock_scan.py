"""The clock scan: seats whose time ran out get a bot, and tables where a bot should have
moved are found again. And the heartbeat: every process notes in the database that the
server is serving; a process starting after a gap (no process served: a crash, a stop,
an upgrade) moves every running turn's start on by the gap, so that the time nobody
could play is charged to nobody and each clock goes on as it stood."""

from __future__ import annotations

import contextlib
import logging
from typing import Any, cast

from sqlalchemy.exc import IntegrityError

from ludoteca.server.kernel.clock import now_ms
from ludoteca.server.tables import clocks
from ludoteca.server.tables.notices import Notices
from ludoteca.server.tables.runtime import TableRuntime
from ludoteca.server.tables.store import TableStatements

log = logging.getLogger("ludoteca.server.tables")


class ClockScan:
    def __init__(self, runtime: TableRuntime, store: TableStatements, notices: Notices) -> None:
        self.runtime, self.store, self.notices = runtime, store, notices

    def expire_clocks(self) -> list[str]:
        """Put a bot in every seat whose time ran out; return the tables changed. Reads
        first and writes only when a clock has run out, so the scan costs no write lock."""
        at = now_ms()
        with self.runtime.sessions() as db:
            rows, seats = self.store.running_clocks(db)
        out: list[tuple[str, int, int, int | None]] = []  # (table, seat, version seen, bank left)
        for row in rows:
            table = cast(clocks.ClockedTable, row)
            for seat in clocks.timed_out(table, cast(list[Any], seats.get(row.id, [])), at):
                out.append((row.id, seat, row.version, clocks.out_of_time_bank(table)))
        changed: set[str] = set()
        for table_id, seat_number, version, bank in out:
            with self.runtime.transaction() as db:
                if self.store.time_out(db, table_id, seat_number, version, bank):
                    changed.add(table_id)
            self.runtime.cache.forget_row(table_id)
        for table_id in changed:
            self.notices.table_changed(table_id)
            self.notices.schedule_bots(table_id)
        return sorted(changed)

    def idle_bot_tables(self, idle_ms: int) -> list[str]:
        """Playing tables where a bot must decide and nothing happened lately: after a
        restart, or when the process that should have moved went away."""
        with self.runtime.sessions() as db:
            return self.store.idle_bot_tables(db, now_ms() - idle_ms)

    def heartbeat(self) -> None:
        """Note that the server serves now (called by every process's clock scan)."""
        with contextlib.suppress(IntegrityError), self.runtime.transaction() as db:
            self.store.heartbeat(db, now_ms())

    def resume_clocks(self, slack_ms: int) -> int:
        """At start: if no process has served for more than ``slack_ms``, move the start of
        every running turn on by that gap and return it (0 otherwise). The heartbeat is
        claimed with a compare-and-set, so of several processes starting at once only one
        moves the clocks."""
        at = now_ms()
        with self.runtime.transaction() as db:
            last = self.store.claim_heartbeat(db, at)
            if last is None or at - last <= slack_ms:
                return 0
            gap = at - last
            self.store.shift_turns(db, gap)
        log.warning("the server was not serving for %.1f s: clocks resume as they stood", gap / 1000)
        return gap
