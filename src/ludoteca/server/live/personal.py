"""The personal live channel, ``WS /api/me/live``: one socket per open page of a signed-in
player, whatever page it is, which hears what concerns the player away from any table:
invitations and other alerts (it is the ``page`` channel of ``server.alerts``), "matched:
go to table X", the count of tables waiting for the player's decision (the header's
badge) and which friends are online.

Across processes, messages for a user go through a hub of their own (Redis pub/sub on
the channel ``<prefix>me-tables``, apart from the tables' hub, or in-process without
Redis): any process may have something to say to a user whose socket another process
holds. Who is online is kept in Redis as keys that expire unless their process renews
them (a process that dies stops renewing: its users go offline within ``ONLINE_TTL``),
or in this process's memory without Redis.

Messages sent (JSON text frames, ``type`` first):

    {"type": "hello", "badge": n, "friends_online": [names]}
    {"type": "alert", "kind": "invitation" | "matched" | ..., "table": id, "params": {...}}
    {"type": "badge", "count": n}
    {"type": "friends", "online": [names]}
    {"type": "invitations"}           the player's invitations changed: fetch them again
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from fastapi import WebSocket

from ludoteca.server.kernel.hub import LocalHub, RedisHub
from ludoteca.server.kernel.tasks import cancel_all
from ludoteca.server.live.connections import QueuedSocket
from ludoteca.server.live.sessions import SessionKey

log = logging.getLogger("ludoteca.server.live.personal")

QUEUE = 32
ONLINE_TTL = 30
"""Seconds an online mark lasts in Redis unless renewed (every ``ONLINE_TTL / 3``)."""
BADGE_EVERY = 0.3
"""Seconds between passes over the tables that changed, for the badges of the players
connected here (a burst of moves costs one pass)."""
MAX_SOCKETS_PER_USER = 8


@dataclass(eq=False)
class MeClient(QueuedSocket):
    ws: WebSocket
    user_id: int
    session: SessionKey | None = None
    """The session the socket was opened with (server/live/sessions.py ends it)."""
    queue: asyncio.Queue[str | None] = field(default_factory=lambda: asyncio.Queue(QUEUE))
    closed: bool = False


Badges = Callable[[Iterable[int], Iterable[str] | None], dict[int, int]]
"""(users, tables that changed or None for all) -> each affected user's badge count."""
FriendsOf = Callable[[int], list[int]]
"""A user's friends (mutual follows), as user ids."""
Names = Callable[[Iterable[int]], dict[int, str]]


class MeLive:
    def __init__(self, redis_url: str | None, prefix: str, badges: Badges, friends_of: FriendsOf,
                 names: Names) -> None:
        self.hub: LocalHub | RedisHub = RedisHub(redis_url, f"{prefix}me-") if redis_url else LocalHub()
        self.prefix = prefix
        self.clients: dict[int, set[MeClient]] = {}
        self.loop: asyncio.AbstractEventLoop | None = None
        self.badges, self.friends_of, self.names = badges, friends_of, names
        self._badge: dict[int, int] = {}
        """The last count sent to this process's sockets of each user."""
        self._dirty: set[str] = set()
        self._recheck: set[int] = set()
        self._local_online: dict[int, int] = {}
        self._tasks: list[asyncio.Task[Any]] = []

    # -- life cycle -----------------------------------------------------------------------

    async def start(self) -> None:
        self.loop = asyncio.get_running_loop()
        await self.hub.start(self._on_message)
        self._tasks.append(asyncio.create_task(self._badge_loop()))
        if isinstance(self.hub, RedisHub):
            self._tasks.append(asyncio.create_task(self._renew_loop()))

    async def stop(self) -> None:
        await cancel_all(self._tasks)
        for clients in list(self.clients.values()):
            for client in list(clients):
                client.close()
        if isinstance(self.hub, RedisHub) and self.clients:
            with contextlib.suppress(Exception):
                self.hub.sync.delete(*(self._online_key(u) for u in self.clients))
        await self.hub.stop()

    # -- sending --------------------------------------------------------------------------

    def send_to(self, user_id: int, message: Mapping[str, Any]) -> None:
        """Thread-safe, from any process: ``message`` reaches every open page of ``user_id``."""
        self.hub.publish({"kind": "user", "user": user_id, "message": dict(message)})

    def _on_message(self, message: Mapping[str, Any]) -> None:
        kind = message.get("kind")
        if kind == "user":
            user = message.get("user")
            body = message.get("message")
            if isinstance(user, int) and isinstance(body, dict):
                for client in list(self.clients.get(user, ())):
                    client.send(body)
        elif kind == "online":
            user = message.get("user")
            if isinstance(user, int) and self.clients:
                asyncio.get_running_loop().create_task(self._friends_changed(user))

    # -- presence ---------------------------------------------------------------------------

    def _online_key(self, user_id: int) -> str:
        return f"{self.prefix}online:{user_id}"

    def online(self, user_ids: Iterable[int]) -> set[int]:
        """Which of ``user_ids`` have a page open, in any process."""
        ids = list(user_ids)
        if not ids:
            return set()
        if isinstance(self.hub, RedisHub):
            try:
                found = self.hub.sync.mget([self._online_key(u) for u in ids])
            except Exception:
                log.warning("redis online look-up failed")
                return {u for u in ids if u in self.clients}
            return {u for u, mark in zip(ids, found, strict=True) if mark is not None}
        return {u for u in ids if self._local_online.get(u)}

    def _mark_online(self, user_id: int, online: bool) -> None:
        if isinstance(self.hub, RedisHub):
            try:
                if online:
                    self.hub.sync.set(self._online_key(user_id), "1", ex=ONLINE_TTL)
                else:
                    self.hub.sync.delete(self._online_key(user_id))
            except Exception:
                log.warning("redis online mark failed")
        elif online:
            self._local_online[user_id] = 1
        else:
            self._local_online.pop(user_id, None)
        self.hub.publish({"kind": "online", "user": user_id, "online": online})

    async def _renew_loop(self) -> None:
        assert isinstance(self.hub, RedisHub)
        while True:
            await asyncio.sleep(ONLINE_TTL / 3)
            users = list(self.clients)
            if users:
                with contextlib.suppress(Exception):
                    pipe = self.hub.sync.pipeline()
                    for user in users:
                        pipe.set(self._online_key(user), "1", ex=ONLINE_TTL)
                    await asyncio.to_thread(pipe.execute)

    def friends_online(self, user_id: int) -> list[str]:
        online = self.online(self.friends_of(user_id))
        return sorted(self.names(online).values(), key=str.casefold)

    async def _friends_changed(self, user_id: int) -> None:
        """``user_id`` came or went: its friends connected here get their list again."""
        try:
            friends = await asyncio.to_thread(self.friends_of, user_id)
            for friend in friends:
                if friend in self.clients:
                    await self._send_friends(friend)
        except Exception:
            log.exception("friends' presence failed")

    async def _send_friends(self, user_id: int) -> None:
        names = await asyncio.to_thread(self.friends_online, user_id)
        for client in list(self.clients.get(user_id, ())):
            client.send({"type": "friends", "online": names})

    # -- sockets -----------------------------------------------------------------------------

    def add(self, client: MeClient) -> bool:
        """Register a socket; False if the user has too many open already."""
        mine = self.clients.setdefault(client.user_id, set())
        if len(mine) >= MAX_SOCKETS_PER_USER:
            return False
        mine.add(client)
        return True

    def first(self, user_id: int) -> bool:
        return len(self.clients.get(user_id, ())) == 1

    def remove(self, client: MeClient) -> bool:
        """Forget a socket; True if it was the user's last one here."""
        mine = self.clients.get(client.user_id)
        if mine is None:
            return False
        mine.discard(client)
        if mine:
            return False
        del self.clients[client.user_id]
        self._badge.pop(client.user_id, None)
        return True

    async def went_online(self, user_id: int) -> None:
        await asyncio.to_thread(self._mark_online, user_id, True)

    async def went_offline(self, user_id: int) -> None:
        await asyncio.to_thread(self._mark_online, user_id, False)

    def sockets(self) -> Iterator[MeClient]:
        """Every personal socket open in this process (server/live/sessions.py ends them)."""
        for clients in list(self.clients.values()):
            yield from list(clients)

    # -- the badge ------------------------------------------------------------------------------

    def table_notice(self, message: Mapping[str, Any]) -> None:
        """A notice from the tables' hub (every process hears every table's): a table that
        changed may change the badge of its players connected here."""
        if not self.clients:
            return
        if message.get("kind") == "resync":
            self._dirty.add("*")
            return
        table_id = message.get("table")
        if message.get("kind") in ("changed", "table") and isinstance(table_id, str):
            self._dirty.add(table_id)

    def moved(self, table_id: str, version: int) -> None:
        """A table's move (``Notices.subscribe``): its players' badges may change."""
        self.touched(table_id)

    def changed(self, table_id: str) -> None:
        self.touched(table_id)

    def touched(self, table_id: str) -> None:
        """Thread-safe: a table changed in this process (moves this process announced to
        its own table sockets never cross the hub)."""
        loop = self.loop
        if self.clients and loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self._dirty.add, table_id)

    def badge_now(self, user_id: int, count: int) -> None:
        """The count a new socket's hello carried. It was read before the socket was
        registered, so a change in between was heard by nobody: the next pass counts the
        user again (and sends the count if it moved)."""
        self._badge[user_id] = count
        self._recheck.add(user_id)

    async def _badge_loop(self) -> None:
        while True:
            await asyncio.sleep(BADGE_EVERY)
            if (not self._dirty and not self._recheck) or not self.clients:
                self._dirty.clear()
                self._recheck.clear()
                continue
            dirty, self._dirty = self._dirty, set()
            recheck, self._recheck = self._recheck, set()
            users = list(self.clients)
            try:
                counts = await asyncio.to_thread(self.badges, users, None if "*" in dirty else dirty) if dirty else {}
                again = [u for u in recheck if u in self.clients and u not in counts]
                if again:
                    counts.update(await asyncio.to_thread(self.badges, again, None))
            except Exception:
                log.exception("badge pass failed")
                continue
            for user, count in counts.items():
                if self._badge.get(user) != count and user in self.clients:
                    self._badge[user] = count
                    for client in list(self.clients[user]):
                        client.send({"type": "badge", "count": count})

    def connected(self) -> int:
        return sum(len(c) for c in self.clients.values())
