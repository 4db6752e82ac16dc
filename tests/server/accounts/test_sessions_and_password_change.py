"""A player sees their sessions, ends one or all of them (open sockets
close), and changes their password with the current one."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.server.conftest import Api, new_table
from tests.server.helpers import receive_until

PASSWORD = "correct horse"


def second_session(http: TestClient, user: Api, password: str = PASSWORD) -> dict[str, str]:
    r = http.post("/api/sessions", json={"username": user.name, "password": password})
    assert r.status_code == 200, r.text
    http.cookies.clear()
    return {"Authorization": f"Bearer {r.json()['token']}"}


def test_sessions_are_listed_and_ended_one_by_one(client: TestClient) -> None:
    user = Api(client)
    phone = second_session(client, user)
    listed = user.get("/api/account/sessions").json()
    assert len(listed) == 2 and sum(s["current"] for s in listed) == 1
    other = next(s for s in listed if not s["current"])
    assert len(other["id"]) == 16 and other["expires_at"].endswith("Z")
    for bad in ("0" * 16, "zz", "g" * 16):
        r = client.delete(f"/api/account/sessions/{bad}", headers=user.headers)
        assert r.status_code in (404, 422), r.text
    assert client.get("/api/account", headers=phone).status_code == 200
    r = client.delete(f"/api/account/sessions/{other['id']}", headers=user.headers)
    assert r.status_code == 200 and r.json() == {"ok": True}
    assert client.get("/api/account", headers=phone).status_code == 401
    assert user.get("/api/account").status_code == 200
    # Someone else's session cannot be named.
    stranger = Api(client)
    mine = user.get("/api/account/sessions").json()[0]["id"]
    assert client.delete(f"/api/account/sessions/{mine}", headers=stranger.headers).status_code == 404
    assert user.get("/api/account").status_code == 200


def test_log_out_everywhere_closes_the_open_sockets(client: TestClient) -> None:
    a, b = Api(client), Api(client)
    table_id = new_table(a, [b])
    phone = second_session(client, a)
    with client.websocket_connect(f"/api/tables/{table_id}/live", headers=phone) as ws:
        receive_until(ws, lambda m: m["type"] == "update")
        r = client.delete("/api/account/sessions", headers=a.headers)
        assert r.status_code == 200
        closing = receive_until(ws, lambda m: m["type"] == "error")
        assert closing["code"] == "not_signed_in"
    assert a.get("/api/account").status_code == 401
    assert client.get("/api/account", headers=phone).status_code == 401
    assert b.get("/api/account").status_code == 200


def test_a_password_change_needs_the_current_one(client: TestClient) -> None:
    user = Api(client)
    phone = second_session(client, user)
    wrong = client.put("/api/account/password", json={"current": "not it at all", "new": "a brand new secret"},
                       headers=user.headers)
    assert wrong.status_code == 403 and wrong.json()["code"] == "bad_credentials"
    weak = client.put("/api/account/password", json={"current": PASSWORD, "new": "short"}, headers=user.headers)
    assert weak.status_code == 422 and weak.json()["code"] == "bad_password"
    missing = client.put("/api/account/password", json={"new": "a brand new secret"}, headers=user.headers)
    assert missing.status_code == 422
    assert client.get("/api/account", headers=phone).status_code == 200  # nothing changed yet
    r = client.put("/api/account/password", json={"current": PASSWORD, "new": "a brand new secret"},
                   headers=user.headers)
    assert r.status_code == 200 and r.json() == {"ok": True}
    assert user.get("/api/account").status_code == 200  # this session stays
    assert client.get("/api/account", headers=phone).status_code == 401  # the others end
    assert client.post("/api/sessions", json={"username": user.name, "password": PASSWORD}).status_code == 401
    second_session(client, user, "a brand new secret")


def test_a_guest_has_no_account_to_manage(client: TestClient) -> None:
    guest = client.post("/api/sessions/guest").json()
    client.cookies.clear()
    headers = {"Authorization": f"Bearer {guest['token']}"}
    assert client.get("/api/account", headers=headers).json()["guest"] is True
    r = client.put("/api/account/password", json={"current": "x", "new": "a brand new secret"}, headers=headers)
    assert r.status_code == 403 and r.json()["code"] == "guest"
    assert client.get("/api/account/sessions").status_code == 401
