"""A table's ``zombie_level`` option: which bot level plays a person's seat while they
are away, named by the table's creator (none: the seat bots choose by the player's
rating, server/seatbots/zombies.py). Kept with the table, copied by a rematch."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session as OrmSession

from ludoteca.bots.levels import level_names
from ludoteca.server.kernel.errors import ApiError
from ludoteca.server.kernel.models import ZombieOption


def known_levels() -> list[str]:
    """The levels a table may name: the random bot and the levels offered to players."""
    return ["random", *level_names()]


def check_level(level: str | None) -> None:
    """A table's ``zombie_level``: None (by rating) or a known level; else 422."""
    if level is not None and level not in known_levels():
        raise ApiError(422, "unknown_level", f"no bot level {level[:40]!r}: one of {', '.join(known_levels())}")


def keep_option(db: OrmSession, table_id: str, level: str | None) -> None:
    """Store a new table's ``zombie_level`` (in the transaction that creates it)."""
    if level is not None:
        db.add(ZombieOption(table_id=table_id, level=level))


def copy_option(db: OrmSession, old_id: str, new_id: str) -> None:
    """A rematch keeps its table's option."""
    level = db.scalar(select(ZombieOption.level).where(ZombieOption.table_id == old_id))
    keep_option(db, new_id, level)


def option_of(db: OrmSession, table_id: str) -> str | None:
    return db.scalar(select(ZombieOption.level).where(ZombieOption.table_id == table_id))
