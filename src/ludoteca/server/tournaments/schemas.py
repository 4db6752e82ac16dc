"""What the tournaments' routes take and answer (server/tournaments/routes.py); the live
socket sends ``TournamentDetail`` too."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import Field

from ludoteca.bots.base import seatable_bot_names
from ludoteca.server.http.schemas import Answer, Strict

# -- bodies ----------------------------------------------------------------------------------


class TournamentSettings(Strict):
    name: str | None = Field(default=None, min_length=1, max_length=80)
    options: dict[str, bool | int | str] | None = Field(default=None, max_length=64)
    seats: int | None = Field(default=None, ge=2, le=6)
    min_seats: int | None = Field(default=None, ge=2, le=6)
    mode: Literal["realtime", "turn-based"] | None = None
    clock: dict[str, float] | None = Field(default=None, max_length=4)
    rounds: int | None = Field(default=None, ge=1, le=30, description="Swiss: the number of rounds.")
    minutes: int | None = Field(default=None, ge=1, le=1440, description="Arena: its window in minutes.")
    starts_at: datetime | None = Field(default=None, strict=False, description="ISO 8601; UTC if no offset is given.",
                                       json_schema_extra={"format": "date-time"})
    min_players: int | None = Field(default=None, ge=2, le=1000)
    max_players: int | None = Field(default=None, ge=2, le=1000)
    rated: bool | None = None
    private: bool | None = None
    bots: list[str] | None = Field(default=None, max_length=16,
                                   description="The bot levels the organiser may seat; empty: no bots.")
    points: list[float] | None = Field(default=None, min_length=2, max_length=6,
                                       description="Points by rank at a full table, first place first.")
    bye_points: float | None = Field(default=None, ge=0, le=1000)
    skipped_points: float | None = Field(default=None, ge=0, le=1000)
    avoid_repeats: bool | None = None
    advance: int | None = Field(default=None, ge=1, le=5, description="Elimination: how many of a table go on.")
    max_missed: int | None = Field(default=None, ge=1, le=100,
                                   description="Games a bot played for a player after which they are withdrawn.")


class NewTournament(TournamentSettings):
    game: str = Field(min_length=1, max_length=40)
    format: Literal["swiss", "elimination", "arena"] = "swiss"
    starts_at: datetime = Field(strict=False, description="ISO 8601; UTC if no offset is given.",  # type: ignore[assignment]
                                json_schema_extra={"format": "date-time"})


class JoinTournament(Strict):
    invite: str | None = Field(default=None, max_length=32)


class TournamentBot(Strict):
    bot: str = Field(default="random", max_length=40, json_schema_extra={"enum": list[Any](seatable_bot_names())})


# -- answers ---------------------------------------------------------------------------------


class TournamentSummary(Answer):
    id: str
    name: str
    game: str
    format: str
    seats: int
    min_seats: int
    status: Literal["upcoming", "running", "finished", "cancelled"]
    starts_at: str
    ends_at: str | None
    rounds: int
    round: int
    minutes: int | None
    players: int
    min_players: int
    max_players: int
    rated: bool
    private: bool
    organiser: str
    mode: str


class TournamentEntrant(Answer):
    id: int
    name: str
    bot: str | None
    rating: float
    withdrawn: bool
    missed: int


class StandingRow(Answer):
    rank: int
    player: int
    name: str
    points: float
    played: int
    byes: int
    skipped: int
    opponents_points: float
    opponents_average: float
    rating: float
    withdrawn: bool


class TournamentTable(Answer):
    table: str
    board: int
    players: list[int]
    names: list[str]
    status: str
    ranks: list[int] | None
    points: list[float] | None


class TournamentBye(Answer):
    player: int
    name: str
    points: float
    kind: str


class TournamentRoundOut(Answer):
    number: int
    tables: list[TournamentTable]
    byes: list[TournamentBye]


class PodiumPlace(Answer):
    player: int
    name: str


class TournamentDetail(TournamentSummary):
    options: dict[str, Any]
    clock: dict[str, Any]
    points: list[float] | None
    bye_points: float
    skipped_points: float
    avoid_repeats: bool
    advance: int
    max_missed: int
    bots: list[str]
    revision: int
    invite: str | None
    me: int | None
    is_organiser: bool
    entrants: list[TournamentEntrant]
    standings: list[StandingRow]
    rounds_played: list[TournamentRoundOut]
    podium: list[PodiumPlace]


class TournamentResult(Answer):
    id: str
    name: str
    game: str
    format: str
    rank: int | None
    players: int
    finished_at: str | None
