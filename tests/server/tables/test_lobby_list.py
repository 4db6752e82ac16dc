"""The lobby's list: filtered by game and status, paged, and without the open or playing
tables nobody has touched for LUDOTECA_TABLE_EXPIRY_HOURS (they still open by link)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import update

from ludoteca.server.kernel.clock import now, now_ms
from ludoteca.server.kernel.config import Settings, SettingsError
from ludoteca.server.kernel.models import GameTable
from tests.server.conftest import Api


def ids(client, **params) -> list[str]:  # type: ignore[no-untyped-def]
    r = client.get("/api/tables", params=params)
    assert r.status_code == 200, r.text
    return [row["id"] for row in r.json()]


def test_the_list_pages_newest_first_without_repeats(client) -> None:  # type: ignore[no-untyped-def]
    a = Api(client)
    made = [a.post("/api/tables", {"game": "drawbid", "seats": 2}).json()["id"] for _ in range(5)]
    pages = [ids(client, game="drawbid", status="open", limit=2, offset=offset) for offset in (0, 2, 4, 6)]
    assert [len(p) for p in pages] == [2, 2, 1, 0]
    assert [table for one in pages for table in one] == made[::-1]
    r = client.get("/api/tables", params={"offset": -1})
    assert r.status_code == 422


def test_tables_nobody_touched_for_the_expiry_leave_the_lobby(client) -> None:  # type: ignore[no-untyped-def]
    a, b = Api(client), Api(client)
    stale_open = a.post("/api/tables", {"game": "drawbid", "seats": 2}).json()["id"]
    fresh_open = a.post("/api/tables", {"game": "drawbid", "seats": 2}).json()["id"]
    playing = a.post("/api/tables", {"game": "drawbid", "seats": 2}).json()["id"]
    b.post(f"/api/tables/{playing}/join")
    assert a.post(f"/api/tables/{playing}/start").json()["status"] == "playing"
    assert {stale_open, fresh_open} <= set(ids(client, status="open"))
    assert playing in ids(client, status="playing")

    hours = client.app.state.server.settings.table_expiry_hours
    long_ago = now() - timedelta(hours=hours + 1)
    with client.app.state.server.runtime.engine.begin() as db:
        db.execute(update(GameTable).where(GameTable.id == stale_open).values(created_at=long_ago))
        # Turns longer than the expiry: a turn whose clock ran out would get a bot from the
        # clock scan (every second), whose move touches the table again.
        db.execute(update(GameTable).where(GameTable.id == playing).values(
            created_at=long_ago, started_at=long_ago, turn_started_ms=now_ms() - int((hours + 1) * 3_600_000),
            mode="turn-based", clock={"turn_seconds": int((hours + 2) * 3600)}))
    client.app.state.server.runtime.cache.forget_row(playing)
    assert set(ids(client, status="open")) == {fresh_open}
    assert playing not in ids(client, status="playing")
    assert playing not in ids(client)  # open and playing together
    # Still there for whoever has the link.
    assert client.get(f"/api/tables/{playing}").status_code == 200


def test_the_expiry_is_a_setting_checked_like_the_others() -> None:
    assert Settings().table_expiry_hours == 72
    assert Settings.from_env(env={"LUDOTECA_TABLE_EXPIRY_HOURS": "0.5"}).table_expiry_hours == 0.5
    for bad, says in (("soon", "takes a number, not 'soon'"), ("0", "takes a number above zero"),
                      ("-3", "takes a number above zero")):
        with pytest.raises(SettingsError, match=f"^LUDOTECA_TABLE_EXPIRY_HOURS {says}"):
            Settings.from_env(env={"LUDOTECA_TABLE_EXPIRY_HOURS": bad})


def test_the_health_says_the_expiry(client) -> None:  # type: ignore[no-untyped-def]
    assert client.get("/api/health").json()["table_expiry_hours"] == 72
