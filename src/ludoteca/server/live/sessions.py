"""Ending the live sockets of a session, or of a user, in every process at once.

Every way a session ends (a log-out, the account page's "log out everywhere" and "end
this session", a password change or reset, a ban, a deletion) ends it in the database,
then calls ``SocketEnder``: one ``ended`` notice crosses the hub, and on it every process
closes the matching sockets of every kind it holds (table sockets, personal sockets,
tournament sockets), each told why with one error message. A notice lost (a Redis
outage) is caught by the sweep: every ``SESSION_RECHECK_SECONDS`` each process looks up
the sessions of its open sockets in one query and ends those that are gone or expired.

A session is named on the hub by a digest of the hash it is stored under
(``SessionKey``): the account page knows only that hash, a log-out only the token, and
both name the same sockets.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from sqlalchemy import select

from ludoteca.server.kernel import protocol
from ludoteca.server.kernel.clock import now
from ludoteca.server.kernel.errors import ApiError
from ludoteca.server.kernel.identity import token_hash
from ludoteca.server.kernel.models import Session
from ludoteca.server.kernel.runtime import Runtime

log = logging.getLogger("ludoteca.server.live.sessions")

SESSION_RECHECK_SECONDS = 30.0
"""How often the sessions of open sockets are looked up again: by the sweep, for every
socket, and by a table socket before it acts. A session ended anywhere is told to every
process through the hub at once; this look-up is the backstop for a notice lost (a Redis
outage) and for an expiry. Not on every message, and not every few seconds: the look-up
is a database read, which at 5 s was 8% of the server's CPU at 100 tables of the counter
game."""
ENDED_KEPT_SECONDS = 60.0
"""How long a session ended lately is remembered: by then every socket has looked its
session up again."""
SWEEP_CHUNK = 500
"""Stored hashes looked up per query of the sweep."""


def session_ended() -> ApiError:
    return ApiError(401, "not_signed_in", "this session has ended")


@dataclass(frozen=True, slots=True)
class SessionKey:
    """A socket's session as the live layer names it: the hash it is stored under
    (``identity.token_hash``, what the sweep looks up) and the digest of that hash that
    the hub's notices carry (computed once, not per notice)."""

    stored: str
    digest: str

    @classmethod
    def of_stored(cls, stored: str) -> SessionKey:
        return cls(stored, protocol.session_digest(stored))

    @classmethod
    def of_token(cls, secret: str, token: str) -> SessionKey:
        return cls.of_stored(token_hash(secret, token))


class EndableSocket(Protocol):
    """What the ender needs of an open socket of any kind."""

    @property
    def user_id(self) -> int | None: ...

    @property
    def session(self) -> SessionKey | None: ...

    def end(self, message: Mapping[str, Any]) -> None:
        """Send ``message``, then close."""


Sockets = Callable[[], Iterable[EndableSocket]]
"""This process's open sockets of one kind (read on the event loop)."""


class SocketEnder:
    """The one way to end sockets: ``end_sessions``, ``end_token`` and ``end_user`` may
    be called from any thread, after the database has ended the sessions."""

    def __init__(self, runtime: Runtime, kinds: Sequence[Sockets]) -> None:
        self.runtime = runtime
        self.hub = runtime.hub
        self._kinds = tuple(kinds)
        self._ended: dict[str, float] = {}
        """Digests of sessions ended lately -> when: a socket's next action is refused at
        once, even before the notice came back through the hub."""
        self._lock = threading.Lock()

    # -- ending -------------------------------------------------------------------------

    def end_sessions(self, stored: Iterable[str], error: ApiError | None = None) -> None:
        """The sessions stored under these hashes ended: their sockets close, in every
        process, with ``error`` (default: 401 ``not_signed_in``)."""
        keys = [SessionKey.of_stored(h) for h in stored]
        if not keys:
            return
        self._note([k.digest for k in keys])
        self.hub.publish(protocol.ended_sessions([k.digest for k in keys],
                                                 dict(protocol.closing_error(error or session_ended()))))

    def end_token(self, token: str, error: ApiError | None = None) -> None:
        """The session of ``token`` ended (a log-out)."""
        self.end_sessions([token_hash(self.runtime.secret, token)], error)

    def end_user(self, user_id: int, error: ApiError) -> None:
        """Every session of ``user_id`` ended (a ban, a password reset, a deletion)."""
        self.hub.publish(protocol.ended_user(user_id, dict(protocol.closing_error(error))))

    def has_ended(self, key: SessionKey | None) -> bool:
        """Whether the session was ended lately, as far as this process heard."""
        return key is not None and key.digest in self._ended

    def _note(self, digests: Iterable[str]) -> None:
        moment = time.monotonic()
        with self._lock:
            self._ended = {d: at for d, at in self._ended.items() if moment - at < ENDED_KEPT_SECONDS}
            for digest in digests:
                self._ended[digest] = moment

    # -- hearing ------------------------------------------------------------------------

    def on_message(self, message: Mapping[str, Any]) -> None:
        """A notice from the hub, on the event loop: sessions or a user's sessions ended
        in some process (checked: it came over the network)."""
        if message.get("kind") != "ended":
            return
        sessions, user, error = message.get("sessions"), message.get("user"), message.get("error")
        digests = {d for d in sessions if isinstance(d, str)} if isinstance(sessions, list) else set()
        user_id = user if isinstance(user, int) and not isinstance(user, bool) else None
        if not isinstance(error, dict) or (not digests and user_id is None):
            return
        if digests:
            self._note(digests)
        self._close(lambda socket: (socket.session is not None and socket.session.digest in digests)
                    or (user_id is not None and socket.user_id == user_id), error)

    def _close(self, matches: Callable[[EndableSocket], bool], error: Mapping[str, Any]) -> None:
        for kind in self._kinds:
            for socket in list(kind()):
                if matches(socket):
                    socket.end(error)

    # -- the sweep ----------------------------------------------------------------------

    async def run(self) -> None:
        """Every ``SESSION_RECHECK_SECONDS``: the open sockets whose session is gone or
        expired end (a notice lost, an expiry)."""
        while True:
            await asyncio.sleep(SESSION_RECHECK_SECONDS)
            try:
                await self.sweep()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("session sweep failed")

    async def sweep(self) -> None:
        stored = {socket.session.stored for kind in self._kinds for socket in list(kind())
                  if socket.session is not None}
        if not stored:
            return
        alive = await asyncio.to_thread(self._alive, stored)
        gone = stored - alive
        if gone:
            error = dict(protocol.closing_error(session_ended()))
            self._close(lambda socket: socket.session is not None and socket.session.stored in gone, error)

    def _alive(self, stored: set[str]) -> set[str]:
        """Which of these stored hashes name a session that holds now."""
        hashes = sorted(stored)
        alive: set[str] = set()
        with self.runtime.sessions() as db:
            for start in range(0, len(hashes), SWEEP_CHUNK):
                chunk = hashes[start:start + SWEEP_CHUNK]
                alive.update(db.scalars(select(Session.token_hash).where(Session.token_hash.in_(chunk),
                                                                         Session.expires_at > now())))
        return alive
