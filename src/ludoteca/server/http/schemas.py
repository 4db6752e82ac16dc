"""Request bodies (responses are plain JSON documented by example in docs/ops.md and
by the error schema). Limits here are the first line against oversized input."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from ludoteca.bots.base import seatable_bot_names
from ludoteca.bots.levels import level_names
from ludoteca.server.http.inputs import MAX_INT


class Strict(BaseModel):
    # strict: JSON true is not the number 1, nor "3" the number 3 (a bool was read as a
    # version, a seat, a clock's seconds); JSON integers still fill float fields.
    model_config = ConfigDict(extra="forbid", strict=True)


# Usernames and passwords are checked by auth.check_credentials (with their own error
# codes, bad_username and bad_password); the description says exactly what it takes.
class Credentials(Strict):
    username: str = Field(min_length=1, max_length=64,
                          json_schema_extra={"minLength": 3, "maxLength": 32, "pattern": r"^[A-Za-z0-9_.-]{3,32}$"})
    password: str = Field(min_length=1, max_length=256, json_schema_extra={"minLength": 8, "maxLength": 256})


class NewTable(Strict):
    game: str = Field(max_length=40)
    seats: int | None = Field(default=None, ge=1, le=16)
    options: dict[str, bool | int | str] = Field(default_factory=dict, max_length=64)
    mode: Literal["realtime", "turn-based"] = "realtime"
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
