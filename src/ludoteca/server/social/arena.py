"""The arena around the tables: Play now (matchmaking.py over pools.py), invitations,
follows and friends, my games, and the personal live channel (me_live.py). Built once
per process by the server; the routes are in routes_arena.py."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from typing import Any

from ludoteca.server.kernel.tasks import cancel_all
from ludoteca.server.live.personal import MeLive
from ludoteca.server.playnow.queue import Matchmaking
from ludoteca.server.social.follows import Follows
from ludoteca.server.social.invitations import Invitations
from ludoteca.server.social.mygames import MyGames
from ludoteca.server.tables.notices import TableWatch


class _Watch:
    """The tables' watch (``Notices.watch``) with the badges' own look-out added."""

    def __init__(self, inner: TableWatch | None, touched: Callable[[str], None]) -> None:
        self.inner, self.touched = inner, touched

    def moved(self, table_id: str, version: int) -> None:
        if self.inner is not None:
            self.inner.moved(table_id, version)
        self.touched(table_id)

    def changed(self, table_id: str) -> None:
        if self.inner is not None:
            self.inner.changed(table_id)
        self.touched(table_id)


class Arena:
    def __init__(self, server: Any) -> None:  # the Server (it builds the arena: no import back)
        settings = server.settings
        self.server = server
        self.me = MeLive(settings.redis_url, settings.redis_prefix)
        self.mygames = MyGames(server)
        self.follows = Follows(server, self.me.online)
        self.invitations = Invitations(server, server.tables, server.alerts.notify, self.me.send_to,
                                       lambda key, limit, seconds, what: server.limiter.hit(key, limit, seconds, what))
        self.playnow = Matchmaking(server, server.tables, server.alerts.notify, self.me.send_to)
        self.me.badges = self.mygames.badges
        self.me.friends_of = self.follows.friend_ids
        self.me.names = self.follows.names
        # The open pages are the alert dispatcher's "page" channel.
        server.alerts.add_channel("page", self.me.page_alert)
        self._task: asyncio.Task[Any] | None = None

    def hub_handler(self, tables: Callable[[Mapping[str, Any]], None]) -> Callable[[Mapping[str, Any]], None]:
        """The tables' hub handler, with the badges told of every table notice too."""
        def both(message: Mapping[str, Any]) -> None:
            tables(message)
            self.me.table_notice(message)
        return both

    async def start(self) -> None:
        await self.me.start()
        # Told of every table change in this process, after whoever listened before.
        notices = self.server.tables.notices
        notices.watch = _Watch(notices.watch, self.me.touched)
        self._task = asyncio.create_task(self.playnow.run(self.server.settings.playnow_seconds))

    async def stop(self) -> None:
        await cancel_all([self._task])
        await self.me.stop()
