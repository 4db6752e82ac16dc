"""The server's shared core: settings, database, match cache, engine guard and hub. The
table services, bots, live connections and auth are built on it and receive it; none of
them imports the others' modules through it, so the server package has no import circle.

Two late-bound parts (``live`` for presence, ``bots`` for scheduling) are only named here
by what the table services need of them; ``state.Server`` sets them."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from typing import Any, Protocol

from sqlalchemy import Connection, event
from sqlalchemy.orm import Session as OrmSession
from sqlalchemy.orm import sessionmaker

from .config import Settings
from .db import make_engine, make_sessionmaker, migrate, server_secret
from .hub import LocalHub, RedisHub
from .matches import EngineGuard, MatchCache


class Presence(Protocol):
    process: str
    """This process's name among those sharing the hub."""

    def present(self, table_id: str) -> tuple[int | None, ...]:
        """The user of every socket open to the table, in every process."""
        ...

    def prepare(self, table_id: str, version: int) -> Any:
        """In a worker thread, after a move's commit: the updates of this process's
        clients of the table, encoded; ``deliver`` sends them on the event loop."""
        ...

    def deliver(self, prepared: Any) -> None:
        ...


class BotScheduler(Protocol):
    def schedule(self, table_id: str) -> None:
        """Let the bots of ``table_id`` play if one must decide."""
        ...


class Core:
    live: Presence
    bots: BotScheduler

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
        self.guard = EngineGuard(settings.engine_seconds)
        self.cache = MatchCache(self.guard)
        self.hub: LocalHub | RedisHub = (RedisHub(settings.redis_url, settings.redis_prefix) if settings.redis_url
                                         else LocalHub())

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

    def changed(self, table_id: str, version: int, bots: bool = True, origin: str | None = None) -> None:
        """After a committed move or undo: tell every process, and let bots play (if
        the table has any: the clock scan catches seats that turned zombie meanwhile).
        ``origin``: this process (named so) updates its own clients itself; only the
        others need the notice."""
        if origin is None:
            self.hub.publish({"kind": "changed", "table": table_id, "version": version})
        elif self.hub.name != "local":
            self.hub.publish({"kind": "changed", "table": table_id, "version": version, "origin": origin})
        if bots:
            self.bots.schedule(table_id)

    def lobby_changed(self, table_id: str) -> None:
        """Seats, status or clocks changed without a move."""
        self.hub.publish({"kind": "table", "table": table_id})
