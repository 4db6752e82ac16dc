"""Fan-out of table changes to every process's WebSocket clients.

Messages are small notices ("table T is now at version V", a chat line); each process
then computes its own clients' views from the shared database, so nothing secret ever
travels through Redis. Without Redis, the in-process hub serves a single process.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Callable, Mapping
from typing import Any

from ludoteca.server.kernel import protocol
from ludoteca.server.kernel.tasks import cancel_all

log = logging.getLogger("ludoteca.server.kernel.hub")

Handler = Callable[[Mapping[str, Any]], None]
"""Called on the event loop with each notice (a ``protocol.HubNotice``, as JSON)."""


class LocalHub:
    """One process: publishing calls the handler on the event loop."""

    name = "local"

    def __init__(self) -> None:
        self._handler: Handler | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    async def start(self, handler: Handler) -> None:
        self._handler = handler
        self._loop = asyncio.get_running_loop()

    def publish(self, message: Mapping[str, Any]) -> None:
        """Thread-safe: called from worker threads after a commit (``message``: a
        ``protocol.HubNotice``)."""
        if self._loop is None or self._handler is None or self._loop.is_closed():
            return
        self._loop.call_soon_threadsafe(self._handler, message)

    async def stop(self) -> None:
        self._handler = None


class RedisHub:
    """Several processes: every notice goes through one Redis pub/sub channel pattern,
    the publishing process included, so all processes see changes in the same order."""

    name = "redis"

    def __init__(self, url: str, prefix: str) -> None:
        import redis
        import redis.asyncio as aioredis

        self.prefix = prefix
        self.channel = f"{prefix}tables"
        self.sync = redis.Redis.from_url(url)
        # Named, so that an operator (or a test) can find this process's subscription.
        self._async = aioredis.Redis.from_url(url, client_name=f"{prefix}hub")
        self._task: asyncio.Task[None] | None = None
        self._handler: Handler | None = None

    async def start(self, handler: Handler) -> None:
        self._handler = handler
        pubsub = self._async.pubsub(ignore_subscribe_messages=True)
        await pubsub.subscribe(self.channel)
        self._task = asyncio.create_task(self._listen(pubsub))

    async def _listen(self, pubsub: Any) -> None:
        while True:
            try:
                async for item in pubsub.listen():
                    if item.get("type") != "message" or self._handler is None:
                        continue
                    try:
                        self._handler(json.loads(item["data"]))
                    except Exception:
                        log.exception("bad hub message")
            except asyncio.CancelledError:
                raise
            except Exception:
                # Redis went away: retry, and tell every table to refresh once it is back.
                log.warning("redis subscription lost; retrying")
                with contextlib.suppress(Exception):
                    await pubsub.aclose()  # or its connection lingers, subscribed again
                await asyncio.sleep(1)
                with contextlib.suppress(Exception):
                    pubsub = self._async.pubsub(ignore_subscribe_messages=True)
                    await pubsub.subscribe(self.channel)
                    if self._handler is not None:
                        self._handler(dict(protocol.resync()))

    def publish(self, message: Mapping[str, Any]) -> None:
        try:
            self.sync.publish(self.channel, json.dumps(message))
        except Exception:
            # The move is committed; clients that miss this notice catch up from the
            # database on their next change or reconnect.
            log.warning("redis publish failed")

    async def stop(self) -> None:
        await cancel_all([self._task])
        with contextlib.suppress(Exception):
            await self._async.aclose()
        with contextlib.suppress(Exception):
            self.sync.close()
