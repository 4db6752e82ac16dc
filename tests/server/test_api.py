"""The HTTP API on SQLite: accounts, lobby, moves and every error answer, undo, records,
logs, hidden information, bots, clocks, limits."""

from __future__ import annotations

import io
import json
import random
import tarfile
import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

import ludoteca
from ludoteca.server.app import create_app
from ludoteca.server.http import source
from tests.server.conftest import Api, make_settings, new_table
from tests.server.helpers import assert_no_foreign_secrets, play_out


def test_health_and_games(client):
    health = client.get("/api/health").json()
    assert health["status"] == "ok" and health["storage"] == "sqlite" and health["hub"] == "local"
    games = {g["id"]: g for g in client.get("/api/games").json()}
    assert games["drawbid"]["min_seats"] == 2 and games["drawbid"]["max_seats"] == 3
    assert {o["name"] for o in games["drawbid"]["options"]} == {"rounds", "stall"}
    # The bot levels a seat can take, weakest first, rated where bench/bot_levels.py measured them.
    assert [b["level"] for b in games["iwari"]["bot_levels"]] == ["random", "easy", "normal", "hard"]
    assert all(b["rating"] is not None for b in games["iwari"]["bot_levels"])
    assert {b["rating"] for b in games["drawbid"]["bot_levels"]} == {None}
    spec = client.get("/openapi.json").json()
    for path in ("/api/tables/{table_id}/moves", "/api/tables/{table_id}/undo", "/api/tables/{table_id}/record",
                 "/api/tables/{table_id}/log", "/api/sessions", "/api/accounts", "/api/games"):
        assert path in spec["paths"]


def test_static_files_and_placeholder(tmp_path):
    empty, web = tmp_path / "empty", tmp_path / "web"
    empty.mkdir()
    web.mkdir()
    (web / "index.html").write_text("<h1>client</h1>")
    (web / "app.js").write_text("export {};")
    for root, page in ((empty, "browser client is not installed"), (web, "<h1>client</h1>")):
        settings = make_settings(f"sqlite:///{tmp_path / 'x.db'}", web_root=str(root))
        with TestClient(create_app(settings)) as http:
            r = http.get("/")
            assert r.status_code == 200 and page in r.text
            assert r.headers["x-content-type-options"] == "nosniff"
            assert http.get("/api/health").status_code == 200
    with TestClient(create_app(settings)) as http:
        assert http.get("/app.js").text == "export {};"


def test_the_server_offers_the_source_it_runs(client):
    """AGPL-3.0 section 13: every user can download the running code and its licence."""
    r = client.get("/api/source")
    assert r.status_code == 200 and r.headers["content-type"] == "application/gzip"
    assert f'filename="ludoteca-{ludoteca.__version__}-source.tar.gz"' in r.headers["content-disposition"]
    with tarfile.open(fileobj=io.BytesIO(r.content), mode="r:gz") as tar:
        names = set(tar.getnames())
        root = f"ludoteca-{ludoteca.__version__}"
        running = Path(source.__file__).read_bytes()
        assert tar.extractfile(f"{root}/src/ludoteca/server/http/source.py").read() == running
        licence = tar.extractfile(f"{root}/LICENSE").read().decode()
    assert licence.startswith("GNU AFFERO GENERAL PUBLIC LICENSE")
    for part in ("src/ludoteca/games/iwari/rules.py", "src/ludoteca/web/js/app.js", "pyproject.toml",
                 "src/ludoteca/games/iwari/rules.md", "src/ludoteca/games/iwari/web/board.js"):
        assert f"{root}/{part}" in names
    assert not [n for n in names if "__pycache__" in n or n.endswith(".pyc")]


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


def test_limits_and_unknown_routes(client):
    a = Api(client)
    r = a.post("/api/tables", {"game": "drawbid", "options": {f"k{i}": "x" * 900 for i in range(100)}})
    assert r.status_code == 413 and r.json()["code"] == "too_large"
    r = a.post("/api/tables", {"game": "nosuchgame"})
    assert r.status_code == 404 and r.json()["code"] == "no_game"
    r = a.post("/api/tables", {"game": "drawbid", "seats": 9})
    assert r.status_code == 422 and r.json()["code"] == "seats"
    r = a.post("/api/tables", {"game": "drawbid", "options": {"rounds": 99}})
    assert r.status_code == 422 and r.json()["code"] == "option_range"
    r = a.post("/api/tables", {"game": "drawbid", "surprise": 1})
    assert r.status_code == 422 and r.json()["code"] == "invalid_request"
    assert client.get("/api/tables/nope").json()["code"] == "no_table"
    assert client.get("/api/nothing-here").status_code == 404


def test_lobby_seats_and_start(client):
    a, b, c = Api(client), Api(client), Api(client)
    t = a.post("/api/tables", {"game": "drawbid", "seats": 3}).json()
    table_id = t["id"]
    assert t["status"] == "open" and t["players"][0]["username"] == a.name
    assert any(x["id"] == table_id for x in client.get("/api/tables", params={"game": "drawbid"}).json())
    assert not client.get("/api/tables", params={"game": "othergame"}).json()
    assert not any(x["id"] == table_id for x in client.get("/api/tables", params={"status": "playing"}).json())
    assert b.post(f"/api/tables/{table_id}/join").json()["players"][1]["username"] == b.name
    assert b.post(f"/api/tables/{table_id}/join").json()["code"] == "already_seated"
    r = b.post(f"/api/tables/{table_id}/start")
    assert r.status_code == 403 and r.json()["code"] == "not_creator"
    r = a.post(f"/api/tables/{table_id}/start")
    assert r.status_code == 409 and r.json()["code"] == "seats_free"
    assert b.post(f"/api/tables/{table_id}/bots", {"bot": "random"}).json()["code"] == "not_creator"
    assert a.post(f"/api/tables/{table_id}/bots", {"bot": "nosuchbot"}).json()["code"] == "no_bot"
    assert a.post(f"/api/tables/{table_id}/bots", {"bot": "random"}).json()["players"][2]["bot"] == "random"
    assert c.post(f"/api/tables/{table_id}/join").json()["code"] == "no_free_seat"
    assert a.post(f"/api/tables/{table_id}/kick", {"seat": 2}).json()["players"][2]["bot"] is None
    assert a.post(f"/api/tables/{table_id}/kick", {"seat": 1}).json()["players"][1]["username"] is None
    assert c.post(f"/api/tables/{table_id}/join", {"seat": 2}).json()["players"][2]["username"] == c.name
    assert c.post(f"/api/tables/{table_id}/leave").json()["players"][2]["username"] is None
    b.post(f"/api/tables/{table_id}/join")
    c.post(f"/api/tables/{table_id}/join")
    assert a.post(f"/api/tables/{table_id}/start").json()["status"] == "playing"
    assert a.post(f"/api/tables/{table_id}/kick", {"seat": 1}).json()["code"] == "not_open"
    assert Api(client).post(f"/api/tables/{table_id}/join").json()["code"] == "already_started"
    r = client.post(f"/api/tables/{table_id}/join")
    assert r.status_code == 401


def _fingerprint(api: Api, table_id: str) -> str:
    snap = api.table(table_id)
    snap.pop("clocks", None)
    snap["table"].pop("players")
    log = api.get(f"/api/tables/{table_id}/log").json()
    return json.dumps([snap, log], sort_keys=True)


def test_every_move_error_and_nothing_changes(client):
    a, b, outsider = Api(client), Api(client), Api(client)
    table_id = new_table(a, [b])
    before_a, before_b = _fingerprint(a, table_id), _fingerprint(b, table_id)
    snap = a.table(table_id)
    assert snap["version"] == 0 and snap["pending"] == [0]

    def unchanged() -> None:
        assert _fingerprint(a, table_id) == before_a
        assert _fingerprint(b, table_id) == before_b

    r = a.move(table_id, 5, {"type": "pass"})
    assert r.status_code == 409 and r.json()["code"] == "stale_version" and r.json()["version"] == 0
    unchanged()
    r = a.move(table_id, 0, {"type": "bid", "card": "card-01"})
    assert r.status_code == 422 and r.json()["code"] == "bad_move_type" and r.json()["message"]
    unchanged()
    r = a.move(table_id, 0, {"type": "pass", "extra": [1, 2]})
    assert r.status_code == 422 and r.json()["code"] == "illegal_move"
    unchanged()
    r = b.move(table_id, 0, {"type": "pass"})
    assert r.status_code == 403 and r.json()["code"] == "not_your_turn"
    unchanged()
    r = b.post(f"/api/tables/{table_id}/moves", {"version": 0, "move": {"type": "pass"}, "seat": 0})
    assert r.status_code == 403 and r.json()["code"] == "not_your_seat"
    unchanged()
    r = outsider.move(table_id, 0, {"type": "pass"})
    assert r.status_code == 403 and r.json()["code"] == "not_seated"
    unchanged()
    r = client.post(f"/api/tables/{table_id}/moves", json={"version": 0, "move": {"type": "pass"}})
    assert r.status_code == 401
    r = a.post(f"/api/tables/{table_id}/moves", {"version": 0, "move": "pass"})
    assert r.status_code == 422 and r.json()["code"] == "invalid_request"
    unchanged()

    # The same id twice plays once; the retry gets the same acknowledgement.
    first = a.move(table_id, 0, {"type": "pass"}, move_id="m-1")
    assert first.status_code == 200 and first.json()["version"] == 1 and not first.json()["duplicate"]
    again = a.move(table_id, 0, {"type": "pass"}, move_id="m-1")
    assert again.status_code == 200 and again.json()["version"] == 1 and again.json()["duplicate"]
    assert a.table(table_id)["version"] == 1 and a.table(table_id)["moves"] == 1
    r = b.move(table_id, 1, {"type": "pass"}, move_id="m-1")
    assert r.status_code == 409 and r.json()["code"] == "move_id_reused"
    assert a.table(table_id)["version"] == 1

    # Bids: a card not in one's hand is refused with the game's own code.
    b.move(table_id, 1, {"type": "pass"})
    hand_b = b.table(table_id)["view"]["hand"]
    r = a.move(table_id, 2, {"type": "bid", "card": hand_b[0]})
    assert r.status_code == 422 and r.json()["code"] == "not_in_hand"
    assert hand_b[0] not in r.text.replace(f'"card":"{hand_b[0]}"', "")  # the error does not echo b's hand


def test_undo(client):
    a, b = Api(client), Api(client)
    table_id = new_table(a, [b])
    assert a.move(table_id, 0, {"type": "pass"}).status_code == 200
    assert a.table(table_id)["can_undo"]
    r = b.post(f"/api/tables/{table_id}/undo", {"version": 1})
    assert r.status_code == 422 and r.json()["code"] == "undo_forbidden"
    r = a.post(f"/api/tables/{table_id}/undo", {"version": 0})
    assert r.status_code == 409 and r.json()["version"] == 1
    r = a.post(f"/api/tables/{table_id}/undo", {"version": 1})
    assert r.status_code == 200 and r.json() == {"version": 2, "moves": 0}
    snap = a.table(table_id)
    assert snap["version"] == 2 and snap["moves"] == 0 and snap["pending"] == [0]
    assert a.get(f"/api/tables/{table_id}/log").json()["events"] == []
    # A random draw can never be taken back; nor a move after another seat's.
    assert a.move(table_id, 2, {"type": "draw"}).status_code == 200
    assert not a.table(table_id)["can_undo"]
    assert a.post(f"/api/tables/{table_id}/undo", {"version": 3}).json()["code"] == "undo_forbidden"
    assert b.move(table_id, 3, {"type": "pass"}).status_code == 200
    assert b.post(f"/api/tables/{table_id}/undo", {"version": 4}).status_code == 200
    assert a.table(table_id)["version"] == 5


def test_full_game_as_people_hidden_information_record_and_ratings(client):
    a, b, c = Api(client), Api(client), Api(client)
    table_id = new_table(a, [b, c], rated=True)
    assert a.get(f"/api/tables/{table_id}/record").json()["code"] == "record_hidden"
    seen: list = []
    final = play_out({0: a, 1: b, 2: c}, table_id, random.Random(1), seen)
    # A spectator's view, and everyone's WS-free answers, were recorded along the way.
    spectator = client.get(f"/api/tables/{table_id}")
    assert spectator.json()["view"]["hand"] is None and spectator.json()["legal"] == []
    assert final["table"]["status"] == "over" and final["result"]["ranks"]
    record = a.get(f"/api/tables/{table_id}/record").json()
    assert record["format"] == "ludoteca.record/1" and len(record["moves"]) == final["moves"]
    assert assert_no_foreign_secrets(seen, record) > 100
    r = a.move(table_id, final["version"], {"type": "pass"})
    assert r.status_code == 409 and r.json()["code"] == "game_over"
    board = client.get("/api/games/drawbid/leaderboard").json()
    assert {row["username"] for row in board} == {a.name, b.name, c.name}
    profile = client.get(f"/api/players/{a.name}").json()
    assert profile["games_played"] == 1 and profile["ratings"]["drawbid"]["played"] == 1
    assert client.get("/api/players/nobody-here").status_code == 404


def test_spectator_log_and_record_public(client):
    a, b = Api(client), Api(client)
    table_id = new_table(a, [b], record_public=True)
    a.move(table_id, 0, {"type": "draw"})
    drew = [e for e in a.get(f"/api/tables/{table_id}/log").json()["events"] if e["key"] == "drawbid.drew"]
    assert len(drew) == 1 and drew[0]["to"] == 0
    for reader in (b, None):
        log = (reader.get if reader else client.get)(f"/api/tables/{table_id}/log").json()
        assert [e["key"] for e in log["events"]] == ["drawbid.drew_one"]
    assert a.get(f"/api/tables/{table_id}/log", params={"seat": 1}).json()["code"] == "not_your_seat"
    # Public or not, the record (seed and moves) waits for the end of the game.
    assert client.get(f"/api/tables/{table_id}/record").json()["code"] == "record_hidden"


def test_private_table(client):
    a, b = Api(client), Api(client)
    t = a.post("/api/tables", {"game": "drawbid", "private": True}).json()
    assert not any(x["id"] == t["id"] for x in client.get("/api/tables").json())
    assert any(x["id"] == t["id"] for x in a.get("/api/tables").json())
    assert b.get(f"/api/tables/{t['id']}").json()["code"] == "private_table"
    assert client.get(f"/api/tables/{t['id']}/log").json()["code"] == "private_table"


def wait_for(predicate, seconds: float = 10.0):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError("timed out")


def test_bots_play_their_seats(client):
    a = Api(client)
    table_id = new_table(a, [], bots=2)
    final = play_out({0: a}, table_id, random.Random(2), limit=400)
    assert final["table"]["status"] == "over"
    record = a.get(f"/api/tables/{table_id}/record").json()
    assert record["players"][1:] == ["bot:random", "bot:random"]


def test_leave_zombie_and_take_back(client):
    a, b = Api(client), Api(client)
    table_id = new_table(a, [b], options={"rounds": 3})
    a.move(table_id, 0, {"type": "pass"})
    assert b.post(f"/api/tables/{table_id}/leave").json()["players"][1]["zombie"]
    # The bot plays b's seat: the table goes on.
    wait_for(lambda: 1 not in a.table(table_id)["pending"] or a.table(table_id)["legal"])
    back = b.post(f"/api/tables/{table_id}/join").json()
    assert not back["players"][1]["zombie"]


def test_realtime_timeout_hands_the_seat_to_a_bot(client):
    a, b = Api(client), Api(client)
    table_id = new_table(a, [b], mode="realtime", clock={"initial_seconds": 0.3, "increment_seconds": 0})
    clocks = a.table(table_id)["clocks"]
    assert clocks["seats"][0]["running"] and clocks["seats"][0]["remaining_ms"] <= 300
    snap = wait_for(lambda: (s := a.table(table_id))["table"]["players"][0]["zombie"] and s["version"] >= 1 and s)
    assert snap["moves"] >= 1  # the zombie bot moved for seat 0
    assert a.post(f"/api/tables/{table_id}/join").json()["players"][0]["zombie"] is False


def test_turn_based_timeout_hands_the_seat_to_a_bot(client):
    a, b = Api(client), Api(client)
    table_id = new_table(a, [b], mode="turn-based", clock={"turn_seconds": 0.3})
    snap = wait_for(lambda: (s := a.table(table_id))["table"]["players"][0]["zombie"] and s["version"] >= 1 and s)
    assert snap["moves"] >= 1  # the bot played seat 0's turn


def test_turn_based_deadline(client):
    a, b = Api(client), Api(client)
    table_id = new_table(a, [b], mode="turn-based", clock={"turn_seconds": 3600})
    clocks = a.table(table_id)["clocks"]
    assert clocks["mode"] == "turn-based"
    assert clocks["seats"][0]["deadline_ms"] - clocks["now_ms"] > 3_500_000
    assert a.post("/api/tables", {"game": "drawbid", "mode": "turn-based",
                                  "clock": {"initial_seconds": 5}}).json()["code"] == "bad_clock"


def test_a_hanging_game_does_not_stall_the_server(tmp_path):
    settings = make_settings(f"sqlite:///{tmp_path / 'x.db'}", engine_seconds=0.5)
    with TestClient(create_app(settings)) as http:
        a, b = Api(http), Api(http)
        stuck = new_table(a, [b], options={"stall": True})
        fine = new_table(a, [b])
        started = time.monotonic()
        r = a.move(stuck, 0, {"type": "pass"})
        assert r.status_code == 503 and r.json()["code"] == "engine_timeout"
        assert time.monotonic() - started < 2.5
        assert a.move(fine, 0, {"type": "pass"}).status_code == 200
        assert a.table(stuck)["table"]["status"] == "suspended"


@pytest.mark.parametrize("racers", [2, 6])
def test_racing_moves_in_one_process(client, racers):
    """Many threads send a move at the same version: exactly one lands."""
    from concurrent.futures import ThreadPoolExecutor

    a, b = Api(client), Api(client)
    table_id = new_table(a, [b])
    with ThreadPoolExecutor(racers) as pool:
        answers = list(pool.map(lambda i: a.move(table_id, 0, {"type": "pass"}, move_id=f"race-{i}"),
                                range(racers)))
    codes = sorted(r.status_code for r in answers)
    assert codes == [200] + [409] * (racers - 1)
    assert all(r.json()["version"] == 1 for r in answers)
    assert a.table(table_id)["moves"] == 1
