"""A player deletes their own account (with the password). Finished games stay, under an
anonymous placeholder name; ratings, profile, email, devices and sessions go; the name
can never sign in again."""

from __future__ import annotations

import random

from fastapi.testclient import TestClient
from sqlalchemy import func, select

from ludoteca.server.kernel.models import AccountContact, AlertPreference, PushSubscription, Rating
from tests.server.conftest import Api, new_table
from tests.server.helpers import play_out
from tests.server.pushservice import Device

PASSWORD = "correct horse"


def count(server: object, model: type, user_id: int) -> int:
    with server.runtime.sessions() as db:  # type: ignore[attr-defined]
        return int(db.scalar(select(func.count()).select_from(model).where(model.user_id == user_id)) or 0)


def test_deleting_keeps_the_games_and_forgets_the_player(client: TestClient) -> None:
    server = client.app.state.server  # type: ignore[attr-defined]
    a, b = Api(client), Api(client)
    user_id = client.get("/api/sessions", headers=a.headers).json()["user"]["id"]
    table_id = new_table(a, [b], rated=True)
    play_out({0: a, 1: b}, table_id, random.Random(7))
    client.put("/api/account/language", json={"language": "ja"}, headers=a.headers)
    client.put("/api/alerts/preferences", json={"set": [{"kind": "matched", "channel": "push", "enabled": False}]},
               headers=a.headers)
    assert a.post("/api/push/subscriptions", Device("https://push.example/device").subscription()).status_code == 201
    assert count(server, Rating, user_id) == 1
    assert client.get(f"/api/players/{a.name}").status_code == 200

    wrong = a.post("/api/account/delete", {"password": "not the password"})
    assert wrong.status_code == 403 and wrong.json()["code"] == "bad_credentials"
    missing = a.post("/api/account/delete", {})
    assert missing.status_code == 422
    assert a.get("/api/account").status_code == 200 and count(server, Rating, user_id) == 1

    r = a.post("/api/account/delete", {"password": PASSWORD})
    assert r.status_code == 200 and r.json() == {"ok": True, "now": f"deleted-{user_id}"}
    assert a.get("/api/account").status_code == 401
    assert client.post("/api/sessions", json={"username": a.name, "password": PASSWORD}).status_code == 401
    assert client.get(f"/api/players/{a.name}").status_code == 404
    for model in (Rating, AccountContact, AlertPreference, PushSubscription):
        assert count(server, model, user_id) == 0, model
    # The finished game stands, the other player's result with it.
    table = b.table(table_id)["table"]
    assert table["status"] == "over"
    assert [p["username"] for p in table["players"]] == [f"deleted-{user_id}", b.name]
    assert b.get(f"/api/tables/{table_id}/record").status_code == 200
    # The placeholder keeps the row; the old name is free for a new account.
    assert client.post("/api/accounts", json={"username": a.name, "password": PASSWORD}).status_code == 201


def test_deleting_takes_the_follows_invitations_and_queue_entry_with_it(client: TestClient) -> None:
    """The account row stays (as ``deleted-<id>``), so nothing cascades: the deletion
    itself removes what the arena kept of it, whoever deletes it (the player, a moderator,
    the admin command)."""
    from ludoteca.server.kernel.models import Follow, Invitation, PlayNowEntry

    server = client.app.state.server  # type: ignore[attr-defined]
    a, b, c = Api(client), Api(client), Api(client)
    user_id = client.get("/api/sessions", headers=a.headers).json()["user"]["id"]
    assert client.put(f"/api/follows/{b.name}", headers=a.headers).status_code == 200
    assert client.put(f"/api/follows/{a.name}", headers=c.headers).status_code == 200
    table_id = b.post("/api/tables", {"game": "drawbid", "seats": 3}).json()["id"]
    assert b.post(f"/api/tables/{table_id}/invitations", {"username": a.name}).status_code == 201
    assert a.post("/api/playnow", {"game": "drawbid", "seats": 2}).status_code == 201
    with server.runtime.sessions() as db:
        assert db.scalar(select(func.count()).select_from(Follow)) == 2
        assert db.scalar(select(func.count()).select_from(Invitation)) == 1
    assert count(server, PlayNowEntry, user_id) == 1
    server.moderation.delete_account(a.name)
    with server.runtime.sessions() as db:
        assert db.scalar(select(func.count()).select_from(Follow)) == 0
        assert db.scalar(select(func.count()).select_from(Invitation)) == 0
    assert count(server, PlayNowEntry, user_id) == 0
