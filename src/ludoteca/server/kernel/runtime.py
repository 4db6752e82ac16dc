"""The server's runtime: settings, the database (its read sessions and its write
transactions) and the hub. Every service is built on it; the tables add their own parts
(tables/runtime.py)."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from typing import Any

from sqlalchemy import Connection, event
from sqlalchemy.orm import Session as OrmSession
from sqlalchemy.orm import sessionmaker

from ludoteca.server.kernel.config import Settings
from ludoteca.server.kernel.db import make_engine, make_sessionmaker, migrate, server_secret
from ludoteca.server.kernel.hub import LocalHub, RedisHub


class Runtime:
    """What every service shares: settings, the database and the hub."""

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
            # On the driver's connection: through exec_driver_sql, SQLAlchemy's statement
            # machinery for this one statement cost 4% of the instructions of a move
            # written alone (a group shares it).
            immediate = connection.get_execution_options().get("immediate")
            connection.connection.driver_connection.execute("BEGIN IMMEDIATE" if immediate else "BEGIN")

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
