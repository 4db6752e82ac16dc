"""Reading a board, in Chromium, with a real mouse: on a desktop the board zooms and pans too
(the "-", "+" and "whole board" buttons, and dragging the board), and on a phone the small
print is a tap away (web/js/boardlens.js): a tap on words that play nothing shows them in a
bubble at a legible size, a long press on a control shows its words without playing its move,
and a short tap on it still plays it.

The board is Blood Rage's, drawn from a fixed position (the first action turn of a seeded
random game) in the table page's layout, inside the frame's viewport (web/js/boardview.js).
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from playwright.sync_api import expect

from ludoteca.games import load
from tests.web.conftest import TABLE_PROBE

pytestmark = pytest.mark.browser

WIDE = {"width": 1440, "height": 900}
PHONE = {"width": 390, "height": 844}


def action_turn(seats: int = 3, seed: int = 7) -> dict[str, Any]:
    """The first position of a seeded random Blood Rage game where the deciding seat may
    invade (a map full of controls, the clan sheets full of small print)."""
    game = load("bloodrage")
    pick = random.Random(seed)
    state = game.setup(seats, {}, seed)
    while game.result(state) is None:
        seat = game.seats_to_move(state)[0]
        legal = game.legal(state, seat)
        if any(m["type"] == "invade" for m in legal):
            return {"view": game.view(state, seat), "legal": legal, "seat": seat, "pending": game.seats_to_move(state)}
        game.perform(state, seat, pick.choice(legal))
    raise AssertionError("no action turn")


DRAW = """async ([p, seats]) => {
  const module = await import('/games/bloodrage.js');
  const i18n = await import('/js/i18n.js');
  const { BoardView } = await import('/js/boardview.js');
  i18n.useGame('bloodrage');
  await i18n.loadGameStrings('bloodrage');
""" + TABLE_PROBE + """  const root = document.createElement('div');
  root.className = 'board';
  const view = new BoardView(root, i18n.t);
  panel.append(view.element);
  const played = [];
  const players = Array.from({ length: seats }, (_, s) => ({ seat: s, username: `P${s}`, bot: null, zombie: false }));
  const ctx = { view: p.view, legal: p.legal, events: [], seat: p.seat, seats: players, pending: p.pending,
                result: null, game: 'bloodrage', lang: 'en', t: i18n.t, busy: false, play: (m) => played.push(m) };
  module.render(root, ctx);
  await new Promise((r) => requestAnimationFrame(r));
  module.render(root, ctx);
  view.fit({ decision: 'first' });
  window.probe = { view, played };
}"""

SVG_WIDTH = "() => Math.round(document.querySelector('#board-panel svg.br-map').getBoundingClientRect().width)"


def test_the_board_zooms_and_pans_on_a_desktop(server, new_page) -> None:
    page = new_page(f"{server.url}/#/help", viewport=WIDE)
    page.evaluate(DRAW, [action_turn(), 3])
    tools = page.locator("#board-panel .board-tools")
    assert tools.is_visible(), "no zoom buttons on a desktop"
    # A figure picked in the reserve when there are several kinds: the provinces light up.
    reserve = page.locator("#board-panel .br-clan [data-select]")
    if reserve.count():
        reserve.first.click()
    expect(page.locator("#board-panel .br-province[data-move]").first).to_be_attached()
    before = page.evaluate(SVG_WIDTH)
    page.locator("#board-panel .zoom-in").click()
    page.wait_for_function(f"() => ({SVG_WIDTH})() > {before * 1.4}")
    page.locator("#board-panel .zoom-in").click()
    page.wait_for_function(f"() => ({SVG_WIDTH})() > {before * 2.2}")
    pan = page.locator("#board-panel .board-pan")
    assert pan.evaluate("(el) => el.scrollWidth > el.clientWidth + 1 && el.classList.contains('pans')")
    # Dragged with the mouse, from a province (a control): the board pans, nothing is played.
    box = page.evaluate("""() => { const r = document.querySelector('#board-panel .br-province[data-move]')
      .getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; }""")
    page.mouse.move(box[0], box[1])
    page.mouse.down()
    page.mouse.move(box[0] - 150, box[1], steps=6)
    page.mouse.up()
    assert pan.evaluate("(el) => el.scrollLeft") > 100
    assert page.evaluate("window.probe.played.length") == 0
    # A click (no drag) still plays.
    page.locator("#board-panel .br-province[data-move]").first.click()
    assert page.evaluate("window.probe.played.length") == 1
    page.locator("#board-panel .zoom-whole").click()
    page.wait_for_function(f"() => ({SVG_WIDTH})() <= {before + 1}")
    assert page.locator("#board-panel .zoom-out").is_disabled()


SMALL_WORDS = """() => {
  // Small print that plays nothing (no control holds it), scrolled into the board's box.
  const { view } = window.probe;
  const CONTROLS = '[data-move], [data-select], [role=button]';
  for (const el of view.board.querySelectorAll('text')) {
    const style = getComputedStyle(el);
    const m = el.getScreenCTM();
    if (!m || !el.textContent.trim() || el.closest(CONTROLS) || el.closest('title, defs')) continue;
    const size = parseFloat(style.fontSize) * Math.sqrt(Math.abs(m.a * m.d - m.b * m.c));
    if (size >= 11) continue;
    el.scrollIntoView({ block: 'center', inline: 'center' });
    const r = el.getBoundingClientRect();
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    const under = document.elementFromPoint(x, y);
    if (!under || !view.board.contains(under) || under.closest(CONTROLS) || under.hitFor) continue;
    return { words: el.textContent.trim(), size, x, y };
  }
  return null;
}"""

CONTROL_AT = """() => {
  const el = [...window.probe.view.board.querySelectorAll('svg [data-move]')]
    .find((c) => c.getBoundingClientRect().width);
  el.scrollIntoView({ block: 'center', inline: 'center' });
  const r = el.getBoundingClientRect();
  return { x: r.left + r.width / 2, y: r.top + r.height / 2, label: el.getAttribute('aria-label') };
}"""

BUBBLE = """() => { const b = document.querySelector('#board-panel .board-lens');
  return b && !b.hidden ? { words: [...b.querySelectorAll('li')].map((li) => li.textContent),
    size: parseFloat(getComputedStyle(b.querySelector('li')).fontSize) } : null; }"""


def test_the_small_print_is_a_tap_away_on_a_phone(server, new_page) -> None:
    page = new_page(f"{server.url}/#/help", viewport=PHONE)
    page.evaluate(DRAW, [action_turn(), 3])
    assert page.locator("#board-panel .lens-hint").is_visible()
    small = page.evaluate(SMALL_WORDS)
    assert small, "no small print to read on the phone's board"
    page.mouse.click(small["x"], small["y"])
    bubble = page.evaluate(BUBBLE)
    assert bubble and small["words"] in bubble["words"] and bubble["size"] >= 11, (small, bubble)
    page.locator("#board-panel .lens-close").click()
    assert page.evaluate(BUBBLE) is None
    # A long press on a control reads it and plays nothing; a short tap plays it.
    control = page.evaluate(CONTROL_AT)
    played = page.evaluate("window.probe.played.length")
    page.mouse.move(control["x"], control["y"])
    page.mouse.down()
    page.wait_for_timeout(700)
    page.mouse.up()
    bubble = page.evaluate(BUBBLE)
    assert bubble and control["label"] in bubble["words"] and bubble["size"] >= 11, (control, bubble)
    assert page.evaluate("window.probe.played.length") == played
    page.mouse.click(control["x"], control["y"])
    page.wait_for_timeout(100)
    assert page.evaluate("window.probe.played.length") == played + 1, "a short tap on the control did not play it"
