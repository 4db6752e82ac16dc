"""The tables' HTTP API: the lobby, seats, moves and undos, records, replays, the log
and the chat, and a player's profile. Routes are thin: they authenticate, then call the
table service. Sync functions: FastAPI runs them on its thread pool, so database and
engine work never blocks the event loop."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Response

from ludoteca.server.http.deps import ERRORS, MaybeMe, Me, Seat, provided
from ludoteca.server.kernel.bounds import MAX_INT
from ludoteca.server.live.limits import ChatLimits
from ludoteca.server.tables import Tables
from ludoteca.server.tables.schemas import (
    AddBot,
    ChatIn,
    ChatLine,
    Join,
    Kick,
    Log,
    MoveAck,
    MoveIn,
    NewTable,
    Profile,
    Record,
    Replay,
    Resigned,
    Snapshot,
    Table,
    UndoAck,
    UndoIn,
)

router = APIRouter(prefix="/api", responses=ERRORS)
ChatLimitsDep = Annotated[ChatLimits, Depends(provided(ChatLimits))]
TablesDep = Annotated[Tables, Depends(provided(Tables))]


@router.get("/players/{username}", tags=["players"], response_model=Profile)
def player(username: str, tables: TablesDep) -> dict[str, Any]:
    """A player's profile: games played, ratings per game."""
    return tables.profile(username)


# -- the lobby and tables --------------------------------------------------------------


@router.post("/tables", status_code=201, tags=["tables"], response_model=Table)
def create_table(body: NewTable, me: Me, tables: TablesDep) -> dict[str, Any]:
    """Open a table; the creator sits at seat 0."""
    return tables.create(me, body.model_dump())


@router.get("/tables", tags=["tables"], response_model=list[Table])
def lobby(tables: TablesDep, me: MaybeMe, game: str | None = None,
          status: Annotated[str | None, Query(pattern="^(open|playing|over|aborted|suspended)$")] = None,
          limit: Annotated[int, Query(ge=1, le=500)] = 100,
          offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0) -> list[dict[str, Any]]:
    """Public tables, newest first, a page of ``limit`` from ``offset`` (and, on the first
    page, the caller's private ones), filterable by game and status. Open and playing tables
    untouched for LUDOTECA_TABLE_EXPIRY_HOURS are left out."""
    return tables.lobby(game, status, limit, me, offset)


@router.get("/tables/{table_id}", tags=["tables"], response_model=Snapshot)
def table(table_id: str, tables: TablesDep, me: MaybeMe, seat: Seat = None,
          since: Annotated[int | None, Query(ge=0, le=MAX_INT)] = None) -> dict[str, Any]:
    """The table, the caller's own view and legal moves, the version and the clocks;
    spectators get the public view."""
    return tables.snapshot(me, table_id, seat, since)


@router.post("/tables/{table_id}/join", tags=["tables"], response_model=Table)
def join(table_id: str, me: Me, tables: TablesDep, body: Join | None = None) -> dict[str, Any]:
    """Sit at a free seat (or the given one); at a started table, take one's seat back
    from the bot playing it."""
    return tables.join(me, table_id, body.seat if body else None)


@router.post("/tables/{table_id}/leave", tags=["tables"], response_model=Table)
def leave(table_id: str, me: Me, tables: TablesDep) -> dict[str, Any]:
    """Leave: frees the seat before the start; afterwards a bot plays it (zombie mode)."""
    return tables.leave(me, table_id)


@router.post("/tables/{table_id}/resign", tags=["tables"], response_model=Resigned)
def resign(table_id: str, me: Me, tables: TablesDep, body: Join | None = None) -> dict[str, Any]:
    """Concede a game in play. When one seat is left standing (always at two seats) the
    game ends and it wins; otherwise the resigner ranks last and a bot plays the seat on.
    Rated tables count it. ``seat`` only for a player with several seats."""
    return tables.resign(me, table_id, body.seat if body else None)


@router.post("/tables/{table_id}/bots", tags=["tables"], response_model=Table)
def add_bot(table_id: str, me: Me, tables: TablesDep, body: AddBot | None = None) -> dict[str, Any]:
    """Seat a bot (the creator, before the start)."""
    body = body or AddBot()
    return tables.add_bot(me, table_id, body.seat, body.bot)


@router.post("/tables/{table_id}/kick", tags=["tables"], response_model=Table)
def kick(table_id: str, body: Kick, me: Me, tables: TablesDep) -> dict[str, Any]:
    """Empty a seat of an unstarted table (the creator)."""
    return tables.kick(me, table_id, body.seat)


@router.post("/tables/{table_id}/start", tags=["tables"], response_model=Table)
def start(table_id: str, me: Me, tables: TablesDep) -> dict[str, Any]:
    return tables.start(me, table_id)


@router.post("/tables/{table_id}/rematch", status_code=201, tags=["tables"], response_model=Table,
             responses={200: {"description": "the rematch made earlier (by this or another player)",
                              "model": Table}})
def rematch(table_id: str, me: Me, tables: TablesDep, response: Response) -> dict[str, Any]:
    """The same game again with the same company, for a player of a finished table: a
    new open table, seats moved on by one, bots and the caller seated; 201 when made
    now, 200 with the one made before."""
    summary, made = tables.rematch(me, table_id)
    if not made:
        response.status_code = 200
    return summary


@router.post("/tables/{table_id}/moves", tags=["tables"], response_model=MoveAck,
             responses={409: {"description": "stale version (with the current one) or a reused move id"},
                        422: {"description": "illegal move: the engine's code and message"},
                        403: {"description": "not your seat, or not your turn"}})
def move(table_id: str, body: MoveIn, me: Me, tables: TablesDep) -> dict[str, Any]:
    """Play a move. Answered only once it is committed; the same ``id`` twice plays once."""
    return {**tables.pipeline.move_blocking(me, table_id, body.version, body.move, body.id, body.seat)}


@router.post("/tables/{table_id}/undo", tags=["tables"], response_model=UndoAck)
def undo(table_id: str, body: UndoIn, me: Me, tables: TablesDep) -> dict[str, Any]:
    """Take back one's own last move, where the engine allows it."""
    return {**tables.undo(me, table_id, body.version, body.seat)}


# -- records, replays and the log ----------------------------------------------------


@router.get("/tables/{table_id}/record", tags=["tables"], response_model=Record)
def record(table_id: str, tables: TablesDep, me: MaybeMe) -> dict[str, Any]:
    """The match record (setup, seed, moves): once the game is over, whatever the table's
    ``record_public`` says, since replaying it shows every hand and the deck order."""
    return tables.record(me, table_id)


@router.get("/tables/{table_id}/replay", tags=["tables"], response_model=Replay)
def replay(table_id: str, tables: TablesDep, me: MaybeMe, seat: Seat = None, changes: bool = False,
           ) -> dict[str, Any]:
    """The match replayed from one seat's point of view (no seat: a spectator's), one
    frame per move: ``{frames: [{version, seat, move, view, pending, events}]}``, frame 0
    the setup. Allowed when the record is: once the game is over, or if its players made
    it public (then another seat's point of view only once it is over). ``changes=true``:
    every frame after the first has ``changes`` (from the frame before's view, see
    server/tables/changes.py) instead of ``view``, a small fraction of the size."""
    return tables.replay(me, table_id, seat, changes)


@router.get("/tables/{table_id}/static/{key}", tags=["tables"],
            responses={200: {"description": "the part as the game's views hold it: any JSON value"}})
def static_part(table_id: str, key: str, tables: TablesDep, me: MaybeMe, response: Response) -> Any:
    """A static part of the game's views (a board's geometry, a sheet's layout): views
    refer to it as ``{"$static": digest}`` and clients fetch it once. The same for every
    seat; it never changes during the match."""
    response.headers["Cache-Control"] = "private, max-age=86400"
    return tables.static_part(me, table_id, key)


@router.get("/tables/{table_id}/log", tags=["tables"], response_model=Log)
def log(table_id: str, tables: TablesDep, me: MaybeMe, seat: Seat = None,
        since: Annotated[int, Query(ge=0, le=MAX_INT)] = 0) -> dict[str, Any]:
    """The events the caller may see, in order (after move number ``since``)."""
    return tables.log(me, table_id, seat, since)


# -- chat ----------------------------------------------------------------------------------


@router.get("/tables/{table_id}/chat", tags=["tables"], response_model=list[ChatLine])
def chat_history(table_id: str, tables: TablesDep, me: MaybeMe) -> list[dict[str, Any]]:
    return [{**line} for line in tables.chat_recent(me, table_id)]


@router.post("/tables/{table_id}/chat", tags=["tables"], response_model=ChatLine)
def chat(table_id: str, body: ChatIn, me: Me, tables: TablesDep, limits: ChatLimitsDep) -> dict[str, Any]:
    limits.chat_line(me.user_id)  # 429 too_many_messages past the account's rate
    return {**tables.chat(me, table_id, body.text)}
