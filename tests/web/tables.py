"""Helpers for browser tests that play a real table: set one up from the lobby with
instant random bots, wait for the person's turn, play a move the way a person would."""

from __future__ import annotations

import random

from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

SETUPS: dict[str, int] = {"bloodrage": 3, "crusaders": 3, "iwari": 3, "hadrianswall": 2}
"""Seats per game for the phone and accessibility tests (the person and random bots)."""


def create_table(page: Page, game: str, seats: int) -> None:
    """From the lobby: a table of ``game`` with the instant random bot in every other seat,
    started."""
    page.locator(f"[data-game={game}] button.primary").click()
    form = page.locator("#create-form")
    expect(form).to_be_visible()
    form.locator("#create-seats").select_option(str(seats))
    if seats > 1:
        expect(form.locator("input[name=bot]")).to_have_count(seats - 1)
        form.locator("#create-bot").select_option("random")
    form.locator("#create-submit").click()
    start = page.locator("#start")
    expect(start.or_(page.locator("#board svg").first)).to_be_visible()
    if start.is_visible():
        start.click()


def wait_for_turn(page: Page) -> bool:
    """True once the person has a move (and the board has drawn it), False once the game
    is over."""
    page.wait_for_function(
        "() => { const s = window.ludotecaTable && window.ludotecaTable.state;"
        " if (!s || !s.table) return false;"
        " if (s.table.status === 'over') return true;"
        " return !s.busy && s.legal.length > 0 && document.querySelector('#moves button.move:not([disabled])'); }")
    # The board view fits itself on the next frame.
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
    return page.evaluate("window.ludotecaTable.state.table.status") != "over"


def open_move_list(page: Page) -> None:
    """Open the full list of moves (collapsed under the status bar when the board takes
    moves itself), as a keyboard player would before choosing from it."""
    page.evaluate("() => { const d = document.querySelector('#all-moves'); if (d) d.open = true; }")


def play_one(page: Page, pick: random.Random, keyboard: bool = False) -> None:
    """Play a move as a person would: a control on the board when there is one (a step of a
    two-step choice counts), else a button of the move list; by mouse or by keyboard. A move
    the server refused because a bot's overtook it (the page says so, and shows the new
    position) is played again, as a person would, twice at most."""
    for _ in range(3):
        if _play_once(page, pick, keyboard):
            return
        page.wait_for_function("() => !window.ludotecaTable.state.busy")
        if not wait_for_turn(page):
            return
    raise AssertionError(f"the move was refused three times: {page.locator('#refusal').inner_text()}")


def _play_once(page: Page, pick: random.Random, keyboard: bool) -> bool:
    """True once the move is acknowledged (or the game is over), False when it was refused."""
    before = page.evaluate("[window.ludotecaTable.state.acks, window.ludotecaTable.state.version]")
    acked = "([acks]) => window.ludotecaTable.state.acks > acks"
    for attempt in range(4):
        targets = page.locator("#board [data-move], #board [data-select]")
        count = targets.count()
        # A first step (a figure picked, not yet moved) plays nothing: after three of them
        # the list of moves decides.
        board = count and attempt < 3
        if not board:
            open_move_list(page)
        target = targets.nth(pick.randrange(count)) if board else page.locator("#moves button.move").first
        for _ in range(5):
            # The list closes again when the board's first drawing takes moves (the page
            # may draw it between opening and clicking): open it again and retry.
            if not board:
                open_move_list(page)
            try:
                if keyboard:
                    target.focus(timeout=3000)
                    page.keyboard.press("Enter")
                else:
                    target.click(timeout=3000)
                break
            except PlaywrightTimeout:
                continue
        page.wait_for_timeout(60)
        if page.evaluate(acked, before) or page.evaluate("window.ludotecaTable.state.busy"):
            break
    page.wait_for_function("([acks, version]) => { const s = window.ludotecaTable.state;"
                           " return (s.acks > acks && s.version > version && !s.busy) || s.table.status === 'over'"
                           " || (!s.busy && !document.querySelector('#refusal').hidden); }",
                           arg=before)
    return page.evaluate("([acks]) => { const s = window.ludotecaTable.state;"
                         " return s.acks > acks || s.table.status === 'over'; }", before)
