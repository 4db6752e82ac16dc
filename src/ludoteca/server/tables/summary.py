"""The table as the lobby and every reader see it."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from sqlalchemy.orm import Session as OrmSession

from ludoteca.server.kernel.clock import iso
from ludoteca.server.tables.snapshot import SeatSnapshot, TableSnapshot
from ludoteca.server.tables.store import TableStatements

Presence = Callable[[str], tuple[int | None, ...]]
"""The user of every socket open to a table, in every process sharing the hub."""


class Summaries:
    def __init__(self, store: TableStatements, presence: Presence) -> None:
        self.store = store
        self.presence = presence

    @staticmethod
    def players(seats: Sequence[SeatSnapshot], online: frozenset[int] = frozenset()) -> list[dict[str, Any]]:
        return [{"seat": s.seat, "username": s.username if s.user_id else None, "bot": s.bot, "zombie": s.zombie,
                 "connected": s.user_id is not None and s.user_id in online, "timed_out": s.timed_out_after}
                for s in seats]

    def summary(self, db: OrmSession | None, table: TableSnapshot, seats: Sequence[SeatSnapshot] | None = None,
                creator: str | None = None) -> dict[str, Any]:
        """``connected`` (a seat's person has a live socket open to the table) and
        ``spectators`` (live sockets of people not seated, or signed out) count the
        sockets of every process sharing the hub. Without ``db``, ``seats`` and
        ``creator`` are known."""
        if seats is None:
            assert db is not None
            seats = self.store.seats(db, table.id)
        sockets = self.presence(table.id)
        online = frozenset(user for user in sockets if user is not None)
        seated = {s.user_id for s in seats if s.user_id is not None}
        players = self.players(seats, online)
        if creator is None:
            creator = next((p["username"] for s, p in zip(seats, players, strict=True)
                            if s.user_id == table.created_by), None)
        if creator is None and db is not None:
            creator = self.store.username(db, table.created_by)
        return {
            "id": table.id, "game": table.game, "seats": table.seats, "options": table.options, "mode": table.mode,
            "clock": table.clock, "rated": table.rated, "private": table.private,
            "record_public": table.record_public, "status": table.status, "version": table.version,
            "moves": table.moves_count, "pending": table.pending, "players": players, "result": table.result,
            "creator": creator, "rematch": table.rematch_id, "resigned": table.resigned_seats,
            "spectators": sum(1 for user in sockets if user is None or user not in seated),
            "created_at": iso(table.created_at),
        }
