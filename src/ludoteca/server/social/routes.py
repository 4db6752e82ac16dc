"""The arena's API: Play now, invitations, follows, my games, and the personal live
socket ``WS /api/me/live`` (server/live/personal.py). Thin routes over server/social/arena.py."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any, Literal

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from pydantic import BaseModel, Field

from ludoteca.bots.base import seatable_bot_names
from ludoteca.server.http.routes import ERRORS, Me, RowId, ServerDep, TableId, Username
from ludoteca.server.http.schemas import Strict
from ludoteca.server.kernel import protocol
from ludoteca.server.kernel.errors import ApiError
from ludoteca.server.kernel.identity import Actor, lookup, token_from
from ludoteca.server.live.personal import MeClient
from ludoteca.server.playnow.queue import BOTS_AFTER_MAX, PRESETS
from ludoteca.server.server import Server
from ludoteca.server.tables.socket import _origin_ok

router = APIRouter(prefix="/api", responses=ERRORS)



# -- bodies --------------------------------------------------------------------------------


class PlayNowIn(Strict):
    game: str = Field(min_length=1, max_length=40)
    seats: int | None = Field(default=None, ge=1, le=16, description="None: any seat count the game takes.")
    mode: Literal["realtime", "turn-based"] = "realtime"
    preset: str = Field(default="default", max_length=40, json_schema_extra={"enum": list(PRESETS)})
    bots_after: int | None = Field(default=None, ge=0, le=BOTS_AFTER_MAX,
                                   description="Seconds after which bots fill the empty seats; None: people only.")
    bot_level: str | None = Field(default=None, max_length=40,
                                  json_schema_extra={"enum": [*seatable_bot_names(), None]})


class InviteIn(Strict):
    username: str = Field(min_length=1, max_length=40)
    seat: int | None = Field(default=None, ge=0, le=16)


# -- answers -------------------------------------------------------------------------------


class PlayNowOut(BaseModel):
    status: Literal["idle", "waiting", "matched"]
    game: str | None
    seats: int | None
    mode: str | None
    preset: str | None
    waited_ms: int
    bots_after: int | None
    bot_level: str | None
    table: str | None


class InvitationOut(BaseModel):
    id: int
    table: str
    game: str
    seat: int | None
    inviter: str
    invitee: str
    status: str
    created_at: str


class InvitationList(BaseModel):
    received: list[InvitationOut]
    sent: list[InvitationOut]


class InvitationAnswer(BaseModel):
    invitation: int
    status: str
    table: dict[str, Any] | None = Field(description="The table joined (a Table, as GET /api/tables answers).")


class FollowOut(BaseModel):
    username: str
    following: bool
    friend: bool


class Friend(BaseModel):
    username: str
    online: bool


class FollowList(BaseModel):
    following: list[str]
    followers: list[str]
    friends: list[Friend]


class MyPlayer(BaseModel):
    seat: int
    username: str | None
    bot: str | None


class MyResult(BaseModel):
    rank: int | None
    of: int
    won: bool


class MyTable(BaseModel):
    id: str
    game: str
    seats: int
    mode: str
    status: str
    rated: bool
    version: int
    your_seats: list[int]
    players: list[MyPlayer]
    waiting: bool
    time_left_ms: int | None
    result: MyResult | None
    created_at: str
    finished_at: str | None


class MyGamesOut(BaseModel):
    waiting: list[MyTable]
    running: list[MyTable]
    finished: list[MyTable]
    badge: int


# -- Play now ------------------------------------------------------------------------------


@router.post("/playnow", status_code=201, tags=["arena"], response_model=PlayNowOut)
def play_now(body: PlayNowIn, me: Me, server: ServerDep) -> dict[str, Any]:
    """Wait for a table: paired by rating within a band that widens with the wait; seated
    and started when the table is full (``status: matched`` with the table), or with bots
    in the empty seats after ``bots_after`` seconds. 409 ``already_queued``: one entry
    per player."""
    return server.arena.playnow.join(me, body.game, body.seats, body.mode, body.preset, body.bots_after,
                                     body.bot_level)


@router.get("/playnow", tags=["arena"], response_model=PlayNowOut)
def play_now_status(me: Me, server: ServerDep) -> dict[str, Any]:
    """The caller's entry: ``idle``, ``waiting`` or ``matched`` (with its table)."""
    return server.arena.playnow.status(me.user_id)


@router.delete("/playnow", tags=["arena"], response_model=PlayNowOut)
def play_now_cancel(me: Me, server: ServerDep) -> dict[str, Any]:
    """Leave the queue. 404 ``not_queued``; 409 ``already_matched`` with the table."""
    return server.arena.playnow.cancel(me)


# -- invitations ---------------------------------------------------------------------------


@router.post("/tables/{table_id}/invitations", status_code=201, tags=["arena"], response_model=InvitationOut)
def invite(table_id: TableId, body: InviteIn, me: Me, server: ServerDep) -> dict[str, Any]:
    """Invite an account by name to a free seat (or any free seat) of an open table one
    sits at. 404 ``no_user``, 422 ``self_invite``, 403 ``blocked``/``not_seated``, 409
    ``no_free_seat``/``already_invited``/``already_seated``/``not_open``."""
    return server.arena.invitations.invite(me, table_id, body.username, body.seat)


@router.get("/invitations", tags=["arena"], response_model=InvitationList)
def invitations(me: Me, server: ServerDep) -> dict[str, Any]:
    """The caller's pending invitations, received and sent."""
    return server.arena.invitations.listing(me.user_id)


@router.post("/invitations/{invitation_id}/accept", tags=["arena"], response_model=InvitationAnswer)
def accept(invitation_id: RowId, me: Me, server: ServerDep) -> dict[str, Any]:
    """Sit at the table (the seat named, or any free one)."""
    return server.arena.invitations.accept(me, invitation_id)


@router.post("/invitations/{invitation_id}/decline", tags=["arena"], response_model=InvitationAnswer)
def decline(invitation_id: RowId, me: Me, server: ServerDep) -> dict[str, Any]:
    return server.arena.invitations.decline(me, invitation_id)


@router.delete("/invitations/{invitation_id}", tags=["arena"], response_model=InvitationAnswer)
def withdraw(invitation_id: RowId, me: Me, server: ServerDep) -> dict[str, Any]:
    """The inviter takes an invitation back."""
    return server.arena.invitations.withdraw(me, invitation_id)


# -- follows and friends -------------------------------------------------------------------


@router.get("/follows", tags=["arena"], response_model=FollowList)
def follows(me: Me, server: ServerDep) -> dict[str, Any]:
    """Whom the caller follows, who follows them, and the friends (both) with who is online."""
    return server.arena.follows.listing(me.user_id)


@router.put("/follows/{username}", tags=["arena"], response_model=FollowOut)
def follow(username: Username, me: Me, server: ServerDep) -> dict[str, Any]:
    """Follow a player (again: no change). 404 ``no_user``, 422 ``self_follow``, 403 ``blocked``."""
    return server.arena.follows.follow(me.user_id, username)


@router.delete("/follows/{username}", tags=["arena"], response_model=FollowOut)
def unfollow(username: Username, me: Me, server: ServerDep) -> dict[str, Any]:
    """404 ``not_following`` if the caller does not follow them."""
    return server.arena.follows.unfollow(me.user_id, username)


# -- my games ------------------------------------------------------------------------------


@router.get("/me/tables", tags=["arena"], response_model=MyGamesOut)
def my_tables(me: Me, server: ServerDep) -> dict[str, Any]:
    """The caller's tables: those waiting for the caller's decision first (most urgent
    first, with the time left), then the other open and running ones, then the finished
    ones with the caller's result; ``badge`` counts the first."""
    return server.arena.mygames.list(me.user_id)


# -- the personal live socket --------------------------------------------------------------


@router.websocket("/me/live")
async def me_live(ws: WebSocket) -> None:
    """Authenticated like the table socket (cookie from our own pages, bearer header, or
    ``?token=``); a signed-out socket is refused (close 4401)."""
    server: Server = ws.app.state.server
    found = token_from(ws.headers, ws.cookies, ws.query_params)
    actor: Actor | None = await asyncio.to_thread(lookup, server, *found) if found else None
    await ws.accept()
    try:
        if actor is None:
            raise ApiError(401, "not_signed_in", "sign in first")
        if actor.via == "cookie" and not _origin_ok(ws):
            raise ApiError(403, "bad_origin", "cross-site sockets are not allowed")
    except ApiError as error:
        await ws.send_json(protocol.plain_error(error.code, error.message))
        await ws.close(code=4000 + error.status)
        return
    live = server.arena.me
    client = MeClient(ws, actor.user_id, protocol.session_digest(found[0]) if found else None)
    if not live.add(client):
        await ws.send_json(protocol.plain_error("too_many_sockets", "too many open pages"))
        await ws.close(code=4429)
        return
    writer = asyncio.create_task(client.writer())
    try:
        if live.first(actor.user_id):
            await live.went_online(actor.user_id)
        badge = await asyncio.to_thread(server.arena.mygames.badge, actor.user_id)
        friends = await asyncio.to_thread(live.friends_online, actor.user_id)
        client.send({"type": "hello", "badge": badge, "friends_online": friends})
        live.badge_now(actor.user_id, badge)  # after the hello: a later count goes after it
        while not client.closed:
            frame = await ws.receive()
            if frame["type"] == "websocket.disconnect":
                break
            # The page only pings; anything else is ignored (nothing to do here).
            if frame.get("text") == '{"type":"ping"}':
                client.send({"type": "pong"})
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        if live.remove(client):
            with contextlib.suppress(Exception):
                await live.went_offline(actor.user_id)
        client.close()
        with contextlib.suppress(BaseException):
            await asyncio.wait_for(writer, timeout=2)
        writer.cancel()
