"""A table through the HTTP API, on SQLite: the lobby's seats and start, moves and every
error answer (changing nothing), undo, a whole game between people with its hidden
information, record and ratings, spectators and private tables, bots in the seats, a seat
left or timed out going to a bot, clocks (and an outage charged to nobody), a hanging
game, racing moves. Several run on PostgreSQL too
(tests/server/kernel/test_scenarios_on_postgres.py)."""

from __future__ import annotations

import json
import random
import time

import httpx
import pytest
from fastapi.testclient import TestClient

from ludoteca.server.app import create_app
from tests.server.conftest import Api, ServerProcess, make_settings, new_table, server_env
from tests.server.helpers import assert_no_foreign_secrets, play_out, wait_for


def test_lobby_seats_and_start(client):
    a, b, c = Api(client), Api(client), Api(client)
    t = a.post("/api/tables", {"game": "drawbid", "seats": 3}).json()
    table_id = t["id"]
    assert t["status"] == "open" and t["players"][0]["username"] == a.name
    assert any(x["id"] == table_id for x in client.get("/api/tables", params={"game": "drawbid"}).json())
    assert not client.get("/api/tables", params={"game": "othergame"}).json()
    assert not any(x["id"] == table_id for x in client.get("/api/tables", params={"status": "playing"}).json())
    assert b.post(f"/api/tables/{table_id}/join").json()["players"][1]["username"] == b.name
    assert b.post(f"/api/tables/{table_id}/join").json()["code"] == "already_seated"
    r = b.post(f"/api/tables/{table_id}/start")
    assert r.status_code == 403 and r.json()["code"] == "not_creator"
    r = a.post(f"/api/tables/{table_id}/start")
    assert r.status_code == 409 and r.json()["code"] == "seats_free"
    assert b.post(f"/api/tables/{table_id}/bots", {"bot": "random"}).json()["code"] == "not_creator"
    assert a.post(f"/api/tables/{table_id}/bots", {"bot": "nosuchbot"}).json()["code"] == "no_bot"
    assert a.post(f"/api/tables/{table_id}/bots", {"bot": "random"}).json()["players"][2]["bot"] == "random"
    assert c.post(f"/api/tables/{table_id}/join").json()["code"] == "no_free_seat"
    assert a.post(f"/api/tables/{table_id}/kick", {"seat": 2}).json()["players"][2]["bot"] is None
    assert a.post(f"/api/tables/{table_id}/kick", {"seat": 1}).json()["players"][1]["username"] is None
    assert c.post(f"/api/tables/{table_id}/join", {"seat": 2}).json()["players"][2]["username"] == c.name
    assert c.post(f"/api/tables/{table_id}/leave").json()["players"][2]["username"] is None
    b.post(f"/api/tables/{table_id}/join")
    c.post(f"/api/tables/{table_id}/join")
    assert a.post(f"/api/tables/{table_id}/start").json()["status"] == "playing"
    assert a.post(f"/api/tables/{table_id}/kick", {"seat": 1}).json()["code"] == "not_open"
    assert Api(client).post(f"/api/tables/{table_id}/join").json()["code"] == "already_started"
    r = client.post(f"/api/tables/{table_id}/join")
    assert r.status_code == 401


def _fingerprint(api: Api, table_id: str) -> str:
    snap = api.table(table_id)
    snap.pop("clocks", None)
    snap["table"].pop("players")
    log = api.get(f"/api/tables/{table_id}/log").json()
    return json.dumps([snap, log], sort_keys=True)


def test_every_move_error_and_nothing_changes(client):
    a, b, outsider = Api(client), Api(client), Api(client)
    table_id = new_table(a, [b])
    before_a, before_b = _fingerprint(a, table_id), _fingerprint(b, table_id)
    snap = a.table(table_id)
    assert snap["version"] == 0 and snap["pending"] == [0]

    def unchanged() -> None:
        assert _fingerprint(a, table_id) == before_a
        assert _fingerprint(b, table_id) == before_b

    r = a.move(table_id, 5, {"type": "pass"})
    assert r.status_code == 409 and r.json()["code"] == "stale_version" and r.json()["version"] == 0
    unchanged()
    r = a.move(table_id, 0, {"type": "bid", "card": "card-01"})
    assert r.status_code == 422 and r.json()["code"] == "bad_move_type" and r.json()["message"]
    unchanged()
    r = a.move(table_id, 0, {"type": "pass", "extra": [1, 2]})
    assert r.status_code == 422 and r.json()["code"] == "illegal_move"
    unchanged()
    r = b.move(table_id, 0, {"type": "pass"})
    assert r.status_code == 403 and r.json()["code"] == "not_your_turn"
    unchanged()
    r = b.post(f"/api/tables/{table_id}/moves", {"version": 0, "move": {"type": "pass"}, "seat": 0})
    assert r.status_code == 403 and r.json()["code"] == "not_your_seat"
    unchanged()
    r = outsider.move(table_id, 0, {"type": "pass"})
    assert r.status_code == 403 and r.json()["code"] == "not_seated"
    unchanged()
    r = client.post(f"/api/tables/{table_id}/moves", json={"version": 0, "move": {"type": "pass"}})
    assert r.status_code == 401
    r = a.post(f"/api/tables/{table_id}/moves", {"version": 0, "move": "pass"})
    assert r.status_code == 422 and r.json()["code"] == "invalid_request"
    unchanged()

    # The same id twice plays once; the retry gets the same acknowledgement.
    first = a.move(table_id, 0, {"type": "pass"}, move_id="m-1")
    assert first.status_code == 200 and first.json()["version"] == 1 and not first.json()["duplicate"]
    again = a.move(table_id, 0, {"type": "pass"}, move_id="m-1")
    assert again.status_code == 200 and again.json()["version"] == 1 and again.json()["duplicate"]
    assert a.table(table_id)["version"] == 1 and a.table(table_id)["moves"] == 1
    r = b.move(table_id, 1, {"type": "pass"}, move_id="m-1")
    assert r.status_code == 409 and r.json()["code"] == "move_id_reused"
    assert a.table(table_id)["version"] == 1

    # Bids: a card not in one's hand is refused with the game's own code.
    b.move(table_id, 1, {"type": "pass"})
    hand_b = b.table(table_id)["view"]["hand"]
    r = a.move(table_id, 2, {"type": "bid", "card": hand_b[0]})
    assert r.status_code == 422 and r.json()["code"] == "not_in_hand"
    assert hand_b[0] not in r.text.replace(f'"card":"{hand_b[0]}"', "")  # the error does not echo b's hand


def test_undo(client):
    a, b = Api(client), Api(client)
    table_id = new_table(a, [b])
    assert a.move(table_id, 0, {"type": "pass"}).status_code == 200
    assert a.table(table_id)["can_undo"]
    r = b.post(f"/api/tables/{table_id}/undo", {"version": 1})
    assert r.status_code == 422 and r.json()["code"] == "undo_forbidden"
    r = a.post(f"/api/tables/{table_id}/undo", {"version": 0})
    assert r.status_code == 409 and r.json()["version"] == 1
    r = a.post(f"/api/tables/{table_id}/undo", {"version": 1})
    assert r.status_code == 200 and r.json() == {"version": 2, "moves": 0}
    snap = a.table(table_id)
    assert snap["version"] == 2 and snap["moves"] == 0 and snap["pending"] == [0]
    assert a.get(f"/api/tables/{table_id}/log").json()["events"] == []
    # A random draw can never be taken back; nor a move after another seat's.
    assert a.move(table_id, 2, {"type": "draw"}).status_code == 200
    assert not a.table(table_id)["can_undo"]
    assert a.post(f"/api/tables/{table_id}/undo", {"version": 3}).json()["code"] == "undo_forbidden"
    assert b.move(table_id, 3, {"type": "pass"}).status_code == 200
    assert b.post(f"/api/tables/{table_id}/undo", {"version": 4}).status_code == 200
    assert a.table(table_id)["version"] == 5


def test_full_game_as_people_hidden_information_record_and_ratings(client):
    a, b, c = Api(client), Api(client), Api(client)
    table_id = new_table(a, [b, c], rated=True)
    assert a.get(f"/api/tables/{table_id}/record").json()["code"] == "record_hidden"
    seen: list = []
    final = play_out({0: a, 1: b, 2: c}, table_id, random.Random(1), seen)
    # A spectator's view, and everyone's WS-free answers, were recorded along the way.
    spectator = client.get(f"/api/tables/{table_id}")
    assert spectator.json()["view"]["hand"] is None and spectator.json()["legal"] == []
    assert final["table"]["status"] == "over" and final["result"]["ranks"]
    record = a.get(f"/api/tables/{table_id}/record").json()
    assert record["format"] == "ludoteca.record/1" and len(record["moves"]) == final["moves"]
    assert assert_no_foreign_secrets(seen, record) > 100
    r = a.move(table_id, final["version"], {"type": "pass"})
    assert r.status_code == 409 and r.json()["code"] == "game_over"
    board = client.get("/api/games/drawbid/leaderboard").json()
    assert {row["username"] for row in board} == {a.name, b.name, c.name}
    profile = client.get(f"/api/players/{a.name}").json()
    assert profile["games_played"] == 1 and profile["ratings"]["drawbid"]["played"] == 1
    assert client.get("/api/players/nobody-here").status_code == 404


def test_spectator_log_and_record_public(client):
    a, b = Api(client), Api(client)
    table_id = new_table(a, [b], record_public=True)
    a.move(table_id, 0, {"type": "draw"})
    drew = [e for e in a.get(f"/api/tables/{table_id}/log").json()["events"] if e["key"] == "drawbid.drew"]
    assert len(drew) == 1 and drew[0]["to"] == 0
    for reader in (b, None):
        log = (reader.get if reader else client.get)(f"/api/tables/{table_id}/log").json()
        assert [e["key"] for e in log["events"]] == ["drawbid.drew_one"]
    assert a.get(f"/api/tables/{table_id}/log", params={"seat": 1}).json()["code"] == "not_your_seat"
    # Public or not, the record (seed and moves) waits for the end of the game.
    assert client.get(f"/api/tables/{table_id}/record").json()["code"] == "record_hidden"


def test_private_table(client):
    a, b = Api(client), Api(client)
    t = a.post("/api/tables", {"game": "drawbid", "private": True}).json()
    assert not any(x["id"] == t["id"] for x in client.get("/api/tables").json())
    assert any(x["id"] == t["id"] for x in a.get("/api/tables").json())
    assert b.get(f"/api/tables/{t['id']}").json()["code"] == "private_table"
    assert client.get(f"/api/tables/{t['id']}/log").json()["code"] == "private_table"


def test_bots_play_their_seats(client):
    a = Api(client)
    table_id = new_table(a, [], bots=2)
    final = play_out({0: a}, table_id, random.Random(2), limit=400)
    assert final["table"]["status"] == "over"
    record = a.get(f"/api/tables/{table_id}/record").json()
    assert record["players"][1:] == ["bot:random", "bot:random"]


def test_leave_zombie_and_take_back(client):
    a, b = Api(client), Api(client)
    table_id = new_table(a, [b], options={"rounds": 3})
    a.move(table_id, 0, {"type": "pass"})
    assert b.post(f"/api/tables/{table_id}/leave").json()["players"][1]["zombie"]
    # The bot plays b's seat: the table goes on.
    wait_for(lambda: 1 not in a.table(table_id)["pending"] or a.table(table_id)["legal"])
    back = b.post(f"/api/tables/{table_id}/join").json()
    assert not back["players"][1]["zombie"]


def test_realtime_timeout_hands_the_seat_to_a_bot(client):
    a, b = Api(client), Api(client)
    table_id = new_table(a, [b], mode="realtime", clock={"initial_seconds": 0.3, "increment_seconds": 0})
    clocks = a.table(table_id)["clocks"]
    assert clocks["seats"][0]["running"] and clocks["seats"][0]["remaining_ms"] <= 300
    snap = wait_for(lambda: (s := a.table(table_id))["table"]["players"][0]["zombie"] and s["version"] >= 1 and s)
    assert snap["moves"] >= 1  # the zombie bot moved for seat 0
    assert a.post(f"/api/tables/{table_id}/join").json()["players"][0]["zombie"] is False


def test_turn_based_timeout_hands_the_seat_to_a_bot(client):
    a, b = Api(client), Api(client)
    table_id = new_table(a, [b], mode="turn-based", clock={"turn_seconds": 0.3})
    snap = wait_for(lambda: (s := a.table(table_id))["table"]["players"][0]["zombie"] and s["version"] >= 1 and s)
    assert snap["moves"] >= 1  # the bot played seat 0's turn


def test_turn_based_deadline(client):
    a, b = Api(client), Api(client)
    table_id = new_table(a, [b], mode="turn-based", clock={"turn_seconds": 3600})
    clocks = a.table(table_id)["clocks"]
    assert clocks["mode"] == "turn-based"
    assert clocks["seats"][0]["deadline_ms"] - clocks["now_ms"] > 3_500_000
    assert a.post("/api/tables", {"game": "drawbid", "mode": "turn-based",
                                  "clock": {"initial_seconds": 5}}).json()["code"] == "bad_clock"


def test_clocks_resume_as_they_stood_after_an_outage(sqlite_url):
    process = ServerProcess(server_env(sqlite_url))
    try:
        with httpx.Client(base_url=process.url, timeout=10) as http:
            a, b = Api(http), Api(http)
            table_id = new_table(a, [b], clock={"initial_seconds": 6, "increment_seconds": 0})
            time.sleep(1.2)  # the heartbeat has been written (once a second)
            before = a.table(table_id)["clocks"]["seats"][0]
            assert before["running"] and before["remaining_ms"] > 2000
        process.kill()
        time.sleep(7)  # longer than seat 0's clock: were it charged, a bot would take the seat
        process.start()
        with httpx.Client(base_url=process.url, timeout=10) as http:
            a.http = http
            time.sleep(0.6)  # a few clock scans
            snap = a.table(table_id)
            seat = next(s for s in snap["table"]["players"] if s["seat"] == 0)
            assert not seat["zombie"], snap["table"]
            clock = snap["clocks"]["seats"][0]
            # As it stood, give or take the heartbeat's period (time between the last beat
            # and the crash is refunded too).
            assert clock["running"] and 1000 < clock["remaining_ms"] <= before["remaining_ms"] + 1500, (clock, before)
            assert a.move(table_id, 0, {"type": "draw"}).status_code == 200
    finally:
        process.kill()


def test_a_hanging_game_does_not_stall_the_server(tmp_path):
    settings = make_settings(f"sqlite:///{tmp_path / 'x.db'}", engine_seconds=0.5)
    with TestClient(create_app(settings)) as http:
        a, b = Api(http), Api(http)
        stuck = new_table(a, [b], options={"stall": True})
        fine = new_table(a, [b])
        started = time.monotonic()
        r = a.move(stuck, 0, {"type": "pass"})
        assert r.status_code == 503 and r.json()["code"] == "engine_timeout"
        assert time.monotonic() - started < 2.5
        assert a.move(fine, 0, {"type": "pass"}).status_code == 200
        assert a.table(stuck)["table"]["status"] == "suspended"


@pytest.mark.parametrize("racers", [2, 6])
def test_racing_moves_in_one_process(client, racers):
    """Many threads send a move at the same version: exactly one lands."""
    from concurrent.futures import ThreadPoolExecutor

    a, b = Api(client), Api(client)
    table_id = new_table(a, [b])
    with ThreadPoolExecutor(racers) as pool:
        answers = list(pool.map(lambda i: a.move(table_id, 0, {"type": "pass"}, move_id=f"race-{i}"),
                                range(racers)))
    codes = sorted(r.status_code for r in answers)
    assert codes == [200] + [409] * (racers - 1)
    assert all(r.json()["version"] == 1 for r in answers)
    assert a.table(table_id)["moves"] == 1
