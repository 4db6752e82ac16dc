"""Moderation: roles, blocks, reports, mutes, bans, table aborts, chat removal and the
audit log.

Two layers. The rules at the top are pure or read-only functions other features call
(``may_meet`` for seats, ``may_invite`` for invitations when they exist, ``hidden_names``
for chat). ``Moderation`` is the service behind the moderators' routes and the
``ludoteca admin`` command: every change a moderator or an admin makes goes through it
and is written to ``audit_log`` in the same transaction.

Roles: ``moderator`` (the moderators' page) and ``admin`` (the same, and may name
moderators); they are set with ``ludoteca admin role``. A ban ends the account's sessions
and live sockets at once and refuses sign-in until it expires; a mute refuses chat.
Deleting an account keeps its tables and records (other players' results stand) under
the name ``deleted-<id>``; its sessions, ratings, blocks and password go.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterable, Sequence
from contextlib import AbstractContextManager
from datetime import datetime, timedelta
from typing import Any, Literal, Protocol

from sqlalchemy import delete, func, or_, select
from sqlalchemy.orm import Session as OrmSession

from ludoteca.server.kernel.clock import iso, iso_or_none, now
from ludoteca.server.kernel.closing import AccountCloser
from ludoteca.server.kernel.errors import ApiError
from ludoteca.server.kernel.models import (
    AuditEntry,
    Block,
    ChatMessage,
    GameTable,
    Report,
    Session,
    User,
)

Role = Literal["moderator", "admin"]
ROLES: tuple[str, ...] = ("moderator", "admin")
REPORT_KINDS: tuple[str, ...] = ("player", "chat", "table")
REASON_MAX = 500
"""Characters in a report's reason or a moderator's note."""
MAX_MINUTES = 10 * 366 * 24 * 60
"""The longest timed ban or mute (ten years); no duration means until lifted."""
FOREVER = datetime(9999, 12, 31)
REPORTS_PER_HOUR = 20
"""Reports one account may file per hour (429 ``too_many_attempts`` past it)."""
MAX_BLOCKS = 1000
"""Players one account may block."""
LIST_LIMIT = 200
CLI = "@cli"
"""The audit log's name for the admin command (no username holds an ``@``)."""


class Limiter(Protocol):
    """The server's rate limits (``kernel.identity.LoginLimiter``)."""

    def hit(self, key: str, limit: int | None = None, seconds: int = 60, what: str = "") -> None: ...


class Storage(Protocol):
    """What the service needs of the server's runtime (the CLI gives the same)."""

    def transaction(self) -> AbstractContextManager[OrmSession]: ...
    def sessions(self) -> AbstractContextManager[OrmSession]: ...


# -- rules ------------------------------------------------------------------------------


def is_moderator(role: str | None) -> bool:
    return role in ROLES


def in_force(until: datetime | None, at: datetime | None = None) -> bool:
    """Whether a ban or mute ending at ``until`` holds now (None: there is none)."""
    return until is not None and until > (at or now())


def until_after(minutes: int | None, at: datetime | None = None) -> datetime:
    """The end of a ban or mute of ``minutes`` (None: until lifted)."""
    if minutes is None:
        return FOREVER
    if not 1 <= minutes <= MAX_MINUTES:
        raise ApiError(422, "bad_duration", f"a duration is 1 to {MAX_MINUTES} minutes, or none for until lifted")
    return (at or now()) + timedelta(minutes=minutes)


def shown_until(until: datetime | None) -> str | None:
    """How an end time is written out: ISO UTC, ``forever``, or None when not in force."""
    if not in_force(until):
        return None
    assert until is not None
    return "forever" if until >= FOREVER else iso(until, seconds=True)


def clean_text(text: str, what: str, code: str = "bad_reason") -> str:
    text = " ".join(text.split())
    if not 1 <= len(text) <= REASON_MAX:
        raise ApiError(422, code, f"{what} has 1 to {REASON_MAX} characters")
    return text


def blockers_of(db: OrmSession, user_id: int, among: Iterable[int]) -> set[int]:
    """Who among ``among`` has blocked ``user_id``."""
    others = {u for u in among if u != user_id}
    if not others:
        return set()
    return set(db.scalars(select(Block.blocker_id).where(Block.blocked_id == user_id,
                                                         Block.blocker_id.in_(others))))


def may_meet(db: OrmSession, user_id: int, seated: Iterable[int]) -> bool:
    """Whether ``user_id`` may sit with ``seated``: not if one of them blocked it."""
    return not blockers_of(db, user_id, seated)


def may_invite(db: OrmSession, inviter_id: int, invitee_id: int) -> bool:
    """Whether ``inviter_id`` may invite ``invitee_id``: not if either blocked the other
    (the invitations to come call this)."""
    return db.scalar(select(func.count()).select_from(Block).where(or_(
        (Block.blocker_id == invitee_id) & (Block.blocked_id == inviter_id),
        (Block.blocker_id == inviter_id) & (Block.blocked_id == invitee_id)))) == 0


def hidden_names(db: OrmSession, user_id: int) -> frozenset[str]:
    """The usernames whose chat ``user_id`` does not see (those it blocked)."""
    return frozenset(db.scalars(select(User.username).join(Block, Block.blocked_id == User.id)
                                .where(Block.blocker_id == user_id)))


def may_chat(db: OrmSession, user_id: int) -> None:
    """403 ``muted`` (or ``banned``) when the account may not chat now."""
    row = db.execute(select(User.muted_until, User.banned_until).where(User.id == user_id)).first()
    if row is None:
        return
    if in_force(row.banned_until):
        raise banned_error(row.banned_until)
    if in_force(row.muted_until):
        raise ApiError(403, "muted", f"a moderator muted you until {shown_until(row.muted_until)}",
                       until=shown_until(row.muted_until))


def banned_error(until: datetime | None) -> ApiError:
    shown = shown_until(until)
    when = "for good" if shown == "forever" else f"until {shown}"
    return ApiError(403, "banned", f"this account is banned {when}", until=shown)


def is_banned(db: OrmSession, user_id: int) -> datetime | None:
    """The end of the account's ban if one is in force, else None."""
    until = db.scalar(select(User.banned_until).where(User.id == user_id))
    return until if in_force(until) else None


# -- the service ------------------------------------------------------------------------


class Moderation:
    """``storage``: the runtime's transactions. ``ended``: called with a user id whose
    sessions a ban or deletion ended (the server closes its live sockets). ``abort``:
    ends a table with no result (the server's tables give it; the CLI has none)."""

    def __init__(self, storage: Storage, closers: Sequence[AccountCloser], limiter: Limiter | None = None,
                 ended: Callable[[int, ApiError], None] | None = None,
                 abort: Callable[[str], dict[str, Any]] | None = None,
                 chat_removed: Callable[[str, int], None] | None = None,
                 hides_changed: Callable[[int, frozenset[str]], None] | None = None) -> None:
        self.storage, self.limiter = storage, limiter
        self._closers = tuple(closers)
        self._ended = ended
        self._abort = abort
        self.chat_removed = chat_removed or (lambda _table_id, _chat_id: None)
        """Tell the table's readers that a chat line was removed."""
        self.hides_changed = hides_changed or (lambda _user_id, _names: None)
        """Tell a player's open sockets whose chat they no longer see (a block changed)."""

    # -- who --------------------------------------------------------------------------

    @staticmethod
    def _user(db: OrmSession, username: str, lock: bool = False) -> User:
        if not 1 <= len(username) <= 40:
            raise ApiError(404, "no_user", "no such user")
        query = select(User).where(User.username == username)
        user = db.scalar(query.with_for_update() if lock else query)
        if user is None:
            raise ApiError(404, "no_user", f"no user {username!r}")
        return user

    def require_moderator(self, user_id: int) -> str:
        """The caller's role; 403 ``not_moderator`` if it has none."""
        with self.storage.sessions() as db:
            role = db.scalar(select(User.role).where(User.id == user_id))
        if not is_moderator(role):
            raise ApiError(403, "not_moderator", "this is for moderators")
        assert role is not None
        return role

    def role_of(self, user_id: int) -> str | None:
        with self.storage.sessions() as db:
            return db.scalar(select(User.role).where(User.id == user_id))

    @staticmethod
    def _audit(db: OrmSession, actor_id: int | None, actor_name: str, action: str, target: str,
               **detail: Any) -> None:
        db.add(AuditEntry(actor_id=actor_id, actor_name=actor_name[:40], action=action, target=target[:80],
                          detail=detail, created_at=now()))

    # -- players: blocks and reports ---------------------------------------------------------

    def block(self, user_id: int, username: str) -> dict[str, Any]:
        with self.storage.transaction() as db:
            target = self._user(db, username)
            if target.id == user_id:
                raise ApiError(422, "bad_block", "you cannot block yourself")
            count = db.scalar(select(func.count()).select_from(Block).where(Block.blocker_id == user_id)) or 0
            exists = db.get(Block, (user_id, target.id)) is not None
            if not exists:
                if count >= MAX_BLOCKS:
                    raise ApiError(422, "too_many_blocks", f"you may block {MAX_BLOCKS} players at most")
                db.add(Block(blocker_id=user_id, blocked_id=target.id, created_at=now()))
        self.hides_changed(user_id, self.hidden_names(user_id))
        return {"blocked": target.username}

    def unblock(self, user_id: int, username: str) -> dict[str, Any]:
        with self.storage.transaction() as db:
            target = self._user(db, username)
            db.execute(delete(Block).where(Block.blocker_id == user_id, Block.blocked_id == target.id))
        self.hides_changed(user_id, self.hidden_names(user_id))
        return {"unblocked": target.username}

    def blocked(self, user_id: int) -> list[str]:
        with self.storage.sessions() as db:
            return sorted(hidden_names(db, user_id))

    def hidden_names(self, user_id: int) -> frozenset[str]:
        with self.storage.sessions() as db:
            return hidden_names(db, user_id)

    def report(self, user_id: int, kind: str, reason: str, username: str | None = None,
               table_id: str | None = None, chat_id: int | None = None) -> dict[str, Any]:
        """File a report of a player, a chat line or a table (what it names must exist)."""
        if kind not in REPORT_KINDS:
            raise ApiError(422, "bad_report", f"a report names a {', '.join(REPORT_KINDS)}")
        reason = clean_text(reason, "a reason")
        if self.limiter is not None:
            self.limiter.hit(f"report:{user_id}", REPORTS_PER_HOUR, 3600, "reports")
        with self.storage.transaction() as db:
            target_user: int | None = None
            if kind == "player":
                if username is None:
                    raise ApiError(422, "bad_report", "a report of a player names the player")
                target_user = self._user(db, username).id
                if target_user == user_id:
                    raise ApiError(422, "bad_report", "you cannot report yourself")
            elif kind == "chat":
                line = db.get(ChatMessage, chat_id) if chat_id is not None else None
                if line is None:
                    raise ApiError(404, "no_chat", "no such chat line")
                target_user, table_id = line.user_id, line.table_id
            else:
                if table_id is None or db.get(GameTable, table_id) is None:
                    raise ApiError(404, "no_table", "no such table")
            row = Report(reporter_id=user_id, kind=kind, user_id=target_user, table_id=table_id,
                         chat_id=chat_id if kind == "chat" else None, reason=reason, status="open",
                         created_at=now())
            db.add(row)
            db.flush()
            return {"id": row.id, "status": row.status}

    # -- moderators ---------------------------------------------------------------------------

    def reports(self, status: str = "open", limit: int = 100) -> list[dict[str, Any]]:
        if status not in ("open", "resolved"):
            raise ApiError(422, "bad_status", "status is open or resolved")
        reporter, target, resolver = (User.__table__.alias(n) for n in ("reporter", "target", "resolver"))
        query = (select(Report, reporter.c.username.label("reporter"), target.c.username.label("target"),
                        resolver.c.username.label("resolver"), ChatMessage.text.label("chat_text"))
                 .outerjoin(reporter, reporter.c.id == Report.reporter_id)
                 .outerjoin(target, target.c.id == Report.user_id)
                 .outerjoin(resolver, resolver.c.id == Report.resolved_by)
                 .outerjoin(ChatMessage, ChatMessage.id == Report.chat_id)
                 .where(Report.status == status).order_by(Report.id.desc()).limit(min(limit, LIST_LIMIT)))
        with self.storage.sessions() as db:
            rows = db.execute(query).all()
        return [{"id": r.Report.id, "kind": r.Report.kind, "status": r.Report.status, "reason": r.Report.reason,
                 "reporter": r.reporter, "user": r.target, "table": r.Report.table_id, "chat": r.Report.chat_id,
                 "chat_text": r.chat_text, "note": r.Report.note, "resolved_by": r.resolver,
                 "created_at": iso(r.Report.created_at),
                 "resolved_at": iso_or_none(r.Report.resolved_at)}
                for r in rows]

    def resolve(self, actor_id: int, actor_name: str, report_id: int, note: str | None = None) -> dict[str, Any]:
        note = clean_text(note, "a note", "bad_note") if note else None
        with self.storage.transaction() as db:
            row = db.get(Report, report_id, with_for_update=True)
            if row is None:
                raise ApiError(404, "no_report", "no such report")
            if row.status != "open":
                raise ApiError(409, "resolved", "this report is resolved already")
            row.status, row.resolved_by, row.resolved_at, row.note = "resolved", actor_id, now(), note
            self._audit(db, actor_id, actor_name, "resolve_report", f"report {report_id}", note=note)
        return {"id": report_id, "status": "resolved"}

    def look_up(self, username: str) -> dict[str, Any]:
        with self.storage.sessions() as db:
            user = self._user(db, username)
            reported = db.scalar(select(func.count()).select_from(Report).where(Report.user_id == user.id)) or 0
            lines = db.execute(select(ChatMessage.id, ChatMessage.table_id, ChatMessage.text, ChatMessage.hidden,
                                      ChatMessage.created_at).where(ChatMessage.user_id == user.id)
                               .order_by(ChatMessage.id.desc()).limit(20)).all()
            return {"id": user.id, "username": user.username, "guest": user.guest, "role": user.role,
                    "created_at": iso(user.created_at),
                    "banned_until": shown_until(user.banned_until), "muted_until": shown_until(user.muted_until),
                    "reports": reported,
                    "chat": [{"id": c.id, "table": c.table_id, "text": c.text, "hidden": c.hidden,
                              "at": iso(c.created_at)} for c in lines]}

    def _sanction(self, actor_id: int | None, actor_name: str, username: str, what: Literal["ban", "mute"],
                  minutes: int | None, lift: bool, reason: str | None) -> dict[str, Any]:
        until = None if lift else until_after(minutes)
        reason = clean_text(reason, "a reason") if reason else None
        with self.storage.transaction() as db:
            user = self._user(db, username, lock=True)
            if actor_id is not None and user.id == actor_id:
                raise ApiError(422, "bad_target", "you cannot ban or mute yourself")
            if not lift and user.role == "admin" and actor_id is not None:
                raise ApiError(403, "protected", "an admin is banned or muted from the command line only")
            if what == "ban":
                user.banned_until = until
                if until is not None:
                    db.execute(delete(Session).where(Session.user_id == user.id))
            else:
                user.muted_until = until
            action = ("un" if lift else "") + what
            self._audit(db, actor_id, actor_name, action, f"user {user.username}",
                        until=shown_until(until), reason=reason)
            user_id, name = user.id, user.username
        if what == "ban" and until is not None and self._ended is not None:
            self._ended(user_id, banned_error(until))
        return {"username": name, f"{what}ned_until" if what == "ban" else "muted_until": shown_until(until)}

    def ban(self, actor_id: int | None, actor_name: str, username: str, minutes: int | None = None,
            reason: str | None = None) -> dict[str, Any]:
        return self._sanction(actor_id, actor_name, username, "ban", minutes, False, reason)

    def unban(self, actor_id: int | None, actor_name: str, username: str) -> dict[str, Any]:
        return self._sanction(actor_id, actor_name, username, "ban", None, True, None)

    def mute(self, actor_id: int | None, actor_name: str, username: str, minutes: int | None = None,
             reason: str | None = None) -> dict[str, Any]:
        return self._sanction(actor_id, actor_name, username, "mute", minutes, False, reason)

    def unmute(self, actor_id: int | None, actor_name: str, username: str) -> dict[str, Any]:
        return self._sanction(actor_id, actor_name, username, "mute", None, True, None)

    def remove_chat(self, actor_id: int, actor_name: str, chat_id: int) -> dict[str, Any]:
        with self.storage.transaction() as db:
            line = db.get(ChatMessage, chat_id, with_for_update=True)
            if line is None:
                raise ApiError(404, "no_chat", "no such chat line")
            line.hidden = True
            table_id = line.table_id
            self._audit(db, actor_id, actor_name, "remove_chat", f"chat {chat_id}", table=table_id,
                        text=line.text[:200])
        self.chat_removed(table_id, chat_id)
        return {"id": chat_id, "hidden": True}

    def abort_table(self, actor_id: int, actor_name: str, table_id: str, reason: str | None = None) -> dict[str, Any]:
        if self._abort is None:
            raise ApiError(503, "no_tables", "tables are aborted by a running server")
        reason = clean_text(reason, "a reason") if reason else None
        summary = self._abort(table_id)
        with self.storage.transaction() as db:
            self._audit(db, actor_id, actor_name, "abort_table", f"table {table_id}", reason=reason)
        return summary

    def audit(self, limit: int = 100) -> list[dict[str, Any]]:
        with self.storage.sessions() as db:
            rows = db.scalars(select(AuditEntry).order_by(AuditEntry.id.desc()).limit(min(limit, LIST_LIMIT))).all()
        return [{"id": r.id, "actor": r.actor_name, "action": r.action, "target": r.target, "detail": r.detail,
                 "at": iso(r.created_at)} for r in rows]

    # -- admins (the command line) --------------------------------------------------------------

    def set_role(self, username: str, role: str | None, by: str = CLI) -> dict[str, Any]:
        if role is not None and role not in ROLES:
            raise ApiError(422, "bad_role", f"a role is one of {', '.join(ROLES)} (or none)")
        with self.storage.transaction() as db:
            user = self._user(db, username, lock=True)
            if user.guest and role is not None:
                raise ApiError(422, "bad_role", "a guest cannot have a role")
            user.role = role
            self._audit(db, None, by, "set_role", f"user {user.username}", role=role)
            return {"username": user.username, "role": role}

    def reset_password(self, username: str, hashed: Callable[[str], str], password: str | None = None,
                       by: str = CLI) -> str:
        """Sets ``password`` (or a new random one, returned) and ends the account's sessions."""
        if password is None:
            password = secrets.token_urlsafe(12)
        elif not 8 <= len(password) <= 256:
            raise ApiError(422, "bad_password", "a password has 8 to 256 characters")
        digest = hashed(password)
        with self.storage.transaction() as db:
            user = self._user(db, username, lock=True)
            if user.guest:
                raise ApiError(422, "guest", "a guest has no password")
            user.password_hash = digest
            db.execute(delete(Session).where(Session.user_id == user.id))
            self._audit(db, None, by, "reset_password", f"user {user.username}")
            user_id = user.id
        if self._ended is not None:
            self._ended(user_id, ApiError(401, "not_signed_in", "this session has ended"))
        return password

    def delete_account(self, username: str, by: str = CLI) -> dict[str, Any]:
        """Anonymises the account: its name becomes ``deleted-<id>``, it can never sign in
        again; its results, records and chat lines stay (under that name) so that other
        players' games are whole. Seats at tables not yet started are freed; in a game in
        play a bot takes the seat over."""
        with self.storage.transaction() as db:
            user = self._user(db, username, lock=True)
            old, user_id = user.username, user.id
            user.username = user.username_key = f"deleted-{user_id}"
            user.password_hash, user.role = None, None
            user.banned_until = FOREVER
            db.execute(delete(Session).where(Session.user_id == user_id))
            db.execute(delete(Block).where(or_(Block.blocker_id == user_id, Block.blocked_id == user_id)))
            for close in self._closers:
                close(db, user_id)
            self._audit(db, None, by, "delete_account", f"user {old}", now_named=user.username)
        if self._ended is not None:
            self._ended(user_id, ApiError(401, "not_signed_in", "this account was deleted"))
        return {"deleted": old, "now": f"deleted-{user_id}"}
