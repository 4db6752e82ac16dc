"""Request bodies (responses are plain JSON documented by example in docs/ops.md and
by the error schema). Limits here are the first line against oversized input."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from .inputs import MAX_INT


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Credentials(Strict):
    username: str = Field(min_length=1, max_length=64)
    password: str = Field(min_length=1, max_length=256)


class NewTable(Strict):
    game: str = Field(max_length=40)
    seats: int | None = Field(default=None, ge=1, le=16)
    options: dict[str, bool | int | str] = Field(default_factory=dict, max_length=64)
    mode: Literal["realtime", "turn-based"] = "realtime"
    clock: dict[str, float] | None = Field(default=None, max_length=4)
    rated: bool = False
    private: bool = False
    record_public: bool = False


class Join(Strict):
    seat: int | None = Field(default=None, ge=0, le=16)


class AddBot(Strict):
    seat: int | None = Field(default=None, ge=0, le=16)
    bot: str = Field(default="random", max_length=40)


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
