"""Accounts and sessions: argon2 password hashes (computed off the event loop in a
bounded pool), session tokens (an HttpOnly SameSite cookie for browsers, the same token
as a bearer token for other clients), CSRF tokens for cookie sessions, the checks a new
account passes, and the rate limits on logins and sign-ups."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import redis as redis_sync

import asyncio
import contextlib
import hashlib
import hmac
import os
import re
import secrets
import threading
import time
from collections import deque
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import timedelta
from functools import cache
from importlib.resources import files
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from fastapi import Request
from sqlalchemy import delete, select

from ludoteca.server.kernel.clock import now
from ludoteca.server.kernel.errors import ApiError
from ludoteca.server.kernel.models import Session, User

if TYPE_CHECKING:
    from ludoteca.server.kernel.runtime import Runtime

COOKIE = "ludoteca_session"
CSRF_HEADER = "x-csrf-token"
USERNAME = re.compile(r"^[A-Za-z0-9_.-]{3,32}$")
UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})


PASSWORD_WORKERS = max(1, (os.cpu_count() or 2) // 2)
"""Threads that hash passwords, half the cores: each hash takes a core (and 64 MiB) for
tens of milliseconds, so a flood of logins gets these and nothing more."""
PASSWORD_QUEUE = 64
"""Hashes waiting for a thread at most; more are refused at once (503 ``busy``)."""


PASSWORD_NICE = 10
"""How much lower the hashing threads' CPU priority is than the server's other threads."""


def _lower_priority() -> None:
    """Run this thread (a hashing worker) at a lower CPU priority: Linux schedules threads
    one by one, so a flood of logins hashes with the CPU the moves leave, instead of
    taking it from them. Nothing changes where threads cannot be reprioritised."""
    with contextlib.suppress(AttributeError, OSError):
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), PASSWORD_NICE)


def priority_of_this_thread() -> int:
    """The calling thread's nice value (for the tests)."""
    return os.getpriority(os.PRIO_PROCESS, threading.get_native_id())


class Passwords:
    """Argon2id hashing with the configured cost (the defaults are argon2-cffi's RFC 9106
    low-memory profile; tests lower them). The async methods run in a pool of its own,
    so that neither the event loop nor the thread pool that serves the other routes
    waits behind a flood of logins."""

    def __init__(self, time_cost: int, memory_kib: int, workers: int = PASSWORD_WORKERS,
                 queue: int = PASSWORD_QUEUE) -> None:
        self.hasher = PasswordHasher(time_cost=time_cost, memory_cost=memory_kib)
        # Verifying against this when the user does not exist keeps the answer time the
        # same, so timing does not tell which usernames exist.
        self._dummy = self.hasher.hash("not a password")
        self._pool = ThreadPoolExecutor(workers, thread_name_prefix="argon2", initializer=_lower_priority)
        self._queue = queue
        self._waiting = 0
        self._lock = threading.Lock()

    async def _in_pool(self, function: Any, *args: Any) -> Any:
        with self._lock:
            if self._waiting >= self._queue:
                raise ApiError(503, "busy", "the server is busy checking passwords; try again in a moment")
            self._waiting += 1
        try:
            return await asyncio.get_running_loop().run_in_executor(self._pool, function, *args)
        finally:
            with self._lock:
                self._waiting -= 1

    async def hash_async(self, password: str) -> str:
        result: str = await self._in_pool(self.hash, password)
        return result

    async def verify_async(self, stored: str | None, password: str) -> bool:
        result: bool = await self._in_pool(self.verify, stored, password)
        return result

    def hash(self, password: str) -> str:
        return self.hasher.hash(password)

    def verify(self, stored: str | None, password: str) -> bool:
        try:
            return self.hasher.verify(stored or self._dummy, password) and stored is not None
        except (VerificationError, InvalidHashError):
            return False


@dataclass(frozen=True)
class Actor:
    """Who is calling: a signed-in user (or guest) and how they proved it."""

    user_id: int
    username: str
    guest: bool
    csrf: str
    via: str  # "cookie" | "bearer"


def token_hash(secret: str, token: str) -> str:
    return hmac.new(secret.encode(), token.encode(), hashlib.sha256).hexdigest()


@cache
def common_passwords() -> frozenset[str]:
    text = files("ludoteca.server").joinpath("data", "common-passwords.txt").read_text(encoding="utf-8")
    return frozenset(line.strip().casefold() for line in text.splitlines() if line.strip() and line[0] != "#")


def check_credentials(username: str, password: str) -> None:
    if not USERNAME.match(username):
        raise ApiError(422, "bad_username", "a username is 3 to 32 letters, digits, '_', '.' or '-'")
    if not 8 <= len(password) <= 256:
        raise ApiError(422, "bad_password", "a password has 8 to 256 characters")
    folded = password.casefold()
    if folded == username.casefold():
        raise ApiError(422, "bad_password", "a password may not be the username")
    if folded in common_passwords():
        raise ApiError(422, "bad_password", "this password is one of the most common ones; choose another")


def refuse_cross_site(headers: Any) -> None:
    """Endpoints that set a session cookie without one (sign-in, guest sessions, sign-up)
    have no CSRF token to check: a form on another site could post to them and replace
    the visitor's session with one of its choosing. Browsers say where a request comes
    from (Origin, Sec-Fetch-Site); one from another site is refused. Clients that are
    not browsers send neither and are let through."""
    refusal = ApiError(403, "bad_origin", "sessions are not made for another site's pages")
    site = headers.get("sec-fetch-site")
    if site is not None:  # the browser's own word, right behind a proxy that rewrites Host too
        if site not in ("same-origin", "none"):
            raise refusal
        return
    origin = headers.get("origin")
    if origin is not None and urlsplit(origin).netloc != headers.get("host", ""):
        raise refusal


def create_session(server: Runtime, user: User) -> tuple[str, str]:
    """A new session for ``user``: (token, csrf token)."""
    token = secrets.token_urlsafe(32)
    csrf = secrets.token_urlsafe(24)
    with server.transaction() as db:
        db.add(Session(token_hash=token_hash(server.secret, token), user_id=user.id, csrf=csrf,
                       created_at=now(), expires_at=now() + timedelta(days=server.settings.session_days)))
    return token, csrf


def end_session(server: Runtime, token: str) -> None:
    with server.transaction() as db:
        db.execute(delete(Session).where(Session.token_hash == token_hash(server.secret, token)))


def lookup(server: Runtime, token: str, via: str) -> Actor | None:
    with server.sessions() as db:
        row = db.execute(
            select(Session.user_id, Session.csrf, Session.expires_at, User.username, User.guest)
            .join(User, User.id == Session.user_id)
            .where(Session.token_hash == token_hash(server.secret, token))
        ).first()
    if row is None or row.expires_at < now():
        return None
    return Actor(row.user_id, row.username, row.guest, row.csrf, via)


def token_from(headers: Any, cookies: Any, query: Any = None) -> tuple[str, str] | None:
    """The caller's token and how it came: a bearer header first, then the cookie, then
    (WebSockets only, where browsers cannot set headers) the ``token`` query parameter."""
    header = headers.get("authorization", "")
    if header.lower().startswith("bearer "):
        return header[7:].strip(), "bearer"
    if cookies.get(COOKIE):
        return cookies[COOKIE], "cookie"
    if query is not None and query.get("token"):
        return query["token"], "bearer"
    return None


def actor_for(request: Request) -> Actor | None:
    """The caller of an HTTP request, or None. A cookie session must send its CSRF token
    on every unsafe method: another site can make a browser send the cookie, not the header."""
    server: Runtime = request.app.state.runtime
    found = token_from(request.headers, request.cookies)
    if found is None:
        return None
    actor = lookup(server, *found)
    if actor is None:
        return None
    if actor.via == "cookie" and request.method in UNSAFE_METHODS:
        sent = request.headers.get(CSRF_HEADER, "")
        if not hmac.compare_digest(sent.encode(), actor.csrf.encode()):
            raise ApiError(403, "csrf", "this request needs the X-CSRF-Token header of the session")
    return actor


def optional_actor(request: Request) -> Actor | None:
    return actor_for(request)


def require_actor(request: Request) -> Actor:
    actor = actor_for(request)
    if actor is None:
        raise ApiError(401, "not_signed_in", "sign in first (a session cookie or a bearer token)")
    return actor


class LoginLimiter:
    """Sliding counts of attempts per key: by default at most N login attempts per minute
    per (client address, username); ``accounts.py`` adds its own keys and limits (per
    address, for everyone, sign-ups per hour). In-process by default; through Redis when
    configured, so every process counts together."""

    def __init__(self, per_minute: int, redis: redis_sync.Redis | None = None, prefix: str = "") -> None:
        self.per_minute = per_minute
        self.redis = redis
        self.prefix = prefix
        self._seen: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def hit(self, key: str, limit: int | None = None, seconds: int = 60, what: str = "login attempts") -> None:
        """Count one attempt for ``key``; 429 if ``limit`` (default: the logins per
        minute) were counted in the last ``seconds`` already. Through Redis this waits
        for a round trip: on the event loop, use ``hit_all``."""
        self._hit_each([(key, limit, seconds, what)])

    async def hit_all(self, hits: list[tuple[str, int | None, int, str]]) -> None:
        """``hit`` for each (key, limit, seconds, what) in order, up to the first refused
        (later keys are not counted: one address's refused flood must not use up the
        limit for everyone). Through Redis on a worker thread, so that a flood of
        attempts never holds the event loop while it waits for Redis."""
        if self.redis is not None:
            await asyncio.to_thread(self._hit_each, hits)
        else:
            self._hit_each(hits)

    def _hit_each(self, hits: list[tuple[str, int | None, int, str]]) -> None:
        for key, limit, seconds, what in hits:
            self._one(key, self.per_minute if limit is None else limit, seconds, what)

    def _one(self, key: str, limit: int, seconds: int, what: str) -> None:
        refusal = ApiError(429, "too_many_attempts", f"too many {what}; wait a little and try again")
        if self.redis is not None:
            name = f"{self.prefix}login:{key}"
            count = self.redis.incr(name)
            if count == 1:  # the window starts at its first attempt
                self.redis.expire(name, seconds)
            if count > limit:
                raise refusal
            return
        moment = time.monotonic()
        with self._lock:
            seen = self._seen.setdefault(key, deque())
            while seen and seen[0] < moment - seconds:
                seen.popleft()
            if len(seen) >= limit:
                raise refusal
            seen.append(moment)
            if len(self._seen) > 100_000:  # bound memory under a flood of distinct keys
                self._seen.clear()
