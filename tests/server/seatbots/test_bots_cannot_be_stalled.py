"""A bot plays its seat whatever a player does: the move ids a bot will use are out of
the players' reach, and a bot whose move is refused retries a bounded number of times."""

from __future__ import annotations

from typing import Any

from ludoteca.server.kernel.errors import ApiError
from ludoteca.server.seatbots.runner import MAX_REFUSALS
from tests.server.conftest import Api, new_table
from tests.server.helpers import wait_for


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
