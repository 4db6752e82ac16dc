"""The HTTP API. Routes are thin: they authenticate, then call the table service.
Sync functions: FastAPI runs them on its thread pool, so database and engine work never
blocks the event loop."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Query, Request, Response
from fastapi.responses import JSONResponse, PlainTextResponse

from ludoteca import __version__
from ludoteca.bots.ratings import bot_levels
from ludoteca.games import available, load
from ludoteca.server.accounts import signin as accounts
from ludoteca.server.http import content, source
from ludoteca.server.http.inputs import MAX_INT
from ludoteca.server.http.schemas import AddBot, ChatIn, Credentials, Join, Kick, MoveIn, NewTable, UndoIn
from ludoteca.server.kernel import identity as auth
from ludoteca.server.kernel.errors import ERROR_SCHEMA
from ludoteca.server.kernel.identity import Actor, optional_actor, require_actor
from ludoteca.server.live import limits
from ludoteca.server.ratings.ladder import leaderboard
from ludoteca.server.server import Server

ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"description": text, "content": {"application/json": {"schema": ERROR_SCHEMA}}}
    for code, text in ((401, "not signed in"), (403, "forbidden"), (404, "not found"), (409, "conflict"),
                       (413, "the body is over the limit (too_large)"), (422, "invalid or illegal"),
                       (429, "too many requests"), (503, "the table's game did not answer in time"))
}

router = APIRouter(prefix="/api", responses=ERRORS)
Me = Annotated[Actor, Depends(require_actor)]
MaybeMe = Annotated[Actor | None, Depends(optional_actor)]


def server_of(request: Request) -> Server:
    return request.app.state.server


ServerDep = Annotated[Server, Depends(server_of)]
# Path parameters the routers share, bounded as storage holds them.
Username = Annotated[str, Path(min_length=1, max_length=40)]
TableId = Annotated[str, Path(min_length=1, max_length=16)]
RowId = Annotated[int, Path(ge=1, le=MAX_INT)]
# A seat number in a query: within what storage holds (a larger one was a 500).
Seat = Annotated[int | None, Query(ge=0, le=MAX_INT)]


@router.get("/health", tags=["server"])
def health(server: ServerDep) -> dict[str, Any]:
    """Status, version, storage backend and hub."""
    return {"status": "ok", "version": __version__, "storage": server.engine.dialect.name, "hub": server.hub.name,
            "guests": server.settings.allow_guests, "table_expiry_hours": server.settings.table_expiry_hours}


@router.get("/source", tags=["server"], response_class=Response,
            responses={200: {"description": "a gzipped tar of the source this server runs",
                             "content": {"application/gzip": {}}}})
def source_archive() -> Response:
    """The source code of this very server, with its licence (GNU AGPL, section 13)."""
    return Response(source.archive(), media_type="application/gzip",
                    headers={"Content-Disposition": f'attachment; filename="{source.filename()}"'})


# -- accounts and sessions -------------------------------------------------------------


@router.post("/accounts", status_code=201, tags=["accounts"])
async def create_account(body: Credentials, request: Request) -> dict[str, Any]:
    """Create an account (then sign in with POST /api/sessions). 409 ``username_taken``
    also for a name that reads the same as a taken one (case, look-alike letters)."""
    return await accounts.sign_up(request.app.state.server, request, body.username, body.password)


@router.post("/sessions", tags=["accounts"])
async def log_in(body: Credentials, request: Request, response: Response) -> dict[str, Any]:
    """Sign in: sets an HttpOnly SameSite session cookie and returns the same token for
    bearer use, with the CSRF token that cookie sessions send as X-CSRF-Token."""
    return await accounts.log_in(request.app.state.server, request, response, body.username, body.password)


@router.post("/sessions/guest", tags=["accounts"])
async def guest(request: Request, response: Response) -> dict[str, Any]:
    """Play without an account, if this server allows guests."""
    return await accounts.guest(request.app.state.server, request, response)


@router.get("/sessions", tags=["accounts"])
def who_am_i(me: Me, server: ServerDep) -> dict[str, Any]:
    """The signed-in user, the session's CSRF token and the user's role (null, or
    ``moderator`` or ``admin``: server/moderation/service.py)."""
    return {"user": {"id": me.user_id, "username": me.username, "guest": me.guest}, "csrf": me.csrf,
            "role": server.moderation.role_of(me.user_id)}


@router.get("/sessions/current", tags=["accounts"])
def current_session(me: MaybeMe, server: ServerDep) -> dict[str, Any]:
    """What ``GET /sessions`` answers, or nulls when nobody is signed in: the client asks
    this one on every page load, so a signed-out visitor's browser logs no 401."""
    if me is None:
        return {"user": None, "csrf": None, "role": None}
    return who_am_i(me, server)


@router.delete("/sessions", tags=["accounts"])
def log_out(request: Request, response: Response, me: Me, server: ServerDep) -> dict[str, Any]:
    found = auth.token_from(request.headers, request.cookies)
    if found:
        auth.end_session(server, found[0])
        server.live.session_ended(found[0])  # before the answer; its sockets close in every process
    response.delete_cookie(auth.COOKIE, path="/")
    return {"ok": True}


# -- games and players -----------------------------------------------------------------


@router.get("/games", tags=["games"])
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


@router.get("/games/{game}/leaderboard", tags=["players"])
def game_leaderboard(game: str, server: ServerDep, limit: Annotated[int, Query(ge=1, le=500)] = 50,
                     ) -> list[dict[str, Any]]:
    with server.sessions() as db:
        return leaderboard(db, game, limit)


@router.get("/players/{username}", tags=["players"])
def player(username: str, server: ServerDep) -> dict[str, Any]:
    """A player's profile: games played, ratings per game."""
    return server.tables.profile(username)


# -- the lobby and tables --------------------------------------------------------------


@router.post("/tables", status_code=201, tags=["tables"])
def create_table(body: NewTable, me: Me, server: ServerDep) -> dict[str, Any]:
    """Open a table; the creator sits at seat 0."""
    return server.tables.create(me, body.model_dump())


@router.get("/tables", tags=["tables"])
def lobby(server: ServerDep, me: MaybeMe, game: str | None = None,
          status: Annotated[str | None, Query(pattern="^(open|playing|over|aborted|suspended)$")] = None,
          limit: Annotated[int, Query(ge=1, le=500)] = 100,
          offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0) -> list[dict[str, Any]]:
    """Public tables, newest first, a page of ``limit`` from ``offset`` (and, on the first
    page, the caller's private ones), filterable by game and status. Open and playing tables
    untouched for LUDOTECA_TABLE_EXPIRY_HOURS are left out."""
    return server.tables.lobby(game, status, limit, me, offset)


@router.get("/tables/{table_id}", tags=["tables"])
def table(table_id: str, server: ServerDep, me: MaybeMe, seat: Seat = None,
          since: Annotated[int | None, Query(ge=0, le=MAX_INT)] = None) -> dict[str, Any]:
    """The table, the caller's own view and legal moves, the version and the clocks;
    spectators get the public view."""
    return server.tables.snapshot(me, table_id, seat, since)


@router.post("/tables/{table_id}/join", tags=["tables"])
def join(table_id: str, me: Me, server: ServerDep, body: Join | None = None) -> dict[str, Any]:
    """Sit at a free seat (or the given one); at a started table, take one's seat back
    from the bot playing it."""
    return server.tables.join(me, table_id, body.seat if body else None)


@router.post("/tables/{table_id}/leave", tags=["tables"])
def leave(table_id: str, me: Me, server: ServerDep) -> dict[str, Any]:
    """Leave: frees the seat before the start; afterwards a bot plays it (zombie mode)."""
    return server.tables.leave(me, table_id)


@router.post("/tables/{table_id}/resign", tags=["tables"])
def resign(table_id: str, me: Me, server: ServerDep, body: Join | None = None) -> dict[str, Any]:
    """Concede a game in play. When one seat is left standing (always at two seats) the
    game ends and it wins; otherwise the resigner ranks last and a bot plays the seat on.
    Rated tables count it. ``seat`` only for a player with several seats."""
    return server.tables.resign(me, table_id, body.seat if body else None)


@router.post("/tables/{table_id}/bots", tags=["tables"])
def add_bot(table_id: str, me: Me, server: ServerDep, body: AddBot | None = None) -> dict[str, Any]:
    """Seat a bot (the creator, before the start)."""
    body = body or AddBot()
    return server.tables.add_bot(me, table_id, body.seat, body.bot)


@router.post("/tables/{table_id}/kick", tags=["tables"])
def kick(table_id: str, body: Kick, me: Me, server: ServerDep) -> dict[str, Any]:
    """Empty a seat of an unstarted table (the creator)."""
    return server.tables.kick(me, table_id, body.seat)


@router.post("/tables/{table_id}/start", tags=["tables"])
def start(table_id: str, me: Me, server: ServerDep) -> dict[str, Any]:
    return server.tables.start(me, table_id)


@router.post("/tables/{table_id}/rematch", status_code=201, tags=["tables"],
             responses={200: {"description": "the rematch made earlier (by this or another player)"}})
def rematch(table_id: str, me: Me, server: ServerDep, response: Response) -> dict[str, Any]:
    """The same game again with the same company, for a player of a finished table: a
    new open table, seats moved on by one, bots and the caller seated; 201 when made
    now, 200 with the one made before."""
    summary, made = server.tables.rematch(me, table_id)
    if not made:
        response.status_code = 200
    return summary


@router.post("/tables/{table_id}/moves", tags=["tables"],
             responses={409: {"description": "stale version (with the current one) or a reused move id"},
                        422: {"description": "illegal move: the engine's code and message"},
                        403: {"description": "not your seat, or not your turn"}})
def move(table_id: str, body: MoveIn, me: Me, server: ServerDep) -> dict[str, Any]:
    """Play a move. Answered only once it is committed; the same ``id`` twice plays once."""
    return {**server.pipeline.move_blocking(me, table_id, body.version, body.move, body.id, body.seat)}


@router.post("/tables/{table_id}/undo", tags=["tables"])
def undo(table_id: str, body: UndoIn, me: Me, server: ServerDep) -> dict[str, Any]:
    """Take back one's own last move, where the engine allows it."""
    return {**server.tables.undo(me, table_id, body.version, body.seat)}


@router.get("/tables/{table_id}/record", tags=["tables"])
def record(table_id: str, server: ServerDep, me: MaybeMe) -> dict[str, Any]:
    """The match record (setup, seed, moves): once the game is over, whatever the table's
    ``record_public`` says, since replaying it shows every hand and the deck order."""
    return server.tables.record(me, table_id)


@router.get("/tables/{table_id}/replay", tags=["tables"])
def replay(table_id: str, server: ServerDep, me: MaybeMe, seat: Seat = None, changes: bool = False,
           ) -> dict[str, Any]:
    """The match replayed from one seat's point of view (no seat: a spectator's), one
    frame per move: ``{frames: [{version, seat, move, view, pending, events}]}``, frame 0
    the setup. Allowed when the record is: once the game is over, or if its players made
    it public (then another seat's point of view only once it is over). ``changes=true``:
    every frame after the first has ``changes`` (from the frame before's view, see
    server/tables/changes.py) instead of ``view``, a small fraction of the size."""
    return server.tables.replay(me, table_id, seat, changes)


@router.get("/tables/{table_id}/static/{key}", tags=["tables"])
def static_part(table_id: str, key: str, server: ServerDep, me: MaybeMe, response: Response) -> Any:
    """A static part of the game's views (a board's geometry, a sheet's layout): views
    refer to it as ``{"$static": digest}`` and clients fetch it once. The same for every
    seat; it never changes during the match."""
    response.headers["Cache-Control"] = "private, max-age=86400"
    return server.tables.static_part(me, table_id, key)


@router.get("/tables/{table_id}/log", tags=["tables"])
def log(table_id: str, server: ServerDep, me: MaybeMe, seat: Seat = None,
        since: Annotated[int, Query(ge=0, le=MAX_INT)] = 0) -> dict[str, Any]:
    """The events the caller may see, in order (after move number ``since``)."""
    return server.tables.log(me, table_id, seat, since)


@router.get("/tables/{table_id}/chat", tags=["tables"])
def chat_history(table_id: str, server: ServerDep, me: MaybeMe) -> list[dict[str, Any]]:
    return [{**line} for line in server.tables.chat_recent(me, table_id)]


@router.post("/tables/{table_id}/chat", tags=["tables"])
def chat(table_id: str, body: ChatIn, me: Me, server: ServerDep) -> dict[str, Any]:
    limits.chat_line(server, me.user_id)  # 429 too_many_messages past the account's rate
    return {**server.tables.chat(me, table_id, body.text)}
