"""Signing up and in: a taken name, a bad name or password refused with its code, a
wrong password answered like an unknown name; a session as an HttpOnly cookie (an unsafe
method needs the CSRF header too) or as a bearer token, ended by signing out; guests, who
may not open a rated table; a server without guests, and its login rate limit."""

from __future__ import annotations

from fastapi.testclient import TestClient

from ludoteca.server.app import create_app
from tests.server.conftest import make_settings


def test_accounts_and_sessions(client):
    assert client.post("/api/accounts", json={"username": "ada", "password": "longenough"}).status_code == 201
    r = client.post("/api/accounts", json={"username": "ada", "password": "longenough"})
    assert r.status_code == 409 and r.json()["code"] == "username_taken"
    assert client.post("/api/accounts", json={"username": "a", "password": "longenough"}).json()["code"] == \
        "bad_username"
    assert client.post("/api/accounts", json={"username": "bob", "password": "short"}).json()["code"] == \
        "bad_password"
    r = client.post("/api/sessions", json={"username": "ada", "password": "wrong password"})
    assert r.status_code == 401 and r.json()["code"] == "bad_credentials"
    r = client.post("/api/sessions", json={"username": "nobody", "password": "wrong password"})
    assert r.status_code == 401 and r.json()["code"] == "bad_credentials"
    r = client.post("/api/sessions", json={"username": "ada", "password": "longenough"})
    assert r.status_code == 200
    cookie = r.headers["set-cookie"].lower()
    assert "httponly" in cookie and "samesite=lax" in cookie
    body = r.json()
    assert "password" not in r.text and body["user"]["username"] == "ada"
    # The cookie works for reading...
    assert client.get("/api/sessions").json()["user"]["username"] == "ada"
    # ...but an unsafe method needs the CSRF header too.
    r = client.post("/api/tables", json={"game": "drawbid", "seats": 2})
    assert r.status_code == 403 and r.json()["code"] == "csrf"
    r = client.post("/api/tables", json={"game": "drawbid", "seats": 2}, headers={"X-CSRF-Token": body["csrf"]})
    assert r.status_code == 201
    # The token works as a bearer token without cookies or CSRF.
    bearer = {"Authorization": f"Bearer {body['token']}"}
    client.cookies.clear()
    assert client.get("/api/sessions", headers=bearer).status_code == 200
    assert client.post("/api/tables", json={"game": "drawbid"}, headers=bearer).status_code == 201
    assert client.delete("/api/sessions", headers=bearer).status_code == 200
    r = client.get("/api/sessions", headers=bearer)
    assert r.status_code == 401 and r.json()["code"] == "not_signed_in"


def test_guests(client, sqlite_url):
    r = client.post("/api/sessions/guest")
    assert r.status_code == 200 and r.json()["user"]["guest"]
    guest = {"Authorization": f"Bearer {r.json()['token']}"}
    client.cookies.clear()
    assert client.post("/api/tables", json={"game": "drawbid"}, headers=guest).status_code == 201
    r = client.post("/api/tables", json={"game": "drawbid", "rated": True}, headers=guest)
    assert r.status_code == 403 and r.json()["code"] == "guest_rated"


def test_no_guests_and_login_rate_limit(tmp_path):
    settings = make_settings(f"sqlite:///{tmp_path / 'x.db'}", allow_guests=False, login_attempts_per_minute=3)
    with TestClient(create_app(settings)) as http:
        assert http.post("/api/sessions/guest").json()["code"] == "no_guests"
        http.post("/api/accounts", json={"username": "eve", "password": "longenough"})
        codes = [http.post("/api/sessions", json={"username": "eve", "password": "nope nope"}).status_code
                 for _ in range(4)]
        assert codes == [401, 401, 401, 429]
