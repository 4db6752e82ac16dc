"""What the browser client reads beyond the table's own paths (docs/web.md): a game's
strings and rules, the prompts, who is online, replay frames (never another seat's
secret) and a profile's recent games."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from ludoteca.games import load
from ludoteca.server.http import content
from tests.server.conftest import Api, new_table
from tests.server.drawbid import GAME
from tests.server.helpers import play_out, receive_until, states_by_version

ROOT = Path(__file__).resolve().parents[3]
BUILT_IN = ("bloodrage", "crusaders", "hadrianswall", "iwari")


# -- strings and rules ------------------------------------------------------------------


@pytest.mark.parametrize("game", BUILT_IN)
def test_a_games_strings_are_its_packages_files(client, game):
    for lang in ("en", "ja", "vi"):
        r = client.get(f"/api/games/{game}/i18n/{lang}")
        assert r.status_code == 200 and r.headers["content-type"].startswith("application/json")
        path = ROOT / "src" / "ludoteca" / "games" / game / "i18n" / f"{lang}.json"
        assert r.json() == json.loads(path.read_text(encoding="utf-8"))


def test_strings_errors(client):
    for path, code in (("/api/games/nosuchgame/i18n/en", "no_game"), ("/api/games/iwari/i18n/fr", "no_language"),
                       ("/api/games/iwari/i18n/..%2F..%2Fpyproject", "not_found"),
                       ("/api/games/iwari/i18n/en.json", "no_language"),
                       ("/api/games/drawbid/i18n/en", "no_strings")):  # the test game has no files
        r = client.get(path)
        assert r.status_code == 404 and r.json()["code"] == code, path
        assert r.json()["message"]


def test_strings_are_found_through_the_games_own_package(tmp_path, monkeypatch):
    """A game installed as a separate package serves the strings and rules it ships."""
    package = tmp_path / "extgame"
    (package / "i18n").mkdir(parents=True)
    (package / "__init__.py").write_text(
        "from tests.server.drawbid import DrawBid\n\n"
        "class ExtGame(DrawBid):\n    id = 'extgame'\n")
    (package / "i18n" / "en.json").write_text('{"extgame.turn": "Your go"}')
    (package / "rules.md").write_text("# Ext rules\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    from ludoteca.games import register, unregister

    module = __import__("extgame")
    register(module.ExtGame())
    try:
        assert content.strings("extgame", "en") == {"extgame.turn": "Your go"}
        assert content.rules("extgame") == "# Ext rules\n"
        with pytest.raises(content.ApiError) as refused:
            content.strings("extgame", "ja")
        assert refused.value.code == "no_strings"
    finally:
        unregister("extgame")


@pytest.mark.parametrize("game", BUILT_IN)
def test_a_games_rules_are_its_packages_rules(client, game):
    r = client.get(f"/api/games/{game}/rules")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/markdown")
    assert r.text == (ROOT / "src" / "ludoteca" / "games" / game / "rules.md").read_text(encoding="utf-8")


def test_rules_errors(client):
    r = client.get("/api/games/nosuchgame/rules")
    assert r.status_code == 404 and r.json()["code"] == "no_game"
    r = client.get("/api/games/drawbid/rules")  # no rules.md in its package
    assert r.status_code == 404 and r.json()["code"] == "no_rules" and "rules.md" in r.json()["message"]


def test_docs_rules_link_to_the_one_copy():
    """The numbered rules live in the game's package (rules.md, served from an installed
    wheel as well); docs/rules/<id>.md is a link to it, never a second copy that could drift."""
    for game in BUILT_IN:
        docs = ROOT / "docs" / "rules" / f"{game}.md"
        assert docs.is_symlink(), game
        assert docs.resolve() == (ROOT / "src" / "ludoteca" / "games" / game / "rules.md").resolve(), game
        assert load(game).id == game


# -- prompts, presence, creator -----------------------------------------------------------


def test_prompts_only_the_readers_own(client):
    a, b = Api(client), Api(client)
    table_id = new_table(a, [b])
    assert a.table(table_id)["prompts"] == [{"seat": 0, "prompt": {"key": "drawbid.turn", "args": {}}}]
    assert b.table(table_id)["prompts"] == [] and b.table(table_id)["pending"] == [0]
    assert client.get(f"/api/tables/{table_id}").json()["prompts"] == []
    a.move(table_id, 0, {"type": "pass"})
    b.move(table_id, 1, {"type": "pass"})
    # The simultaneous bid: both are asked; each reads only its own prompt.
    for seat, api in ((0, a), (1, b)):
        snap = api.table(table_id)
        assert snap["pending"] == [0, 1]
        assert snap["prompts"] == [{"seat": seat, "prompt": {"key": "drawbid.bid", "args": {}}}]
    path = f"/api/tables/{table_id}/live"
    with client.websocket_connect(path, headers=b.headers) as wb:
        update = receive_until(wb, lambda m: m["type"] == "update" and m.get("version") == 2)
        assert update["prompts"] == [{"seat": 1, "prompt": {"key": "drawbid.bid", "args": {}}}]
        a.move(table_id, 2, {"type": "bid", "card": a.table(table_id)["view"]["hand"][0]})
        update = receive_until(wb, lambda m: m["type"] == "update" and m.get("version") == 3)
        assert update["pending"] == [1] and update["prompts"][0]["seat"] == 1


def test_connected_spectators_and_creator(client):
    a, b = Api(client), Api(client)
    table_id = new_table(a, [b], bots=1)
    table = a.table(table_id)["table"]
    assert table["creator"] == a.name and table["spectators"] == 0
    assert [p["connected"] for p in table["players"]] == [False, False, False]
    path = f"/api/tables/{table_id}/live"
    with client.websocket_connect(path, headers=a.headers) as wa:
        receive_until(wa, lambda m: m["type"] == "update")
        with client.websocket_connect(path) as watcher:
            update = receive_until(wa, lambda m: m["type"] == "update" and m["table"]["spectators"] == 1)
            assert [p["connected"] for p in update["table"]["players"]] == [True, False, False]
            receive_until(watcher, lambda m: m["type"] == "update")
            with client.websocket_connect(path, headers=b.headers) as wb:
                update = receive_until(wa, lambda m: m["type"] == "update"
                                       and m["table"]["players"][1]["connected"])
                assert update["table"]["spectators"] == 1
                assert b.table(table_id)["table"]["players"][1]["connected"]
                receive_until(wb, lambda m: m["type"] == "update")
            # b went away: everyone still here is told.
            update = receive_until(wa, lambda m: m["type"] == "update"
                                   and not m["table"]["players"][1]["connected"])
            assert update["table"]["players"][0]["connected"]
    # A creator who leaves an open table hands it to the next person seated (the host).
    c = Api(client)
    other = c.post("/api/tables", {"game": "drawbid", "seats": 2}).json()["id"]
    assert a.table(other)["table"]["creator"] == c.name
    a.post(f"/api/tables/{other}/join")
    c.post(f"/api/tables/{other}/leave")
    assert a.table(other)["table"]["creator"] == a.name


# -- replays ---------------------------------------------------------------------------


def test_replay_frames_from_each_point_of_view_without_secrets(client):
    a, b, c = Api(client), Api(client), Api(client)
    table_id = new_table(a, [b, c])
    assert a.get(f"/api/tables/{table_id}/replay").json()["code"] == "record_hidden"
    final = play_out({0: a, 1: b, 2: c}, table_id, random.Random(5))
    record = a.get(f"/api/tables/{table_id}/record").json()
    states = states_by_version(record, list(range(len(record["moves"]) + 1)))
    checked = hidden = 0
    for seat in (None, 0, 1, 2):
        r = client.get(f"/api/tables/{table_id}/replay", params={} if seat is None else {"seat": seat})
        assert r.status_code == 200, r.text
        frames = r.json()["frames"]
        assert len(frames) == final["moves"] + 1
        assert frames[0]["seat"] is None and frames[0]["move"] is None and frames[0]["version"] == 0
        for number, frame in enumerate(frames):
            match = states[number]
            assert frame["version"] == number
            assert frame["view"] == match.view(seat)
            assert frame["pending"] == sorted(set(match.pending()))
            assert all(p["seat"] == seat for p in frame["prompts"])
            if number:
                assert frame["seat"] == record["moves"][number - 1][0]
                if frame["move"] is None:
                    assert frame["hidden"] and frame["seat"] != seat
                    hidden += 1
                else:
                    assert frame["move"] == record["moves"][number - 1][1]
            text = json.dumps(frame)
            for owner, strings in GAME.secrets(match.state).items():
                if owner is None or owner != seat:
                    for secret in strings:
                        assert json.dumps(secret) not in text, (seat, number, owner, secret)
                        checked += 1
        # The events of all frames are the log the seat may read, in order.
        keys = [e["key"] for f in frames for e in f["events"]]
        reader = {0: a, 1: b, 2: c}.get(seat)
        log = (reader.get if reader else client.get)(f"/api/tables/{table_id}/log").json()["events"]
        assert keys == [e["key"] for e in log]
    assert checked > 100 and hidden > 0  # other seats' bids were kept out of the frames
    assert client.get(f"/api/tables/{table_id}/replay", params={"seat": 3}).json()["code"] == "bad_seat"


def test_replay_of_a_public_record_before_the_end(client):
    a, b = Api(client), Api(client)
    table_id = new_table(a, [b], record_public=True)
    a.move(table_id, 0, {"type": "draw"})
    drawn = a.table(table_id)["view"]["hand"]
    spectator = client.get(f"/api/tables/{table_id}/replay").json()
    assert len(spectator["frames"]) == 2 and spectator["frames"][1]["move"] == {"type": "draw"}
    assert not any(json.dumps(card) in json.dumps(spectator) for card in drawn)
    own = a.get(f"/api/tables/{table_id}/replay", params={"seat": 0}).json()
    assert own["frames"][1]["view"]["hand"] == drawn
    # Another seat's point of view only once the game is over.
    for reader in (b, None):
        r = (reader.get if reader else client.get)(f"/api/tables/{table_id}/replay", params={"seat": 0})
        assert r.status_code == 403 and r.json()["code"] == "not_your_seat"


def test_replay_of_a_private_table(client):
    a, b = Api(client), Api(client)
    table_id = new_table(a, [b], private=True)
    assert b.get(f"/api/tables/{table_id}/replay").status_code == 403
    assert Api(client).get(f"/api/tables/{table_id}/replay").json()["code"] == "private_table"
    assert client.get("/api/tables/nope/replay").json()["code"] == "no_table"


# -- profiles ------------------------------------------------------------------------------


def test_a_profile_lists_recent_games(client):
    a, b = Api(client), Api(client)
    first = new_table(a, [b])
    play_out({0: a, 1: b}, first, random.Random(7))
    second = new_table(b, [a])  # a sits at seat 1 here
    final = play_out({0: b, 1: a}, second, random.Random(8))
    hidden = new_table(a, [b], private=True)
    play_out({0: a, 1: b}, hidden, random.Random(9))
    new_table(a, [b])  # not finished: not listed
    profile = client.get(f"/api/players/{a.name}").json()
    recent = profile["recent"]
    assert [r["id"] for r in recent] == [second, first]  # the latest first; private tables left out
    assert recent[0]["rank"] == final["result"]["ranks"][1] and recent[0]["game"] == "drawbid"
    assert all(r["finished_at"].endswith("Z") for r in recent)
    assert profile["games_played"] == 2  # a profile is public: the private table counts neither
    assert client.get(f"/api/players/{Api(client).name}").json()["recent"] == []
