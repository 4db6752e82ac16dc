"""What each reader sees of a table: a snapshot on request, and the updates the live
connections send after a change (computed once per seat and version)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ludoteca.server.kernel import protocol
from ludoteca.server.kernel.clock import now_ms
from ludoteca.server.kernel.errors import ApiError
from ludoteca.server.kernel.identity import Actor
from ludoteca.server.tables import clocks
from ludoteca.server.tables.access import view_seat, visible
from ludoteca.server.tables.matches import EngineTimeout, Entry, events_json
from ludoteca.server.tables.runtime import TableRuntime
from ludoteca.server.tables.snapshot import SeatSnapshot, TableSnapshot
from ludoteca.server.tables.store import TableStatements
from ludoteca.server.tables.summary import Summaries

LiveClient = tuple[int | None, int | None, int | None]
"""A live connection as the updates need it: (view seat, last version seen, user id)."""


class Views:
    def __init__(self, runtime: TableRuntime, store: TableStatements, summaries: Summaries) -> None:
        self.runtime, self.store, self.summaries = runtime, store, summaries

    def snapshot(self, actor: Actor | None, table_id: str, seat: int | None = None, since: int | None = None,
                 ) -> dict[str, Any]:
        runtime = self.runtime
        with runtime.sessions() as db:
            row = self.store.table(db, table_id)
            seats = self.store.seats(db, table_id)
            own = visible(row, actor, seats)
            chosen = view_seat(own, seat)
            summary = self.summaries.summary(db, row, seats)
            if row.status == "open":
                return {"table": summary, "seat": chosen, "your_seats": own, "version": row.version}
            with runtime.cache.table_lock(table_id):
                entry = runtime.cache.sync(db, row)
                state = self.state_for(entry, row, chosen, since)
            return {"table": summary, "seat": chosen, "your_seats": own, **state,
                    "clocks": clocks.shown(row, seats, now_ms())}

    def state_for(self, entry: Entry, row: TableSnapshot, seat: int | None, since: int | None,
                  ) -> protocol.TableState:
        """What ``seat`` sees of the match: its view, its legal moves, whether it may undo,
        and the events since the table version ``since`` (all of them after an undo)."""
        match = entry.match

        def compute() -> protocol.TableState:
            # A table no longer in play (ended by a resignation, suspended) asks nobody
            # to decide, whatever its match would.
            decisions = match.game.pending(match.state) if row.status == "playing" else []
            pending = sorted({d.seat for d in decisions})
            reset = since is None or since < entry.undo_version or since > entry.version
            since_number = 0 if since is None or reset else entry.number_at(since)
            legal = match.legal(seat) if seat is not None and seat in pending else []
            return {
                "version": entry.version,
                "moves": match.version,
                "pending": pending,
                # Only the reader's own prompt: the others are named by ``pending``.
                "prompts": [d.to_json() for d in decisions if seat is not None and d.seat == seat],
                "view": entry.static_refs(match.view(seat)),
                "legal": legal,
                "can_undo": seat is not None and row.status == "playing" and match.can_undo(seat),
                "events": events_json(match.events, seat, since_number),
                "events_reset": reset,
                "result": row.result,
            }

        try:
            return self.runtime.guard.call(compute)
        except EngineTimeout:
            self.runtime.cache.drop(row.id)
            raise ApiError(503, "engine_timeout", "this table's game did not answer in time") from None

    def updates(self, table_id: str, clients: list[LiveClient], version: int | None = None,
                ) -> list[protocol.Update | protocol.ErrorMessage] | None:
        """One update per live client, computed once per distinct (seat, version); None if
        the table is gone. Seats are checked again each time: a client whose seat is no
        longer its own (it left before the start, and someone else sat down) gets the
        spectator's view, or an error at a private table. ``version``: the table is known
        to be at this version with no other change since (a move's notice); if this
        process holds the table's row at that version, nothing is read from the database."""
        cache = self.runtime.cache
        if version is not None:
            with cache.table_lock(table_id):
                entry = cache.peek(table_id)
                if entry is not None and entry.version == version and entry.row is not None \
                        and entry.seats is not None:
                    summary = self.summaries.summary(None, entry.row, entry.seats, entry.creator)
                    return self._updates_from(summary, entry, entry.row, entry.seats, clients)
        with self.runtime.sessions() as db:
            row = self.store.table_or_none(db, table_id)
            if row is None:
                return None
            seats = self.store.seats(db, table_id)
            summary = self.summaries.summary(db, row, seats)
            if row.status == "open":
                return self._updates_from(summary, None, row, seats, clients)
            with cache.table_lock(table_id):
                entry = cache.sync(db, row)
                entry.keep(row, seats, summary["creator"])
                return self._updates_from(summary, entry, row, seats, clients)

    def _updates_from(self, summary: dict[str, Any], entry: Entry | None, row: TableSnapshot,
                      seats: Sequence[SeatSnapshot], clients: list[LiveClient],
                      ) -> list[protocol.Update | protocol.ErrorMessage]:
        shown = clocks.shown(row, seats, now_ms())
        owners = {s.seat: s.user_id for s in seats}
        built: dict[tuple[int | None, int | None] | None, protocol.Update | protocol.ErrorMessage] = {}
        out: list[protocol.Update | protocol.ErrorMessage] = []
        for seat, since, user_id in clients:
            own = [number for number, owner in owners.items() if user_id is not None and owner == user_id]
            if seat not in own:
                seat = own[0] if own else None
            key = None if row.private and not own else (seat, since)
            update = built.get(key)
            if update is None:
                if key is None:
                    update = protocol.private_table()
                else:
                    state: protocol.TableState = self.state_for(entry, row, key[0], key[1]) if entry is not None \
                        else {"version": row.version}
                    update = protocol.update(summary, key[0], shown, state)
                built[key] = update
            # The same object for every client with the same key: it is encoded once.
            out.append(update)
        return out
