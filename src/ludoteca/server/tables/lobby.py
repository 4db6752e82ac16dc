"""The lobby: creating a table, listing tables, and a finished table's rematch."""

from __future__ import annotations

import secrets
from typing import Any

from ludoteca.bots.base import seatable_bot_names
from ludoteca.engine import LudotecaError
from ludoteca.server.kernel.errors import ApiError
from ludoteca.server.kernel.identity import Actor
from ludoteca.server.tables import clocks
from ludoteca.server.tables import zombie_option as zombies
from ludoteca.server.tables.notices import Notices
from ludoteca.server.tables.opening import Bot, NewTable, Opening, Person, Sitter, game_or_404
from ludoteca.server.tables.runtime import TableRuntime
from ludoteca.server.tables.store import TableStatements
from ludoteca.server.tables.summary import Summaries


class _Outrun(Exception):
    """Another request named the table's rematch first."""


class Lobby:
    def __init__(self, runtime: TableRuntime, store: TableStatements, summaries: Summaries, notices: Notices,
                 opening: Opening) -> None:
        self.runtime, self.store, self.summaries, self.notices = runtime, store, summaries, notices
        self.opening = opening

    def create(self, actor: Actor, body: dict[str, Any]) -> dict[str, Any]:
        """A new open table, its creator (the host) in the first seat, the others free."""
        game = game_or_404(body["game"])
        seats = body.get("seats") or game.min_seats
        mode = body.get("mode") or "realtime"
        clock = clocks.settings(mode, body.get("clock"))
        seed = secrets.randbits(53)
        options = body.get("options") or {}
        try:
            game.setup(seats, options, seed)  # the seats and options, checked as the game itself does
        except LudotecaError as error:
            raise ApiError(422, error.code, error.message) from None
        if body.get("rated") and actor.guest:
            raise ApiError(403, "guest_rated", "guests cannot play rated tables")
        zombies.check_level(body.get("zombie_level"))
        table = NewTable(game.id, actor.user_id, [Person(actor.user_id), *[None] * (seats - 1)], options=options,
                         mode=mode, clock=clock, rated=bool(body.get("rated")), private=bool(body.get("private")),
                         record_public=bool(body.get("record_public")), seed=seed)
        with self.runtime.transaction() as db:
            table_id = self.opening.open(db, table)
            zombies.keep_option(db, table_id, body.get("zombie_level"))
            return self.summaries.summary(db, self.store.table(db, table_id))

    def lobby(self, game: str | None, status: str | None, limit: int, actor: Actor | None,
              offset: int = 0) -> list[dict[str, Any]]:
        """A page of public tables, newest first (and, on the first page, the caller's
        private ones). Open and playing tables nobody has touched for
        ``table_expiry_hours`` (created, started, moved in) are left out."""
        with self.runtime.sessions() as db:
            rows = self.store.lobby(db, game, status, limit, offset, self.runtime.settings.table_expiry_hours,
                                    actor.user_id if actor is not None and offset == 0 else None)
            return [self.summaries.summary(db, r) for r in rows]

    def rematch(self, actor: Actor, table_id: str) -> tuple[dict[str, Any], bool]:
        """The same game again with the same company: a new open table with the finished
        one's game, options and settings, every seat moved on by one (so that another
        player goes first), its bots seated at once and the caller in their own seat; the
        other people's seats wait for them. One rematch per table, however many ask at
        once: later calls answer the same one. Returns the rematch's summary and whether
        this call made it. A rematch that was aborted (everyone left it) is replaced."""
        store, summaries = self.store, self.summaries
        try:
            with self.runtime.transaction() as db:
                old, seats = store.lock(db, table_id, lock_seats=False)
                if not any(s.user_id == actor.user_id for s in seats):
                    raise ApiError(403, "not_a_player", "only the table's players can ask for a rematch")
                if old.status != "over":
                    raise ApiError(409, "not_over", "a rematch follows a finished game")
                earlier = old.rematch_id
                if earlier is not None:
                    rematch = store.table(db, earlier)
                    # A rematch everyone left (aborted) is no way on: it is replaced.
                    if rematch.status != "aborted":
                        return summaries.summary(db, rematch), False
                sitters: list[Sitter] = [None] * old.seats
                for s in seats:
                    moved = (s.seat + 1) % old.seats  # every seat moves on by one: another player goes first
                    if s.user_id == actor.user_id:
                        sitters[moved] = Person(actor.user_id)
                    # A bot this server no longer offers leaves its seat free.
                    elif s.user_id is None and s.bot is not None and s.bot in seatable_bot_names():
                        sitters[moved] = Bot(s.bot)
                new_id = self.opening.open(db, NewTable(
                    old.game, actor.user_id, sitters, options=old.options, mode=old.mode, clock=old.clock,
                    rated=old.rated, private=old.private, record_public=old.record_public))
                zombies.copy_option(db, table_id, new_id)
                # Guarded as well as locked: whatever the database's locking, only one
                # request can name the rematch; a loser rolls its table back.
                if not store.name_rematch(db, table_id, earlier, new_id):
                    raise _Outrun()
                summary = summaries.summary(db, store.table(db, new_id))
        except _Outrun:
            with self.runtime.sessions() as db:
                rematch_id = store.table(db, table_id).rematch_id
                assert rematch_id is not None
                return summaries.summary(db, store.table(db, rematch_id)), False
        self.runtime.cache.forget_row(table_id)
        self.notices.table_changed(table_id)  # the finished table's readers see the way on
        return summary, True
