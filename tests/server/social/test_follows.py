"""Follows and friends: follow, unfollow, mutual follows are friends, friends online (a
personal live socket open) and told live when one comes."""

from __future__ import annotations

from tests.server.conftest import Api
from tests.server.helpers import receive_until


def test_follow_mutual_friends_online_and_unfollow(client):
    a, b, c = Api(client), Api(client), Api(client)
    r = client.put(f"/api/follows/{b.name}", headers=a.headers)
    assert r.status_code == 200 and r.json() == {"username": b.name, "following": True, "friend": False}
    assert client.put(f"/api/follows/{b.name}", headers=a.headers).status_code == 200  # again: no change
    r = client.put(f"/api/follows/{a.name}", headers=b.headers)
    assert r.json()["friend"] is True
    assert client.put(f"/api/follows/{a.name}", headers=c.headers).status_code == 200
    listed = a.get("/api/follows").json()
    assert listed["following"] == [b.name]
    assert sorted(listed["followers"]) == sorted([b.name, c.name])
    assert listed["friends"] == [{"username": b.name, "online": False}]
    with client.websocket_connect(f"/api/me/live?token={a.token}") as live_a:
        hello = receive_until(live_a, lambda m: m["type"] == "hello")
        assert hello["friends_online"] == []
        with client.websocket_connect(f"/api/me/live?token={b.token}") as live_b:
            assert receive_until(live_b, lambda m: m["type"] == "hello")["friends_online"] == [a.name]
            # b came online: a's page hears it.
            assert receive_until(live_a, lambda m: m["type"] == "friends")["online"] == [b.name]
            assert a.get("/api/follows").json()["friends"] == [{"username": b.name, "online": True}]
    r = client.delete(f"/api/follows/{b.name}", headers=a.headers)
    assert r.status_code == 200 and r.json()["following"] is False
    assert a.get("/api/follows").json()["friends"] == []


def test_bad_follows_are_refused(client):
    a, b = Api(client), Api(client)
    for method, name, status, code in (("PUT", "nobody_here", 404, "no_user"), ("PUT", a.name, 422, "self_follow"),
                                       ("DELETE", b.name, 404, "not_following")):
        r = client.request(method, f"/api/follows/{name}", headers=a.headers)
        assert (r.status_code, r.json()["code"]) == (status, code), r.text
    assert client.put(f"/api/blocks/{a.name}", headers=b.headers).status_code == 200
    r = client.put(f"/api/follows/{b.name}", headers=a.headers)
    assert (r.status_code, r.json()["code"]) == (403, "blocked")
    assert a.get("/api/follows").json()["following"] == []
    assert client.put(f"/api/follows/{b.name}").status_code == 401


def test_the_personal_socket_needs_a_session(client):
    with client.websocket_connect("/api/me/live") as live:
        assert live.receive_json()["code"] == "not_signed_in"
