"""Alembic environment. The server passes its open connection in ``config.attributes``;
the ``alembic`` command line uses ``sqlalchemy.url`` (or LUDOTECA_DATABASE_URL)."""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine

from ludoteca.server.kernel.config import Settings
from ludoteca.server.kernel.db import driver_url
from ludoteca.server.kernel.models import Base

config = context.config
target_metadata = Base.metadata


def run() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        context.configure(connection=connection, target_metadata=target_metadata, render_as_batch=True)
        with context.begin_transaction():
            context.run_migrations()
        return
    url = config.get_main_option("sqlalchemy.url") or Settings.from_env().database_url
    engine = create_engine(driver_url(url))
    with engine.begin() as conn:
        context.configure(connection=conn, target_metadata=target_metadata, render_as_batch=True)
        with context.begin_transaction():
            context.run_migrations()


run()
