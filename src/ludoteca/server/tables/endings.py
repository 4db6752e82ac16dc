"""Where a game's end is announced: every way a game ends (its last move, in a group of
moves or alone; a resignation that leaves one seat standing) goes through ``Endings``.

Two kinds of subscribers:

- ``in_transaction``: called inside the transaction that ends the game, with its
  connection, so that what they store commits (or rolls back) with the end: ratings.
  A write that is rolled back (a racing move won) may call them again for the same
  table: what they wrote was rolled back with it.
- ``after``: called once the end is committed, exactly once per ending, outside every
  lock (tournaments, reviews). The table's readers are told here too. They run in the
  thread that ended the game (a move worker, a request's thread): they must be quick,
  and hand anything long (a review's search) to a pool of their own.

A timeout never ends a game here: a seat out of time gets a bot and the game goes on.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from sqlalchemy import Connection

log = logging.getLogger("ludoteca.server.tables.endings")

How = Literal["played", "resigned", "aborted"]


@dataclass(frozen=True, slots=True)
class Ending:
    table_id: str
    game: str
    rated: bool
    """Whether it changes ratings (``counts_for_ratings``: a rated public table)."""
    how: How
    """``played``: the game's last move; ``resigned``: one seat was left standing;
    ``aborted``: a moderator ended it with no result (``result`` is empty)."""
    result: dict[str, Any]
    """The result as stored (resigners ranked last)."""
    players: tuple[tuple[int, int | None], ...]
    """(seat, user id) of every seat: None for a bot's."""


def counts_for_ratings(rated: bool, private: bool) -> bool:
    """Whether a table's end changes ratings (``Ending.rated``): ratings and profiles are
    public, so a private table's games count for neither, rated or not."""
    return rated and not private


InTransaction = Callable[[Connection, Ending], None]
After = Callable[[Ending], None]


class Endings:
    def __init__(self, notify: Callable[[str], None]) -> None:
        self._notify = notify
        self._in_transaction: list[InTransaction] = []
        self._after: list[After] = []

    def subscribe_in_transaction(self, subscriber: InTransaction) -> None:
        self._in_transaction.append(subscriber)

    def subscribe(self, subscriber: After) -> None:
        self._after.append(subscriber)

    def record(self, connection: Connection, ending: Ending) -> None:
        """Inside the transaction that ends the game."""
        for subscriber in self._in_transaction:
            subscriber(connection, ending)

    def announce(self, ending: Ending) -> None:
        """Once the end is committed: its readers, then every subscriber (one failing
        does not keep the others from hearing it)."""
        self._notify(ending.table_id)
        for subscriber in self._after:
            try:
                subscriber(ending)
            except Exception:
                log.exception("a subscriber to the end of table %s failed", ending.table_id)
