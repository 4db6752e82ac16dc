"""The lobby: creating a table, listing tables, and a finished table's rematch."""

from __future__ import annotations

import secrets
from datetime import timedelta
from typing import Any

from sqlalchemy import and_, or_, select, update
from sqlalchemy.orm import Session as OrmSession

from ludoteca.bots.base import seatable_bot_names
from ludoteca.engine import LudotecaError

from ..auth import Actor
from ..db import now, now_ms
from ..errors import ApiError, not_found
from ..models import GameTable, TableSeat
from .base import TablesBase, _game
from .seating import seat_bot

MODES = ("realtime", "turn-based")
DEFAULT_CLOCKS = {"realtime": {"initial_seconds": 600, "increment_seconds": 10},
                  "turn-based": {"turn_seconds": 86_400}}


class _Outrun(Exception):
    """Another request named the table's rematch first."""


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


class Lobby(TablesBase):
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
                    if s.user_id is None and s.bot is not None and s.bot in seatable_bot_names():
                        seat_bot(new_seats, moved(s.seat), s.bot)
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
