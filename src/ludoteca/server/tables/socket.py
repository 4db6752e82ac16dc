"""``WS /api/tables/{id}/live``: one socket per client and table.

The client may pass ``?version=V`` (or send ``{"type": "hello", "version": V}``) to
catch up from the last version it saw; it gets its own view, legal moves and the events
it missed, then an update after every change. It may also send moves, undos and chat
lines on the same socket: ``{"type": "move", "version", "move", "id"}``, ``{"type":
"undo", "version"}``, ``{"type": "chat", "text"}``; answers are ``ack`` or ``error``.
Opened, read and refused through server/live/handshake.py, like every live socket.
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass
from typing import Annotated

from fastapi import APIRouter, Depends, WebSocket

from ludoteca.server.http.deps import provided
from ludoteca.server.kernel import protocol
from ludoteca.server.kernel.bounds import MAX_INT
from ludoteca.server.kernel.errors import ApiError
from ludoteca.server.kernel.identity import Actor, lookup
from ludoteca.server.kernel.runtime import Runtime
from ludoteca.server.live import handshake
from ludoteca.server.live.connections import Client, Live
from ludoteca.server.live.limits import ChatLimits
from ludoteca.server.live.sessions import SESSION_RECHECK_SECONDS, SocketEnder, session_ended
from ludoteca.server.moderation.service import Moderation
from ludoteca.server.tables import Tables

router = APIRouter()
log = logging.getLogger("ludoteca.server.live.connections")


@dataclass(frozen=True, slots=True)
class _Services:
    """What a table socket uses of the server."""

    runtime: Runtime
    tables: Tables
    live: Live
    ender: SocketEnder
    chat_limits: ChatLimits


@router.websocket("/api/tables/{table_id}/live")
async def live(ws: WebSocket, table_id: str, runtime: Annotated[Runtime, Depends(provided(Runtime))],
               tables: Annotated[Tables, Depends(provided(Tables))],
               sockets: Annotated[Live, Depends(provided(Live))],
               ender: Annotated[SocketEnder, Depends(provided(SocketEnder))],
               chat_limits: Annotated[ChatLimits, Depends(provided(ChatLimits))],
               moderation: Annotated[Moderation, Depends(provided(Moderation))]) -> None:
    caller = await handshake.accept(ws, runtime)
    if caller is None:
        return
    actor, query = caller.actor, ws.query_params
    try:
        version = _bounded(query["version"]) if "version" in query else None
        seat = _bounded(query["seat"]) if "seat" in query else None
        snapshot = await asyncio.to_thread(tables.snapshot, actor, table_id, seat, None)
    except (ApiError, ValueError) as error:
        await handshake.refuse(ws, error)
        return
    client = Client(ws, table_id, actor, snapshot["seat"], version, session=caller.session)
    if actor is not None:  # the chat of those this user blocked is not sent to it
        client.hides = await asyncio.to_thread(moderation.hidden_names, actor.user_id)
    services = _Services(runtime, tables, sockets, ender, chat_limits)
    async with handshake.writing(client):
        for line in await asyncio.to_thread(tables.chat_recent, actor, table_id):
            client.send(line)
        sockets.add(client)
        try:
            async for text in handshake.messages(ws, client, runtime.settings):
                await _handle(services, client, actor, text, caller.found)
        finally:
            sockets.remove(client)


def _bounded(raw: str) -> int:
    """A query integer storage can hold (ValueError otherwise: a clear 422)."""
    value = int(raw)
    if not 0 <= value <= MAX_INT:
        raise ValueError(raw)
    return value


async def _session_holds(services: _Services, client: Client, found: tuple[str, str]) -> bool:
    if services.ender.has_ended(client.session):
        return False
    moment = time.monotonic()
    if moment - client.session_checked < SESSION_RECHECK_SECONDS:
        return True
    if await asyncio.to_thread(lookup, services.runtime, *found) is None:
        return False
    client.session_checked = moment
    return True


async def _handle(services: _Services, client: Client, actor: Actor | None, text: str,
                  found: tuple[str, str] | None) -> None:
    try:
        message = protocol.parse_client(text, signed_in=actor is not None)
        if isinstance(message, protocol.Ping):
            client.send(protocol.pong())
        elif isinstance(message, protocol.Hello):
            client.version = message.version
            client.fresh = True
            client.generation += 1
            services.live.mark(client.table_id)
        else:
            assert actor is not None and found is not None
            # The session may have ended since the socket opened (a log-out, an expiry, a
            # ban): one ended in any process is refused at once (the hub's ``ended``
            # notice); the database is asked again now and then as a backstop
            # (sessions.SESSION_RECHECK_SECONDS).
            if not await _session_holds(services, client, found):
                client.end(protocol.closing_error(session_ended()))
                return
            if isinstance(message, protocol.MoveRequest):
                receipt = await services.tables.pipeline.move(actor, client.table_id, message.version,
                                                              message.move, message.id, message.seat)
                client.send(protocol.ack(message.id, receipt))
            elif isinstance(message, protocol.UndoRequest):
                undone = await asyncio.to_thread(services.tables.undo, actor, client.table_id, message.version,
                                                 None)
                client.send(protocol.undo_ack(message.id, undone))
            else:
                services.chat_limits.chat_line(actor.user_id)
                await asyncio.to_thread(services.tables.chat, actor, client.table_id, message.text)
    except ApiError as error:
        client.send(protocol.error(error, protocol.message_id(text)))
    except ValueError:
        client.send(protocol.plain_error("invalid_request", "messages are JSON objects", status=422))
    except Exception:
        log.exception("live message failed")
        client.send(protocol.plain_error("internal", "internal server error", status=500))
