"""The moderation API: players block and report; moderators (and admins) work the report
queue, look players up, mute, ban, abort tables and remove chat lines. Every moderator
route answers 403 ``not_moderator`` to anyone else; every moderator action is in the
audit log (GET /api/moderation/audit). The rules are in server/moderation/service.py."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Query

from ludoteca.server.http.deps import ERRORS, Me, RowId, TableId, Username, provided
from ludoteca.server.moderation.schemas import (
    Aborted,
    AuditEntry,
    Ban,
    Blocked,
    Blocks,
    ChatRemoved,
    ModeratedUser,
    Mute,
    NoteIn,
    ReasonIn,
    Report,
    ReportFiled,
    ReportIn,
    SanctionIn,
    Unblocked,
)
from ludoteca.server.moderation.service import Moderation

router = APIRouter(prefix="/api", responses=ERRORS)
ModerationDep = Annotated[Moderation, Depends(provided(Moderation))]


class Moderator:
    """The caller, checked to be a moderator or an admin (403 ``not_moderator``)."""

    def __init__(self, me: Me, moderation: ModerationDep) -> None:
        self.role = moderation.require_moderator(me.user_id)
        self.id, self.name = me.user_id, me.username


Mod = Annotated[Moderator, Depends(Moderator)]


# -- players ---------------------------------------------------------------------------


@router.get("/blocks", tags=["moderation"], response_model=Blocks)
def blocks(me: Me, moderation: ModerationDep) -> dict[str, Any]:
    """The players the caller blocked, and the caller's role (null for a player)."""
    return {"blocked": moderation.blocked(me.user_id), "role": moderation.role_of(me.user_id)}


@router.put("/blocks/{username}", tags=["moderation"], response_model=Blocked)
def block(username: Username, me: Me, moderation: ModerationDep) -> dict[str, Any]:
    """Block a player: they cannot sit at a table where the caller sits, nor invite the
    caller, and the caller no longer sees their chat."""
    return moderation.block(me.user_id, username)


@router.delete("/blocks/{username}", tags=["moderation"], response_model=Unblocked)
def unblock(username: Username, me: Me, moderation: ModerationDep) -> dict[str, Any]:
    return moderation.unblock(me.user_id, username)


@router.post("/reports", status_code=201, tags=["moderation"], response_model=ReportFiled)
def report(body: ReportIn, me: Me, moderation: ModerationDep) -> dict[str, Any]:
    """Report a player (``username``), a chat line (``chat``: its id) or a table
    (``table``) with a reason; at most 20 reports an hour per account (429)."""
    return moderation.report(me.user_id, body.kind, body.reason, body.username, body.table, body.chat)


# -- moderators ------------------------------------------------------------------------


@router.get("/moderation/reports", tags=["moderation"], response_model=list[Report])
def reports(mod: Mod, moderation: ModerationDep, status: Annotated[Literal["open", "resolved"], Query()] = "open",
            limit: Annotated[int, Query(ge=1, le=200)] = 100) -> list[dict[str, Any]]:
    """The report queue, newest first."""
    return moderation.reports(status, limit)


@router.post("/moderation/reports/{report_id}/resolve", tags=["moderation"], response_model=ReportFiled)
def resolve(report_id: RowId, mod: Mod, moderation: ModerationDep, body: NoteIn | None = None) -> dict[str, Any]:
    return moderation.resolve(mod.id, mod.name, report_id, body.note if body else None)


@router.get("/moderation/users/{username}", tags=["moderation"], response_model=ModeratedUser)
def look_up(username: Username, mod: Mod, moderation: ModerationDep) -> dict[str, Any]:
    """A player: role, ban and mute, how often reported, their latest chat lines."""
    return moderation.look_up(username)


@router.post("/moderation/users/{username}/ban", tags=["moderation"], response_model=Ban)
def ban(username: Username, mod: Mod, moderation: ModerationDep, body: SanctionIn | None = None) -> dict[str, Any]:
    """No sign-in and no play until the end (none: until lifted); their sessions and
    sockets end at once."""
    body = body or SanctionIn()
    return moderation.ban(mod.id, mod.name, username, body.minutes, body.reason)


@router.post("/moderation/users/{username}/unban", tags=["moderation"], response_model=Ban)
def unban(username: Username, mod: Mod, moderation: ModerationDep) -> dict[str, Any]:
    return moderation.unban(mod.id, mod.name, username)


@router.post("/moderation/users/{username}/mute", tags=["moderation"], response_model=Mute)
def mute(username: Username, mod: Mod, moderation: ModerationDep, body: SanctionIn | None = None) -> dict[str, Any]:
    """No chat until the end (none: until lifted)."""
    body = body or SanctionIn()
    return moderation.mute(mod.id, mod.name, username, body.minutes, body.reason)


@router.post("/moderation/users/{username}/unmute", tags=["moderation"], response_model=Mute)
def unmute(username: Username, mod: Mod, moderation: ModerationDep) -> dict[str, Any]:
    return moderation.unmute(mod.id, mod.name, username)


@router.post("/moderation/tables/{table_id}/abort", tags=["moderation"], response_model=Aborted)
def abort(table_id: TableId, mod: Mod, moderation: ModerationDep, body: ReasonIn | None = None) -> dict[str, Any]:
    """End an open table or a game in play with no result (no ratings change)."""
    return moderation.abort_table(mod.id, mod.name, table_id, body.reason if body else None)


@router.post("/moderation/chat/{chat_id}/remove", tags=["moderation"], response_model=ChatRemoved)
def remove_chat(chat_id: RowId, mod: Mod, moderation: ModerationDep) -> dict[str, Any]:
    """Hide a chat line from everyone (kept for the report that names it)."""
    return moderation.remove_chat(mod.id, mod.name, chat_id)


@router.get("/moderation/audit", tags=["moderation"], response_model=list[AuditEntry])
def audit(mod: Mod, moderation: ModerationDep,
          limit: Annotated[int, Query(ge=1, le=200)] = 100) -> list[dict[str, Any]]:
    """Every moderator and admin action, newest first."""
    return moderation.audit(limit)
