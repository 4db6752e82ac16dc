"""A seat whose player left or ran out of time goes to the bot level whose measured
rating is nearest the player's (or the level the table names), chosen once, stored, the
same in every process; not the random bot."""

from __future__ import annotations

from sqlalchemy import func, select

from ludoteca.bots import level_names
from ludoteca.bots.ratings import DEFAULT_ZOMBIE_LEVEL, level_ratings, zombie_level
from ludoteca.server.kernel.clock import now
from ludoteca.server.kernel.models import GameTable, Rating, User, ZombieChoice, ZombieOption
from ludoteca.server.seatbots.zombies import ZombieLevels, choose
from ludoteca.server.tables.zombie_option import known_levels
from tests.server.conftest import Api, new_table
from tests.server.helpers import wait_for


def test_the_nearest_measured_level_to_the_players_rating() -> None:
    for game_id, levels in level_ratings().items():
        strongest = max((lv for lv in levels if lv != "random"), key=lambda lv: levels[lv]["mu"])
        weakest = min((lv for lv in levels if lv != "random"), key=lambda lv: levels[lv]["mu"])
        # A player rated high gets the strongest level, a weak one the weakest level, never random.
        assert choose(game_id, None, 60.0) == (strongest, "rating"), game_id
        assert choose(game_id, None, -20.0) == (weakest, "rating"), game_id
        for level in level_names():  # a player rated as a level gets that level
            assert zombie_level(game_id, levels[level]["mu"]) == level, (game_id, level)
    # Blood Rage: hard 39.97, normal 31.64, easy 18.76 (bots/data/level_ratings.json).
    assert zombie_level("bloodrage", 36.0) == "hard" and zombie_level("bloodrage", 35.0) == "normal"
    # A tie goes to the weaker level.
    bloodrage = level_ratings()["bloodrage"]
    middle = (bloodrage["easy"]["mu"] + bloodrage["normal"]["mu"]) / 2
    assert zombie_level("bloodrage", middle) == "easy"


def test_a_new_player_gets_the_default_and_the_table_option_wins() -> None:
    assert DEFAULT_ZOMBIE_LEVEL == "easy" and DEFAULT_ZOMBIE_LEVEL in level_names()
    assert choose("bloodrage", None, None) == ("easy", "default")
    assert choose("drawbid", None, 40.0) == ("easy", "rating")  # a game with no measured levels
    assert choose("bloodrage", "normal", 60.0) == ("normal", "table")
    assert choose("bloodrage", "random", None) == ("random", "table")
    assert choose("bloodrage", "gone-level", None) == ("easy", "default")  # no longer offered
    assert known_levels() == ["random", *level_names()]


def _user(server, name: str, mu: float | None, game: str = "bloodrage", guest: bool = False) -> int:
    with server.runtime.transaction() as db:
        user = User(username=name, username_key=name, guest=guest, created_at=now())
        db.add(user)
        db.flush()
        if mu is not None:
            db.add(Rating(user_id=user.id, game=game, mu=mu, sigma=3.0, played=40))
        return user.id


def test_the_choice_is_made_once_stored_and_shared(client) -> None:
    server = client.app.state.server
    a = Api(client)
    table_id = a.post("/api/tables", {"game": "drawbid", "seats": 3}).json()["id"]
    strong, new, guest = _user(server, "strong-one", 45.0), _user(server, "new-one", None), \
        _user(server, "guest-one", 45.0, guest=True)
    levels = ZombieLevels(server.runtime)
    assert levels.level(table_id, "bloodrage", 0, strong) == "hard"
    assert levels.level(table_id, "bloodrage", 1, new) == DEFAULT_ZOMBIE_LEVEL
    assert levels.level(table_id, "bloodrage", 2, guest) == DEFAULT_ZOMBIE_LEVEL  # a guest has no rating
    with server.runtime.transaction() as db:  # the player's rating moves on: the seat's bot does not
        db.get(Rating, (strong, "bloodrage")).mu = 10.0
    other_process = ZombieLevels(server.runtime)
    assert other_process.level(table_id, "bloodrage", 0, strong) == "hard"
    assert other_process.stored(table_id) == {0: "hard", 1: "easy", 2: "easy"}
    with server.runtime.sessions() as db:
        row = db.get(ZombieChoice, (table_id, 0))
        assert (row.level, row.basis, row.mu) == ("hard", "rating", 45.0)
        assert db.get(ZombieChoice, (table_id, 1)).basis == "default"
    # Deterministic: a fresh table and the same ratings choose the same.
    with server.runtime.transaction() as db:
        db.get(Rating, (strong, "bloodrage")).mu = 45.0
    again = a.post("/api/tables", {"game": "drawbid", "seats": 3}).json()["id"]
    assert ZombieLevels(server.runtime).level(again, "bloodrage", 0, strong) == "hard"


def test_the_table_option_names_the_level_of_a_seat_whose_player_left(client) -> None:
    server = client.app.state.server
    a, b = Api(client), Api(client)
    table_id = new_table(a, [b], zombie_level="normal")
    assert b.post(f"/api/tables/{table_id}/leave").status_code == 200
    assert a.move(table_id, 0, {"type": "draw"}).status_code == 200
    # The bot plays b's seat, with the level the table named, stored once.
    wait_for(lambda: a.table(table_id)["version"] >= 2)
    with server.runtime.sessions() as db:
        row = db.get(ZombieChoice, (table_id, 1))
        assert (row.level, row.basis) == ("normal", "table")
        assert db.get(ZombieOption, table_id).level == "normal"


def test_a_player_who_left_gets_a_level_not_the_random_bot(client) -> None:
    server = client.app.state.server
    a, b = Api(client), Api(client)
    table_id = new_table(a, [b])
    assert b.post(f"/api/tables/{table_id}/leave").status_code == 200
    assert a.move(table_id, 0, {"type": "draw"}).status_code == 200
    wait_for(lambda: a.table(table_id)["version"] >= 2)
    with server.runtime.sessions() as db:
        row = db.get(ZombieChoice, (table_id, 1))
        assert (row.level, row.basis) == (DEFAULT_ZOMBIE_LEVEL, "default")  # b has no drawbid rating


def test_an_unknown_level_is_refused_and_nothing_is_made(client) -> None:
    server = client.app.state.server
    a = Api(client)
    with server.runtime.sessions() as db:
        before = db.scalar(select(func.count()).select_from(GameTable))
    for bad, code in (("godlike", "unknown_level"), (3, None), ("x" * 41, None)):
        r = a.post("/api/tables", {"game": "drawbid", "zombie_level": bad})
        assert r.status_code == 422, r.text
        assert code is None or r.json()["code"] == code
    with server.runtime.sessions() as db:
        assert db.scalar(select(func.count()).select_from(GameTable)) == before
    spec = client.get("/openapi.json").json()["components"]["schemas"]["NewTable"]["properties"]["zombie_level"]
    assert spec["enum"][:-1] == known_levels()


def test_a_rematch_keeps_the_option(client) -> None:
    server = client.app.state.server
    a, b = Api(client), Api(client)
    table_id = new_table(a, [b], zombie_level="hard")
    assert b.post(f"/api/tables/{table_id}/resign").json()["over"]
    r = a.post(f"/api/tables/{table_id}/rematch")
    assert r.status_code == 201, r.text
    with server.runtime.sessions() as db:
        assert db.get(ZombieOption, r.json()["id"]).level == "hard"
