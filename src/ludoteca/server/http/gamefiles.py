"""The browser's files that belong to a game: its board module and its players' rules.

They live in the game's own package (ludoteca.games.package: ``web/board.js``,
``web/board.css``, ``help/<file>``) and are served at the addresses the client has
always used, for every game the server can play, built in or installed on its own:

    /games/<id>.js          the board module
    /games/<id>.css         the board's style sheet, when the game has one
    /rules/<id>/<file>      the players' rules (``en.md`` ...) and their pictures

These routes come before the client's static files, which hold no game's files.
"""

from __future__ import annotations

import hashlib
import mimetypes
from importlib.resources.abc import Traversable

from fastapi import APIRouter, Request, Response

from ludoteca.engine import LudotecaError
from ludoteca.games import package

router = APIRouter(include_in_schema=False)

TYPES = {".js": "text/javascript", ".css": "text/css", ".md": "text/markdown", ".svg": "image/svg+xml"}
CACHE = "no-cache"
"""Revalidated on every use, as the client's static files are: a new version of a game
reaches the browser at once, an unchanged one costs a 304."""


def _media_type(name: str) -> str:
    suffix = name[name.rfind("."):].lower()
    return TYPES.get(suffix) or mimetypes.guess_type(name)[0] or "application/octet-stream"


def _serve(request: Request, found: Traversable | None, name: str) -> Response:
    if found is None:
        return Response("Not Found", status_code=404, media_type="text/plain")
    body = found.read_bytes()
    etag = f'"{hashlib.sha256(body).hexdigest()[:32]}"'
    headers = {"Cache-Control": CACHE, "ETag": etag}
    if etag in request.headers.get("if-none-match", ""):
        return Response(status_code=304, headers=headers)
    return Response(body, media_type=_media_type(name), headers=headers)


def _lookup(game: str, *parts: str) -> Traversable | None:
    try:
        return package.resource(game, *parts)
    except LudotecaError:  # no such game
        return None


@router.get("/games/{game}.js")
def board(game: str, request: Request) -> Response:
    return _serve(request, _lookup(game, *package.BOARD), "board.js")


@router.get("/games/{game}.css")
def board_css(game: str, request: Request) -> Response:
    return _serve(request, _lookup(game, *package.BOARD_CSS), "board.css")


@router.get("/rules/{game}/{name}")
def help_file(game: str, name: str, request: Request) -> Response:
    try:
        found = package.help_file(game, name)
    except LudotecaError:
        found = None
    return _serve(request, found, name)
