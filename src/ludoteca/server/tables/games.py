"""The games a table may be opened for: the list with their seats, options and bot
levels, and each game's strings and numbered rules, as its package holds them."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path
from fastapi.responses import JSONResponse, PlainTextResponse

from ludoteca.bots.ratings import bot_levels
from ludoteca.games import available, load
from ludoteca.server.http import content
from ludoteca.server.http.deps import ERRORS
from ludoteca.server.tables.schemas import GameInfo

router = APIRouter(prefix="/api", responses=ERRORS)


@router.get("/games", tags=["games"], response_model=list[GameInfo])
def games() -> list[dict[str, Any]]:
    """Every game with its seat counts, options schema and the bot levels a seat can take,
    weakest first, each with its rating against the other levels where one was measured."""
    out = []
    for game_id in available():
        try:
            out.append({**load(game_id).info(), "bot_levels": bot_levels(game_id)})
        except Exception:  # a broken installed game must not hide the others
            continue
    return out


@router.get("/games/{game}/i18n/{lang}", tags=["games"],
            responses={200: {"description": "the game package's i18n/<lang>.json, as it is",
                             "content": {"application/json": {"schema": {"type": "object"}}}}})
def game_strings(game: str, lang: Annotated[str, Path(description="en, ja or vi")]) -> JSONResponse:
    """A game's strings in one language (the JSON file of its package); 404 ``no_game``,
    ``no_language`` or ``no_strings``."""
    return JSONResponse(content.strings(game, lang), headers={"Cache-Control": "public, max-age=300"})


@router.get("/games/{game}/rules", tags=["games"], response_class=PlainTextResponse,
            responses={200: {"description": "the rules as Markdown", "content": {"text/markdown": {}}}})
def game_rules(game: str) -> PlainTextResponse:
    """A game's numbered rules as Markdown (the game package's rules.md); 404 ``no_game``
    or ``no_rules``."""
    return PlainTextResponse(content.rules(game), media_type="text/markdown",
                             headers={"Cache-Control": "public, max-age=300"})
