"""Live tables over WebSockets.

Each process keeps its own connected clients. On a notice from the hub it recomputes,
once per (seat, last version) among the table's clients, that seat's view, legal moves
and the events it has not seen, and queues them to each client. Notices that arrive
while a table is being sent are folded into one more pass, so a burst of moves costs one
round of views, not one per move. A client whose queue fills up (it does not read) is
closed; it reconnects and catches up from its last version.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import uuid
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, ClassVar

import orjson
from fastapi import WebSocket

from ludoteca.server.kernel import protocol
from ludoteca.server.kernel.hub import LocalHub, RedisHub
from ludoteca.server.kernel.identity import Actor
from ludoteca.server.live.sessions import SessionKey

LiveClient = tuple[int | None, int | None, int | None]
"""A client as the updates need it: (view seat, last version seen, user id)."""
Outgoing = protocol.Update | protocol.ErrorMessage
Updates = Callable[[str, list[LiveClient], int | None], Sequence[Outgoing] | None]
"""Each client's update of a table (None: the table is gone); see ``Views.updates``."""

log = logging.getLogger("ludoteca.server.live.connections")

QUEUE = 64
PRESENCE_EVERY = 10.0
"""Seconds between a process's reminders of who it has connected (the other processes
forget what they have not heard again within three of these: a process that died)."""


def encode(message: Any) -> str:
    """JSON text for a client. orjson, because encoding the views (several kilobytes of
    board each) was the largest single cost of a move with the standard library."""
    return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()


class QueuedSocket:
    """A WebSocket written by one task from a bounded queue, so that a page that does not
    read cannot make the server hold its messages without end: when the queue is full the
    socket is closed (the page reconnects and is sent its state again). The table, personal
    and tournament sockets are all this."""

    ws: WebSocket
    queue: asyncio.Queue[str | None]
    closed: bool
    close_code: ClassVar[int] = 1000

    def send(self, message: Any) -> None:
        """Queue a message (a protocol message, or its JSON text)."""
        if self.closed:
            return
        try:
            self.queue.put_nowait(message if isinstance(message, str) else encode(message))
        except asyncio.QueueFull:
            self.close()

    def end(self, message: Any) -> None:
        """Send ``message`` (why the server closes it), then close."""
        self.send(message)
        self.close()

    def close(self) -> None:
        """Send what is queued, then close; when the queue is full, one message makes room
        for the close (the page reconnects and is sent its state anyway)."""
        self.closed = True
        try:
            self.queue.put_nowait(None)
        except asyncio.QueueFull:
            with contextlib.suppress(asyncio.QueueEmpty, asyncio.QueueFull):
                self.queue.get_nowait()
                self.queue.put_nowait(None)

    async def writer(self) -> None:
        while True:
            text = await self.queue.get()
            if text is None:
                with contextlib.suppress(Exception):
                    await self.ws.close(code=self.close_code)
                return
            await self.ws.send_text(text)


@dataclass(eq=False)
class Client(QueuedSocket):
    close_code: ClassVar[int] = 1013  # try again later: the page reconnects
    ws: WebSocket
    table_id: str
    actor: Actor | None
    seat: int | None
    version: int | None
    queue: asyncio.Queue[str | None] = field(default_factory=lambda: asyncio.Queue(QUEUE))
    closed: bool = False
    fresh: bool = True
    """Not sent anything yet: the first pass sends it its state whatever the version."""
    generation: int = 0
    """Bumped when the client says which version it has (hello)."""
    hides: frozenset[str] = frozenset()
    """Usernames whose chat lines this client's user blocked (server/moderation/service.py)."""
    session: SessionKey | None = None
    """The session the socket was opened with (server/live/sessions.py ends it)."""
    session_checked: float = field(default_factory=time.monotonic)
    """When the session was last found valid in the database (``time.monotonic``)."""

    @property
    def user_id(self) -> int | None:
        return self.actor.user_id if self.actor is not None else None


class Live:
    def __init__(self, hub: LocalHub | RedisHub, updates: Updates) -> None:
        self.hub = hub
        self.updates_of = updates
        self.tables: dict[str, set[Client]] = {}
        self._dirty: dict[str, tuple[bool, int | None]] = {}
        """Per table with a pass to make: whether to send to every client (``force``),
        and the version a move's notice gave (None: something else changed too)."""
        self._running: dict[str, asyncio.Task[None]] = {}
        self.presence: dict[str, tuple[int | None, ...]] = {}
        """Per table, the user id (None: signed out) of each socket open in this process.
        Replaced whole on the event loop, so worker threads read it without a lock."""
        self.process = uuid.uuid4().hex
        self._publisher = ThreadPoolExecutor(max_workers=1, thread_name_prefix="presence")
        self.elsewhere: dict[str, dict[str, tuple[tuple[int | None, ...], float]]] = {}
        """Per table, per other process sharing the hub: its sockets' users, and until
        when that news holds."""

    def present(self, table_id: str) -> tuple[int | None, ...]:
        """The user of every socket open to the table, in every process."""
        here = self.presence.get(table_id, ())
        others = self.elsewhere.get(table_id)
        if not others:
            return here
        moment = time.monotonic()
        return here + tuple(user for users, until in list(others.values()) if until > moment for user in users)

    # -- presence across processes -----------------------------------------------------

    def _tell_presence(self, tables: dict[str, tuple[int | None, ...]], ask: bool = False) -> None:
        if self.hub.name == "local":
            return  # one process: nobody else to tell
        message = protocol.presence(self.process, tables, ask)
        # Publishing blocks on Redis: not on the event loop; one thread keeps the order.
        with contextlib.suppress(RuntimeError):  # shutting down: the others will forget us
            self._publisher.submit(self.hub.publish, message)

    def _heard_presence(self, message: Mapping[str, Any]) -> None:
        process = message.get("process")
        tables = message.get("tables")
        if process == self.process or not isinstance(process, str) or not isinstance(tables, dict):
            return
        if message.get("ask"):
            self._tell_presence(dict(self.presence))
        until = time.monotonic() + 3 * PRESENCE_EVERY
        for table_id, users in tables.items():
            others = self.elsewhere.setdefault(table_id, {})
            before = others.get(process, ((), 0.0))[0]
            now = tuple(users)
            if now:
                others[process] = (now, until)
            else:
                others.pop(process, None)
                if not others:
                    del self.elsewhere[table_id]
            if now != before and table_id in self.tables:
                self.mark(table_id, force=True)

    async def keep_presence(self) -> None:
        """Ask the others who they have, then remind them of ours now and then; forget
        what a silent process told."""
        self._tell_presence({}, ask=True)
        while True:
            await asyncio.sleep(PRESENCE_EVERY)
            self._tell_presence(dict(self.presence))
            moment = time.monotonic()
            for table_id in list(self.elsewhere):
                others = self.elsewhere[table_id]
                gone = [p for p, (_, until) in others.items() if until <= moment]
                for process in gone:
                    del others[process]
                if not others:
                    del self.elsewhere[table_id]
                if gone and table_id in self.tables:
                    self.mark(table_id, force=True)

    # -- notices from the hub ----------------------------------------------------------

    def on_message(self, message: Mapping[str, Any]) -> None:
        """A notice from the hub (``protocol.HubNotice``; checked, since it came over the
        network)."""
        kind = message.get("kind")
        if kind == "resync":
            # The hub lost messages: ask again who is where, and send every table again.
            self._tell_presence({}, ask=True)
            for known in list(self.tables):
                self.mark(known, force=True)
            return
        if kind == "presence":
            self._heard_presence(message)
            return
        table_id = message.get("table")
        if not isinstance(table_id, str) or table_id not in self.tables:
            return
        if kind == "chat":
            author = message["message"].get("username") if isinstance(message.get("message"), dict) else None
            for client in list(self.tables[table_id]):
                if author not in client.hides:
                    client.send(message["message"])
        elif kind == "chat_removed" and isinstance(message.get("message"), dict):
            for client in list(self.tables[table_id]):
                client.send(message["message"])
        elif kind == "changed":
            if message.get("origin") == self.process:
                return  # this process's own move: its clients were updated with the commit
            version = message.get("version")
            self.mark(table_id, version=version if isinstance(version, int) else None)
        elif kind == "table":
            self.mark(table_id, force=True)

    def mark(self, table_id: str, force: bool = False, version: int | None = None) -> None:
        """Schedule one pass of updates for ``table_id`` (``force``: even to clients that
        have this version already, because seats or status changed; ``version``: a move
        brought the table to this version and nothing else changed)."""
        if table_id in self._dirty:
            was_forced, was_version = self._dirty[table_id]
            latest = max(version, was_version) if version is not None and was_version is not None else None
            self._dirty[table_id] = (was_forced or force, latest)
        else:
            self._dirty[table_id] = (force, None if force else version)
        if table_id not in self._running:
            self._running[table_id] = asyncio.get_running_loop().create_task(self._flush(table_id))

    async def _flush(self, table_id: str) -> None:
        # The only sender of updates for this table in this process, so each client gets
        # them in version order.
        try:
            while table_id in self._dirty:
                force, version = self._dirty.pop(table_id)
                clients = list(self.tables.get(table_id, ()))
                if not clients:
                    return
                keys = [(c.seat, c.version, c.actor.user_id if c.actor else None) for c in clients]
                generations = [c.generation for c in clients]
                seen = [c.version for c in clients]
                try:
                    updates = await asyncio.to_thread(self._updates, table_id, keys, version)
                except Exception as error:
                    code = getattr(error, "code", "internal")
                    log.warning("live update of table %s failed: %s", table_id, code)
                    for c in clients:
                        c.send(protocol.plain_error(code, "the table could not be updated"))
                    return
                if updates is None:
                    return
                for client, (update, text), generation, version_seen in zip(clients, updates, generations, seen,
                                                                            strict=True):
                    if generation != client.generation:
                        continue  # it asked to catch up from elsewhere meanwhile: the next pass serves it
                    if version_seen != client.version:
                        # A move's commit updated it meanwhile (``deliver``): this update
                        # was computed from an older version; look again.
                        self._dirty.setdefault(table_id, (False, None))
                        continue
                    if update["type"] == "error":  # it closes the socket
                        client.send(update)
                        client.close()
                        continue
                    if force or client.fresh or update.get("version") != client.version or \
                            update["seat"] != client.seat:
                        client.fresh = False
                        client.seat = update["seat"]
                        client.version = update.get("version")
                        client.send(text)
        finally:
            self._running.pop(table_id, None)

    # -- updates made with a move's commit -------------------------------------------------

    def prepare(self, table_id: str, version: int) -> Any:
        """In the move worker, after the commit: the update of each of this process's
        clients of the table, encoded once per audience, with what each had then. Reads
        the clients without the event loop: ``tuple`` copies the set in one step."""
        clients = tuple(self.tables.get(table_id, ()))
        if not clients:
            return None
        states = [(c.generation, c.version, c.fresh) for c in clients]
        keys = [(c.seat, seen, c.actor.user_id if c.actor else None) for c, (_g, seen, _f) in zip(clients, states,
                                                                                                  strict=True)]
        updates = self._updates(table_id, keys, version)
        return None if updates is None else (table_id, clients, states, updates)

    def deliver(self, prepared: Any) -> None:
        """On the event loop: send what ``prepare`` made to each client still where it was
        then; any other (it caught up elsewhere, it is new, a pass is under way for the
        table) is served by an ordinary pass instead."""
        table_id, clients, states, updates = prepared
        again = table_id in self._running
        for client, (generation, seen, fresh), (update, text) in zip(clients, states, updates, strict=True):
            if client.closed:
                continue
            if again or fresh or client.fresh or generation != client.generation or seen != client.version:
                again = True
                continue
            if update["type"] == "error":  # it closes the socket
                client.send(update)
                client.close()
                continue
            if update.get("version") != client.version or update["seat"] != client.seat:
                client.seat = update["seat"]
                client.version = update.get("version")
                client.send(text)
        if again:
            self.mark(table_id)

    def _updates(self, table_id: str, keys: list[LiveClient],
                 version: int | None) -> list[tuple[Outgoing, str]] | None:
        """In a worker thread: each client's update and its JSON text, encoded once per
        distinct update (clients that see the same thing share one object)."""
        updates = self.updates_of(table_id, keys, version)
        if updates is None:
            return None
        texts: dict[int, str] = {}
        out = []
        for update in updates:
            text = texts.get(id(update))
            if text is None:
                text = texts[id(update)] = encode(update)
            out.append((update, text))
        return out

    # -- connections ----------------------------------------------------------------------

    def add(self, client: Client) -> None:
        """Register a client; its first update (what it missed since its version) goes
        through the table's sending pass like every other."""
        self.tables.setdefault(client.table_id, set()).add(client)
        self._present(client.table_id)

    def remove(self, client: Client) -> None:
        clients = self.tables.get(client.table_id)
        if clients is not None:
            clients.discard(client)
            if not clients:
                del self.tables[client.table_id]
            self._present(client.table_id)

    def _present(self, table_id: str) -> None:
        """Recount who is here; when that changed, every client gets the table again
        (who is online, how many watch)."""
        before = self.presence.get(table_id, ())
        now = tuple(sorted((c.actor.user_id if c.actor else None for c in self.tables.get(table_id, ())),
                           key=lambda user: -1 if user is None else user))
        if now:
            self.presence[table_id] = now
        else:
            self.presence.pop(table_id, None)
        if now != before:
            self._tell_presence({table_id: now})
        if table_id in self.tables:
            self.mark(table_id, force=now != before)

    def sockets(self) -> Iterator[Client]:
        """Every table socket open in this process (server/live/sessions.py ends them)."""
        for clients in list(self.tables.values()):
            yield from list(clients)

    def set_hides(self, user_id: int, hides: frozenset[str]) -> None:
        """On the event loop: ``user_id``'s open sockets skip the chat of ``hides`` (a block changed)."""
        for clients in list(self.tables.values()):
            for client in clients:
                if client.user_id == user_id:
                    client.hides = hides

    async def close_all(self) -> None:
        if self.presence:  # the others need not wait for this process's news to expire
            self._tell_presence({table_id: () for table_id in self.presence})
        self._publisher.shutdown(wait=True)
        for clients in list(self.tables.values()):
            for client in list(clients):
                client.send(protocol.bye())
                with contextlib.suppress(asyncio.QueueFull):
                    client.queue.put_nowait(None)
