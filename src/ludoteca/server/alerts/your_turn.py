""""Your turn" alerts: after each committed move (``Notices.moved``) and each other
change of a table (``Notices.table_changed``: a start, a seat taken back), the seats that
now have to decide and did not have to before get a ``your_turn`` alert, if a person
plays them (not a bot, nor a bot standing in for a person who left) and is not at the
table (the open table says it itself).

Cheap on the move path: the move worker only reads the match cache's copy of the table
and seats, compares the pending seats with those it saw last, and hands any alert to a
thread of its own; no database query runs there, none on the event loop. When the cache
does not hold that version (or for a change that is not a move), the thread reads the
table from the database instead. Simultaneous decisions alert a seat once, not on every
other seat's move."""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence

from ludoteca.server.alerts.core import Alert, Alerts
from ludoteca.server.alerts.mailer import Worker
from ludoteca.server.tables.runtime import TableRuntime
from ludoteca.server.tables.snapshot import SeatSnapshot, TableSnapshot

log = logging.getLogger("ludoteca.server.alerts.your_turn")

REMEMBERED = 20_000
"""Tables whose pending seats are remembered (the least recently changed are forgotten:
at worst a seat of such a table is alerted twice)."""

Present = Callable[[str], Sequence[int | None]]


class TurnWatch:
    def __init__(self, runtime: TableRuntime, alerts: Alerts, present: Present) -> None:
        self.runtime = runtime
        self.alerts = alerts
        self.present = present
        self.worker = Worker("turn-alerts")
        self._seen: OrderedDict[str, frozenset[int]] = OrderedDict()
        self._lock = threading.Lock()

    # -- Notices.watch --------------------------------------------------------------------

    def moved(self, table_id: str, version: int) -> None:
        """In the move worker, after the commit: from the cached copy when it is at
        ``version``, else later from the database."""
        entry = self.runtime.cache.peek(table_id)
        row = entry.row if entry is not None else None
        seats = entry.seats if entry is not None else None
        if row is None or seats is None or row.version != version:
            self.worker.put(lambda: self._from_database(table_id))
            return
        self.consider(row, seats)

    def changed(self, table_id: str) -> None:
        self.worker.put(lambda: self._from_database(table_id))

    # -- deciding -------------------------------------------------------------------------

    def _from_database(self, table_id: str) -> None:
        store = self.runtime.store
        with self.runtime.sessions() as db:
            row = store.table_or_none(db, table_id)
            if row is None:
                return
            seats = store.seats(db, table_id) if row.status == "playing" else []
        self.consider(row, seats)

    def consider(self, row: TableSnapshot, seats: Sequence[SeatSnapshot]) -> None:
        pending = frozenset(row.pending) if row.status == "playing" else frozenset()
        with self._lock:
            before = self._seen.pop(row.id, frozenset())
            if pending:
                self._seen[row.id] = pending
                while len(self._seen) > REMEMBERED:
                    self._seen.popitem(last=False)
        fresh = pending - before
        if not fresh:
            return
        by_seat = {s.seat: s for s in seats}
        present = set(self.present(row.id))
        alerts = []
        for seat in sorted(fresh):
            s = by_seat.get(seat)
            # A player at the table is told by the table itself: no channel has anything to
            # add (and in live play this runs on every move, on the move worker).
            if s is None or s.user_id is None or s.played_by_bot or s.user_id in present:
                continue
            alerts.append(Alert(s.user_id, "your_turn", row.id, {"game": row.game, "mode": row.mode, "seat": seat}))
        if alerts:
            self.worker.put(lambda: self._notify(alerts))

    def _notify(self, alerts: list[Alert]) -> None:
        for alert in alerts:
            self.alerts.notify(alert)

    def stop(self) -> None:
        self.worker.stop()
