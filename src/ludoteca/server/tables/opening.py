"""Opening a table: the one way a table is laid out, seated and started, whoever asks:
the lobby (a table created, later started by its host), a rematch, Play now and a
tournament's pairings (opened and started at once).

``Opening.open`` runs in the caller's transaction, so that what the caller writes with
the table (a Play now entry matched to it, a tournament's game) commits or rolls back
with it; the table's notices (its readers, the lobby, its bots) go out once that
transaction commits, and never if it rolls back. ``Opening.start`` is the start itself,
for a new table and for an open one alike: the match set up under the engine's time
limit, the seats to decide, the clocks. Refusals change nothing:

    404 no_game   422 seats, no_bot, bad_mode, bad_clock, the engine's option codes
    409 seats_free   503 engine_timeout, table_unavailable
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import event
from sqlalchemy.orm import Session as OrmSession

from ludoteca.bots.base import seatable_bot_names
from ludoteca.engine import Game, LudotecaError, validate_options
from ludoteca.games import load
from ludoteca.server.kernel.clock import now, now_ms
from ludoteca.server.kernel.errors import ApiError
from ludoteca.server.kernel.models import GameTable, TableSeat
from ludoteca.server.tables import clocks
from ludoteca.server.tables.matches import EngineTimeout
from ludoteca.server.tables.notices import Notices
from ludoteca.server.tables.runtime import TableRuntime


@dataclass(frozen=True)
class Person:
    """A seat taken by a person."""

    user_id: int


@dataclass(frozen=True)
class Bot:
    """A seat taken by a bot, by its level (one of ``seatable_bot_names``)."""

    level: str


Sitter = Person | Bot | None
"""Who takes a seat of a new table; None leaves it free."""


@dataclass(frozen=True)
class NewTable:
    """A table to open: its game, who sits where, and its settings."""

    game: str
    host: int
    """Who made it (``created_by``): the host of an open table, who seats bots, kicks and
    starts; need not sit at it (a tournament's organiser)."""
    seats: Sequence[Sitter]
    """One per seat, in seat order: as many as the table has."""
    options: Mapping[str, Any] = field(default_factory=dict)
    """The game's options; those not given take their defaults."""
    mode: str = "realtime"
    clock: Mapping[str, Any] | None = None
    """What differs from the mode's default clock."""
    rated: bool = False
    private: bool = False
    record_public: bool = False
    seed: int | None = None
    """None: a fresh random seed."""


def game_or_404(game_id: str) -> Game[Any]:
    try:
        return load(game_id)
    except LudotecaError:
        raise ApiError(404, "no_game", f"no game {game_id!r} on this server") from None


class Opening:
    def __init__(self, runtime: TableRuntime, notices: Notices) -> None:
        self.runtime, self.notices = runtime, notices

    def open(self, db: OrmSession, table: NewTable, start: bool = False) -> str:
        """Opens ``table`` in the caller's transaction ``db``, and starts it if ``start``
        (every seat must then be taken); returns its id. Once ``db`` commits, the table's
        readers and the lobby are told, and its bots play if they must."""
        game = game_or_404(table.game)
        count = len(table.seats)
        if not game.min_seats <= count <= game.max_seats:
            raise ApiError(422, "seats", f"{game.name} is for {game.min_seats} to {game.max_seats} players, "
                                         f"not {count}")
        try:
            options = validate_options(game.options, count, table.options)
        except LudotecaError as error:
            raise ApiError(422, error.code, error.message) from None
        unknown = sorted({s.level for s in table.seats if isinstance(s, Bot)} - set(seatable_bot_names()))
        if unknown:
            raise ApiError(422, "no_bot", f"no bot {unknown[0]!r}; bots: {', '.join(seatable_bot_names())}")
        clock = clocks.settings(table.mode, dict(table.clock or {}))
        seed = secrets.randbits(53) if table.seed is None else table.seed
        row, seats = self.runtime.store.open_table(
            db, secrets.token_urlsafe(9), table.host, [], game=game.id, seats=count, options=options, seed=seed,
            mode=table.mode, clock=clock, rated=table.rated, private=table.private,
            record_public=table.record_public)
        for seat, sitter in zip(seats, table.seats, strict=True):
            if isinstance(sitter, Person):
                seat.user_id = sitter.user_id
            elif isinstance(sitter, Bot):
                seat.bot = sitter.level
        db.flush()
        table_id = row.id
        if start:
            # Nobody else knows the table yet; the lock is what putting a match in the
            # cache asks of anyone (``MatchCache.sync``).
            with self.runtime.cache.table_lock(table_id):
                self.start(db, row, seats)
        after_commit(db, lambda: self._announce(table_id, start))
        return table_id

    def start(self, db: OrmSession, row: GameTable, seats: list[TableSeat]) -> None:
        """Starts the open table ``row`` in the caller's transaction; the caller holds the
        table's lock (``MatchCache.table_lock``) and has checked who may start it. The
        match is set up (and cached) under the engine's time limit: a game that does not
        answer in time is 503 ``engine_timeout``, and the caller's transaction rolls back."""
        if any(s.user_id is None and s.bot is None for s in seats):
            raise ApiError(409, "seats_free", "every seat needs a player or a bot")
        entry = self.runtime.cache.sync(db, row)
        row.status = "playing"
        row.started_at = now()
        try:
            row.pending = sorted(set(self.runtime.guard.call(entry.match.pending)))
        except EngineTimeout:
            raise ApiError(503, "engine_timeout", "this table's game did not answer in time") from None
        row.turn_started_ms = now_ms()
        bank = clocks.starting_bank(row)
        if bank is not None:
            for s in seats:
                s.bank_ms = bank

    def _announce(self, table_id: str, started: bool) -> None:
        self.notices.table_changed(table_id)
        if started:
            self.notices.schedule_bots(table_id)


def after_commit(db: OrmSession, callback: Callable[[], None]) -> None:
    """Calls ``callback`` once the transaction ``db`` is in now commits: not when a
    savepoint inside it is released, never if it rolls back."""
    transaction = db.get_transaction()
    called = False

    def committed(session: OrmSession) -> None:
        nonlocal called
        if called or session.in_nested_transaction() or session.get_transaction() is not transaction:
            return
        called = True
        callback()

    event.listen(db, "after_commit", committed)
