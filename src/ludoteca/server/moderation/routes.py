"""The moderation API: players block and report; moderators (and admins) work the report
queue, look players up, mute, ban, abort tables and remove chat lines. Every moderator
route answers 403 ``not_moderator`` to anyone else; every moderator action is in the
audit log (GET /api/moderation/audit). The rules are in server/moderation/service.py."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Query
from pydantic import Field

from ludoteca.server.http.inputs import MAX_INT
from ludoteca.server.http.routes import ERRORS, Me, RowId, ServerDep, TableId, Username
from ludoteca.server.http.schemas import Strict
from ludoteca.server.moderation.service import MAX_MINUTES, REASON_MAX

router = APIRouter(prefix="/api", responses=ERRORS)



class ReportIn(Strict):
    kind: Literal["player", "chat", "table"]
    reason: str = Field(min_length=1, max_length=REASON_MAX)
    username: str | None = Field(default=None, min_length=1, max_length=40)
    table: str | None = Field(default=None, min_length=1, max_length=16)
    chat: int | None = Field(default=None, ge=1, le=MAX_INT)


class SanctionIn(Strict):
    minutes: int | None = Field(default=None, ge=1, le=MAX_MINUTES,
                                description="How long; none: until a moderator lifts it.")
    reason: str | None = Field(default=None, max_length=REASON_MAX)


class NoteIn(Strict):
    note: str | None = Field(default=None, max_length=REASON_MAX)


class ReasonIn(Strict):
    reason: str | None = Field(default=None, max_length=REASON_MAX)


class Moderator:
    """The caller, checked to be a moderator or an admin (403 ``not_moderator``)."""

    def __init__(self, me: Me, server: ServerDep) -> None:
        self.role = server.moderation.require_moderator(me.user_id)
        self.id, self.name = me.user_id, me.username


Mod = Annotated[Moderator, Depends(Moderator)]


# -- players ---------------------------------------------------------------------------


@router.get("/blocks", tags=["moderation"])
def blocks(me: Me, server: ServerDep) -> dict[str, Any]:
    """The players the caller blocked, and the caller's role (null for a player)."""
    return {"blocked": server.moderation.blocked(me.user_id), "role": server.moderation.role_of(me.user_id)}


@router.put("/blocks/{username}", tags=["moderation"])
def block(username: Username, me: Me, server: ServerDep) -> dict[str, Any]:
    """Block a player: they cannot sit at a table where the caller sits, nor invite the
    caller, and the caller no longer sees their chat."""
    out = server.moderation.block(me.user_id, username)
    server.refresh_hides(me.user_id)
    return out


@router.delete("/blocks/{username}", tags=["moderation"])
def unblock(username: Username, me: Me, server: ServerDep) -> dict[str, Any]:
    out = server.moderation.unblock(me.user_id, username)
    server.refresh_hides(me.user_id)
    return out


@router.post("/reports", status_code=201, tags=["moderation"])
def report(body: ReportIn, me: Me, server: ServerDep) -> dict[str, Any]:
    """Report a player (``username``), a chat line (``chat``: its id) or a table
    (``table``) with a reason; at most 20 reports an hour per account (429)."""
    return server.moderation.report(me.user_id, body.kind, body.reason, body.username, body.table, body.chat)


# -- moderators ------------------------------------------------------------------------


@router.get("/moderation/reports", tags=["moderation"])
def reports(mod: Mod, server: ServerDep, status: Annotated[Literal["open", "resolved"], Query()] = "open",
            limit: Annotated[int, Query(ge=1, le=200)] = 100) -> list[dict[str, Any]]:
    """The report queue, newest first."""
    return server.moderation.reports(status, limit)


@router.post("/moderation/reports/{report_id}/resolve", tags=["moderation"])
def resolve(report_id: RowId, mod: Mod, server: ServerDep, body: NoteIn | None = None) -> dict[str, Any]:
    return server.moderation.resolve(mod.id, mod.name, report_id, body.note if body else None)


@router.get("/moderation/users/{username}", tags=["moderation"])
def look_up(username: Username, mod: Mod, server: ServerDep) -> dict[str, Any]:
    """A player: role, ban and mute, how often reported, their latest chat lines."""
    return server.moderation.look_up(username)


@router.post("/moderation/users/{username}/ban", tags=["moderation"])
def ban(username: Username, mod: Mod, server: ServerDep, body: SanctionIn | None = None) -> dict[str, Any]:
    """No sign-in and no play until the end (none: until lifted); their sessions and
    sockets end at once."""
    body = body or SanctionIn()
    return server.moderation.ban(mod.id, mod.name, username, body.minutes, body.reason)


@router.post("/moderation/users/{username}/unban", tags=["moderation"])
def unban(username: Username, mod: Mod, server: ServerDep) -> dict[str, Any]:
    return server.moderation.unban(mod.id, mod.name, username)


@router.post("/moderation/users/{username}/mute", tags=["moderation"])
def mute(username: Username, mod: Mod, server: ServerDep, body: SanctionIn | None = None) -> dict[str, Any]:
    """No chat until the end (none: until lifted)."""
    body = body or SanctionIn()
    return server.moderation.mute(mod.id, mod.name, username, body.minutes, body.reason)


@router.post("/moderation/users/{username}/unmute", tags=["moderation"])
def unmute(username: Username, mod: Mod, server: ServerDep) -> dict[str, Any]:
    return server.moderation.unmute(mod.id, mod.name, username)


@router.post("/moderation/tables/{table_id}/abort", tags=["moderation"])
def abort(table_id: TableId, mod: Mod, server: ServerDep, body: ReasonIn | None = None) -> dict[str, Any]:
    """End an open table or a game in play with no result (no ratings change)."""
    return server.moderation.abort_table(mod.id, mod.name, table_id, body.reason if body else None)


@router.post("/moderation/chat/{chat_id}/remove", tags=["moderation"])
def remove_chat(chat_id: RowId, mod: Mod, server: ServerDep) -> dict[str, Any]:
    """Hide a chat line from everyone (kept for the report that names it)."""
    return server.moderation.remove_chat(mod.id, mod.name, chat_id)


@router.get("/moderation/audit", tags=["moderation"])
def audit(mod: Mod, server: ServerDep, limit: Annotated[int, Query(ge=1, le=200)] = 100) -> list[dict[str, Any]]:
    """Every moderator and admin action, newest first."""
    return server.moderation.audit(limit)
