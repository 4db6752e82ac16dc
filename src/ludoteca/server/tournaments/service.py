"""Player tournaments, run by the server from sign-up to podium (the pairing and the
standings are the pure logic of ``ludoteca.tournaments``; ``ludoteca.bots.series`` is
something else, the bot-against-bot command ``ludoteca series``).

Life cycle: an account creates a tournament (``upcoming``); people join and leave, the
organiser seats bots of the allowed levels; at ``starts_at`` the tournament loop (every
process runs one) starts it (``running``), or cancels it if too few joined; each round's
tables are opened and started at once, seats taken by the entrants (a bot entrant's seat
by its bot); a finished table's result is recorded (the ``Endings`` subscriber, and a
sweep that catches what a killed process never recorded); when a round is over the next
is paired; at the end, the podium (``finished``). Each table is opened and started the
one way every table is (``Opening.open``), in the transaction that pairs its round: a
game that does not answer in time leaves the whole step undone, and a later tick tries
again.

Safety across processes and crashes: every step is one transaction that locks the
tournament's row first (row locks on PostgreSQL; SQLite's write transactions are
exclusive), re-reads what it decides on, and a round's row has the primary key
(tournament, number), so two processes can never pair one round twice; a process
killed at any moment leaves either the whole step or none of it, and the next tick of
any process carries on from what is stored.

Leavers: a player who leaves a running tournament is withdrawn (their seat at a table
in play goes on with a bot); a player whose seat a bot was playing at the end of a game
(timed out, or left the table) missed it, and after ``max_missed`` such games is
withdrawn. Withdrawn players are not paired again and score ``skipped_points`` in each
later Swiss round.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import threading
from collections.abc import Callable, Iterator
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import func, or_, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session as OrmSession

from ludoteca.server.alerts.core import Alert, Alerts
from ludoteca.server.kernel import protocol
from ludoteca.server.kernel.clock import iso_or_none, now
from ludoteca.server.kernel.errors import ApiError
from ludoteca.server.kernel.identity import Actor
from ludoteca.server.kernel.models import (
    GameTable,
    Rating,
    TableSeat,
    Tournament,
    TournamentGame,
    TournamentPlayer,
    TournamentRound,
    User,
)
from ludoteca.server.ratings import ladder as ratings
from ludoteca.server.tables.endings import Ending
from ludoteca.server.tables.notices import Notices
from ludoteca.server.tables.opening import Bot, NewTable, Opening, Person
from ludoteca.server.tables.runtime import TableRuntime
from ludoteca.server.tournaments.settings import EDITABLE, check_settings
from ludoteca.server.tournaments.standings import (
    EliminationState,
    as_played,
    elimination_state,
    points_for,
    tournament_standings,
)
from ludoteca.tournaments import arena, elimination
from ludoteca.tournaments.core import (
    Standing,
    meetings,
    points_for_ranks,
    rng_for,
)
from ludoteca.tournaments.swiss import max_rounds, pair_swiss

log = logging.getLogger("ludoteca.server.tournaments.service")

LIST_LIMIT = 100
LOCKED = "tournaments locked"
"""Where a transaction's session keeps the tournaments it locked, with their revisions then."""

Made = tuple[str, list[int | None], int]
"""A table just opened: its id, its seats' user ids (None: a bot), its board."""


def _not_open(t: Tournament) -> ApiError:
    if t.status == "cancelled":
        return ApiError(409, "cancelled", "this tournament was cancelled")
    return ApiError(409, "started", "this tournament has started")


def _not_found() -> ApiError:
    return ApiError(404, "no_tournament", "no such tournament")


class Tournaments:
    """``on_ending`` is to be subscribed to the tables' endings: a game of a round ended."""

    def __init__(self, runtime: TableRuntime, notices: Notices, opening: Opening, alerts: Alerts,
                 leave_table: Callable[[Actor, str], Any]) -> None:
        self.runtime, self.notices, self.alerts = runtime, notices, alerts
        self.opening = opening
        self.leave_table = leave_table
        self._wake: asyncio.Event | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._lock = threading.Lock()  # one tick at a time in this process

    # -- the organiser and the players --------------------------------------------------

    def create(self, actor: Actor, body: dict[str, Any]) -> dict[str, Any]:
        if actor.guest:
            raise ApiError(403, "guest_organiser", "guests cannot organise tournaments")
        values = check_settings(body, now())
        with self._transaction() as db:
            t = Tournament(id=secrets.token_urlsafe(9), **values, seed=secrets.randbits(53), status="upcoming",
                           round=0, revision=0, created_by=actor.user_id, created_at=now(),
                           invite=secrets.token_urlsafe(12) if values["private"] else None)
            db.add(t)
            db.flush()
            return self._detail(db, t, actor)

    def edit(self, actor: Actor, tournament_id: str, body: dict[str, Any]) -> dict[str, Any]:
        with self._transaction() as db:
            t = self._lock_row(db, tournament_id)
            if t.created_by != actor.user_id:
                raise ApiError(403, "not_organiser", "only the organiser can change a tournament")
            if t.status != "upcoming":
                raise ApiError(409, "started", "a tournament cannot change once started")
            current = {"game": t.game, "format": t.format, "name": t.name, "seats": t.seats,
                       "min_seats": t.min_seats, "options": t.options, "mode": t.mode, "clock": t.clock,
                       "rounds": t.rounds, "minutes": t.minutes, "starts_at": t.starts_at,
                       "min_players": t.min_players, "max_players": t.max_players, "rated": t.rated,
                       "bots": t.bot_levels, "private": t.private, "points": t.points, "bye_points": t.bye_points,
                       "skipped_points": t.skipped_points, "avoid_repeats": t.avoid_repeats, "advance": t.advance,
                       "max_missed": t.max_missed}
            changed = {k: v for k, v in body.items() if k in EDITABLE and v is not None}
            if "clock" not in changed and changed.get("mode", t.mode) != t.mode:
                current["clock"] = None
            values = check_settings({**current, **changed}, now())
            count = self._count(db, t.id)
            if values["max_players"] < count:
                raise ApiError(409, "too_many_joined", f"{count} have joined already")
            for key, value in values.items():
                setattr(t, key, value)
            if t.private and t.invite is None:
                t.invite = secrets.token_urlsafe(12)
            t.revision += 1
            return self._detail(db, t, actor)

    def cancel(self, actor: Actor, tournament_id: str) -> dict[str, Any]:
        """The organiser calls it off before the start."""
        with self._transaction() as db:
            t = self._lock_row(db, tournament_id)
            if t.created_by != actor.user_id:
                raise ApiError(403, "not_organiser", "only the organiser can cancel a tournament")
            if t.status != "upcoming":
                raise _not_open(t)
            t.status, t.finished_at = "cancelled", now()
            t.revision += 1
            return self._detail(db, t, actor)

    def join(self, actor: Actor, tournament_id: str, invite: str | None) -> dict[str, Any]:
        with self._transaction() as db:
            t = self._lock_row(db, tournament_id)
            if t.private and not secrets.compare_digest(invite or "", t.invite or "") \
                    and t.created_by != actor.user_id:
                raise ApiError(403, "bad_invite", "this tournament needs its invitation link")
            if t.status != "upcoming":
                raise _not_open(t)
            if t.rated and actor.guest:
                raise ApiError(403, "guest_rated", "guests cannot play rated tournaments")
            if db.scalar(select(TournamentPlayer.id).where(TournamentPlayer.tournament_id == t.id,
                                                           TournamentPlayer.user_id == actor.user_id)):
                raise ApiError(409, "already_joined", "you have joined this tournament already")
            if self._count(db, t.id) >= t.max_players:
                raise ApiError(409, "full", "this tournament is full")
            db.add(TournamentPlayer(tournament_id=t.id, user_id=actor.user_id, name=actor.username,
                                    rating=self._rating(db, actor.user_id, t.game), joined_at=now(),
                                    withdrawn=False, missed=0))
            t.revision += 1
            db.flush()
            return self._detail(db, t, actor)

    def add_bot(self, actor: Actor, tournament_id: str, level: str) -> dict[str, Any]:
        with self._transaction() as db:
            t = self._lock_row(db, tournament_id)
            if t.created_by != actor.user_id:
                raise ApiError(403, "not_organiser", "only the organiser seats bots")
            if t.status != "upcoming":
                raise _not_open(t)
            if level not in t.bot_levels:
                raise ApiError(422, "bot_not_allowed", "this tournament allows bots of the levels: "
                                                       + (", ".join(t.bot_levels) or "none"))
            count = self._count(db, t.id)
            if count >= t.max_players:
                raise ApiError(409, "full", "this tournament is full")
            db.add(TournamentPlayer(tournament_id=t.id, user_id=None, bot=level, name=f"{level} #{count + 1}",
                                    rating=0.0, joined_at=now(), withdrawn=False, missed=0))
            t.revision += 1
            db.flush()
            return self._detail(db, t, actor)

    def leave(self, actor: Actor, tournament_id: str) -> dict[str, Any]:
        """Before the start: off the list. Running: withdrawn; a table in play goes on with
        a bot in the seat."""
        tables: list[str] = []
        with self._transaction() as db:
            t = self._lock_row(db, tournament_id)
            entrant = db.scalar(select(TournamentPlayer).where(TournamentPlayer.tournament_id == t.id,
                                                               TournamentPlayer.user_id == actor.user_id))
            if entrant is None:
                raise ApiError(409, "not_joined", "you have not joined this tournament")
            if t.status == "upcoming":
                db.delete(entrant)
            elif t.status == "running":
                if entrant.withdrawn:
                    raise ApiError(409, "withdrawn", "you have left this tournament already")
                entrant.withdrawn = True
                tables = [g.table_id for g in db.scalars(select(TournamentGame).where(
                    TournamentGame.tournament_id == t.id, TournamentGame.status == "playing"))
                    if entrant.id in g.players]
            else:
                raise ApiError(409, "over", "this tournament is over")
            t.revision += 1
            db.flush()
            detail = self._detail(db, t, actor)
        for table_id in tables:
            with contextlib.suppress(ApiError):  # the table ended meanwhile
                self.leave_table(actor, table_id)
        return detail

    # -- reading --------------------------------------------------------------------------

    def listing(self, status: str | None, limit: int, game: str | None = None) -> list[dict[str, Any]]:
        """Public tournaments: upcoming soonest first, running and finished latest first."""
        with self.runtime.sessions() as db:
            query = select(Tournament).where(Tournament.private.is_(False))
            if status:
                query = query.where(Tournament.status == status)
            if game:
                query = query.where(Tournament.game == game)
            order = Tournament.starts_at.asc() if status == "upcoming" else Tournament.starts_at.desc()
            rows = list(db.scalars(query.order_by(order, Tournament.id).limit(limit)))
            counts = self._counts(db, [t.id for t in rows])
            return [self._summary(db, t, counts.get(t.id, 0)) for t in rows]

    def detail(self, actor: Actor | None, tournament_id: str, invite: str | None) -> dict[str, Any]:
        with self.runtime.sessions() as db:
            t = db.get(Tournament, tournament_id)
            if t is None:
                raise _not_found()
            if t.private and not self._may_see(db, t, actor, invite):
                raise _not_found()
            return self._detail(db, t, actor)

    def results_of(self, username: str) -> list[dict[str, Any]]:
        """A player's finished public tournaments, latest first, with their final rank."""
        with self.runtime.sessions() as db:
            user = db.scalar(select(User).where(User.username == username))
            if user is None:
                raise ApiError(404, "no_player", "no such player")
            rows = list(db.execute(
                select(Tournament, TournamentPlayer.id).join(TournamentPlayer,
                                                             TournamentPlayer.tournament_id == Tournament.id)
                .where(TournamentPlayer.user_id == user.id, Tournament.status == "finished",
                       Tournament.private.is_(False))
                .order_by(Tournament.finished_at.desc()).limit(50)))
            out = []
            for t, entrant_id in rows:
                table = self._standings(db, t)[0]
                rank = next((s.rank for s in table if s.player == entrant_id), None)
                out.append({"id": t.id, "name": t.name, "game": t.game, "format": t.format, "rank": rank,
                            "players": len(table), "finished_at": iso_or_none(t.finished_at)})
            return out

    def _may_see(self, db: OrmSession, t: Tournament, actor: Actor | None, invite: str | None) -> bool:
        if invite and t.invite and secrets.compare_digest(invite, t.invite):
            return True
        if actor is None:
            return False
        return t.created_by == actor.user_id or db.scalar(select(TournamentPlayer.id).where(
            TournamentPlayer.tournament_id == t.id, TournamentPlayer.user_id == actor.user_id)) is not None

    @staticmethod
    def _count(db: OrmSession, tournament_id: str) -> int:
        return db.scalar(select(func.count()).select_from(TournamentPlayer)
                         .where(TournamentPlayer.tournament_id == tournament_id)) or 0

    @staticmethod
    def _counts(db: OrmSession, ids: list[str]) -> dict[str, int]:
        if not ids:
            return {}
        return {tid: n for tid, n in db.execute(
            select(TournamentPlayer.tournament_id, func.count()).where(TournamentPlayer.tournament_id.in_(ids))
            .group_by(TournamentPlayer.tournament_id))}

    @staticmethod
    def _rating(db: OrmSession, user_id: int, game: str) -> float:
        row = db.get(Rating, (user_id, game))
        return round(ratings.ordinal(row.mu, row.sigma), 2) if row is not None else 0.0

    @staticmethod
    def _lock_row(db: OrmSession, tournament_id: str) -> Tournament:
        """Every change of a tournament starts here: its row, locked, and its revision
        noted, so that ``_transaction`` knows whether the change moved it."""
        t = db.get(Tournament, tournament_id, populate_existing=True, with_for_update=True)
        if t is None:
            raise _not_found()
        db.info.setdefault(LOCKED, {}).setdefault(t.id, (t, t.revision))
        return t

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[OrmSession]:
        """A write transaction. The tournaments whose revision it moved are announced on
        the hub once it is committed: every process sends them again to its sockets of
        them (server/live/tournaments.py)."""
        with self.runtime.transaction() as db:
            yield db
            locked: dict[str, tuple[Tournament, int]] = db.info.pop(LOCKED, {})
            moved = [tournament_id for tournament_id, (t, revision) in locked.items() if t.revision != revision]
        for tournament_id in moved:
            self.runtime.hub.publish(protocol.tournament_changed(tournament_id))

    def _summary(self, db: OrmSession, t: Tournament, players: int) -> dict[str, Any]:
        organiser = db.scalar(select(User.username).where(User.id == t.created_by))
        return {"id": t.id, "name": t.name, "game": t.game, "format": t.format, "seats": t.seats,
                "min_seats": t.min_seats, "status": t.status, "starts_at": iso_or_none(t.starts_at),
                "ends_at": iso_or_none(t.ends_at), "rounds": t.rounds, "round": t.round, "minutes": t.minutes,
                "players": players, "min_players": t.min_players, "max_players": t.max_players, "rated": t.rated,
                "private": t.private, "organiser": organiser or "", "mode": t.mode}

    def _detail(self, db: OrmSession, t: Tournament, actor: Actor | None) -> dict[str, Any]:
        entrants = self._entrants(db, t.id)
        table, games, rounds = self._standings(db, t, entrants)
        names = {e.id: e.name for e in entrants}
        by_round: dict[int, list[dict[str, Any]]] = {}
        for g in games:
            by_round.setdefault(g.round, []).append(
                {"table": g.table_id, "board": g.board, "players": list(g.players),
                 "names": [names.get(p, "?") for p in g.players], "status": g.status,
                 "ranks": g.ranks, "points": g.points})
        byes = {r.number: r.byes for r in rounds}
        rounds_out = [{"number": n, "tables": sorted(tables, key=lambda x: x["board"]),
                       "byes": [{"player": b[0], "name": names.get(b[0], "?"), "points": b[1], "kind": b[2]}
                                for b in byes.get(n, [])]}
                      for n, tables in sorted(by_round.items())]
        for n in sorted(set(byes) - set(by_round)):
            rounds_out.append({"number": n, "tables": [], "byes": [
                {"player": b[0], "name": names.get(b[0], "?"), "points": b[1], "kind": b[2]} for b in byes[n]]})
        me = None
        if actor is not None:
            me = next((e.id for e in entrants if e.user_id == actor.user_id), None)
        return {**self._summary(db, t, len(entrants)),
                "options": t.options, "clock": t.clock, "points": t.points, "bye_points": t.bye_points,
                "skipped_points": t.skipped_points, "avoid_repeats": t.avoid_repeats, "advance": t.advance,
                "max_missed": t.max_missed, "bots": t.bot_levels, "revision": t.revision,
                "invite": t.invite if actor is not None and actor.user_id == t.created_by else None,
                "me": me, "is_organiser": actor is not None and actor.user_id == t.created_by,
                "entrants": [{"id": e.id, "name": e.name, "bot": e.bot, "rating": e.rating,
                              "withdrawn": e.withdrawn, "missed": e.missed} for e in entrants],
                "standings": [{"rank": s.rank, "player": s.player, "name": names.get(s.player, "?"),
                               "points": round(s.points, 3), "played": s.played, "byes": s.byes,
                               "skipped": s.skipped, "opponents_points": round(s.opponents_points, 3),
                               "opponents_average": round(s.opponents_average, 3), "rating": s.rating,
                               "withdrawn": s.withdrawn} for s in table],
                "rounds_played": rounds_out,
                "podium": [{"player": p, "name": names.get(p, "?")} for p in (t.podium or [])]}

    @staticmethod
    def _entrants(db: OrmSession, tournament_id: str) -> list[TournamentPlayer]:
        return list(db.scalars(select(TournamentPlayer).where(TournamentPlayer.tournament_id == tournament_id)
                               .order_by(TournamentPlayer.id)))

    def _standings(self, db: OrmSession, t: Tournament, entrants: list[TournamentPlayer] | None = None,
                   ) -> tuple[list[Standing], list[TournamentGame], list[TournamentRound]]:
        entrants = entrants if entrants is not None else self._entrants(db, t.id)
        games = list(db.scalars(select(TournamentGame).where(TournamentGame.tournament_id == t.id)
                                .order_by(TournamentGame.round, TournamentGame.board)))
        rounds = list(db.scalars(select(TournamentRound).where(TournamentRound.tournament_id == t.id)
                                 .order_by(TournamentRound.number)))
        return tournament_standings(t, entrants, games, rounds), games, rounds

    # -- running them -----------------------------------------------------------------------

    def on_ending(self, ending: Ending) -> None:
        """A table ended: if it is a tournament's, record it and wake the loop."""
        with self.runtime.sessions() as db:
            if db.get(TournamentGame, ending.table_id) is None:
                return
        self._record(ending.table_id)
        loop, wake = self._loop, self._wake
        if loop is not None and wake is not None and not loop.is_closed():
            loop.call_soon_threadsafe(wake.set)

    async def run(self) -> None:
        """The tournament loop: every tick (or at once when a table of one ends)."""
        self._loop = asyncio.get_running_loop()
        self._wake = asyncio.Event()
        tick = max(0.2, self.runtime.settings.clock_tick_seconds)
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), tick)
            self._wake.clear()
            try:
                await asyncio.to_thread(self.tick)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("tournament tick failed")

    def tick(self) -> None:
        """One pass: start what is due, record what ended unrecorded, move running ones on."""
        with self._lock:
            at = now()
            with self.runtime.sessions() as db:
                due = list(db.scalars(select(Tournament.id).where(Tournament.status == "upcoming",
                                                                  Tournament.starts_at <= at)))
                unrecorded = list(db.scalars(
                    select(TournamentGame.table_id).join(GameTable, GameTable.id == TournamentGame.table_id)
                    .where(TournamentGame.status == "playing",
                           or_(GameTable.status == "over", GameTable.status == "aborted"))))
            for table_id in unrecorded:
                self._isolated(self._record, table_id)
            for tournament_id in due:
                self._isolated(self._advance, tournament_id)
            with self.runtime.sessions() as db:
                running = [t.id for t in db.scalars(select(Tournament).where(Tournament.status == "running"))
                           if self._may_move_on(db, t, at)]
            for tournament_id in running:
                self._isolated(self._advance, tournament_id)

    @staticmethod
    def _isolated(step: Callable[[str], None], key: str) -> None:
        """One tournament's step: whatever it raises stays with that tournament (logged,
        tried again next tick), so that no tournament holds up the others of the pass."""
        try:
            step(key)
        except Exception:
            log.exception("tournament step %s(%s) failed", step.__name__, key)

    @staticmethod
    def _may_move_on(db: OrmSession, t: Tournament, at: datetime) -> bool:
        """A read first, so that a tick takes no write lock for a tournament with nothing
        to do (its round in play; an arena with too few free players)."""
        playing = list(db.scalars(select(TournamentGame.players).where(TournamentGame.tournament_id == t.id,
                                                                       TournamentGame.status == "playing")))
        if t.format != "arena":
            return not playing
        if t.ends_at is not None and at >= t.ends_at:
            return not playing
        busy = {p for players in playing for p in players}
        free = db.scalar(select(func.count()).select_from(TournamentPlayer).where(
            TournamentPlayer.tournament_id == t.id, TournamentPlayer.withdrawn.is_(False),
            TournamentPlayer.id.not_in(busy) if busy else TournamentPlayer.id.is_not(None))) or 0
        return free >= t.seats

    def _record(self, table_id: str) -> None:
        """A finished table's result into its tournament (once: a game already recorded
        is left alone)."""
        with self._transaction() as db:
            tournament_id = db.scalar(select(TournamentGame.tournament_id).where(TournamentGame.table_id == table_id))
            if tournament_id is None:
                return
            t = self._lock_row(db, tournament_id)
            g = db.get(TournamentGame, table_id, populate_existing=True, with_for_update=True)
            table = db.get(GameTable, table_id, populate_existing=True)
            if g is None or table is None or g.status != "playing" or table.status not in ("over", "aborted"):
                return
            seats = list(db.scalars(select(TableSeat).where(TableSeat.table_id == table_id)
                                    .order_by(TableSeat.seat)))
            n = len(g.players)
            if table.status == "over" and table.result and table.result.get("ranks"):
                ranks = [int(r) for r in table.result["ranks"]]
                points = points_for_ranks(ranks, points_for(t, n))
            else:  # aborted by a moderator: no result; nobody wins, everyone is skipped
                ranks = [1] * n
                points = [t.skipped_points] * n
            entrants = {e.id: e for e in db.scalars(select(TournamentPlayer).where(
                TournamentPlayer.id.in_(g.players)))}
            missed = []
            for seat, entrant_id in zip(seats, g.players, strict=False):
                e = entrants.get(entrant_id)
                if e is not None and e.user_id is not None and seat.zombie:
                    missed.append(entrant_id)
                    e.missed += 1
                    if e.missed >= t.max_missed:
                        e.withdrawn = True
            g.status, g.ranks, g.points, g.missed, g.finished_at = "over", ranks, points, missed, now()
            t.revision += 1

    def _advance(self, tournament_id: str) -> None:
        try:
            made = self._advance_in_transaction(tournament_id)
        except ApiError as error:  # a table of the round did not start: the step is undone
            log.warning("tournament %s did not move on: %s", tournament_id, error.code)
            return
        self._announce(tournament_id, made)

    def _advance_in_transaction(self, tournament_id: str) -> list[Made]:
        with self._transaction() as db:
            t = self._lock_row(db, tournament_id)
            at = now()
            if t.status == "upcoming":
                if t.starts_at > at:
                    return []
                if not self._start(db, t):
                    return []
            if t.status != "running":
                return []
            entrants = self._entrants(db, t.id)
            games = list(db.scalars(select(TournamentGame).where(TournamentGame.tournament_id == t.id)))
            rounds = list(db.scalars(select(TournamentRound).where(TournamentRound.tournament_id == t.id)))
            playing = [g for g in games if g.status == "playing"]
            if t.format == "arena":
                if t.ends_at is not None and at >= t.ends_at:
                    if not playing:
                        self._finish(db, t, entrants, games, rounds)
                    return []
                made = self._pair_arena(db, t, entrants, games, playing)
            else:
                if playing:
                    return []
                if t.format == "swiss":
                    if t.round >= t.rounds:
                        self._finish(db, t, entrants, games, rounds)
                        return []
                    made = self._pair_swiss(db, t, entrants, games, rounds)
                else:
                    state = elimination_state(t, entrants, games)
                    if state.finished:
                        self._finish(db, t, entrants, games, rounds)
                        return []
                    made = self._pair_elimination(db, t, state)
            if made:
                t.revision += 1
        return made

    def _start(self, db: OrmSession, t: Tournament) -> bool:
        entrants = self._entrants(db, t.id)
        t.revision += 1
        if len(entrants) < t.min_players:
            t.status, t.finished_at = "cancelled", now()
            return False
        t.status, t.started_at = "running", now()
        if t.format == "swiss":
            # Fewer joined than the maximum: no more rounds than the pairing allows.
            t.rounds = min(t.rounds, max_rounds(len(entrants), t.seats, t.avoid_repeats))
        elif t.format == "elimination":
            t.rounds = len(elimination.plan(len(entrants), t.seats, t.min_seats, t.advance))
        else:
            t.ends_at = t.started_at + timedelta(minutes=t.minutes or 0)
        return True

    def _finish(self, db: OrmSession, t: Tournament, entrants: list[TournamentPlayer], games: list[TournamentGame],
                rounds: list[TournamentRound]) -> None:
        table = tournament_standings(t, entrants, games, rounds)
        t.podium = [s.player for s in table[:3]]
        t.status, t.finished_at = "finished", now()
        t.revision += 1

    def _pair_swiss(self, db: OrmSession, t: Tournament, entrants: list[TournamentPlayer],
                    games: list[TournamentGame], rounds: list[TournamentRound]) -> list[Made]:
        number = t.round + 1
        table = tournament_standings(t, entrants, games, rounds)
        active = {e.id for e in entrants if not e.withdrawn}
        order = [s for s in table if s.player in active]
        played = [as_played(g) for g in games if g.status == "over"]
        pairing = pair_swiss(order, t.seats, t.min_seats, number, t.seed, meetings(played), t.avoid_repeats)
        byes = [[p, t.bye_points, "bye"] for p in pairing.byes]
        byes += [[e.id, t.skipped_points, "skipped"] for e in entrants if e.withdrawn]
        if not self._claim_round(db, t, number, byes):
            return []
        t.round = number
        return self._open_tables(db, t, entrants, pairing.tables, number)

    def _pair_elimination(self, db: OrmSession, t: Tournament, state: EliminationState,
                          ) -> list[Made]:
        number = t.round + 1
        plan = elimination.pair_round(state.active, t.seats, t.min_seats, t.advance, number, t.seed)
        if not self._claim_round(db, t, number, [[p, 0.0, "bye"] for p in plan.byes]):
            return []
        t.round = number
        if plan.final:
            t.rounds = number
        entrants = self._entrants(db, t.id)
        return self._open_tables(db, t, entrants, plan.tables, number)

    def _pair_arena(self, db: OrmSession, t: Tournament, entrants: list[TournamentPlayer],
                    games: list[TournamentGame], playing: list[TournamentGame],
                    ) -> list[Made]:
        busy = {p for g in playing for p in g.players}
        last: dict[int, frozenset[int]] = {}
        for g in sorted((g for g in games if g.status == "over"), key=lambda g: (g.finished_at or now(), g.board)):
            for p in g.players:
                last[p] = frozenset(o for o in g.players if o != p)
        free = [arena.Free(e.id, e.rating, last.get(e.id, frozenset())) for e in entrants
                if not e.withdrawn and e.id not in busy]
        active = sum(1 for e in entrants if not e.withdrawn)
        tables = arena.pair_free(free, t.seats, t.seed + len(games), allow_rematch=active <= t.seats)
        if not tables:
            return []
        return self._open_tables(db, t, entrants, tables, 0, first_board=len(games) + 1)

    @staticmethod
    def _claim_round(db: OrmSession, t: Tournament, number: int, byes: list[list[Any]]) -> bool:
        """The round's row: a second claim of one round fails (primary key)."""
        try:
            with db.begin_nested():
                db.add(TournamentRound(tournament_id=t.id, number=number, byes=byes, created_at=now()))
                db.flush()
        except IntegrityError:
            return False
        return True

    def _open_tables(self, db: OrmSession, t: Tournament, entrants: list[TournamentPlayer],
                     tables: list[tuple[int, ...]], number: int, first_board: int = 1,
                     ) -> list[Made]:
        """Each table opened and started at once, in the caller's transaction: the
        organiser its host, each seat its entrant's (a bot entrant's by its bot)."""
        by_id = {e.id: e for e in entrants}
        made = []
        for board, players in enumerate(tables, start=first_board):
            seed = rng_for(t.seed, "table", number, board).getrandbits(53)
            sitters = [Person(e.user_id) if e.user_id is not None else Bot(e.bot or "")
                       for e in (by_id[p] for p in players)]
            table_id = self.opening.open(db, NewTable(t.game, t.created_by, sitters, options=t.options, mode=t.mode,
                                                      clock=t.clock, rated=t.rated, private=t.private, seed=seed),
                                         start=True)
            db.add(TournamentGame(table_id=table_id, tournament_id=t.id, round=number, board=board,
                                  players=list(players), status="playing", started_at=now()))
            made.append((table_id, [by_id[p].user_id for p in players], board))
        db.flush()
        return made

    def _announce(self, tournament_id: str, made: list[Made]) -> None:
        """After the commit: the players' alerts (the tables' readers and bots were told
        with the commit)."""
        if not made:
            return
        with self.runtime.sessions() as db:
            t = db.get(Tournament, tournament_id)
            name, number = (t.name, t.round) if t is not None else ("", 0)
        for table_id, users, board in made:
            for user_id in users:
                if user_id is not None:
                    self.alerts.notify(Alert(user_id, "tournament", table_id,
                                             {"tournament": tournament_id, "name": name, "round": number,
                                              "board": board}))
