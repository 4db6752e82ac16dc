"""The player tournaments' API (server/tournaments/service.py): list, create, edit, join, leave,
seat bots, read one (rules, players, standings, rounds, podium), a player's results,
and ``WS /api/tournaments/{id}/live``, which sends the tournament again whenever it
changes (its standings move)."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Query, WebSocket

from ludoteca.server.http.deps import ERRORS, MaybeMe, Me, provided
from ludoteca.server.kernel import protocol
from ludoteca.server.kernel.errors import ApiError
from ludoteca.server.kernel.runtime import Runtime
from ludoteca.server.live import handshake
from ludoteca.server.live.tournaments import TournamentClient, TournamentSockets
from ludoteca.server.tournaments.schemas import (
    JoinTournament,
    NewTournament,
    TournamentBot,
    TournamentDetail,
    TournamentResult,
    TournamentSettings,
    TournamentSummary,
)
from ludoteca.server.tournaments.service import Tournaments

router = APIRouter(prefix="/api", responses=ERRORS)
TournamentsDep = Annotated[Tournaments, Depends(provided(Tournaments))]
TournamentSocketsDep = Annotated[TournamentSockets, Depends(provided(TournamentSockets))]
RuntimeDep = Annotated[Runtime, Depends(provided(Runtime))]
TournamentId = Annotated[str, Path(min_length=1, max_length=16)]
Invite = Annotated[str | None, Query(max_length=32)]


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
def tournaments(tournaments: TournamentsDep,
                status: Annotated[str | None, Query(pattern="^(upcoming|running|finished|cancelled)$")] = None,
                game: Annotated[str | None, Query(max_length=40)] = None,
                limit: Annotated[int, Query(ge=1, le=100)] = 50) -> list[dict[str, Any]]:
    """Public tournaments: upcoming ones soonest first, the others latest first."""
    return tournaments.listing(status, limit, game)


@router.post("/tournaments", status_code=201, tags=["tournaments"], response_model=TournamentDetail)
def create_tournament(body: NewTournament, me: Me, tournaments: TournamentsDep) -> dict[str, Any]:
    """Create a tournament (any account but a guest): Swiss (``rounds``), elimination
    (``advance``) or arena (``minutes``), starting at ``starts_at``."""
    return tournaments.create(me, _body(body))


@router.get("/tournaments/{tournament_id}", tags=["tournaments"], response_model=TournamentDetail)
def tournament(tournament_id: TournamentId, tournaments: TournamentsDep, me: MaybeMe,
               invite: Invite = None) -> dict[str, Any]:
    """A tournament: its rules, players, standings, rounds and podium. A private one for
    its organiser, its players, and whoever has its invitation."""
    return tournaments.detail(me, tournament_id, invite)


@router.patch("/tournaments/{tournament_id}", tags=["tournaments"], response_model=TournamentDetail)
def edit_tournament(tournament_id: TournamentId, body: TournamentSettings, me: Me, tournaments: TournamentsDep,
                    ) -> dict[str, Any]:
    """Change a tournament before its start (its organiser)."""
    return tournaments.edit(me, tournament_id, _body(body))


@router.post("/tournaments/{tournament_id}/join", tags=["tournaments"], response_model=TournamentDetail)
def join_tournament(tournament_id: TournamentId, me: Me, tournaments: TournamentsDep,
                    body: JoinTournament | None = None) -> dict[str, Any]:
    """Join before the start (a private one with its invitation)."""
    return tournaments.join(me, tournament_id, body.invite if body else None)


@router.post("/tournaments/{tournament_id}/leave", tags=["tournaments"], response_model=TournamentDetail)
def leave_tournament(tournament_id: TournamentId, me: Me, tournaments: TournamentsDep) -> dict[str, Any]:
    """Leave: before the start, off the list; once running, withdrawn (a bot finishes
    the game in play)."""
    return tournaments.leave(me, tournament_id)


@router.post("/tournaments/{tournament_id}/cancel", tags=["tournaments"], response_model=TournamentDetail)
def cancel_tournament(tournament_id: TournamentId, me: Me, tournaments: TournamentsDep) -> dict[str, Any]:
    """Call a tournament off before its start (its organiser)."""
    return tournaments.cancel(me, tournament_id)


@router.post("/tournaments/{tournament_id}/bots", tags=["tournaments"], response_model=TournamentDetail)
def tournament_bot(tournament_id: TournamentId, me: Me, tournaments: TournamentsDep, body: TournamentBot | None = None,
                   ) -> dict[str, Any]:
    """Enter a bot of an allowed level (the organiser, before the start)."""
    return tournaments.add_bot(me, tournament_id, (body or TournamentBot()).bot)


@router.get("/players/{username}/tournaments", tags=["tournaments"], response_model=list[TournamentResult])
def player_tournaments(username: Annotated[str, Path(min_length=1, max_length=40)], tournaments: TournamentsDep,
                       ) -> list[dict[str, Any]]:
    """A player's finished public tournaments with their final rank, latest first."""
    return tournaments.results_of(username)


@router.websocket("/tournaments/{tournament_id}/live")  # under the router's /api
async def tournament_live(ws: WebSocket, tournament_id: str, runtime: RuntimeDep, tournaments: TournamentsDep,
                          sockets: TournamentSocketsDep) -> None:
    """The tournament (as GET answers it) at once and again after every change, in
    whichever process it changed (server/live/tournaments.py). Opened like every live
    socket (server/live/handshake.py): signed in or not, but not with an ended session;
    it closes when its session ends. It only listens: a ping is answered with a pong."""
    invite = ws.query_params.get("invite")
    caller = await handshake.accept(ws, runtime)
    if caller is None:
        return
    actor = caller.actor

    def read() -> dict[str, Any]:
        detail = tournaments.detail(actor, tournament_id, invite)
        return TournamentDetail(**detail).model_dump()

    try:
        if len(tournament_id) > 16 or (invite is not None and len(invite) > 32):
            raise ApiError(404, "no_tournament", "no such tournament")
        first = await asyncio.to_thread(read)
    except ApiError as error:
        await handshake.refuse(ws, error)
        return
    client = TournamentClient(ws, tournament_id, read, (caller.user_id, invite), first["revision"], caller.session)
    async with handshake.writing(client):
        client.send(protocol.tournament(first))
        sockets.add(client)
        try:
            async for text in handshake.messages(ws, client, runtime.settings):
                client.send(handshake.listening_answer(text))
        finally:
            sockets.remove(client)
