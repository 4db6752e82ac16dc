"""Every table is opened and started one way (server/tables/opening.py), whoever asks:
the lobby's create and start, Play now and a tournament's pairing. A table each of them
makes with the same settings has the same options, clock and banks, its bots seated and
playing; and a start whose game does not answer in time is refused cleanly, changing
nothing, for each of them."""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from ludoteca.server.app import create_app
from ludoteca.server.kernel.db import driver_url
from tests.server.conftest import Api, make_settings, new_table
from tests.server.drawbid import DrawBid
from tests.server.helpers import wait_for

ENGINE_SECONDS = 0.5


def _soon(seconds: float) -> str:
    return (datetime.now(UTC) + timedelta(seconds=seconds)).isoformat()


class Stored:
    """The tables as the database holds them, read past every service."""

    def __init__(self, url: str) -> None:
        self.engine = sa.create_engine(driver_url(url))

    def table(self, table_id: str) -> dict[str, Any]:
        with self.engine.connect() as db:
            row = db.execute(sa.text("SELECT * FROM tables WHERE id = :id"), {"id": table_id}).mappings().one()
            seats = db.execute(sa.text("SELECT * FROM table_seats WHERE table_id = :id ORDER BY seat"),
                               {"id": table_id}).mappings().all()
        return {**row, "seat_rows": [dict(s) for s in seats]}

    def count(self, table: str) -> int:
        with self.engine.connect() as db:
            return db.execute(sa.text(f"SELECT count(*) FROM {table}")).scalar_one()

    def close(self) -> None:
        self.engine.dispose()


@pytest.fixture
def stored(sqlite_url: str) -> Iterator[Stored]:
    found = Stored(sqlite_url)
    yield found
    found.close()


def _started(stored: Stored, table_id: str, person: str, api: Api) -> dict[str, Any]:
    """What every way of starting a table must give alike (seat order aside: Play now
    and pairings shuffle it)."""
    row = stored.table(table_id)
    seats = row["seat_rows"]
    mine = [s for s in seats if s["user_id"] is not None]
    assert [p["username"] for p in api.table(table_id)["table"]["players"] if p["username"]] == [person]
    assert row["started_at"] is not None and row["turn_started_ms"] is not None
    assert all(s["bank_ms"] is not None for s in seats)
    return {"game": row["game"], "status": row["status"], "mode": row["mode"], "clock": row["clock"],
            "options": row["options"], "rated": row["rated"], "seats": row["seats"],
            "bots": sorted(s["bot"] for s in seats if s["bot"]), "people": len(mine),
            "my_bank": mine[0]["bank_ms"]}


def _bots_played(api: Api, table_id: str) -> bool:
    """Only the person's seat is left to decide: the bots were scheduled and played."""
    snap = api.table(table_id)
    person = next(p["seat"] for p in snap["table"]["players"] if p["username"])
    return set(snap["table"]["pending"]) == {person}


def test_the_lobby_play_now_and_a_tournament_open_tables_alike(client: TestClient, stored: Stored) -> None:
    host, seeker, entrant = Api(client), Api(client), Api(client)
    lobby = new_table(host, [], bots=2)

    r = seeker.post("/api/playnow", {"game": "drawbid", "seats": 3, "bots_after": 0, "bot_level": "random"})
    assert r.status_code == 201 and r.json()["status"] == "matched", r.text
    playnow = r.json()["table"]

    organiser = Api(client)
    r = organiser.post("/api/tournaments", {"game": "drawbid", "name": "Opening cup", "seats": 3, "rounds": 1,
                                            "starts_at": _soon(3600), "bots": ["random"]})
    assert r.status_code == 201, r.text
    tid = r.json()["id"]
    assert entrant.post(f"/api/tournaments/{tid}/join").status_code == 200
    for _ in range(2):
        assert organiser.post(f"/api/tournaments/{tid}/bots", {"bot": "random"}).status_code == 200
    r = organiser.http.patch(f"/api/tournaments/{tid}", json={"starts_at": _soon(0.3)}, headers=organiser.headers)
    assert r.status_code == 200, r.text
    t = wait_for(lambda: (d := client.get(f"/api/tournaments/{tid}").json())["rounds_played"] and d)
    tournament = t["rounds_played"][0]["tables"][0]["table"]

    made = [_started(stored, lobby, host.name, host), _started(stored, playnow, seeker.name, seeker),
            _started(stored, tournament, entrant.name, entrant)]
    assert made[0] == made[1] == made[2], made
    assert made[0]["status"] == "playing" and made[0]["bots"] == ["random", "random"]
    assert made[0]["my_bank"] == 600_000
    for api, table_id in ((host, lobby), (seeker, playnow), (entrant, tournament)):
        wait_for(lambda api=api, table_id=table_id: _bots_played(api, table_id))


@pytest.fixture
def hanging(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, bool]]:
    """While ``hanging["on"]``, the test game hangs when asked who decides (as at a start)."""
    state = {"on": False}
    original = DrawBid.seats_to_move

    def seats_to_move(self: DrawBid, game_state: Any) -> Any:
        until = time.monotonic() + 4 * ENGINE_SECONDS
        while state["on"] and time.monotonic() < until:
            pass
        return original(self, game_state)

    monkeypatch.setattr(DrawBid, "seats_to_move", seats_to_move)
    yield state


@pytest.fixture
def slow_client(sqlite_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(make_settings(sqlite_url, engine_seconds=ENGINE_SECONDS))) as http:
        yield http


def test_a_lobby_start_that_times_out_is_refused_and_changes_nothing(slow_client: TestClient, stored: Stored,
                                                                     hanging: dict[str, bool]) -> None:
    a, b = Api(slow_client), Api(slow_client)
    table_id = a.post("/api/tables", {"game": "drawbid", "seats": 2}).json()["id"]
    assert b.post(f"/api/tables/{table_id}/join").status_code == 200
    before = stored.table(table_id)
    hanging["on"] = True
    r = a.post(f"/api/tables/{table_id}/start")
    hanging["on"] = False
    assert (r.status_code, r.json()["code"]) == (503, "engine_timeout"), r.text
    assert stored.table(table_id) == before
    assert before["status"] == "open" and all(s["bank_ms"] is None for s in before["seat_rows"])
    r = a.post(f"/api/tables/{table_id}/start")
    assert r.status_code == 200 and r.json()["status"] == "playing", r.text


def test_a_play_now_table_that_times_out_matches_nobody(slow_client: TestClient, stored: Stored,
                                                        hanging: dict[str, bool]) -> None:
    a, b = Api(slow_client), Api(slow_client)
    body = {"game": "drawbid", "seats": 2}
    assert a.post("/api/playnow", body).json()["status"] == "waiting"
    hanging["on"] = True
    try:
        r = b.post("/api/playnow", body)
        assert r.status_code == 201 and r.json()["status"] == "waiting", r.text
        assert a.get("/api/playnow").json()["status"] == "waiting"
        assert stored.count("tables") == 0
    finally:
        hanging["on"] = False
    # The next sweep pairs them.
    status = wait_for(lambda: (s := a.get("/api/playnow").json())["status"] == "matched" and s)
    assert b.get("/api/playnow").json()["table"] == status["table"]
    assert a.table(status["table"])["table"]["status"] == "playing"


def test_a_tournament_round_that_times_out_is_not_paired_until_the_game_answers(
        slow_client: TestClient, stored: Stored, hanging: dict[str, bool]) -> None:
    organiser = Api(slow_client)
    r = organiser.post("/api/tournaments", {"game": "drawbid", "name": "Stuck cup", "seats": 2, "rounds": 1,
                                            "starts_at": _soon(3600), "bots": ["random"]})
    tid = r.json()["id"]
    assert organiser.post(f"/api/tournaments/{tid}/join").status_code == 200
    assert organiser.post(f"/api/tournaments/{tid}/bots", {"bot": "random"}).status_code == 200
    hanging["on"] = True
    try:
        r = organiser.http.patch(f"/api/tournaments/{tid}", json={"starts_at": _soon(0.2)},
                                 headers=organiser.headers)
        assert r.status_code == 200, r.text
        time.sleep(2.5)  # several ticks, each refused by the game
        t = slow_client.get(f"/api/tournaments/{tid}").json()
        assert (t["status"], t["round"], t["rounds_played"]) == ("upcoming", 0, [])
        assert stored.count("tables") == 0 and stored.count("tournament_games") == 0
    finally:
        hanging["on"] = False
    t = wait_for(lambda: (d := slow_client.get(f"/api/tournaments/{tid}").json())["rounds_played"] and d)
    assert t["status"] == "running"
    table_id = t["rounds_played"][0]["tables"][0]["table"]
    assert organiser.table(table_id)["table"]["status"] == "playing"
