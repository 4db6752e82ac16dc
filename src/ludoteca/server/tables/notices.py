"""What the table services tell others after a change: every process's live readers
(through the hub) and this process's bots."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from ludoteca.server.kernel import protocol
from ludoteca.server.kernel.hub import LocalHub, RedisHub


class TableWatch(Protocol):
    """Who else hears of a table's changes in this process; both return at once."""

    def moved(self, table_id: str, version: int) -> None: ...
    def changed(self, table_id: str) -> None: ...


class Notices:
    """``subscribe`` and ``subscribe_bots`` are called while the server is built, before
    any table changes: every subscriber hears every change after the hub is told."""

    def __init__(self, hub: LocalHub | RedisHub) -> None:
        self.hub = hub
        self._watches: list[TableWatch] = []
        self._bots: list[Callable[[str], None]] = []

    def subscribe(self, watch: TableWatch) -> None:
        """``watch`` hears of every change of a table in this process ("your turn", the
        badges of the personal pages)."""
        self._watches.append(watch)

    def subscribe_bots(self, schedule: Callable[[str], None]) -> None:
        """``schedule`` lets the bots of a table play if one must decide."""
        self._bots.append(schedule)

    def schedule_bots(self, table_id: str) -> None:
        for schedule in self._bots:
            schedule(table_id)

    def moved(self, table_id: str, version: int, wake_bots: bool = True, origin: str | None = None) -> None:
        """After a committed move or undo: tell every process, and let bots play (if the
        table has any: the clock scan catches seats that turned zombie meanwhile).
        ``origin``: this process (named so) updated its own clients itself; only the
        others need the notice."""
        if origin is None:
            self.hub.publish(protocol.changed(table_id, version))
        elif self.hub.name != "local":
            self.hub.publish(protocol.changed(table_id, version, origin))
        if wake_bots:
            self.schedule_bots(table_id)
        for watch in self._watches:
            watch.moved(table_id, version)

    def table_changed(self, table_id: str) -> None:
        """Seats, status or clocks changed without a move."""
        self.hub.publish(protocol.table_changed(table_id))
        for watch in self._watches:
            watch.changed(table_id)

    def chat(self, line: protocol.ChatLine) -> None:
        self.hub.publish(protocol.chat_notice(line))

    def chat_removed(self, table_id: str, chat_id: int) -> None:
        self.hub.publish(protocol.chat_removed(table_id, chat_id))
