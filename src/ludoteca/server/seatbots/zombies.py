"""Which bot plays a person's seat while they are away (they left, ran out of time,
resigned, were banned): the seat's "zombie" level.

The table's option (``zombie_level`` at creation) wins; else the level whose measured
rating in the game is nearest the player's (``ludoteca.bots.ratings.zombie_level``);
a player with no rating in the game gets ``DEFAULT_ZOMBIE_LEVEL``. The level is chosen
once per seat, the first time a bot plays it, and stored (``ZombieChoice``): the same
bot plays that seat for the rest of the game, in every server process, whatever the
player's rating does meanwhile. docs/bots.md, "Bots in people's seats".
"""

from __future__ import annotations

import threading

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from ludoteca.bots.ratings import DEFAULT_ZOMBIE_LEVEL, zombie_level
from ludoteca.server.kernel.clock import now
from ludoteca.server.kernel.models import Rating, User, ZombieChoice
from ludoteca.server.kernel.runtime import Runtime
from ludoteca.server.tables.zombie_option import known_levels, option_of

__all__ = ["DEFAULT_ZOMBIE_LEVEL", "ZombieLevels", "choose"]

CACHED = 4096
"""Choices kept in memory per process (they never change): past it, the cache restarts."""


def choose(game_id: str, option: str | None, mu: float | None) -> tuple[str, str]:
    """(level, basis) for a seat: the table's option, else the nearest measured level to
    the player's ``mu`` in the game, else the default. Pure. An option this server no
    longer offers (a level renamed since the table was made) is passed over."""
    if option is not None and option in known_levels():
        return option, "table"
    if mu is None:
        return DEFAULT_ZOMBIE_LEVEL, "default"
    return zombie_level(game_id, mu), "rating"


class ZombieLevels:
    """The bot level of each person's seat that a bot plays, chosen once and stored."""

    def __init__(self, runtime: Runtime) -> None:
        self.runtime = runtime
        self._lock = threading.Lock()
        self._known: dict[tuple[str, int], str] = {}

    def level(self, table_id: str, game_id: str, seat: int, user_id: int | None) -> str:
        key = (table_id, seat)
        with self._lock:
            known = self._known.get(key)
        if known is not None:
            return known
        with self.runtime.sessions() as db:
            stored = db.get(ZombieChoice, key)
            if stored is None:
                mu = None
                if user_id is not None and not db.scalar(select(User.guest).where(User.id == user_id)):
                    mu = db.scalar(select(Rating.mu).where(Rating.user_id == user_id, Rating.game == game_id))
                level, basis = choose(game_id, option_of(db, table_id), mu)
            else:
                # A stored level this server no longer offers: the default plays instead.
                level = stored.level if stored.level in known_levels() else DEFAULT_ZOMBIE_LEVEL
        if stored is None:
            try:
                with self.runtime.transaction() as db:
                    db.add(ZombieChoice(table_id=table_id, seat=seat, level=level, basis=basis, mu=mu,
                                        chosen_at=now()))
            except IntegrityError:
                # Another process chose first (the same way): its choice stands.
                with self.runtime.sessions() as db:
                    row = db.get(ZombieChoice, key)
                    if row is not None:
                        level = row.level
        with self._lock:
            if len(self._known) >= CACHED:
                self._known.clear()
            self._known[key] = level
        return level

    def stored(self, table_id: str) -> dict[int, str]:
        """The levels chosen at a table so far, by seat."""
        with self.runtime.sessions() as db:
            return {row.seat: row.level for row in db.scalars(select(ZombieChoice)
                                                               .where(ZombieChoice.table_id == table_id))}
