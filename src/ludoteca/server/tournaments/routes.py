"""The player tournaments' API (server/tournaments/service.py): list, create, edit, join, leave,
seat bots, read one (rules, players, standings, rounds, podium), a player's results,
and ``WS /api/tournaments/{id}/live``, which sends the tournament again whenever it
changes (its standings move)."""

from __future__ import annotations

import asyncio
import contextlib
from datetime import UTC, datetime
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Path, Query, WebSocket, WebSocketDisconnect
from pydantic import BaseModel, Field

from ludoteca.bots.base import seatable_bot_names
from ludoteca.server.http.routes import ERRORS, MaybeMe, Me, ServerDep
from ludoteca.server.http.schemas import Strict
from ludoteca.server.kernel.errors import ApiError
from ludoteca.server.kernel.identity import Actor, lookup, token_from
from ludoteca.server.server import Server
from ludoteca.server.tables.socket import _origin_ok

router = APIRouter(prefix="/api", responses=ERRORS)
TournamentId = Annotated[str, Path(min_length=1, max_length=16)]
Invite = Annotated[str | None, Query(max_length=32)]

LIVE_POLL_SECONDS = 1.0
"""How often a live tournament socket checks the tournament's revision (one small read,
whichever process changed it)."""



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


class TournamentSummary(BaseModel):
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


class TournamentEntrant(BaseModel):
    id: int
    name: str
    bot: str | None
    rating: float
    withdrawn: bool
    missed: int


class StandingRow(BaseModel):
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


class TournamentTable(BaseModel):
    table: str
    board: int
    players: list[int]
    names: list[str]
    status: str
    ranks: list[int] | None
    points: list[float] | None


class TournamentBye(BaseModel):
    player: int
    name: str
    points: float
    kind: str


class TournamentRoundOut(BaseModel):
    number: int
    tables: list[TournamentTable]
    byes: list[TournamentBye]


class PodiumPlace(BaseModel):
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


class TournamentResult(BaseModel):
    id: str
    name: str
    game: str
    format: str
    rank: int | None
    players: int
    finished_at: str | None


def _utc(value: datetime) -> datetime:
    """Stored times are naive UTC (a time at the very ends of the calendar whose offset
    would take it past them is refused, not a 500)."""
    if value.tzinfo is not None:
        try:
            value = value.astimezone(UTC)
        except (OverflowError, ValueError):
            raise ApiError(422, "start_too_far", "the start must be within 90 days") from None
    return value.replace(tzinfo=None)


def _body(model: TournamentSettings) -> dict[str, Any]:
    body = model.model_dump(exclude_none=True)
    if "starts_at" in body:
        body["starts_at"] = _utc(body["starts_at"])
    return body


# -- routes ----------------------------------------------------------------------------------


@router.get("/tournaments", tags=["tournaments"], response_model=list[TournamentSummary])
def tournaments(server: ServerDep,
                status: Annotated[str | None, Query(pattern="^(upcoming|running|finished|cancelled)$")] = None,
                game: Annotated[str | None, Query(max_length=40)] = None,
                limit: Annotated[int, Query(ge=1, le=100)] = 50) -> list[dict[str, Any]]:
    """Public tournaments: upcoming ones soonest first, the others latest first."""
    return server.tournaments.listing(status, limit, game)


@router.post("/tournaments", status_code=201, tags=["tournaments"], response_model=TournamentDetail)
def create_tournament(body: NewTournament, me: Me, server: ServerDep) -> dict[str, Any]:
    """Create a tournament (any account but a guest): Swiss (``rounds``), elimination
    (``advance``) or arena (``minutes``), starting at ``starts_at``."""
    return server.tournaments.create(me, _body(body))


@router.get("/tournaments/{tournament_id}", tags=["tournaments"], response_model=TournamentDetail)
def tournament(tournament_id: TournamentId, server: ServerDep, me: MaybeMe, invite: Invite = None) -> dict[str, Any]:
    """A tournament: its rules, players, standings, rounds and podium. A private one for
    its organiser, its players, and whoever has its invitation."""
    return server.tournaments.detail(me, tournament_id, invite)


@router.patch("/tournaments/{tournament_id}", tags=["tournaments"], response_model=TournamentDetail)
def edit_tournament(tournament_id: TournamentId, body: TournamentSettings, me: Me, server: ServerDep,
                    ) -> dict[str, Any]:
    """Change a tournament before its start (its organiser)."""
    return server.tournaments.edit(me, tournament_id, _body(body))


@router.post("/tournaments/{tournament_id}/join", tags=["tournaments"], response_model=TournamentDetail)
def join_tournament(tournament_id: TournamentId, me: Me, server: ServerDep, body: JoinTournament | None = None,
                    ) -> dict[str, Any]:
    """Join before the start (a private one with its invitation)."""
    return server.tournaments.join(me, tournament_id, body.invite if body else None)


@router.post("/tournaments/{tournament_id}/leave", tags=["tournaments"], response_model=TournamentDetail)
def leave_tournament(tournament_id: TournamentId, me: Me, server: ServerDep) -> dict[str, Any]:
    """Leave: before the start, off the list; once running, withdrawn (a bot finishes
    the game in play)."""
    return server.tournaments.leave(me, tournament_id)


@router.post("/tournaments/{tournament_id}/cancel", tags=["tournaments"], response_model=TournamentDetail)
def cancel_tournament(tournament_id: TournamentId, me: Me, server: ServerDep) -> dict[str, Any]:
    """Call a tournament off before its start (its organiser)."""
    return server.tournaments.cancel(me, tournament_id)


@router.post("/tournaments/{tournament_id}/bots", tags=["tournaments"], response_model=TournamentDetail)
def tournament_bot(tournament_id: TournamentId, me: Me, server: ServerDep, body: TournamentBot | None = None,
                   ) -> dict[str, Any]:
    """Enter a bot of an allowed level (the organiser, before the start)."""
    return server.tournaments.add_bot(me, tournament_id, (body or TournamentBot()).bot)


@router.get("/players/{username}/tournaments", tags=["tournaments"], response_model=list[TournamentResult])
def player_tournaments(username: Annotated[str, Path(min_length=1, max_length=40)], server: ServerDep,
                       ) -> list[dict[str, Any]]:
    """A player's finished public tournaments with their final rank, latest first."""
    return server.tournaments.results_of(username)


@router.websocket("/tournaments/{tournament_id}/live")  # under the router's /api
async def tournament_live(ws: WebSocket, tournament_id: str) -> None:
    """The tournament (as GET answers it) at once and again after every change."""
    server: Server = ws.app.state.server
    found = token_from(ws.headers, ws.cookies, ws.query_params)
    actor: Actor | None = await asyncio.to_thread(lookup, server, *found) if found else None
    invite = ws.query_params.get("invite")
    await ws.accept()
    try:
        if actor is not None and actor.via == "cookie" and not _origin_ok(ws):
            raise ApiError(403, "bad_origin", "cross-site sockets are not allowed")
        if len(tournament_id) > 16 or (invite is not None and len(invite) > 32):
            raise ApiError(404, "no_tournament", "no such tournament")
        detail = await asyncio.to_thread(server.tournaments.detail, actor, tournament_id, invite)
    except ApiError as error:
        with contextlib.suppress(Exception):
            await ws.send_json({"type": "error", **error.to_json()})
            await ws.close(code=4000 + error.status)
        return
    seen = detail["revision"]
    try:
        await ws.send_json({"type": "tournament", "tournament": TournamentDetail(**detail).model_dump()})

        async def drain() -> None:  # the client says nothing we need; a close ends the socket
            while True:
                await ws.receive_text()

        reader = asyncio.create_task(drain())
        try:
            while not reader.done():
                await asyncio.wait([reader], timeout=LIVE_POLL_SECONDS)
                if reader.done():
                    break
                revision = await asyncio.to_thread(server.tournaments.revision, tournament_id)
                if revision is not None and revision != seen:
                    detail = await asyncio.to_thread(server.tournaments.detail, actor, tournament_id, invite)
                    seen = detail["revision"]
                    await ws.send_json({"type": "tournament", "tournament": TournamentDetail(**detail).model_dump()})
        finally:
            reader.cancel()
    except (WebSocketDisconnect, RuntimeError):
        return
