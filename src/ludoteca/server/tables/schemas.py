"""What the tables' routes take and answer (server/tables/routes.py, games.py): the
bodies, checked before anything runs, and the answers as the table services build them.
A table as every reader sees it is ``Table``; what a seat sees of its match is in the
snapshot."""

from __future__ import annotations

from typing import Annotated, Any, Literal

import pydantic
from pydantic import MISSING, Field

from ludoteca.bots.base import seatable_bot_names
from ludoteca.bots.levels import level_names
from ludoteca.server.http.schemas import Answer, Strict
from ludoteca.server.kernel.bounds import MAX_INT

Number = int | float
"""A score or tie-break value, sent as the game gave it (the games give integers)."""
Mode = Literal["realtime", "turn-based"]
PlayedMove = Annotated[tuple[int, dict[str, Any]], pydantic.Strict(False)]
"""A record's move, ``[seat, move]``: a JSON list fills the pair (not strict there)."""

# -- bodies ----------------------------------------------------------------------------------


class NewTable(Strict):
    game: str = Field(max_length=40)
    seats: int | None = Field(default=None, ge=1, le=16)
    options: dict[str, bool | int | str] = Field(default_factory=dict, max_length=64)
    mode: Mode = "realtime"
    clock: dict[str, float] | None = Field(default=None, max_length=4)
    rated: bool = False
    private: bool = False
    record_public: bool = False
    zombie_level: str | None = Field(
        default=None, max_length=40, json_schema_extra={"enum": ["random", *level_names(), None]},
        description="The bot level that plays a seat whose player left or ran out of time; "
                    "by default the level nearest that player's rating in the game (docs/bots.md).")


class Join(Strict):
    seat: int | None = Field(default=None, ge=0, le=16)


class AddBot(Strict):
    seat: int | None = Field(default=None, ge=0, le=16)
    bot: str = Field(default="random", max_length=40, json_schema_extra={"enum": list[Any](seatable_bot_names())})


class Kick(Strict):
    seat: int = Field(ge=0, le=16)


class MoveIn(Strict):
    version: int = Field(ge=0, le=MAX_INT)
    move: dict[str, Any]
    id: str | None = Field(default=None, min_length=1, max_length=64)
    seat: int | None = Field(default=None, ge=0, le=16, description="Only for a player with several seats.")


class UndoIn(Strict):
    version: int = Field(ge=0, le=MAX_INT)
    seat: int | None = Field(default=None, ge=0, le=16)


class ChatIn(Strict):
    text: str = Field(min_length=1, max_length=500)


# -- a table -----------------------------------------------------------------------------------


class Result(Answer):
    """A finished game's result: ranks 1 first, ties shared; resigners ranked last."""

    scores: list[Number]
    ranks: list[int]
    winners: list[int]
    tiebreak: list[list[Number]]
    breakdown: list[dict[str, Any]]
    ended: Literal["resigned"] | MISSING = MISSING
    """Only when the game ended because one seat was left standing (no final scoring)."""
    resigned: list[int] | MISSING = MISSING
    """The seats that resigned, first to resign first."""


class Player(Answer):
    seat: int
    username: str | None
    bot: str | None
    zombie: bool
    connected: bool
    timed_out: int | None = Field(description="The moves played when this seat's time last ran out.")


class Table(Answer):
    """A table as the lobby and every reader see it."""

    id: str
    game: str
    seats: int
    options: dict[str, Any]
    mode: Mode
    clock: dict[str, Any]
    rated: bool
    private: bool
    record_public: bool
    status: Literal["open", "playing", "over", "aborted", "suspended"]
    version: int
    moves: int
    pending: list[int]
    players: list[Player]
    result: Result | None
    creator: str | None
    rematch: str | None
    resigned: list[int]
    spectators: int
    created_at: str


class Resigned(Answer):
    table: Table
    seat: int
    over: bool


# -- what a seat sees of its match ---------------------------------------------------------------


class Event(Answer):
    """A log line; ``to``: the one seat that may read it, or null for everyone."""

    key: str
    args: dict[str, Any]
    to: int | None


class LoggedEvent(Answer):
    """A log line with the number of the move that made it (0: the setup)."""

    number: int
    key: str
    args: dict[str, Any]
    to: int | None


class Prompt(Answer):
    key: str
    args: dict[str, Any]


class Decision(Answer):
    """What the reader's seat is asked to decide now."""

    seat: int
    prompt: Prompt


class SeatClock(Answer):
    """A seat's time: at a realtime table its bank (``remaining_ms``), at a turn-based one
    its deadline (``deadline_ms``, null while its clock is not running)."""

    seat: int
    running: bool
    remaining_ms: int | MISSING = MISSING
    deadline_ms: int | MISSING | None = MISSING


class Clocks(Answer):
    mode: Mode
    now_ms: int
    seats: list[SeatClock]


class Snapshot(Answer):
    """The table and what the reader's seat (null: a spectator's) sees. Before the start,
    only who sits where; from the start, the view, the legal moves, the events since
    ``since`` and the clocks."""

    table: Table
    seat: int | None
    your_seats: list[int]
    version: int
    moves: int | MISSING = MISSING
    pending: list[int] | MISSING = MISSING
    prompts: list[Decision] | MISSING = MISSING
    view: dict[str, Any] | MISSING = MISSING
    legal: list[dict[str, Any]] | MISSING = MISSING
    can_undo: bool | MISSING = MISSING
    events: list[LoggedEvent] | MISSING = MISSING
    events_reset: bool | MISSING = Field(default=MISSING, description="The events start afresh (after an undo, "
                                                                      "or for a reader too far behind): drop the "
                                                                      "ones kept.")
    result: Result | MISSING | None = MISSING
    clocks: Clocks | MISSING | None = MISSING


class MoveAck(Answer):
    version: int
    number: int
    seat: int
    duplicate: bool = Field(description="The same move was made before under this id: nothing was played now.")
    events: list[Event] = Field(description="The move's events the mover may read.")
    over: bool


class UndoAck(Answer):
    version: int
    moves: int


class ChatLine(Answer):
    type: Literal["chat"]
    table: str
    id: int
    username: str
    text: str
    at: str


class Log(Answer):
    version: int
    seat: int | None
    events: list[LoggedEvent]


# -- records and replays -------------------------------------------------------------------------


class Resignation(Answer):
    seat: int
    after: int = Field(description="The moves played when the seat resigned.")


class ReviewBudget(Answer):
    search: int
    evaluate: int


class MatchReview(Answer):
    """A finished post-game review: ``ludoteca.review/1`` (docs/bots.md)."""

    format: str
    game: str
    seats: int
    seat: int
    seed: int
    budget: ReviewBudget
    thresholds: dict[str, Any] | MISSING = MISSING
    summary: dict[str, Any]
    decisions: list[dict[str, Any]]


class Record(Answer):
    """The match record (``MatchRecord``), with the result, the resignations and the
    finished reviews."""

    format: str
    game: str
    seats: int
    options: dict[str, Any]
    seed: int
    players: list[str]
    moves: list[PlayedMove]
    result: Result | None
    resigned: list[Resignation]
    reviews: list[MatchReview]


class Frame(Answer):
    """One move of a replay (frame 0: the setup) and what the point of view saw after it:
    its ``view``, or with ``changes=true`` after the first frame, what ``changes`` in
    the view since the frame before (server/tables/changes.py). ``move`` is null, with
    ``hidden`` true, where showing it would tell a secret of another seat."""

    version: int
    seat: int | None
    move: dict[str, Any] | None
    hidden: bool
    view: dict[str, Any] | MISSING = MISSING
    pending: list[int]
    prompts: list[Decision]
    events: list[LoggedEvent]
    changes: dict[str, Any] | MISSING = MISSING


class Replay(Answer):
    table: str
    game: str
    seat: int | None
    result: Result | None
    frames: list[Frame]
    resigned: list[Resignation]


# -- the games and the players -------------------------------------------------------------------


class BoolOption(Answer):
    name: str
    type: Literal["bool"]
    default: bool
    description: str
    seats: list[int] | MISSING = MISSING
    """Only at these seat counts (left out: at all)."""


class IntOption(Answer):
    name: str
    type: Literal["int"]
    default: int
    description: str
    minimum: int | None
    maximum: int | None
    seats: list[int] | MISSING = MISSING


class ChoiceOption(Answer):
    name: str
    type: Literal["choice"]
    default: str
    description: str
    choices: list[str]
    seat_numbers: Literal[True] | MISSING = MISSING
    """A choice that is a number names a seat, counted from 1."""
    seats: list[int] | MISSING = MISSING


GameOption = Annotated[BoolOption | IntOption | ChoiceOption, Field(discriminator="type")]


class BotLevel(Answer):
    level: str
    rating: int | None = Field(description="Measured against the other levels, on the players' scale.")
    provisional: bool
    games: int


class GameInfo(Answer):
    id: str
    name: str
    description: str
    min_seats: int
    max_seats: int
    options: list[GameOption]
    bot_levels: list[BotLevel] = Field(description="The levels a seat can take, weakest first.")


class GameRating(Answer):
    rating: int
    provisional: bool
    mu: float
    sigma: float
    played: int


class RecentTable(Answer):
    id: str
    game: str
    rank: int | None
    finished_at: str | None


class Profile(Answer):
    username: str
    guest: bool
    joined: str
    games_played: int
    played_by_game: dict[str, int]
    ratings: dict[str, GameRating]
    recent: list[RecentTable]
