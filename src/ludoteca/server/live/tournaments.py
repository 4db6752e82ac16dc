"""The tournament sockets (``WS /api/tournaments/{id}/live``, server/tournaments/routes.py):
each is sent the tournament again whenever it changes, in whichever process it changed.

The tournament service puts a ``tournament`` notice on the hub after every change it
commits (players, rounds, standings, status); on it, every process reads the tournament
once per kind of reader among its sockets of it (what a reader sees depends on who they
are and on the invitation they came with) and sends it to those whose last one is older.
A burst of changes while a pass runs is folded into one more pass.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from fastapi import WebSocket

from ludoteca.server.kernel import protocol
from ludoteca.server.kernel.errors import ApiError
from ludoteca.server.live.connections import QueuedSocket, encode
from ludoteca.server.live.sessions import SessionKey

log = logging.getLogger("ludoteca.server.live.tournaments")

QUEUE = 16

Read = Callable[[], dict[str, Any]]
"""The tournament as this socket's reader may see it (GET /api/tournaments/{id}'s answer),
read in a worker thread; ApiError when they may no longer."""


@dataclass(eq=False)
class TournamentClient(QueuedSocket):
    ws: WebSocket
    tournament_id: str
    read: Read
    reader: tuple[int | None, str | None]
    """Who reads (user id, the invitation given): sockets alike share one read per pass."""
    revision: int
    """The revision of the tournament last sent."""
    session: SessionKey | None = None
    queue: asyncio.Queue[str | None] = field(default_factory=lambda: asyncio.Queue(QUEUE))
    closed: bool = False

    @property
    def user_id(self) -> int | None:
        return self.reader[0]


class TournamentSockets:
    def __init__(self) -> None:
        self.tournaments: dict[str, set[TournamentClient]] = {}
        self._dirty: set[str] = set()
        self._running: dict[str, asyncio.Task[None]] = {}

    def add(self, client: TournamentClient) -> None:
        """Register a socket already sent the tournament at ``client.revision``; one pass
        follows at once, for a change made between that read and now."""
        self.tournaments.setdefault(client.tournament_id, set()).add(client)
        self.mark(client.tournament_id)

    def remove(self, client: TournamentClient) -> None:
        clients = self.tournaments.get(client.tournament_id)
        if clients is not None:
            clients.discard(client)
            if not clients:
                del self.tournaments[client.tournament_id]

    def sockets(self) -> Iterator[TournamentClient]:
        """Every tournament socket open in this process (server/live/sessions.py ends them)."""
        for clients in list(self.tournaments.values()):
            yield from list(clients)

    def on_message(self, message: Mapping[str, Any]) -> None:
        """A notice from the hub: a tournament changed, or the hub lost messages."""
        kind = message.get("kind")
        if kind == "resync":
            for known in list(self.tournaments):
                self.mark(known)
        elif kind == "tournament":
            changed = message.get("tournament")
            if isinstance(changed, str) and changed in self.tournaments:
                self.mark(changed)

    def mark(self, tournament_id: str) -> None:
        """Schedule one pass over the tournament's sockets (on the event loop)."""
        self._dirty.add(tournament_id)
        if tournament_id not in self._running:
            self._running[tournament_id] = asyncio.get_running_loop().create_task(self._flush(tournament_id))

    async def _flush(self, tournament_id: str) -> None:
        try:
            while tournament_id in self._dirty:
                self._dirty.discard(tournament_id)
                readers: dict[tuple[int | None, str | None], list[TournamentClient]] = {}
                for client in list(self.tournaments.get(tournament_id, ())):
                    readers.setdefault(client.reader, []).append(client)
                for clients in readers.values():
                    await self._send(clients)
        finally:
            self._running.pop(tournament_id, None)

    @staticmethod
    async def _send(clients: list[TournamentClient]) -> None:
        try:
            detail = await asyncio.to_thread(clients[0].read)
        except ApiError as error:  # no longer theirs to see
            for client in clients:
                client.end(protocol.closing_error(error))
            return
        except Exception:
            log.exception("tournament %s could not be read", clients[0].tournament_id)
            return
        text = None
        for client in clients:
            if client.closed or detail["revision"] == client.revision:
                continue
            client.revision = detail["revision"]
            if text is None:
                text = encode(protocol.tournament(detail))
            client.send(text)

    def close_all(self) -> None:
        for client in list(self.sockets()):
            client.end(protocol.bye())
