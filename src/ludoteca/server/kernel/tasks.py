"""The background tasks a service starts, ended when it stops."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterable
from typing import Any


async def cancel_all(tasks: Iterable[asyncio.Task[Any] | None]) -> None:
    """Cancel every task (``None``: never started), then wait until each has ended. All are
    cancelled before the first wait, so none keeps running while another winds down; what a
    task raises as it ends is of no use at shutdown and is dropped."""
    started = [task for task in tasks if task is not None]
    for task in started:
        task.cancel()
    for task in started:
        with contextlib.suppress(BaseException):
            await task
