"""Sign-up, sign-in and guest sessions, as the routes run them.

These routes are async: what takes time (argon2) runs in the password pool
(``auth.Passwords``), the short database work in the thread pool, so a flood of
logins neither holds the event loop nor the threads that serve health checks and
moves. Before any hash is computed the attempt is counted (``auth.LoginLimiter``): per
address and username, per address, and over everyone (sign-ups per hour likewise), 429
past the limits in docs/ops.md. Requests from another site's pages are refused."""

from __future__ import annotations

import secrets
from typing import Any

from fastapi import Request, Response
from sqlalchemy import or_, select
from starlette.concurrency import run_in_threadpool

from ludoteca.server.accounts.usernames import username_key
from ludoteca.server.kernel import identity as auth
from ludoteca.server.kernel.clock import now
from ludoteca.server.kernel.errors import ApiError
from ludoteca.server.kernel.identity import LoginLimiter, Passwords
from ludoteca.server.kernel.models import User
from ludoteca.server.kernel.runtime import Runtime
from ludoteca.server.moderation.service import banned_error, in_force

GUEST_TRIES = 3
"""Guest names are random: a clash with an existing name (one in four billion) is retried."""


def _address(request: Request) -> str:
    return request.client.host if request.client else "?"


class SignIn:
    """Sign-up, sign-in and guest sessions of one server process."""

    def __init__(self, runtime: Runtime, passwords: Passwords, limiter: LoginLimiter) -> None:
        self.runtime, self.passwords, self.limiter = runtime, passwords, limiter
        self.settings = runtime.settings

    def _session(self, response: Response, user: User) -> dict[str, Any]:
        token, csrf = auth.create_session(self.runtime, user)
        response.set_cookie(auth.COOKIE, token, httponly=True, samesite="lax", secure=self.settings.secure_cookies,
                            max_age=self.settings.session_days * 86_400, path="/")
        return {"token": token, "csrf": csrf, "user": {"id": user.id, "username": user.username, "guest": user.guest}}

    def _add_user(self, username: str, password_hash: str | None, guest: bool) -> User | None:
        """The new user, or None when the name or its key is taken."""
        key = username_key(username)
        try:
            with self.runtime.transaction() as db:
                taken = db.scalar(select(User.id).where(or_(User.username == username, User.username_key == key)))
                if taken is not None:
                    return None
                user = User(username=username, username_key=key, password_hash=password_hash, guest=guest,
                            created_at=now())
                db.add(user)
                db.flush()
                return user
        except Exception as error:  # the unique index, when two sign-ups race
            if "unique" in str(error).lower() or "duplicate" in str(error).lower():
                return None
            raise

    async def sign_up(self, request: Request, username: str, password: str) -> dict[str, Any]:
        auth.refuse_cross_site(request.headers)
        auth.check_credentials(username, password)
        settings = self.settings
        address = _address(request)
        await self.limiter.hit_all([(f"signup:{address}", settings.signups_per_hour_per_address, 3600, "sign-ups"),
                                    ("signup:*", settings.signups_per_hour, 3600, "sign-ups")])
        hashed = await self.passwords.hash_async(password)
        user = await run_in_threadpool(self._add_user, username, hashed, False)
        if user is None:
            raise ApiError(409, "username_taken", "this username is taken (or one that looks the same)")
        return {"id": user.id, "username": user.username}

    def _find(self, username: str) -> User | None:
        with self.runtime.sessions() as db:
            found: User | None = db.scalar(select(User).where(User.username == username, User.guest.is_(False)))
            return found

    async def log_in(self, request: Request, response: Response, username: str, password: str) -> dict[str, Any]:
        auth.refuse_cross_site(request.headers)
        address, settings = _address(request), self.settings
        await self.limiter.hit_all([(f"{address}:{username.lower()}", None, 60, "login attempts"),
                                    (f"login:{address}", settings.logins_per_minute_per_address, 60, "login attempts"),
                                    ("login:*", settings.logins_per_minute, 60, "login attempts")])
        user = await run_in_threadpool(self._find, username)
        if not await self.passwords.verify_async(user.password_hash if user else None, password) or user is None:
            raise ApiError(401, "bad_credentials", "wrong username or password")
        if in_force(user.banned_until):  # told only to who knows the password
            raise banned_error(user.banned_until)
        return await run_in_threadpool(self._session, response, user)

    def _guest(self, response: Response) -> dict[str, Any]:
        for _ in range(GUEST_TRIES):
            user = self._add_user(f"guest-{secrets.token_hex(4)}", None, True)
            if user is not None:
                return self._session(response, user)
        raise ApiError(503, "busy", "no guest name was free; try again")

    async def guest(self, request: Request, response: Response) -> dict[str, Any]:
        auth.refuse_cross_site(request.headers)
        if not self.settings.allow_guests:
            raise ApiError(403, "no_guests", "this server does not allow guests")
        address = _address(request)
        await self.limiter.hit_all([(f"{address}:guest", None, 60, "login attempts"),
                                    (f"signup:{address}:guest", 10 * self.settings.signups_per_hour_per_address,
                                     3600, "guest sessions")])
        return await run_in_threadpool(self._guest, response)
