"""What the Play now routes take and answer (server/playnow/routes.py)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from ludoteca.bots.base import seatable_bot_names
from ludoteca.server.http.schemas import Answer, Strict
from ludoteca.server.playnow.queue import BOTS_AFTER_MAX, PRESETS


class PlayNowIn(Strict):
    game: str = Field(min_length=1, max_length=40)
    seats: int | None = Field(default=None, ge=1, le=16, description="None: any seat count the game takes.")
    mode: Literal["realtime", "turn-based"] = "realtime"
    preset: str = Field(default="default", max_length=40, json_schema_extra={"enum": list(PRESETS)})
    bots_after: int | None = Field(default=None, ge=0, le=BOTS_AFTER_MAX,
                                   description="Seconds after which bots fill the empty seats; None: people only.")
    bot_level: str | None = Field(default=None, max_length=40,
                                  json_schema_extra={"enum": [*seatable_bot_names(), None]})


class PlayNowOut(Answer):
    status: Literal["idle", "waiting", "matched"]
    game: str | None
    seats: int | None
    mode: str | None
    preset: str | None
    waited_ms: int
    bots_after: int | None
    bot_level: str | None
    table: str | None
