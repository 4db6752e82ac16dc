"""A player's profile: games played, ratings, latest finished tables."""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, select

from .. import ratings
from ..errors import not_found
from ..models import GameTable, TableSeat, User
from .base import TablesBase

RECENT = 20
"""How many finished tables a profile lists."""


class Profiles(TablesBase):
    def profile(self, username: str) -> dict[str, Any]:
        with self.server.sessions() as db:
            user = db.scalar(select(User).where(User.username == username))
            if user is None:
                raise not_found("player")
            played = db.execute(select(GameTable.game, func.count()).join(TableSeat, TableSeat.table_id == GameTable.id)
                                .where(TableSeat.user_id == user.id, GameTable.status == "over")
                                .group_by(GameTable.game)).all()
            from ..models import Rating

            rows = db.scalars(select(Rating).where(Rating.user_id == user.id)).all()
            # The latest finished public tables, with the best rank among the player's seats.
            finished = db.execute(
                select(GameTable.id, GameTable.game, GameTable.result, GameTable.finished_at, TableSeat.seat)
                .join(TableSeat, TableSeat.table_id == GameTable.id)
                .where(TableSeat.user_id == user.id, GameTable.status == "over", GameTable.private.is_(False))
                .order_by(GameTable.finished_at.desc(), GameTable.id).limit(3 * RECENT)).all()
        recent: dict[str, dict[str, Any]] = {}
        for table_id, game, result, finished_at, seat in finished:
            ranks = (result or {}).get("ranks") or []
            rank = ranks[seat] if 0 <= seat < len(ranks) else None
            entry = recent.setdefault(table_id, {"id": table_id, "game": game, "rank": rank,
                                                 "finished_at": finished_at.isoformat() + "Z" if finished_at else None})
            if rank is not None and (entry["rank"] is None or rank < entry["rank"]):
                entry["rank"] = rank
        return {"username": user.username, "guest": user.guest, "joined": user.created_at.isoformat() + "Z",
                "games_played": sum(n for _, n in played), "played_by_game": {g: n for g, n in played},
                "ratings": {r.game: {"rating": round(ratings.ordinal(r.mu, r.sigma), 2), "mu": round(r.mu, 3),
                                     "sigma": round(r.sigma, 3), "played": r.played} for r in rows},
                "recent": list(recent.values())[:RECENT]}

