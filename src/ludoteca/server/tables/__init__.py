"""Tables: every change to a table goes through here, whether it comes from HTTP, a
WebSocket, a bot or a clock. Services, each given what it needs (nothing inherited):

    pipeline    the move path: checked, played, committed (grouped), announced
    opening     opening a table and starting it: the one way, whoever asks
    lobby       creating and listing tables, rematches
    seating     joining, leaving, bots in seats, kicking, starting
    views       snapshots and the live connections' updates
    undo        taking back a move
    resign      conceding a game in play
    records     records, replays, static view parts, event logs
    chat        a table's chat
    profiles    a player's profile
    clock_scan  timeouts, idle bot tables, the heartbeat

and what they share: the store (``..store``: every statement), the clock policy
(``clocks``), who may see or act (``access``), the summary every reader sees
(``summary``), the notices to other processes and the bots (``notices``), and the
endings (``..endings``: every way a game ends, announced once).

``Tables`` builds them. Its methods are the entry point for everything a person does at
a table but move, and for opening a table (``Tables.open``: the lobby, a rematch, Play
now and tournaments alike). Two services are called directly, because their callers
need more than a method each: moves go to ``Tables.pipeline`` (``move`` on the event
loop, ``move_blocking`` from a thread; the routes, the WebSocket and the bots), which
queues them to its workers; the server's clock loop calls ``Tables.clock_scan``.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import Session as OrmSession

from ludoteca.server.kernel.identity import Actor
from ludoteca.server.kernel.protocol import ChatLine, ErrorMessage, UndoReceipt, Update
from ludoteca.server.live.connections import Live
from ludoteca.server.tables.access import BotMover, Mover
from ludoteca.server.tables.chat import Chat
from ludoteca.server.tables.clock_scan import ClockScan
from ludoteca.server.tables.endings import Endings
from ludoteca.server.tables.lobby import Lobby
from ludoteca.server.tables.notices import Notices
from ludoteca.server.tables.opening import NewTable, Opening
from ludoteca.server.tables.pipeline import MovePipeline
from ludoteca.server.tables.profiles import Profiles
from ludoteca.server.tables.records import Records
from ludoteca.server.tables.resign import Resign
from ludoteca.server.tables.runtime import TableRuntime
from ludoteca.server.tables.seating import Seating
from ludoteca.server.tables.summary import Summaries
from ludoteca.server.tables.undo import Undo
from ludoteca.server.tables.views import LiveClient, Views

__all__ = ["BotMover", "Mover", "Tables"]


class Tables:
    def __init__(self, runtime: TableRuntime) -> None:
        store = runtime.store
        # The sockets of this process's tables: they read each reader's update from the
        # views (made below, read only once a table changes), and the views show who is there.
        self.live = Live(runtime.hub, self.updates)
        self.notices = Notices(runtime.hub)
        self.endings = Endings(self.notices.table_changed)
        summaries = Summaries(store, self.live.present)
        self.pipeline = MovePipeline(runtime, store, self.endings, self.notices, runtime.settings.move_workers,
                                     self.live)
        self.opening = Opening(runtime, self.notices)
        self.lobby_service = Lobby(runtime, store, summaries, self.notices, self.opening)
        self.seating = Seating(runtime, store, summaries, self.notices, self.opening)
        self.views = Views(runtime, store, summaries)
        self.undo_service = Undo(runtime, store, self.notices)
        self.resign_service = Resign(runtime, store, summaries, self.notices, self.endings)
        self.records = Records(runtime, store)
        self.chat_service = Chat(runtime, store, self.notices)
        self.profiles = Profiles(runtime, store)
        self.clock_scan = ClockScan(runtime, store, self.notices)

    # -- the lobby ----------------------------------------------------------------------

    def open(self, db: OrmSession, table: NewTable, start: bool = False) -> str:
        """A new table in the caller's transaction, started if ``start`` (``Opening.open``)."""
        return self.opening.open(db, table, start)

    def create(self, actor: Actor, body: dict[str, Any]) -> dict[str, Any]:
        return self.lobby_service.create(actor, body)

    def lobby(self, game: str | None, status: str | None, limit: int, actor: Actor | None,
              offset: int = 0) -> list[dict[str, Any]]:
        return self.lobby_service.lobby(game, status, limit, actor, offset)

    def rematch(self, actor: Actor, table_id: str) -> tuple[dict[str, Any], bool]:
        return self.lobby_service.rematch(actor, table_id)

    # -- seats ------------------------------------------------------------------------------

    def join(self, actor: Actor, table_id: str, seat: int | None) -> dict[str, Any]:
        return self.seating.join(actor, table_id, seat)

    def leave(self, actor: Actor, table_id: str) -> dict[str, Any]:
        return self.seating.leave(actor, table_id)

    def add_bot(self, actor: Actor, table_id: str, seat: int | None, bot: str) -> dict[str, Any]:
        return self.seating.add_bot(actor, table_id, seat, bot)

    def kick(self, actor: Actor, table_id: str, seat: int) -> dict[str, Any]:
        return self.seating.kick(actor, table_id, seat)

    def start(self, actor: Actor, table_id: str) -> dict[str, Any]:
        return self.seating.start(actor, table_id)

    # -- play ---------------------------------------------------------------------------------

    def undo(self, actor: Actor, table_id: str, version: int, seat: int | None) -> UndoReceipt:
        return self.undo_service.undo(actor, table_id, version, seat)

    def resign(self, actor: Actor, table_id: str, seat: int | None = None) -> dict[str, Any]:
        return self.resign_service.resign(actor, table_id, seat)

    def suspend(self, table_id: str) -> None:
        self.pipeline.suspend(table_id)

    # -- reading --------------------------------------------------------------------------------

    def snapshot(self, actor: Actor | None, table_id: str, seat: int | None = None, since: int | None = None,
                 ) -> dict[str, Any]:
        return self.views.snapshot(actor, table_id, seat, since)

    def updates(self, table_id: str, clients: list[LiveClient], version: int | None = None,
                ) -> list[Update | ErrorMessage] | None:
        return self.views.updates(table_id, clients, version)

    def record(self, actor: Actor | None, table_id: str) -> dict[str, Any]:
        return self.records.record(actor, table_id)

    def replay(self, actor: Actor | None, table_id: str, seat: int | None, changes: bool = False,
               ) -> dict[str, Any]:
        return self.records.replay(actor, table_id, seat, changes)

    def static_part(self, actor: Actor | None, table_id: str, key: str) -> Any:
        return self.records.static_part(actor, table_id, key)

    def log(self, actor: Actor | None, table_id: str, seat: int | None, since: int) -> dict[str, Any]:
        return self.records.log(actor, table_id, seat, since)

    def profile(self, username: str) -> dict[str, Any]:
        return self.profiles.profile(username)

    # -- chat ------------------------------------------------------------------------------------

    def chat(self, actor: Actor, table_id: str, text: str) -> ChatLine:
        return self.chat_service.chat(actor, table_id, text)

    def chat_recent(self, actor: Actor | None, table_id: str, limit: int = 50) -> list[ChatLine]:
        return self.chat_service.chat_recent(actor, table_id, limit)
