"""Simultaneous decisions: a move chosen at version v is taken at a later version when
every move since was another seat's within the same simultaneous decision of
independent choices (``Game.simultaneous``) and it is still legal; otherwise it is
stale (409). Blood Rage's draft and Hadrian's Wall's year, at their smallest and
largest tables, on SQLite and PostgreSQL, over HTTP and the WebSocket."""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from fastapi.testclient import TestClient

from ludoteca.engine import Match
from ludoteca.server.app import create_app
from tests.server.conftest import Api, make_settings, new_table
from tests.server.helpers import receive_until

CASES = [("bloodrage", 2), ("bloodrage", 4), ("hadrianswall", 2), ("hadrianswall", 6)]
OPTIONS = {"bloodrage": {"clans": "random"}}
"""Blood Rage's clans dealt, so that the game opens on the draft (chosen, they come first,
one seat at a time)."""


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def any_client(request: pytest.FixtureRequest) -> Iterator[TestClient]:
    url = request.getfixturevalue("sqlite_url" if request.param == "sqlite" else "pg_url")
    with TestClient(create_app(make_settings(url))) as http:
        yield http


def _table(client: TestClient, game: str, seats: int) -> tuple[str, dict[int, Api]]:
    """A started table of people, ``record_public`` so that its move log can be read."""
    apis = [Api(client) for _ in range(seats)]
    table_id = new_table(apis[0], apis[1:], game=game, record_public=True, options=OPTIONS.get(game, {}))
    by_seat = {}
    for api in apis:
        (seat,) = api.table(table_id)["your_seats"]
        by_seat[seat] = api
    return table_id, by_seat


def _picks(by_seat: dict[int, Api], table_id: str) -> tuple[int, dict[int, dict[str, Any]]]:
    """Each pending seat's first legal move, as its own snapshot shows at one version."""
    snaps = {seat: api.table(table_id) for seat, api in by_seat.items()}
    versions = {snap["version"] for snap in snaps.values()}
    assert len(versions) == 1
    return versions.pop(), {seat: snap["legal"][0] for seat, snap in snaps.items() if snap["legal"]}


def _assert_log_exact(client: TestClient, table_id: str, game: str, seats: int, sent: list[tuple[int, Any]]) -> None:
    """The stored move log holds every move once, in the order taken, and replays."""
    # From storage: the record itself is served only once the game is over.
    from sqlalchemy import select

    from ludoteca.server.kernel.models import GameTable, MoveRow

    with client.app.state.server.runtime.sessions() as db:
        options = db.get(GameTable, table_id).options
        seed = db.get(GameTable, table_id).seed
        stored = db.execute(select(MoveRow.seat, MoveRow.move).where(MoveRow.table_id == table_id)
                            .order_by(MoveRow.number)).all()
    assert [tuple(m) for m in stored] == [(seat, move) for seat, move in sent]
    match = Match.new(game, seats, options, seed)
    for seat, move in sent:
        match.play(seat, move)


@pytest.mark.parametrize(("game", "seats"), CASES)
def test_independent_picks_are_all_taken_over_http(any_client, game, seats):
    table_id, by_seat = _table(any_client, game, seats)
    version, picks = _picks(by_seat, table_id)
    assert sorted(picks) == list(range(seats))  # everyone decides at once
    sent = []
    for number, (seat, move) in enumerate(picks.items(), 1):
        r = by_seat[seat].move(table_id, version, move)  # all chosen at the same version
        assert r.status_code == 200, r.text
        assert r.json()["version"] == version + number and r.json()["number"] == number  # each its own
        sent.append((seat, move))
    _assert_log_exact(any_client, table_id, game, seats, sent)


@pytest.mark.parametrize(("game", "seats"), CASES)
def test_picks_raced_at_the_same_moment_are_all_taken(any_client, game, seats):
    table_id, by_seat = _table(any_client, game, seats)
    version, picks = _picks(by_seat, table_id)
    with ThreadPoolExecutor(len(picks)) as pool:
        answers = list(pool.map(lambda item: (item[0], by_seat[item[0]].move(table_id, version, item[1])),
                                picks.items()))
    assert [r.status_code for _, r in answers] == [200] * len(picks), [r.text for _, r in answers]
    numbers = sorted(r.json()["number"] for _, r in answers)
    assert numbers == list(range(1, len(picks) + 1))
    order = sorted(answers, key=lambda a: a[1].json()["number"])
    _assert_log_exact(any_client, table_id, game, seats, [(seat, picks[seat]) for seat, _ in order])
    assert by_seat[0].table(table_id)["version"] == version + len(picks)


@pytest.mark.parametrize(("game", "seats"), [("bloodrage", 2), ("hadrianswall", 6)])
def test_a_truly_stale_move_is_still_refused(any_client, game, seats):
    table_id, by_seat = _table(any_client, game, seats)
    version, picks = _picks(by_seat, table_id)
    first, second = sorted(picks)[:2]
    assert by_seat[first].move(table_id, version, picks[first]).status_code == 200
    # The seat's own move landed since: what it chose then may mean something else now.
    again = by_seat[first].table(table_id)["legal"]
    r = by_seat[first].move(table_id, version, again[0] if again else picks[first])
    assert r.status_code == 409 and r.json()["code"] == "stale_version" and r.json()["version"] == version + 1
    # A move from the future is stale too, and one no longer legal is refused as stale.
    r = by_seat[second].move(table_id, version + 5, picks[second])
    assert r.status_code == 409 and r.json()["code"] == "stale_version"
    r = by_seat[second].move(table_id, version, {"type": "pick", "card": "nowhere"})
    assert r.status_code == 409 and r.json()["code"] == "stale_version"
    # Once everyone has decided, the decision is over: a move chosen before it is stale.
    for seat, move in picks.items():
        if seat != first:
            assert by_seat[seat].move(table_id, version, move).status_code == 200
    now = by_seat[second].table(table_id)
    assert now["version"] == version + len(picks)
    stale = now["legal"][0]
    r = by_seat[second].move(table_id, version + 1, stale)
    assert r.status_code == 409 and r.json()["code"] == "stale_version"
    assert by_seat[second].table(table_id)["version"] == now["version"]  # nothing changed


def test_a_move_after_an_undo_in_between_is_stale(any_client):
    table_id, by_seat = _table(any_client, "hadrianswall", 2)
    version, picks = _picks(by_seat, table_id)
    for seat, move in picks.items():  # the guidelines: the year's actions start
        assert by_seat[seat].move(table_id, version, move).status_code == 200
    version, acts = _picks(by_seat, table_id)
    r = by_seat[0].move(table_id, version, acts[0])
    assert r.status_code == 200, r.text
    assert by_seat[0].post(f"/api/tables/{table_id}/undo", {"version": version + 1}).status_code == 200
    r = by_seat[1].move(table_id, version, acts[1])
    assert r.status_code == 409 and r.json()["code"] == "stale_version"
    # From the version after the undo, both seats' moves of the year are independent again.
    after = version + 2
    assert by_seat[1].move(table_id, after, acts[1]).status_code == 200
    assert by_seat[0].move(table_id, after, acts[0]).status_code == 200
    assert by_seat[0].post(f"/api/tables/{table_id}/undo", {"version": after + 2}).status_code == 200
    snap = by_seat[0].table(table_id)
    assert snap["version"] == after + 3 and snap["moves"] == len(picks) + 1


@pytest.mark.parametrize(("game", "seats"), CASES)
def test_independent_picks_are_all_taken_over_the_websocket(any_client, game, seats):
    table_id, by_seat = _table(any_client, game, seats)
    version, picks = _picks(by_seat, table_id)
    path = f"/api/tables/{table_id}/live"
    sockets = {seat: any_client.websocket_connect(path, headers=by_seat[seat].headers) for seat in picks}
    opened = {seat: ws.__enter__() for seat, ws in sockets.items()}
    try:
        for ws in opened.values():
            receive_until(ws, lambda m: m["type"] == "update" and m.get("version") == version)
        for seat, ws in opened.items():  # every seat sends before hearing of the others
            ws.send_json({"type": "move", "version": version, "move": picks[seat], "id": f"s{seat}"})
        acks = {seat: receive_until(ws, lambda m: m["type"] in ("ack", "error")) for seat, ws in opened.items()}
        assert all(a["type"] == "ack" for a in acks.values()), acks
        assert sorted(a["version"] for a in acks.values()) == [version + n for n in range(1, len(picks) + 1)]
        # A truly stale one over the socket: the seat's own move landed since.
        seat, ws = next(iter(opened.items()))
        ws.send_json({"type": "move", "version": version, "move": picks[seat], "id": "stale"})
        error = receive_until(ws, lambda m: m["type"] == "error")
        assert error["status"] == 409 and error["code"] == "stale_version"
    finally:
        for ws in sockets.values():
            ws.__exit__(None, None, None)
    sent = sorted(((a["version"], seat) for seat, a in acks.items()))
    _assert_log_exact(any_client, table_id, game, seats, [(seat, picks[seat]) for _, seat in sent])


def test_a_bot_move_chosen_before_a_persons_of_the_same_year_is_taken(sqlite_url):
    from ludoteca.server.tables.access import BotMover

    # The bot waits before it moves: the test plays its move through the same path.
    with TestClient(create_app(make_settings(sqlite_url, bot_delay_seconds=5))) as client:
        person = Api(client)
        r = person.post("/api/tables", {"game": "hadrianswall", "seats": 2})
        table_id = r.json()["id"]
        assert person.post(f"/api/tables/{table_id}/bots", {"bot": "random"}).status_code == 200
        assert person.post(f"/api/tables/{table_id}/start").status_code == 200
        server = client.app.state.server
        snap = person.table(table_id)
        version = snap["version"]
        bot_move = server.runtime.cache.peek(table_id).match.legal(1)[0]
        assert person.move(table_id, version, snap["legal"][0]).status_code == 200
        done = server.tables.pipeline.submit(BotMover("random"), table_id, version, bot_move, "bot-early", 1)
        assert done["version"] == version + 2 and done["seat"] == 1
        again = server.tables.pipeline.submit(BotMover("random"), table_id, version, bot_move, "bot-early", 1)
        assert again["duplicate"]  # a retry of the same move is answered, not played twice
