"""Web Push end to end. The server pushes to a push service run by the test, which
decrypts each payload with the subscription's own private key and auth secret (RFC 8291)
and checks the VAPID signature (RFC 8292), as a browser and its push service would."""

from __future__ import annotations

import base64
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from fastapi.testclient import TestClient

from ludoteca.server.app import create_app
from tests.server.conftest import Api, make_settings, new_table
from tests.server.helpers import receive_until
from tests.server.pushservice import Device, PushService, push_service  # noqa: F401 - the fixture


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@pytest.fixture
def http(tmp_path: Path) -> Iterator[TestClient]:
    settings = make_settings(f"sqlite:///{tmp_path / 'db.sqlite'}", push_allow_http=True,
                             vapid_subject="mailto:ops@ludoteca.test")
    with TestClient(create_app(settings)) as client:
        yield client


def subscribe(user: Api, device: Device) -> None:
    r = user.post("/api/push/subscriptions", device.subscription())
    assert r.status_code == 201, r.text


def check_vapid(headers: dict[str, str], public_key: str, audience: str) -> None:
    scheme, _, rest = headers["authorization"].partition(" ")
    assert scheme == "vapid"
    fields = dict(part.strip().split("=", 1) for part in rest.split(","))
    assert fields["k"] == public_key
    head, claims, signature = fields["t"].split(".")
    assert json.loads(unb64(claims)) == {**json.loads(unb64(claims)), "aud": audience,
                                         "sub": "mailto:ops@ludoteca.test"}
    raw = unb64(signature)
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64(public_key))
    try:
        key.verify(der, f"{head}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))
    except InvalidSignature:  # pragma: no cover - the failure the test is for
        pytest.fail("the VAPID signature does not verify with the server's public key")


def pass_move(user: Api, table_id: str) -> dict[str, Any]:
    snap = user.table(table_id)
    move = next((m for m in snap["legal"] if m.get("type") == "pass"), snap["legal"][0])
    r = user.move(table_id, snap["version"], move)
    assert r.status_code == 200, r.text
    return dict(r.json())


def test_your_turn_reaches_the_device_encrypted_in_the_players_language(
        http: TestClient, push_service: PushService) -> None:  # noqa: F811
    key = http.get("/api/push/key").json()["public_key"]
    assert len(unb64(key)) == 65
    a, b = Api(http), Api(http)
    assert a.http.put("/api/account/language", json={"language": "ja"}, headers=a.headers).status_code == 200
    device_a, device_b = Device(f"{push_service.url}/push/a"), Device(f"{push_service.url}/push/b")
    subscribe(a, device_a)
    subscribe(b, device_b)
    assert a.get("/api/account").json()["push_devices"] == 1
    table_id = new_table(a, [b], mode="turn-based", clock={"turn_seconds": 3600})
    # Seat 0 (a) decides first: the start tells a's device.
    path, headers, body = push_service.wait(1)[0]
    assert path == "/push/a" and headers["content-encoding"] == "aes128gcm" and int(headers["ttl"]) > 0
    check_vapid(headers, key, push_service.url)
    assert body[:16] != b"{" and b"table" not in body  # encrypted, not the JSON itself
    payload = device_a.decrypt(body)
    assert payload == {**payload, "kind": "your_turn", "table": table_id, "url": f"/#/table/{table_id}",
                       "lang": "ja", "title": "あなたの番です"}
    assert "テーブル" in payload["body"]
    # a passes: b's turn, in English, to b's device only.
    pass_move(a, table_id)
    path, headers, body = push_service.wait(2)[1]
    assert path == "/push/b"
    payload = device_b.decrypt(body)
    assert (payload["kind"], payload["title"], payload["table"]) == ("your_turn", "Your turn", table_id)
    with pytest.raises(Exception):  # noqa: B017 - the other device's keys cannot read it
        device_a.decrypt(body)


def test_preferences_and_gone_devices(http: TestClient, push_service: PushService) -> None:  # noqa: F811
    server = http.app.state.server  # type: ignore[attr-defined]
    a, b = Api(http), Api(http)
    subscribe(a, Device(f"{push_service.url}/push/a"))
    off = {"set": [{"kind": "your_turn", "channel": "push", "enabled": False}]}
    r = a.http.put("/api/alerts/preferences", json=off, headers=a.headers)
    assert r.status_code == 200 and r.json()["preferences"]["your_turn"]["push"] is False
    new_table(a, [b], mode="turn-based", clock={"turn_seconds": 3600})
    for worker in (server.turn_alerts.worker, server.turn_alerts.worker,
                   server.push.worker):
        worker.join()  # a change read from the database queues its alerts behind the first join
    assert push_service.received == []  # a said no
    a.http.put("/api/alerts/preferences", json={"set": [{"kind": "your_turn", "channel": "push", "enabled": True}]},
               headers=a.headers)
    push_service.status = 410  # the browser dropped the subscription
    new_table(a, [b], mode="turn-based", clock={"turn_seconds": 3600})
    push_service.wait(1)
    deadline = time.monotonic() + 5
    while a.get("/api/account").json()["push_devices"] and time.monotonic() < deadline:
        time.sleep(0.05)
    assert a.get("/api/account").json()["push_devices"] == 0


def test_bad_subscriptions_are_refused(http: TestClient, push_service: PushService) -> None:  # noqa: F811
    a = Api(http)
    good = Device(f"{push_service.url}/push/a").subscription()
    for bad in ({**good, "endpoint": "ftp://push.example/x"}, {**good, "endpoint": "not a url"},
                {**good, "keys": {**good["keys"], "p256dh": "AAAA"}},
                {**good, "keys": {**good["keys"], "auth": base64.urlsafe_b64encode(b"x" * 15).decode()}},
                {**good, "keys": {"p256dh": good["keys"]["p256dh"]}}, {**good, "endpoint": "https://" + "x" * 1100}):
        r = a.post("/api/push/subscriptions", bad)
        assert r.status_code == 422, (bad, r.text)
    assert a.get("/api/account").json()["push_devices"] == 0
    subscribe(a, Device(good["endpoint"]))
    assert a.post("/api/push/unsubscribe", {"endpoint": good["endpoint"]}).json() == {"ok": True}
    again = a.post("/api/push/unsubscribe", {"endpoint": good["endpoint"]})
    assert again.status_code == 404 and again.json()["code"] == "no_subscription"
    bad_pref = a.http.put("/api/alerts/preferences", json={"set": [{"kind": "weather", "channel": "push",
                                                                     "enabled": False}]}, headers=a.headers)
    assert bad_pref.status_code == 422
    assert a.get("/api/alerts/preferences").json()["preferences"]["your_turn"]["push"] is True


def test_plain_http_endpoints_are_refused_in_production(tmp_path: Path) -> None:
    with TestClient(create_app(make_settings(f"sqlite:///{tmp_path / 'db.sqlite'}"))) as http:
        a = Api(http)
        r = a.post("/api/push/subscriptions", Device("http://127.0.0.1:9/x").subscription())
        assert r.status_code == 422 and r.json()["code"] == "bad_subscription"


def test_no_push_to_a_player_at_the_table(http: TestClient, push_service: PushService) -> None:  # noqa: F811
    """Realtime too: a player who has the table open is told by the page, not by push."""
    server = http.app.state.server  # type: ignore[attr-defined]
    a, b = Api(http), Api(http)
    device_a, device_b = Device(f"{push_service.url}/push/a"), Device(f"{push_service.url}/push/b")
    subscribe(a, device_a)
    subscribe(b, device_b)
    table_id = a.post("/api/tables", {"game": "drawbid", "seats": 2}).json()["id"]
    assert b.post(f"/api/tables/{table_id}/join").status_code == 200
    with http.websocket_connect(f"/api/tables/{table_id}/live", headers=a.headers) as ws:
        receive_until(ws, lambda m: m["type"] == "update")
        assert a.post(f"/api/tables/{table_id}/start").status_code == 200  # a decides first, at the table
        receive_until(ws, lambda m: m["type"] == "update" and m["table"]["status"] == "playing")
        for worker in (server.turn_alerts.worker, server.turn_alerts.worker,
                       server.push.worker):
            worker.join()
        assert push_service.received == []
        pass_move(a, table_id)  # b's turn; b is away
        path, _headers, body = push_service.wait(1)[0]
        assert path == "/push/b" and device_b.decrypt(body)["table"] == table_id
