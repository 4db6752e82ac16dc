"""The composition root: every service of one server process, each built once here with
the collaborators it needs as typed arguments, and the process's life cycle (start, the
clock scan, stop). Nothing else builds a service or hands one to another, so this module
is where to read how the server's features depend on one another.

Two features need each other at run time (the tables' sockets read who is present, and
the personal socket's friends list reads follows that read who is online): where that
is so, the later service is reached through a lambda defined here, never through a slot
filled in afterwards."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from sqlalchemy import delete

from ludoteca.server.accounts import service as accounts_service
from ludoteca.server.accounts.service import AccountService
from ludoteca.server.accounts.signin import SignIn
from ludoteca.server.alerts import preferences as alert_preferences
from ludoteca.server.alerts.core import Alerts
from ludoteca.server.alerts.email import EmailAlerts
from ludoteca.server.alerts.mailer import Mailer
from ludoteca.server.alerts.pages import page_channel
from ludoteca.server.alerts.preferences import Preferences
from ludoteca.server.alerts.push import Push
from ludoteca.server.alerts.your_turn import TurnWatch
from ludoteca.server.kernel.clock import now
from ludoteca.server.kernel.closing import AccountCloser
from ludoteca.server.kernel.config import Settings
from ludoteca.server.kernel.hub import RedisHub
from ludoteca.server.kernel.identity import LoginLimiter, Passwords
from ludoteca.server.kernel.models import Session
from ludoteca.server.kernel.tasks import cancel_all
from ludoteca.server.live.limits import ChatLimits
from ludoteca.server.live.personal import MeLive
from ludoteca.server.live.sessions import SocketEnder
from ludoteca.server.live.tournaments import TournamentSockets
from ludoteca.server.moderation.service import Moderation
from ludoteca.server.playnow import queue as playnow_queue
from ludoteca.server.playnow.queue import Matchmaking
from ludoteca.server.ratings import ladder
from ludoteca.server.ratings.service import Ratings
from ludoteca.server.reviews.service import Reviews
from ludoteca.server.seatbots.runner import BotRunner
from ludoteca.server.social import follows as social_follows
from ludoteca.server.social import invitations as social_invitations
from ludoteca.server.social.follows import Follows
from ludoteca.server.social.invitations import Invitations
from ludoteca.server.social.mygames import MyGames
from ludoteca.server.tables import Tables, closed_accounts
from ludoteca.server.tables.abort import TableAbort
from ludoteca.server.tables.runtime import TableRuntime
from ludoteca.server.tournaments.service import Tournaments

log = logging.getLogger("ludoteca.server")

HEARTBEAT_SECONDS = 1.0
"""How often a process notes that the server serves (at most: the clock scan's tick)."""

ACCOUNT_CLOSERS: tuple[AccountCloser, ...] = (
    closed_accounts.close_account, ladder.close_account, alert_preferences.close_account,
    accounts_service.close_account, playnow_queue.close_account, social_follows.close_account,
    social_invitations.close_account,
)
"""What each feature removes or releases of an account being closed (kernel/closing.py);
the CLI's moderation closes accounts with the same list."""


class Server:
    """One server process's services."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.runtime = runtime = TableRuntime(settings)  # migrates the database first
        self.passwords = Passwords(settings.password_time_cost, settings.password_memory_kib)
        self.limiter = LoginLimiter(settings.login_attempts_per_minute,
                                    runtime.hub.sync if isinstance(runtime.hub, RedisHub) else None,
                                    settings.redis_prefix)
        self.signin = SignIn(runtime, self.passwords, self.limiter)
        self.chat_limits = ChatLimits(settings)  # over HTTP and the table sockets together
        # The tables, with their sockets in this process and the move pipeline.
        self.tables = tables = Tables(runtime)
        self.live = tables.live
        tables.endings.subscribe_in_transaction(ladder.rate_ending)
        self.bots = BotRunner(runtime, tables.pipeline.move_blocking)
        tables.notices.subscribe_bots(self.bots.schedule)
        # The personal socket of each open page (badges, friends online, alerts).
        self.mygames = MyGames(runtime)
        self.personal = MeLive(settings.redis_url, settings.redis_prefix, self.mygames.badges,
                               lambda user_id: self.follows.friend_ids(user_id),
                               lambda user_ids: self.follows.names(user_ids))
        self.follows = Follows(runtime, self.personal.online)
        # Every live socket of a session or a user ends through one ender (a log-out, a ban...).
        self.tournament_sockets = TournamentSockets()
        self.ender = SocketEnder(runtime, (self.live.sockets, self.personal.sockets, self.tournament_sockets.sockets))
        self.moderation = Moderation(runtime, ACCOUNT_CLOSERS, self.limiter, self.ender.end_user,
                                     TableAbort(runtime, tables.endings), tables.notices.chat_removed,
                                     self._hides_changed)
        # What players are told away from a table, and the channels that carry it.
        self.alerts = alerts = Alerts()
        present = self.live.present
        alerts.add_channel("page", page_channel(self.personal.send_to))
        self.mailer = Mailer(settings.smtp_url, settings.mail_from)
        self.push = Push(runtime)
        self.email_alerts = EmailAlerts(runtime, self.mailer, present)
        self.turn_alerts = TurnWatch(runtime, alerts, present)
        self.preferences = Preferences(runtime)
        alerts.add_channel("push", self.push.channel)
        alerts.add_channel("email", self.email_alerts.channel)
        tables.notices.subscribe(self.turn_alerts)
        tables.notices.subscribe(self.personal)  # the badges of the players' open pages
        # The account page.
        self.accounts = AccountService(runtime, self.passwords, self.limiter, self.mailer, self.push, self.ender,
                                       self.moderation.delete_account)
        # Play now, invitations.
        self.invitations = Invitations(runtime, tables, alerts.notify, self.personal.send_to, self.limiter.hit)
        self.playnow = Matchmaking(runtime, tables, alerts.notify, self.personal.send_to)
        # The leaderboards, rating histories and statistics.
        self.ratings = Ratings(runtime)
        # Player tournaments, from sign-up to podium.
        self.tournaments = Tournaments(runtime, tables.notices, tables.opening, alerts, tables.leave)
        tables.endings.subscribe(self.tournaments.on_ending)
        # Post-game reviews, computed in worker processes of their own.
        self.reviews = Reviews(runtime, alerts.notify)
        self._tasks: list[asyncio.Task[Any]] = []
        self._loop: asyncio.AbstractEventLoop | None = None

    def services(self) -> dict[type, object]:
        """What routes may ask for (``http.deps.provided``), by type."""
        parts: tuple[object, ...] = (
            self.runtime, self.settings, self.signin, self.accounts, self.moderation, self.preferences, self.push,
            self.playnow, self.ratings, self.reviews, self.follows, self.invitations, self.mygames, self.tables,
            self.tournaments, self.ender, self.live, self.personal, self.tournament_sockets, self.chat_limits)
        return {type(part): part for part in parts}

    # -- moderation ---------------------------------------------------------------------

    def _on_loop(self, callback: Any, *args: Any) -> None:
        """Run ``callback`` on the event loop (the live connections live there) from a
        request's thread; nothing to do before the server started."""
        loop = self._loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(callback, *args)

    def _hides_changed(self, user_id: int, hides: frozenset[str]) -> None:
        """From a request's thread: ``user_id`` blocked or unblocked someone."""
        self._on_loop(self.live.set_hides, user_id, hides)

    # -- life cycle -------------------------------------------------------------------

    def _hub_notice(self, message: Any) -> None:
        self.live.on_message(message)
        self.personal.table_notice(message)
        self.tournament_sockets.on_message(message)
        self.ender.on_message(message)

    async def start(self) -> None:
        self._loop = self.bots.loop = asyncio.get_running_loop()
        tables = self.tables
        # Before any clock is read: time when no process served is charged to nobody.
        await asyncio.to_thread(tables.clock_scan.resume_clocks, self._outage_slack_ms())
        tables.pipeline.start(self._loop)
        await self.runtime.hub.start(self._hub_notice)
        await self.personal.start()
        # Tables where a bot was about to move when the server stopped go on at once.
        for table_id in await asyncio.to_thread(tables.clock_scan.idle_bot_tables, 0):
            self.bots.schedule(table_id)
        self._tasks.append(asyncio.create_task(self._clock_loop()))
        self._tasks.append(asyncio.create_task(self._turn_email_loop()))
        self._tasks.append(asyncio.create_task(self.playnow.run(self.settings.playnow_seconds)))
        self._tasks.append(asyncio.create_task(self.tournaments.run()))
        self._tasks.append(asyncio.create_task(self.ender.run()))
        self._tasks.append(asyncio.create_task(self.reviews.run()))
        if isinstance(self.runtime.hub, RedisHub):
            self._tasks.append(asyncio.create_task(self.live.keep_presence()))

    async def _clock_loop(self) -> None:
        tick = self.settings.clock_tick_seconds
        idle_ms = int(max(5.0, 3 * self.settings.bot_seconds + self.settings.bot_delay_seconds) * 1000)
        loop = asyncio.get_running_loop()
        purged = loop.time()
        beat = 0.0
        scan = self.tables.clock_scan
        while True:
            await asyncio.sleep(tick)
            try:
                if loop.time() - beat >= HEARTBEAT_SECONDS:
                    beat = loop.time()
                    await asyncio.to_thread(scan.heartbeat)
                await asyncio.to_thread(scan.expire_clocks)
                for table_id in await asyncio.to_thread(scan.idle_bot_tables, idle_ms):
                    self.bots.schedule(table_id)
                if loop.time() - purged > 600:
                    purged = loop.time()
                    await asyncio.to_thread(self._purge_sessions)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("clock scan failed")

    async def _turn_email_loop(self) -> None:
        """The "your turn" email batches, every ``LUDOTECA_ALERT_SCAN_SECONDS``."""
        while True:
            await asyncio.sleep(self.settings.alert_scan_seconds)
            try:
                await asyncio.to_thread(self.email_alerts.scan)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("the turn email scan failed")

    def _outage_slack_ms(self) -> int:
        """A gap in the heartbeat longer than this is an outage (shorter ones are a busy
        machine, or a process restarted while another served)."""
        return int(max(3 * HEARTBEAT_SECONDS, 3 * self.settings.clock_tick_seconds) * 1000)

    def _purge_sessions(self) -> None:
        with self.runtime.transaction() as db:
            db.execute(delete(Session).where(Session.expires_at < now()))

    async def stop(self) -> None:
        await cancel_all(self._tasks)
        await self.live.close_all()
        self.tournament_sockets.close_all()
        await self.personal.stop()
        for part in (self.turn_alerts, self.email_alerts, self.push, self.mailer):
            part.stop()
        await self.runtime.hub.stop()
        self.bots.shutdown()
        self.reviews.shutdown()
        self.tables.pipeline.stop()
        self.runtime.guard.shutdown()
        self.runtime.engine.dispose()
