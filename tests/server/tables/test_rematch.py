"""Rematch: the same game again with the same company, one new table per finished one."""

from __future__ import annotations

import random
from concurrent.futures import ThreadPoolExecutor

from tests.server.conftest import Api, new_table
from tests.server.helpers import play_out, receive_until


def finished(client) -> tuple[Api, Api, str]:
    """A three-seat table (two people, a bot at seat 2) played to the end."""
    a, b = Api(client), Api(client)
    table_id = new_table(a, [b], bots=1, options={"rounds": 2})
    play_out({0: a, 1: b}, table_id, random.Random(4))
    assert a.table(table_id)["table"]["status"] == "over"
    return a, b, table_id


def test_a_rematch_is_the_same_game_with_every_seat_moved_on(client):
    a, b, old_id = finished(client)
    before = a.table(old_id)["table"]
    r = b.post(f"/api/tables/{old_id}/rematch")
    assert r.status_code == 201, r.text
    new = r.json()
    assert new["id"] != old_id and new["status"] == "open"
    for key in ("game", "seats", "options", "mode", "clock", "rated", "private", "record_public"):
        assert new[key] == before[key], key
    # Seat s moves to s + 1: b (seat 1) sits at 2, the bot (seat 2) at 0, a's seat 1 waits.
    seats = {p["seat"]: p for p in new["players"]}
    assert seats[2]["username"] == b.name and seats[0]["bot"] == "random"
    assert seats[1]["username"] is None and seats[1]["bot"] is None
    assert new["creator"] == b.name
    # The finished table shows the way on; the other player joins the waiting seat.
    assert a.table(old_id)["table"]["rematch"] == new["id"]
    assert a.post(f"/api/tables/{new['id']}/join").status_code == 200
    assert b.post(f"/api/tables/{new['id']}/start").status_code == 200


def test_a_rematch_against_a_bot_seats_the_bot_first_and_starts_at_once(client):
    a = Api(client)
    old_id = new_table(a, [], bots=1, options={"rounds": 2})
    play_out({0: a}, old_id, random.Random(7))
    r = a.post(f"/api/tables/{old_id}/rematch")
    assert r.status_code == 201, r.text
    new = r.json()
    assert [(p["seat"], p["username"], p["bot"]) for p in new["players"]] == [(0, None, "random"), (1, a.name, None)]
    assert a.table(new["id"])["your_seats"] == [1]
    assert a.post(f"/api/tables/{new['id']}/start").status_code == 200
    assert a.table(new["id"])["table"]["status"] == "playing"


def test_players_watching_the_finished_table_see_the_rematch_live(client):
    a, b, old_id = finished(client)
    with client.websocket_connect(f"/api/tables/{old_id}/live", headers=a.headers) as wa, \
            client.websocket_connect(f"/api/tables/{old_id}/live") as spectator:
        for ws in (wa, spectator):
            assert receive_until(ws, lambda m: m["type"] == "update")["table"]["rematch"] is None
        made = b.post(f"/api/tables/{old_id}/rematch").json()
        for ws in (wa, spectator):
            update = receive_until(ws, lambda m: m["type"] == "update" and m["table"]["rematch"] is not None)
            assert update["table"]["rematch"] == made["id"]


def test_asking_again_answers_the_same_rematch(client):
    a, b, old_id = finished(client)
    made = a.post(f"/api/tables/{old_id}/rematch")
    assert made.status_code == 201
    for api in (a, b):
        again = api.post(f"/api/tables/{old_id}/rematch")
        assert again.status_code == 200 and again.json()["id"] == made.json()["id"]


def test_players_asking_at_once_get_one_rematch(client):
    a, b, old_id = finished(client)
    with ThreadPoolExecutor(6) as pool:
        answers = list(pool.map(lambda i: (a, b)[i % 2].post(f"/api/tables/{old_id}/rematch"), range(6)))
    assert sorted(r.status_code for r in answers) == [200] * 5 + [201]
    assert len({r.json()["id"] for r in answers}) == 1
    mine = [t["id"] for t in a.get("/api/tables", params={"status": "open", "game": "drawbid"}).json()]
    assert mine.count(answers[0].json()["id"]) == 1 and len(mine) == 1


def test_only_a_player_of_a_finished_table_may_ask_and_a_refusal_changes_nothing(client):
    a, b = Api(client), Api(client)
    playing = new_table(a, [b])
    r = a.post(f"/api/tables/{playing}/rematch")
    assert r.status_code == 409 and r.json()["code"] == "not_over"
    _, _, old_id = finished(client)
    stranger = Api(client)
    tables_before = client.get("/api/tables", params={"status": "open"}).json()
    old_before = stranger.table(old_id)
    r = stranger.post(f"/api/tables/{old_id}/rematch")
    assert r.status_code == 403 and r.json()["code"] == "not_a_player"
    assert stranger.post("/api/tables/nosuchtable/rematch").status_code == 404
    assert a.table(playing)["table"]["rematch"] is None
    assert stranger.table(old_id)["table"]["rematch"] is None
    assert client.post(f"/api/tables/{old_id}/rematch").status_code == 401
    assert stranger.table(old_id) == old_before
    assert client.get("/api/tables", params={"status": "open"}).json() == tables_before == []


def test_a_rematch_everyone_left_is_replaced(client):
    a, b, old_id = finished(client)
    first = a.post(f"/api/tables/{old_id}/rematch").json()
    assert a.post(f"/api/tables/{first['id']}/leave").json()["status"] == "aborted"
    second = b.post(f"/api/tables/{old_id}/rematch")
    assert second.status_code == 201 and second.json()["id"] != first["id"]
    assert a.table(old_id)["table"]["rematch"] == second.json()["id"]
