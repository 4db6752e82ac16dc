"""One place where a game ends. A subscriber to the endings hears every kind of ending
exactly once, whichever way the last move came (the move workers' group commit, or a
move written alone in the caller's thread) or the game was resigned; one that stores
with the end hears it inside the ending's transaction."""

from __future__ import annotations

import random
import threading

from ludoteca.server.kernel.identity import lookup
from ludoteca.server.tables.endings import Ending
from tests.server.conftest import Api, new_table
from tests.server.helpers import play_out, wait_for


def _listen(server):
    heard: list[Ending] = []
    stored: list[tuple[str, bool]] = []
    lock = threading.Lock()

    def after(ending: Ending) -> None:
        with lock:
            heard.append(ending)

    def within(connection, ending: Ending) -> None:
        stored.append((ending.table_id, connection.in_transaction()))

    server.tables.endings.subscribe(after)
    server.tables.endings.subscribe_in_transaction(within)
    return heard, stored


def _play_alone(server, apis: dict[int, Api], table_id: str, rng: random.Random) -> None:
    """Play the table out with every move written alone (``MovePipeline.submit``)."""
    actors = {seat: lookup(server.runtime, api.token, "bearer") for seat, api in apis.items()}
    for _ in range(200):
        snaps = {seat: api.table(table_id) for seat, api in apis.items()}
        if snaps[0]["table"]["status"] == "over":
            return
        movers = [seat for seat, snap in snaps.items() if snap["legal"]]
        if movers:
            seat = rng.choice(movers)
            snap = snaps[seat]
            server.tables.pipeline.submit(actors[seat], table_id, snap["version"], rng.choice(snap["legal"]), None,
                                          seat)
    raise AssertionError("the table did not finish")


def test_every_kind_of_ending_is_heard_exactly_once(client):
    server = client.app.state.server
    heard, stored = _listen(server)
    a, b, c = Api(client), Api(client), Api(client)

    played = new_table(a, [b], rated=True)  # the last move through the group commit
    over = play_out({0: a, 1: b}, played, random.Random(1))
    alone = new_table(a, [b])  # the last move written alone
    _play_alone(server, {0: a, 1: b}, alone, random.Random(2))
    resigned = new_table(a, [b])  # one seat left standing at two seats
    assert b.post(f"/api/tables/{resigned}/resign").json()["over"]
    twice = new_table(a, [b, c])  # at three seats: the first resignation ends nothing
    assert not b.post(f"/api/tables/{twice}/resign").json()["over"]
    assert c.post(f"/api/tables/{twice}/resign").json()["over"]
    against_a_bot = new_table(a, [], bots=1)  # the person resigns: the bot's seat is left standing
    assert a.post(f"/api/tables/{against_a_bot}/resign").json()["over"]

    wait_for(lambda: len(heard) >= 5)
    assert sorted((e.table_id, e.how) for e in heard) == sorted(
        [(played, "played"), (alone, "played"), (resigned, "resigned"), (twice, "resigned"),
         (against_a_bot, "resigned")])
    ending = next(e for e in heard if e.table_id == played)
    assert ending.rated and ending.game == "drawbid" and ending.result == over["table"]["result"]
    assert [seat for seat, _user in ending.players] == [0, 1]
    # What stores with the end heard it inside the transaction (a rolled-back write may
    # have made it hear one twice: what it wrote then went with it).
    assert {t for t, _ in stored} == {e.table_id for e in heard} and all(inside for _, inside in stored)


def test_a_game_a_bot_finishes_is_heard_once(client):
    server = client.app.state.server
    heard, _stored = _listen(server)
    a, b, c = Api(client), Api(client), Api(client)
    table_id = new_table(a, [b, c])
    # Seat 0 resigns: its bot plays on with the others until the game's own end.
    assert not a.post(f"/api/tables/{table_id}/resign").json()["over"]
    play_out({1: b, 2: c}, table_id, random.Random(3))
    wait_for(lambda: len(heard) >= 1)
    assert [(e.table_id, e.how) for e in heard] == [(table_id, "played")]
    assert heard[0].result["ranks"][0] == 3
