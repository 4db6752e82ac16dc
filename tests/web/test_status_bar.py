"""The table's compact status bar, in Chromium against a real server, for each game at
1440 x 900: the board starts near the top of the page (not under a wall of move buttons);
the prompt and the clock stay pinned while the page scrolls the board; the moves the
board can take are not repeated as buttons above it, and the full list of moves is still
there, collapsed in a <details>, for keyboard and screen-reader players.

Run with `-s` to see where the board starts on each game's first turn."""

from __future__ import annotations

import random

import pytest
from playwright.sync_api import expect

from tests.web.tables import SETUPS, create_table, play_one, wait_for_turn

pytestmark = pytest.mark.browser

WIDE = {"width": 1440, "height": 900}
TURNS = 8
"""The person's turns measured per game (the board's start is the furthest down of them)."""
BOARD_TOP_MAX = 330
"""Where the board may start at most (px from the top of the page): the header, the
table's heading and one compact bar. Today's client started it at 650-1000 px."""

MEASURE = """() => {
  const top = (sel) => { const el = document.querySelector(sel);
    return el ? Math.round(el.getBoundingClientRect().top + scrollY) : null; };
  const bar = [...document.querySelectorAll('#bar-moves button.move')].length;
  const details = document.querySelector('#all-moves');
  const shown = (sel) => { const el = document.querySelector(sel); return !!el && !el.hidden; };
  return { board: top('#board-panel'), bar, listed: document.querySelectorAll('#moves button.move').length,
           collapsed: !!details && !details.open && !!details.querySelector('#moves'),
           notice: shown('#refusal') || shown('#banner') };
}"""


CLOSED = "() => { const d = document.querySelector('#all-moves'); return !!d && !d.open; }"


@pytest.mark.parametrize("game", sorted(SETUPS))
def test_the_board_starts_near_the_top_and_the_prompt_stays_pinned(server, new_page, game: str) -> None:  # type: ignore[no-untyped-def]
    page = new_page(server.url, viewport=WIDE)
    create_table(page, game, SETUPS[game])
    pick = random.Random(31)
    worst: dict = {"board": 0}  # type: ignore[type-arg]
    first = None
    plain = 0
    for _ in range(TURNS):
        assert wait_for_turn(page)
        figures = page.evaluate(MEASURE)
        first = first or figures
        # A refused move (a bot's move came first, on a loaded machine) or the reconnecting
        # banner adds its line above the board until the next move: the bound is for the
        # page as it stands between such notices.
        if not figures["notice"]:
            plain += 1
            if figures["board"] > worst["board"]:
                worst = figures
        closed = page.evaluate(CLOSED)
        play_one(page, pick)
        # play_one opens the full list to play from it when the board offers no control at
        # that moment (a reader's own opening, which the page keeps while the board takes
        # moves); that reader closes it again, so the next turn measures the page's layout.
        if closed:
            page.evaluate("() => { const d = document.querySelector('#all-moves'); if (d) d.open = false; }")
    assert plain >= TURNS // 2, f"only {plain} of {TURNS} turns came without a notice"
    assert wait_for_turn(page)
    print(f"\n{game}: board starts at {worst['board']} px at most over {TURNS} turns; then {worst['bar']} moves"
          f" in the bar, {worst['listed']} in the full list")
    assert worst["board"] <= BOARD_TOP_MAX, worst
    # The full list is there, collapsed at the first decision (the plays since may have
    # opened it, as a person may: it stays as they left it), and opens from the keyboard.
    assert first is not None and first["collapsed"], first
    page.evaluate("() => { document.querySelector('#all-moves').open = false; }")
    summary = page.locator("#all-moves > summary")
    summary.focus()
    page.keyboard.press("Enter")
    expect(page.locator("#moves button.move").first).to_be_visible()
    page.keyboard.press("Enter")
    expect(page.locator("#moves button.move").first).to_be_hidden()
    # Every move in the bar has no control on the board.
    on_board = set(page.locator("#board [data-move]").evaluate_all("(els) => els.map((e) => e.dataset.move)"))
    in_bar = page.locator("#bar-moves button.move").evaluate_all("(els) => els.map((e) => e.dataset.move)")
    assert not on_board.intersection(in_bar)
    # Scrolled down the board: the prompt is still on the screen, pinned at the top.
    page.evaluate("() => window.scrollTo(0,"
                  " document.querySelector('#board-panel').getBoundingClientRect().top + scrollY + 400)")
    page.wait_for_timeout(50)
    prompt = page.locator("#prompt").bounding_box()
    assert prompt is not None and 0 <= prompt["y"] < 120, prompt
    assert page.evaluate("getComputedStyle(document.querySelector('#prompt-panel')).position") == "sticky"
