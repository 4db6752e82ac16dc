"""The Play now API: wait for a table with the caller's own entry in the queue
(server/playnow/queue.py pairs the entries)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends

from ludoteca.server.http.deps import ERRORS, Me, provided
from ludoteca.server.playnow.queue import Matchmaking
from ludoteca.server.playnow.schemas import PlayNowIn, PlayNowOut

router = APIRouter(prefix="/api", responses=ERRORS)
MatchmakingDep = Annotated[Matchmaking, Depends(provided(Matchmaking))]


@router.post("/playnow", status_code=201, tags=["play now"], response_model=PlayNowOut)
def play_now(body: PlayNowIn, me: Me, playnow: MatchmakingDep) -> dict[str, Any]:
    """Wait for a table: paired by rating within a band that widens with the wait; seated
    and started when the table is full (``status: matched`` with the table), or with bots
    in the empty seats after ``bots_after`` seconds. 409 ``already_queued``: one entry
    per player."""
    return playnow.join(me, body.game, body.seats, body.mode, body.preset, body.bots_after,
                               body.bot_level)


@router.get("/playnow", tags=["play now"], response_model=PlayNowOut)
def play_now_status(me: Me, playnow: MatchmakingDep) -> dict[str, Any]:
    """The caller's entry: ``idle``, ``waiting`` or ``matched`` (with its table)."""
    return playnow.status(me.user_id)


@router.delete("/playnow", tags=["play now"], response_model=PlayNowOut)
def play_now_cancel(me: Me, playnow: MatchmakingDep) -> dict[str, Any]:
    """Leave the queue. 404 ``not_queued``; 409 ``already_matched`` with the table."""
    return playnow.cancel(me)
