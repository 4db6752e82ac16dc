"""The live socket: per-seat updates, catch-up from a version, chat, moves over the
socket, and no secret of another seat ever sent."""

from __future__ import annotations

import json

from tests.server.conftest import Api, new_table
from tests.server.drawbid import GAME
from tests.server.helpers import receive_until, states_by_version, updated_to


def test_updates_per_seat_and_spectator(client):
    a, b = Api(client), Api(client)
    table_id = new_table(a, [b])
    path = f"/api/tables/{table_id}/live"
    with client.websocket_connect(f"{path}?token={a.token}") as wa, \
            client.websocket_connect(path, headers=b.headers) as wb, \
            client.websocket_connect(path) as spectator:
        first_a = receive_until(wa, updated_to(0))
        first_b = receive_until(wb, updated_to(0))
        first_s = receive_until(spectator, updated_to(0))
        assert first_a["seat"] == 0 and first_a["legal"] and first_a["view"]["hand"]
        assert first_b["seat"] == 1 and first_b["legal"] == [] and first_b["view"]["hand"]
        assert first_s["seat"] is None and first_s["view"]["hand"] is None
        assert set(first_a["view"]["hand"]).isdisjoint(json.dumps(first_b))
        assert a.move(table_id, 0, {"type": "draw"}).status_code == 200
        got_a = receive_until(wa, updated_to(1))
        got_b = receive_until(wb, updated_to(1))
        got_s = receive_until(spectator, updated_to(1))
        assert [e["key"] for e in got_a["events"]] == ["drawbid.drew", "drawbid.drew_one"]
        assert [e["key"] for e in got_b["events"]] == ["drawbid.drew_one"]
        assert [e["key"] for e in got_s["events"]] == ["drawbid.drew_one"]
        assert got_b["legal"] and got_b["pending"] == [1]
        drawn = got_a["events"][0]["args"]["card"]
        assert drawn not in json.dumps(got_b) and drawn not in json.dumps(got_s)


def test_moves_chat_and_errors_over_the_socket(client):
    a, b = Api(client), Api(client)
    table_id = new_table(a, [b])
    path = f"/api/tables/{table_id}/live"
    with client.websocket_connect(path, headers=a.headers) as wa, \
            client.websocket_connect(path, headers=b.headers) as wb:
        receive_until(wa, updated_to(0))
        wa.send_json({"type": "move", "version": 0, "move": {"type": "pass"}, "id": "w-1"})
        ack = receive_until(wa, lambda m: m["type"] == "ack")
        assert ack["id"] == "w-1" and ack["version"] == 1
        wa.send_json({"type": "move", "version": 0, "move": {"type": "pass"}, "id": "w-2"})
        error = receive_until(wa, lambda m: m["type"] == "error")
        assert error["code"] == "stale_version" and error["version"] == 1 and error["status"] == 409
        wb.send_json({"type": "move", "version": 1, "move": {"type": "bid", "card": "card-99"}, "id": "w-3"})
        error = receive_until(wb, lambda m: m["type"] == "error")
        assert error["status"] == 422 and error["code"] == "bad_move_type" and error["id"] == "w-3"
        wb.send_json({"type": "chat", "text": "good luck"})
        for ws in (wa, wb):
            line = receive_until(ws, lambda m: m["type"] == "chat")
            assert line["text"] == "good luck" and line["username"] == b.name
        wb.send_text("not json")
        assert receive_until(wb, lambda m: m["type"] == "error")["code"] == "invalid_request"
        # Too large a message is refused with a clear error, and the socket goes on.
        wb.send_text(json.dumps({"type": "chat", "text": "x" * 70_000}))
        assert receive_until(wb, lambda m: m["type"] == "error")["code"] == "too_large"
        wb.send_json({"type": "chat", "text": "still here"})
        assert receive_until(wb, lambda m: m["type"] == "chat")["text"] == "still here"
    with client.websocket_connect(path) as anonymous:
        receive_until(anonymous, lambda m: m["type"] == "chat")  # the history comes first
        anonymous.send_json({"type": "chat", "text": "hi"})
        assert receive_until(anonymous, lambda m: m["type"] == "error")["code"] == "not_signed_in"


def test_reconnect_catches_up_from_its_version(client):
    a, b = Api(client), Api(client)
    table_id = new_table(a, [b])
    path = f"/api/tables/{table_id}/live"
    a.move(table_id, 0, {"type": "draw"})
    b.move(table_id, 1, {"type": "draw"})
    with client.websocket_connect(f"{path}?version=1", headers=b.headers) as wb:
        update = receive_until(wb, lambda m: m["type"] == "update")
        assert update["version"] == 2 and not update["events_reset"]
        assert [(e["number"], e["key"]) for e in update["events"]] == [(2, "drawbid.drew"), (2, "drawbid.drew_one")]
    a.move(table_id, 2, {"type": "bid", "card": a.table(table_id)["view"]["hand"][0]})
    with client.websocket_connect(path, headers=b.headers) as wb:
        wb.send_json({"type": "hello", "version": 2})
        update = receive_until(wb, lambda m: m["type"] == "update" and not m["events_reset"])
        assert [e["key"] for e in update["events"]] == ["drawbid.bid"]


def test_after_an_undo_a_client_gets_the_whole_log_again(client):
    a, b = Api(client), Api(client)
    table_id = new_table(a, [b])
    a.move(table_id, 0, {"type": "pass"})
    a.post(f"/api/tables/{table_id}/undo", {"version": 1})
    with client.websocket_connect(f"/api/tables/{table_id}/live?version=1", headers=b.headers) as wb:
        update = receive_until(wb, lambda m: m["type"] == "update")
        assert update["version"] == 2 and update["events_reset"] and update["events"] == []


def test_no_secret_crosses_seats_over_a_whole_game(client):
    a, b, c = Api(client), Api(client), Api(client)
    table_id = new_table(a, [b, c], record_public=True)
    path = f"/api/tables/{table_id}/live"
    received: list[tuple[int, int | None, str]] = []
    apis = {0: a, 1: b, 2: c}
    with client.websocket_connect(path, headers=a.headers) as w0, \
            client.websocket_connect(path, headers=b.headers) as w1, \
            client.websocket_connect(path, headers=c.headers) as w2, \
            client.websocket_connect(path) as ws:
        sockets = {0: w0, 1: w1, 2: w2, None: ws}
        latest = {seat: receive_until(sock, updated_to(0)) for seat, sock in sockets.items()}
        version = 0
        while latest[0]["table"]["status"] != "over":
            mover = next(seat for seat in (0, 1, 2) if latest[seat]["legal"])
            move = latest[mover]["legal"][-1]
            assert apis[mover].move(table_id, version, move).status_code == 200
            version += 1
            for seat, sock in sockets.items():
                latest[seat] = receive_until(sock, updated_to(version))
                received.append((version, seat, json.dumps(latest[seat])))
    record = a.get(f"/api/tables/{table_id}/record").json()
    states = states_by_version(record, list(range(version + 1)))
    checked = 0
    for at, seat, text in received:
        for owner, strings in GAME.secrets(states[at].state).items():
            if owner != seat:
                for secret in strings:
                    assert json.dumps(secret) not in text
                    checked += 1
    assert checked > 100


def test_socket_authorization(client):
    a, b = Api(client), Api(client)
    t = a.post("/api/tables", {"game": "drawbid", "private": True}).json()
    with client.websocket_connect(f"/api/tables/{t['id']}/live", headers=b.headers) as wb:
        error = wb.receive_json()
        assert error["type"] == "error" and error["code"] == "private_table"
    with client.websocket_connect(f"/api/tables/{t['id']}/live?token=forged") as ws:
        assert ws.receive_json()["code"] == "not_signed_in"
    with client.websocket_connect("/api/tables/nope/live") as ws:
        assert ws.receive_json()["code"] == "no_table"


def test_cookie_sockets_must_come_from_our_own_pages(client):
    client.post("/api/accounts", json={"username": "cookie-user", "password": "longenough"})
    assert client.post("/api/sessions", json={"username": "cookie-user", "password": "longenough"}).status_code == 200
    csrf = client.get("/api/sessions").json()["csrf"]
    table_id = client.post("/api/tables", json={"game": "drawbid"}, headers={"X-CSRF-Token": csrf}).json()["id"]
    path = f"/api/tables/{table_id}/live"
    with client.websocket_connect(path, headers={"Origin": "https://evil.example"}) as ws:
        assert ws.receive_json()["code"] == "bad_origin"
    with client.websocket_connect(path, headers={"Origin": "http://testserver"}) as ws:
        update = receive_until(ws, lambda m: m["type"] == "update")
        assert update["table"]["status"] == "open" and update["seat"] == 0


def test_a_socket_follows_its_user_not_the_seat(client):
    """b watches as seat 1, leaves before the start and c takes seat 1: b's socket must
    get the spectator's view from then on, never c's hand."""
    a, b, c = Api(client), Api(client), Api(client)
    table_id = a.post("/api/tables", {"game": "drawbid", "seats": 2}).json()["id"]
    b.post(f"/api/tables/{table_id}/join")
    with client.websocket_connect(f"/api/tables/{table_id}/live", headers=b.headers) as wb:
        assert receive_until(wb, lambda m: m["type"] == "update")["seat"] == 1
        b.post(f"/api/tables/{table_id}/leave")
        c.post(f"/api/tables/{table_id}/join")
        a.post(f"/api/tables/{table_id}/start")
        update = receive_until(wb, lambda m: m["type"] == "update" and m["table"]["status"] == "playing")
        assert update["seat"] is None and update["view"]["hand"] is None and update["legal"] == []
        hand_c = c.table(table_id)["view"]["hand"]
        assert not any(card in json.dumps(update) for card in hand_c)
        # And so it stays: b sits nowhere at this table.
        a.move(table_id, 0, {"type": "pass"})
        update = receive_until(wb, updated_to(1))
        assert update["seat"] is None and not any(card in json.dumps(update) for card in hand_c)
