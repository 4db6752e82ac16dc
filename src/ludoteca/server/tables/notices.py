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
    def __init__(self, hub: LocalHub | RedisHub) -> None:
        self.hub = hub
        self.schedule_bots: Callable[[str], None] = lambda _table_id: None
        """Let the bots of a table play if one must decide (set once the bots run)."""
        self.watch: TableWatch | None = None
        """Told of every change after the others (server/alerts/your_turn.py: "your turn")."""

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
        if self.watch is not None:
            self.watch.moved(table_id, version)

    def table_changed(self, table_id: str) -> None:
        """Seats, status or clocks changed without a move."""
        self.hub.publish(protocol.table_changed(table_id))
        if self.watch is not None:
            self.watch.changed(table_id)

    def chat(self, line: protocol.ChatLine) -> None:
        self.hub.publish(protocol.chat_notice(line))

    def chat_removed(self, table_id: str, chat_id: int) -> None:
        self.hub.publish(protocol.chat_removed(table_id, chat_id))
