"""A game installed from outside Ludoteca's tree, in a real Chromium: a server that only
sees the toy game through its installed entry point (no registration, no change in
src/) lists it, draws its board from the module its package ships, plays a card clicked
on that board, and shows its players' rules with their picture."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator

import pytest
from playwright.sync_api import expect

from ludoteca.testing.launch import ServerProcess, free_port
from tests.toyinstall import TOYGAME, install_entry_points
from tests.web.conftest import ROOT, screenshot

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def toy_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    workdir = tmp_path_factory.mktemp("toy-server")
    site = install_entry_points(workdir / "site")
    port = free_port()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), str(TOYGAME)]),
           "LUDOTECA_DATABASE_URL": f"sqlite:///{workdir / 'web.db'}", "PYTHONUNBUFFERED": "1",
           "LUDOTECA_PASSWORD_TIME_COST": "1", "LUDOTECA_PASSWORD_MEMORY_KIB": "1024"}
    env.pop("LUDOTECA_REDIS_URL", None)
    proc = ServerProcess([sys.executable, "-m", "tests.serve", str(port)],  # registers no game itself
                         port=port, env=env, cwd=ROOT, log=workdir / "server.log")
    proc.start()
    yield proc
    proc.stop(5)


def test_an_installed_games_board_is_drawn_and_played(toy_server: ServerProcess, new_page) -> None:
    page = new_page(toy_server.url)
    page.locator("[data-game=sealedbids] button.primary").click()
    form = page.locator("#create-form")
    expect(form).to_be_visible()
    form.locator("#create-bot").select_option("random")
    form.locator("#create-submit").click()
    expect(page.locator("#waiting")).to_be_visible()
    page.locator("#start").click()
    # The board module of the game's package (web/board.js), with its own strings.
    board = page.locator("#board svg[aria-label='The table']")
    expect(board).to_be_visible()
    cards = page.locator("#board .hand-card")
    expect(cards).to_have_count(5)
    # Its own style sheet (web/board.css), loaded from /games/sealedbids.css.
    page.wait_for_function("() => [...document.styleSheets]"
                           ".some((s) => (s.href || '').endsWith('/games/sealedbids.css') && s.cssRules.length > 0)")
    before = page.evaluate("window.ludotecaTable.state.acks")
    cards.first.click()
    page.wait_for_function("(n) => window.ludotecaTable.state.acks > n", arg=before)
    screenshot(page, "toygame-board-desktop")


def test_an_installed_games_players_rules_are_shown(toy_server: ServerProcess, new_page) -> None:
    page = new_page(f"{toy_server.url}/#/help/sealedbids", locale="ja-JP")
    rules = page.locator("#rules")
    expect(rules).to_have_attribute("data-kind", "players")
    expect(rules).to_have_attribute("lang", "ja")
    picture = rules.locator("img.rules-picture")
    expect(picture).to_have_count(1)
    picture.scroll_into_view_if_needed()
    page.wait_for_function("(img) => img.complete && img.naturalWidth > 0", arg=picture.element_handle())
    expect(page.locator("#numbered-rules")).to_have_attribute("href", "/api/games/sealedbids/rules")
