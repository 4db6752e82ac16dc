"""The social API: invitations to a table, follows and friends, my games, and the
personal live socket ``WS /api/me/live`` (server/live/personal.py). Thin routes over the
invitations, follows and my games services (invitations.py, follows.py, mygames.py)."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Annotated, Any

from fastapi import APIRouter, Depends, WebSocket

from ludoteca.server.http.deps import ERRORS, Me, RowId, TableId, Username, provided
from ludoteca.server.kernel.errors import ApiError
from ludoteca.server.kernel.runtime import Runtime
from ludoteca.server.live import handshake
from ludoteca.server.live.personal import MeClient, MeLive
from ludoteca.server.social.follows import Follows
from ludoteca.server.social.invitations import Invitations
from ludoteca.server.social.mygames import MyGames
from ludoteca.server.social.schemas import (
    FollowList,
    FollowOut,
    InvitationAnswer,
    InvitationList,
    InvitationOut,
    InviteIn,
    MyGamesOut,
)

router = APIRouter(prefix="/api", responses=ERRORS)
FollowsDep = Annotated[Follows, Depends(provided(Follows))]
InvitationsDep = Annotated[Invitations, Depends(provided(Invitations))]
MyGamesDep = Annotated[MyGames, Depends(provided(MyGames))]
PersonalDep = Annotated[MeLive, Depends(provided(MeLive))]
RuntimeDep = Annotated[Runtime, Depends(provided(Runtime))]


# -- invitations ---------------------------------------------------------------------------


@router.post("/tables/{table_id}/invitations", status_code=201, tags=["social"], response_model=InvitationOut)
def invite(table_id: TableId, body: InviteIn, me: Me, invitations: InvitationsDep) -> dict[str, Any]:
    """Invite an account by name to a free seat (or any free seat) of an open table one
    sits at. 404 ``no_user``, 422 ``self_invite``, 403 ``blocked``/``not_seated``, 409
    ``no_free_seat``/``already_invited``/``already_seated``/``not_open``."""
    return invitations.invite(me, table_id, body.username, body.seat)


@router.get("/invitations", tags=["social"], response_model=InvitationList)
def invitations(me: Me, invitations: InvitationsDep) -> dict[str, Any]:
    """The caller's pending invitations, received and sent."""
    return invitations.listing(me.user_id)


@router.post("/invitations/{invitation_id}/accept", tags=["social"], response_model=InvitationAnswer)
def accept(invitation_id: RowId, me: Me, invitations: InvitationsDep) -> dict[str, Any]:
    """Sit at the table (the seat named, or any free one)."""
    return invitations.accept(me, invitation_id)


@router.post("/invitations/{invitation_id}/decline", tags=["social"], response_model=InvitationAnswer)
def decline(invitation_id: RowId, me: Me, invitations: InvitationsDep) -> dict[str, Any]:
    return invitations.decline(me, invitation_id)


@router.delete("/invitations/{invitation_id}", tags=["social"], response_model=InvitationAnswer)
def withdraw(invitation_id: RowId, me: Me, invitations: InvitationsDep) -> dict[str, Any]:
    """The inviter takes an invitation back."""
    return invitations.withdraw(me, invitation_id)


# -- follows and friends -------------------------------------------------------------------


@router.get("/follows", tags=["social"], response_model=FollowList)
def follows(me: Me, follows: FollowsDep) -> dict[str, Any]:
    """Whom the caller follows, who follows them, and the friends (both) with who is online."""
    return follows.listing(me.user_id)


@router.put("/follows/{username}", tags=["social"], response_model=FollowOut)
def follow(username: Username, me: Me, follows: FollowsDep) -> dict[str, Any]:
    """Follow a player (again: no change). 404 ``no_user``, 422 ``self_follow``, 403 ``blocked``."""
    return follows.follow(me.user_id, username)


@router.delete("/follows/{username}", tags=["social"], response_model=FollowOut)
def unfollow(username: Username, me: Me, follows: FollowsDep) -> dict[str, Any]:
    """404 ``not_following`` if the caller does not follow them."""
    return follows.unfollow(me.user_id, username)


# -- my games ------------------------------------------------------------------------------


@router.get("/me/tables", tags=["social"], response_model=MyGamesOut)
def my_tables(me: Me, mygames: MyGamesDep) -> dict[str, Any]:
    """The caller's tables: those waiting for the caller's decision first (most urgent
    first, with the time left), then the other open and running ones, then the finished
    ones with the caller's result; ``badge`` counts the first."""
    return mygames.list(me.user_id)


# -- the personal live socket --------------------------------------------------------------


@router.websocket("/me/live")
async def me_live(ws: WebSocket, runtime: RuntimeDep, live: PersonalDep, mygames: MyGamesDep) -> None:
    """Opened like every live socket (server/live/handshake.py); a signed-out socket is
    refused (close 4401), and so is one past the open pages a player may have (4429). It
    only listens: a ping is answered with a pong."""
    caller = await handshake.accept(ws, runtime, signed_in=True)
    if caller is None or caller.actor is None:
        return
    user_id = caller.actor.user_id
    client = MeClient(ws, user_id, caller.session)
    if not live.add(client):
        await handshake.refuse(ws, ApiError(429, "too_many_sockets", "too many open pages"))
        return
    async with handshake.writing(client):
        try:
            if live.first(user_id):
                await live.went_online(user_id)
            badge = await asyncio.to_thread(mygames.badge, user_id)
            friends = await asyncio.to_thread(live.friends_online, user_id)
            client.send({"type": "hello", "badge": badge, "friends_online": friends})
            live.badge_now(user_id, badge)  # after the hello: a later count goes after it
            async for text in handshake.messages(ws, client, runtime.settings):
                client.send(handshake.listening_answer(text))
        finally:
            if live.remove(client):
                with contextlib.suppress(Exception):
                    await live.went_offline(user_id)
