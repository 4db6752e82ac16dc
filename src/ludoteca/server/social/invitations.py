"""Invitations: a player seated at an open table invites an account by name to one of its
free seats (or any free seat); the invitee sees it on every open page (the ``invitation``
alert) and accepts, which seats them through the table service, or declines. Blocks
hold both ways: nobody invites someone they blocked or who blocked them, nor someone
blocked by a player at the table. Refusals change nothing:

    404 no_user, no_table, no_invitation   422 self_invite   403 not_seated, blocked
    409 not_open, already_seated, no_free_seat, already_invited, answered
    429 too_many_attempts (more than ``PER_MINUTE`` invitations a minute)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from sqlalchemy import delete, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session as OrmSession

from ludoteca.server.alerts.core import Alert
from ludoteca.server.kernel.clock import iso, now
from ludoteca.server.kernel.errors import ApiError
from ludoteca.server.kernel.identity import Actor
from ludoteca.server.kernel.models import GameTable, Invitation, User
from ludoteca.server.moderation.service import may_invite, may_meet
from ludoteca.server.social.follows import user_named
from ludoteca.server.tables import Tables
from ludoteca.server.tables.runtime import TableRuntime

PER_MINUTE = 30
PENDING_MAX = 100
"""Pending invitations one player may have sent at once."""

Notify = Callable[[Alert], None]
Tell = Callable[[int, Mapping[str, Any]], None]


def _shown(row: Invitation, game: str, inviter: str, invitee: str) -> dict[str, Any]:
    return {"id": row.id, "table": row.table_id, "game": game, "seat": row.seat, "inviter": inviter,
            "invitee": invitee, "status": row.status, "created_at": iso(row.created_at)}


class Invitations:
    def __init__(self, runtime: TableRuntime, tables: Tables, notify: Notify, tell: Tell,
                 hit: Callable[[str, int, int, str], None] | None = None) -> None:
        self.runtime, self.tables, self.notify, self.tell, self.hit = runtime, tables, notify, tell, hit

    def invite(self, actor: Actor, table_id: str, username: str, seat: int | None) -> dict[str, Any]:
        if self.hit is not None:
            self.hit(f"invite:{actor.user_id}", PER_MINUTE, 60, "invitations")
        try:
            with self.runtime.transaction() as db:
                row, seats = self.runtime.store.lock(db, table_id, lock_seats=False)
                invitee = user_named(db, username)
                if invitee.id == actor.user_id:
                    raise ApiError(422, "self_invite", "one cannot invite oneself")
                if not any(s.user_id == actor.user_id for s in seats):
                    raise ApiError(403, "not_seated", "only a player at the table may invite to it")
                if row.status != "open":
                    raise ApiError(409, "not_open", "this table is not open")
                if any(s.user_id == invitee.id for s in seats):
                    raise ApiError(409, "already_seated", f"{invitee.username} already sits at this table")
                free = [s.seat for s in seats if s.user_id is None and s.bot is None]
                if seat is not None and seat not in free:
                    raise ApiError(409, "no_free_seat", "that seat is not free")
                if not free:
                    raise ApiError(409, "no_free_seat", "the table is full")
                seated = [s.user_id for s in seats if s.user_id is not None]
                if not may_invite(db, actor.user_id, invitee.id) or not may_meet(db, invitee.id, seated):
                    raise ApiError(403, "blocked", "this player cannot be invited here")
                pending = len(list(db.scalars(select(Invitation.id).where(
                    Invitation.inviter_id == actor.user_id, Invitation.status == "pending").limit(PENDING_MAX))))
                if pending >= PENDING_MAX:
                    raise ApiError(409, "too_many_invitations", f"{PENDING_MAX} pending invitations at most")
                earlier = db.scalar(select(Invitation).where(Invitation.table_id == table_id,
                                                             Invitation.invitee_id == invitee.id))
                if earlier is not None and earlier.status == "pending":
                    raise ApiError(409, "already_invited", f"{invitee.username} is already invited here")
                if earlier is None:
                    earlier = Invitation(table_id=table_id, invitee_id=invitee.id)
                    db.add(earlier)
                # An invitation declined or withdrawn before is made anew.
                earlier.seat, earlier.inviter_id, earlier.status = seat, actor.user_id, "pending"
                earlier.created_at, earlier.answered_at = now(), None
                db.flush()
                shown = _shown(earlier, row.game, actor.username, invitee.username)
                invitee_id = invitee.id
        except IntegrityError:  # the same invitation raced in from another request
            raise ApiError(409, "already_invited", f"{username} is already invited here") from None
        self.notify(Alert(invitee_id, "invitation", table_id,
                          {"invitation": shown["id"], "inviter": actor.username, "game": shown["game"],
                           "seat": seat}))
        return shown

    def _mine(self, db: OrmSession, actor: Actor, invitation_id: int, as_invitee: bool) -> Invitation:
        row = db.get(Invitation, invitation_id, with_for_update=True)
        owner = None if row is None else (row.invitee_id if as_invitee else row.inviter_id)
        if row is None or owner != actor.user_id:
            raise ApiError(404, "no_invitation", "no such invitation")
        if row.status != "pending":
            raise ApiError(409, "answered", f"this invitation is {row.status} already")
        return row

    def _answer(self, actor: Actor, invitation_id: int, status: str, as_invitee: bool = True) -> Invitation:
        with self.runtime.transaction() as db:
            row = self._mine(db, actor, invitation_id, as_invitee)
            row.status, row.answered_at = status, now()
            db.flush()
            db.expunge(row)
        other = row.inviter_id if as_invitee else row.invitee_id
        self.tell(other, {"type": "invitations"})
        self.tell(actor.user_id, {"type": "invitations"})
        return row

    def accept(self, actor: Actor, invitation_id: int) -> dict[str, Any]:
        """Sit at the invitation's seat (any free one if it named none) through the table
        service, then mark it accepted. A seat taken meanwhile: 409, and it stays pending."""
        with self.runtime.sessions() as db:
            row = self._mine(db, actor, invitation_id, True)
            table_id, seat = row.table_id, row.seat
        try:
            table = self.tables.join(actor, table_id, seat)
        except ApiError as error:
            if error.code in ("not_open", "already_started"):  # nothing left to accept: it lapses
                self._answer(actor, invitation_id, "cancelled")
            raise
        self._answer(actor, invitation_id, "accepted")
        return {"invitation": invitation_id, "status": "accepted", "table": table}

    def decline(self, actor: Actor, invitation_id: int) -> dict[str, Any]:
        self._answer(actor, invitation_id, "declined")
        return {"invitation": invitation_id, "status": "declined", "table": None}

    def withdraw(self, actor: Actor, invitation_id: int) -> dict[str, Any]:
        self._answer(actor, invitation_id, "cancelled", as_invitee=False)
        return {"invitation": invitation_id, "status": "cancelled", "table": None}

    def listing(self, user_id: int) -> dict[str, Any]:
        """The player's pending invitations, received and sent, newest first. Those whose
        table is no longer open are left out (and marked so)."""
        with self.runtime.transaction() as db:
            stale = select(GameTable.id).where(GameTable.status != "open")
            db.execute(update(Invitation).where(Invitation.status == "pending", Invitation.table_id.in_(stale),
                                                (Invitation.invitee_id == user_id) | (Invitation.inviter_id == user_id))
                       .values(status="cancelled", answered_at=now()))
        with self.runtime.sessions() as db:
            inviter, invitee = User.__table__.alias("inviter"), User.__table__.alias("invitee")
            rows = db.execute(
                select(Invitation, GameTable.game, inviter.c.username.label("inviter_name"),
                       invitee.c.username.label("invitee_name"))
                .join(GameTable, GameTable.id == Invitation.table_id)
                .join(inviter, inviter.c.id == Invitation.inviter_id)
                .join(invitee, invitee.c.id == Invitation.invitee_id)
                .where(Invitation.status == "pending",
                       (Invitation.invitee_id == user_id) | (Invitation.inviter_id == user_id))
                .order_by(Invitation.created_at.desc()).limit(2 * PENDING_MAX)).all()
            received = [_shown(r.Invitation, r.game, r.inviter_name, r.invitee_name) for r in rows
                        if r.Invitation.invitee_id == user_id]
            sent = [_shown(r.Invitation, r.game, r.inviter_name, r.invitee_name) for r in rows
                    if r.Invitation.inviter_id == user_id]
        return {"received": received, "sent": sent}


def close_account(db: OrmSession, user_id: int) -> None:
    """Invitations from and to a closed account go."""
    db.execute(delete(Invitation).where(or_(Invitation.inviter_id == user_id, Invitation.invitee_id == user_id)))
