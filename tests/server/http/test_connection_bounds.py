"""What one client controls is bounded at the connection's edge (server/http/edge.py):
head size and header count (431), head and body read timeouts, connections per address,
and a client that stops reading. A real server process, raw sockets: the test client of
the app would skip the protocol layer under test."""

from __future__ import annotations

import contextlib
import json
import socket
import time
from collections.abc import Iterator

import httpx
import pytest

from tests.server.conftest import ServerProcess, server_env

LIMITS = {"LUDOTECA_MAX_HEAD_BYTES": "8192", "LUDOTECA_MAX_HEADERS": "50", "LUDOTECA_HEAD_TIMEOUT_SECONDS": "1",
          "LUDOTECA_BODY_TIMEOUT_SECONDS": "1", "LUDOTECA_MAX_CONNECTIONS_PER_ADDRESS": "6",
          "LUDOTECA_STALLED_SEND_SECONDS": "2", "LUDOTECA_CHAT_LINES_PER_10_SECONDS": "100000",
          "LUDOTECA_REQUESTS_PER_SECOND_PER_ADDRESS": "5", "LUDOTECA_REQUEST_BURST_PER_ADDRESS": "40"}
# The server trusts 127.0.0.1 as a proxy (uvicorn's default), which the per-address count
# leaves out; the clients here come from other loopback addresses.
CLIENT = "127.0.0.2"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    url = f"sqlite:///{tmp_path_factory.mktemp('edge') / 'db.sqlite'}"
    process = ServerProcess(server_env(url, **LIMITS))
    try:
        yield process
    finally:
        process.kill()


def connect(server: ServerProcess, source: str = CLIENT, receive_buffer: int | None = None) -> socket.socket:
    sock = socket.socket()
    if receive_buffer is not None:  # before connecting: it sets the window offered
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
    sock.settimeout(5)
    sock.bind((source, 0))
    sock.connect(("127.0.0.1", server.port))
    return sock


def answer(sock: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection (or 5 s pass)."""
    out = b""
    try:
        while chunk := sock.recv(65536):
            out += chunk
    except (TimeoutError, ConnectionResetError):
        pass
    return out


def status(raw: bytes) -> int:
    return int(raw.split(b" ", 2)[1]) if raw.startswith(b"HTTP/1.1 ") else 0


def healthy(server: ServerProcess) -> bool:
    with connect(server, "127.0.0.9") as sock:
        sock.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        return status(answer(sock)) == 200


def test_a_huge_target_or_head_is_431(server):
    with connect(server) as sock:
        sock.sendall(b"GET /api/tables/" + b"a" * 20_000 + b" HTTP/1.1\r\nHost: x\r\n\r\n")
        assert status(answer(sock)) == 431
    with connect(server) as sock:
        sock.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\nX-Big: ")
        try:  # an 8 MB header: refused long before it has all arrived
            for _ in range(128):
                sock.sendall(b"b" * 65536)
        except (BrokenPipeError, ConnectionResetError):
            pass
        assert status(answer(sock)) in (431, 0)
    with connect(server) as sock:
        headers = b"".join(b"X-H%d: v\r\n" % i for i in range(20_000))
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            sock.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\n" + headers + b"\r\n")
        assert status(answer(sock)) in (431, 0)
    with connect(server) as sock:  # many headers, each small, under the size limit
        sock.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\n" + b"".join(b"X%d: v\r\n" % i for i in range(60))
                     + b"\r\n")
        assert status(answer(sock)) == 431
    with connect(server) as sock:  # within the limits: served
        sock.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\nX-A: " + b"a" * 4000 + b"\r\n\r\n")
        assert status(answer(sock)) == 200
    assert healthy(server)


def test_slow_head_and_slow_body_clients_are_dropped(server):
    start = time.monotonic()
    with connect(server) as idle, connect(server) as slow_head, connect(server) as slow_body:
        slow_head.sendall(b"GET /api/health HTTP/1.1\r\n")
        slow_body.sendall(b"POST /api/accounts HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                          b"Content-Length: 100\r\n\r\n{\"user")
        for sock in (idle, slow_head, slow_body):
            sock.settimeout(4)
        assert status(answer(idle)) in (408, 0)
        assert status(answer(slow_head)) == 408
        answer(slow_body)  # closed: nothing more (the app saw the client go)
        assert time.monotonic() - start < 4.5
    assert healthy(server)


def test_connections_per_address_are_bounded(server):
    held = [connect(server) for _ in range(6)]
    try:
        with connect(server) as extra:
            assert status(answer(extra)) == 429
        assert healthy(server)  # another address is served
        with connect(server, "127.0.0.3") as other:
            other.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            assert status(answer(other)) == 200
    finally:
        for sock in held:
            sock.close()
    time.sleep(0.3)
    with connect(server) as again:  # the places are given back when connections close
        again.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        assert status(answer(again)) == 200


def test_a_client_that_never_reads_is_cut_off(server):
    """Requests for the source archive (about half a megabyte each), pipelined by a
    client that reads none of the answers: once the server's writes have stayed paused
    for LUDOTECA_STALLED_SEND_SECONDS the connection is cut (reset), not kept open with
    megabytes waiting for it. The same watch guards the WebSocket protocol."""
    size = len(httpx.get(f"{server.url}/api/source", trust_env=False).content)
    count = 8 * 1024 * 1024 // size + 1  # more than the kernel's buffers hold
    with connect(server, receive_buffer=4096) as sock:
        sock.sendall(b"GET /api/source HTTP/1.1\r\nHost: x\r\n\r\n" * count)
        time.sleep(5)
        received, cut = 0, False
        sock.settimeout(2)
        try:
            while chunk := sock.recv(65536):
                received += len(chunk)
            cut = True  # closed by the server
        except ConnectionResetError:
            cut = True
        except TimeoutError:
            pass  # still open, after all it had to send
        assert cut and received < count * size, (received, count * size)
    assert healthy(server)


def test_a_socket_whose_writes_stay_paused_is_cut_off(monkeypatch):
    """The WebSocket side of the same watch: writes paused past the limit abort the
    connection (a socket's queued updates cannot hold it open); resumed in time, kept."""
    import asyncio

    import uvicorn
    from uvicorn.server import ServerState

    from ludoteca.server.http import edge

    limits = edge.EdgeLimits(8192, 50, 1.0, 1.0, 0.2, 6, 5.0, 40)
    monkeypatch.setattr(edge, "current_limits", lambda: limits)

    class Transport:
        aborted = False

        def get_extra_info(self, name: str, default=None):
            return ("127.0.0.5", 4000) if name == "peername" else default

        def abort(self) -> None:
            self.aborted = True

        def is_closing(self) -> bool:
            return self.aborted

    async def scenario() -> tuple[bool, bool]:
        async def app(scope, receive, send) -> None:
            pass

        config = uvicorn.Config(app, ws=edge.LimitedWebSocket)
        config.load()
        kept, stalled = Transport(), Transport()
        for transport, resume in ((kept, True), (stalled, False)):
            protocol = edge.LimitedWebSocket(config=config, server_state=ServerState(), app_state={})
            protocol.connection_made(transport)
            protocol.pause_writing()
            if resume:
                await asyncio.sleep(0.1)
                protocol.resume_writing()
        await asyncio.sleep(0.4)
        return kept.aborted, stalled.aborted

    assert asyncio.run(scenario()) == (False, True)


def test_requests_per_address_are_rate_limited_at_the_edge(server):
    """A flood from one address is answered 429 by the connection's protocol once its
    burst is spent (the app never parses it), other addresses are served meanwhile, and
    the bucket refills at the set rate."""
    def ask(source: str) -> int:
        with connect(server, source) as sock:
            sock.sendall(b"POST /api/sessions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                         b"Content-Length: 2\r\nConnection: close\r\n\r\n{}")
            return status(answer(sock))

    flood = [ask("127.0.0.4") for _ in range(60)]
    assert 0 not in flood
    refused = flood.index(429)
    assert 38 <= refused <= 45 and set(flood[refused:]) == {429}, flood  # the burst, then refusals
    with connect(server, "127.0.0.4") as sock:  # in the API's error shape
        sock.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        raw = answer(sock)
    assert status(raw) == 429 and b"retry-after: 1" in raw
    assert json.loads(raw.split(b"\r\n\r\n", 1)[1])["code"] == "too_many_requests"
    assert 429 not in flood[:refused]
    assert ask("127.0.0.5") != 429  # another address is served
    time.sleep(1.2)
    assert ask("127.0.0.4") != 429  # refilled at 5 a second


def test_request_buckets_refill_and_stay_bounded(monkeypatch):
    from ludoteca.server.http.edge import RequestBuckets

    buckets = RequestBuckets()
    assert [buckets.take("a", 2.0, 3, 0.0) for _ in range(4)] == [True, True, True, False]
    assert buckets.take("a", 2.0, 3, 0.5)  # half a second: one token back
    assert not buckets.take("a", 2.0, 3, 0.5)
    monkeypatch.setattr(RequestBuckets, "MAX_ADDRESSES", 10)
    for n in range(50):
        buckets.take(f"h{n}", 2.0, 3, 1.0)
    assert len(buckets._buckets) == 10


def test_websockets_are_not_compressed_unless_the_host_asks():
    """permessage-deflate is off by default (LUDOTECA_WS_COMPRESSION): a browser offers it
    with every socket, and taken up it cost a third of a move's server CPU (docs/ops.md)."""
    from ludoteca.server.http.edge import launch_options
    from ludoteca.server.kernel.config import Settings

    assert launch_options(Settings.from_env(env={}))["ws_per_message_deflate"] is False
    assert launch_options(Settings.from_env(env={"LUDOTECA_WS_COMPRESSION": "on"}))["ws_per_message_deflate"] is True
    with pytest.raises(ValueError, match="WS_COMPRESSION"):
        Settings.from_env(env={"LUDOTECA_WS_COMPRESSION": "maybe"})


def test_the_socket_handshake_turns_down_compression(server):
    with connect(server) as sock:
        sock.sendall(b"GET /api/tables/none/live HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                     b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
                     b"Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits\r\n\r\n")
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = sock.recv(4096)
            assert chunk, head
            head += chunk
    head = head.split(b"\r\n\r\n", 1)[0]
    assert status(head) == 101, head
    assert b"sec-websocket-extensions" not in head.lower(), head
