"""My games: the tables waiting for my decision first with their time left, then my
other tables, then the finished ones with my result; the badge counts the first kind, on
GET /api/me/tables and live on the personal socket."""

from __future__ import annotations

import pytest

from tests.server.conftest import Api, new_table
from tests.server.helpers import receive_until


def test_my_tables_in_order_with_time_left_and_the_badge(client):
    a, b = Api(client), Api(client)
    first = new_table(a, [b])  # a's turn (seat 0 draws or passes)
    second = new_table(b, [a])  # b's turn
    opened = a.post("/api/tables", {"game": "drawbid", "seats": 2}).json()["id"]
    mine = a.get("/api/me/tables").json()
    assert [t["id"] for t in mine["waiting"]] == [first]
    assert mine["badge"] == 1 and mine["waiting"][0]["time_left_ms"] > 0
    assert {t["id"] for t in mine["running"]} == {second, opened}
    assert mine["finished"] == []
    assert b.get("/api/me/tables").json()["badge"] == 1
    with client.websocket_connect(f"/api/me/live?token={a.token}") as live:
        assert receive_until(live, lambda m: m["type"] == "hello")["badge"] == 1
        assert a.move(first, 0, {"type": "draw"}).status_code == 200  # now b's turn there
        assert receive_until(live, lambda m: m["type"] == "badge")["count"] == 0
        assert b.move(second, 0, {"type": "pass"}).status_code == 200  # now a's turn there
        assert receive_until(live, lambda m: m["type"] == "badge")["count"] == 1
    # Resigning a two-seat game ends it: finished, with a's result.
    assert a.post(f"/api/tables/{second}/resign").status_code == 200
    mine = a.get("/api/me/tables").json()
    assert [t["id"] for t in mine["finished"]] == [second]
    result = mine["finished"][0]["result"]
    assert result["won"] is False and result["of"] == 2
    assert client.get("/api/me/tables").status_code == 401


def test_a_log_out_closes_that_session_s_personal_socket(client):
    """The log-out's 'ended' notice reaches the personal sockets too: the page of that
    session is closed; another session of the same player stays."""
    from starlette.websockets import WebSocketDisconnect

    a = Api(client)
    other = client.post("/api/sessions", json={"username": a.name, "password": "correct horse"}).json()["token"]
    client.cookies.clear()  # the bearer tokens say which session is which
    with client.websocket_connect(f"/api/me/live?token={a.token}") as live, \
            client.websocket_connect(f"/api/me/live?token={other}") as kept:
        receive_until(live, lambda m: m["type"] == "hello")
        receive_until(kept, lambda m: m["type"] == "hello")
        assert client.delete("/api/sessions", headers=a.headers).status_code == 200
        with pytest.raises(WebSocketDisconnect):
            for _ in range(50):
                live.receive_json()
        kept.send_text('{"type":"ping"}')
        assert receive_until(kept, lambda m: m["type"] == "pong") == {"type": "pong"}
