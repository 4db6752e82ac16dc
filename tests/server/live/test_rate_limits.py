"""Chat lines and socket messages are rate-limited (chat once took 300 lines in 2 s, and
a socket could send as fast as it liked): past the rate, a message is refused with 429
``too_many_messages`` and the socket stays open (server/live/limits.py). Login limits
counted through Redis stop at the first refusal."""

from __future__ import annotations

from fastapi.testclient import TestClient

from ludoteca.server.app import create_app
from ludoteca.server.live import limits
from tests.server.conftest import Api, make_settings, new_table
from tests.server.helpers import receive_until, updated_to


def test_chat_lines_per_account_are_limited(sqlite_url):
    with TestClient(create_app(make_settings(sqlite_url, chat_lines_per_10_seconds=5))) as http:
        a, b = Api(http), Api(http)
        table_id = new_table(a, [b])
        codes = [a.post(f"/api/tables/{table_id}/chat", {"text": f"line {i}"}).status_code for i in range(8)]
        assert codes == [200] * 5 + [429] * 3, codes
        assert b.post(f"/api/tables/{table_id}/chat", {"text": "mine"}).status_code == 200  # per account
        # The socket counts against the same account.
        with http.websocket_connect(f"/api/tables/{table_id}/live", headers=a.headers) as ws:
            receive_until(ws, updated_to(0))
            ws.send_json({"type": "chat", "text": "one more"})
            error = receive_until(ws, lambda m: m["type"] == "error")
            assert error["status"] == 429 and error["code"] == "too_many_messages", error
        lines = [line["text"] for line in http.get(f"/api/tables/{table_id}/chat").json()]
        assert "line 5" not in lines and "one more" not in lines and "mine" in lines


def test_messages_per_socket_are_limited(sqlite_url):
    with TestClient(create_app(make_settings(sqlite_url, ws_messages_per_10_seconds=20))) as http:
        a, b = Api(http), Api(http)
        table_id = new_table(a, [b])
        with http.websocket_connect(f"/api/tables/{table_id}/live", headers=a.headers) as ws:
            receive_until(ws, updated_to(0))
            for _ in range(30):
                ws.send_json({"type": "ping"})
            answers = [receive_until(ws, lambda m: m["type"] in ("pong", "error")) for _ in range(30)]
            assert sum(m["type"] == "pong" for m in answers) == 20
            assert {m["code"] for m in answers if m["type"] == "error"} == {"too_many_messages"}
        # Another socket of the same account has its own count.
        with http.websocket_connect(f"/api/tables/{table_id}/live", headers=a.headers) as ws:
            receive_until(ws, updated_to(0))
            ws.send_json({"type": "ping"})
            assert receive_until(ws, lambda m: m["type"] in ("pong", "error"))["type"] == "pong"


def test_the_window_slides(monkeypatch):
    now = [1000.0]
    monkeypatch.setattr(limits.time, "monotonic", lambda: now[0])
    window = limits.Window()
    assert all(window.admit(3) for _ in range(3)) and not window.admit(3)
    now[0] += limits.WINDOW_SECONDS + 0.01
    assert window.admit(3)


def test_login_limits_count_through_redis_off_the_loop_and_stop_at_the_first_refusal():
    """Through Redis (as several processes count together) the limiter counts each key in
    order up to the first refused one: one address's refused flood never uses up the
    limit that everyone shares."""
    import asyncio
    import uuid

    import redis

    from ludoteca.server.kernel.errors import ApiError
    from ludoteca.server.kernel.identity import LoginLimiter

    client = redis.Redis.from_url("redis://127.0.0.1:6379/0")
    prefix = f"test-{uuid.uuid4().hex}:"
    limiter = LoginLimiter(10, client, prefix)
    hits = [("flood", 2, 60, "login attempts"), ("everyone", 100, 60, "login attempts")]
    refused = 0
    for _ in range(5):
        try:
            asyncio.run(limiter.hit_all(hits))
        except ApiError as error:
            assert error.status == 429 and error.code == "too_many_attempts"
            refused += 1
    try:
        assert refused == 3
        assert int(client.get(f"{prefix}login:everyone")) == 2  # only the attempts let through
        assert 0 < client.ttl(f"{prefix}login:flood") <= 60
    finally:
        client.delete(f"{prefix}login:flood", f"{prefix}login:everyone")
