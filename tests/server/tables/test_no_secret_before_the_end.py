"""Nothing secret before the end: a public table's record (its seed and every move) is
refused until the game is over, and no answer to a spectator of a public Blood Rage table
during the draft (replay frames, log, snapshot) holds a secret of the true match."""

from __future__ import annotations

import random

from tests.server.conftest import Api, new_table
from tests.server.helpers import play_out


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


def test_blood_rage_public_table_shows_no_secret_before_the_end(client):
    """A public Blood Rage table during the draft, its picks simultaneous and secret. No
    answer to a spectator (replay frames, log, snapshot) holds a secret of the true match
    then."""
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
