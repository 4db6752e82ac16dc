"""The migrations as a host runs them: the `alembic` command line of docs/ops.md, on the
embedded SQLite and on PostgreSQL given by its plain postgresql:// URL."""

from __future__ import annotations

from pathlib import Path

import pytest
import sqlalchemy as sa

from ludoteca.server.kernel.db import driver_url
from tests.server.helpers import alembic


def table_columns(url: str) -> set[str]:
    engine = sa.create_engine(driver_url(url))
    with engine.connect() as conn:
        columns = {c["name"] for c in sa.inspect(conn).get_columns("tables")}
    engine.dispose()
    return columns


def check_upgraded(url: str) -> None:
    alembic(url, "upgrade", "head")
    assert "(head)" in alembic(url, "current")
    assert {"revision", "rematch_id"} <= table_columns(url)  # the latest migrations ran
    # The newest migration steps back and forth (0003: the rematch column).
    alembic(url, "downgrade", "0002")
    assert "rematch_id" not in table_columns(url) and "revision" in table_columns(url)
    alembic(url, "upgrade", "head")
    assert "rematch_id" in table_columns(url)


def test_alembic_upgrades_an_empty_sqlite_file(tmp_path: Path) -> None:
    check_upgraded(f"sqlite:///{tmp_path / 'host.db'}")


@pytest.mark.postgres
def test_alembic_upgrades_postgres_from_a_plain_url(pg_url: str) -> None:
    assert pg_url.startswith("postgresql://")  # the driver is chosen by driver_url, as in the app
    check_upgraded(pg_url)


def models_and_migrations_agree(url: str) -> None:
    """Every column the models add has its migration (0003: the rematch) and nothing more."""
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    from ludoteca.server.kernel.db import migrate
    from ludoteca.server.kernel.models import Base

    engine = sa.create_engine(driver_url(url))
    migrate(engine)
    with engine.connect() as connection:
        differences = compare_metadata(MigrationContext.configure(connection), Base.metadata)
    engine.dispose()
    assert differences == []


def test_the_migrations_build_the_schema_the_models_describe(tmp_path: Path) -> None:
    models_and_migrations_agree(f"sqlite:///{tmp_path / 'm.db'}")


@pytest.mark.postgres
def test_the_migrations_build_the_schema_the_models_describe_on_postgres(pg_url: str) -> None:
    models_and_migrations_agree(pg_url)
