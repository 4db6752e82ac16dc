"""The ratings API: a game's leaderboard, a player's rating history in one game and
lifetime statistics (server/ratings/history.py says what counts). Ratings are on the
display scale, as everywhere else in the API (server/ratings/schemas.py)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Query

from ludoteca.server.http.deps import ERRORS, Username, provided
from ludoteca.server.ratings.history import HISTORY_LIMIT, HISTORY_MAX
from ludoteca.server.ratings.schemas import LeaderboardRow, PlayerStatistics, RatingHistory
from ludoteca.server.ratings.service import Ratings

router = APIRouter(prefix="/api", responses=ERRORS)
RatingsDep = Annotated[Ratings, Depends(provided(Ratings))]
GameId = Annotated[str, Path(min_length=1, max_length=40)]


@router.get("/games/{game}/leaderboard", tags=["players"], response_model=list[LeaderboardRow])
def game_leaderboard(game: str, ratings: RatingsDep, limit: Annotated[int, Query(ge=1, le=500)] = 50,
                     ) -> list[dict[str, Any]]:
    return ratings.leaderboard(game, limit)


@router.get("/players/{username}/ratings/{game}", tags=["players"], response_model=RatingHistory)
def rating_history_of(username: Username, game: GameId, ratings: RatingsDep,
                      limit: Annotated[int, Query(ge=1, le=HISTORY_MAX)] = HISTORY_LIMIT) -> dict[str, Any]:
    """A player's rated games in one game, oldest first (the latest ``limit``), with the
    rating after each on the display scale; 404 ``no_player`` or
    ``no_game``."""
    return ratings.history(username, game, limit)


@router.get("/players/{username}/stats", tags=["players"], response_model=PlayerStatistics)
def statistics_of(username: Username, ratings: RatingsDep) -> dict[str, Any]:
    """A player's lifetime statistics: finished public tables (rated or not), wins and
    average rank, in all and by game, with the rated games and the current and best
    established rating per game."""
    return ratings.statistics(username)
