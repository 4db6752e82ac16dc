"""What a server answers whatever its tables: its health and the games it offers (with
their bot levels), the browser client's static files (or a placeholder page when the
client is not installed), and the refusals of a request too large, of an unknown game,
table or route, and of seats or options the game does not take."""

from __future__ import annotations

from fastapi.testclient import TestClient

from ludoteca.server.app import create_app
from tests.server.conftest import Api, make_settings


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
