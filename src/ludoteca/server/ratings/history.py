"""A player's rating history per game and lifetime statistics, read from what the
server stores: the rating history (``RatingChange``, one row per player per rated game,
written by ratings.rate_ending) and the finished tables themselves.

What counts in the statistics (docs/web.md, "Profile"): every finished public table
the player sat at, rated or not, with bots or without; not private tables (a profile is
public, as ratings are), not aborted ones (no result), not games in play. A person in
several seats of one table counts once, with their best rank; a win is rank 1 (a shared
first place is a win for each).
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session as OrmSession

from ludoteca.bots.ratings import display_rating, is_provisional, shown
from ludoteca.games import available
from ludoteca.server.kernel.clock import iso
from ludoteca.server.kernel.errors import ApiError, not_found
from ludoteca.server.kernel.models import GameTable, Rating, RatingChange, TableSeat, User

HISTORY_LIMIT = 200
"""Points a history answer carries unless asked for fewer or more (the latest ones)."""
HISTORY_MAX = 1000
STATS_MAX_TABLES = 100_000
"""Finished tables read for one player's statistics at most (the latest): a bound on
one request's work, far above what a person plays."""


def _user(db: OrmSession, username: str) -> User:
    user = db.scalar(select(User).where(User.username == username))
    if user is None:
        raise not_found("player")
    return user


def history(db: OrmSession, username: str, game: str, limit: int = HISTORY_LIMIT) -> dict[str, Any]:
    """The latest ``limit`` rated games of ``username`` in ``game``, oldest first, each
    with the rating before and after on the display scale."""
    if game not in available():
        raise ApiError(404, "no_game", f"no game {game[:40]!r} on this server")
    user = _user(db, username)
    rows = list(db.scalars(select(RatingChange).where(RatingChange.user_id == user.id, RatingChange.game == game)
                           .order_by(RatingChange.id.desc()).limit(max(1, min(limit, HISTORY_MAX)))))
    rows.reverse()
    current = db.get(Rating, (user.id, game))
    return {
        "username": user.username, "game": game,
        **(shown(current.mu, current.sigma) if current else {"rating": None, "provisional": True}),
        "played": current.played if current else 0,
        "points": [{"table": r.table_id, "at": iso(r.at), **shown(r.mu, r.sigma),
                    "rating_before": display_rating(r.mu_before),
                    "change": display_rating(r.mu) - display_rating(r.mu_before),
                    "mu": round(r.mu, 3), "sigma": round(r.sigma, 3), "rank": r.rank, "seats": r.seats,
                    "players": r.players} for r in rows],
    }


def _tally() -> dict[str, Any]:
    return {"games": 0, "wins": 0, "rank_sum": 0}


def _averaged(tally: dict[str, Any]) -> dict[str, Any]:
    games = tally["games"]
    return {"games": games, "wins": tally["wins"],
            "average_rank": round(tally["rank_sum"] / games, 2) if games else None}


def statistics(db: OrmSession, username: str) -> dict[str, Any]:
    """Lifetime statistics of ``username``: games, wins, average rank, in all and by
    game, with the rated games, current and best rating per game."""
    user = _user(db, username)
    rows = db.execute(
        select(GameTable.id, GameTable.game, GameTable.result["ranks"], TableSeat.seat)
        .join(TableSeat, TableSeat.table_id == GameTable.id)
        .where(TableSeat.user_id == user.id, GameTable.status == "over", GameTable.private.is_(False))
        .order_by(GameTable.finished_at.desc()).limit(STATS_MAX_TABLES)).all()
    best: dict[str, tuple[str, int]] = {}  # table -> (game, best rank among the player's seats)
    for table_id, game, ranks, seat in rows:
        if not isinstance(ranks, list) or not 0 <= seat < len(ranks) or not isinstance(ranks[seat], int):
            continue
        earlier = best.get(table_id)
        if earlier is None or ranks[seat] < earlier[1]:
            best[table_id] = (game, ranks[seat])
    total = _tally()
    by_game: dict[str, dict[str, Any]] = defaultdict(_tally)
    for game, rank in best.values():
        for tally in (total, by_game[game]):
            tally["games"] += 1
            tally["wins"] += rank == 1
            tally["rank_sum"] += rank
    rated: dict[str, dict[str, Any]] = {}
    for game, mu, sigma in db.execute(select(RatingChange.game, RatingChange.mu, RatingChange.sigma)
                                      .where(RatingChange.user_id == user.id)):
        entry = rated.setdefault(game, {"rated_games": 0, "best_rating": None})
        entry["rated_games"] += 1
        # The peak, as lichess shows it: established ratings only.
        if not is_provisional(sigma) and (entry["best_rating"] is None or display_rating(mu) > entry["best_rating"]):
            entry["best_rating"] = display_rating(mu)
    current = {r.game: r for r in db.scalars(select(Rating).where(Rating.user_id == user.id))}
    games = sorted(set(by_game) | set(rated) | set(current))
    return {
        "username": user.username, **_averaged(total),
        "rated_games": sum(entry["rated_games"] for entry in rated.values()),
        "by_game": [{"game": game, **_averaged(by_game.get(game) or _tally()),
                     "rated_games": rated.get(game, {}).get("rated_games", 0),
                     **(shown(current[game].mu, current[game].sigma) if game in current
                        else {"rating": None, "provisional": True}),
                     "best_rating": rated.get(game, {}).get("best_rating")} for game in games],
    }
