"""The ``page`` channel of the alerts: the player's open pages (the personal socket,
server/live/personal.py) see an alert at once, whatever page they show."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ludoteca.server.alerts.core import Alert, Channel

SendTo = Callable[[int, Mapping[str, Any]], None]
"""Sends a message to every open page of a user, in every process."""


def page_channel(send_to: SendTo) -> Channel:
    def channel(alert: Alert) -> None:
        send_to(alert.user_id, {"type": "alert", "kind": alert.kind, "table": alert.table_id, "params": alert.params})
    return channel
