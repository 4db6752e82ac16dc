"""Each game's table at phone size (390 x 844) in Chromium, against a real server, played
by a person and random bots. At each of the person's turns:

- every control on the board the person may tap (a move, a figure to pick, a button) has
  a disc 44 CSS px across where a tap lands on it and nothing else (found with
  elementFromPoint after the control is scrolled into view, as a finger would pan to it);
  so do the buttons of the move list and the board's zoom buttons;
- the prompt and at least one control of the decision are on the screen together, as
  the page shows them (nothing scrolled by the test);
- the page does not scroll sideways, and a box that does shows so (the board's hint and
  edge shadows).
"""

from __future__ import annotations

import random

import pytest
from playwright.sync_api import Page

from tests.web.conftest import SHOTS
from tests.web.tables import SETUPS, create_table, play_one, wait_for_turn

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
TURNS = 5
"""The person's turns measured per game."""

TAPPABLE = """() => {
  const FINGER = 44;
  const shown = (el) => { const r = el.getBoundingClientRect(); return (r.width > 0 || r.height > 0)
    && !el.closest('[hidden]') && !el.disabled && getComputedStyle(el).visibility !== 'hidden'
    // Not inside a closed <details> (the full list of moves, collapsed under the status bar).
    && el.checkVisibility(); };
  const controls = [...document.querySelectorAll(
    '#board [data-move], #board [data-select], #board [role=button], #board button, #moves button, .board-tools button,'
    + ' #prompt-actions button, #prompt-actions label')].filter(shown);
  const owner = (found) => found && (found.hitFor
    || found.closest('[data-move], [data-select], [role=button], button, label'));
  // A finger's disc (FINGER px across) centred on (x, y) whose sample points (a grid of
  // 5 x 5 inside the disc) all land on `el`: rounded corners of a 44 px button are not lost.
  const square = (el, x, y) => {
    for (let i = -2; i <= 2; i++) for (let j = -2; j <= 2; j++) {
      const dx = i * (FINGER / 2 - 0.5) / 2, dy = j * (FINGER / 2 - 0.5) / 2;
      if (Math.hypot(dx, dy) > FINGER / 2) continue;
      const px = x + dx, py = y + dy;
      if (px < 0 || py < 0 || px >= innerWidth || py >= innerHeight) return false;
      if (owner(document.elementFromPoint(px, py)) !== el) return false;
    }
    return true;
  };
  const small = [];
  // Put back the scrolling afterwards: the page's own focus is what the next turn checks.
  // (A client without the board's panning box keeps its board in #board.)
  const pan = document.querySelector('.board-pan') || document.querySelector('#board');
  const kept = [scrollX, scrollY, pan.scrollLeft, pan.scrollTop];
  for (const el of controls) {
    el.scrollIntoView({ block: 'center', inline: 'center' });
    const r = el.getBoundingClientRect();
    const xs = [r.left + r.width / 2], ys = [r.top + r.height / 2];
    // A large shape (a province, a territory) may hold the square anywhere inside it.
    for (let x = r.left + FINGER / 2; x < r.right - FINGER / 2 && xs.length < 12; x += FINGER / 2) xs.push(x);
    for (let y = r.top + FINGER / 2; y < r.bottom - FINGER / 2 && ys.length < 12; y += FINGER / 2) ys.push(y);
    if (!xs.some((x) => ys.some((y) => square(el, x, y)))) {
      const what = el.getAttribute('data-move') || el.getAttribute('data-select') || el.getAttribute('aria-label')
        || el.textContent;
      // What a tap at the centre's disc lands on instead.
      const cx = r.left + r.width / 2, cy = r.top + r.height / 2;
      const others = new Set();
      for (const [dx, dy] of [[0, 0], [21, 0], [-21, 0], [0, 21], [0, -21]]) {
        const f = document.elementFromPoint(cx + dx, cy + dy);
        if (owner(f) !== el) others.add(f ? `${f.tagName}.${f.getAttribute('class') || ''}` : 'nothing');
      }
      const size = `${Math.round(r.width)}x${Math.round(r.height)}`;
      const hits = [...document.querySelectorAll('.hit-area')].filter((x) => x.hitFor === el);
      small.push(`${el.tagName}.${el.getAttribute('class') || ''} ${size} ${String(what).slice(0, 70)}`
        + (others.size ? ` (taps reach ${[...others].join(', ')})` : '')
        + ` (${hits.length} finger-wide area)`);
    }
  }
  window.scrollTo(kept[0], kept[1]);
  pan.scrollLeft = kept[2];
  pan.scrollTop = kept[3];
  return { count: controls.length, small };
}"""

ONE_SCREEN = """() => {
  const inView = (r) => r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth;
  const prompt = document.querySelector('#prompt').getBoundingClientRect();
  const pan = (document.querySelector('.board-pan') || document.querySelector('#board')).getBoundingClientRect();
  const controls = [...document.querySelectorAll('#board [data-move], #board [data-select]')]
    .map((el) => el.getBoundingClientRect()).filter((r) => r.width > 0);
  const seen = controls.filter((r) => {
    const cx = r.left + r.width / 2, cy = r.top + r.height / 2;
    return cx >= Math.max(0, pan.left) && cx <= Math.min(innerWidth, pan.right)
      && cy >= Math.max(0, pan.top) && cy <= Math.min(innerHeight, pan.bottom);
  });
  return { prompt: inView(prompt), controls: controls.length, seen: seen.length };
}"""

SIDEWAYS = """() => {
  const faults = [];
  const wide = document.documentElement.scrollWidth;
  if (wide > innerWidth + 1) faults.push(`the page is ${wide} px wide`);
  for (const el of document.querySelectorAll('main *')) {
    const o = getComputedStyle(el).overflowX;
    if (!['auto', 'scroll'].includes(o) || el.scrollWidth <= el.clientWidth + 1 || !el.clientWidth) continue;
    const frame = el.parentElement;
    const cue = el.classList.contains('board-pan') && !frame.parentElement.querySelector('.pan-hint').hidden
      && (frame.classList.contains('more-left') || frame.classList.contains('more-right'));
    // Tables wider than the screen show shadows on the sides with more (main.css).
    if (!cue && !el.matches('.table-scroll, .scroll-cue'))
      faults.push(`${el.tagName}.${el.className} scrolls sideways unseen (${el.scrollWidth} in ${el.clientWidth})`);
  }
  return faults;
}"""


def check_turn(page: Page, where: str) -> list[str]:
    # The last update's slides and flips (260 ms) first: a card turning in is narrower
    # than itself while it turns, and a finger lands on what is behind it.
    page.wait_for_function("() => document.getAnimations().every((a) => a.playState !== 'running')")
    faults = []
    fit = page.evaluate(ONE_SCREEN)
    if not fit["prompt"]:
        faults.append(f"{where}: the prompt is off the screen")
    if fit["controls"] and not fit["seen"]:
        faults.append(f"{where}: none of the decision's {fit['controls']} controls is on the screen with the prompt")
    faults += [f"{where}: {f}" for f in page.evaluate(SIDEWAYS)]
    taps = page.evaluate(TAPPABLE)
    faults += [f"{where}: under a finger's size: {s}" for s in taps["small"]]
    return faults


@pytest.mark.parametrize(("game", "locale"), [("bloodrage", "en-US"), ("crusaders", "vi-VN"), ("iwari", "vi-VN"),
                                              ("hadrianswall", "ja-JP")])
def test_every_control_is_a_finger_wide_and_the_prompt_sits_with_its_board_on_a_phone(
        server, new_page, game: str, locale: str) -> None:
    page = new_page(server.url, locale=locale, viewport=PHONE)
    create_table(page, game, SETUPS[game])
    pick = random.Random(18)
    faults: list[str] = []
    measured = 0
    for turn in range(TURNS):
        if not wait_for_turn(page):
            break
        if turn in (0, 2):
            # What the screen shows at the turn, as the page placed it.
            SHOTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=SHOTS / f"phone-{game}-{locale[:2]}-turn{turn}.png")
        found = check_turn(page, f"turn {turn}")
        faults += found
        measured += 1
        play_one(page, pick)
    assert measured >= 2
    assert not faults, "\n".join(faults[:25]) + f"\n({len(faults)} in all)"
