"""Post-game reviews on the server: asked for by a player of a finished game (anyone at
a public table), queued and judged in review worker processes, progress polled, stored
and served again from the database; bad requests get a clear 4xx and change nothing."""

from __future__ import annotations

import os
import random

from ludoteca.bots.review import ReviewBudget
from ludoteca.server.reviews.service import ReviewSettings
from tests.server.conftest import Api, new_table
from tests.server.helpers import play_out, wait_for

TINY = ReviewBudget(search=4, evaluate=2)


def _settings(client, **limits) -> list:
    server = client.app.state.server
    server.reviews.settings = ReviewSettings(budget=TINY, **limits)
    alerts: list = []
    server.alerts.add_channel("test", alerts.append)
    return alerts


def _finished(client, private: bool = False) -> tuple[Api, Api, str]:
    a, b = Api(client), Api(client)
    table_id = new_table(a, [b], private=private)
    play_out({0: a, 1: b}, table_id, random.Random(3))
    return a, b, table_id


def test_a_player_asks_sees_progress_and_gets_the_stored_review(client):
    alerts = _settings(client)
    a, _, table_id = _finished(client)
    r = a.post(f"/api/tables/{table_id}/reviews", {"seat": 0})
    assert r.status_code == 201, r.text
    assert r.json()["status"] == "queued" and r.json()["budget"] == {"search": 4, "evaluate": 2}
    done = wait_for(lambda: (got := a.get(f"/api/tables/{table_id}/reviews/0").json())["status"] == "done" and got,
                    seconds=60)
    review = done["review"]
    assert done["percent"] == 100 and done["done"] == done["total"] == review["summary"]["decisions"] > 0
    assert review["format"] == "ludoteca.review/1" and review["seat"] == 0
    assert all(d["seat"] == 0 for d in review["decisions"])
    # Judged in a worker process of the review pool, never in the serving process.
    pool = client.app.state.server.reviews._workers._pool
    assert pool is not None and pool._processes and os.getpid() not in pool._processes
    # The asker is told.
    ready = [x for x in alerts if x.kind == "review_ready"]
    assert len(ready) == 1 and ready[0].table_id == table_id and ready[0].params["game"] == "drawbid"
    # Asked again (by anyone, at a public table): the stored one, nothing recomputed.
    spectator = Api(client)
    again = spectator.post(f"/api/tables/{table_id}/reviews", {"seat": 0})
    assert again.status_code == 200 and again.json()["review"] == review
    # Anyone may read it at a public table; the listing shows it without its contents.
    assert client.get(f"/api/tables/{table_id}/reviews/0").json()["review"] == review
    listing = client.get(f"/api/tables/{table_id}/reviews").json()
    assert [(x["seat"], x["status"], x["review"]) for x in listing["reviews"]] == [(0, "done", None)]


def test_the_record_keeps_the_finished_reviews_and_still_replays(client, tmp_path):
    import json

    from typer.testing import CliRunner

    from ludoteca.cli import app
    from ludoteca.engine import MatchRecord

    _settings(client)
    a, _, table_id = _finished(client)
    assert a.get(f"/api/tables/{table_id}/record").json()["reviews"] == []
    assert a.post(f"/api/tables/{table_id}/reviews", {"seat": 1}).status_code == 201
    done = wait_for(lambda: (got := a.get(f"/api/tables/{table_id}/reviews/1").json())["status"] == "done" and got,
                    seconds=60)
    record = client.get(f"/api/tables/{table_id}/record").json()  # anyone, at a public table
    [kept] = record["reviews"]
    assert kept == done["review"]
    assert (kept["seat"], kept["budget"], kept["seed"]) == (1, {"search": 4, "evaluate": 2}, 0)
    assert len(kept["decisions"]) == done["total"] > 0
    assert all({"index", "played", "best", "loss_points", "label"} <= d.keys() for d in kept["decisions"])
    # The extra field leaves the record a record: it loads and replays to the same end.
    assert MatchRecord.from_json(record).replay().result().to_json()["scores"] == record["result"]["scores"]
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    out = CliRunner().invoke(app, ["replay", str(path), "--json"])
    assert out.exit_code == 0, out.output
    assert json.loads(out.output)["over"] is True


def test_bad_requests_get_a_clear_4xx_and_change_nothing(client):
    _settings(client, daily_limit=1)
    a, b, table_id = _finished(client, private=True)
    outsider = Api(client)
    playing = new_table(a, [b])
    cases = [
        (a, playing, {"seat": 0}, 409, "game_not_over"),
        (outsider, table_id, {"seat": 0}, 403, "private_table"),
        (b, table_id, {"seat": 0}, 403, "not_your_seat"),
        (a, table_id, {"seat": 5}, 422, "bad_seat"),
        (a, "nosuchtable", {"seat": 0}, 404, "no_table"),
        (a, table_id, {"seat": "0"}, 422, None),
        (a, table_id, {"seat": 0, "budget": 10**9}, 422, None),
    ]
    for who, where, body, status, code in cases:
        r = who.post(f"/api/tables/{where}/reviews", body)
        assert r.status_code == status, (body, r.text)
        if code:
            assert r.json()["code"] == code, r.text
    assert client.post(f"/api/tables/{table_id}/reviews", json={"seat": 0}).status_code in (401, 403)
    assert a.get(f"/api/tables/{table_id}/reviews").json()["reviews"] == []
    assert a.get(f"/api/tables/{table_id}/reviews/0").json()["code"] == "no_review"
    assert outsider.get(f"/api/tables/{table_id}/reviews/0").status_code == 403
    # Limits per player: one a day here; the second is refused and leaves no row.
    assert a.post(f"/api/tables/{table_id}/reviews", {"seat": 0}).status_code == 201
    r = b.post(f"/api/tables/{table_id}/reviews", {"seat": 1})
    assert r.status_code == 201
    r = a.post(f"/api/tables/{playing}/reviews", {"seat": 1})
    assert r.status_code == 409
    other_a, _, other_table = _finished(client)
    assert other_a.post(f"/api/tables/{other_table}/reviews", {"seat": 0}).status_code == 201
    r = other_a.post(f"/api/tables/{other_table}/reviews", {"seat": 1})
    assert r.status_code == 429 and r.json()["code"] == "too_many_reviews", r.text
    seats = [x["seat"] for x in other_a.get(f"/api/tables/{other_table}/reviews").json()["reviews"]]
    assert seats == [0]


def test_queued_reviews_per_player_are_bounded(client):
    _settings(client, queued_limit=0)
    a, _, table_id = _finished(client)
    r = a.post(f"/api/tables/{table_id}/reviews", {"seat": 1})
    assert r.status_code == 429 and r.json()["code"] == "too_many_reviews"
    assert a.get(f"/api/tables/{table_id}/reviews").json()["reviews"] == []


def test_the_review_is_stored_on_postgresql_too(pg_url):
    from fastapi.testclient import TestClient

    from ludoteca.server.app import create_app
    from tests.server.conftest import make_settings

    with TestClient(create_app(make_settings(pg_url))) as client:
        _settings(client)
        a, _, table_id = _finished(client)
        assert a.post(f"/api/tables/{table_id}/reviews", {"seat": 1}).status_code == 201
        done = wait_for(lambda: (got := a.get(f"/api/tables/{table_id}/reviews/1").json())["status"] == "done"
                        and got, seconds=60)
        assert done["review"]["seat"] == 1 and done["total"] == len(done["review"]["decisions"])
        assert a.post(f"/api/tables/{table_id}/reviews", {"seat": 1}).status_code == 200
