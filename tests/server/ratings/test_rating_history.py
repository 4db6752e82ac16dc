"""Every rated result is stored (one row per player per rated game, in the transaction
that rates the ending); a player's rating history per game and lifetime statistics;
ratings shown on one display scale, "?" while provisional."""

from __future__ import annotations

import random

from sqlalchemy import select

from ludoteca.bots.ratings import DISPLAY_SCALE, PROVISIONAL_SIGMA, display_rating, is_provisional
from ludoteca.server.kernel.models import Rating, RatingChange
from tests.server.conftest import Api, new_table
from tests.server.helpers import play_out


def resign_game(winner: Api, loser: Api, **extra: object) -> str:
    """A two-seat game that ends at once: ``loser`` resigns."""
    table_id = new_table(winner, [loser], **extra)
    r = loser.post(f"/api/tables/{table_id}/resign")
    assert r.status_code == 200 and r.json()["over"], r.text
    return table_id


def test_the_display_scale_starts_where_lichess_does() -> None:
    # openskill's prior (mu 25, sigma 25/3) is lichess's start (1500, deviation 500).
    assert display_rating(25.0) == 1500 and round(DISPLAY_SCALE * 25 / 3) == 500
    assert display_rating(25.0083) == 1500 and display_rating(25.01) == 1501  # rounded to an integer
    assert is_provisional(25 / 3) and is_provisional(PROVISIONAL_SIGMA + 0.01)
    assert not is_provisional(PROVISIONAL_SIGMA)


def test_every_rated_result_is_stored_with_the_rating_before_and_after(client) -> None:
    a, b, c = Api(client), Api(client), Api(client)
    table_id = new_table(a, [b, c], rated=True)
    final = play_out({0: a, 1: b, 2: c}, table_id, random.Random(3))
    ranks = final["result"]["ranks"]
    server = client.app.state.server
    with server.runtime.sessions() as db:
        rows = {r.user_id: r for r in db.scalars(select(RatingChange).where(RatingChange.table_id == table_id))}
        ratings = {r.user_id: r for r in db.scalars(select(Rating).where(Rating.game == "drawbid"))}
    assert len(rows) == 3
    for seat, api in enumerate((a, b, c)):
        history = client.get(f"/api/players/{api.name}/ratings/drawbid").json()
        assert history["username"] == api.name and history["played"] == 1 and history["provisional"]
        (point,) = history["points"]
        assert point["table"] == table_id and point["rank"] == ranks[seat]
        assert point["seats"] == 3 and point["players"] == 3 and point["rating_before"] == 1500
        assert point["rating"] == history["rating"] and point["change"] == point["rating"] - 1500
        assert point["provisional"] and point["at"].endswith("Z")
        # The history's last point is the stored rating (same transaction).
        row = next(r for r in rows.values() if r.seat == seat)
        assert (row.mu, row.sigma) == (ratings[row.user_id].mu, ratings[row.user_id].sigma)
        assert (row.mu_before, row.sigma_before) == (25.0, 25 / 3)
    winner = next(api for seat, api in enumerate((a, b, c)) if ranks[seat] == min(ranks))
    assert client.get(f"/api/players/{winner.name}/ratings/drawbid").json()["points"][0]["change"] > 0
    # The profile and the leaderboard show the same figure, as an integer, provisional.
    profile = client.get(f"/api/players/{a.name}").json()["ratings"]["drawbid"]
    board = {row["username"]: row for row in client.get("/api/games/drawbid/leaderboard").json()}
    seat0 = next(r for r in rows.values() if r.seat == 0)
    assert profile["rating"] == board[a.name]["rating"] == display_rating(ratings[seat0.user_id].mu)
    assert isinstance(board[a.name]["rating"], int) and board[a.name]["provisional"] is True


def test_history_is_in_order_and_bounded(client) -> None:
    a, b = Api(client), Api(client)
    for _ in range(3):
        resign_game(a, b, rated=True)
    history = client.get(f"/api/players/{a.name}/ratings/drawbid").json()
    ratings = [p["rating"] for p in history["points"]]
    assert len(ratings) == 3 and ratings == sorted(ratings) and ratings[0] > 1500  # a won every time
    assert [p["rating_before"] for p in history["points"][1:]] == ratings[:-1]
    latest = client.get(f"/api/players/{a.name}/ratings/drawbid", params={"limit": 2}).json()["points"]
    assert [p["rating"] for p in latest] == ratings[1:]
    loser = client.get(f"/api/players/{b.name}/ratings/drawbid").json()
    assert all(p["change"] < 0 and p["rank"] == 2 for p in loser["points"])
    # Unknown player or game, a bad limit: a clear 4xx.
    assert client.get("/api/players/nobody-here/ratings/drawbid").json()["code"] == "no_player"
    r = client.get(f"/api/players/{a.name}/ratings/no-such-game")
    assert r.status_code == 404 and r.json()["code"] == "no_game"
    for bad in (0, 1001, "x"):
        assert client.get(f"/api/players/{a.name}/ratings/drawbid", params={"limit": bad}).status_code == 422
    # A game never played: no points, no rating.
    empty = client.get(f"/api/players/{a.name}/ratings/iwari").json()
    assert empty["points"] == [] and empty["rating"] is None and empty["played"] == 0


def test_unrated_tables_guests_and_bots_write_no_history(client) -> None:
    a, b = Api(client), Api(client)
    resign_game(a, b)  # unrated
    with_bot = new_table(a, [], bots=1, rated=True)  # a bot is no contest
    assert a.post(f"/api/tables/{with_bot}/resign").json()["over"]
    guest = client.post("/api/sessions/guest").json()
    client.cookies.clear()
    r = client.post("/api/tables", json={"game": "drawbid", "rated": True},
                    headers={"Authorization": f"Bearer {guest['token']}"})
    assert r.status_code == 403 and r.json()["code"] == "guest_rated"  # guests are never rated
    with client.app.state.server.runtime.sessions() as db:
        assert db.scalars(select(RatingChange)).all() == []


def test_lifetime_statistics_count_finished_public_tables_rated_or_not(client) -> None:
    a, b, c = Api(client), Api(client), Api(client)
    resign_game(a, b, rated=True)  # a wins, rated
    resign_game(b, a)  # b wins, unrated: counts in the statistics
    resign_game(a, c, private=True)  # private: counts for nothing
    new_table(a, [b])  # in play: not yet
    stats = client.get(f"/api/players/{a.name}/stats").json()
    assert (stats["games"], stats["wins"], stats["average_rank"], stats["rated_games"]) == (2, 1, 1.5, 1)
    (drawbid,) = stats["by_game"]
    assert drawbid["game"] == "drawbid" and drawbid["games"] == 2 and drawbid["wins"] == 1
    assert drawbid["rated_games"] == 1 and drawbid["provisional"] and drawbid["rating"] > 1500
    assert drawbid["best_rating"] is None  # only established ratings make a peak
    assert client.get(f"/api/players/{a.name}").json()["games_played"] == 2  # the profile agrees
    fresh = Api(client)
    empty = client.get(f"/api/players/{fresh.name}/stats").json()
    assert (empty["games"], empty["wins"], empty["average_rank"], empty["by_game"]) == (0, 0, None, [])
    assert client.get("/api/players/nobody-here/stats").json()["code"] == "no_player"


def test_the_peak_counts_established_ratings_only(client) -> None:
    a, b = Api(client), Api(client)
    resign_game(a, b, rated=True)
    server = client.app.state.server
    with server.runtime.transaction() as db:  # as if a had played many games: a narrow sigma
        row = db.scalar(select(RatingChange).where(RatingChange.rank == 1))
        assert row is not None
        row.sigma = 2.0
        row.mu = 30.0
    stats = client.get(f"/api/players/{a.name}/stats").json()["by_game"][0]
    assert stats["best_rating"] == 1800


def test_history_and_statistics_on_postgres(pg_url) -> None:
    from fastapi.testclient import TestClient

    from ludoteca.server.app import create_app
    from tests.server.conftest import make_settings

    with TestClient(create_app(make_settings(pg_url))) as http:
        a, b = Api(http), Api(http)
        resign_game(a, b, rated=True)
        resign_game(b, a)
        points = http.get(f"/api/players/{a.name}/ratings/drawbid").json()["points"]
        assert len(points) == 1 and points[0]["change"] > 0
        stats = http.get(f"/api/players/{a.name}/stats").json()
        assert (stats["games"], stats["wins"], stats["average_rank"], stats["rated_games"]) == (2, 1, 1.5, 1)


def test_a_deleted_account_takes_its_history_with_its_ratings(client) -> None:
    a, b = Api(client), Api(client)
    resign_game(a, b, rated=True)
    server = client.app.state.server
    gone = server.moderation.delete_account(b.name)
    with server.runtime.sessions() as db:
        left = db.scalars(select(RatingChange)).all()
    assert [row.rank for row in left] == [1]  # a's row stays, b's went
    assert client.get(f"/api/players/{a.name}/ratings/drawbid").json()["points"][0]["rank"] == 1
    assert gone is not None
