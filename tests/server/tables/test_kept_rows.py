"""The move path keeps a table's row and seats in memory: a move then reads nothing from
the database, and a change made through another process is still seen."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import event, text

from ludoteca.server.app import create_app
from tests.server.conftest import Api, make_settings, new_table


class Statements:
    """The SQL statements one server process runs in this thread, as their first words
    (its clock scan runs its own statements meanwhile, in another thread)."""

    def __init__(self, engine: Any) -> None:
        self.seen: list[str] = []
        self.thread = threading.get_ident()
        event.listen(engine, "before_cursor_execute", self._record)

    def _record(self, _conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        if threading.get_ident() == self.thread:
            self.seen.append(" ".join(statement.split()[:3]).upper())

    def during(self, action: Any) -> list[str]:
        self.seen.clear()
        action()
        return list(self.seen)


def _two_processes(sqlite_url: str) -> Iterator[tuple[TestClient, TestClient]]:
    with TestClient(create_app(make_settings(sqlite_url))) as one, \
            TestClient(create_app(make_settings(sqlite_url))) as two:
        yield one, two


def test_a_move_on_a_kept_row_only_writes(client: TestClient) -> None:
    a, b = Api(client), Api(client)
    table_id = new_table(a, [b])
    assert a.move(table_id, 0, {"type": "pass"}).status_code == 200  # reads, then keeps the row
    statements = Statements(client.app.state.server.runtime.engine)
    server = client.app.state.server
    from ludoteca.server.kernel.identity import lookup

    actor = lookup(server.runtime, b.token, "bearer")
    ran = statements.during(lambda: server.tables.pipeline.submit(actor, table_id, 1, {"type": "pass"}, None))
    # Only the write transaction: the move row, the versioned UPDATE, the commit.
    assert [s for s in ran if s.startswith("SELECT")] == []
    assert any(s.startswith("INSERT INTO MOVES") for s in ran)
    assert any(s.startswith("UPDATE TABLES SET") for s in ran)
    assert a.table(table_id)["version"] == 2


def test_a_change_through_another_process_is_seen(sqlite_url: str) -> None:
    for one, two in _two_processes(sqlite_url):
        a = Api(one)
        b = Api(one)
        a_two = Api.__new__(Api)
        a_two.http, a_two.headers, a_two.token, a_two.name = two, a.headers, a.token, a.name
        table_id = new_table(a, [b])
        assert a.move(table_id, 0, {"type": "pass"}).status_code == 200
        assert b.move(table_id, 1, {"type": "pass"}).status_code == 200  # process one keeps the row at 2

        # Process two suspends the table (what it does when the game's code hangs).
        two.app.state.server.tables.suspend(table_id)
        hand = a.table(table_id)["view"]["hand"]
        r = a.move(table_id, 2, {"type": "bid", "card": hand[0]})
        assert r.status_code == 409 and r.json()["code"] == "not_playing", r.text
        with one.app.state.server.runtime.engine.connect() as db:
            assert db.execute(text("select count(*) from moves where table_id = :t"), {"t": table_id}).scalar() == 2


def test_a_seat_change_through_another_process_does_not_refuse_a_good_move(sqlite_url: str) -> None:
    for one, two in _two_processes(sqlite_url):
        a, b = Api(one), Api(one)
        table_id = new_table(a, [b])
        assert a.move(table_id, 0, {"type": "pass"}).status_code == 200  # process one keeps the row at 1
        # Another process changes the seats (here: only the revision that any seat change
        # bumps, so that no bot of that process takes part): the version stays.
        with two.app.state.server.runtime.engine.begin() as db:
            db.execute(text("update tables set revision = revision + 1 where id = :t"), {"t": table_id})
        # Process one's copy is stale; the move is checked again and lands.
        r = b.move(table_id, 1, {"type": "pass"})
        assert r.status_code == 200 and r.json()["version"] == 2, r.text
        assert a.table(table_id)["version"] == 2
