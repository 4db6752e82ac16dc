"""Bad input of any kind is a 4xx ``{code, message}``, never a 500 and never a dropped
connection: NUL characters (which PostgreSQL refuses in text), integers beyond what
storage holds, bodies over the limit without Content-Length, bodies that are not UTF-8,
binary WebSocket frames."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from ludoteca.server.app import create_app
from tests.server.conftest import Api, make_settings, new_table
from tests.server.helpers import receive_until, updated_to


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def any_client(request: Any, tmp_path: Any) -> Iterator[TestClient]:
    url = f"sqlite:///{tmp_path / 'db.sqlite'}" if request.param == "sqlite" else request.getfixturevalue("pg_url")
    with TestClient(create_app(make_settings(url)), raise_server_exceptions=False) as http:
        yield http


def _refused(r: Any, status: int = 422) -> dict[str, Any]:
    assert r.status_code == status, (r.status_code, r.text)
    body = r.json()
    assert isinstance(body["code"], str) and isinstance(body["message"], str), body
    return body


def test_nul_characters_are_refused_everywhere(any_client):
    a, b = Api(any_client), Api(any_client)
    table_id = new_table(a, [b])
    _refused(any_client.post("/api/accounts", json={"username": "nul\u0000user", "password": "long enough"}))
    _refused(any_client.post("/api/sessions", json={"username": "nul\u0000user", "password": "long enough"}))
    _refused(a.post(f"/api/tables/{table_id}/chat", {"text": "hi\u0000there"}))
    _refused(a.move(table_id, 0, {"type": "pass"}, move_id="id\u0000x"))
    _refused(a.move(table_id, 0, {"type": "pass\u0000"}))
    _refused(a.post("/api/tables", {"game": "drawbid", "options": {"a\u0000": 1}}))
    _refused(a.get("/api/tables/ab%00cd"))
    _refused(a.get("/api/players/ab%00cd"))
    _refused(a.get("/api/tables", params={"game": "iwari\u0000"}))
    _refused(a.post(f"/api/tables/{table_id}%00/join"))
    # A literal backslash-u in text is not a NUL, and goes through.
    assert a.post(f"/api/tables/{table_id}/chat", {"text": "C:\\u0000 is a path"}).status_code == 200
    assert a.table(table_id)["version"] == 0  # nothing changed
    path = f"/api/tables/{table_id}/live"
    with any_client.websocket_connect(path, headers=a.headers) as ws:
        receive_until(ws, updated_to(0))
        ws.send_json({"type": "chat", "text": "a\u0000b"})
        error = receive_until(ws, lambda m: m["type"] == "error")
        assert error["status"] == 422 and error["code"] == "invalid_request"
        ws.send_json({"type": "move", "version": 0, "move": {"type": "pass"}, "id": "x\u0000"})
        assert receive_until(ws, lambda m: m["type"] == "error")["code"] == "invalid_request"
        ws.send_json({"type": "ping"})
        assert receive_until(ws, lambda m: m["type"] == "pong")
    assert a.table(table_id)["version"] == 0
    # A NUL in a socket's address: the upgrade is refused before anything is looked up.
    with pytest.raises(WebSocketDisconnect), any_client.websocket_connect(f"/api/tables/{table_id}%00/live") as ws:
        ws.receive_json()


@pytest.mark.parametrize("big", [2**31, 2**63, 2**64 + 7])
def test_integers_beyond_storage_are_refused(any_client, big):
    a, b = Api(any_client), Api(any_client)
    table_id = new_table(a, [b])
    for path in (f"/api/tables/{table_id}/log", f"/api/tables/{table_id}"):
        _refused(a.get(path, params={"since": big}))
        _refused(a.get(path, params={"seat": big}))
    _refused(a.get(f"/api/tables/{table_id}/replay", params={"seat": big}))
    _refused(a.move(table_id, big, {"type": "pass"}))
    _refused(a.post(f"/api/tables/{table_id}/undo", {"version": big}))
    assert a.get(f"/api/tables/{table_id}/log", params={"since": 2**31 - 1}).status_code == 200
    with any_client.websocket_connect(f"/api/tables/{table_id}/live?version={big}", headers=a.headers) as ws:
        assert ws.receive_json()["code"] == "invalid_request"
    with any_client.websocket_connect(f"/api/tables/{table_id}/live", headers=a.headers) as ws:
        receive_until(ws, updated_to(0))
        ws.send_json({"type": "move", "version": big, "move": {"type": "pass"}})
        assert receive_until(ws, lambda m: m["type"] == "error")["code"] == "invalid_request"
    assert a.table(table_id)["version"] == 0


def test_body_over_the_limit_without_content_length_is_413(client):
    a = Api(client)

    def chunks() -> Iterator[bytes]:
        yield b'{"text": "'
        for _ in range(100):
            yield b"x" * 1024
        yield b'"}'

    r = client.post("/api/tables/x/chat", content=chunks(),
                    headers={**a.headers, "Content-Type": "application/json"})
    assert "content-length" not in r.request.headers
    assert _refused(r, 413)["code"] == "too_large"
    # A small streamed body still arrives whole.
    r = client.post("/api/accounts", content=iter([b'{"username": "streamed", ', b'"password": "long enough"}']),
                    headers={"Content-Type": "application/json"})
    assert r.status_code == 201, r.text


def test_body_not_utf8_is_a_clear_422(client):
    r = client.post("/api/accounts", content=b'{"username": "\xff\xfe", "password": "long enough"}',
                    headers={"Content-Type": "application/json"})
    assert _refused(r)["code"] == "invalid_request"


def test_binary_socket_frame_gets_a_clear_error(client):
    a, b = Api(client), Api(client)
    table_id = new_table(a, [b])
    with client.websocket_connect(f"/api/tables/{table_id}/live", headers=a.headers) as ws:
        receive_until(ws, updated_to(0))
        ws.send_bytes(b'{"type": "ping"}')
        error = receive_until(ws, lambda m: m["type"] == "error")
        assert error["code"] == "invalid_request" and error["status"] == 422
        ws.send_bytes(b"\xff\x00\x01")
        assert receive_until(ws, lambda m: m["type"] == "error")["code"] == "invalid_request"
        ws.send_json({"type": "move", "version": 0, "move": {"type": "pass"}, "id": "after-binary"})
        assert receive_until(ws, lambda m: m["type"] == "ack")["version"] == 1
