"""A table and its seats as read at one moment: immutable copies that every service
reads, and that the match cache keeps beside a match at its version (the move path then
trusts them without reading, because its versioned UPDATE also checks the row's
revision, which every other change to the table bumps)."""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from datetime import datetime
from typing import Any


@dataclass(frozen=True, slots=True)
class TableSnapshot:
    """A ``tables`` row (see ``models.GameTable`` for what each column means)."""

    id: str
    game: str
    seats: int
    options: dict[str, Any]
    seed: int
    mode: str
    clock: dict[str, Any]
    rated: bool
    private: bool
    record_public: bool
    status: str
    version: int
    moves_count: int
    undo_version: int
    revision: int
    pending: list[int]
    turn_started_ms: int | None
    result: dict[str, Any] | None
    created_by: int
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime | None
    rematch_id: str | None
    resigned: list[dict[str, int]] | None

    @classmethod
    def of(cls, row: Any) -> TableSnapshot:
        """From a Core row (by its mapping) or an ORM object (by its attributes)."""
        mapping = getattr(row, "_mapping", None)
        if mapping is not None:
            return cls(**mapping)
        return cls(**{name: getattr(row, name) for name in TABLE_FIELDS})

    @property
    def resigned_seats(self) -> list[int]:
        return resigned_seats(self.resigned)

    def moved(self, version: int, moves: int, pending: list[int], at_ms: int,
              result: dict[str, Any] | None) -> TableSnapshot:
        """The table after a move to ``version`` (its ``result`` if it ended the game)."""
        if result is None:
            return replace(self, version=version, moves_count=moves, pending=pending, turn_started_ms=at_ms)
        return replace(self, version=version, moves_count=moves, pending=pending, turn_started_ms=at_ms,
                       status="over", result=result)


TABLE_FIELDS = tuple(f.name for f in fields(TableSnapshot))


@dataclass(frozen=True, slots=True)
class SeatSnapshot:
    """A ``table_seats`` row with its player's name."""

    table_id: str
    seat: int
    user_id: int | None
    bot: str | None
    zombie: bool
    bank_ms: int | None
    username: str | None = None
    timed_out_after: int | None = None  # the moves played when its time last ran out

    @classmethod
    def of(cls, row: Any) -> SeatSnapshot:
        mapping = getattr(row, "_mapping", None)
        if mapping is not None:
            return cls(**mapping)
        return cls(row.table_id, row.seat, row.user_id, row.bot, row.zombie, row.bank_ms,
                   getattr(row, "username", None), getattr(row, "timed_out_after", None))

    def with_bank(self, bank_ms: int) -> SeatSnapshot:
        return replace(self, bank_ms=bank_ms)

    @property
    def played_by_bot(self) -> bool:
        """A bot decides for this seat: its own, or a person's in zombie mode."""
        return self.bot is not None or self.zombie


def resigned_seats(resigned: list[dict[str, int]] | None) -> list[int]:
    """The seats that resigned, in order, from a table's ``resigned`` column."""
    return [r["seat"] for r in resigned or []]
