"""The live layer: ending a session or an account closes its sockets of every kind (table,
personal, tournament) in every process at once, and only its own; the sweep closes those
of a session ended with no notice; the tournament socket hears of changes through the
hub, from any process, and reads the database only when told of one.

The processes' tests run two real servers over PostgreSQL and Redis."""

from __future__ import annotations

import asyncio
import json
import os
import time
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
import websockets
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from ludoteca.server.app import create_app
from ludoteca.server.kernel import identity
from ludoteca.server.live import sessions
from tests.server.conftest import Api, ServerProcess, make_settings, new_table, server_env
from tests.server.helpers import receive_until
from tests.server.tournaments.helpers import soon

PASSWORD = "correct horse"
SECONDS = 10.0


# -- two processes ---------------------------------------------------------------------------


@pytest.fixture
def two_processes(pg_url: str, redis_url: str) -> Iterator[tuple[ServerProcess, ServerProcess]]:
    env = server_env(pg_url, LUDOTECA_REDIS_URL=redis_url,
                     LUDOTECA_REDIS_PREFIX=f"ludoteca-test-{os.getpid()}-{time.monotonic_ns()}:")
    one = ServerProcess(env)
    try:
        two = ServerProcess(env)
    except BaseException:
        one.stop()
        raise
    try:
        yield one, two
    finally:
        one.stop()
        two.stop()


def sign_in(http: httpx.Client, user: Api, password: str = PASSWORD) -> str:
    """Another session of ``user``: its bearer token."""
    r = http.post("/api/sessions", json={"username": user.name, "password": password})
    assert r.status_code == 200, r.text
    http.cookies.clear()
    return r.json()["token"]


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def session_id(http: httpx.Client, token: str) -> str:
    """The id the account page gives the session of ``token``."""
    listed = http.get("/api/account/sessions", headers=bearer(token)).json()
    return next(s["id"] for s in listed if s["current"])


class Socket:
    """One live socket of a real process, read as JSON messages."""

    def __init__(self, name: str, connection: Any) -> None:
        self.name, self.connection = name, connection

    async def until(self, predicate: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        deadline = time.monotonic() + SECONDS
        while True:
            left = deadline - time.monotonic()
            assert left > 0, f"{self.name}: no such message"
            message = json.loads(await asyncio.wait_for(self.connection.recv(), left))
            if predicate(message):
                return message

    async def stays_open(self) -> None:
        """It answers a ping (after whatever it was sent before)."""
        await self.connection.send('{"type":"ping"}')
        await self.until(lambda m: m["type"] == "pong")

    async def ends(self, code: str = "not_signed_in") -> None:
        """It is told why, and closed."""
        told = None
        deadline = time.monotonic() + SECONDS
        try:
            while True:
                left = deadline - time.monotonic()
                assert left > 0, f"{self.name}: still open"
                message = json.loads(await asyncio.wait_for(self.connection.recv(), left))
                if message["type"] == "error":
                    told = message
        except websockets.ConnectionClosed:
            pass
        assert told is not None and told["code"] == code and told.get("close"), f"{self.name}: {told}"


async def connect(process: ServerProcess, path: str, token: str | None, name: str,
                  first: Callable[[dict[str, Any]], bool]) -> Socket:
    """A socket open (its first message read) on ``process``."""
    query = f"?token={token}" if token else ""
    socket = Socket(name, await websockets.connect(f"ws://127.0.0.1:{process.port}{path}{query}"))
    await socket.until(first)
    return socket


def is_hello(message: dict[str, Any]) -> bool:
    return message["type"] == "hello"


def is_update(message: dict[str, Any]) -> bool:
    return message["type"] == "update"


def is_tournament(message: dict[str, Any]) -> bool:
    return message["type"] == "tournament"


async def sockets_of(token: str, label: str, table_id: str, processes: tuple[ServerProcess, ...]) -> list[Socket]:
    """The personal and table sockets of the session of ``token``, on each process."""
    out = []
    for number, process in enumerate(processes, 1):
        out.append(await connect(process, "/api/me/live", token, f"{label} personal on {number}", is_hello))
        out.append(await connect(process, f"/api/tables/{table_id}/live", token, f"{label} table on {number}",
                                 is_update))
    return out


@pytest.mark.slow
@pytest.mark.postgres
@pytest.mark.redis
def test_the_account_page_ends_a_session_s_sockets_in_every_process(two_processes):
    """Ending one session, changing the password and logging out everywhere, each
    through one process: the sockets of the sessions ended close on both processes (the
    personal socket and the table socket with its seat's private view); those of the
    session kept, and another player's, stay open."""
    one, two = two_processes
    with httpx.Client(base_url=one.url, timeout=10) as h1, httpx.Client(base_url=two.url, timeout=10) as h2:
        a, b = Api(h1), Api(h2)
        table_id = new_table(a, [b])
        phone, laptop, tablet = sign_in(h1, a), sign_in(h2, a), sign_in(h1, a)
        processes = (one, two)

        async def scenario() -> None:
            kept = await sockets_of(a.token, "kept", table_id, processes)
            other_player = await sockets_of(b.token, "b", table_id, processes)

            # One session ended from the account page of another, through process one.
            ended = await sockets_of(phone, "phone", table_id, processes)
            r = await asyncio.to_thread(h1.delete, f"/api/account/sessions/{session_id(h1, phone)}",
                                        headers=a.headers)
            assert r.status_code == 200, r.text
            for socket in ended:
                await socket.ends()
            for socket in kept + other_player:
                await socket.stays_open()

            # A password change through process two ends every other session.
            ended = await sockets_of(laptop, "laptop", table_id, processes)
            ended += await sockets_of(tablet, "tablet", table_id, processes)
            r = await asyncio.to_thread(h2.put, "/api/account/password",
                                        json={"current": PASSWORD, "new": "a brand new secret"}, headers=a.headers)
            assert r.status_code == 200, r.text
            for socket in ended:
                await socket.ends()
            for socket in kept + other_player:
                await socket.stays_open()

            # Logging out everywhere, through process one, ends this session too.
            r = await asyncio.to_thread(h1.delete, "/api/account/sessions", headers=a.headers)
            assert r.status_code == 200, r.text
            for socket in kept:
                await socket.ends()
            for socket in other_player:
                await socket.stays_open()
                await socket.connection.close()

        asyncio.run(scenario())
        for token in (phone, laptop, tablet, a.token):
            assert h2.get("/api/account", headers=bearer(token)).status_code == 401
        assert b.get("/api/account").status_code == 200


def make_moderator(pg_url: str, username: str) -> None:
    engine = sa.create_engine(pg_url.replace("postgresql://", "postgresql+psycopg://", 1))
    with engine.begin() as db:
        db.execute(sa.text("UPDATE users SET role = 'moderator' WHERE username = :name"), {"name": username})
    engine.dispose()


def new_tournament(organiser: Api) -> dict[str, Any]:
    """An upcoming tournament of the test game, in an hour."""
    r = organiser.post("/api/tournaments", {"game": "drawbid", "name": "Test cup", "seats": 2, "rounds": 2,
                                            "starts_at": soon(3600), "bots": ["random"]})
    assert r.status_code == 201, r.text
    return r.json()


@pytest.mark.slow
@pytest.mark.postgres
@pytest.mark.redis
def test_tournament_sockets_hear_changes_from_the_other_process_and_close_on_log_out_and_ban(
        two_processes, pg_url):
    one, two = two_processes
    with httpx.Client(base_url=one.url, timeout=10) as h1, httpx.Client(base_url=two.url, timeout=10) as h2:
        organiser, player, mod = Api(h1), Api(h1), Api(h2)
        make_moderator(pg_url, mod.name)
        t = new_tournament(organiser)
        path = f"/api/tournaments/{t['id']}/live"
        other_session = sign_in(h1, player)

        async def scenario() -> None:
            watcher = await connect(two, path, None, "a signed-out watcher on 2", is_tournament)
            mine = await connect(two, path, player.token, "the player on 2", is_tournament)
            elsewhere = await connect(one, path, other_session, "the player's other session on 1", is_tournament)
            # A change through process one reaches process two's sockets, as the tournament
            # again: every reader, each as they may see it.
            r = await asyncio.to_thread(player.post, f"/api/tournaments/{t['id']}/join")
            assert r.status_code == 200, r.text
            for socket in (watcher, mine, elsewhere):
                sent = (await socket.until(is_tournament))["tournament"]
                assert [e["name"] for e in sent["entrants"]] == [player.name]
                assert sent["revision"] == r.json()["revision"]
            # A log-out through process one closes that session's socket on process two.
            r = await asyncio.to_thread(player.http.delete, "/api/sessions", headers=player.headers)
            assert r.status_code == 200
            await mine.ends()
            await elsewhere.stays_open()
            # A ban through process two closes every socket of the account, on process one too.
            r = await asyncio.to_thread(mod.post, f"/api/moderation/users/{player.name}/ban", {"minutes": 60})
            assert r.status_code == 200, r.text
            await elsewhere.ends("banned")
            await watcher.stays_open()
            # And the watcher still hears: the organiser seats a bot through process one.
            r = await asyncio.to_thread(organiser.post, f"/api/tournaments/{t['id']}/bots", {"bot": "random"})
            assert r.status_code == 200, r.text
            assert len((await watcher.until(is_tournament))["tournament"]["entrants"]) == 2
            await watcher.connection.close()

        asyncio.run(scenario())


# -- one process -----------------------------------------------------------------------------


def test_a_tournament_socket_reads_the_tournament_only_when_it_changes(client):
    """No polling: an open socket with nothing happening reads nothing of the database;
    a change is sent at once."""
    organiser = Api(client)
    t = new_tournament(organiser)
    reads: list[str] = []

    def counted(_connection: Any, _cursor: Any, statement: str, *_: Any) -> None:
        # One tournament's row (the server's tournament loop reads them all by status).
        if statement.lstrip().upper().startswith("SELECT") and "WHERE tournaments.id =" in statement:
            reads.append(statement)

    engine = client.app.state.server.runtime.engine
    sa.event.listen(engine, "before_cursor_execute", counted)
    try:
        _watch_one_change(client, organiser, t, reads)
    finally:
        sa.event.remove(engine, "before_cursor_execute", counted)


def _watch_one_change(client: TestClient, organiser: Api, t: dict[str, Any], reads: list[str]) -> None:
    with client.websocket_connect(f"/api/tournaments/{t['id']}/live") as ws:
        assert ws.receive_json()["tournament"]["revision"] == t["revision"]
        ws.send_text('{"type":"ping"}')
        assert receive_until(ws, lambda m: m["type"] == "pong")
        time.sleep(0.5)  # the read made as it was registered, for a change in between
        settled = len(reads)
        time.sleep(2.5)  # the socket used to look at the tournament every second
        assert len(reads) == settled
        r = organiser.post(f"/api/tournaments/{t['id']}/bots", {"bot": "random"})
        assert r.status_code == 200
        sent = receive_until(ws, lambda m: m["type"] == "tournament")["tournament"]
        assert sent["revision"] == r.json()["revision"] and len(sent["entrants"]) == 1
        ws.send_text('{"type":"ping"}')
        assert receive_until(ws, lambda m: m["type"] in ("pong", "tournament"))["type"] == "pong"
        time.sleep(0.5)
        settled = len(reads)
        time.sleep(1.5)
        assert len(reads) == settled


def test_the_listening_sockets_answer_like_the_table_socket(client):
    """The personal and tournament sockets frame errors as the table socket does: a
    binary frame, a message that is no JSON object and one they do not take are answered
    with an error, and the socket stays open."""
    a = Api(client)
    t = new_tournament(a)
    for path, first in ((f"/api/me/live?token={a.token}", "hello"), (f"/api/tournaments/{t['id']}/live", "tournament")):
        with client.websocket_connect(path) as ws:
            assert receive_until(ws, lambda m, first=first: m["type"] == first)
            ws.send_bytes(b'{"type": "ping"}')
            error = receive_until(ws, lambda m: m["type"] == "error")
            assert error["code"] == "invalid_request" and error["status"] == 422
            ws.send_text("[1, 2")
            assert receive_until(ws, lambda m: m["type"] == "error")["code"] == "invalid_request"
            ws.send_text('{"type": "move", "version": 0, "move": {}, "id": "m1"}')
            refused = receive_until(ws, lambda m: m["type"] == "error")
            assert refused["code"] == "unknown_message" and refused["id"] == "m1"
            ws.send_text('{"type": "ping"}')
            assert receive_until(ws, lambda m: m["type"] == "pong") == {"type": "pong"}


def test_every_socket_refuses_an_ended_session_and_a_cross_site_cookie(client):
    a, b = Api(client), Api(client)
    table_id = new_table(a, [b])
    t = new_tournament(a)
    paths = ("/api/me/live", f"/api/tables/{table_id}/live", f"/api/tournaments/{t['id']}/live")
    ended = sign_in(client, a)
    assert client.delete("/api/sessions", headers=bearer(ended)).status_code == 200
    for path in paths:
        with client.websocket_connect(f"{path}?token={ended}") as ws:
            assert ws.receive_json() == {"type": "error", "code": "not_signed_in", "message": "this session has ended"}
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == 4401
        cookie = {"Cookie": f"{identity.COOKIE}={a.token}", "Origin": "https://elsewhere.example"}
        with client.websocket_connect(path, headers=cookie) as ws:
            assert ws.receive_json()["code"] == "bad_origin"
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == 4403


def test_the_sweep_closes_the_sockets_of_a_session_ended_with_no_notice(sqlite_url, monkeypatch):
    """A session that ends with no notice (a notice lost, an expiry, the command line):
    every kind of socket opened with it closes at the next sweep; another session's stay."""
    monkeypatch.setattr(sessions, "SESSION_RECHECK_SECONDS", 0.2)
    with TestClient(create_app(make_settings(sqlite_url))) as http:
        a, b = Api(http), Api(http)
        table_id = new_table(a, [b])
        t = new_tournament(a)
        paths = (("/api/me/live", "hello"), (f"/api/tables/{table_id}/live", "update"),
                 (f"/api/tournaments/{t['id']}/live", "tournament"))
        for path, first in paths:
            ending = sign_in(http, a)
            with http.websocket_connect(f"{path}?token={ending}") as gone, \
                    http.websocket_connect(f"{path}?token={a.token}") as stays:
                receive_until(gone, lambda m, first=first: m["type"] == first)
                receive_until(stays, lambda m, first=first: m["type"] == first)
                identity.end_session(http.app.state.server.runtime, ending)  # the database only: no notice
                told = receive_until(gone, lambda m: m["type"] == "error")
                assert told["code"] == "not_signed_in" and told["close"]
                with pytest.raises(WebSocketDisconnect):
                    receive_until(gone, lambda m: False)
                stays.send_text('{"type":"ping"}')
                assert receive_until(stays, lambda m: m["type"] == "pong")
