"""Issue 15, items 1-3: no record before the end, bots that cannot be frozen by a
player, and no clock charged for time the server was not serving."""

from __future__ import annotations

import random
import time
from typing import Any

import httpx

from ludoteca.server.kernel.errors import ApiError
from ludoteca.server.seatbots.runner import MAX_REFUSALS
from tests.server.conftest import Api, ServerProcess, new_table, server_env
from tests.server.helpers import play_out
from tests.server.test_api import wait_for

# -- 1. the record (seed and every move) only once the game is over --------------------


def test_a_public_record_is_hidden_until_the_end(client):
    a, b = Api(client), Api(client)
    table_id = new_table(a, [b], record_public=True)
    assert a.move(table_id, 0, {"type": "draw"}).status_code == 200
    for reader in (a.get, b.get, client.get):
        r = reader(f"/api/tables/{table_id}/record")
        assert r.status_code == 403 and r.json()["code"] == "record_hidden", r.text
        assert "seed" not in r.text
    # The spectator's replay of a public table shows no seed and no hand.
    replay = client.get(f"/api/tables/{table_id}/replay").json()
    assert "seed" not in replay and replay["frames"][1]["view"]["hand"] is None
    play_out({0: a, 1: b}, table_id, random.Random(3))
    record = client.get(f"/api/tables/{table_id}/record").json()
    assert isinstance(record["seed"], int) and record["moves"]


# -- 2. bots' move ids are out of clients' reach; their retries are bounded ------------


def test_a_player_cannot_freeze_a_bot_with_its_next_move_ids(client):
    a = Api(client)
    table_id = new_table(a, [], bots=1)  # seat 0 a person, seat 1 the bot
    # The ids a bot would have used for the next moves, taken first by the person.
    r = a.move(table_id, 0, {"type": "pass"}, move_id="bot:2:1")
    assert r.status_code == 200, r.text
    # The bot plays its seat all the same (it was refused with move_id_reused for ever).
    assert wait_for(lambda: a.table(table_id)["version"] >= 2)


def test_bot_retries_are_bounded(client, monkeypatch):
    a = Api(client)
    table_id = new_table(a, [], bots=1)
    server = client.app.state.server
    # The live runner must not race the one under test: stopped, and drained of any job,
    # before the move that makes the bot due (else it may play first, leaving nothing due).
    server.bots.shutdown()
    server.bots.pool.shutdown(wait=True)
    assert a.move(table_id, 0, {"type": "pass"}).status_code == 200
    calls = []

    def refuse(*args: Any, **kwargs: Any) -> Any:
        calls.append(args)
        raise ApiError(409, "move_id_reused", "this move id was used for another move")

    from ludoteca.server.seatbots.runner import BotRunner

    runner = BotRunner(server.runtime, server.tables.pipeline.submit)
    monkeypatch.setattr(runner, "submit", refuse)
    try:
        runner._play(table_id)  # returns: no endless retry
    finally:
        runner.shutdown()
    assert 1 <= len(calls) <= MAX_REFUSALS + 1


# -- 3. an outage is charged to nobody -------------------------------------------------


def test_clocks_resume_as_they_stood_after_an_outage(sqlite_url):
    process = ServerProcess(server_env(sqlite_url))
    try:
        with httpx.Client(base_url=process.url, timeout=10) as http:
            a, b = Api(http), Api(http)
            table_id = new_table(a, [b], clock={"initial_seconds": 6, "increment_seconds": 0})
            time.sleep(1.2)  # the heartbeat has been written (once a second)
            before = a.table(table_id)["clocks"]["seats"][0]
            assert before["running"] and before["remaining_ms"] > 2000
        process.kill()
        time.sleep(7)  # longer than seat 0's clock: were it charged, a bot would take the seat
        process.start()
        with httpx.Client(base_url=process.url, timeout=10) as http:
            a.http = http
            time.sleep(0.6)  # a few clock scans
            snap = a.table(table_id)
            seat = next(s for s in snap["table"]["players"] if s["seat"] == 0)
            assert not seat["zombie"], snap["table"]
            clock = snap["clocks"]["seats"][0]
            # As it stood, give or take the heartbeat's period (time between the last beat
            # and the crash is refunded too).
            assert clock["running"] and 1000 < clock["remaining_ms"] <= before["remaining_ms"] + 1500, (clock, before)
            assert a.move(table_id, 0, {"type": "draw"}).status_code == 200
    finally:
        process.kill()


def test_blood_rage_public_table_shows_no_secret_before_the_end(client):
    """The issue's case: a public Blood Rage table during the draft. No answer to a
    spectator (replay frames, log, snapshot) holds a secret of the true match then."""
    import json

    from sqlalchemy import select

    from ludoteca.engine import Match
    from ludoteca.games import load
    from ludoteca.server.kernel.models import GameTable, MoveRow

    a, b = Api(client), Api(client)
    table_id = a.post("/api/tables", {"game": "bloodrage", "seats": 2, "record_public": True}).json()["id"]
    assert b.post(f"/api/tables/{table_id}/join").status_code == 200
    assert a.post(f"/api/tables/{table_id}/start").status_code == 200
    rng = random.Random(7)
    for _ in range(8):  # draft picks, simultaneous and secret
        for api in (a, b):
            snap = api.table(table_id)
            if snap["legal"]:
                api.move(table_id, snap["version"], rng.choice(snap["legal"]))
    seen = [client.get(f"/api/tables/{table_id}/replay").text, client.get(f"/api/tables/{table_id}/log").text,
            client.get(f"/api/tables/{table_id}").text]
    assert client.get(f"/api/tables/{table_id}/record").json()["code"] == "record_hidden"
    with client.app.state.server.runtime.sessions() as db:
        row = db.get(GameTable, table_id)
        moves = db.execute(select(MoveRow.seat, MoveRow.move).where(MoveRow.table_id == table_id)
                           .order_by(MoveRow.number)).all()
    assert len(moves) >= 4
    game = load("bloodrage")
    match = Match.new("bloodrage", 2, row.options, row.seed, game=game)
    for seat, move in moves:
        match.play(seat, move)
    # Only what is secret now: a card picked and later played in the open is public by then.
    now = {json.dumps(s) for strings in game.secrets(match.state).values() for s in strings}
    assert now
    for text in seen:
        leaked = [s for s in now if s in text]
        assert not leaked, leaked[:5]
