"""What the social routes take and answer (server/social/routes.py): invitations,
follows and friends, and my games."""

from __future__ import annotations

from pydantic import Field

from ludoteca.server.http.schemas import Answer, Strict
from ludoteca.server.tables.schemas import Table


class InviteIn(Strict):
    username: str = Field(min_length=1, max_length=40)
    seat: int | None = Field(default=None, ge=0, le=16)


# -- invitations -------------------------------------------------------------------------------


class InvitationOut(Answer):
    id: int
    table: str
    game: str
    seat: int | None
    inviter: str
    invitee: str
    status: str
    created_at: str


class InvitationList(Answer):
    received: list[InvitationOut]
    sent: list[InvitationOut]


class InvitationAnswer(Answer):
    invitation: int
    status: str
    table: Table | None = Field(description="The table joined, as GET /api/tables answers it.")


# -- follows and friends -----------------------------------------------------------------------


class FollowOut(Answer):
    username: str
    following: bool
    friend: bool


class Friend(Answer):
    username: str
    online: bool


class FollowList(Answer):
    following: list[str]
    followers: list[str]
    friends: list[Friend]


# -- my games --------------------------------------------------------------------------------


class MyPlayer(Answer):
    seat: int
    username: str | None
    bot: str | None


class MyResult(Answer):
    rank: int | None
    of: int
    won: bool


class MyTable(Answer):
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


class MyGamesOut(Answer):
    waiting: list[MyTable]
    running: list[MyTable]
    finished: list[MyTable]
    badge: int
