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
import json
import logging
from typing import Any
from urllib.parse import urlsplit

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from .auth import Actor, lookup, token_from
from .errors import ApiError
from .inputs import MAX_INT, has_nul
from .live import Client

router = APIRouter()
log = logging.getLogger("ludoteca.server.live")


def _origin_ok(ws: WebSocket) -> bool:
    """Cookie-authenticated sockets must come from our own pages: browsers send cookies
    with cross-site WebSocket handshakes, and there is no CSRF header there."""
    origin = ws.headers.get("origin")
    if not origin:
        return True
    return urlsplit(origin).netloc == ws.headers.get("host", "")


@router.websocket("/api/tables/{table_id}/live")
async def live(ws: WebSocket, table_id: str) -> None:
    server = ws.app.state.server
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
        await ws.send_json({"type": "error", "code": code, "message": getattr(error, "message", "bad request")})
        await ws.close(code=4000 + status)
        return
    client = Client(ws, table_id, actor, snapshot["seat"], version)
    live_hub = server.live
    writer = asyncio.create_task(live_hub.writer(client))
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
                client.send({"type": "error", "status": 422, "code": "invalid_request",
                             "message": "messages are JSON objects in text frames"})
                continue
            if len(text) > server.settings.max_ws_message_bytes:
                client.send({"type": "error", "code": "too_large", "message": "message too large"})
                continue
            await _handle(server, client, actor, text)
    except (WebSocketDisconnect, RuntimeError):
        # RuntimeError: our writer closed the socket (a slow reader, or shutdown) while
        # this loop waited for a message.
        pass
    finally:
        live_hub.remove(client)
        writer.cancel()
        with contextlib.suppress(BaseException):
            await writer


def _bounded(raw: str) -> int:
    """A query integer storage can hold (ValueError otherwise: a clear 422)."""
    value = int(raw)
    if not 0 <= value <= MAX_INT:
        raise ValueError(raw)
    return value


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= MAX_INT


async def _handle(server: Any, client: Client, actor: Actor | None, text: str) -> None:
    message: Any = None
    try:
        message = json.loads(text)
        if not isinstance(message, dict):
            raise ValueError
        if has_nul(message):
            raise ApiError(422, "invalid_request", "a message may not hold a NUL character")
        kind = message.get("type")
        ref = message.get("id") if isinstance(message.get("id"), str) else None
        if kind == "ping":
            client.send({"type": "pong"})
            return
        if kind == "hello":
            version = message.get("version")
            client.version = version if _is_int(version) else None
            client.fresh = True
            client.generation += 1
            server.live.mark(client.table_id)
            return
        if actor is None:
            raise ApiError(401, "not_signed_in", "sign in to play or chat")
        if kind == "move":
            if not _is_int(message.get("version")) or not isinstance(message.get("move"), dict):
                raise ApiError(422, "invalid_request", "a move message has an integer version and a move object")
            if ref is not None and len(ref) > 64:
                raise ApiError(422, "invalid_request", "a move id has at most 64 characters")
            seat = message.get("seat") if _is_int(message.get("seat")) else None
            result = await server.pipeline.move(actor, client.table_id, message["version"], message["move"], ref,
                                                seat)
            client.send({"type": "ack", "id": ref, **result})
        elif kind == "undo":
            if not _is_int(message.get("version")):
                raise ApiError(422, "invalid_request", "an undo message has an integer version")
            result = await asyncio.to_thread(server.tables.undo, actor, client.table_id, message["version"], None)
            client.send({"type": "ack", "id": ref, **result})
        elif kind == "chat":
            if not isinstance(message.get("text"), str):
                raise ApiError(422, "invalid_request", "a chat message has a text")
            await asyncio.to_thread(server.tables.chat, actor, client.table_id, message["text"])
        else:
            raise ApiError(422, "unknown_message", "message types: hello, move, undo, chat, ping")
    except ApiError as error:
        client.send({"type": "error", "status": error.status, "id": message.get("id") if isinstance(message, dict)
                     else None, **error.to_json()})
    except ValueError:
        client.send({"type": "error", "status": 422, "code": "invalid_request", "message": "messages are JSON objects"})
    except Exception:
        log.exception("live message failed")
        client.send({"type": "error", "status": 500, "code": "internal", "message": "internal server error"})
