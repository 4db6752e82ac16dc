"""Group commit: moves of many tables sent at once are each acknowledged after their
commit, each table's log exact; a reused move id inside a group is told apart from the
others, whose moves land all the same."""

from __future__ import annotations

from ludoteca.server.kernel.identity import lookup
from tests.server.conftest import Api, new_table
from tests.server.helpers import race


def test_moves_of_many_tables_at_once_all_land_each_with_its_own_answer(client):
    server = client.app.state.server
    a, b = Api(client), Api(client)
    tables = [new_table(a, [b]) for _ in range(12)]
    actor = lookup(server.runtime, a.token, "bearer")
    calls = [lambda t=t: server.tables.pipeline.move_blocking(actor, t, 0, {"type": "pass"}, f"m-{t}") for t in tables]
    # The same move again under the same id (a retry), and one reusing an id for another move.
    calls.append(lambda: server.tables.pipeline.move_blocking(actor, tables[0], 0, {"type": "pass"}, f"m-{tables[0]}"))
    calls.append(lambda: server.tables.pipeline.move_blocking(actor, tables[1], 0, {"type": "draw"}, f"m-{tables[1]}"))
    answers = race(*calls, errors_as_answers=True)
    for answer in answers[2:len(tables)]:
        assert isinstance(answer, dict) and answer["version"] == 1 and answer["seat"] == 0, answer
    # Whichever of two moves under one id lands first wins; the other is its retry or refused.
    first, retry = answers[0], answers[-2]
    assert isinstance(first, dict) and isinstance(retry, dict)
    assert first["version"] == retry["version"] == 1 and {first["duplicate"], retry["duplicate"]} == {True, False}
    landed = [x for x in (answers[1], answers[-1]) if isinstance(x, dict)]
    refused = [x for x in (answers[1], answers[-1]) if not isinstance(x, dict)]
    assert len(landed) == 1 and landed[0]["version"] == 1
    assert len(refused) == 1 and getattr(refused[0], "code", None) == "move_id_reused", refused
    for table_id in tables:
        snap = b.table(table_id)
        assert snap["version"] == 1 and snap["moves"] == 1
    # ...and every table goes on from there, through the same workers.
    seat_b = lookup(server.runtime, b.token, "bearer")
    movers = {t: (a if b.table(t)["legal"] == [] else b) for t in tables}
    actors = {t: actor if movers[t] is a else seat_b for t in tables}
    move = server.tables.pipeline.move_blocking
    answers = race(*[lambda t=t: move(actors[t], t, 1, movers[t].table(t)["legal"][0], None) for t in tables],
                   errors_as_answers=True)
    assert all(isinstance(x, dict) and x["version"] == 2 for x in answers), answers
