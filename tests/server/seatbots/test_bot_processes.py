"""Searching bots think in worker processes, not in the serving process; a game that
only the server's process registered (the test game here) loads there too."""

from __future__ import annotations

import os
import random

from fastapi.testclient import TestClient

from ludoteca.server.app import create_app
from tests.server.conftest import Api, make_settings, new_table
from tests.server.helpers import play_out


def _bot_game(client: TestClient, bot: str) -> dict:
    a = Api(client)
    r = a.post("/api/tables", {"game": "drawbid", "seats": 2})
    table_id = r.json()["id"]
    assert a.post(f"/api/tables/{table_id}/bots", {"bot": bot}).status_code == 200
    assert a.post(f"/api/tables/{table_id}/start").status_code == 200
    final = play_out({0: a}, table_id, random.Random(3), limit=400)
    assert final["table"]["status"] == "over"
    return a.get(f"/api/tables/{table_id}/record").json()


def test_a_searching_bot_thinks_in_another_process(sqlite_url):
    with TestClient(create_app(make_settings(sqlite_url, bot_processes=1))) as client:
        record = _bot_game(client, "greedy")
        assert record["players"][1] == "bot:greedy" and any(seat == 1 for seat, _ in record["moves"])
        pool = client.app.state.server.bots.processes._pool
        assert pool is not None
        workers = [p.pid for p in pool._processes.values()]
        assert workers and os.getpid() not in workers


def test_without_processes_bots_think_in_threads(sqlite_url):
    with TestClient(create_app(make_settings(sqlite_url, bot_processes=0))) as client:
        record = _bot_game(client, "greedy")
        assert any(seat == 1 for seat, _ in record["moves"])
        assert client.app.state.server.bots.processes is None


def test_a_random_bot_needs_no_process(client):
    a = Api(client)
    table_id = new_table(a, [], bots=1)
    play_out({0: a}, table_id, random.Random(4), limit=400)
    assert client.app.state.server.bots.processes._pool is None


def test_thinking_processes_end_when_the_server_is_killed():
    """kill -9 of the server: its thinking processes do not live on as orphans."""
    import subprocess
    import sys
    import time

    code = (
        "import time\n"
        "from ludoteca.server.kernel.workers import Thinkers\n"
        "from ludoteca.games import load\n"
        "t = Thinkers(1)\n"
        "g = load('bloodrage'); s = g.setup(2, {'clans': 'random'}, 1)\n"  # the draft first
        "print(t.submit('greedy', g, s, 0, 1, 0.1, g.legal(s, 0)).result(timeout=60), flush=True)\n"
        "time.sleep(60)\n"
    )
    server = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                              text=True)
    try:
        assert "pick" in server.stdout.readline()
        children = subprocess.run(["pgrep", "-P", str(server.pid)], capture_output=True, text=True).stdout.split()
        assert children
    finally:
        server.kill()
        server.wait()
    deadline = time.monotonic() + 20
    while any(os.path.exists(f"/proc/{pid}") for pid in children) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not [pid for pid in children if os.path.exists(f"/proc/{pid}")]
