"""The ratings API: a player's rating history in one game and lifetime statistics
(server/ratings/history.py says what counts). Ratings are on the display scale
(``ludoteca.bots.ratings``: 60 x mu, 1500 at the start; ``provisional`` while sigma is
above 6), as everywhere else in the API."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Query
from pydantic import BaseModel

from ludoteca.server.http.routes import ERRORS, ServerDep, Username
from ludoteca.server.ratings import history as rating_history

router = APIRouter(prefix="/api", responses=ERRORS)
GameId = Annotated[str, Path(min_length=1, max_length=40)]



class RatingPoint(BaseModel):
    """One rated game: the rating after it (and before), and how it went."""

    table: str
    at: str
    rating: int
    provisional: bool
    rating_before: int
    change: int
    mu: float
    sigma: float
    rank: int
    seats: int
    players: int


class RatingHistory(BaseModel):
    username: str
    game: str
    rating: int | None
    provisional: bool
    played: int
    points: list[RatingPoint]


class GameStatistics(BaseModel):
    game: str
    games: int
    wins: int
    average_rank: float | None
    rated_games: int
    rating: int | None
    provisional: bool
    best_rating: int | None


class PlayerStatistics(BaseModel):
    username: str
    games: int
    wins: int
    average_rank: float | None
    rated_games: int
    by_game: list[GameStatistics]


@router.get("/players/{username}/ratings/{game}", tags=["players"], response_model=RatingHistory)
def rating_history_of(username: Username, game: GameId, server: ServerDep,
                      limit: Annotated[int, Query(ge=1, le=rating_history.HISTORY_MAX)] = rating_history.HISTORY_LIMIT,
                      ) -> dict[str, Any]:
    """A player's rated games in one game, oldest first (the latest ``limit``), with the
    rating after each on the display scale; 404 ``no_player`` or
    ``no_game``."""
    with server.sessions() as db:
        return rating_history.history(db, username, game, limit)


@router.get("/players/{username}/stats", tags=["players"], response_model=PlayerStatistics)
def statistics_of(username: Username, server: ServerDep) -> dict[str, Any]:
    """A player's lifetime statistics: finished public tables (rated or not), wins and
    average rank, in all and by game, with the rated games and the current and best
    established rating per game."""
    with server.sessions() as db:
        return rating_history.statistics(db, username)
