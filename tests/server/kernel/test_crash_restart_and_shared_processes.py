"""Real server processes: a crash (kill -9) and restart on SQLite; two processes sharing
PostgreSQL and Redis behaving as one server; racing moves across processes."""

from __future__ import annotations

import asyncio
import json
import os
from functools import partial

import httpx
import pytest
import websockets

from tests.server.conftest import Api, ServerProcess, new_table, server_env
from tests.server.helpers import race


def _client(process: ServerProcess) -> httpx.Client:
    return httpx.Client(base_url=process.url, timeout=10)


def test_crash_and_restart_resumes_every_table(sqlite_url):
    process = ServerProcess(server_env(sqlite_url))
    try:
        with _client(process) as http:
            a, b = Api(http), Api(http)
            table_id = new_table(a, [b])
            assert a.move(table_id, 0, {"type": "draw"}).status_code == 200
            assert b.move(table_id, 1, {"type": "pass"}).status_code == 200
            hand = a.table(table_id)["view"]["hand"]
            assert a.move(table_id, 2, {"type": "bid", "card": hand[0]}).status_code == 200
            before = {seat: api.table(table_id) for seat, api in ((0, a), (1, b))}
        process.kill()
        process.start()
        with _client(process) as http:
            a.http = b.http = http
            for seat, api in ((0, a), (1, b)):
                after = api.table(table_id)
                for key in ("version", "moves", "pending", "view", "legal", "events"):
                    assert after[key] == before[seat][key], key
            # ...and play goes on from there.
            hand_b = b.table(table_id)["view"]["hand"]
            assert b.move(table_id, 3, {"type": "bid", "card": hand_b[0]}).status_code == 200
            assert a.table(table_id)["version"] == 4
    finally:
        process.stop()


async def _next_update(ws, version: int) -> dict:
    while True:
        message = json.loads(await asyncio.wait_for(ws.recv(), 10))
        if message["type"] == "update" and message["version"] == version:
            return message


@pytest.mark.slow
@pytest.mark.postgres
@pytest.mark.redis
def test_two_processes_share_postgres_and_redis(pg_url, redis_url):
    env = server_env(pg_url, LUDOTECA_REDIS_URL=redis_url, LUDOTECA_REDIS_PREFIX=f"ludoteca-test-{os.getpid()}:")
    one, two = ServerProcess(env), ServerProcess(env)
    try:
        with _client(one) as h1, _client(two) as h2:
            assert h1.get("/api/health").json()["hub"] == "redis"
            a = Api(h1)
            b = Api(h2)  # signed up through the other process: the same accounts and tables
            table_id = a.post("/api/tables", {"game": "drawbid", "seats": 2}).json()["id"]
            assert b.post(f"/api/tables/{table_id}/join").status_code == 200
            assert a.post(f"/api/tables/{table_id}/start").status_code == 200

            async def scenario() -> None:
                ws_url = f"ws://127.0.0.1:{two.port}/api/tables/{table_id}/live?token={b.token}"
                async with websockets.connect(ws_url) as ws:
                    await _next_update(ws, 0)
                    # A move through process one reaches a client of process two.
                    assert (await asyncio.to_thread(a.move, table_id, 0, {"type": "draw"})).status_code == 200
                    update = await _next_update(ws, 1)
                    assert update["legal"] and update["pending"] == [1]
                    assert [e["key"] for e in update["events"]] == ["drawbid.drew_one"]
                    # Chat crosses too.
                    await asyncio.to_thread(a.post, f"/api/tables/{table_id}/chat", {"text": "hello from one"})
                    while True:
                        message = json.loads(await asyncio.wait_for(ws.recv(), 10))
                        if message["type"] == "chat":
                            assert message["text"] == "hello from one"
                            break

            asyncio.run(scenario())

            # The sealed bid: both seats decide at once, each through its own process, at
            # the same version. Exactly one lands; the other is told the new version.
            assert b.move(table_id, 1, {"type": "pass"}).status_code == 200
            hand_a, hand_b = a.table(table_id)["view"]["hand"], b.table(table_id)["view"]["hand"]
            results = race(lambda: a.move(table_id, 2, {"type": "bid", "card": hand_a[0]}),
                           lambda: b.move(table_id, 2, {"type": "bid", "card": hand_b[0]}))
            assert sorted(r.status_code for r in results) == [200, 409]
            assert [r.json()["version"] for r in results] == [3, 3]
            assert a.table(table_id)["moves"] == b.table(table_id)["moves"] == 3

            # The same player sends different moves to both processes at once (two tabs
            # behind a load balancer): the database's constraints let exactly one through.
            twin = Api.__new__(Api)
            twin.http, twin.headers, twin.token, twin.name = h2, a.headers, a.token, a.name
            raced = 0
            for round_ in range(12):
                snap = a.table(table_id)
                if snap["table"]["status"] != "playing":
                    break
                if not snap["legal"]:
                    snap_b = b.table(table_id)
                    assert b.move(table_id, snap_b["version"], snap_b["legal"][0]).status_code == 200
                    continue
                version, first, second = snap["version"], snap["legal"][0], snap["legal"][-1]
                results = race(partial(a.move, table_id, version, first, move_id=f"p{round_}"),
                               partial(twin.move, table_id, version, second, move_id=f"q{round_}"))
                assert sorted(r.status_code for r in results) == [200, 409], [r.text for r in results]
                assert a.table(table_id)["version"] == version + 1
                raced += 1
            assert raced >= 2

            async def logged_out_elsewhere() -> None:
                """A log-out through process one closes the session's socket on process
                two at once (the hub carries it), not at the socket's next look-up."""
                ws_url = f"ws://127.0.0.1:{two.port}/api/tables/{table_id}/live?token={a.token}"
                async with websockets.connect(ws_url) as ws:
                    await asyncio.wait_for(ws.recv(), 10)  # the first update
                    out = await asyncio.to_thread(a.http.delete, "/api/sessions", headers=a.headers)
                    assert out.status_code == 200
                    started = asyncio.get_running_loop().time()
                    while True:  # nothing sent by the client: the server speaks first
                        message = json.loads(await asyncio.wait_for(ws.recv(), 3))
                        if message["type"] == "error":
                            assert message["code"] == "not_signed_in" and message.get("close") is True
                            break
                    assert asyncio.get_running_loop().time() - started < 3

            asyncio.run(logged_out_elsewhere())
    finally:
        one.stop()
        two.stop()


def _connected(api: Api, table_id: str, seat: int) -> bool:
    return api.table(table_id)["table"]["players"][seat]["connected"]


def _eventually(check, seconds: float = 10.0) -> bool:
    import time

    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.1)
    return False


@pytest.mark.slow
@pytest.mark.postgres
@pytest.mark.redis
def test_presence_crosses_processes_and_a_lost_redis_subscription_recovers(pg_url, redis_url):
    import redis

    prefix = f"ludoteca-test-{os.getpid()}-presence:"
    env = server_env(pg_url, LUDOTECA_REDIS_URL=redis_url, LUDOTECA_REDIS_PREFIX=prefix)
    one, two = ServerProcess(env), ServerProcess(env)
    try:
        with _client(one) as h1, _client(two) as h2:
            a = Api(h1)
            b = Api(h2)
            b_one = Api.__new__(Api)
            b_one.http, b_one.headers, b_one.token, b_one.name = h1, b.headers, b.token, b.name
            table_id = new_table(a, [b])
            assert not _connected(a, table_id, 1)

            async def scenario() -> None:
                ws_url = f"ws://127.0.0.1:{two.port}/api/tables/{table_id}/live?token={b.token}"
                async with websockets.connect(ws_url) as ws:
                    await _next_update(ws, 0)
                    # b's socket is on process two; process one shows b connected.
                    assert await asyncio.to_thread(_eventually, lambda: _connected(a, table_id, 1))

                    # Both processes lose their Redis subscription; a move made meanwhile
                    # through process one still reaches b once process two is back.
                    admin = redis.Redis.from_url(redis_url)
                    ours = [c["id"] for c in admin.client_list() if c.get("name") == f"{prefix}hub"]
                    assert len(ours) == 2
                    for client_id in ours:
                        admin.client_kill_filter(_id=client_id)
                    assert (await asyncio.to_thread(a.move, table_id, 0, {"type": "draw"})).status_code == 200
                    update = await _next_update(ws, 1)
                    assert update["pending"] == [1] and update["legal"]
                    ok = await asyncio.to_thread(
                        _eventually, lambda: len([c for c in admin.client_list()
                                                  if c.get("name") == f"{prefix}hub"]) == 2)
                    assert ok, [c for c in admin.client_list() if c.get("name") == f"{prefix}hub"]
                    # ...and news crosses again: the next move arrives as usual.
                    assert (await asyncio.to_thread(b_one.move, table_id, 1, {"type": "pass"})).status_code == 200
                    await _next_update(ws, 2)

            asyncio.run(scenario())
            # b's socket closed: process one no longer shows b connected.
            assert _eventually(lambda: not _connected(a, table_id, 1))
    finally:
        one.stop()
        two.stop()
