"""Tables: the lobby, seats, moves, undo, records and logs. Every change goes through
here, whether it comes from HTTP, a WebSocket, a bot or a clock.

The move path (``submit_move``) is the heart of the server: under the table's lock in
this process, it checks the caller, the version and the move, plays it on the cached
match, then inserts the move row and bumps the table's version in one transaction whose
unique constraint (table, number) and versioned UPDATE keep out a racing move from any
other process. Only after the commit is the move acknowledged and announced.
"""

from __future__ import annotations

import json
import logging
import secrets
import uuid
from dataclasses import dataclass
from datetime import timedelta
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any, cast

from sqlalchemy import Table, and_, bindparam, delete, func, insert, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session as OrmSession

from ludoteca.bots.base import bot_names
from ludoteca.engine import IllegalMove, LudotecaError, UndoError, canonical
from ludoteca.games import load

from . import ratings
from .auth import Actor
from .db import now, now_ms
from .errors import ApiError, not_found
from .matches import EngineTimeout, Entry, StaticParts, events_json
from .models import ChatMessage, GameTable, MoveRow, TableSeat, User

if TYPE_CHECKING:
    from .state import Server

log = logging.getLogger("ludoteca.server.tables")

# The statements of the move path, built once: building SQLAlchemy expressions costs more
# CPU per move than running them.
_T, _S, _U, _M = (cast(Table, m.__table__) for m in (GameTable, TableSeat, User, MoveRow))
_READ_TABLE = select(_T).where(_T.c.id == bindparam("id"))
_READ_SEATS = (select(_S, _U.c.username).select_from(_S.outerjoin(_U, _U.c.id == _S.c.user_id))
               .where(_S.c.table_id == bindparam("id")).order_by(_S.c.seat))
_READ_EARLIER = select(_M).where(_M.c.table_id == bindparam("id"), _M.c.move_id == bindparam("move_id"))
_INSERT_MOVE = insert(_M)
_BUMP_VALUES: dict[str, Any] = {"version": bindparam("b_version"), "moves_count": bindparam("b_moves"),
                "pending": bindparam("b_pending"), "turn_started_ms": bindparam("b_at")}
_BUMP_WHERE = (_T.c.id == bindparam("b_id"), _T.c.version == bindparam("b_old"),
               _T.c.revision == bindparam("b_revision"))
_BUMP = update(_T).where(*_BUMP_WHERE).values(**_BUMP_VALUES)
_FINISH = update(_T).where(*_BUMP_WHERE).values(**_BUMP_VALUES, status="over", result=bindparam("b_result"),
                                                finished_at=bindparam("b_finished"))
_SET_BANK = (update(_S).where(_S.c.table_id == bindparam("b_table"), _S.c.seat == bindparam("b_seat"))
             .values(bank_ms=bindparam("b_bank")))

# The clock scan runs every second over every playing table: plain rows, few columns.
_SCAN_TABLES = select(_T.c.id, _T.c.status, _T.c.mode, _T.c.clock, _T.c.pending, _T.c.turn_started_ms,
                      _T.c.version).where(_T.c.status == "playing", _T.c.turn_started_ms.is_not(None))
_SCAN_SEATS = select(_S.c.table_id, _S.c.seat, _S.c.user_id, _S.c.zombie, _S.c.bank_ms).where(
    _S.c.table_id.in_(select(_T.c.id).where(_T.c.status == "playing")), _S.c.user_id.is_not(None),
    _S.c.zombie.is_(False))

_SCAN_IDLE = select(_T.c.id, _T.c.pending).where(_T.c.status == "playing",
                                                 _T.c.turn_started_ms < bindparam("before"))

RECENT = 20
"""How many finished tables a profile lists."""

MODES = ("realtime", "turn-based")
DEFAULT_CLOCKS = {"realtime": {"initial_seconds": 600, "increment_seconds": 10},
                  "turn-based": {"turn_seconds": 86_400}}


@dataclass(frozen=True)
class BotMover:
    """A bot playing a seat (its own, or a person's in zombie mode)."""

    name: str


TableRow = Any
"""A ``tables`` row: the ORM object, or a plain row from the move path's own queries."""


class _Outrun(Exception):
    """Another request named the table's rematch first."""


class Stale(Exception):
    pass


def _game(game_id: str) -> Any:
    try:
        return load(game_id)
    except LudotecaError:
        raise ApiError(404, "no_game", f"no game {game_id!r} on this server") from None


def _clock(mode: str, given: dict[str, Any] | None) -> dict[str, Any]:
    if mode not in MODES:
        raise ApiError(422, "bad_mode", f"mode is one of {', '.join(MODES)}")
    clock: dict[str, Any] = dict(DEFAULT_CLOCKS[mode])
    for key, value in (given or {}).items():
        if key not in clock:
            raise ApiError(422, "bad_clock", f"a {mode} clock has {', '.join(clock)}, not {key!r}")
        if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 30 * 86_400:
            raise ApiError(422, "bad_clock", f"{key} must be a number of seconds up to 30 days")
        clock[key] = value
    if (mode == "realtime" and clock["initial_seconds"] <= 0) or (mode == "turn-based" and clock["turn_seconds"] <= 0):
        raise ApiError(422, "bad_clock", "a clock needs some time")
    return clock


class Tables:
    def __init__(self, server: Server) -> None:
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

    # -- the lobby ------------------------------------------------------------------

    def create(self, actor: Actor, body: dict[str, Any]) -> dict[str, Any]:
        game = _game(body["game"])
        seats = body.get("seats") or game.min_seats
        mode = body.get("mode") or "realtime"
        clock = _clock(mode, body.get("clock"))
        seed = secrets.randbits(53)
        try:
            game.setup(seats, body.get("options") or {}, seed)  # validates seats and options
            from ludoteca.engine import validate_options
            options = validate_options(game.options, seats, body.get("options") or {})
        except LudotecaError as error:
            raise ApiError(422, error.code, error.message) from None
        if body.get("rated") and actor.guest:
            raise ApiError(403, "guest_rated", "guests cannot play rated tables")
        with self.server.transaction() as db:
            row, _ = self._open_table(db, actor, [0], game=game.id, seats=seats, options=options, seed=seed,
                                      mode=mode, clock=clock, rated=bool(body.get("rated")),
                                      private=bool(body.get("private")),
                                      record_public=bool(body.get("record_public")))
            summary = self._summary(db, row)
        self.server.lobby_changed(row.id)
        return summary

    @staticmethod
    def _open_table(db: OrmSession, actor: Actor, own: list[int], **settings: Any,
                    ) -> tuple[GameTable, list[TableSeat]]:
        """A new open table with ``settings`` (game, seats, options, seed, mode, clock,
        rated, private, record_public), ``actor`` its creator sitting at the seats ``own``;
        the other seats are free. Creating a table and a rematch both lay one out here."""
        row = GameTable(id=secrets.token_urlsafe(9), **settings, status="open", version=0, moves_count=0,
                        undo_version=0, pending=[], created_by=actor.user_id, created_at=now())
        db.add(row)
        db.flush()
        seats = [TableSeat(table_id=row.id, seat=seat, user_id=actor.user_id if seat in own else None, zombie=False)
                 for seat in range(row.seats)]
        db.add_all(seats)
        db.flush()
        return row, seats

    def lobby(self, game: str | None, status: str | None, limit: int, actor: Actor | None,
              offset: int = 0) -> list[dict[str, Any]]:
        """A page of public tables, newest first (and, on the first page, the caller's
        private ones). Open and playing tables nobody has touched for
        ``table_expiry_hours`` (created, started, moved in) are left out."""
        with self.server.sessions() as db:
            query = select(GameTable).where(GameTable.private.is_(False))
            if game:
                query = query.where(GameTable.game == game)
            if status:
                query = query.where(GameTable.status == status)
            else:
                query = query.where(GameTable.status.in_(("open", "playing")))
            hours = self.server.settings.table_expiry_hours
            since, since_ms = now() - timedelta(hours=hours), now_ms() - int(hours * 3_600_000)
            query = query.where(or_(
                GameTable.status.not_in(("open", "playing")),
                and_(GameTable.status == "open", GameTable.created_at >= since),
                GameTable.turn_started_ms >= since_ms,
                and_(GameTable.turn_started_ms.is_(None), GameTable.started_at >= since)))
            order = (GameTable.created_at.desc(), GameTable.id)
            rows = list(db.scalars(query.order_by(*order).offset(offset).limit(limit)))
            if actor is not None and offset == 0:
                mine = select(TableSeat.table_id).where(TableSeat.user_id == actor.user_id)
                statuses = (status,) if status else ("open", "playing")
                private = select(GameTable).where(GameTable.private.is_(True), GameTable.id.in_(mine),
                                                  GameTable.status.in_(statuses))
                if game:
                    private = private.where(GameTable.game == game)
                rows += list(db.scalars(private))
            return [self._summary(db, r) for r in rows]

    def _change_seats(self, actor: Actor, table_id: str, change: Any) -> dict[str, Any]:
        with self.server.transaction() as db:
            # Row locks (PostgreSQL) so two joins cannot take the same seat; SQLite's
            # write transactions are exclusive already.
            row = db.get(GameTable, table_id, populate_existing=True, with_for_update=True)
            if row is None:
                raise not_found()
            seats = list(db.scalars(select(TableSeat).where(TableSeat.table_id == table_id)
                                    .order_by(TableSeat.seat).with_for_update()))
            change(db, row, seats)
            row.revision = (row.revision or 0) + 1
            db.flush()
            summary = self._summary(db, row, self._seats(db, table_id))
        self.server.cache.forget_row(table_id)
        self.server.lobby_changed(table_id)
        return summary

    def join(self, actor: Actor, table_id: str, seat: int | None) -> dict[str, Any]:
        def change(db: OrmSession, row: GameTable, seats: list[TableSeat]) -> None:
            own = self._own(seats, actor)
            if row.status == "playing":
                # Taking back one's seat from the zombie bot.
                mine = [s for s in seats if s.user_id == actor.user_id and s.zombie]
                if not mine:
                    raise ApiError(409, "already_started", "this table has started")
                for s in mine:
                    s.zombie = False
                    if row.mode == "realtime" and (s.bank_ms or 0) <= 0:
                        # A seat that timed out comes back with one increment to play with.
                        s.bank_ms = max(int(row.clock["increment_seconds"] * 1000), 30_000)
                row.turn_started_ms = now_ms()
                return
            if row.status != "open":
                raise ApiError(409, "not_open", "this table is not open")
            if row.rated and actor.guest:
                raise ApiError(403, "guest_rated", "guests cannot play rated tables")
            if own:
                raise ApiError(409, "already_seated", "you already sit at this table")
            free = [s for s in seats if s.user_id is None and s.bot is None]
            if seat is not None:
                free = [s for s in free if s.seat == seat]
            if not free:
                raise ApiError(409, "no_free_seat", "no free seat here")
            free[0].user_id = actor.user_id

        return self._change_seats(actor, table_id, change)

    def leave(self, actor: Actor, table_id: str) -> dict[str, Any]:
        def change(db: OrmSession, row: GameTable, seats: list[TableSeat]) -> None:
            mine = [s for s in seats if s.user_id == actor.user_id]
            if not mine:
                raise ApiError(409, "not_seated", "you do not sit at this table")
            if row.status == "open":
                for s in mine:
                    s.user_id = None
                if all(s.user_id is None for s in seats):
                    row.status = "aborted"
            elif row.status == "playing":
                for s in mine:  # the bot plays on; the player may come back (join)
                    s.zombie = True
            else:
                raise ApiError(409, "over", "this table is over")

        summary = self._change_seats(actor, table_id, change)
        self.server.bots.schedule(table_id)
        return summary

    def add_bot(self, actor: Actor, table_id: str, seat: int | None, bot: str) -> dict[str, Any]:
        if bot not in bot_names():
            raise ApiError(422, "no_bot", f"no bot {bot!r}; bots: {', '.join(bot_names())}")

        def change(db: OrmSession, row: GameTable, seats: list[TableSeat]) -> None:
            self._creator(row, actor)
            if row.status != "open":
                raise ApiError(409, "not_open", "this table is not open")
            self._seat_bot(seats, seat, bot)

        return self._change_seats(actor, table_id, change)

    @staticmethod
    def _seat_bot(seats: list[TableSeat], seat: int | None, bot: str) -> None:
        """Sits ``bot`` at the free seat ``seat`` (the first free one if None)."""
        free = [s for s in seats if s.user_id is None and s.bot is None and (seat is None or s.seat == seat)]
        if not free:
            raise ApiError(409, "no_free_seat", "no free seat here")
        free[0].bot = bot

    def kick(self, actor: Actor, table_id: str, seat: int) -> dict[str, Any]:
        def change(db: OrmSession, row: GameTable, seats: list[TableSeat]) -> None:
            self._creator(row, actor)
            if row.status != "open":
                raise ApiError(409, "not_open", "only an unstarted table's seats can be emptied")
            target = [s for s in seats if s.seat == seat]
            if not target or target[0].user_id == actor.user_id:
                raise ApiError(409, "bad_seat", "no one to kick at that seat")
            target[0].user_id = None
            target[0].bot = None

        return self._change_seats(actor, table_id, change)

    def rematch(self, actor: Actor, table_id: str) -> tuple[dict[str, Any], bool]:
        """The same game again with the same company: a new open table with the finished
        one's game, options and settings, every seat moved on by one (so that another
        player goes first), its bots seated at once and the caller in their own seat; the
        other people's seats wait for them. One rematch per table, however many ask at
        once: later calls answer the same one. Returns the rematch's summary and whether
        this call made it. A rematch that was aborted (everyone left it) is replaced."""
        try:
            with self.server.transaction() as db:
                old = db.get(GameTable, table_id, populate_existing=True, with_for_update=True)
                if old is None:
                    raise not_found()
                seats = list(db.scalars(select(TableSeat).where(TableSeat.table_id == table_id)
                                        .order_by(TableSeat.seat)))
                if not any(s.user_id == actor.user_id for s in seats):
                    raise ApiError(403, "not_a_player", "only the table's players can ask for a rematch")
                if old.status != "over":
                    raise ApiError(409, "not_over", "a rematch follows a finished game")
                earlier = old.rematch_id
                if earlier is not None:
                    rematch = self._row(db, earlier)
                    # A rematch everyone left (aborted) is no way on: it is replaced.
                    if rematch.status != "aborted":
                        return self._summary(db, rematch), False
                n = old.seats

                def moved(seat: int) -> int:  # seat s moves on to s + 1: another player goes first
                    return (seat + 1) % n

                new, new_seats = self._open_table(
                    db, actor, [moved(s.seat) for s in seats if s.user_id == actor.user_id], game=old.game,
                    seats=old.seats, options=old.options, seed=secrets.randbits(53), mode=old.mode,
                    clock=old.clock, rated=old.rated, private=old.private, record_public=old.record_public)
                new_id = new.id
                for s in seats:
                    # A bot this server no longer offers leaves its seat free.
                    if s.user_id is None and s.bot is not None and s.bot in bot_names():
                        self._seat_bot(new_seats, moved(s.seat), s.bot)
                db.flush()
                # Guarded as well as locked: whatever the database's locking, only one
                # request can name the rematch; a loser rolls its table back.
                named = db.connection().execute(
                    update(GameTable).where(GameTable.id == table_id, GameTable.rematch_id.is_(None) if earlier is None
                                            else GameTable.rematch_id == earlier)
                    .values(rematch_id=new_id, revision=GameTable.revision + 1))
                if named.rowcount != 1:
                    raise _Outrun()
                summary = self._summary(db, new)
        except _Outrun:
            with self.server.sessions() as db:
                rematch_id = self._row(db, table_id).rematch_id
                return self._summary(db, self._row(db, rematch_id)), False
        self.server.cache.forget_row(table_id)
        self.server.lobby_changed(table_id)  # the finished table's readers see the way on
        self.server.lobby_changed(new_id)
        return summary, True

    @staticmethod
    def _creator(row: GameTable, actor: Actor) -> None:
        if row.created_by != actor.user_id:
            raise ApiError(403, "not_creator", "only the table's creator may do this")

    def start(self, actor: Actor, table_id: str) -> dict[str, Any]:
        lock = self.server.cache.table_lock(table_id)
        with lock:
            def change(db: OrmSession, row: GameTable, seats: list[TableSeat]) -> None:
                self._creator(row, actor)
                if row.status != "open":
                    raise ApiError(409, "not_open", "this table is not open")
                if any(s.user_id is None and s.bot is None for s in seats):
                    raise ApiError(409, "seats_free", "every seat needs a player or a bot")
                entry = self.server.cache.sync(db, row)
                row.status = "playing"
                row.started_at = now()
                row.pending = self._pending(entry)
                row.turn_started_ms = now_ms()
                for s in seats:
                    if row.mode == "realtime":
                        s.bank_ms = int(row.clock["initial_seconds"] * 1000)

            summary = self._change_seats(actor, table_id, change)
        self.server.bots.schedule(table_id)
        return summary

    def _pending(self, entry: Entry) -> list[int]:
        try:
            return sorted(set(self.server.guard.call(entry.match.pending)))
        except EngineTimeout:
            raise ApiError(503, "engine_timeout", "this table's game did not answer in time") from None

    # -- one table ------------------------------------------------------------------

    def snapshot(self, actor: Actor | None, table_id: str, seat: int | None = None, since: int | None = None,
                 ) -> dict[str, Any]:
        with self.server.sessions() as db:
            row = self._row(db, table_id)
            seats = self._seats(db, table_id)
            own = self._visible(db, row, actor, seats)
            view_seat = self._view_seat(own, seat)
            summary = self._summary(db, row, seats)
            if row.status == "open":
                return {"table": summary, "seat": view_seat, "your_seats": own, "version": row.version}
            with self.server.cache.table_lock(table_id):
                entry = self.server.cache.sync(db, row)
                state = self._state_for(entry, row, view_seat, since)
            return {"table": summary, "seat": view_seat, "your_seats": own, **state,
                    "clocks": self.clocks(row, seats)}

    def _state_for(self, entry: Entry, row: TableRow, seat: int | None, since: int | None) -> dict[str, Any]:
        """What ``seat`` sees of the match: its view, its legal moves, whether it may undo,
        and the events since the table version ``since`` (all of them after an undo)."""
        match = entry.match

        def compute() -> dict[str, Any]:
            decisions = match.game.pending(match.state)
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
            return self.server.guard.call(compute)
        except EngineTimeout:
            self.server.cache.drop(row.id)
            raise ApiError(503, "engine_timeout", "this table's game did not answer in time") from None

    def updates(self, table_id: str, clients: list[tuple[int | None, int | None, int | None]],
                version: int | None = None) -> list[dict[str, Any]] | None:
        """One update per live client (view seat, last version seen, user id), computed
        once per distinct (seat, version); None if the table is gone. Seats are checked
        again each time: a client whose seat is no longer its own (it left before the
        start, and someone else sat down) gets the spectator's view, or an error at a
        private table. ``version``: the table is known to be at this version with no
        other change since (a move's notice); if this process holds the table's row at
        that version, nothing is read from the database."""
        cache = self.server.cache
        if version is not None:
            with cache.table_lock(table_id):
                entry = cache.peek(table_id)
                if entry is not None and entry.version == version and entry.row is not None \
                        and entry.seats is not None:
                    summary = self._summary(None, entry.row, entry.seats, entry.creator)
                    return self._updates_from(summary, entry, entry.row, entry.seats, clients)
        with self.server.sessions() as db:
            row = db.connection().execute(_READ_TABLE, {"id": table_id}).first()
            if row is None:
                return None
            seats = self._seats(db, table_id)
            summary = self._summary(db, row, seats)
            if row.status == "open":
                return self._updates_from(summary, None, row, seats, clients)
            with cache.table_lock(table_id):
                entry = cache.sync(db, row)
                self._remember(entry, row, seats, summary["creator"])
                return self._updates_from(summary, entry, row, seats, clients)

    def _updates_from(self, summary: dict[str, Any], entry: Entry | None, row: TableRow, seats: list[Any],
                      clients: list[tuple[int | None, int | None, int | None]]) -> list[dict[str, Any]]:
        clocks = self.clocks(row, seats)
        owners = {s.seat: s.user_id for s in seats}
        built: dict[tuple[int | None, int | None] | None, dict[str, Any]] = {}
        out: list[dict[str, Any]] = []
        for seat, since, user_id in clients:
            own = [number for number, owner in owners.items() if user_id is not None and owner == user_id]
            if seat not in own:
                seat = own[0] if own else None
            key = None if row.private and not own else (seat, since)
            update = built.get(key)
            if update is None:
                if key is None:
                    update = {"type": "error", "code": "private_table",
                              "message": "this table is private to its players", "close": True}
                else:
                    state = self._state_for(entry, row, key[0], key[1]) if entry is not None \
                        else {"version": row.version}
                    update = {"type": "update", "table": summary, "seat": key[0], "clocks": clocks, **state}
                built[key] = update
            # The same object for every client with the same key: it is encoded once.
            out.append(update)
        return out

    # -- moves ----------------------------------------------------------------------

    def submit_move(self, mover: Actor | BotMover, table_id: str, version: int, move: Any, move_id: str | None,
                    seat: int | None = None) -> dict[str, Any]:
        given = move_id is not None
        move_id = move_id or uuid.uuid4().hex
        with self.server.cache.table_lock(table_id):
            result = self._submit_locked(mover, table_id, version, move, move_id, seat, given)
        bots = result.pop("_bots", True)
        if not result.get("duplicate"):
            self.server.changed(table_id, result["version"], bots)
        return result

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

    def _submit_locked(self, mover: Actor | BotMover, table_id: str, version: int, move: Any, move_id: str,
                       seat: int | None, given: bool = True, retry: bool = True) -> dict[str, Any]:
        cache = self.server.cache
        entry = cache.peek(table_id)
        if entry is not None and entry.row is not None and entry.seats is not None and version == entry.version:
            # The fast path: the row and seats this process wrote or read at this version.
            # If another process changed the table since, the versioned UPDATE below
            # finds out. A reused move id is caught by the unique constraint instead.
            row, seats = entry.row, entry.seats
            acting = self._acting_seat(mover, seats, seat, row.pending)
            self._check_move(acting, row, version)
        else:
            # Read and check outside any write transaction: the write below is guarded by
            # the versioned UPDATE and the unique constraints, and stays short.
            with self.server.sessions() as db:
                row = self._row(db, table_id)
                seats = self._seats(db, table_id)
                acting = self._acting_seat(mover, seats, seat, row.pending)
                # A fresh server-made id cannot have been used: skip the look-up.
                earlier = self._earlier(db, table_id, move_id, acting.seat, move) if given else None
                if earlier is not None:
                    return earlier
                self._check_move(acting, row, version)
                entry = cache.sync(db, row)
                self._remember(entry, row, seats)
                if entry.row is not None and entry.seats is not None:
                    row, seats = entry.row, entry.seats
        match = entry.match
        try:
            events = self.server.guard.call(match.play, acting.seat, move)
        except IllegalMove as error:
            raise ApiError(422, error.code, error.message, version=row.version) from None
        except EngineTimeout:
            cache.drop(table_id)
            self._suspend(table_id)
            raise ApiError(503, "engine_timeout", "this table's game did not answer in time") from None
        # From here the cached match is ahead of the database: any failure drops it.
        try:
            new_version = row.version + 1
            pending = sorted(set(self.server.guard.call(match.pending)))
            result = self.server.guard.call(match.result)
            at = now_ms()
            banks = self._charge_clocks(row, seats, acting.seat, at)
            played = match.moves[-1]
            with self.server.write_connection() as connection:
                connection.execute(_INSERT_MOVE, {
                    "table_id": table_id, "number": match.version, "version": new_version, "seat": acting.seat,
                    "move": played.move, "move_id": move_id, "undoable": played.undoable,
                    "events": [e.to_json() for e in events], "by_bot": isinstance(mover, BotMover),
                    "created_at": now()})
                bump = {"b_id": table_id, "b_old": row.version, "b_revision": row.revision, "b_version": new_version,
                        "b_moves": match.version, "b_pending": pending if result is None else [], "b_at": at}
                if result is None:
                    done = connection.execute(_BUMP, bump)
                else:
                    done = connection.execute(_FINISH, {**bump, "b_result": result.to_json(), "b_finished": now()})
                if done.rowcount != 1:
                    raise Stale
                if banks:
                    connection.execute(_SET_BANK, [{"b_table": table_id, "b_seat": seat_number, "b_bank": bank}
                                                   for seat_number, bank in banks.items()])
                if result is not None and row.rated:
                    # Joins the move's transaction: its commit flushes, the move's commits.
                    with OrmSession(bind=connection, join_transaction_mode="rollback_only") as db:
                        self._rate(db, row, seats, list(result.ranks))
                        db.commit()
        except (IntegrityError, Stale):
            cache.drop(table_id)
            with self.server.sessions() as fresh:
                earlier = self._earlier(fresh, table_id, move_id, acting.seat, move)
                if earlier is not None:
                    return earlier
                current = fresh.scalar(select(GameTable.version).where(GameTable.id == table_id))
            if current == version and retry:
                # No move landed: the seats or the status changed under the copy this
                # process kept. Check again against what is stored now.
                return self._submit_locked(mover, table_id, version, move, move_id, seat, given, retry=False)
            raise ApiError(409, "stale_version", "another move landed first; refresh and try again",
                           version=current) from None
        except BaseException:
            cache.drop(table_id)
            raise
        entry.version = new_version
        entry.versions.append(new_version)
        row.version, row.moves_count, row.turn_started_ms = new_version, match.version, at
        row.pending = pending if result is None else []
        if result is not None:
            row.status, row.result = "over", result.to_json()
        for s in seats:
            if s.seat in banks:
                s.bank_ms = banks[s.seat]
        if result is not None:
            self.server.lobby_changed(table_id)
        return {"version": new_version, "number": match.version, "seat": acting.seat, "duplicate": False,
                "events": [e.to_json() for e in events if e.visible_to(acting.seat)], "over": result is not None,
                "_bots": result is None and any(s.bot is not None or s.zombie for s in seats)}

    @staticmethod
    def _check_move(acting: Any, row: TableRow, version: int) -> None:
        """Whether the table's status and the version let ``acting`` move now."""
        if row.status == "over":
            raise ApiError(409, "game_over", "the game is over", version=row.version)
        if row.status != "playing":
            raise ApiError(409, "not_playing", "this table is not being played", version=row.version)
        if version != row.version:
            raise ApiError(409, "stale_version", "the table has changed; refresh and try again",
                           version=row.version)
        if acting.seat not in row.pending:
            raise ApiError(403, "not_your_turn", f"seat {acting.seat} has nothing to decide now",
                           version=row.version)

    @staticmethod
    def _remember(entry: Entry, row: TableRow, seats: list[Any], creator: str | None = None) -> None:
        """Keep copies of the row and seats just read with the match at their version."""
        if entry.version == row.version:
            entry.row = SimpleNamespace(**row._mapping)
            entry.seats = [SimpleNamespace(**s._mapping) for s in seats]
            entry.creator = creator

    @staticmethod
    def _earlier(db: OrmSession, table_id: str, move_id: str, seat: int, move: Any) -> dict[str, Any] | None:
        """The acknowledgement of a move already made with this id: a retry is harmless."""
        row = db.connection().execute(_READ_EARLIER, {"id": table_id, "move_id": move_id}).first()
        if row is None:
            return None
        if row.seat != seat or canonical(row.move) != canonical(move):
            raise ApiError(409, "move_id_reused", "this move id was used for another move")
        return {"version": row.version, "number": row.number, "seat": row.seat, "duplicate": True,
                "events": [e for e in row.events if e.get("to") in (None, seat)], "over": False}

    @staticmethod
    def _charge_clocks(row: TableRow, seats: list[TableSeat], mover: int, at: int) -> dict[int, int]:
        """Realtime: every seat that was deciding pays for the time that passed; the mover
        gains its increment. Turn-based clocks restart with each decision. Returns the
        new banks."""
        banks: dict[int, int] = {}
        if row.mode != "realtime" or row.turn_started_ms is None:
            return banks
        elapsed = max(0, at - row.turn_started_ms)
        for s in seats:
            if s.seat in row.pending and s.user_id is not None and not s.zombie:
                bank = max(0, (s.bank_ms or 0) - elapsed)
                if s.seat == mover:
                    bank += int(row.clock["increment_seconds"] * 1000)
                banks[s.seat] = bank
        return banks

    @staticmethod
    def _rate(db: OrmSession, row: TableRow, seats: list[TableSeat], ranks: list[int]) -> None:
        guests = set(db.scalars(select(User.id).where(User.guest.is_(True),
                                                       User.id.in_([s.user_id for s in seats if s.user_id]))))
        players = [(s.user_id, ranks[s.seat]) for s in seats if s.user_id is not None and s.user_id not in guests]
        if len({p for p, _ in players}) == len(players):  # one person in two seats is not a contest
            ratings.update(db, row.game, players)

    def _suspend(self, table_id: str) -> None:
        """A table whose game hung is set aside so that it cannot hang the server again."""
        log.error("table %s suspended: its engine call overran", table_id)
        with self.server.transaction() as db:
            db.execute(update(GameTable).where(GameTable.id == table_id)
                       .values(status="suspended", revision=GameTable.revision + 1))

    def undo(self, actor: Actor, table_id: str, version: int, seat: int | None) -> dict[str, Any]:
        cache = self.server.cache
        with cache.table_lock(table_id):
            with self.server.sessions() as db:
                row = self._row(db, table_id)
                seats = self._seats(db, table_id)
                acting = self._acting_seat(actor, seats, seat, row.pending)
                if row.status != "playing":
                    raise ApiError(409, "not_playing", "this table is not being played", version=row.version)
                if version != row.version:
                    raise ApiError(409, "stale_version", "the table has changed; refresh and try again",
                                   version=row.version)
                entry = cache.sync(db, row)
            match = entry.match
            if not match.can_undo(acting.seat):
                raise ApiError(422, "undo_forbidden", "this move cannot be taken back", version=row.version)
            number = match.version
            try:
                self.server.guard.call(match.undo, acting.seat)
            except UndoError as error:
                raise ApiError(422, error.code, error.message, version=row.version) from None
            except EngineTimeout:
                cache.drop(table_id)
                raise ApiError(503, "engine_timeout", "this table's game did not answer in time") from None
            try:
                new_version = row.version + 1
                pending = sorted(set(self.server.guard.call(match.pending)))
                with self.server.writing() as db:
                    db.execute(delete(MoveRow).where(MoveRow.table_id == table_id, MoveRow.number == number))
                    done = db.connection().execute(
                        update(_T).where(_T.c.id == table_id, _T.c.version == row.version)
                        .values(version=new_version, moves_count=match.version, pending=pending,
                                undo_version=new_version, turn_started_ms=now_ms()))
                    if done.rowcount != 1:
                        raise Stale
                    db.commit()
            except (IntegrityError, Stale):
                cache.drop(table_id)
                raise ApiError(409, "stale_version", "another move landed first", version=row.version + 1) from None
            except BaseException:
                cache.drop(table_id)
                raise
            entry.version = entry.undo_version = new_version
            entry.versions.pop()
            entry.row = entry.seats = None
        self.server.changed(table_id, new_version)
        return {"version": new_version, "moves": match.version}

    # -- records, logs, chat ----------------------------------------------------------

    def record(self, actor: Actor | None, table_id: str) -> dict[str, Any]:
        with self.server.sessions() as db:
            row = self._row(db, table_id)
            seats = self._seats(db, table_id)
            self._visible(db, row, actor, seats)
            if row.status != "over" and not row.record_public:
                raise ApiError(403, "record_hidden", "the record is shown once the game is over")
            moves = db.execute(select(MoveRow.seat, MoveRow.move).where(MoveRow.table_id == table_id)
                               .order_by(MoveRow.number)).all()
            players = [p["username"] or (f"bot:{p['bot']}" if p["bot"] else "") for p in self._players(db, seats)]
        from ludoteca.engine import MatchRecord, PlayedMove

        record = MatchRecord(row.game, row.seats, row.options, row.seed, [PlayedMove(s, m) for s, m in moves], players)
        return {**record.to_json(), "result": row.result}

    def replay(self, actor: Actor | None, table_id: str, seat: int | None) -> dict[str, Any]:
        """The match replayed from ``seat``'s point of view (None: a spectator's): a frame
        for the setup, then one per move, each with what that seat saw then (its view,
        the pending seats, its prompt, the events it could read). Another seat's move is
        shown only if it carries no secret of a seat other than the point of view, at
        that move or just before (a bid card, before the bids are revealed): it is
        ``null`` with ``hidden: true`` otherwise. ``version`` counts moves."""
        with self.server.sessions() as db:
            row = self._row(db, table_id)
            seats = self._seats(db, table_id)
            own = self._visible(db, row, actor, seats)
            if row.status != "over" and not row.record_public:
                raise ApiError(403, "record_hidden", "the replay is shown once the game is over")
            if seat is not None and not 0 <= seat < row.seats:
                raise ApiError(422, "bad_seat", f"seats are numbered 0 to {row.seats - 1}")
            if seat is not None and row.status != "over" and seat not in own:
                raise ApiError(403, "not_your_seat", "another seat's point of view is shown once the game is over")
            moves = db.execute(select(MoveRow.seat, MoveRow.move).where(MoveRow.table_id == table_id)
                               .order_by(MoveRow.number)).all()
        game = _game(row.game)
        guard = self.server.guard

        def start() -> Any:
            from ludoteca.engine import Match

            return Match.new(row.game, row.seats, row.options, row.seed, game=game)

        def secrets_of(state: Any) -> list[str]:
            try:
                found = game.secrets(state)
            except NotImplementedError:
                return []
            return [json.dumps(secret, ensure_ascii=False) for owner, strings in found.items()
                    if owner is None or owner != seat for secret in strings]

        def frame(match: Any, number: int, mover: int | None, move: Any, events: list[Any],
                  hidden: list[str]) -> dict[str, Any]:
            decisions = match.game.pending(match.state)
            text = canonical(move) if move is not None else ""
            secret = any(s in text for s in hidden)
            return {"version": number, "seat": mover, "move": None if secret else move, "hidden": secret,
                    "view": statics.refs(match.view(seat)), "pending": sorted({d.seat for d in decisions}),
                    "prompts": [d.to_json() for d in decisions if seat is not None and d.seat == seat],
                    "events": [{"number": number, **e.to_json()} for e in events if e.visible_to(seat)]}

        def step(match: Any, number: int, mover: int, move: Any) -> dict[str, Any]:
            before = secrets_of(match.state)
            events = match.play(mover, move)
            return frame(match, number, mover, move, events, before + secrets_of(match.state))

        statics = StaticParts(game)
        try:
            match = guard.call(start)
            frames = [guard.call(frame, match, 0, None, None, [e for _n, e in match.events], [])]
            for number, (mover, move) in enumerate(moves, 1):
                frames.append(guard.call(step, match, number, mover, move))
        except EngineTimeout:
            raise ApiError(503, "engine_timeout", "this table's game did not answer in time") from None
        except LudotecaError as error:
            raise ApiError(503, "table_unavailable", f"this table cannot be replayed: {error.code}") from None
        return {"table": table_id, "game": row.game, "seat": seat, "result": row.result, "frames": frames}

    def static_part(self, actor: Actor | None, table_id: str, key: str) -> Any:
        """One of the match's static view parts (the same for every seat): whoever may
        see the table may have it."""
        with self.server.sessions() as db:
            row = self._row(db, table_id)
            self._visible(db, row, actor, self._seats(db, table_id))
            if row.status == "open":
                raise ApiError(409, "not_started", "the game has not started")
            with self.server.cache.table_lock(table_id):
                entry = self.server.cache.sync(db, row)
                if key not in entry.match.game.static_view_keys:
                    raise ApiError(404, "no_static_part", f"this game's views have no static part {key!r}")
                try:
                    return self.server.guard.call(lambda: entry.match.view(None)[key])
                except EngineTimeout:
                    self.server.cache.drop(table_id)
                    raise ApiError(503, "engine_timeout", "this table's game did not answer in time") from None

    def log(self, actor: Actor | None, table_id: str, seat: int | None, since: int) -> dict[str, Any]:
        with self.server.sessions() as db:
            row = self._row(db, table_id)
            seats = self._seats(db, table_id)
            own = self._visible(db, row, actor, seats)
            view_seat = self._view_seat(own, seat)
            rows = db.execute(select(MoveRow.number, MoveRow.seat, MoveRow.events, MoveRow.by_bot)
                              .where(MoveRow.table_id == table_id, MoveRow.number > since)
                              .order_by(MoveRow.number)).all()
        events = [{"number": n, **e} for n, _s, evs, _b in rows for e in evs if e.get("to") in (None, view_seat)]
        return {"version": row.version, "seat": view_seat, "events": events}

    def chat(self, actor: Actor, table_id: str, text: str) -> dict[str, Any]:
        text = text.strip()
        if not 1 <= len(text) <= 500:
            raise ApiError(422, "bad_chat", "a chat message has 1 to 500 characters")
        with self.server.transaction() as db:
            row = self._row(db, table_id)
            self._visible(db, row, actor, self._seats(db, table_id))
            message = ChatMessage(table_id=table_id, user_id=actor.user_id, text=text, created_at=now())
            db.add(message)
            db.flush()
            out = {"type": "chat", "table": table_id, "id": message.id, "username": actor.username, "text": text,
                   "at": message.created_at.isoformat() + "Z"}
        self.server.hub.publish({"kind": "chat", "table": table_id, "message": out})
        return out

    def chat_recent(self, actor: Actor | None, table_id: str, limit: int = 50) -> list[dict[str, Any]]:
        with self.server.sessions() as db:
            row = self._row(db, table_id)
            self._visible(db, row, actor, self._seats(db, table_id))
            rows = db.execute(select(ChatMessage.id, ChatMessage.text, ChatMessage.created_at, User.username)
                              .join(User, User.id == ChatMessage.user_id).where(ChatMessage.table_id == table_id)
                              .order_by(ChatMessage.id.desc()).limit(limit)).all()
        return [{"type": "chat", "table": table_id, "id": r.id, "username": r.username, "text": r.text,
                 "at": r.created_at.isoformat() + "Z"} for r in reversed(rows)]

    # -- clocks ---------------------------------------------------------------------

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

    # -- players --------------------------------------------------------------------

    def profile(self, username: str) -> dict[str, Any]:
        with self.server.sessions() as db:
            user = db.scalar(select(User).where(User.username == username))
            if user is None:
                raise not_found("player")
            played = db.execute(select(GameTable.game, func.count()).join(TableSeat, TableSeat.table_id == GameTable.id)
                                .where(TableSeat.user_id == user.id, GameTable.status == "over")
                                .group_by(GameTable.game)).all()
            from .models import Rating

            rows = db.scalars(select(Rating).where(Rating.user_id == user.id)).all()
            # The latest finished public tables, with the best rank among the player's seats.
            finished = db.execute(
                select(GameTable.id, GameTable.game, GameTable.result, GameTable.finished_at, TableSeat.seat)
                .join(TableSeat, TableSeat.table_id == GameTable.id)
                .where(TableSeat.user_id == user.id, GameTable.status == "over", GameTable.private.is_(False))
                .order_by(GameTable.finished_at.desc(), GameTable.id).limit(3 * RECENT)).all()
        recent: dict[str, dict[str, Any]] = {}
        for table_id, game, result, finished_at, seat in finished:
            ranks = (result or {}).get("ranks") or []
            rank = ranks[seat] if 0 <= seat < len(ranks) else None
            entry = recent.setdefault(table_id, {"id": table_id, "game": game, "rank": rank,
                                                 "finished_at": finished_at.isoformat() + "Z" if finished_at else None})
            if rank is not None and (entry["rank"] is None or rank < entry["rank"]):
                entry["rank"] = rank
        return {"username": user.username, "guest": user.guest, "joined": user.created_at.isoformat() + "Z",
                "games_played": sum(n for _, n in played), "played_by_game": {g: n for g, n in played},
                "ratings": {r.game: {"rating": round(ratings.ordinal(r.mu, r.sigma), 2), "mu": round(r.mu, 3),
                                     "sigma": round(r.sigma, 3), "played": r.played} for r in rows},
                "recent": list(recent.values())[:RECENT]}
