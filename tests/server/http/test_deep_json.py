"""JSON nested thousands deep is refused with a clear 422 ``too_deep`` before anything
parses it recursively (it was a RecursionError and a 500 at /api/accounts without login,
/moves, /chat and on the socket), and JSON ``true`` is no number (``"version": true``
was read as version 1)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.server.conftest import Api, new_table
from tests.server.helpers import receive_until, updated_to


def nested(depth: int, inner: str = '"\\u0000"') -> str:
    return "[" * depth + inner + "]" * depth


def deep_object(depth: int) -> str:
    return '{"a": ' * depth + '"\\u0000"' + "}" * depth


def refused_too_deep(r: Any) -> None:
    assert r.status_code == 422, (r.status_code, r.text)
    assert r.json()["code"] == "too_deep", r.text


@pytest.mark.parametrize("depth", [33, 950, 3000, 8000])
def test_deep_json_is_refused_over_http(client, depth):
    a, b = Api(client), Api(client)
    table_id = new_table(a, [b])
    json_headers = {"Content-Type": "application/json"}
    refused_too_deep(client.post("/api/accounts", content=nested(depth), headers=json_headers))
    refused_too_deep(client.post("/api/accounts", content=f'{{"username": {nested(depth)}, "password": "x"}}',
                                 headers=json_headers))
    move = f'{{"version": 0, "move": {deep_object(depth)}}}'
    refused_too_deep(client.post(f"/api/tables/{table_id}/moves", content=move, headers={**a.headers, **json_headers}))
    refused_too_deep(client.post(f"/api/tables/{table_id}/chat", content=f'{{"text": {nested(depth)}}}',
                                 headers={**a.headers, **json_headers}))
    assert a.table(table_id)["version"] == 0


def test_json_as_deep_as_the_limit_is_read(client):
    a, b = Api(client), Api(client)
    table_id = new_table(a, [b])
    # 32 levels: the body object, the move, and 30 lists inside it. The engine refuses the
    # move as a move, not as input.
    move = f'{{"version": 0, "move": {{"type": "pass", "x": {nested(30, "1")}}}}}'
    r = client.post(f"/api/tables/{table_id}/moves", content=move,
                    headers={**a.headers, "Content-Type": "application/json"})
    assert r.json().get("code") != "too_deep", r.text
    # Brackets inside strings do not count.
    assert a.post(f"/api/tables/{table_id}/chat", {"text": "[" * 400}).status_code == 200


@pytest.mark.parametrize("depth", [950, 5000])
def test_deep_json_is_refused_on_the_socket(client, depth):
    a, b = Api(client), Api(client)
    table_id = new_table(a, [b])
    with client.websocket_connect(f"/api/tables/{table_id}/live", headers=a.headers) as ws:
        receive_until(ws, updated_to(0))
        ws.send_text(f'{{"type": "move", "version": 0, "move": {deep_object(depth)}}}')
        error = receive_until(ws, lambda m: m["type"] == "error")
        assert error["status"] == 422 and error["code"] == "too_deep", error
        ws.send_text(nested(depth))
        assert receive_until(ws, lambda m: m["type"] == "error")["code"] == "too_deep"
        ws.send_json({"type": "ping"})
        assert receive_until(ws, lambda m: m["type"] == "pong")
    assert a.table(table_id)["version"] == 0


def test_true_is_not_a_number(client):
    a, b = Api(client), Api(client)
    table_id = new_table(a, [b])
    for body in ({"version": True, "move": {"type": "pass"}}, {"version": 0, "move": {"type": "pass"}, "seat": False}):
        r = a.post(f"/api/tables/{table_id}/moves", body)
        assert r.status_code == 422 and r.json()["code"] == "invalid_request", r.text
    assert a.post(f"/api/tables/{table_id}/undo", {"version": True}).status_code == 422
    assert a.post("/api/tables", {"game": "drawbid", "seats": True}).status_code == 422
    assert a.post("/api/tables", {"game": "drawbid", "clock": {"initial_seconds": True}}).status_code == 422
    assert a.post(f"/api/tables/{table_id}/join", {"seat": True}).status_code == 422
    assert a.table(table_id)["version"] == 0
    assert a.move(table_id, 0, {"type": "pass"}).status_code == 200  # a number still is one
