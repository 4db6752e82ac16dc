"""Browser tests: Debian's Chromium driven by Playwright against a real uvicorn server
(in a subprocess, on a free loopback port, with a temporary SQLite database).

Screenshots go to .playwright/screenshots/ (or $LUDOTECA_SCREENSHOTS), to be looked at.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ludoteca.testing.launch import ONE_ADDRESS_LOAD, ServerProcess, free_port

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]
ROOT = Path(__file__).resolve().parents[2]
SHOTS = Path(os.environ.get("LUDOTECA_SCREENSHOTS", ROOT / ".playwright" / "screenshots"))
DESKTOP = {"width": 1280, "height": 860}
PHONE = {"width": 390, "height": 780}
BOARD_FAILED = "the board failed to draw"
"""What the table page logs (web/js/table/boardpanel.js) when a game module's render throws."""
PROBE_ROOT = """
  let root = document.getElementById('probe');
  if (!root) {
    root = document.createElement('div');
    root.id = 'probe';
    root.className = 'board';
    // Beside the page, not in it: the page redraws its own content now and then.
    document.querySelector('main').hidden = true;
    document.body.append(root);
  }
"""
"""JavaScript for a page.evaluate that draws a board straight from a game module: ``root``,
an element for the board beside the page's own content (``#probe``), made once."""

TABLE_PROBE = """
  document.querySelector('main').hidden = true;
  let frame = document.getElementById('table-probe');
  if (!frame) {
    frame = document.createElement('main');
    frame.id = 'table-probe';
    frame.innerHTML = '<div class="table-page"><div class="mainline">'
      + '<section class="panel" id="board-panel"></section></div>'
      + '<div class="side"><section class="panel"></section></div></div>';
    document.body.append(frame);
  }
  const panel = frame.querySelector('#board-panel');
"""
"""JavaScript for a page.evaluate that lays out the table page round a board, beside the
page's own content: ``panel``, the board's panel (``#board-panel``) in the table's columns
and styles (a board drawn there, in the frame's viewport, gets the table's sizes), made once."""

try:
    from playwright.sync_api import Browser, Page, sync_playwright
except ImportError:  # pragma: no cover - the dev extra installs it
    sync_playwright = None


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    reason = None
    if sync_playwright is None:
        reason = "the playwright package is not installed (pip install -e '.[dev]')"
    elif not Path(CHROMIUM).exists():
        reason = f"no Chromium at {CHROMIUM} (make browser installs Debian's chromium)"
    for item in items:
        if reason and item.get_closest_marker("browser") is not None:
            item.add_marker(pytest.mark.skip(reason=reason))


def web_server(workdir: Path) -> ServerProcess:
    """`python -m tests.serve PORT` (with the test game) with its own database; can be killed and
    started again on the same port and database (a server restart)."""
    port = free_port()
    env = {**os.environ, "LUDOTECA_DATABASE_URL": f"sqlite:///{workdir / 'web.db'}",
           "LUDOTECA_LOGIN_ATTEMPTS_PER_MINUTE": "1000", "PYTHONUNBUFFERED": "1",
           # A cheap password hash, as the server tests use: the default one took longer
           # than a browser assertion waits on a loaded 2-core machine (sign-up timed out).
           "LUDOTECA_PASSWORD_TIME_COST": "1", "LUDOTECA_PASSWORD_MEMORY_KIB": "1024", **ONE_ADDRESS_LOAD}
    env.pop("LUDOTECA_REDIS_URL", None)
    return ServerProcess([sys.executable, "-m", "tests.serve", str(port), "sealedbids:SealedBids"],
                         port=port, env=env, cwd=ROOT, log=workdir / "server.log")


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    proc = web_server(tmp_path_factory.mktemp("web-server"))
    proc.start()
    yield proc
    proc.stop(5)


@pytest.fixture
def own_server(tmp_path: Path) -> Iterator[ServerProcess]:
    """A server for one test that stops and restarts it."""
    with started(tmp_path) as proc:
        yield proc


@contextlib.contextmanager
def started(workdir: Path, monkeypatch: pytest.MonkeyPatch | None = None, **env: str) -> Iterator[ServerProcess]:
    """A server of its own (``web_server``), with ``env`` (LUDOTECA_* settings) set for it,
    stopped at the end."""
    for key, value in env.items():
        assert monkeypatch is not None, "settings need the monkeypatch fixture"
        monkeypatch.setenv(key, value)
    proc = web_server(workdir)
    proc.start()
    try:
        yield proc
    finally:
        proc.stop(5)


def frame_strings(lang: str) -> dict[str, Any]:
    """The frame's string table in ``lang`` (web/i18n), to check the words a page shows."""
    return json.loads((ROOT / "src" / "ludoteca" / "web" / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    assert sync_playwright is not None
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def new_page(browser: Browser) -> Iterator:
    """new_page(url, locale=..., viewport=...): a fresh browser profile (its own cookies
    and storage) per page, so two pages can be two people. Page errors fail the test."""
    contexts = []
    errors: list[str] = []

    def make(url: str, locale: str = "en-US", viewport: dict[str, int] | None = None) -> Page:
        # Playwright's wait_for_function evaluates its text with eval, which the page's
        # Content-Security-Policy forbids; tests/web/test_security_headers.py checks the
        # policy in a context of its own.
        context = browser.new_context(locale=locale, viewport=viewport or DESKTOP, bypass_csp=True)
        context.set_default_timeout(15_000)
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        # The table catches a game module's drawing error and falls back to the generic board,
        # so a person can still play; a test must not pass over it.
        page.on("console", lambda message: errors.append(message.text)
                if message.type == "error" and message.text.startswith(BOARD_FAILED) else None)
        page.goto(url)
        return page

    yield make
    for context in contexts:
        context.close()
    assert not errors, f"errors in the page: {errors}"


def screenshot(page: Page, name: str, viewport: dict[str, int] | None = None) -> Path:
    """Save a full-page screenshot (at another viewport size if given)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    if viewport:
        page.set_viewport_size(viewport)
    path = SHOTS / f"{name}.png"
    page.screenshot(path=path, full_page=True)
    return path
