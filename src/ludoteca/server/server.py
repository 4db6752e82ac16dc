"""The running server: the runtime (settings, database, match cache, engine guard, hub)
with the services built on it (tables, bots, live connections, login limits), how they
are wired together, and its life cycle: start, the clock scan, stop."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from sqlalchemy import delete

from ludoteca.server.alerts.core import Alerts
from ludoteca.server.alerts.services import AlertServices
from ludoteca.server.kernel import protocol
from ludoteca.server.kernel.config import Settings
from ludoteca.server.kernel.db import now
from ludoteca.server.kernel.errors import ApiError
from ludoteca.server.kernel.hub import RedisHub
from ludoteca.server.kernel.identity import LoginLimiter, Passwords
from ludoteca.server.kernel.models import Session
from ludoteca.server.kernel.runtime import Runtime
from ludoteca.server.kernel.tasks import cancel_all
from ludoteca.server.live.connections import Live
from ludoteca.server.moderation.service import Moderation, TableAbort
from ludoteca.server.ratings import ladder as ratings
from ludoteca.server.reviews.service import Reviews
from ludoteca.server.seatbots.runner import BotRunner
from ludoteca.server.social.arena import Arena
from ludoteca.server.tables import Tables
from ludoteca.server.tournaments.service import Tournaments

log = logging.getLogger("ludoteca.server")

HEARTBEAT_SECONDS = 1.0
"""How often a process notes that the server serves (at most: the clock scan's tick)."""


class Server(Runtime):
    """The running server: the runtime, and the services built on it."""

    def __init__(self, settings: Settings) -> None:
        super().__init__(settings)
        self.passwords = Passwords(settings.password_time_cost, settings.password_memory_kib)
        self.limiter = LoginLimiter(settings.login_attempts_per_minute,
                                    self.hub.sync if isinstance(self.hub, RedisHub) else None, settings.redis_prefix)
        # Presence is asked for late: the live connections need the tables' views first.
        self.tables = Tables(self, lambda table_id: self.live.present(table_id))
        self.pipeline = self.tables.pipeline
        self.tables.endings.subscribe_in_transaction(ratings.rate_ending)
        self.bots: BotRunner = BotRunner(self, self.pipeline.move_blocking)
        self.tables.notices.schedule_bots = self.bots.schedule
        self.live: Live = Live(self.hub, self.tables.updates)
        self.pipeline.live = self.live
        self.moderation = Moderation(self, self.limiter, self._end_user, TableAbort(self, self.tables.endings))
        self.moderation.chat_removed = self.tables.notices.chat_removed
        # What players are told away from a table (alerts.py); the channels register here.
        self.alerts = Alerts()
        # Play now, invitations, friends, my games, the personal live socket (arena.py).
        self.arena = Arena(self)
        # Push, email, "your turn" and the account page's services (alert_services.py).
        self.alert_services = AlertServices(self)
        # Player tournaments, from sign-up to podium (tournaments.py).
        self.tournaments = Tournaments(self, self.tables.notices, self.tables.endings, self.alerts, self.tables.leave)
        # Post-game reviews, computed in worker processes of their own (reviews.py).
        self.reviews = Reviews(self)
        self.reviews.alert = self.alerts.notify
        self._tasks: list[asyncio.Task[Any]] = []

    # -- moderation ---------------------------------------------------------------------

    def _on_loop(self, callback: Any, *args: Any) -> None:
        """Run ``callback`` on the event loop (the live connections live there) from a
        request's thread; nothing to do before the server started."""
        loop = self.bots.loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(callback, *args)

    def _end_user(self, user_id: int, error: ApiError) -> None:
        """A ban, a password reset or a deletion ended ``user_id``'s sessions: its open
        sockets, in every process, get ``error`` and close."""
        self.hub.publish(protocol.ended_user(user_id, {**protocol.error(error, None), "close": True}))

    def refresh_hides(self, user_id: int) -> None:
        """``user_id`` blocked or unblocked someone: its open sockets learn whose chat to skip."""
        hides = self.moderation.hidden_names(user_id)

        def apply() -> None:
            for clients in list(self.live.tables.values()):
                for client in clients:
                    if client.actor is not None and client.actor.user_id == user_id:
                        client.hides = hides
        self._on_loop(apply)

    # -- life cycle -------------------------------------------------------------------

    async def start(self) -> None:
        self.bots.loop = asyncio.get_running_loop()
        # Before any clock is read: time when no process served is charged to nobody.
        await asyncio.to_thread(self.tables.clock_scan.resume_clocks, self._outage_slack_ms())
        self.pipeline.start(self.bots.loop)
        await self.hub.start(self.arena.hub_handler(self.live.on_message))
        await self.arena.start()
        # Tables where a bot was about to move when the server stopped go on at once.
        for table_id in await asyncio.to_thread(self.tables.clock_scan.idle_bot_tables, 0):
            self.bots.schedule(table_id)
        self._tasks.append(asyncio.create_task(self._clock_loop()))
        self._tasks.append(asyncio.create_task(self.alert_services.run()))
        self._tasks.append(asyncio.create_task(self.tournaments.run()))
        self._tasks.append(asyncio.create_task(self.reviews.run()))
        if isinstance(self.hub, RedisHub):
            self._tasks.append(asyncio.create_task(self.live.keep_presence()))

    async def _clock_loop(self) -> None:
        tick = self.settings.clock_tick_seconds
        idle_ms = int(max(5.0, 3 * self.settings.bot_seconds + self.settings.bot_delay_seconds) * 1000)
        loop = asyncio.get_running_loop()
        purged = loop.time()
        beat = 0.0
        while True:
            await asyncio.sleep(tick)
            try:
                if loop.time() - beat >= HEARTBEAT_SECONDS:
                    beat = loop.time()
                    await asyncio.to_thread(self.tables.clock_scan.heartbeat)
                await asyncio.to_thread(self.tables.clock_scan.expire_clocks)
                for table_id in await asyncio.to_thread(self.tables.clock_scan.idle_bot_tables, idle_ms):
                    self.bots.schedule(table_id)
                if loop.time() - purged > 600:
                    purged = loop.time()
                    await asyncio.to_thread(self._purge_sessions)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("clock scan failed")

    def _outage_slack_ms(self) -> int:
        """A gap in the heartbeat longer than this is an outage (shorter ones are a busy
        machine, or a process restarted while another served)."""
        return int(max(3 * HEARTBEAT_SECONDS, 3 * self.settings.clock_tick_seconds) * 1000)

    def _purge_sessions(self) -> None:
        with self.transaction() as db:
            db.execute(delete(Session).where(Session.expires_at < now()))

    async def stop(self) -> None:
        await cancel_all(self._tasks)
        await self.live.close_all()
        await self.arena.stop()
        self.alert_services.stop()
        await self.hub.stop()
        self.bots.shutdown()
        self.reviews.shutdown()
        self.pipeline.stop()
        self.guard.shutdown()
        self.engine.dispose()
