"""What the ratings' routes answer (server/ratings/routes.py). Ratings are on the
display scale (``ludoteca.bots.ratings``: 60 x mu, 1500 at the start; ``provisional``
while sigma is above 6); ``mu`` and ``sigma`` are openskill's, rounded."""

from __future__ import annotations

from ludoteca.server.http.schemas import Answer


class LeaderboardRow(Answer):
    rank: int
    username: str
    rating: int
    provisional: bool
    mu: float
    sigma: float
    played: int


class RatingPoint(Answer):
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


class RatingHistory(Answer):
    username: str
    game: str
    rating: int | None
    provisional: bool
    played: int
    points: list[RatingPoint]


class GameStatistics(Answer):
    game: str
    games: int
    wins: int
    average_rank: float | None
    rated_games: int
    rating: int | None
    provisional: bool
    best_rating: int | None


class PlayerStatistics(Answer):
    username: str
    games: int
    wins: int
    average_rank: float | None
    rated_games: int
    by_game: list[GameStatistics]
