"""A player's profile: games played, ratings, latest finished tables."""

from __future__ import annotations

from typing import Any

from ludoteca.bots.ratings import shown
from ludoteca.server.kernel.clock import iso, iso_or_none
from ludoteca.server.kernel.errors import not_found
from ludoteca.server.kernel.runtime import Runtime
from ludoteca.server.tables.store import TableStatements

RECENT = 20
"""How many finished tables a profile lists."""


class Profiles:
    def __init__(self, runtime: Runtime, store: TableStatements) -> None:
        self.runtime, self.store = runtime, store

    def profile(self, username: str) -> dict[str, Any]:
        store = self.store
        with self.runtime.sessions() as db:
            user = store.user(db, username)
            if user is None:
                raise not_found("player")
            played = store.played_by_game(db, user.id)
            rows = store.ratings_of(db, user.id)
            # The latest finished public tables, with the best rank among the player's seats.
            finished = store.finished_seats(db, user.id, 3 * RECENT)
        recent: dict[str, dict[str, Any]] = {}
        for table_id, game, result, finished_at, seat in finished:
            ranks = (result or {}).get("ranks") or []
            rank = ranks[seat] if 0 <= seat < len(ranks) else None
            entry = recent.setdefault(table_id, {"id": table_id, "game": game, "rank": rank,
                                                 "finished_at": iso_or_none(finished_at)})
            if rank is not None and (entry["rank"] is None or rank < entry["rank"]):
                entry["rank"] = rank
        return {"username": user.username, "guest": user.guest, "joined": iso(user.created_at),
                "games_played": sum(n for _, n in played), "played_by_game": {g: n for g, n in played},
                "ratings": {r.game: {**shown(r.mu, r.sigma), "mu": round(r.mu, 3),
                                     "sigma": round(r.sigma, 3), "played": r.played} for r in rows},
                "recent": list(recent.values())[:RECENT]}
