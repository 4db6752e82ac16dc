"""At the table: clocks and undo that cannot be gamed, hidden
choices kept out of public replays, and what a socket, a profile and a table's host may
still do after their player left."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from ludoteca.server.app import create_app
from ludoteca.server.tables.clocks import COMEBACK_MS
from tests.server.conftest import Api, make_settings, new_table
from tests.server.helpers import wait_for


def seat_clock(api: Api, table_id: str, seat: int) -> dict[str, Any]:
    return api.table(table_id)["clocks"]["seats"][seat]


@pytest.fixture
def manual_clocks(tmp_path: Path) -> Iterator[TestClient]:
    """A server whose clock scan runs only when a test calls it."""
    settings = make_settings(f"sqlite:///{tmp_path / 'clocks.db'}", clock_tick_seconds=3600)
    with TestClient(create_app(settings)) as http:
        yield http


@pytest.fixture(params=["sqlite", "postgresql"])
def any_client(request: pytest.FixtureRequest) -> Iterator[TestClient]:
    url = request.getfixturevalue("sqlite_url" if request.param == "sqlite" else "pg_url")
    with TestClient(create_app(make_settings(url))) as http:
        yield http


# -- clocks and undo -------------------------------------------------------------------


def test_move_and_undo_in_a_loop_never_grows_the_bank(any_client):
    a, b = Api(any_client), Api(any_client)
    table_id = new_table(a, [b], mode="realtime", clock={"initial_seconds": 60, "increment_seconds": 10})
    version = 0
    for _ in range(8):
        assert a.move(table_id, version, {"type": "pass"}).status_code == 200
        r = a.post(f"/api/tables/{table_id}/undo", {"version": version + 1})
        assert r.status_code == 200, r.text
        version = r.json()["version"]
    # Each undo took back the increment its move earned: no time was gained.
    assert seat_clock(a, table_id, 0)["remaining_ms"] <= 60_000
    assert seat_clock(a, table_id, 1)["remaining_ms"] <= 60_000


def test_an_undo_takes_back_the_increment_and_keeps_the_time_spent(client):
    a, b = Api(client), Api(client)
    table_id = new_table(a, [b], mode="realtime", clock={"initial_seconds": 60, "increment_seconds": 10})
    time.sleep(0.3)
    assert a.move(table_id, 0, {"type": "pass"}).status_code == 200
    after_move = seat_clock(a, table_id, 0)["remaining_ms"]
    assert 69_000 < after_move <= 69_700  # 60 s, less the time spent, plus the increment
    assert a.post(f"/api/tables/{table_id}/undo", {"version": 1}).status_code == 200
    assert seat_clock(a, table_id, 0)["remaining_ms"] <= after_move - 10_000


def test_the_turn_based_deadline_survives_an_undo(any_client):
    a, b = Api(any_client), Api(any_client)
    table_id = new_table(a, [b], mode="turn-based", clock={"turn_seconds": 3600})
    deadline = seat_clock(a, table_id, 0)["deadline_ms"]
    version = 0
    for _ in range(3):
        time.sleep(0.05)
        assert a.move(table_id, version, {"type": "pass"}).status_code == 200
        r = a.post(f"/api/tables/{table_id}/undo", {"version": version + 1})
        assert r.status_code == 200, r.text
        version = r.json()["version"]
        assert seat_clock(a, table_id, 0)["deadline_ms"] == deadline


def test_a_timed_out_seat_comes_back_with_the_least_bank_not_a_full_one(manual_clocks):
    a, b = Api(manual_clocks), Api(manual_clocks)
    table_id = new_table(a, [b], mode="realtime", clock={"initial_seconds": 0.3, "increment_seconds": 0})
    server = manual_clocks.app.state.server
    time.sleep(0.4)
    assert server.tables.clock_scan.expire_clocks() == [table_id]
    snap = a.table(table_id)
    assert snap["table"]["players"][0]["zombie"]
    assert snap["clocks"]["seats"][0]["remaining_ms"] == 0  # the scan wrote the empty bank
    wait_for(lambda: a.table(table_id)["moves"] >= 1)  # the bot played seat 0's turn
    assert a.post(f"/api/tables/{table_id}/join").status_code == 200
    back = seat_clock(a, table_id, 0)
    assert not back["running"] and back["remaining_ms"] == COMEBACK_MS  # docs/web.md, "Clocks"
    # Timing out again and again gives no more than that.
    time.sleep(0.1)
    assert a.post(f"/api/tables/{table_id}/leave").status_code == 200
    assert a.post(f"/api/tables/{table_id}/join").status_code == 200
    assert seat_clock(a, table_id, 0)["remaining_ms"] <= COMEBACK_MS


def test_a_seat_a_bot_plays_cannot_be_undone_by_the_player_who_left_it(any_client):
    a, b = Api(any_client), Api(any_client)
    table_id = new_table(a, [b])
    assert a.move(table_id, 0, {"type": "pass"}).status_code == 200
    assert a.post(f"/api/tables/{table_id}/leave").status_code == 200
    r = a.post(f"/api/tables/{table_id}/undo", {"version": 1})
    assert r.status_code == 403 and r.json()["code"] == "bot_plays_seat"
    assert a.table(table_id)["moves"] == 1


def test_a_resigned_seat_cannot_be_undone(client):
    a, b, c = Api(client), Api(client), Api(client)
    table_id = new_table(a, [b, c])
    assert a.move(table_id, 0, {"type": "pass"}).status_code == 200
    assert a.post(f"/api/tables/{table_id}/resign").json()["over"] is False
    r = a.post(f"/api/tables/{table_id}/undo", {"version": 1})
    assert r.status_code == 403 and r.json()["code"] == "bot_plays_seat"


# -- hidden choices in a public replay ----------------------------------------------------


def test_hidden_choices_stay_out_of_other_seats_replays(client):
    a, b = Api(client), Api(client)
    r = a.post("/api/tables", {"game": "crusaders", "seats": 2, "record_public": True,
                               "options": {"wheel": "tournament"}})
    assert r.status_code == 201, r.text
    table_id = r.json()["id"]
    assert b.post(f"/api/tables/{table_id}/join").status_code == 200
    assert a.post(f"/api/tables/{table_id}/start").status_code == 200
    for _ in range(3):  # three wedges on a's wheel, one on b's
        snap = a.table(table_id)
        assert a.move(table_id, snap["version"], snap["legal"][0]).status_code == 200
    snap = b.table(table_id)
    assert snap["legal"][0]["type"] == "arrange"
    assert b.move(table_id, snap["version"], snap["legal"][0]).status_code == 200

    def moves(api: Api | None, seat: int | None) -> list[tuple[int, Any, bool]]:
        get = client.get if api is None else api.get
        r = get(f"/api/tables/{table_id}/replay", params={} if seat is None else {"seat": seat})
        assert r.status_code == 200, r.text
        return [(f["seat"], f["move"], f["hidden"]) for f in r.json()["frames"][1:]]

    own = moves(a, 0)
    assert [m["type"] for s, m, _h in own if s == 0] == ["arrange"] * 3  # the mover sees its own
    assert [(m, h) for s, m, h in own if s == 1] == [(None, True)]
    assert [(m, h) for s, m, h in moves(b, 1) if s == 0] == [(None, True)] * 3
    assert {(m, h) for _s, m, h in moves(None, None)} == {(None, True)}  # a spectator sees none


# -- sockets, profiles and hosts ------------------------------------------------------------


def answer(ws: Any) -> dict[str, Any]:
    """The socket's answer to what was sent: an error, an ack, or the pong of the ping
    sent after it (so that a test never waits for nothing)."""
    for _ in range(50):
        message = ws.receive_json()
        if message["type"] in ("error", "ack", "pong"):
            return message
    raise AssertionError("no answer")


def test_a_socket_opened_before_logout_can_no_longer_play_or_chat(client):
    a, b = Api(client), Api(client)
    table_id = new_table(a, [b])
    with client.websocket_connect(f"/api/tables/{table_id}/live", headers=a.headers) as ws:
        assert client.delete("/api/sessions", headers=a.headers).status_code == 200
        ws.send_json({"type": "chat", "text": "still here?"})
        ws.send_json({"type": "ping"})
        message = answer(ws)
        assert message.get("code") == "not_signed_in" and message.get("close")
    assert b.table(table_id)["version"] == 0
    assert all(line["text"] != "still here?" for line in b.get(f"/api/tables/{table_id}/chat").json())


def test_logging_out_closes_the_sessions_sockets(client):
    a, b = Api(client), Api(client)
    table_id = new_table(a, [b])
    with client.websocket_connect(f"/api/tables/{table_id}/live", headers=a.headers) as ws:
        assert ws.receive_json()["type"] == "update"
        assert client.delete("/api/sessions", headers=a.headers).status_code == 200
        ws.send_json({"type": "ping"})  # acts on nothing: the error comes unasked, before its pong
        message = answer(ws)
        assert message["type"] == "error" and message.get("code") == "not_signed_in" and message["close"]


def test_a_socket_of_an_ended_session_cannot_move(client):
    a, b = Api(client), Api(client)
    table_id = new_table(a, [b])
    with client.websocket_connect(f"/api/tables/{table_id}/live", headers=a.headers) as ws:
        assert client.delete("/api/sessions", headers=a.headers).status_code == 200
        ws.send_json({"type": "move", "version": 0, "move": {"type": "pass"}, "id": "after-logout"})
        ws.send_json({"type": "ping"})
        message = answer(ws)
        assert message["type"] == "error" and message.get("code") == "not_signed_in"
    assert b.table(table_id)["version"] == 0


def test_a_private_game_does_not_count_on_the_public_profile(client):
    a, b = Api(client), Api(client)
    hidden = new_table(a, [b], private=True, rated=True)
    assert a.post(f"/api/tables/{hidden}/resign").json()["over"] is True
    profile = client.get(f"/api/players/{b.name}").json()
    assert profile["games_played"] == 0 and profile["played_by_game"] == {}
    assert profile["ratings"] == {} and profile["recent"] == []
    shown = new_table(a, [b], rated=True)
    assert a.post(f"/api/tables/{shown}/resign").json()["over"] is True
    profile = client.get(f"/api/players/{b.name}").json()
    assert profile["games_played"] == 1 and profile["ratings"]["drawbid"]["played"] == 1


def test_a_creator_who_left_hands_the_table_to_the_next_seated_player(client):
    a, b, c = Api(client), Api(client), Api(client)
    r = a.post("/api/tables", {"game": "drawbid", "seats": 3})
    table_id = r.json()["id"]
    assert b.post(f"/api/tables/{table_id}/join").status_code == 200
    assert c.post(f"/api/tables/{table_id}/join").status_code == 200
    assert a.post(f"/api/tables/{table_id}/leave").json()["creator"] == b.name
    for path, body in (("bots", {"bot": "random"}), ("kick", {"seat": 2}), ("start", None)):
        r = a.post(f"/api/tables/{table_id}/{path}", body)
        assert r.status_code == 403 and r.json()["code"] == "not_creator", path
    assert b.post(f"/api/tables/{table_id}/bots", {"bot": "random"}).status_code == 200
    assert b.post(f"/api/tables/{table_id}/start").status_code == 200


def test_a_socket_finds_out_when_its_session_ended_elsewhere(client, monkeypatch):
    """A session ended outside this process (another process's log-out, a ban there, an
    expiry) is found at the socket's periodic look-up: here the look-up is made due at
    once, as it is a few seconds later (live.SESSION_RECHECK_SECONDS)."""
    from ludoteca.server.kernel import identity as auth
    from ludoteca.server.tables import socket as ws_module

    a, b = Api(client), Api(client)
    table_id = new_table(a, [b])
    with client.websocket_connect(f"/api/tables/{table_id}/live", headers=a.headers) as ws:
        ws.send_json({"type": "ping"})
        assert answer(ws)["type"] == "pong"
        auth.end_session(client.app.state.server.runtime, a.token)  # the database only: no log-out here
        monkeypatch.setattr(ws_module, "SESSION_RECHECK_SECONDS", 0.0)
        ws.send_json({"type": "move", "version": 0, "move": {"type": "pass"}, "id": "ended-elsewhere"})
        ws.send_json({"type": "ping"})
        message = answer(ws)
        assert message["type"] == "error" and message.get("code") == "not_signed_in"
    assert b.table(table_id)["version"] == 0
