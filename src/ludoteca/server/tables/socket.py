"""``WS /api/tables/{id}/live``: one socket per client and table.

The client may pass ``?version=V`` (or send ``{"type": "hello", "version": V}``) to
catch up from the last version it saw; it gets its own view, legal moves and the events
it missed, then an update after every change. It may also send moves, undos and chat
lines on the same socket: ``{"type": "move", "version", "move", "id"}``, ``{"type":
"undo", "version"}``, ``{"type": "chat", "text"}``; answers are ``ack`` or ``error``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from ludoteca.server.http.inputs import MAX_INT
from ludoteca.server.kernel import protocol
from ludoteca.server.kernel.errors import ApiError
from ludoteca.server.kernel.identity import Actor, lookup, token_from
from ludoteca.server.live import limits
from ludoteca.server.live.connections import SESSION_RECHECK_SECONDS, Client

if TYPE_CHECKING:
    from ludoteca.server.server import Server

router = APIRouter()
log = logging.getLogger("ludoteca.server.live.connections")


def _origin_ok(ws: WebSocket) -> bool:
    """Cookie-authenticated sockets must come from our own pages: browsers send cookies
    with cross-site WebSocket handshakes, and there is no CSRF header there."""
    origin = ws.headers.get("origin")
    if not origin:
        return True
    return urlsplit(origin).netloc == ws.headers.get("host", "")


@router.websocket("/api/tables/{table_id}/live")
async def live(ws: WebSocket, table_id: str) -> None:
    server: Server = ws.app.state.server
    query = ws.query_params
    found = token_from(ws.headers, ws.cookies, query)
    actor: Actor | None = await asyncio.to_thread(lookup, server, *found) if found else None
    await ws.accept()
    try:
        version = _bounded(query["version"]) if "version" in query else None
        seat = _bounded(query["seat"]) if "seat" in query else None
        if found and actor is None:
            raise ApiError(401, "not_signed_in", "this session has ended")
        if actor is not None and actor.via == "cookie" and not _origin_ok(ws):
            raise ApiError(403, "bad_origin", "cross-site sockets are not allowed")
        snapshot = await asyncio.to_thread(server.tables.snapshot, actor, table_id, seat, None)
    except (ApiError, ValueError) as error:
        code = error.code if isinstance(error, ApiError) else "invalid_request"
        status = error.status if isinstance(error, ApiError) else 422
        await ws.send_json(protocol.plain_error(code, getattr(error, "message", "bad request")))
        await ws.close(code=4000 + status)
        return
    client = Client(ws, table_id, actor, snapshot["seat"], version, session=found[0] if found else None)
    if actor is not None:  # the chat of those this user blocked is not sent to it
        client.hides = await asyncio.to_thread(server.moderation.hidden_names, actor.user_id)
    live_hub = server.live
    writer = asyncio.create_task(client.writer())
    for line in await asyncio.to_thread(server.tables.chat_recent, actor, table_id):
        client.send(line)
    live_hub.add(client)
    try:
        while not client.closed:
            frame = await ws.receive()
            if frame["type"] == "websocket.disconnect":
                break
            text = frame.get("text")
            if text is None:  # a binary frame: the protocol is JSON text
                client.send(protocol.plain_error("invalid_request", "messages are JSON objects in text frames",
                                                 status=422))
                continue
            if len(text) > server.settings.max_ws_message_bytes:
                client.send(protocol.plain_error("too_large", "message too large"))
                continue
            await _handle(server, client, actor, text, found)
    except (WebSocketDisconnect, RuntimeError):
        # RuntimeError: our writer closed the socket (a slow reader, or shutdown) while
        # this loop waited for a message.
        pass
    finally:
        live_hub.remove(client)
        if client.closed:  # closed by the server: what is queued (its reason) goes first
            with contextlib.suppress(BaseException):
                await asyncio.wait_for(asyncio.shield(writer), timeout=5)
        writer.cancel()
        with contextlib.suppress(BaseException):
            await writer


def _bounded(raw: str) -> int:
    """A query integer storage can hold (ValueError otherwise: a clear 422)."""
    value = int(raw)
    if not 0 <= value <= MAX_INT:
        raise ValueError(raw)
    return value


async def _session_holds(server: Server, client: Client, found: tuple[str, str]) -> bool:
    if server.live.has_ended(found[0]):
        return False
    moment = time.monotonic()
    if moment - client.session_checked < SESSION_RECHECK_SECONDS:
        return True
    if await asyncio.to_thread(lookup, server, *found) is None:
        return False
    client.session_checked = moment
    return True


async def _handle(server: Server, client: Client, actor: Actor | None, text: str,
                  found: tuple[str, str] | None) -> None:
    try:
        limits.socket_message(client, server.settings)  # 429 past the socket's rate (server/live/limits.py)
        message = protocol.parse_client(text, signed_in=actor is not None)
        if isinstance(message, protocol.Ping):
            client.send(protocol.pong())
        elif isinstance(message, protocol.Hello):
            client.version = message.version
            client.fresh = True
            client.generation += 1
            server.live.mark(client.table_id)
        else:
            assert actor is not None and found is not None
            # The session may have ended since the socket opened (a log-out, an expiry, a
            # ban): one ended in any process is refused at once (the hub's ``ended``
            # notice); the database is asked again now and then as a backstop
            # (live.SESSION_RECHECK_SECONDS).
            if not await _session_holds(server, client, found):
                client.send(protocol.plain_error("not_signed_in", "this session has ended", status=401,
                                                 close=True))
                client.close()
                return
            if isinstance(message, protocol.MoveRequest):
                receipt = await server.pipeline.move(actor, client.table_id, message.version, message.move,
                                                     message.id, message.seat)
                client.send(protocol.ack(message.id, receipt))
            elif isinstance(message, protocol.UndoRequest):
                undone = await asyncio.to_thread(server.tables.undo, actor, client.table_id, message.version, None)
                client.send(protocol.undo_ack(message.id, undone))
            else:
                limits.chat_line(server, actor.user_id)
                await asyncio.to_thread(server.tables.chat, actor, client.table_id, message.text)
    except ApiError as error:
        client.send(protocol.error(error, protocol.message_id(text)))
    except ValueError:
        client.send(protocol.plain_error("invalid_request", "messages are JSON objects", status=422))
    except Exception:
        log.exception("live message failed")
        client.send(protocol.plain_error("internal", "internal server error", status=500))
