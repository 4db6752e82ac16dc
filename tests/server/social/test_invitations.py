"""Invitations: invite an account by name to a seat of one's table; the invitee hears it
on the personal live socket (the alert dispatcher's page channel) and accepts (seated)
or declines; blocks hold both ways; bad input is a clear 4xx and changes nothing."""

from __future__ import annotations

from tests.server.conftest import Api
from tests.server.helpers import receive_until


def _open_table(owner: Api, seats: int = 2) -> str:
    r = owner.post("/api/tables", {"game": "drawbid", "seats": seats})
    assert r.status_code == 201, r.text
    return r.json()["id"]


def test_an_invitation_reaches_the_invitee_live_and_is_accepted(client):
    a, b = Api(client), Api(client)
    table_id = _open_table(a)
    assert "page" in client.app.state.server.alerts.channels()
    with client.websocket_connect(f"/api/me/live?token={b.token}") as live:
        hello = receive_until(live, lambda m: m["type"] == "hello")
        assert hello["badge"] == 0
        r = a.post(f"/api/tables/{table_id}/invitations", {"username": b.name, "seat": 1})
        assert r.status_code == 201, r.text
        invitation = r.json()
        assert (invitation["inviter"], invitation["invitee"], invitation["status"]) == (a.name, b.name, "pending")
        alert = receive_until(live, lambda m: m["type"] == "alert")
        assert alert["kind"] == "invitation" and alert["table"] == table_id
        assert alert["params"]["inviter"] == a.name and alert["params"]["invitation"] == invitation["id"]
    listed = b.get("/api/invitations").json()
    assert [i["id"] for i in listed["received"]] == [invitation["id"]] and listed["sent"] == []
    assert [i["id"] for i in a.get("/api/invitations").json()["sent"]] == [invitation["id"]]
    r = b.post(f"/api/invitations/{invitation['id']}/accept")
    assert r.status_code == 200, r.text
    assert r.json()["status"] == "accepted"
    assert [p["username"] for p in r.json()["table"]["players"]] == [a.name, b.name]
    assert b.get("/api/invitations").json()["received"] == []
    again = b.post(f"/api/invitations/{invitation['id']}/accept")
    assert again.status_code == 409 and again.json()["code"] == "answered"


def test_decline_and_withdraw(client):
    a, b, c = Api(client), Api(client), Api(client)
    table_id = _open_table(a, 3)
    one = a.post(f"/api/tables/{table_id}/invitations", {"username": b.name}).json()
    two = a.post(f"/api/tables/{table_id}/invitations", {"username": c.name}).json()
    r = b.post(f"/api/invitations/{one['id']}/decline")
    assert r.status_code == 200 and r.json()["status"] == "declined"
    # Not c's to withdraw, not a's to accept.
    assert client.request("DELETE", f"/api/invitations/{two['id']}", headers=c.headers).status_code == 404
    assert a.post(f"/api/invitations/{two['id']}/accept").status_code == 404
    r = client.request("DELETE", f"/api/invitations/{two['id']}", headers=a.headers)
    assert r.status_code == 200 and r.json()["status"] == "cancelled"
    # A declined invitation may be made again.
    assert a.post(f"/api/tables/{table_id}/invitations", {"username": b.name}).status_code == 201


def test_bad_invitations_are_refused_and_change_nothing(client):
    a, b, c, d = Api(client), Api(client), Api(client), Api(client)
    table_id = _open_table(a)
    cases = [
        (a, {"username": "nobody_here"}, 404, "no_user"),
        (a, {"username": a.name}, 422, "self_invite"),
        (c, {"username": b.name}, 403, "not_seated"),
        (a, {"username": b.name, "seat": 0}, 409, "no_free_seat"),
        (a, {"username": b.name, "seat": 9}, 409, "no_free_seat"),
    ]
    for who, body, status, code in cases:
        r = who.post(f"/api/tables/{table_id}/invitations", body)
        assert (r.status_code, r.json()["code"]) == (status, code), (body, r.text)
    assert a.post("/api/tables/nope/invitations", {"username": b.name}).status_code == 404
    assert a.post(f"/api/tables/{table_id}/invitations", {"username": b.name}).status_code == 201
    r = a.post(f"/api/tables/{table_id}/invitations", {"username": b.name})
    assert (r.status_code, r.json()["code"]) == (409, "already_invited")
    # Blocks both ways: d blocked a; a blocked c.
    assert client.put(f"/api/blocks/{a.name}", headers=d.headers).status_code == 200
    r = a.post(f"/api/tables/{table_id}/invitations", {"username": d.name})
    assert (r.status_code, r.json()["code"]) == (403, "blocked")
    assert client.put(f"/api/blocks/{c.name}", headers=a.headers).status_code == 200
    r = a.post(f"/api/tables/{table_id}/invitations", {"username": c.name})
    assert (r.status_code, r.json()["code"]) == (403, "blocked")
    assert [i["invitee"] for i in a.get("/api/invitations").json()["sent"]] == [b.name]
    # A full table: c... fills it through another invitation path (joining), then b's
    # invitation cannot be accepted and nothing changes.
    e = Api(client)
    assert e.post(f"/api/tables/{table_id}/join").status_code == 200
    r = a.post(f"/api/tables/{table_id}/invitations", {"username": Api(client).name})
    assert (r.status_code, r.json()["code"]) == (409, "no_free_seat")
    invitation = b.get("/api/invitations").json()["received"][0]
    r = b.post(f"/api/invitations/{invitation['id']}/accept")
    assert r.status_code == 409 and r.json()["code"] == "no_free_seat"
    assert [p["username"] for p in a.table(table_id)["table"]["players"]] == [a.name, e.name]
    # Garbage ids and bodies: 422, not 500.
    assert b.post("/api/invitations/0/accept").status_code == 422
    assert a.post(f"/api/tables/{table_id}/invitations", {"username": ""}).status_code == 422
    assert a.post(f"/api/tables/{table_id}/invitations", {"username": "x" * 41}).status_code == 422
