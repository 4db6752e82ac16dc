"""The server's time: every stored moment is naive UTC (SQLite keeps no time zone), and
every moment in an answer is ISO 8601 in UTC with a ``Z``, written by ``iso`` alone."""

from __future__ import annotations

import time
from datetime import UTC, datetime


def now() -> datetime:
    """Naive UTC, as every moment is stored."""
    return datetime.now(UTC).replace(tzinfo=None)


def now_ms() -> int:
    """Milliseconds since the epoch: what the clocks of tables count in."""
    return int(time.time() * 1000)


def iso(moment: datetime, seconds: bool = False) -> str:
    """A stored moment as an answer gives it: ``2026-12-01T23:29:18.123456Z``, or to the
    second with ``seconds`` (where finer would only be noise: a ban's end, a session's)."""
    return (moment.isoformat(timespec="seconds") if seconds else moment.isoformat()) + "Z"


def iso_or_none(moment: datetime | None, seconds: bool = False) -> str | None:
    return None if moment is None else iso(moment, seconds)
