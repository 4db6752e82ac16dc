"""Alerts: what a player is told away from a table's page (an invitation, their turn, a
match found, a tournament round about to start, a review ready), and the channels that
carry them (the player's open pages, Web Push, email). A service that has something to
say calls ``Alerts.notify``; each channel decides, from the player's preferences,
whether and when to deliver it. Channels must return at once: one that sends over the
network hands the alert to a queue of its own."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

log = logging.getLogger("ludoteca.server.alerts.core")

Kind = Literal["your_turn", "invitation", "matched", "tournament", "review_ready"]
KINDS: tuple[Kind, ...] = ("your_turn", "invitation", "matched", "tournament", "review_ready")


@dataclass(frozen=True, slots=True)
class Alert:
    user_id: int
    kind: Kind
    table_id: str | None = None
    params: dict[str, Any] = field(default_factory=dict)
    """What the message needs besides the kind (a game id, an inviter's name, ...): plain
    JSON values, turned into words in the recipient's language by each channel."""


Channel = Callable[[Alert], None]


class Alerts:
    def __init__(self) -> None:
        self._channels: list[tuple[str, Channel]] = []

    def add_channel(self, name: str, channel: Channel) -> None:
        self._channels.append((name, channel))

    def channels(self) -> tuple[str, ...]:
        return tuple(name for name, _ in self._channels)

    def notify(self, alert: Alert) -> None:
        """Hand ``alert`` to every channel; one channel's failure never stops the others
        nor the caller (an alert is a courtesy, the table is the truth)."""
        for name, channel in self._channels:
            try:
                channel(alert)
            except Exception:
                log.exception("alert channel %s failed for %s", name, alert.kind)
