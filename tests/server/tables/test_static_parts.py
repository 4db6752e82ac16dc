"""Static view parts (``Game.static_view_keys``): views refer to them by digest, and the
table serves each once, to whoever may see the table."""

from __future__ import annotations

from ludoteca.engine import Match
from ludoteca.server.tables.matches import static_digest
from tests.server.conftest import Api


def _iwari_table(owner: Api, **extra: object) -> str:
    r = owner.post("/api/tables", {"game": "iwari", "seats": 2, **extra})
    assert r.status_code == 201, r.text
    table_id = r.json()["id"]
    assert owner.post(f"/api/tables/{table_id}/bots", {"bot": "random"}).status_code == 200
    return table_id


def test_views_refer_to_static_parts_served_once(client) -> None:
    a, outsider = Api(client), Api(client)
    table_id = _iwari_table(a)
    assert a.get(f"/api/tables/{table_id}/static/board").status_code == 409  # not started yet
    assert a.post(f"/api/tables/{table_id}/start").status_code == 200
    snap = a.table(table_id)
    ref = snap["view"]["board"]
    assert set(ref) == {"$static"}
    r = outsider.get(f"/api/tables/{table_id}/static/board")  # a spectator of a public table
    assert r.status_code == 200 and "max-age" in r.headers["cache-control"]
    board = r.json()
    assert static_digest(board) == ref["$static"]
    # The very part the engine draws: the match replayed from the record's setup.
    record = client.app.state.server.runtime.cache.peek(table_id).match
    assert board == Match.new("iwari", 2, record.options, record.seed).view(None)["board"]
    # Every later view and every replay frame refers to the same part.
    assert outsider.table(table_id)["view"]["board"] == ref
    assert a.get(f"/api/tables/{table_id}/static/nothing").status_code == 404


def test_static_parts_of_a_private_table_stay_private(client) -> None:
    a, outsider = Api(client), Api(client)
    table_id = _iwari_table(a, private=True)
    assert a.post(f"/api/tables/{table_id}/start").status_code == 200
    assert a.get(f"/api/tables/{table_id}/static/board").status_code == 200
    r = outsider.get(f"/api/tables/{table_id}/static/board")
    assert r.status_code == 403 and r.json()["code"] == "private_table"
