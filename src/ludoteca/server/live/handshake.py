"""The door of every live socket: the table socket (``WS /api/tables/{id}/live``), the
personal socket (``WS /api/me/live``) and the tournament socket (``WS
/api/tournaments/{id}/live``) open, read and close through these, so that they refuse,
frame errors and close alike, in the shapes of kernel/protocol.py.

- Who calls: a bearer header, the session cookie, or ``?token=`` (browsers cannot set a
  socket's headers). A token whose session has ended is refused (401), never taken for a
  signed-out visitor.
- A cookie-authenticated socket must come from our own pages (403 ``bad_origin``).
- A refusal is one error message, then the close code 4000 + its HTTP status (4401,
  4403, 4404, 4429...): the page does not try again.
- What a client sends is read as text frames of at most ``max_ws_message_bytes``, at the
  socket's rate (server/live/limits.py); a binary frame, a message too large or one past
  the rate is answered with the protocol's error and skipped, and the socket stays open.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass
from urllib.parse import urlsplit

from fastapi import WebSocket, WebSocketDisconnect

from ludoteca.server.kernel import protocol
from ludoteca.server.kernel.config import Settings
from ludoteca.server.kernel.errors import ApiError
from ludoteca.server.kernel.identity import Actor, lookup, token_from
from ludoteca.server.kernel.runtime import Runtime
from ludoteca.server.live import limits
from ludoteca.server.live.connections import QueuedSocket
from ludoteca.server.live.sessions import SessionKey, session_ended

REFUSED = 4000
"""A refused socket closes with this plus the HTTP status of the refusal."""
DRAIN_SECONDS = 5.0
"""How long a socket the server closed may take to send what was queued before it (its
reason, mostly)."""


@dataclass(frozen=True, slots=True)
class Caller:
    """Who opened a socket: ``actor`` (None: signed out), the token and how it came
    (``identity.token_from``), and its session as the live layer names it."""

    actor: Actor | None
    found: tuple[str, str] | None
    session: SessionKey | None

    @property
    def user_id(self) -> int | None:
        return self.actor.user_id if self.actor is not None else None


def origin_ok(ws: WebSocket) -> bool:
    """Cookie-authenticated sockets must come from our own pages: browsers send cookies
    with cross-site WebSocket handshakes, and there is no CSRF header there."""
    origin = ws.headers.get("origin")
    if not origin:
        return True
    return urlsplit(origin).netloc == ws.headers.get("host", "")


async def accept(ws: WebSocket, runtime: Runtime, signed_in: bool = False) -> Caller | None:
    """Accept ``ws`` and say who calls; None when it was refused (told why, and closed).
    ``signed_in``: a signed-out caller is refused too."""
    found = token_from(ws.headers, ws.cookies, ws.query_params)
    actor = await asyncio.to_thread(lookup, runtime, *found) if found else None
    await ws.accept()
    if found and actor is None:
        await refuse(ws, session_ended())
        return None
    if actor is None and signed_in:
        await refuse(ws, ApiError(401, "not_signed_in", "sign in first"))
        return None
    if actor is not None and actor.via == "cookie" and not origin_ok(ws):
        await refuse(ws, ApiError(403, "bad_origin", "cross-site sockets are not allowed"))
        return None
    session = SessionKey.of_token(runtime.secret, found[0]) if found else None
    return Caller(actor, found, session)


async def refuse(ws: WebSocket, error: ApiError | ValueError) -> None:
    """Tell an accepted socket why it is refused, and close it (``REFUSED`` + the status;
    a ValueError is a request that does not parse: 422)."""
    if isinstance(error, ApiError):
        code, status, message = error.code, error.status, error.message
    else:
        code, status, message = "invalid_request", 422, "bad request"
    with contextlib.suppress(Exception):  # it may have gone already
        await ws.send_json(protocol.plain_error(code, message))
        await ws.close(code=REFUSED + status)


@contextlib.asynccontextmanager
async def writing(socket: QueuedSocket) -> AsyncIterator[None]:
    """The socket's writer runs while inside. On the way out, a socket the server closed
    sends what it queued first (its reason); one whose client went is just stopped."""
    writer = asyncio.create_task(socket.writer())
    try:
        yield
    finally:
        if socket.closed:
            with contextlib.suppress(BaseException):
                await asyncio.wait_for(asyncio.shield(writer), timeout=DRAIN_SECONDS)
        writer.cancel()
        with contextlib.suppress(BaseException):
            await writer


async def messages(ws: WebSocket, socket: QueuedSocket, settings: Settings) -> AsyncIterator[str]:
    """The text messages the client sends, each counted at the socket's rate, until it
    goes or the server closes the socket."""
    try:
        while not socket.closed:
            frame = await ws.receive()
            if frame["type"] == "websocket.disconnect":
                return
            text = frame.get("text")
            if text is None:  # a binary frame: the protocol is JSON text
                socket.send(protocol.plain_error("invalid_request", "messages are JSON objects in text frames",
                                                 status=422))
                continue
            if len(text) > settings.max_ws_message_bytes:
                socket.send(protocol.plain_error("too_large", "message too large"))
                continue
            try:
                limits.socket_message(socket, settings)  # 429 past the socket's rate
            except ApiError as error:
                socket.send(protocol.error(error, protocol.message_id(text)))
                continue
            yield text
    except (WebSocketDisconnect, RuntimeError):
        # RuntimeError: the writer closed the socket (a slow reader, an ended session,
        # shutdown) while this waited for a message.
        return


def listening_answer(text: str) -> protocol.Pong | protocol.ErrorMessage:
    """What a socket that only listens (the personal and tournament sockets) answers: a
    pong to a ping, and to anything else the error the table socket would give."""
    try:
        message = protocol.parse_client(text, signed_in=True)
    except ApiError as error:
        return protocol.error(error, protocol.message_id(text))
    except ValueError:
        return protocol.plain_error("invalid_request", "messages are JSON objects", status=422)
    if isinstance(message, protocol.Ping):
        return protocol.pong()
    return protocol.error(ApiError(422, "unknown_message", "this socket only listens; the one message is ping"),
                          protocol.message_id(text))

