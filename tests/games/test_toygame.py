"""A game packaged outside Ludoteca's tree is as complete as a built-in one.

The toy game, Sealed Bids, is its own distribution (tests/toygame: a package with the
layout of every game package, and a pyproject.toml declaring its entry point). Here it is
installed as an installer would make it visible, a ``*.dist-info`` with its entry points
on the path, and nothing else registers it. With no change anywhere in src/, the
platform finds all of it: the lobby lists it, a table of it is played over the API, its
board, players' pages, numbered rules and strings are served, the research adapters
accept it, and the conformance suite runs on it.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from fastapi.testclient import TestClient
from tests.server.conftest import Api, make_settings
from tests.server.helpers import play_out
from tests.toyinstall import TOYGAME, install_entry_points

from ludoteca.engine import registry
from ludoteca.games import available, load, register, registered, unregister
from ludoteca.server.app import create_app

ROOT = Path(__file__).resolve().parents[2]
GAME = "sealedbids"
PACKAGE = TOYGAME / "sealedbids"


def _forget_entry_points() -> None:
    # The registry reads the entry points once per process; an installation made while
    # the process runs is seen after this (a server sees it when it starts).
    registry._entry_points.cache_clear()
    registry._load_entry_point.cache_clear()


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The toy game installed through its entry point only (the session's registration
    of it, tests/conftest.py, set aside for the module)."""
    site = install_entry_points(tmp_path_factory.mktemp("site"))
    was_registered = any(game.id == GAME for game in registered())
    unregister(GAME)
    sys.path.insert(0, str(site))
    _forget_entry_points()
    try:
        yield site
    finally:
        sys.path.remove(str(site))
        _forget_entry_points()
        if was_registered:
            from sealedbids import SealedBids

            register(SealedBids())


@pytest.fixture
def client(installed: Path, tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(make_settings(f"sqlite:///{tmp_path / 'toy.db'}"))) as http:
        yield http


def test_it_is_found_through_its_entry_point(installed: Path) -> None:
    assert GAME in available() and GAME not in [game.id for game in registered()]
    assert type(load(GAME)).__module__ == "sealedbids.game"


def test_the_lobby_lists_it_and_a_table_of_it_is_played_over_the_api(client: TestClient) -> None:
    games = {g["id"]: g for g in client.get("/api/games").json()}
    assert games[GAME]["name"] == "Sealed Bids" and games[GAME]["max_seats"] == 4
    person = Api(client)
    r = person.post("/api/tables", {"game": GAME, "seats": 2, "options": {"rounds": 2}})
    assert r.status_code == 201, r.text
    table_id = r.json()["id"]
    assert person.post(f"/api/tables/{table_id}/bots", {"bot": "random"}).status_code == 200
    assert person.post(f"/api/tables/{table_id}/start").status_code == 200
    final = play_out({0: person}, table_id, random.Random(1))
    assert final["table"]["status"] == "over" and final["result"]["ranks"]


def test_its_board_help_pages_rules_and_strings_are_served(client: TestClient) -> None:
    board = client.get(f"/games/{GAME}.js")
    assert board.status_code == 200 and board.headers["content-type"].startswith("text/javascript")
    assert board.content == (PACKAGE / "web" / "board.js").read_bytes()
    css = client.get(f"/games/{GAME}.css")
    assert css.status_code == 200 and css.headers["content-type"].startswith("text/css")
    assert css.content == (PACKAGE / "web" / "board.css").read_bytes()
    again = client.get(f"/games/{GAME}.js", headers={"If-None-Match": board.headers["etag"]})
    assert again.status_code == 304 and not again.content
    for lang in ("en", "ja", "vi"):
        page = client.get(f"/rules/{GAME}/{lang}.md")
        assert page.status_code == 200 and page.text == (PACKAGE / "help" / f"{lang}.md").read_text(encoding="utf-8")
        assert client.get(f"/api/games/{GAME}/i18n/{lang}").json()["game.name"]
    picture = client.get(f"/rules/{GAME}/bids.svg")
    assert picture.status_code == 200 and picture.headers["content-type"] == "image/svg+xml"
    rules = client.get(f"/api/games/{GAME}/rules")
    assert rules.status_code == 200 and rules.text == (PACKAGE / "rules.md").read_text(encoding="utf-8")
    # Nothing outside the help folder is reachable, and an unknown game has no files.
    assert client.get(f"/rules/{GAME}/..%2Fgame.py").status_code == 404
    assert client.get(f"/rules/{GAME}/game.py").status_code == 404
    assert client.get("/games/nosuchgame.js").status_code == 404
    assert client.get("/games/iwari.css").status_code == 404  # a game without a style sheet


def test_the_research_adapters_accept_it(installed: Path) -> None:
    from ludoteca.rl import vocab
    from ludoteca.rl.observation import encoder
    from ludoteca.rl.pettingzoo import env

    assert GAME in vocab.games() and GAME in vocab.GAMES
    assert vocab.game_module(GAME).__name__ == "sealedbids.research"
    assert len(vocab.vocabulary(GAME, 3)) == 16 and encoder(GAME, 3).size > 0
    # A PettingZoo game played to its end by random legal actions.
    e = env(GAME, 3, seed=2)
    e.reset(seed=2)
    rng = np.random.default_rng(2)
    totals: dict[str, float] = {}
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _info = e.last()
        totals[agent] = totals.get(agent, 0.0) + reward
        e.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert len(totals) == 3 and abs(sum(totals.values())) < 1e-6
    # OpenSpiel: registered again (the module registers the games it sees on import).
    import pyspiel

    from ludoteca.rl import openspiel

    openspiel.register()
    game = pyspiel.load_game(openspiel.short_name(GAME), {"players": 2, "rounds": 2})
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert sum(state.returns()) == pytest.approx(0.0)


def test_the_conformance_suite_runs_on_it(installed: Path) -> None:
    """tests/engine/test_conformance.py, unchanged, in a process that sees the toy game
    only through its installed entry point (tests/conftest.py registers it only when it
    is not installed)."""
    env = {name: value for name, value in os.environ.items() if not name.startswith("PYTEST_")}  # not a worker
    env["PYTHONPATH"] = os.pathsep.join([str(installed), str(TOYGAME)])
    seen = subprocess.run([sys.executable, "-c", "import tests.conftest\nfrom ludoteca.games import load, registered\n"
                           f"print(load({GAME!r}).id, [g.id for g in registered()])"],
                          capture_output=True, text=True, cwd=ROOT, env=env, timeout=120)
    assert seen.stdout.split() == [GAME, "[]"], seen.stdout + seen.stderr
    run = subprocess.run([sys.executable, "-m", "pytest", "tests/engine/test_conformance.py", "-q", "-x",
                          "-p", "no:cacheprovider", "-k", GAME],
                         capture_output=True, text=True, cwd=ROOT, env=env, timeout=600)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
    assert " passed" in run.stdout and "failed" not in run.stdout
