"""Accessibility in Chromium against a real server:

- axe-core (axe-playwright-python) finds no serious or critical violation on the lobby,
  each game's table during play (desktop and phone), a replay and the help pages;
- every move can be made from the keyboard alone: every control on a board takes the focus
  (tabindex or a native button), shows it, and Enter plays it (whole turns played so);
- seats stay told apart by shape as well as colour: every seat's shape differs from every
  other's, and every shape filled with the colour of a seat at the table is that seat's
  shape or sits in a drawing (a piece, a sheet) that carries that seat's shape and no
  other's (the palette's other colours may mean other things: a token, a button).
"""

from __future__ import annotations

import random

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, expect

from tests.web.conftest import DESKTOP
from tests.web.tables import SETUPS, create_table, play_one, wait_for_turn

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
SERIOUS = {"serious", "critical"}
GAMES = list(SETUPS)


def serious_violations(page: Page) -> list[str]:
    """axe-core's serious and critical findings on the page as it is now."""
    results = Axe().run(page)
    out = []
    for v in results.response["violations"]:
        if v.get("impact") in SERIOUS:
            targets = [" ".join(map(str, n.get("target", []))) for n in v.get("nodes", [])][:4]
            out.append(f"{v['id']} ({v['impact']}, {len(v.get('nodes', []))} nodes): {v['help']} at {targets}")
    return out


def test_axe_finds_nothing_serious_on_the_lobby_and_help_pages(server, new_page) -> None:
    faults: list[str] = []
    for locale in ("en-US", "ja-JP", "vi-VN"):
        page = new_page(server.url, locale=locale)
        expect(page.locator("[data-game]").first).to_be_visible()
        faults += [f"lobby {locale}: {f}" for f in serious_violations(page)]
    for where in ["help", *[f"help/{g}" for g in GAMES]]:
        page.goto(f"{server.url}/#/{where}")
        expect(page.locator("main h1, main h2").first).to_be_visible()
        page.wait_for_load_state("networkidle")
        faults += [f"{where}: {f}" for f in serious_violations(page)]
    assert not faults, "\n".join(faults)


@pytest.mark.parametrize("game", GAMES)
def test_axe_finds_nothing_serious_on_a_table_in_play(server, new_page, game: str) -> None:
    page = new_page(server.url, locale="vi-VN", viewport=DESKTOP)
    create_table(page, game, SETUPS[game])
    pick = random.Random(8)
    faults: list[str] = []
    for turn in range(3):
        if not wait_for_turn(page):
            break
        if turn in (0, 2):
            faults += [f"turn {turn}, desktop: {f}" for f in serious_violations(page)]
            page.set_viewport_size(PHONE)
            page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
            faults += [f"turn {turn}, phone: {f}" for f in serious_violations(page)]
            page.set_viewport_size(DESKTOP)
        play_one(page, pick)
    assert not faults, "\n".join(sorted(set(faults)))


def test_axe_finds_nothing_serious_on_a_replay(server, new_page) -> None:
    page = new_page(server.url)
    page.locator("[data-game=sealedbids] button.primary").click()
    form = page.locator("#create-form")
    form.locator("#create-bot").select_option("random")
    form.locator("#create-submit").click()
    page.locator("#start").click()
    pick = random.Random(3)
    for _ in range(60):
        if not wait_for_turn(page):
            break
        play_one(page, pick)
    page.locator("#replay-link").click()
    expect(page.locator("#replay-step")).to_be_visible()
    page.locator("#replay-next").click()
    faults = serious_violations(page)
    page.set_viewport_size(PHONE)
    faults += [f"phone: {f}" for f in serious_violations(page)]
    assert not faults, "\n".join(faults)


KEYBOARD = """() => {
  const faults = [];
  for (const el of document.querySelectorAll('#board [data-move], #board [data-select]')) {
    const native = ['BUTTON', 'A', 'INPUT', 'SELECT'].includes(el.tagName);
    if (!native && el.getAttribute('tabindex') !== '0') faults.push(`not focusable: ${el.outerHTML.slice(0, 120)}`);
    if (!native && !el.getAttribute('role')) faults.push(`no role: ${el.outerHTML.slice(0, 120)}`);
    if (!el.getAttribute('aria-label') && !el.textContent.trim()) faults.push(`no name: ${el.outerHTML.slice(0, 120)}`);
  }
  return faults;
}"""


def focus_looks_different(page: Page, turn: int) -> bool | None:
    """Whether the board's first control looks different focused (None: no control)."""
    controls = page.locator("#board [data-move]")
    if not controls.count():
        return None
    target = controls.first
    target.scroll_into_view_if_needed()
    page.keyboard.press("Escape")
    page.evaluate("document.activeElement && document.activeElement.blur()")
    before = target.screenshot()
    # Keyboard focus: Tab from the control before it, so :focus-visible applies.
    target.evaluate("(el) => { const all = [...document.querySelectorAll("
                    "'[tabindex=\"0\"], button, a[href], input, select')]"
                    ".filter((e) => !e.disabled && e.getClientRects().length);"
                    " const i = all.indexOf(el); (all[i - 1] || document.body).focus(); }")
    page.keyboard.press("Tab")
    assert page.evaluate("(el) => document.activeElement === el", target.element_handle()), \
        f"turn {turn}: Tab does not reach the board's control"
    return target.screenshot() != before


@pytest.mark.parametrize("game", GAMES)
def test_every_move_can_be_made_from_the_keyboard_with_the_focus_seen(server, new_page, game: str) -> None:
    page = new_page(server.url, locale="ja-JP")
    create_table(page, game, SETUPS[game])
    pick = random.Random(5)
    faults: list[str] = []
    unseen = 0
    for turn in range(4):
        if not wait_for_turn(page):
            break
        faults += [f"turn {turn}: {f}" for f in page.evaluate(KEYBOARD)]
        # The focus shows: the focused control is drawn differently from the unfocused one.
        # Another seat's move in a simultaneous decision redraws the board meanwhile: the
        # control is found again then, three times at most.
        for attempt in range(3):
            try:
                looked = focus_looks_different(page, turn)
                break
            except PlaywrightError as error:
                if "not attached" not in str(error) or attempt == 2:
                    raise
        if looked is False:
            unseen += 1
        # The turn is played from the keyboard: focus and Enter (a two-step choice included).
        play_one(page, pick, keyboard=True)
    assert not faults, "\n".join(faults[:20])
    assert not unseen, f"{unseen} turn(s) where the focused control looked the same as unfocused"


SHAPES = """(seats) => {
  const SEAT_STYLES = window.__seats.SEAT_STYLES.slice(0, seats);
  const faults = [];
  const colour = (c) => { const d = document.createElement('div'); d.style.color = c; document.body.append(d);
    const v = getComputedStyle(d).color; d.remove(); return v; };
  const seatOf = new Map(SEAT_STYLES.map((s, i) => [colour(s.colour), i]));
  for (const el of document.querySelectorAll('#board svg *')) {
    if (el.closest('defs, title, [aria-hidden=true]') || el.tagName === 'tspan' || el.tagName === 'text') continue;
    const fill = getComputedStyle(el).fill;
    if (!seatOf.has(fill)) continue;
    const seat = seatOf.get(fill);
    if (el.hasAttribute('data-seat-shape')) {
      const own = Number(el.getAttribute('data-seat-shape'));
      if (own !== seat) faults.push(`seat ${seat}'s colour on seat ${own}'s shape`);
      continue;
    }
    // The nearest drawing around it that carries seat shapes must carry this seat's only.
    let up = el.parentElement;
    while (up && !up.querySelector('[data-seat-shape]')) up = up.parentElement;
    const marks = up ? [...up.querySelectorAll('[data-seat-shape]')] : [];
    const seats = new Set(marks.map((s) => Number(s.getAttribute('data-seat-shape'))));
    if (!(seats.size === 1 && seats.has(seat))) {
      const around = seats.size ? `the shapes of seats ${[...seats]}` : 'no seat shape';
      faults.push(`${el.tagName}.${el.getAttribute('class') || ''} in seat ${seat}'s colour, with ${around} around it`);
    }
  }
  return faults;
}"""


def test_every_seat_has_its_own_shape(server, new_page) -> None:
    page = new_page(f"{server.url}/#/help")
    signatures = page.evaluate("""async () => {
      const { seatShape } = await import('/js/seats.js');
      return Array.from({ length: 8 }, (_, s) => { const el = seatShape(s, 0, 0, 10);
        const corners = (el.getAttribute('points') || '').split(' ').length;
        return `${el.tagName}:${corners}:${el.getAttribute('data-seat-shape')}`; });
    }""")
    shapes = [s.rsplit(":", 1)[0] for s in signatures]
    assert len(set(shapes)) == 8, signatures
    assert [s.rsplit(":", 1)[1] for s in signatures] == [str(i) for i in range(8)]


@pytest.mark.parametrize("game", GAMES)
def test_seat_colours_on_the_board_come_with_the_seats_shape(server, new_page, game: str) -> None:
    page = new_page(server.url)
    create_table(page, game, SETUPS[game])
    page.evaluate("import('/js/seats.js').then((m) => { window.__seats = m; })")
    pick = random.Random(2)
    faults: list[str] = []
    for turn in range(4):
        if not wait_for_turn(page):
            break
        faults += [f"turn {turn}: {f}" for f in page.evaluate(SHAPES, SETUPS[game])]
        play_one(page, pick)
    assert not faults, "\n".join(sorted(set(faults))[:20])
