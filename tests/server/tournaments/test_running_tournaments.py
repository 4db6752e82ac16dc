"""Tournaments run by the server: a 24-player Swiss to its podium with its standings
checked against a recomputation from the stored games, an elimination, an arena, and the
refusals that change nothing."""

from __future__ import annotations

import itertools
import time
from datetime import UTC, datetime, timedelta

from tests.server.conftest import Api
from tests.server.tournaments.helpers import check_standings, create, recompute, soon, wait_for


def test_swiss_of_24_at_4_seats_runs_to_its_podium(client):
    organiser = Api(client)
    t = create(organiser, bots=24, rounds=4, min_players=8, max_players=24)
    assert t["status"] == "upcoming" and t["players"] == 24
    t = wait_for(client, t["id"])
    assert t["round"] == 4 and len(t["rounds_played"]) == 4
    for rnd in t["rounds_played"]:
        assert len(rnd["tables"]) == 6 and not rnd["byes"]
        assert sorted(p for table in rnd["tables"] for p in table["players"]) == sorted(
            e["id"] for e in t["entrants"])
    check_standings(client, t)
    assert [p["player"] for p in t["podium"]] == [r["player"] for r in t["standings"][:3]]
    # 24 players, 4 rounds at 4 seats: repeats avoided (the first three rounds never
    # repeat; the fourth may have to, once or twice, given what the first three made).
    pairs = [tuple(sorted((a, b))) for rnd in t["rounds_played"] for table in rnd["tables"]
             for i, a in enumerate(table["players"]) for b in table["players"][i + 1:]]
    assert len(pairs) - len(set(pairs)) <= 2
    early = pairs[:108]
    assert len(early) == len(set(early))
    listed = client.get("/api/tournaments", params={"status": "finished"}).json()
    assert t["id"] in [x["id"] for x in listed]


def test_elimination_sends_the_best_of_each_table_on(client):
    organiser = Api(client)
    t = create(organiser, bots=16, format="elimination", advance=2, min_players=4)
    t = wait_for(client, t["id"])
    sizes = [len(rnd["tables"]) for rnd in t["rounds_played"]]
    assert sizes == [4, 2, 1]
    for rnd, following in zip(t["rounds_played"], t["rounds_played"][1:], strict=False):
        advanced = set()
        for table in rnd["tables"]:
            order = sorted(range(4), key=lambda i: table["ranks"][i])
            best = {table["players"][i] for i in order[:2]}
            if len({table["ranks"][i] for i in order[:3]}) == 3 or table["ranks"][order[1]] != table["ranks"][order[2]]:
                assert best <= {p for tb in following["tables"] for p in tb["players"]}
            advanced |= {p for p in table["players"]}
        assert {p for tb in following["tables"] for p in tb["players"]} <= advanced
    final = t["rounds_played"][-1]["tables"][0]
    # A shared first place in the final is broken by the seeding: any of the tied wins.
    winners = {p for p, r in zip(final["players"], final["ranks"], strict=True) if r == min(final["ranks"])}
    assert t["podium"][0]["player"] in winners
    assert t["standings"][0]["player"] == t["podium"][0]["player"]
    mine = {r["player"]: r for r in recompute(client, t)}
    for row in t["standings"]:
        assert abs(row["points"] - mine[row["player"]]["points"]) < 1e-6


def test_arena_pairs_free_players_until_the_window_closes(client):
    organiser = Api(client)
    t = create(organiser, bots=8, format="arena", minutes=1, seats=2)
    # A one-minute arena is long for a test: the window is cut short in the database.
    wait_for(client, t["id"], "running")
    server = client.app.state.server
    from ludoteca.server.kernel.models import Tournament

    time.sleep(2.0)
    with server.runtime.transaction() as db:
        row = db.get(Tournament, t["id"])
        row.ends_at = datetime.now(UTC).replace(tzinfo=None)
    t = wait_for(client, t["id"])
    games = [table for rnd in t["rounds_played"] for table in rnd["tables"]]
    assert len(games) > 8  # several games each in two seconds
    for a, b in itertools.pairwise(games):
        assert a["board"] < b["board"]
    # Points by rank plus the streak bonus (two wins in a row: the next game doubles),
    # recomputed from each player's games in order (a player's games follow each other,
    # so board order is their order); and no one met their last opponent again at once.
    played = {r["player"]: r["played"] for r in t["standings"]}
    assert sum(played.values()) == 2 * len(games)
    expected: dict[int, float] = {}
    for player in played:
        mine = [g for g in games if player in g["players"]]
        run, total, last = 0, 0.0, None
        for g in mine:
            seat = g["players"].index(player)
            stored = client.get(f"/api/tables/{g['table']}").json()["table"]["result"]["ranks"]
            assert stored == g["ranks"]
            won = stored[seat] == 1 and stored.count(1) == 1
            total += g["points"][seat] * (2 if run >= 2 else 1)
            run = run + 1 if won else 0
            opponent = g["players"][1 - seat]
            assert opponent != last
            last = opponent
        expected[player] = total
    for row in t["standings"]:
        assert abs(row["points"] - expected[row["player"]]) < 1e-3
    assert t["podium"][0]["player"] == t["standings"][0]["player"]


def test_refusals_change_nothing(client):
    organiser, other = Api(client), Api(client)
    past = (datetime.now(UTC) - timedelta(minutes=1)).isoformat()
    later = (datetime.now(UTC) + timedelta(hours=1)).isoformat()
    cases = [({"starts_at": past}, 422, "start_in_past"),
             ({"rounds": 9, "max_players": 24}, 422, "too_many_rounds"),
             ({"seats": 7}, 422, "invalid_request"),
             ({"game": "drawbid", "seats": 4}, 422, "bad_seats"),
             ({"points": [1, 2, 3, 4]}, 422, "bad_points"),
             ({"format": "arena"}, 422, "bad_minutes"),
             ({"bots": ["nobody"]}, 422, "no_bot")]
    for extra, status, code in cases:
        body = {"game": "quickpick", "seats": 4, "rounds": 3, "starts_at": later, **extra}
        r = organiser.post("/api/tournaments", body)
        assert (r.status_code, r.json()["code"]) == (status, code), (extra, r.text)
    assert client.get("/api/tournaments").json() == []
    t = create(organiser, rounds=2, start=False)
    tid = t["id"]
    assert other.post(f"/api/tournaments/{tid}/join").status_code == 200
    r = other.post(f"/api/tournaments/{tid}/join")
    assert (r.status_code, r.json()["code"]) == (409, "already_joined")
    r = other.http.patch(f"/api/tournaments/{tid}", json={"name": "Mine"}, headers=other.headers)
    assert (r.status_code, r.json()["code"]) == (403, "not_organiser")
    r = organiser.http.patch(f"/api/tournaments/{tid}", json={"starts_at": past}, headers=organiser.headers)
    assert (r.status_code, r.json()["code"]) == (422, "start_in_past")
    r = other.post(f"/api/tournaments/{tid}/bots", {"bot": "random"})
    assert (r.status_code, r.json()["code"]) == (403, "not_organiser")
    r = organiser.post(f"/api/tournaments/{tid}/bots", {"bot": "greedy"})
    assert (r.status_code, r.json()["code"]) == (422, "bot_not_allowed")
    after = client.get(f"/api/tournaments/{tid}").json()
    assert after["name"] == "Test cup" and after["players"] == 1 and after["revision"] == t["revision"] + 1
    r = organiser.http.patch(f"/api/tournaments/{tid}", json={"name": "Spring cup", "starts_at": soon(1.0)},
                             headers=organiser.headers)
    assert r.status_code == 200 and r.json()["name"] == "Spring cup"
    organiser.post(f"/api/tournaments/{tid}/bots", {"bot": "random"})
    organiser.post(f"/api/tournaments/{tid}/bots", {"bot": "random"})
    organiser.post(f"/api/tournaments/{tid}/bots", {"bot": "random"})
    running = wait_for(client, tid, "running")
    late = Api(client)
    r = late.post(f"/api/tournaments/{tid}/join")
    assert (r.status_code, r.json()["code"]) == (409, "started")
    assert running["players"] == 4


def test_the_organiser_cancels_before_the_start_only(client):
    organiser, other = Api(client), Api(client)
    t = create(organiser, rounds=1, start=False)
    r = other.post(f"/api/tournaments/{t['id']}/cancel")
    assert (r.status_code, r.json()["code"]) == (403, "not_organiser")
    r = organiser.post(f"/api/tournaments/{t['id']}/cancel")
    assert r.status_code == 200 and r.json()["status"] == "cancelled"
    r = organiser.post(f"/api/tournaments/{t['id']}/cancel")
    assert (r.status_code, r.json()["code"]) == (409, "cancelled")
    r = other.post(f"/api/tournaments/{t['id']}/join")
    assert (r.status_code, r.json()["code"]) == (409, "cancelled")


def test_too_few_players_cancel_it(client):
    organiser = Api(client)
    t = create(organiser, bots=1, rounds=1, min_players=4)
    assert wait_for(client, t["id"], "cancelled")["round"] == 0


def test_private_tournament_needs_its_link(client):
    organiser, friend, stranger = Api(client), Api(client), Api(client)
    t = create(organiser, rounds=1, private=True, start=False)
    assert t["invite"]
    assert client.get(f"/api/tournaments/{t['id']}").status_code == 404
    assert client.get("/api/tournaments").json() == []
    r = stranger.post(f"/api/tournaments/{t['id']}/join")
    assert (r.status_code, r.json()["code"]) == (403, "bad_invite")
    assert friend.post(f"/api/tournaments/{t['id']}/join", {"invite": t["invite"]}).status_code == 200
    assert friend.get(f"/api/tournaments/{t['id']}").status_code == 200
    assert client.get(f"/api/tournaments/{t['id']}", params={"invite": t["invite"]}).json()["invite"] is None


def test_timeouts_and_leavers_go_on_with_a_bot_then_are_withdrawn(client):
    organiser, sleeper, leaver = Api(client), Api(client), Api(client)
    heard = []
    client.app.state.server.alerts.add_channel("test", heard.append)
    t = create(organiser, bots=6, rounds=3, min_seats=3, max_missed=1, skipped_points=0.5, start=False,
               clock={"initial_seconds": 0.5, "increment_seconds": 0})
    for api in (sleeper, leaver):
        assert api.post(f"/api/tournaments/{t['id']}/join").status_code == 200
    r = organiser.http.patch(f"/api/tournaments/{t['id']}", json={"starts_at": soon(0.3)}, headers=organiser.headers)
    assert r.status_code == 200
    running = wait_for(client, t["id"], "running")
    ids = {e["name"]: e["id"] for e in running["entrants"]}
    # The leaver leaves at once: withdrawn, and a bot plays their seat on.
    r = leaver.post(f"/api/tournaments/{t['id']}/leave")
    assert r.status_code == 200 and {e["name"]: e for e in r.json()["entrants"]}[leaver.name]["withdrawn"]
    r = leaver.post(f"/api/tournaments/{t['id']}/leave")
    assert (r.status_code, r.json()["code"]) == (409, "withdrawn")
    done = wait_for(client, t["id"])
    entrants = {e["name"]: e for e in done["entrants"]}
    # The sleeper never moved: their clock ran out, a bot finished the game: one missed
    # game, withdrawn (max_missed 1), skipped in the later rounds.
    assert entrants[sleeper.name]["withdrawn"] and entrants[sleeper.name]["missed"] == 1
    for rnd in done["rounds_played"][1:]:
        skipped = {b["player"]: b for b in rnd["byes"] if b["kind"] == "skipped"}
        assert ids[sleeper.name] in skipped and ids[leaver.name] in skipped
        assert skipped[ids[sleeper.name]]["points"] == 0.5
        assert all(ids[sleeper.name] not in table["players"] for table in rnd["tables"])
        assert sorted(len(table["players"]) for table in rnd["tables"]) == [3, 3]
    check_standings(client, done)
    # Each person was told their first round's table was ready.
    told = {(a.user_id, a.table_id) for a in heard if a.kind == "tournament"}
    first = done["rounds_played"][0]["tables"]
    for api in (sleeper, leaver):
        table = next(tb["table"] for tb in first if ids[api.name] in tb["players"])
        user_id = client.get("/api/sessions", headers=api.headers).json()["user"]["id"]
        assert (user_id, table) in told
    # Their results show on their profiles.
    results = client.get(f"/api/players/{sleeper.name}/tournaments").json()
    assert results[0]["id"] == t["id"] and results[0]["players"] == 8


def test_the_live_socket_sends_the_standings_as_they_move(client):
    organiser = Api(client)
    t = create(organiser, bots=4, rounds=2, start=False)
    with client.websocket_connect(f"/api/tournaments/{t['id']}/live") as ws:
        first = ws.receive_json()
        assert first["type"] == "tournament" and first["tournament"]["status"] == "upcoming"
        r = organiser.http.patch(f"/api/tournaments/{t['id']}", json={"starts_at": soon(0.3)},
                                 headers=organiser.headers)
        assert r.status_code == 200
        seen = []
        while True:
            message = ws.receive_json()
            seen.append(message["tournament"])
            if message["tournament"]["status"] == "finished":
                break
        # (A socket polls once a second: so quick a tournament may go from upcoming to
        # finished between two looks.)
        assert seen[-1]["standings"][0]["points"] > 0 and seen[-1]["podium"]
    with client.websocket_connect("/api/tournaments/nope/live") as ws:
        assert ws.receive_json()["code"] == "no_tournament"


def test_a_tournament_whose_step_fails_holds_up_no_other(client, monkeypatch):
    """A tournament that cannot move on (its step raises on every tick) is logged and
    tried again; the others of the same pass go on to their podium."""
    organiser = Api(client)
    stuck = create(organiser, bots=4, rounds=1, min_players=4, max_players=4)
    other = create(organiser, bots=4, rounds=1, min_players=4, max_players=4)
    service = client.app.state.server.tournaments
    real = service._advance_in_transaction

    def advance(tournament_id: str):
        if tournament_id == stuck["id"]:
            raise RuntimeError("this tournament cannot be paired")
        return real(tournament_id)

    monkeypatch.setattr(service, "_advance_in_transaction", advance)
    assert wait_for(client, other["id"])["status"] == "finished"
    assert client.get(f"/api/tournaments/{stuck['id']}").json()["status"] == "upcoming"
