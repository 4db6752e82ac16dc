"""Resigning. At two seats the other player wins at once; at more, the resigner ranks
last and a bot plays the seat on; rated tables count it; the record and the replay show
it."""

from __future__ import annotations

import random

from tests.server.conftest import Api, new_table
from tests.server.helpers import play_out, wait_for


def test_resign_at_two_seats_the_other_wins(client):
    a, b = Api(client), Api(client)
    table_id = new_table(a, [b], rated=True)
    assert a.move(table_id, 0, {"type": "draw"}).status_code == 200
    r = b.post(f"/api/tables/{table_id}/resign")
    assert r.status_code == 200, r.text
    assert r.json()["over"] and r.json()["seat"] == 1
    table = a.table(table_id)["table"]
    assert table["status"] == "over" and table["resigned"] == [1]
    result = table["result"]
    assert result["winners"] == [0] and result["ranks"] == [1, 2] and result["ended"] == "resigned"
    for api in (a, b):  # nobody is asked to decide any more
        snap = api.table(table_id)
        assert snap["legal"] == [] and snap["pending"] == [] and snap["prompts"] == []
    # Nothing more can be played or resigned.
    assert a.move(table_id, 1, {"type": "pass"}).status_code == 409
    assert a.post(f"/api/tables/{table_id}/resign").json()["code"] == "not_playing"
    # The record and the replay show it.
    record = client.get(f"/api/tables/{table_id}/record").json()
    assert record["resigned"] == [{"seat": 1, "after": 1}] and record["result"]["winners"] == [0]
    replay = client.get(f"/api/tables/{table_id}/replay").json()
    assert replay["resigned"] == [{"seat": 1, "after": 1}] and len(replay["frames"]) == 2
    # Rated: the winner's rating went up, the resigner's down.
    board = {row["username"]: row for row in client.get("/api/games/drawbid/leaderboard").json()}
    assert board[a.name]["rating"] > board[b.name]["rating"]


def test_resign_at_three_seats_ranks_last_and_a_bot_plays_on(client):
    a, b, c = Api(client), Api(client), Api(client)
    table_id = new_table(a, [b, c])
    r = a.post(f"/api/tables/{table_id}/resign")
    assert r.status_code == 200, r.text
    assert not r.json()["over"]
    table = b.table(table_id)["table"]
    assert table["status"] == "playing" and table["resigned"] == [0]
    assert next(p for p in table["players"] if p["seat"] == 0)["zombie"]
    # The bot plays seat 0 (it had the first decision); its person may not, nor take it back.
    wait_for(lambda: b.table(table_id)["version"] >= 1)
    assert a.post(f"/api/tables/{table_id}/join").status_code == 409
    assert a.post(f"/api/tables/{table_id}/resign").json()["code"] == "not_seated"
    over = play_out({1: b, 2: c}, table_id, random.Random(5))
    result = over["table"]["result"]
    assert result["ranks"][0] == 3 and result["resigned"] == [0], result
    assert sorted(result["ranks"][1:]) in ([1, 2], [1, 1])


def test_resigned_person_cannot_move_for_the_bot(client):
    a, b, c = Api(client), Api(client), Api(client)
    table_id = new_table(a, [b, c])
    # Seat 1 resigns first, then seat 2: seat 0 is left standing and wins; seat 1 ranks last.
    assert b.post(f"/api/tables/{table_id}/resign").status_code == 200
    r = b.move(table_id, 0, {"type": "pass"})
    assert r.status_code in (403, 409), r.text
    assert c.post(f"/api/tables/{table_id}/resign").json()["over"]
    result = a.table(table_id)["table"]["result"]
    assert result["ranks"] == [1, 3, 2] and result["winners"] == [0] and result["resigned"] == [1, 2]


def test_resign_needs_a_seat_in_play(client):
    a, b, stranger = Api(client), Api(client), Api(client)
    table_id = new_table(a, [b])
    assert stranger.post(f"/api/tables/{table_id}/resign").json()["code"] == "not_seated"
    assert client.post(f"/api/tables/{table_id}/resign").status_code == 401
    assert a.post("/api/tables/nope/resign").status_code == 404
    opened = a.post("/api/tables", {"game": "drawbid", "seats": 2}).json()["id"]
    assert a.post(f"/api/tables/{opened}/resign").json()["code"] == "not_playing"
