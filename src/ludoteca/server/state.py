"""The running server's parts, shared by every route: settings, database, match cache,
engine guard, hub, bots, clocks and live connections."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from collections.abc import Iterator
from typing import Any

from sqlalchemy import Connection, delete, event
from sqlalchemy.orm import Session as OrmSession
from sqlalchemy.orm import sessionmaker

from .auth import LoginLimiter, Passwords
from .bots import BotRunner
from .config import Settings
from .db import make_engine, make_sessionmaker, migrate, now, server_secret
from .hub import LocalHub, RedisHub
from .live import Live
from .matches import EngineGuard, MatchCache
from .models import Session
from .tables import Tables

log = logging.getLogger("ludoteca.server")


class Server:
    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.engine = make_engine(settings)
        self.sqlite = self.engine.dialect.name == "sqlite"
        if self.sqlite:
            self._sqlite_transactions()
        migrate(self.engine)
        # PostgreSQL reads run in autocommit: READ COMMITTED gives no snapshot across
        # statements anyway, and this saves a BEGIN and a ROLLBACK round trip per read.
        reader = self.engine if self.sqlite else self.engine.execution_options(isolation_level="AUTOCOMMIT")
        self.sessions: sessionmaker[OrmSession] = make_sessionmaker(reader)
        self._write_engine = self.engine.execution_options(immediate=True)
        self._writer = make_sessionmaker(self._write_engine)
        # SQLite has one writer at a time; threads queue here rather than in SQLite's
        # busy handler, which sleeps in coarse steps.
        self._write_lock: Any = threading.Lock() if self.sqlite else contextlib.nullcontext()
        self.secret = server_secret(self.sessions, settings)
        self.passwords = Passwords(settings.password_time_cost, settings.password_memory_kib)
        self.guard = EngineGuard(settings.engine_seconds)
        self.cache = MatchCache(self.guard)
        self.hub: LocalHub | RedisHub = (RedisHub(settings.redis_url, settings.redis_prefix) if settings.redis_url
                                         else LocalHub())
        self.limiter = LoginLimiter(settings.login_attempts_per_minute,
                                    self.hub.sync if isinstance(self.hub, RedisHub) else None, settings.redis_prefix)
        self.tables = Tables(self)
        self.bots = BotRunner(self)
        self.live = Live(self)
        self._tasks: list[asyncio.Task[Any]] = []

    def _sqlite_transactions(self) -> None:
        """Write transactions on SQLite begin IMMEDIATE: a deferred one that reads, then
        writes after another connection committed, fails at once instead of waiting."""

        @event.listens_for(self.engine, "connect")
        def _autocommit(dbapi_connection: Any, _record: Any) -> None:
            dbapi_connection.isolation_level = None

        @event.listens_for(self.engine, "begin")
        def _begin(connection: Any) -> None:
            immediate = connection.get_execution_options().get("immediate")
            connection.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")

    @contextlib.contextmanager
    def writing(self) -> Iterator[OrmSession]:
        """A session for one write transaction; the caller commits."""
        with self._write_lock, self._writer() as db:
            yield db

    @contextlib.contextmanager
    def write_connection(self) -> Iterator[Connection]:
        """A plain connection in one write transaction, committed on success: the move
        path's few statements do not need an ORM session, which costs more than they do."""
        with self._write_lock, self._write_engine.begin() as connection:
            yield connection

    @contextlib.contextmanager
    def transaction(self) -> Iterator[OrmSession]:
        """A write transaction committed on success, rolled back on error."""
        with self.writing() as db, db.begin():
            yield db

    # -- notices ----------------------------------------------------------------------

    def changed(self, table_id: str, version: int, bots: bool = True) -> None:
        """After a committed move or undo: tell every process, and let bots play (if
        the table has any: the clock scan catches seats that turned zombie meanwhile)."""
        self.hub.publish({"kind": "changed", "table": table_id, "version": version})
        if bots:
            self.bots.schedule(table_id)

    def lobby_changed(self, table_id: str) -> None:
        """Seats, status or clocks changed without a move."""
        self.hub.publish({"kind": "table", "table": table_id})

    # -- life cycle -------------------------------------------------------------------

    async def start(self) -> None:
        self.bots.loop = asyncio.get_running_loop()
        await self.hub.start(self.live.on_message)
        # Tables where a bot was about to move when the server stopped go on at once.
        for table_id in await asyncio.to_thread(self.tables.idle_bot_tables, 0):
            self.bots.schedule(table_id)
        self._tasks.append(asyncio.create_task(self._clock_loop()))
        if isinstance(self.hub, RedisHub):
            self._tasks.append(asyncio.create_task(self.live.keep_presence()))

    async def _clock_loop(self) -> None:
        tick = self.settings.clock_tick_seconds
        idle_ms = int(max(5.0, 3 * self.settings.bot_seconds + self.settings.bot_delay_seconds) * 1000)
        loop = asyncio.get_running_loop()
        purged = loop.time()
        while True:
            await asyncio.sleep(tick)
            try:
                await asyncio.to_thread(self.tables.expire_clocks)
                for table_id in await asyncio.to_thread(self.tables.idle_bot_tables, idle_ms):
                    self.bots.schedule(table_id)
                if loop.time() - purged > 600:
                    purged = loop.time()
                    await asyncio.to_thread(self._purge_sessions)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("clock scan failed")

    def _purge_sessions(self) -> None:
        with self.transaction() as db:
            db.execute(delete(Session).where(Session.expires_at < now()))

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(BaseException):
                await task
        await self.live.close_all()
        await self.hub.stop()
        self.bots.shutdown()
        self.guard.shutdown()
        self.engine.dispose()
