"""Who may see a table and who may act at it: rules over a table's snapshot and seats,
shared by every table service."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ludoteca.server.kernel.errors import ApiError
from ludoteca.server.kernel.identity import Actor
from ludoteca.server.tables.snapshot import SeatSnapshot, TableSnapshot


@dataclass(frozen=True)
class BotMover:
    """A bot playing a seat (its own, or a person's in zombie mode)."""

    name: str


Mover = Actor | BotMover


def own_seats(seats: Sequence[SeatSnapshot], actor: Actor | None) -> list[int]:
    return [] if actor is None else [s.seat for s in seats if s.user_id == actor.user_id]


def visible(table: TableSnapshot, actor: Actor | None, seats: Sequence[SeatSnapshot]) -> list[int]:
    """The reader's own seats; 403 at a private table that is not theirs."""
    own = own_seats(seats, actor)
    if table.private and not own:
        raise ApiError(403, "private_table", "this table is private to its players")
    return own


def view_seat(own: list[int], seat: int | None) -> int | None:
    """The seat whose view a reader asked for (None: their first, or a spectator's)."""
    if seat is None:
        return own[0] if own else None
    if seat not in own:
        raise ApiError(403, "not_your_seat", "you can only see your own seat's view")
    return seat


def require_host(created_by: int, actor: Actor, seats: Sequence[SeatSnapshot | Any]) -> None:
    """Only the table's host may fill its seats, empty them and start it: its creator, as
    long as they sit at it (a creator who leaves an open table hands it to the next
    person seated, ``Seating.leave``)."""
    if created_by != actor.user_id or not any(s.user_id == actor.user_id for s in seats):
        raise ApiError(403, "not_creator", "only the table's host (its creator, seated) may do this")


def not_a_bots_seat(seat: SeatSnapshot, version: int) -> None:
    """A person whose seat a bot plays (they left, timed out or resigned) acts for it no
    more until they take it back: they cannot undo the bot's moves."""
    if seat.played_by_bot:
        raise ApiError(403, "bot_plays_seat", "a bot plays this seat now: take it back first", version=version)


def acting_seat(mover: Mover, seats: Sequence[SeatSnapshot], seat: int | None, pending: list[int]) -> SeatSnapshot:
    """The seat ``mover`` acts for: the one named, or (a person with several seats, in a
    hot-seat game) the one that must decide now."""
    if isinstance(mover, BotMover):
        assert seat is not None
        found = [s for s in seats if s.seat == seat and s.played_by_bot]
        if not found:
            raise ApiError(409, "not_a_bot_seat", "no bot plays that seat")
        return found[0]
    mine = [s for s in seats if s.user_id == mover.user_id]
    if not mine:
        raise ApiError(403, "not_seated", "you do not play at this table")
    if seat is not None:
        chosen = [s for s in mine if s.seat == seat]
        if not chosen:
            raise ApiError(403, "not_your_seat", "that seat is not yours")
        return chosen[0]
    return next((s for s in mine if s.seat in pending), mine[0])
