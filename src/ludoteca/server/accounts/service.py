"""What a player does with their own account (the /account page; server/accounts/signin.py
signs up and in): an optional email address, verified by an emailed single-use link;
a password changed (the current one first) or reset by an emailed single-use link that
expires; the sessions listed and ended; the account deleted. Alert preferences are in
server/alerts/preferences.py.

Password resets answer the same whether the address belongs to an account or not; the
email is queued for the mailer's thread, never sent within the request, so the time of
the answer does not tell either.
Every email asked for is counted per client address and per address written to
(``LUDOTECA_ACCOUNT_EMAILS_PER_HOUR``). Tokens are kept as their HMAC only, like
session tokens."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from sqlalchemy import delete, select, update
from sqlalchemy.orm import Session as OrmSession
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request

from ludoteca.server.alerts import messages
from ludoteca.server.alerts.mailer import Mailer
from ludoteca.server.alerts.preferences import contact
from ludoteca.server.alerts.push import Push
from ludoteca.server.kernel import identity as auth
from ludoteca.server.kernel.clock import iso, now
from ludoteca.server.kernel.config import Settings
from ludoteca.server.kernel.errors import ApiError
from ludoteca.server.kernel.identity import LoginLimiter, Passwords
from ludoteca.server.kernel.models import (
    AccountContact,
    AccountToken,
    PendingTurnEmail,
    PushSubscription,
    Session,
    User,
)
from ludoteca.server.kernel.runtime import Runtime
from ludoteca.server.live.sessions import SocketEnder

BAD_EMAIL_CHARACTERS = frozenset('<>()[]\\,;:"\'`')
SESSION_ID = 16
"""Hex characters of a session's token hash that name it on the account page."""


def clean_email(text: str) -> str:
    """The address, its domain in lower case; 422 ``bad_email`` when it cannot be one.
    A plain check (no regular expression): one ``@``, no spaces nor header characters,
    a dotted domain."""
    text = text.strip()
    refusal = ApiError(422, "bad_email", "this is not an email address")
    if not 3 <= len(text) <= 254 or text.count("@") != 1:
        raise refusal
    if any(c.isspace() or ord(c) < 33 or c in BAD_EMAIL_CHARACTERS for c in text):
        raise refusal
    local, domain = text.split("@")
    labels = domain.split(".")
    if not 1 <= len(local) <= 64 or len(labels) < 2 or any(not label for label in labels):
        raise refusal
    return f"{local}@{domain.lower()}"


def _address(request: Request) -> str:
    return request.client.host if request is not None and request.client else "?"


class AccountService:
    def __init__(self, runtime: Runtime, passwords: Passwords, limiter: LoginLimiter, mailer: Mailer, push: Push,
                 ender: SocketEnder, delete_account: Callable[[str, str], dict[str, Any]]) -> None:
        self.runtime, self.passwords, self.limiter = runtime, passwords, limiter
        self.mailer, self.push, self.ender = mailer, push, ender
        self.delete_account = delete_account
        """Moderation's deletion (``Moderation.delete_account``: the account and every feature's rows)."""

    @property
    def settings(self) -> Settings:
        return self.runtime.settings

    def _base(self) -> str:
        return self.settings.public_url.rstrip("/")

    def _user(self, db: Any, user_id: int) -> User:
        user = db.get(User, user_id)
        if user is None:
            raise ApiError(401, "not_signed_in", "sign in first")
        if user.guest:
            raise ApiError(403, "guest", "a guest has no account to manage; sign up first")
        return user

    def _count_email(self, request: Request, to: str) -> None:
        limit = self.settings.account_emails_per_hour
        self.limiter.hit(f"mail:from:{_address(request)}", limit, 3600, "emails asked for")
        self.limiter.hit(f"mail:to:{to}", limit, 3600, "emails asked for")

    def _need_mail(self) -> None:
        if not self.mailer.enabled:
            raise ApiError(409, "no_email", "this server sends no email (LUDOTECA_SMTP_URL is not set)")

    def _token(self, db: Any, user_id: int, purpose: str, email: str, lasts: timedelta) -> str:
        token = secrets.token_urlsafe(32)
        db.add(AccountToken(token_hash=auth.token_hash(self.runtime.secret, token), user_id=user_id,
                            purpose=purpose, email=email, created_at=now(), expires_at=now() + lasts))
        return token

    # -- reading ----------------------------------------------------------------------------

    def describe(self, user_id: int) -> dict[str, Any]:
        with self.runtime.sessions() as db:
            user = db.get(User, user_id)
            if user is None:
                raise ApiError(401, "not_signed_in", "sign in first")
            row = db.get(AccountContact, user_id)
            devices = len(list(db.scalars(select(PushSubscription.id).where(PushSubscription.user_id == user_id))))
        return {"username": user.username, "guest": user.guest, "email": row.email if row else None,
                "email_verified": bool(row and row.email_verified), "language": row.language if row else "en",
                "email_enabled": self.mailer.enabled, "push_key": self.push.public_key,
                "push_devices": devices}

    # -- language -----------------------------------------------------------------------------

    def set_language(self, user_id: int, language: str) -> dict[str, Any]:
        if language not in messages.LANGUAGES:
            raise ApiError(422, "bad_language", f"a language is one of {', '.join(messages.LANGUAGES)}")
        with self.runtime.transaction() as db:
            self._user(db, user_id)
            contact(db, user_id).language = language
        return self.describe(user_id)

    # -- email ------------------------------------------------------------------------------------

    def set_email(self, request: Request, user_id: int, email: str) -> dict[str, Any]:
        email = clean_email(email)
        self._need_mail()
        with self.runtime.transaction() as db:
            user = self._user(db, user_id)
            row = contact(db, user_id, lock=True)
            if row.email == email and row.email_verified:
                return self.describe(user_id)
            self._count_email(request, email)
            row.email, row.email_verified = email, False
            token = self._token(db, user_id, "verify", email, timedelta(hours=self.settings.verify_link_hours))
            name, lang = user.username, row.language
        self._send_verification(email, name, lang, token)
        return self.describe(user_id)

    def resend(self, request: Request, user_id: int) -> dict[str, Any]:
        self._need_mail()
        with self.runtime.transaction() as db:
            user = self._user(db, user_id)
            row = contact(db, user_id)
            if not row.email or row.email_verified:
                raise ApiError(409, "nothing_to_verify", "there is no unverified address to confirm")
            self._count_email(request, row.email)
            token = self._token(db, user_id, "verify", row.email, timedelta(hours=self.settings.verify_link_hours))
            email, name, lang = row.email, user.username, row.language
        self._send_verification(email, name, lang, token)
        return self.describe(user_id)

    def _send_verification(self, email: str, name: str, lang: str, token: str) -> None:
        url = f"{self._base()}/#/account/verify/{token}"
        body = messages.text(lang, "verify.body", name=name, url=url, hours=self.settings.verify_link_hours)
        self.mailer.send(self.mailer.message(email, messages.text(lang, "verify.subject"), body))

    def remove_email(self, user_id: int) -> dict[str, Any]:
        with self.runtime.transaction() as db:
            self._user(db, user_id)
            row = contact(db, user_id)
            row.email, row.email_verified = None, False
            db.execute(delete(PendingTurnEmail).where(PendingTurnEmail.user_id == user_id))
            db.execute(update(AccountToken).where(AccountToken.user_id == user_id, AccountToken.used_at.is_(None))
                       .values(used_at=now()))
        return self.describe(user_id)

    def _spend(self, db: Any, token: str, purpose: str, mark: bool = True) -> AccountToken:
        """The token's row, locked and marked used; 404 ``bad_link``, 410 ``link_expired``
        or 409 ``link_used`` (nothing changes then). ``mark=False``: only looked at."""
        if not 10 <= len(token) <= 100:
            raise ApiError(404, "bad_link", "this link is not valid")
        row = db.get(AccountToken, auth.token_hash(self.runtime.secret, token), with_for_update=mark)
        if row is None or row.purpose != purpose:
            raise ApiError(404, "bad_link", "this link is not valid")
        if row.used_at is not None:
            raise ApiError(409, "link_used", "this link was used already; ask for a new one")
        if row.expires_at < now():
            raise ApiError(410, "link_expired", "this link has expired; ask for a new one")
        if mark:
            row.used_at = now()
        return row

    def verify(self, token: str) -> dict[str, Any]:
        with self.runtime.transaction() as db:
            row = self._spend(db, token, "verify")
            held = db.get(AccountContact, row.user_id, with_for_update=True)
            if held is None or held.email != row.email:
                raise ApiError(409, "link_used", "this address is no longer the account's; ask for a new link")
            taken = db.scalar(select(AccountContact.user_id).where(
                AccountContact.email == row.email, AccountContact.email_verified.is_(True),
                AccountContact.user_id != row.user_id))
            if taken is not None:
                raise ApiError(409, "email_taken", "another account has confirmed this address")
            held.email_verified = True
            return {"ok": True}

    # -- passwords -------------------------------------------------------------------------

    async def change_password(self, user_id: int, current_token: str | None, current: str, new: str) -> dict[str, Any]:
        self.limiter.hit(f"password:{user_id}", 10, 3600, "password changes")
        user = await run_in_threadpool(self._read_user, user_id)
        if not await self.passwords.verify_async(user.password_hash, current):
            raise ApiError(403, "bad_credentials", "the current password is wrong")
        auth.check_credentials(user.username, new)
        hashed = await self.passwords.hash_async(new)
        keep = auth.token_hash(self.runtime.secret, current_token) if current_token else None
        ended = await run_in_threadpool(self._set_password, user_id, hashed, keep)
        await run_in_threadpool(self.ender.end_sessions, ended)  # their sockets close, in every process
        return {"ok": True}

    def _read_user(self, user_id: int) -> User:
        with self.runtime.sessions() as db:
            return self._user(db, user_id)

    def _set_password(self, user_id: int, hashed: str, keep: str | None) -> set[str]:
        """The new hash, every session but ``keep`` ended (their hashes returned)."""
        with self.runtime.transaction() as db:
            db.execute(update(User).where(User.id == user_id).values(password_hash=hashed))
            query = select(Session.token_hash).where(Session.user_id == user_id)
            ended = {h for h in db.scalars(query) if h != keep}
            db.execute(delete(Session).where(Session.token_hash.in_(ended)))
            db.execute(update(AccountToken).where(AccountToken.user_id == user_id, AccountToken.purpose == "reset",
                                                  AccountToken.used_at.is_(None)).values(used_at=now()))
        return ended

    def request_reset(self, request: Request, email: str) -> dict[str, Any]:
        """The same answer whatever the address; an email only to a confirmed one."""
        answer = {"ok": True}
        email = clean_email(email)
        self._need_mail()
        self._count_email(request, email)
        with self.runtime.transaction() as db:
            found = db.execute(select(User, AccountContact).join(AccountContact, AccountContact.user_id == User.id)
                               .where(AccountContact.email == email, AccountContact.email_verified.is_(True),
                                      User.guest.is_(False), User.password_hash.is_not(None))).first()
            if found is None:
                return answer
            user, row = found
            token = self._token(db, user.id, "reset", email, timedelta(minutes=self.settings.reset_link_minutes))
            name, lang = user.username, row.language
        url = f"{self._base()}/#/reset/{token}"
        body = messages.text(lang, "reset.body", name=name, url=url, minutes=self.settings.reset_link_minutes)
        self.mailer.send(self.mailer.message(email, messages.text(lang, "reset.subject"), body))
        return answer

    async def reset(self, token: str, new: str) -> dict[str, Any]:
        # Checked before spending the link: a password refused leaves the link usable.
        owner = await run_in_threadpool(self._reset_owner, token)
        auth.check_credentials(owner, new)
        hashed = await self.passwords.hash_async(new)
        user_id = await run_in_threadpool(self._reset, token, hashed)
        await run_in_threadpool(self.ender.end_user, user_id,
                                ApiError(401, "not_signed_in", "the password was reset"))
        return {"ok": True}

    def _reset_owner(self, token: str) -> str:
        with self.runtime.sessions() as db:
            row = self._spend(db, token, "reset", mark=False)  # spent by _reset
            user = db.get(User, row.user_id)
            if user is None:
                raise ApiError(404, "bad_link", "this link is not valid")
            return user.username

    def _reset(self, token: str, hashed: str) -> int:
        with self.runtime.transaction() as db:
            row = self._spend(db, token, "reset")
            user_id = row.user_id
            db.execute(update(User).where(User.id == user_id).values(password_hash=hashed))
            db.execute(delete(Session).where(Session.user_id == user_id))
            db.execute(update(AccountToken).where(AccountToken.user_id == user_id, AccountToken.purpose == "reset",
                                                  AccountToken.used_at.is_(None)).values(used_at=now()))
        return user_id

    # -- sessions --------------------------------------------------------------------------

    def sessions(self, user_id: int, current_token: str | None) -> list[dict[str, Any]]:
        current = auth.token_hash(self.runtime.secret, current_token) if current_token else None
        with self.runtime.sessions() as db:
            rows = list(db.scalars(select(Session).where(Session.user_id == user_id, Session.expires_at > now())
                                   .order_by(Session.created_at.desc()).limit(200)))
        return [{"id": r.token_hash[:SESSION_ID], "created_at": iso(r.created_at, seconds=True),
                 "expires_at": iso(r.expires_at, seconds=True), "current": r.token_hash == current} for r in rows]

    def end_sessions(self, user_id: int, session_id: str | None = None) -> dict[str, Any]:
        """End one session (by the id the list gives) or all of them."""
        with self.runtime.transaction() as db:
            hashes = set(db.scalars(select(Session.token_hash).where(Session.user_id == user_id)))
            if session_id is not None:
                hashes = {h for h in hashes if h[:SESSION_ID] == session_id}
                if not hashes:
                    raise ApiError(404, "no_session", "no such session")
            db.execute(delete(Session).where(Session.token_hash.in_(hashes)))
        self.ender.end_sessions(hashes)  # their sockets close, in every process
        return {"ok": True}

    # -- deletion --------------------------------------------------------------------------

    async def delete(self, user_id: int, password: str) -> dict[str, Any]:
        self.limiter.hit(f"password:{user_id}", 10, 3600, "password checks")
        user = await run_in_threadpool(self._read_user, user_id)
        if not await self.passwords.verify_async(user.password_hash, password):
            raise ApiError(403, "bad_credentials", "the password is wrong")
        # The account's email, alerts and devices go with it (moderation.delete_account).
        done = await asyncio.to_thread(self.delete_account, user.username, "@self")
        return {"ok": True, "now": done["now"]}


def close_account(db: OrmSession, user_id: int) -> None:
    """A closed account's emailed links (verification, reset) stop working."""
    db.execute(delete(AccountToken).where(AccountToken.user_id == user_id))
