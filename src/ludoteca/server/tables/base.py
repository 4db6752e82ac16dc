"""What every table service shares: the table's row and seats as read, the summary every
reader sees, the clocks shown, and who may see or act at a table."""

from __future__ import annotations

from dataclasses import dataclass
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any, cast

from sqlalchemy import Table, bindparam, select
from sqlalchemy.orm import Session as OrmSession

from ludoteca.engine import LudotecaError
from ludoteca.games import load

from ..auth import Actor
from ..db import now_ms
from ..errors import ApiError, not_found
from ..matches import EngineTimeout, Entry
from ..models import GameTable, MoveRow, TableSeat, User

if TYPE_CHECKING:
    from ..core import Core

# Statements built once: building SQLAlchemy expressions costs more CPU per move than
# running them.
_T, _S, _U, _M = (cast(Table, m.__table__) for m in (GameTable, TableSeat, User, MoveRow))
_READ_TABLE = select(_T).where(_T.c.id == bindparam("id"))
_READ_SEATS = (select(_S, _U.c.username).select_from(_S.outerjoin(_U, _U.c.id == _S.c.user_id))
               .where(_S.c.table_id == bindparam("id")).order_by(_S.c.seat))


def resigned_seats(resigned: list[dict[str, int]] | None) -> list[int]:
    """The seats that resigned, in order, from a table's ``resigned`` column."""
    return [r["seat"] for r in resigned or []]


@dataclass(frozen=True)
class BotMover:
    """A bot playing a seat (its own, or a person's in zombie mode)."""

    name: str


TableRow = Any
"""A ``tables`` row: the ORM object, or a plain row from the move path's own queries."""


def _game(game_id: str) -> Any:
    try:
        return load(game_id)
    except LudotecaError:
        raise ApiError(404, "no_game", f"no game {game_id!r} on this server") from None


class TablesBase:
    def __init__(self, server: Core) -> None:
        self.server = server

    # -- reading helpers ------------------------------------------------------------

    @staticmethod
    def _row(db: OrmSession, table_id: str) -> Any:
        """The table's row as read now (a plain row: readers never change it)."""
        row = db.connection().execute(_READ_TABLE, {"id": table_id}).first()
        if row is None:
            raise not_found()
        return row

    @staticmethod
    def _seats(db: OrmSession, table_id: str) -> list[Any]:
        """The table's seats, each with its player's name (one query: this runs on every
        move and every update)."""
        return list(db.connection().execute(_READ_SEATS, {"id": table_id}))

    @staticmethod
    def _own(seats: list[TableSeat], actor: Actor | None) -> list[int]:
        return [] if actor is None else [s.seat for s in seats if s.user_id == actor.user_id]

    def _players(self, db: OrmSession | None, seats: list[TableSeat], online: frozenset[int] = frozenset(),
                 ) -> list[dict[str, Any]]:
        missing = [s.user_id for s in seats if s.user_id is not None and not hasattr(s, "username")]
        names = dict(db.execute(select(User.id, User.username).where(User.id.in_(missing))).all()) \
            if missing and db is not None else {}
        return [{"seat": s.seat, "username": (getattr(s, "username", None) or names.get(s.user_id))
                 if s.user_id else None, "bot": s.bot, "zombie": s.zombie,
                 "connected": s.user_id is not None and s.user_id in online} for s in seats]

    def _summary(self, db: OrmSession | None, row: TableRow, seats: list[TableSeat] | None = None,
                 creator: str | None = None) -> dict[str, Any]:
        """The table as the lobby and every reader see it. ``connected`` (a seat's person
        has a live socket open to the table) and ``spectators`` (live sockets of people
        not seated, or signed out) count the sockets of every process sharing the hub. Without ``db``, the
        seats carry their players' names and ``creator`` is known."""
        if seats is None:
            assert db is not None
            seats = self._seats(db, row.id)
        sockets = self.server.live.present(row.id)
        online = frozenset(user for user in sockets if user is not None)
        seated = {s.user_id for s in seats if s.user_id is not None}
        players = self._players(db, seats, online)
        if creator is None:
            creator = next((p["username"] for s, p in zip(seats, players, strict=True)
                            if s.user_id == row.created_by), None)
        if creator is None and db is not None:
            creator = db.scalar(select(User.username).where(User.id == row.created_by))
        return {
            "id": row.id, "game": row.game, "seats": row.seats, "options": row.options, "mode": row.mode,
            "clock": row.clock, "rated": row.rated, "private": row.private, "record_public": row.record_public,
            "status": row.status, "version": row.version, "moves": row.moves_count, "pending": row.pending,
            "players": players, "result": row.result, "creator": creator, "rematch": row.rematch_id,
            "resigned": resigned_seats(getattr(row, "resigned", None)),
            "spectators": sum(1 for user in sockets if user is None or user not in seated),
            "created_at": row.created_at.isoformat() + "Z",
        }

    @staticmethod
    def clocks(row: TableRow, seats: list[TableSeat], at_ms: int | None = None) -> dict[str, Any] | None:
        """Each seat's time: the bank left (realtime) or the deadline (turn-based), as
        of ``at_ms``; only pending seats played by people have a running clock."""
        if row.status != "playing" or row.turn_started_ms is None:
            return None
        at_ms = now_ms() if at_ms is None else at_ms
        elapsed = max(0, at_ms - row.turn_started_ms)
        out: dict[str, Any] = {"mode": row.mode, "now_ms": at_ms, "seats": []}
        for s in seats:
            running = s.seat in row.pending and s.user_id is not None and not s.zombie
            if row.mode == "realtime":
                bank = s.bank_ms or 0
                out["seats"].append({"seat": s.seat, "running": running,
                                     "remaining_ms": max(0, bank - elapsed) if running else bank})
            else:
                deadline = row.turn_started_ms + int(row.clock["turn_seconds"] * 1000)
                out["seats"].append({"seat": s.seat, "running": running, "deadline_ms": deadline if running else None})
        return out

    def _visible(self, db: OrmSession, row: TableRow, actor: Actor | None, seats: list[TableSeat]) -> list[int]:
        own = self._own(seats, actor)
        if row.private and not own:
            raise ApiError(403, "private_table", "this table is private to its players")
        return own

    def _view_seat(self, own: list[int], seat: int | None) -> int | None:
        if seat is None:
            return own[0] if own else None
        if seat not in own:
            raise ApiError(403, "not_your_seat", "you can only see your own seat's view")
        return seat

    @staticmethod
    def _creator(row: GameTable, actor: Actor) -> None:
        if row.created_by != actor.user_id:
            raise ApiError(403, "not_creator", "only the table's creator may do this")

    def _pending(self, entry: Entry) -> list[int]:
        try:
            return sorted(set(self.server.guard.call(entry.match.pending)))
        except EngineTimeout:
            raise ApiError(503, "engine_timeout", "this table's game did not answer in time") from None

    def _acting_seat(self, mover: Actor | BotMover, seats: list[TableSeat], seat: int | None,
                     pending: list[int]) -> TableSeat:
        if isinstance(mover, BotMover):
            assert seat is not None
            found = [s for s in seats if s.seat == seat and (s.bot is not None or s.zombie)]
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
        # With several seats (a hot-seat game) the one that must decide now.
        return next((s for s in mine if s.seat in pending), mine[0])

    @staticmethod
    def _remember(entry: Entry, row: TableRow, seats: list[Any], creator: str | None = None) -> None:
        """Keep copies of the row and seats just read with the match at their version."""
        if entry.version == row.version:
            entry.row = SimpleNamespace(**row._mapping)
            entry.seats = [SimpleNamespace(**s._mapping) for s in seats]
            entry.creator = creator
