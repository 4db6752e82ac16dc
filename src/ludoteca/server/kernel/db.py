"""Database engines, sessions and migrations (applied automatically at start-up)."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import Engine, create_engine, event, select, text
from sqlalchemy.orm import Session as OrmSession
from sqlalchemy.orm import sessionmaker

from ludoteca.server.kernel.config import Settings
from ludoteca.server.kernel.models import Meta

MIGRATIONS = Path(__file__).parent.parent / "migrations"


def driver_url(url: str) -> str:
    """The URL with the driver we ship: psycopg 3 for PostgreSQL (SQLAlchemy's bare
    scheme means psycopg2, which is not installed)."""
    if url.startswith("postgresql://"):
        return "postgresql+psycopg://" + url[len("postgresql://"):]
    return url


def make_engine(settings: Settings) -> Engine:
    url = driver_url(settings.database_url)
    kwargs: dict[str, Any] = {"future": True}
    if url.startswith("sqlite"):
        kwargs["connect_args"] = {"check_same_thread": False, "timeout": 30}
    else:
        # No pre-ping: it would cost a round trip on every checkout, several per move;
        # a dropped connection fails one request and the pool replaces it.
        kwargs.update(pool_size=20, max_overflow=20, pool_recycle=1800)
    engine = create_engine(url, **kwargs)
    if url.startswith("sqlite"):
        synchronous = settings.sqlite_synchronous

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
            # WAL lets readers proceed while one writer commits; a commit survives a crash
            # of the process (kill -9) with synchronous=NORMAL, and a power loss with FULL.
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute(f"PRAGMA synchronous={synchronous}")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.execute("PRAGMA busy_timeout=30000")
            cursor.close()

    return engine


def make_sessionmaker(engine: Engine) -> sessionmaker[OrmSession]:
    return sessionmaker(engine, expire_on_commit=False)


@contextmanager
def transaction(factory: sessionmaker[OrmSession]) -> Iterator[OrmSession]:
    with factory() as db, db.begin():
        yield db


def alembic_config(engine: Engine | None = None) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    if engine is not None:
        config.set_main_option("sqlalchemy.url", engine.url.render_as_string(hide_password=False).replace("%", "%%"))
    return config


def migrate(engine: Engine) -> None:
    """Bring the schema to the newest revision. Several processes may start at once on
    PostgreSQL, so they take turns under an advisory lock."""
    config = alembic_config(engine)
    with engine.begin() as connection:
        if engine.dialect.name == "postgresql":
            connection.execute(text("SELECT pg_advisory_xact_lock(7171717)"))
        config.attributes["connection"] = connection
        command.upgrade(config, "head")


def server_secret(factory: sessionmaker[OrmSession], settings: Settings) -> str:
    """The configured secret, else the one kept in the database (created once)."""
    if settings.secret:
        return settings.secret
    with transaction(factory) as db:
        row = db.get(Meta, "secret")
        if row is not None:
            return row.value
    try:
        with transaction(factory) as db:
            db.add(Meta(key="secret", value=secrets.token_hex(32)))
    except Exception:
        pass  # another process created it first
    with factory() as db:
        value = db.scalar(select(Meta.value).where(Meta.key == "secret"))
        assert value is not None
        return value
