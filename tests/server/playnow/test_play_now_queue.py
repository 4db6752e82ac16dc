"""Play now: the queue in the database, paired by server/playnow/pools.py, tables made,
seated and started through the table services; one entry per player; cancel; bots after a
wait; and 200 players on two processes sharing PostgreSQL and Redis, every one seated
exactly once."""

from __future__ import annotations

import os
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest
import sqlalchemy as sa

from ludoteca.server.kernel.db import driver_url
from tests.server.conftest import Api, ServerProcess, server_env


def test_two_players_are_seated_together_and_the_table_starts(client):
    a, b = Api(client), Api(client)
    r = a.post("/api/playnow", {"game": "drawbid", "seats": 2})
    assert r.status_code == 201, r.text
    assert r.json()["status"] == "waiting" and r.json()["table"] is None
    assert a.get("/api/playnow").json()["status"] == "waiting"
    r = b.post("/api/playnow", {"game": "drawbid", "seats": 2})
    assert r.status_code == 201 and r.json()["status"] == "matched", r.text
    table_id = r.json()["table"]
    mine = a.get("/api/playnow").json()
    assert (mine["status"], mine["table"], mine["game"], mine["seats"]) == ("matched", table_id, "drawbid", 2)
    snap = a.table(table_id)
    assert snap["table"]["status"] == "playing"
    assert sorted(p["username"] for p in snap["table"]["players"]) == sorted([a.name, b.name])
    assert snap["table"]["rated"] is True
    # Matched, the player may queue again (a new wish replaces the old entry).
    assert a.post("/api/playnow", {"game": "drawbid", "seats": 2}).status_code == 201


def test_one_entry_per_player_cancel_and_bad_input(client):
    a = Api(client)
    body = {"game": "drawbid", "seats": 3, "mode": "turn-based"}
    assert a.post("/api/playnow", body).status_code == 201
    again = a.post("/api/playnow", body)
    assert again.status_code == 409 and again.json()["code"] == "already_queued"
    for bad, code in (({"game": "nope"}, "no_game"), ({"game": "drawbid", "seats": 5}, "bad_seats"),
                      ({"game": "drawbid", "preset": "wild"}, "bad_preset"),
                      ({"game": "drawbid", "bots_after": 10, "bot_level": "zzz"}, "no_bot"),
                      ({"game": "drawbid", "bots_after": -1}, "invalid_request")):
        b = Api(client)
        r = b.post("/api/playnow", bad)
        assert r.status_code in (404, 422) and r.json()["code"] == code, (bad, r.text)
        assert b.get("/api/playnow").json()["status"] == "idle"
    r = client.request("DELETE", "/api/playnow", headers=a.headers)
    assert r.status_code == 200 and r.json()["status"] == "idle"
    r = client.request("DELETE", "/api/playnow", headers=a.headers)
    assert r.status_code == 404 and r.json()["code"] == "not_queued"
    assert client.post("/api/playnow", json=body).status_code == 401


def test_different_pools_do_not_mix_and_any_joins_a_wish(client):
    a, b, c = Api(client), Api(client), Api(client)
    a.post("/api/playnow", {"game": "drawbid", "seats": 2, "mode": "realtime"})
    r = b.post("/api/playnow", {"game": "drawbid", "seats": 2, "mode": "turn-based"})
    assert r.json()["status"] == "waiting"
    r = c.post("/api/playnow", {"game": "drawbid", "mode": "realtime"})  # any seat count
    assert r.json()["status"] == "matched"
    assert a.get("/api/playnow").json()["table"] == r.json()["table"]
    assert a.table(r.json()["table"])["table"]["seats"] == 2


def test_bots_fill_the_empty_seats_after_the_chosen_wait(client):
    a = Api(client)
    r = a.post("/api/playnow", {"game": "drawbid", "seats": 3, "bots_after": 0, "bot_level": "random"})
    assert r.status_code == 201 and r.json()["status"] == "matched", r.text
    table = a.table(r.json()["table"])["table"]
    assert table["status"] == "playing" and table["rated"] is False
    assert sorted(bool(p["bot"]) for p in table["players"]) == [False, True, True]


def test_blocked_players_are_not_paired(client):
    a, b, c = Api(client), Api(client), Api(client)
    assert a.http.put(f"/api/blocks/{b.name}", headers=a.headers).status_code == 200
    a.post("/api/playnow", {"game": "drawbid", "seats": 2})
    assert b.post("/api/playnow", {"game": "drawbid", "seats": 2}).json()["status"] == "waiting"
    r = c.post("/api/playnow", {"game": "drawbid", "seats": 2})
    assert r.json()["status"] == "matched"


def _seated(url: str, names: list[str]) -> Counter:
    engine = sa.create_engine(driver_url(url))
    with engine.connect() as db:
        rows = db.execute(sa.text(
            "SELECT u.username, t.status FROM table_seats s JOIN users u ON u.id = s.user_id "
            "JOIN tables t ON t.id = s.table_id")).all()
    engine.dispose()
    assert all(status == "playing" for _, status in rows), Counter(status for _, status in rows)
    wanted = set(names)
    return Counter(name for name, _ in rows if name in wanted)


@pytest.mark.slow
@pytest.mark.postgres
@pytest.mark.redis
def test_200_players_on_two_processes_are_each_seated_exactly_once(pg_url, redis_url):
    env = server_env(pg_url, LUDOTECA_REDIS_URL=redis_url, LUDOTECA_REDIS_PREFIX=f"ludoteca-test-{os.getpid()}-pn:")
    one, two = ServerProcess(env), ServerProcess(env)
    try:
        clients = [httpx.Client(base_url=p.url, timeout=30) for p in (one, two)]
        with ThreadPoolExecutor(16) as pool:
            players = list(pool.map(lambda i: Api(clients[i % 2]), range(200)))
            # Each joins through its own process, all at once: 2 or 3 seats, or any; bots
            # after 2 s for whoever the counts leave over.
            wishes = [{"game": "drawbid", "seats": (2, 3, None)[i % 3], "bots_after": 2} for i in range(200)]
            answers = list(pool.map(lambda pw: pw[0].post("/api/playnow", pw[1]), zip(players, wishes, strict=True)))
        assert all(r.status_code == 201 for r in answers), [r.text for r in answers if r.status_code != 201][:3]
        deadline = time.monotonic() + 30
        waiting = players
        while waiting and time.monotonic() < deadline:
            time.sleep(0.3)
            waiting = [p for p in waiting if p.get("/api/playnow").json()["status"] != "matched"]
        assert not waiting, [p.get("/api/playnow").json() for p in waiting[:5]]
        tables = {p.get("/api/playnow").json()["table"] for p in players}
        seated = _seated(pg_url, [p.name for p in players])
        assert len(seated) == 200 and set(seated.values()) == {1}, [n for n, c in seated.items() if c != 1]
        assert len(tables) >= 67
        for c in clients:
            c.close()
    finally:
        one.stop()
        two.stop()


def test_racing_joins_of_one_player_leave_one_entry_and_a_late_cancel_is_told_the_table(client):
    from tests.server.helpers import race

    a, b = Api(client), Api(client)
    body = {"game": "drawbid", "seats": 2}
    answers = race(*(lambda: a.post("/api/playnow", body) for _ in range(4)))
    assert sorted(r.status_code for r in answers) == [201, 409, 409, 409], [r.text for r in answers]
    assert b.post("/api/playnow", body).json()["status"] == "matched"
    r = client.request("DELETE", "/api/playnow", headers=a.headers)
    assert r.status_code == 409 and r.json()["code"] == "already_matched" and r.json()["table"]
