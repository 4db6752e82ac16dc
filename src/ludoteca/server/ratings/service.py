"""The ratings as the API reads them: a game's leaderboard (ladder.py), a player's
rating history in one game and lifetime statistics (history.py), each in one read."""

from __future__ import annotations

from typing import Any

from ludoteca.server.kernel.runtime import Runtime
from ludoteca.server.ratings import history
from ludoteca.server.ratings.ladder import leaderboard


class Ratings:
    def __init__(self, runtime: Runtime) -> None:
        self.runtime = runtime

    def leaderboard(self, game: str, limit: int = 50) -> list[dict[str, Any]]:
        with self.runtime.sessions() as db:
            return leaderboard(db, game, limit)

    def history(self, username: str, game: str, limit: int = history.HISTORY_LIMIT) -> dict[str, Any]:
        with self.runtime.sessions() as db:
            return history.history(db, username, game, limit)

    def statistics(self, username: str) -> dict[str, Any]:
        with self.runtime.sessions() as db:
            return history.statistics(db, username)
