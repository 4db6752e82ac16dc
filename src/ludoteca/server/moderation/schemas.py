"""What the moderation routes take and answer (server/moderation/routes.py)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from ludoteca.server.http.schemas import Answer, Strict
from ludoteca.server.kernel.bounds import MAX_INT
from ludoteca.server.moderation.service import MAX_MINUTES, REASON_MAX, Role

# -- bodies ----------------------------------------------------------------------------------


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


# -- what players see ----------------------------------------------------------------------------


class Blocks(Answer):
    blocked: list[str]
    role: Role | None = Field(description="The caller's role: null for a player.")


class Blocked(Answer):
    blocked: str


class Unblocked(Answer):
    unblocked: str


class ReportFiled(Answer):
    id: int
    status: Literal["open", "resolved"]


# -- what moderators see -------------------------------------------------------------------------


class Report(Answer):
    id: int
    kind: Literal["player", "chat", "table"]
    status: Literal["open", "resolved"]
    reason: str
    reporter: str | None
    user: str | None
    table: str | None
    chat: int | None
    chat_text: str | None
    note: str | None
    resolved_by: str | None
    created_at: str
    resolved_at: str | None


class ModeratedChat(Answer):
    id: int
    table: str
    text: str
    hidden: bool
    at: str


class ModeratedUser(Answer):
    id: int
    username: str
    guest: bool
    role: Role | None
    created_at: str
    banned_until: str | None
    muted_until: str | None
    reports: int = Field(description="How often the player was reported.")
    chat: list[ModeratedChat] = Field(description="The player's latest chat lines, newest first.")


class Ban(Answer):
    username: str
    banned_until: str | None = Field(description="ISO UTC, or ``forever`` until lifted; null when not in force.")


class Mute(Answer):
    username: str
    muted_until: str | None = Field(description="ISO UTC, or ``forever`` until lifted; null when not in force.")


class Aborted(Answer):
    id: str
    status: Literal["aborted"]


class ChatRemoved(Answer):
    id: int
    hidden: bool


class AuditEntry(Answer):
    id: int
    actor: str
    action: str
    target: str
    detail: dict[str, Any]
    at: str
