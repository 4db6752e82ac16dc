"""Moderation: roles, blocks, reports, mutes, bans, table aborts, chat removal and the
audit log, through the service and over HTTP and the socket, on a real database (SQLite;
the service also on PostgreSQL)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from ludoteca.server.app import create_app
from ludoteca.server.kernel.clock import now
from ludoteca.server.kernel.models import Rating, User
from ludoteca.server.moderation.service import REPORTS_PER_HOUR, in_force, may_invite, until_after
from ludoteca.server.tables.endings import Ending
from tests.server.conftest import Api, make_settings, new_table
from tests.server.helpers import receive_until, updated_to


def moderator(client: TestClient, role: str = "moderator") -> Api:
    mod = Api(client)
    client.app.state.server.moderation.set_role(mod.name, role)
    return mod


def server(client: TestClient) -> Any:
    return client.app.state.server


# -- rules --------------------------------------------------------------------------------


def test_durations_are_bounded():
    start = now()
    assert until_after(60, start) == start + timedelta(minutes=60)
    assert until_after(None).year == 9999
    for bad in (0, -5, 10 * 10**6):
        with pytest.raises(Exception) as caught:
            until_after(bad)
        assert getattr(caught.value, "code", None) == "bad_duration"
    assert not in_force(None) and not in_force(start - timedelta(seconds=1)) and in_force(start + timedelta(days=1))


# -- roles --------------------------------------------------------------------------------


def test_moderator_routes_need_a_role(client):
    player = Api(client)
    for path in ("/api/moderation/reports", "/api/moderation/audit", f"/api/moderation/users/{player.name}"):
        assert client.get(path).status_code == 401
        refused = player.get(path)
        assert refused.status_code == 403 and refused.json()["code"] == "not_moderator"
    assert player.post(f"/api/moderation/users/{player.name}/ban").status_code == 403
    mod = moderator(client)
    assert mod.get("/api/moderation/reports").status_code == 200
    assert mod.get("/api/blocks").json()["role"] == "moderator"
    admin = moderator(client, "admin")
    assert admin.get("/api/moderation/audit").status_code == 200
    # The role is read on every request: taking it away works at once.
    server(client).moderation.set_role(mod.name, None)
    assert mod.get("/api/moderation/reports").status_code == 403


def test_bad_roles_and_unknown_users_change_nothing(client):
    moderation = server(client).moderation
    player = Api(client)
    with pytest.raises(Exception) as caught:
        moderation.set_role(player.name, "owner")
    assert caught.value.code == "bad_role"
    with pytest.raises(Exception) as caught:
        moderation.set_role("nobody-here", "admin")
    assert caught.value.code == "no_user"
    assert player.get("/api/blocks").json()["role"] is None


# -- blocks ---------------------------------------------------------------------------------


def test_a_blocked_player_cannot_join_and_their_chat_is_hidden(client):
    a, b, c = Api(client), Api(client), Api(client)
    assert a.post(f"/api/blocks/{b.name}", None).status_code == 405  # PUT, not POST
    assert a.http.put(f"/api/blocks/{b.name}", headers=a.headers).json() == {"blocked": b.name}
    assert a.http.put(f"/api/blocks/{b.name}", headers=a.headers).status_code == 200  # twice: still one
    assert a.get("/api/blocks").json()["blocked"] == [b.name]
    opened = a.post("/api/tables", {"game": "drawbid", "seats": 3}).json()["id"]
    refused = b.post(f"/api/tables/{opened}/join")
    assert refused.status_code == 403 and refused.json()["code"] == "blocked"
    assert c.post(f"/api/tables/{opened}/join").status_code == 200
    # Blocking goes one way: a may still sit at b's tables.
    theirs = b.post("/api/tables", {"game": "drawbid", "seats": 2}).json()["id"]
    assert a.post(f"/api/tables/{theirs}/join").status_code == 200
    # b's chat at b's table: hidden from a, seen by the others.
    assert b.post(f"/api/tables/{theirs}/chat", {"text": "hello"}).status_code == 200
    assert a.post(f"/api/tables/{theirs}/chat", {"text": "hi"}).status_code == 200
    assert [m["text"] for m in a.get(f"/api/tables/{theirs}/chat").json()] == ["hi"]
    assert [m["text"] for m in b.get(f"/api/tables/{theirs}/chat").json()] == ["hello", "hi"]
    assert [m["text"] for m in client.get(f"/api/tables/{theirs}/chat").json()] == ["hello", "hi"]
    with server(client).runtime.sessions() as db:
        ids = {u.username: u.id for u in db.scalars(sa.select(User))}
        assert not may_invite(db, ids[b.name], ids[a.name]) and not may_invite(db, ids[a.name], ids[b.name])
        assert may_invite(db, ids[c.name], ids[a.name])
    assert a.http.delete(f"/api/blocks/{b.name}", headers=a.headers).json() == {"unblocked": b.name}
    assert b.post(f"/api/tables/{opened}/join").status_code == 200
    assert [m["text"] for m in a.get(f"/api/tables/{theirs}/chat").json()] == ["hello", "hi"]


def test_blocked_chat_is_not_sent_live(client):
    a, b = Api(client), Api(client)
    table_id = new_table(a, [b])
    path = f"/api/tables/{table_id}/live"
    with client.websocket_connect(path, headers=a.headers) as wa:
        receive_until(wa, updated_to(0))
        assert a.http.put(f"/api/blocks/{b.name}", headers=a.headers).status_code == 200
        assert b.post(f"/api/tables/{table_id}/chat", {"text": "you will not see this"}).status_code == 200
        assert a.post(f"/api/tables/{table_id}/chat", {"text": "mine"}).status_code == 200
        line = receive_until(wa, lambda m: m["type"] == "chat")
        assert line["text"] == "mine"


def test_a_removed_chat_line_leaves_every_reader_at_once(client):
    a, b = Api(client), Api(client)
    mod = moderator(client)
    table_id = new_table(a, [b])
    with client.websocket_connect(f"/api/tables/{table_id}/live", headers=a.headers) as wa:
        receive_until(wa, updated_to(0))
        line = b.post(f"/api/tables/{table_id}/chat", {"text": "rude words"}).json()
        assert receive_until(wa, lambda m: m["type"] == "chat")["id"] == line["id"]
        assert mod.post(f"/api/moderation/chat/{line['id']}/remove").status_code == 200
        removed = receive_until(wa, lambda m: m["type"] == "chat_removed")
        assert removed == {"type": "chat_removed", "table": table_id, "id": line["id"]}


def test_bad_blocks_are_refused(client):
    a = Api(client)
    assert a.http.put(f"/api/blocks/{a.name}", headers=a.headers).json()["code"] == "bad_block"
    assert a.http.put("/api/blocks/nobody-at-all", headers=a.headers).status_code == 404
    assert a.http.put("/api/blocks/" + "x" * 41, headers=a.headers).status_code == 422
    assert client.put(f"/api/blocks/{a.name}").status_code == 401
    assert a.get("/api/blocks").json()["blocked"] == []


# -- reports --------------------------------------------------------------------------------


def test_reports_of_a_player_a_chat_line_and_a_table_are_worked_by_a_moderator(client):
    a, b = Api(client), Api(client)
    mod = moderator(client)
    table_id = new_table(a, [b])
    line = b.post(f"/api/tables/{table_id}/chat", {"text": "rude words"}).json()
    filed = [a.post("/api/reports", {"kind": "player", "username": b.name, "reason": "insults"}),
             a.post("/api/reports", {"kind": "chat", "chat": line["id"], "reason": "  rude   line "}),
             a.post("/api/reports", {"kind": "table", "table": table_id, "reason": "stalling"})]
    assert [r.status_code for r in filed] == [201, 201, 201]
    queue = mod.get("/api/moderation/reports").json()
    assert [r["kind"] for r in queue] == ["table", "chat", "player"]
    chat_report = queue[1]
    assert chat_report["user"] == b.name and chat_report["chat_text"] == "rude words"
    assert chat_report["reason"] == "rude line" and chat_report["table"] == table_id
    # The chat line removed: hidden from everyone, still in the report.
    assert mod.post(f"/api/moderation/chat/{line['id']}/remove").json()["hidden"] is True
    assert a.get(f"/api/tables/{table_id}/chat").json() == []
    resolved = mod.post(f"/api/moderation/reports/{chat_report['id']}/resolve", {"note": "removed"})
    assert resolved.json()["status"] == "resolved"
    again = mod.post(f"/api/moderation/reports/{chat_report['id']}/resolve")
    assert again.status_code == 409
    assert [r["id"] for r in mod.get("/api/moderation/reports?status=resolved").json()] == [chat_report["id"]]
    assert len(mod.get("/api/moderation/reports").json()) == 2
    actions = [e["action"] for e in mod.get("/api/moderation/audit").json()]
    assert actions[:2] == ["resolve_report", "remove_chat"]


@pytest.mark.parametrize("body, status, code", [
    ({"kind": "player", "reason": "x"}, 422, "bad_report"),
    ({"kind": "player", "username": "nobody-at-all", "reason": "x"}, 404, "no_user"),
    ({"kind": "chat", "chat": 999_999, "reason": "x"}, 404, "no_chat"),
    ({"kind": "table", "table": "nope", "reason": "x"}, 404, "no_table"),
    ({"kind": "table", "reason": "x"}, 404, "no_table"),
    ({"kind": "spam", "reason": "x"}, 422, None),
    ({"kind": "player", "username": "someone", "reason": "x" * 501}, 422, None),
    ({"kind": "player", "username": "someone", "reason": "   "}, 422, "bad_reason"),
    ({"kind": "player", "username": "someone", "reason": "x", "extra": 1}, 422, None),
    ({"kind": "chat", "chat": True, "reason": "x"}, 422, None),
])
def test_bad_reports_are_refused_and_stored_nowhere(client, body, status, code):
    a = Api(client)
    mod = moderator(client)
    r = a.post("/api/reports", body)
    assert r.status_code == status, r.text
    if code:
        assert r.json()["code"] == code
    assert mod.get("/api/moderation/reports").json() == []


def test_reporting_oneself_is_refused(client):
    a = Api(client)
    assert a.post("/api/reports", {"kind": "player", "username": a.name, "reason": "x"}).status_code == 422


def test_reports_are_rate_limited_per_account(client):
    a, b, c = Api(client), Api(client), Api(client)
    body = {"kind": "player", "username": b.name, "reason": "again"}
    for _ in range(REPORTS_PER_HOUR):
        assert a.post("/api/reports", body).status_code == 201
    refused = a.post("/api/reports", body)
    assert refused.status_code == 429 and refused.json()["code"] == "too_many_attempts"
    assert c.post("/api/reports", body).status_code == 201  # another account is not held back


# -- mutes and bans -----------------------------------------------------------------------------


def test_a_muted_player_cannot_chat_until_unmuted(client):
    a, b = Api(client), Api(client)
    mod = moderator(client)
    table_id = new_table(a, [b])
    assert mod.post(f"/api/moderation/users/{b.name}/mute", {"minutes": 30, "reason": "spam"}).status_code == 200
    refused = b.post(f"/api/tables/{table_id}/chat", {"text": "hello"})
    assert refused.status_code == 403 and refused.json()["code"] == "muted" and refused.json()["until"]
    path = f"/api/tables/{table_id}/live"
    with client.websocket_connect(path, headers=b.headers) as wb:
        receive_until(wb, updated_to(0))
        wb.send_json({"type": "chat", "text": "over the socket"})
        assert receive_until(wb, lambda m: m["type"] == "error")["code"] == "muted"
    assert mod.get(f"/api/moderation/users/{b.name}").json()["muted_until"]
    assert mod.post(f"/api/moderation/users/{b.name}/unmute").status_code == 200
    assert b.post(f"/api/tables/{table_id}/chat", {"text": "hello"}).status_code == 200
    assert mod.get(f"/api/moderation/users/{b.name}").json()["muted_until"] is None


def test_a_ban_ends_sessions_and_sockets_refuses_login_and_expires(client):
    a, b = Api(client), Api(client)
    mod = moderator(client)
    table_id = new_table(a, [b])
    path = f"/api/tables/{table_id}/live"
    with client.websocket_connect(path, headers=b.headers) as wb:
        receive_until(wb, updated_to(0))
        done = mod.post(f"/api/moderation/users/{b.name}/ban", {"minutes": 60, "reason": "cheating"})
        assert done.status_code == 200 and done.json()["banned_until"].endswith("Z")
        told = receive_until(wb, lambda m: m["type"] == "error")
        assert told["code"] == "banned" and "banned" in told["message"]
    assert b.get("/api/sessions").status_code == 401
    assert b.move(table_id, 0, {"type": "draw"}).status_code == 401
    login = client.post("/api/sessions", json={"username": b.name, "password": "correct horse"})
    assert login.status_code == 403 and login.json()["code"] == "banned" and login.json()["until"]
    # A wrong password says nothing about the ban.
    wrong = client.post("/api/sessions", json={"username": b.name, "password": "not the one"})
    assert wrong.status_code == 401
    # Once the ban's time is over, the player signs in again.
    with server(client).runtime.transaction() as db:
        db.execute(sa.update(User).where(User.username == b.name).values(banned_until=now() - timedelta(seconds=1)))
    assert client.post("/api/sessions", json={"username": b.name, "password": "correct horse"}).status_code == 200
    # A ban with no end holds until lifted.
    assert mod.post(f"/api/moderation/users/{b.name}/ban").json()["banned_until"] == "forever"
    assert client.post("/api/sessions", json={"username": b.name, "password": "correct horse"}).status_code == 403
    assert mod.post(f"/api/moderation/users/{b.name}/unban").status_code == 200
    assert client.post("/api/sessions", json={"username": b.name, "password": "correct horse"}).status_code == 200
    actions = [e["action"] for e in mod.get("/api/moderation/audit").json()]
    assert actions[:3] == ["unban", "ban", "ban"]


@pytest.mark.parametrize("body", [{"minutes": 0}, {"minutes": -1}, {"minutes": 10**9}, {"minutes": "5"},
                                  {"minutes": True}, {"reason": "x" * 501}, {"until": 5}])
def test_bad_sanctions_change_nothing(client, body):
    b = Api(client)
    mod = moderator(client)
    for what in ("ban", "mute"):
        assert mod.post(f"/api/moderation/users/{b.name}/{what}", body).status_code == 422
    looked = mod.get(f"/api/moderation/users/{b.name}").json()
    assert looked["banned_until"] is None and looked["muted_until"] is None
    assert mod.get("/api/moderation/audit").json() == [] or all(
        e["action"] == "set_role" for e in mod.get("/api/moderation/audit").json())


def test_moderators_cannot_ban_themselves_or_an_admin(client):
    mod = Api(client, name="cli")  # a username that reads like the command line's is no command line
    server(client).moderation.set_role(mod.name, "moderator")
    admin = moderator(client, "admin")
    assert {e["actor"] for e in mod.get("/api/moderation/audit").json()} == {"@cli"}
    assert mod.post(f"/api/moderation/users/{mod.name}/ban").json()["code"] == "bad_target"
    assert mod.post(f"/api/moderation/users/{admin.name}/ban").json()["code"] == "protected"
    assert mod.post("/api/moderation/users/nobody-at-all/ban").status_code == 404
    assert admin.get("/api/sessions").status_code == 200


# -- aborting a table -------------------------------------------------------------------------------


def test_an_aborted_game_ends_with_no_result_through_the_endings(client):
    a, b = Api(client), Api(client)
    mod = moderator(client)
    heard: list[Ending] = []
    server(client).tables.endings.subscribe(heard.append)
    table_id = new_table(a, [b], rated=True)
    assert a.move(table_id, 0, {"type": "draw"}).status_code == 200
    done = mod.post(f"/api/moderation/tables/{table_id}/abort", {"reason": "abuse"})
    assert done.status_code == 200 and done.json()["status"] == "aborted"
    assert [(e.table_id, e.how, e.result) for e in heard] == [(table_id, "aborted", {})]
    table = a.table(table_id)
    assert table["table"]["status"] == "aborted"
    assert b.move(table_id, table["version"], {"type": "pass"}).status_code in (403, 409)
    with server(client).runtime.sessions() as db:
        assert db.scalars(sa.select(Rating)).all() == []
    again = mod.post(f"/api/moderation/tables/{table_id}/abort")
    assert again.status_code == 409
    assert mod.post("/api/moderation/tables/nope/abort").status_code == 404
    entry = mod.get("/api/moderation/audit").json()[0]
    assert entry["action"] == "abort_table" and entry["target"] == f"table {table_id}"
    assert entry["detail"] == {"reason": "abuse"}


def test_look_up_shows_a_player_and_their_chat(client):
    a, b = Api(client), Api(client)
    mod = moderator(client)
    table_id = new_table(a, [b])
    b.post(f"/api/tables/{table_id}/chat", {"text": "line one"})
    a.post("/api/reports", {"kind": "player", "username": b.name, "reason": "x"})
    found = mod.get(f"/api/moderation/users/{b.name}").json()
    assert found["username"] == b.name and found["role"] is None and found["reports"] == 1
    assert [c["text"] for c in found["chat"]] == ["line one"]
    assert mod.get("/api/moderation/users/nobody-at-all").status_code == 404


# -- the service on PostgreSQL, and the admin's operations ---------------------------------------------


def _service_round(client: TestClient) -> None:
    a, b = Api(client), Api(client)
    moderation = server(client).moderation
    assert moderation.set_role(a.name, "admin")["role"] == "admin"
    moderation.block(1, b.name)
    assert moderation.report(2, "player", "bad", username=a.name)["status"] == "open"
    assert [r["user"] for r in moderation.reports("open", 10)] == [a.name]
    password = moderation.reset_password(b.name, server(client).passwords.hash)
    assert b.get("/api/sessions").status_code == 401
    assert client.post("/api/sessions", json={"username": b.name, "password": password}).status_code == 200
    gone = moderation.delete_account(b.name)
    assert gone["now"].startswith("deleted-")
    assert client.post("/api/sessions", json={"username": b.name, "password": password}).status_code == 401
    assert client.get(f"/api/players/{gone['now']}").status_code == 200  # the records stay, anonymised
    assert [e["action"] for e in moderation.audit(10)][:3] == ["delete_account", "reset_password", "set_role"]


def test_service_on_sqlite(client):
    _service_round(client)


@pytest.mark.postgres
def test_service_on_postgres(pg_url):
    with TestClient(create_app(make_settings(pg_url))) as http:
        _service_round(http)


def test_deleting_an_account_keeps_its_finished_games(client):
    a, b = Api(client), Api(client)
    table_id = new_table(a, [b])
    assert b.post(f"/api/tables/{table_id}/resign").status_code == 200
    gone = server(client).moderation.delete_account(b.name)
    table = client.get(f"/api/tables/{table_id}").json()
    assert table["table"]["status"] == "over"
    assert gone["now"] in str(table["table"]) and b.name not in str(table["table"])


def test_the_migration_keeps_existing_accounts_and_chat_working(tmp_path):
    """Migration 0006 on a database of 0005 with an account, a table and a chat line: the
    account is a player, not banned, signs in; the line is still shown."""
    from tests.server.helpers import alembic

    url = f"sqlite:///{tmp_path / 'old.db'}"
    alembic(url, "upgrade", "0005")
    engine = sa.create_engine(url)
    with engine.begin() as db:
        db.execute(sa.text("INSERT INTO users (id, username, username_key, password_hash, guest, created_at) "
                           "VALUES (1, 'olduser', 'olduser', NULL, 0, '2026-01-01 00:00:00')"))
        db.execute(sa.text("INSERT INTO tables (id, game, seats, options, seed, mode, clock, rated, private, "
                           "record_public, status, version, moves_count, undo_version, revision, pending, created_by, "
                           "created_at) VALUES ('t1', 'drawbid', 2, '{}', 1, 'realtime', '{}', 0, 0, 0, 'open', 0, 0, "
                           "0, 0, '[]', 1, '2026-01-01 00:00:00')"))
        db.execute(sa.text("INSERT INTO chat (table_id, user_id, text, created_at) "
                           "VALUES ('t1', 1, 'old line', '2026-01-01 00:00:00')"))
    engine.dispose()
    with TestClient(create_app(make_settings(url))) as http:  # migrates to the head
        moderation = server(http).moderation
        looked = moderation.look_up("olduser")
        assert looked["role"] is None and looked["banned_until"] is None and looked["muted_until"] is None
        assert [c["text"] for c in looked["chat"]] == ["old line"]
        assert [m["text"] for m in http.get("/api/tables/t1/chat").json()] == ["old line"]
        moderation.reset_password("olduser", server(http).passwords.hash, "a fine password")
        signed_in = http.post("/api/sessions", json={"username": "olduser", "password": "a fine password"})
        assert signed_in.status_code == 200
