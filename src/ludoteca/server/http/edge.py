"""The connection edge: what one client controls is bounded before the app sees it.

uvicorn's own parser (httptools) takes a request line and headers of any size and any
number, waits for them and for a body as long as the client likes, and keeps writing to
a client that never reads. These protocol classes, given to uvicorn by ``launch_options``,
add the limits (each a ``LUDOTECA_*`` setting, listed in docs/ops.md):

- the request head (target and headers) within ``max_head_bytes``, at most
  ``max_headers`` header lines: else 431 and the connection closed;
- the head within ``head_timeout_seconds`` of the connection or of the first byte of a
  request (408 and closed), the body within ``body_timeout_seconds`` of the head (closed);
- at most ``max_connections_per_address`` open connections (HTTP and WebSocket) from one
  address: the next is answered 429 and closed. The addresses uvicorn trusts as proxies
  (``FORWARDED_ALLOW_IPS``, 127.0.0.1 by default) are not counted: every client behind
  the proxy shares them, and the proxy is where per-client limits belong then;
- at most ``request_burst_per_address`` requests at once from one address, refilled at
  ``requests_per_second_per_address`` (a token bucket, not counted for trusted proxies
  either): the next is answered 429 here, before the app parses or routes it. A flood
  (of logins, say) is refused for a few microseconds a request instead of a millisecond
  of the app's time, so it cannot starve the players' moves;
- a client that reads nothing of what it is sent for ``stalled_send_seconds`` is cut
  off: an HTTP response or a socket's updates waiting on it would hold memory for ever.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import json
from collections import Counter
from dataclasses import dataclass
from functools import cache
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

from ludoteca.server.kernel.config import Settings


@dataclass(frozen=True)
class EdgeLimits:
    max_head_bytes: int
    max_headers: int
    head_seconds: float
    body_seconds: float
    stalled_seconds: float
    per_address: int
    rate: float
    burst: int

    @classmethod
    def of(cls, settings: Settings) -> EdgeLimits:
        return cls(settings.max_head_bytes, settings.max_headers, settings.head_timeout_seconds,
                   settings.body_timeout_seconds, settings.stalled_send_seconds, settings.max_connections_per_address,
                   settings.requests_per_second_per_address, settings.request_burst_per_address)


@cache
def current_limits() -> EdgeLimits:
    """From the environment, as the app reads its settings: uvicorn builds the protocols
    itself (in every worker process), so they cannot be handed the settings."""
    return EdgeLimits.of(Settings.from_env())


_open_per_address: Counter[str] = Counter()
"""Open connections per client address in this process (the event loop's thread only)."""

class RequestBuckets:
    """A token bucket of requests per client address (the event loop's thread only)."""

    MAX_ADDRESSES = 100_000
    """Beyond this many addresses the oldest are forgotten (full buckets again): memory
    stays bounded under a flood from many addresses, which the global limit answers."""

    def __init__(self) -> None:
        self._buckets: dict[str, tuple[float, float]] = {}  # host -> (tokens, at)

    def take(self, host: str, rate: float, burst: int, moment: float) -> bool:
        tokens, at = self._buckets.pop(host, (float(burst), moment))
        tokens = min(float(burst), tokens + (moment - at) * rate)
        allowed = tokens >= 1.0
        if allowed:
            tokens -= 1.0
        self._buckets[host] = (tokens, moment)  # re-inserted: the dict's order is recency
        if len(self._buckets) > self.MAX_ADDRESSES:
            del self._buckets[next(iter(self._buckets))]
        return allowed

    def clear(self) -> None:
        self._buckets.clear()


_requests_per_address = RequestBuckets()

_REASONS = {408: b"Request Timeout", 429: b"Too Many Requests", 431: b"Request Header Fields Too Large"}


_CODES = {408: "request_timeout", 429: "too_many_requests", 431: "head_too_large"}


def _answer(transport: Any, status: int, message: str) -> None:
    """A last answer, in the API's error shape ``{code, message}``, then the connection
    closed."""
    body = json.dumps({"code": _CODES[status], "message": message}).encode()
    headers = b"retry-after: 1\r\n" if status == 429 else b""
    transport.write(b"HTTP/1.1 %d %s\r\ncontent-type: application/json\r\ncontent-length: %d\r\n%s"
                    b"connection: close\r\n\r\n%s" % (status, _REASONS[status], len(body), headers, body))
    transport.close()


def _trusted_proxy(config: Any, host: str) -> bool:
    """Whether uvicorn takes ``host`` for a proxy: an address or network of
    ``forwarded_allow_ips`` ("*" trusts everyone as a proxy, but exempts no one here)."""
    if not getattr(config, "proxy_headers", False):
        return False
    allowed = config.forwarded_allow_ips
    entries = [h.strip() for h in allowed.split(",")] if isinstance(allowed, str) else list(allowed)
    for entry in entries:
        if entry == host:
            return True
        if "/" in entry:
            with contextlib.suppress(ValueError):
                if ipaddress.ip_address(host) in ipaddress.ip_network(entry, strict=False):
                    return True
    return False


class _AddressSlot:
    """One connection's place in its address's count."""

    def __init__(self) -> None:
        self.host: str | None = None
        self.exempt = False
        """A trusted proxy's connection: no per-address limit applies to it."""

    def take(self, config: Any, client: tuple[str, int] | None, limit: int, check: bool) -> bool:
        if client is None or _trusted_proxy(config, client[0]):
            self.exempt = True
            return True
        if check and _open_per_address[client[0]] >= limit:
            return False
        self.host = client[0]
        _open_per_address[self.host] += 1
        return True

    def release(self) -> None:
        if self.host is not None:
            _open_per_address[self.host] -= 1
            if _open_per_address[self.host] <= 0:
                del _open_per_address[self.host]
            self.host = None


class _StallWatch:
    """Cuts a connection whose writes stay paused (the client reads nothing) too long."""

    def __init__(self, loop: asyncio.AbstractEventLoop, seconds: float) -> None:
        self.loop, self.seconds = loop, seconds
        self.timer: asyncio.TimerHandle | None = None

    def paused(self, transport: Any) -> None:
        if self.timer is None:
            self.timer = self.loop.call_later(self.seconds, transport.abort)

    def resumed(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None


class LimitedHttp(HttpToolsProtocol):
    """uvicorn's httptools protocol with the limits above."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.limits = current_limits()
        self.slot = _AddressSlot()
        self.stall = _StallWatch(self.loop, self.limits.stalled_seconds)
        self.in_head = True
        self.head_bytes = 0
        self.header_count = 0
        self.refusal: tuple[int, str] | None = None
        self.done = False
        self.timer: asyncio.TimerHandle | None = None

    # -- connection --------------------------------------------------------------------

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if not self.slot.take(self.config, self.client, self.limits.per_address, check=True):
            self.done = True
            _answer(transport, 429, "too many connections from this address")
            return
        self._arm(self.limits.head_seconds, self._head_late)

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        self.stall.resumed()
        self.slot.release()
        super().connection_lost(exc)

    def handle_websocket_upgrade(self) -> None:
        if self.refusal is not None:
            return  # answered once the parser returns
        # The socket's protocol takes the connection over (and its place in the count).
        self._disarm()
        self.slot.release()
        super().handle_websocket_upgrade()

    def data_received(self, data: bytes) -> None:
        if self.done:
            return
        super().data_received(data)
        if self.in_head and self.refusal is None and not self.transport.is_closing():
            # Bytes of a head still incomplete: bounded even while one header line grows.
            self.head_bytes += len(data)
            if self.head_bytes > self.limits.max_head_bytes:
                self.refusal = (431, "the request head is too large")
        if self.refusal is not None and not self.done:
            self.done = True
            self._disarm()
            _answer(self.transport, *self.refusal)

    def pause_writing(self) -> None:
        super().pause_writing()
        self.stall.paused(self.transport)

    def resume_writing(self) -> None:
        super().resume_writing()
        self.stall.resumed()

    # -- parser callbacks --------------------------------------------------------------

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self.in_head, self.head_bytes, self.header_count = True, 0, 0
        if self.timer is None:
            self._arm(self.limits.head_seconds, self._head_late)

    def on_url(self, url: bytes) -> None:
        super().on_url(url)
        if len(self.url) > self.limits.max_head_bytes:
            self.refusal = self.refusal or (431, "the request target is too long")

    def on_header(self, name: bytes, value: bytes) -> None:
        self.header_count += 1
        if self.header_count > self.limits.max_headers:
            self.refusal = self.refusal or (431, "too many header lines")
        if self.refusal is None:
            super().on_header(name, value)

    def on_headers_complete(self) -> None:
        self.in_head = False
        self._disarm()
        if self.refusal is None and not self.slot.exempt and self.client is not None and not _requests_per_address.take(
                self.client[0], self.limits.rate, self.limits.burst, self.loop.time()):
            self.refusal = (429, "too many requests from this address; wait a little and try again")
        if self.refusal is not None:
            return
        super().on_headers_complete()
        self._arm(self.limits.body_seconds, self._body_late)

    def on_body(self, body: bytes) -> None:
        if self.refusal is None:
            super().on_body(body)

    def on_message_complete(self) -> None:
        self._disarm()
        if self.refusal is None:
            super().on_message_complete()

    # -- timers ------------------------------------------------------------------------

    def _arm(self, seconds: float, then: Any) -> None:
        self._disarm()
        self.timer = self.loop.call_later(seconds, then)

    def _disarm(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None

    def _head_late(self) -> None:
        self.timer = None
        if not self.done and not self.transport.is_closing():
            self.done = True
            _answer(self.transport, 408, "the request head took too long")

    def _body_late(self) -> None:
        self.timer = None
        if not self.transport.is_closing():
            self.done = True
            self.transport.abort()  # the app sees the client gone


class LimitedWebSocket(WebSocketsSansIOProtocol):
    """uvicorn's WebSocket protocol, counted per address and cut off when it stalls."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.slot = _AddressSlot()
        self.stall = _StallWatch(self.loop, current_limits().stalled_seconds)

    def connection_made(self, transport: Any) -> None:
        super().connection_made(transport)
        # Admitted by the HTTP protocol it was upgraded from: counted, not refused.
        self.slot.take(self.config, self.client, 0, check=False)

    def connection_lost(self, exc: Exception | None) -> None:
        self.stall.resumed()
        self.slot.release()
        super().connection_lost(exc)

    def pause_writing(self) -> None:
        super().pause_writing()
        self.stall.paused(self.transport)

    def resume_writing(self) -> None:
        super().resume_writing()
        self.stall.resumed()


def launch_options(settings: Settings) -> dict[str, Any]:
    """The uvicorn options that carry the limits (``ludoteca serve`` and the tests' server)."""
    return {"http": LimitedHttp, "ws": LimitedWebSocket, "limit_concurrency": settings.max_connections,
            "ws_max_size": 4 * settings.max_ws_message_bytes, "timeout_keep_alive": 5,
            "ws_per_message_deflate": settings.ws_compression}
