"""Message rates: what one socket may send, and how many chat lines one account may
post (over HTTP and sockets together), in a sliding window of ten seconds. Past either,
the message is refused with 429 ``too_many_messages`` and nothing else happens: the
socket stays open and the next message within the rate goes through.

Counted in the process (a process's own sockets and its own chat requests): with
several processes an account may post its rate in each, which still bounds it."""

from __future__ import annotations

import threading
import time
from collections import deque
from typing import Any
from weakref import WeakKeyDictionary

from ludoteca.server.kernel.config import Settings
from ludoteca.server.kernel.errors import ApiError

WINDOW_SECONDS = 10.0


class Window:
    """At most ``limit`` events in any ``WINDOW_SECONDS``."""

    def __init__(self) -> None:
        self.times: deque[float] = deque()

    def admit(self, limit: int) -> bool:
        moment = time.monotonic()
        while self.times and self.times[0] <= moment - WINDOW_SECONDS:
            self.times.popleft()
        if len(self.times) >= limit:
            return False
        self.times.append(moment)
        return True


_lock = threading.Lock()  # chat over HTTP is counted from the thread pool
_sockets: WeakKeyDictionary[Any, Window] = WeakKeyDictionary()
MAX_ACCOUNTS = 100_000
"""Accounts whose chat is counted at once; past it the counts start over (memory bound)."""


def _refuse(what: str) -> ApiError:
    return ApiError(429, "too_many_messages", f"too many {what}; slow down")


def socket_message(client: Any, settings: Settings) -> None:
    """Count one message from ``client`` (a live socket); ApiError 429 past its rate."""
    with _lock:
        window = _sockets.setdefault(client, Window())
        if not window.admit(settings.ws_messages_per_10_seconds):
            raise _refuse("messages on this socket")


class ChatLimits:
    """The chat lines of each account in this process, over HTTP and sockets together."""

    def __init__(self, settings: Settings) -> None:
        self.per_10_seconds = settings.chat_lines_per_10_seconds
        self._windows: dict[int, Window] = {}

    def chat_line(self, user_id: int) -> None:
        """Count one chat line from ``user_id``; ApiError 429 past the account's rate."""
        with _lock:
            if len(self._windows) > MAX_ACCOUNTS:
                self._windows.clear()
            if not self._windows.setdefault(user_id, Window()).admit(self.per_10_seconds):
                raise _refuse("chat lines")
