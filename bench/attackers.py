"""Attackers for the soak (bench/soak.py): what a hostile client tries, each from a loopback
address of its own, against one or more server processes, for a set time, then a count of
how each was answered.

Each attacker meets the server's real limits: it connects from 127.0.0.2 and up, which
the server does not trust as a proxy, so the per-address counts apply to it (and an
``X-Forwarded-For`` it sends is ignored). The soak's honest players come through
127.0.0.1, the trusted proxy, each with an address of its own in ``X-Forwarded-For``, as
people behind a reverse proxy do; nothing is lifted for anyone.

    .venv/bin/python bench/attackers.py --server http://127.0.0.1:8000 --seconds 20
    .venv/bin/python bench/attackers.py --server URL --server URL2 --table ID --only login,headers

It prints one JSON object: attacker -> answer -> count. An answer is an HTTP status with
the error's code (``429 too_many_attempts``), a socket error's code (``ws too_deep``), or
what happened to the connection (``closed``, ``reset``, ``cut after 30 s``). Run by the
soak in a process of its own, so the attackers' work never delays the players' clients.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import socket
import sys
import time
import uuid
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import httpx
import websockets

DEEP = 5_000  # levels of nesting in the deep-JSON attacks (the limit is 32; 3,000 was a 500)
BIG_HEADER = 8 * 1024 * 1024  # bytes in one header line
MANY_HEADERS = 20_000  # header lines in one request

Counts = dict[str, Counter[str]]


def deep_json(levels: int = DEEP) -> str:
    """``levels`` nested arrays around a NUL character (both were 500s once)."""
    return "[" * levels + '"\\u0000"' + "]" * levels


@dataclass
class Target:
    urls: list[str]
    tables: list[str]  # tables the honest players play: watched, chatted at, moved at
    address: str  # the attacker's own source address
    counts: Counter[str] = field(default_factory=Counter)

    def url(self) -> str:
        return random.choice(self.urls)

    def host_port(self) -> tuple[str, int]:
        parts = urlsplit(self.url())
        return parts.hostname or "127.0.0.1", parts.port or 80

    def table(self) -> str | None:
        return random.choice(self.tables) if self.tables else None

    def http(self, timeout: float = 20) -> httpx.AsyncClient:
        transport = httpx.AsyncHTTPTransport(local_address=self.address)
        return httpx.AsyncClient(transport=transport, timeout=timeout, trust_env=False)

    def record(self, answer: httpx.Response) -> None:
        code = ""
        with contextlib.suppress(ValueError, AttributeError):
            body = answer.json()
            code = body.get("code", "") if isinstance(body, dict) else ""
        self.counts[f"{answer.status_code} {code}".strip()] += 1

    async def guest(self) -> str | None:
        """A guest token of this address (its sign-ups are limited like anyone's)."""
        async with self.http() as http:
            answer = await http.post(f"{self.url()}/api/sessions/guest")
        if answer.status_code != 200:
            self.record(answer)
            return None
        token: str = answer.json()["token"]
        return token

    async def raw(self, receive_buffer: int | None = None) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        """A plain TCP connection from this attacker's address."""
        sock = socket.socket()
        if receive_buffer is not None:  # before connecting: it sets the window offered
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
        sock.bind((self.address, 0))
        sock.setblocking(False)
        try:
            await asyncio.get_running_loop().sock_connect(sock, self.host_port())
        except OSError:
            sock.close()
            raise
        return await asyncio.open_connection(sock=sock)


async def status_line(reader: asyncio.StreamReader, seconds: float) -> str:
    """``"408"`` from the answer's first line, ``"closed"`` if the server closed without
    one, ``"reset"`` if it reset the connection."""
    try:
        line = await asyncio.wait_for(reader.readline(), seconds)
    except (ConnectionResetError, BrokenPipeError):
        return "reset"
    if not line:
        return "closed"
    parts = line.split()
    return parts[1].decode() if len(parts) > 1 else "garbled"


def ws_url(target: Target, table: str) -> str:
    return target.url().replace("http", "ws", 1) + f"/api/tables/{table}/live"


async def ws_connect(target: Target, table: str, token: str | None) -> Any:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    host, port = target.host_port()
    sock = socket.socket()
    sock.bind((target.address, 0))
    sock.setblocking(False)
    await asyncio.get_running_loop().sock_connect(sock, (host, port))
    return await websockets.connect(ws_url(target, table), sock=sock, additional_headers=headers,
                                    open_timeout=10, max_size=1 << 24)


# -- the attackers --------------------------------------------------------------------------


async def send_and_count(target: Target, table: str, token: str | None, message: Callable[[], str],
                         pause: float) -> None:
    """Send ``message()`` on a table's socket every ``pause`` seconds until the server closes
    it, counting its error codes and acknowledgements."""
    async with await ws_connect(target, table, token) as ws:
        async def read() -> None:
            async for raw in ws:
                answer = json.loads(raw)
                if answer.get("type") == "error":
                    target.counts[f"ws {answer.get('code')}"] += 1
                elif answer.get("type") == "ack":
                    target.counts["ws ack"] += 1
        reader = asyncio.create_task(read())
        try:
            while not reader.done():
                await ws.send(message())
                await asyncio.sleep(pause)
            await reader
        finally:
            reader.cancel()


async def login_flood(target: Target) -> None:
    """Eight at once, without pause: logins with made-up names (and a forged
    ``X-Forwarded-For``, which an untrusted address may not use), one sign-up in five."""
    async def worker() -> None:
        async with target.http() as http:
            while True:
                name = "flood" + uuid.uuid4().hex[:10]
                forged = {"X-Forwarded-For": f"10.{random.randrange(256)}.{random.randrange(256)}.1"}
                path, body = (("/api/accounts", {"username": name, "password": uuid.uuid4().hex})
                              if random.random() < 0.2 else ("/api/sessions", {"username": name, "password": "x" * 12}))
                target.record(await http.post(f"{target.url()}{path}", json=body, headers=forged))
    await asyncio.gather(*(worker() for _ in range(8)))


async def deep_json_attack(target: Target) -> None:
    """5,000 levels of nesting with a NUL inside: at sign-up without a session, at a
    table's moves and chat with one, and in socket messages."""
    token = await target.guest()
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    payload = deep_json().encode()

    async def over_http() -> None:
        async with target.http() as http:
            while True:
                table = target.table()
                path = random.choice(["/api/accounts"] + ([f"/api/tables/{table}/moves", f"/api/tables/{table}/chat"]
                                                          if table else []))
                target.record(await http.post(f"{target.url()}{path}", content=payload,
                                              headers={**headers, "Content-Type": "application/json"}))
                await asyncio.sleep(0.05)

    async def over_socket() -> None:
        table = target.table()
        if table is None:
            return
        message = '{"type": "move", "version": 1, "move": ' + deep_json() + "}"
        await send_and_count(target, table, token, lambda: message, 0.05)
    await asyncio.gather(over_http(), over_socket())


async def drip(target: Target, start: bytes, byte: bytes, connections: int) -> None:
    """``connections`` connections that send ``start`` and then ``byte`` every two seconds
    until the server answers or drops them; counted by answer and how long it took."""
    async def one() -> None:
        while True:
            try:
                reader, writer = await target.raw()
            except OSError:
                target.counts["refused"] += 1
                await asyncio.sleep(1)
                continue
            began = time.monotonic()
            writer.write(start)
            answer = asyncio.create_task(status_line(reader, 600))
            with contextlib.suppress(OSError):
                while not answer.done():
                    writer.write(byte)
                    await writer.drain()
                    await asyncio.wait({answer}, timeout=2)
            target.counts[f"{await answer} after {bucket(time.monotonic() - began)}"] += 1
            writer.close()
    await asyncio.gather(*(one() for _ in range(connections)))


async def slow_headers(target: Target, connections: int = 20) -> None:
    """Twenty connections that send their head a byte every two seconds."""
    await drip(target, b"GET /api/health HTTP/1.1\r\nHost: soak\r\n", b"X", connections)


async def slow_body(target: Target, connections: int = 20) -> None:
    """Twenty sign-ups whose 1,000-byte body comes a byte every two seconds."""
    await drip(target, b"POST /api/accounts HTTP/1.1\r\nHost: soak\r\nContent-Type: application/json\r\n"
               b"Content-Length: 1000\r\n\r\n{", b" ", connections)


async def stalled_readers(target: Target, sockets: int = 4) -> None:
    """Sockets to the players' tables that ask for the table again and again and never
    read a byte of the answers (a 4 KB receive window), till the server cuts them off."""
    token = await target.guest()

    async def one() -> None:
        while True:
            table = target.table()
            if table is None:
                await asyncio.sleep(1)
                continue
            try:
                reader, writer = await target.raw(receive_buffer=4096)
            except OSError:
                target.counts["refused"] += 1
                await asyncio.sleep(1)
                continue
            began = time.monotonic()
            host, port = target.host_port()
            auth = f"Authorization: Bearer {token}\r\n" if token else ""
            writer.write(f"GET /api/tables/{table}/live HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
                         f"Connection: Upgrade\r\nSec-WebSocket-Key: {uuid.uuid4().bytes.hex()[:22]}==\r\n"
                         f"Sec-WebSocket-Version: 13\r\n{auth}\r\n".encode())
            hello = masked_text_frame('{"type": "hello"}')
            try:
                while True:  # within the socket's message rate, so it is the stall that ends it
                    writer.write(hello)
                    await asyncio.wait_for(writer.drain(), 120)
                    await asyncio.sleep(0.2)
                    if reader.at_eof() or writer.transport.is_closing():
                        break
            except (OSError, TimeoutError):
                pass
            target.counts[f"cut after {bucket(time.monotonic() - began)}"] += 1
            writer.close()
    await asyncio.gather(*(one() for _ in range(sockets)))


def masked_text_frame(text: str) -> bytes:
    """A client's WebSocket text frame (the mask key zero: the payload as it is)."""
    payload = text.encode()
    assert len(payload) < 126
    return bytes([0x81, 0x80 | len(payload)]) + b"\0\0\0\0" + payload


async def chat_spam(target: Target) -> None:
    """Chat lines at a players' table as fast as the answers come, on a socket and over HTTP."""
    token = await target.guest()
    if token is None:
        return
    headers = {"Authorization": f"Bearer {token}"}

    async def over_http() -> None:
        async with target.http() as http:
            while True:
                table = target.table()
                if table is None:
                    await asyncio.sleep(1)
                    continue
                target.record(await http.post(f"{target.url()}/api/tables/{table}/chat", json={"text": "spam"},
                                              headers=headers))

    async def over_socket() -> None:
        table = target.table()
        if table is None:
            return
        await send_and_count(target, table, token,
                             lambda: json.dumps({"type": "chat", "text": "spam", "id": uuid.uuid4().hex}), 0.02)
    await asyncio.gather(over_http(), over_socket())


async def big_heads(target: Target) -> None:
    """Requests with an 8 MB header, then with 20,000 headers, one after the other."""
    big = b"GET /api/health HTTP/1.1\r\nHost: soak\r\nX-Big: " + b"a" * BIG_HEADER + b"\r\n\r\n"
    many = (b"GET /api/health HTTP/1.1\r\nHost: soak\r\n" + b"".join(b"X-H%d: v\r\n" % i for i in range(MANY_HEADERS))
            + b"\r\n")
    turn = 0
    while True:
        request = (big, many)[turn % 2]
        turn += 1
        try:
            reader, writer = await target.raw()
        except OSError:
            target.counts["refused"] += 1
            await asyncio.sleep(1)
            continue
        answer = asyncio.create_task(status_line(reader, 60))
        with contextlib.suppress(OSError):
            for start in range(0, len(request), 65536):
                if answer.done():
                    break
                writer.write(request[start:start + 65536])
                await writer.drain()
        target.counts[f"{('8 MB header', '20,000 headers')[(turn - 1) % 2]}: {await answer}"] += 1
        writer.close()
        await asyncio.sleep(0.1)


async def undo_loop(target: Target) -> None:
    """Two seats of one realtime table (60 s + 10 s a move), one of them moving then
    taking it back, again and again; a new table when one ends."""
    tokens = [await target.guest(), await target.guest()]
    if None in tokens:
        return
    async with target.http() as http:
        while True:
            async def call(path: str, token: str | None, body: Any = None) -> Any:
                answer = await http.post(f"{target.url()}{path}", json=body,
                                         headers={"Authorization": f"Bearer {token}"})
                answer.raise_for_status()
                return answer.json()
            try:
                table = (await call("/api/tables", tokens[0],
                                    {"game": "iwari", "seats": 2, "mode": "realtime",
                                     "clock": {"initial_seconds": 60, "increment_seconds": 10}}))["id"]
                await call(f"/api/tables/{table}/join", tokens[1])
                await call(f"/api/tables/{table}/start", tokens[0])
            except httpx.HTTPStatusError as error:
                target.record(error.response)
                await asyncio.sleep(1)
                continue
            await asyncio.gather(undoer(target, table, tokens[0]), undoer(target, table, tokens[1], undo=False))


async def undoer(target: Target, table: str, token: str | None, undo: bool = True) -> None:
    async with await ws_connect(target, table, token) as ws:
        moved = False
        sent: dict[str, str] = {}  # message id -> "move" or "undo"
        while True:
            message = json.loads(await ws.recv())
            kind = message.get("type")
            if kind == "error":
                target.counts[f"ws {message.get('code')}"] += 1
                if message.get("code") == "too_many_messages":
                    await asyncio.sleep(1)  # the socket's rate: wait for it rather than spin
                await ws.send(json.dumps({"type": "hello"}))
            elif kind == "ack":
                target.counts[f"ws {sent.pop(message.get('id'), '?')} ack"] += 1
            elif kind == "update":
                if message["table"]["status"] != "playing":
                    return
                ref = uuid.uuid4().hex
                if undo and moved and message.get("can_undo"):
                    moved, sent[ref] = False, "undo"
                    await ws.send(json.dumps({"type": "undo", "version": message["version"], "id": ref}))
                elif message.get("legal"):
                    moved, sent[ref] = True, "move"
                    await ws.send(json.dumps({"type": "move", "version": message["version"],
                                              "move": random.choice(message["legal"]), "id": ref}))


async def many_connections(target: Target, connections: int = 100) -> None:
    """A hundred idle connections at once from one address (the limit is 64 by default),
    each opened again once the server has answered or closed it."""
    async def one() -> None:
        while True:
            try:
                reader, writer = await target.raw()
            except OSError:
                target.counts["refused"] += 1
                await asyncio.sleep(1)
                continue
            target.counts[await status_line(reader, 600)] += 1
            writer.close()
            await asyncio.sleep(0.5)
    await asyncio.gather(*(one() for _ in range(connections)))


def bucket(seconds: float) -> str:
    """A duration to the nearest 5 s: answers counted by how long they took."""
    return f"~{5 * round(seconds / 5)} s"


ATTACKERS: dict[str, Callable[[Target], Awaitable[None]]] = {
    "login flood": login_flood, "deep JSON": deep_json_attack, "slow headers": slow_headers,
    "slow body": slow_body, "stalled readers": stalled_readers, "chat spam": chat_spam,
    "big headers": big_heads, "undo loop": undo_loop, "many connections": many_connections,
}
"""Each attacker's name and what it does; each gets an address of its own, 127.0.0.2 on."""


async def attack(urls: list[str], tables: list[str], seconds: float, only: list[str] | None = None,
                 first_address: int = 2) -> Counts:
    """Run the attackers for ``seconds`` and return how each was answered. An attacker that
    fails (a server killed under it) starts again; its failures are counted as ``error: …``."""
    names = [n for n in ATTACKERS if only is None or n in only]
    targets = {n: Target(urls, tables, f"127.0.0.{first_address + i}") for i, n in enumerate(names)}

    async def keep_going(name: str) -> None:
        while True:
            try:
                await ATTACKERS[name](targets[name])
            except asyncio.CancelledError:
                raise
            except Exception as error:  # a killed process, a table that ended: start again
                targets[name].counts[f"error: {type(error).__name__}"] += 1
                await asyncio.sleep(0.5)
    tasks = [asyncio.create_task(keep_going(n)) for n in names]
    await asyncio.sleep(seconds)
    for task in tasks:
        task.cancel()
    # Not gather: a task whose cancellation is lost in a library's close (it happened
    # once, a whole phase long) must not hold the count back. What is left runs on
    # harmlessly until the loop ends.
    await asyncio.wait(tasks, timeout=5)
    return {n: targets[n].counts for n in names}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--server", action="append", required=True, help="a server's URL (repeat for several)")
    parser.add_argument("--table", action="append", default=[], help="a table the players play (repeatable)")
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--only", default="", help=f"comma-separated, of: {', '.join(ATTACKERS)}")
    parser.add_argument("--nice", type=int, default=0, help="lower this process's CPU priority by this much")
    args = parser.parse_args()
    if args.nice:
        os.nice(args.nice)
    only = [n.strip() for n in args.only.split(",") if n.strip()] or None
    if only and (unknown := set(only) - set(ATTACKERS)):
        parser.error(f"no such attacker: {', '.join(sorted(unknown))}")

    async def attack_and_tell() -> None:
        counts = await attack(args.server, args.table, args.seconds, only)
        json.dump({name: dict(c) for name, c in counts.items()}, sys.stdout)
        sys.stdout.write("\n")
        sys.stdout.flush()
        # Now, from inside the loop: asyncio.run's own ending would wait for every task
        # left, and for sockets still half-open to a server.
        os._exit(0)

    asyncio.run(attack_and_tell())


if __name__ == "__main__":
    main()
