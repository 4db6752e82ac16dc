"""The post-game review marks the move played and the bot's preferred move on the
replay's board, in a real Chromium against a real server whose reviews run at a tiny
budget: a person's game of Iwari against a random bot is played out through the page's
own API calls (fast), its review is asked for from the replay page, and at a marked
mistake the board's own controls for the two moves carry distinct marks (a dashed
outline and a solid one, each with its word), the legend says which is which, the step
after it has no marks; a reader who did not play sees the board from their own point of
view and switches to the reviewed seat's in one click, in Japanese and Vietnamese, on a
phone."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from ludoteca.testing.launch import ServerProcess
from tests.web.conftest import frame_strings, screenshot, started

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}

PLAY_OUT = """async ([game, seats]) => {
  const { ensureUser } = await import('/js/session.js');
  const api = await import('/js/api.js');
  await ensureUser();
  const table = await api.createTable({ game, seats });
  for (let s = 1; s < seats; s++) await api.addBot(table.id, undefined, 'random');
  await api.start(table.id);
  let seed = 7;
  const pick = (n) => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; };
  for (let i = 0; i < 4000; i++) {
    const snap = await api.table(table.id);
    if (snap.table.status === 'over') return table.id;
    if (!snap.legal || !snap.legal.length) { await new Promise((r) => setTimeout(r, 20)); continue; }
    try {
      await api.move(table.id, snap.version, snap.legal[pick(snap.legal.length)]);
    } catch (e) {
      if (e.status !== 409) throw e;  // a bot's move came first: look again
    }
  }
  throw new Error('the game did not end');
}"""

BADGE = """(el) => {
  if (!(el instanceof SVGElement)) return getComputedStyle(el, '::after').content.replace(/^"|"$/g, '');
  const badge = [...document.querySelectorAll('#board .review-badge')].find((b) => b.__owner === el);
  return badge ? badge.querySelector('text').textContent : null;
}"""
"""The word on a marked control: its SVG badge's, or an HTML control's ::after."""


@pytest.fixture
def review_server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[ServerProcess]:
    # Tiny: the whole review takes seconds.
    with started(tmp_path, monkeypatch, LUDOTECA_REVIEW_BUDGET="24,8") as proc:
        yield proc


def strings(lang: str) -> dict[str, Any]:
    return frame_strings(lang)["review"]


def marks(page: Page, kind: str) -> Any:
    return page.locator(f"#board [data-review-mark={kind}]")


def find_marked_mistake(page: Page) -> int:
    """Jumps to the marked decisions one by one until one's two moves (different ones)
    both have a control on the board; its index."""
    jumps = page.locator("#review-mistakes .review-jump")
    expect(jumps.first).to_be_visible()
    for i in range(min(jumps.count(), 30)):
        jump = jumps.nth(i)
        index = jump.get_attribute("data-index") or ""
        jump.click()
        expect(page.locator("#replay-slider")).to_have_value(index)
        expect(page.locator("#review-here")).to_be_visible()
        if marks(page, "played").count() and marks(page, "best").count():
            return int(index)
    raise AssertionError("no marked decision has both of its moves on the board")


@pytest.mark.slow
def test_the_board_marks_the_move_played_and_the_bots_choice_at_a_mistake(review_server, new_page) -> None:
    en = strings("en")
    page = new_page(review_server.url)
    expect(page.locator("[data-game=iwari]")).to_be_visible()
    table = page.evaluate(PLAY_OUT, ["iwari", 2])
    page.goto(f"{review_server.url}/#/replay/{table}")
    expect(page.locator("#replay-pov")).to_have_value("0")  # the person's own seat
    page.locator("#review-request").click()
    expect(page.locator("#review-chart svg")).to_be_visible(timeout=120_000)

    index = find_marked_mistake(page)
    played, best = marks(page, "played").first, marks(page, "best").first
    # Both are the board's own controls of the two moves (not a copy beside the board),
    # drawn as distinct marks: a word on each and another outline, not colour alone.
    assert played.get_attribute("data-move") or played.get_attribute("data-covers")
    assert best.get_attribute("data-move") or best.get_attribute("data-covers")
    assert played.get_attribute("data-move") != best.get_attribute("data-move")
    assert played.evaluate(BADGE) == en["played"]
    assert best.evaluate(BADGE) == en["best"]
    rings = page.evaluate("""() => [...document.querySelectorAll('#board .review-badge > rect:first-child')]
        .map((r) => [r.closest('.review-badge').classList.contains('review-badge-played'),
                     r.getAttribute('stroke-dasharray')])""")
    assert any(is_played and dash for is_played, dash in rings)  # the move played: dashed
    assert any(not is_played and not dash for is_played, dash in rings)  # the preferred one: solid
    # For assistive tech: each control's label says which it is.
    assert (played.get_attribute("aria-label") or "").startswith(f"{en['played']}: ")
    assert (best.get_attribute("aria-label") or "").startswith(f"{en['best']}: ")
    # The legend beside the words: a sample of each mark; both found a place on the board.
    here = page.locator("#review-here")
    expect(here.locator("#review-here-played .review-swatch-played")).to_have_count(1)
    expect(here.locator("#review-here-best .review-swatch-best")).to_have_count(1)
    expect(here).not_to_contain_text(en["off_board"])
    # The same key right above the board, where the marks are (a phone's board is
    # screens below the review's panel).
    legend = page.locator("#review-legend")
    expect(legend).to_be_visible()
    expect(legend).to_contain_text(en["legend"])
    expect(legend.locator("[data-kind=played] .review-swatch-played")).to_have_count(1)
    expect(legend.locator("[data-kind=best] .review-swatch-best")).to_have_count(1)
    legend_box, board_box = legend.bounding_box(), page.locator("#board").bounding_box()
    assert legend_box and board_box and 0 <= board_box["y"] - (legend_box["y"] + legend_box["height"]) < 40
    # Clicking a mark plays nothing: the replay stays at the decision.
    played.click()
    expect(page.locator("#replay-slider")).to_have_value(str(index))
    screenshot(page, "review-board-marks")
    # One step on (the bot's move, or the seat's next decision): not these marks.
    page.locator("#replay-next").click()
    expect(page.locator("#replay-slider")).to_have_value(str(index + 1))
    next_decision = page.locator(f"#review-table tbody tr[data-index='{index + 1}']").count()
    if not next_decision:
        expect(page.locator("#board [data-review-mark]")).to_have_count(0)
        expect(page.locator("#board .review-badge")).to_have_count(0)
        expect(legend).to_be_hidden()
    page.locator("#replay-prev").click()
    expect(marks(page, "played")).not_to_have_count(0)

    # On a phone: the marks and the legend, nothing wider than the screen.
    page.set_viewport_size(PHONE)
    expect(marks(page, "best")).not_to_have_count(0)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    screenshot(page, "review-board-marks-phone")

    # Someone else (a spectator) reads the stored review in Japanese, then Vietnamese: the
    # board shows their own point of view, and one click (44 px) shows the reviewed seat's.
    for lang, locale in (("ja", "ja-JP"), ("vi", "vi-VN")):
        words = strings(lang)
        other = new_page(f"{review_server.url}/#/replay/{table}", locale=locale, viewport=PHONE)
        expect(other.locator("#replay-pov")).to_have_value("")
        jump = other.locator(f"#review-mistakes .review-jump[data-index='{index}']")
        jump.click()
        expect(other.locator("#replay-slider")).to_have_value(str(index))
        expect(other.locator("#review-here")).to_contain_text(words["other_pov"])
        expect(other.locator("#board [data-review-mark]")).to_have_count(0)
        expect(other.locator("#review-legend")).to_be_hidden()
        show = other.locator("#review-show-pov")
        box = show.bounding_box()
        assert box is not None and box["height"] >= 44, box
        show.click()
        expect(other.locator("#replay-pov")).to_have_value("0")
        for kind, word in (("played", words["played"]), ("best", words["best"])):
            expect(other.locator(f"#board [data-review-mark={kind}]").first).to_have_attribute("data-review-text", word)
        expect(other.locator("#review-legend")).to_contain_text(words["legend"])
        assert other.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        screenshot(other, f"review-board-marks-{lang}")


MARKS_IN_A_PAGE = """async () => {
  const kit = await import('/js/board.js');
  const { svg } = await import('/js/dom.js');
  const root = document.createElement('div');
  document.body.append(root);
  const A = { type: 'a' }, B = { type: 'b' }, C = { type: 'c' };
  const ctx = { play: () => {} };
  // A board drawn at twice its units: a shape with a transform of its own, a group, a
  // third move, and a step that leads to both marked moves.
  function draw() {
    const map = svg('svg', { viewBox: '0 0 200 100', width: 400, height: 200 });
    const a = svg('rect', { x: 10, y: 30, width: 40, height: 40, transform: 'translate(5,0)' });
    kit.moveTarget(a, A, ctx, 'move a', 'legal');
    const b = svg('g', {}, svg('rect', { x: 100, y: 30, width: 40, height: 40 }));
    kit.moveTarget(b, B, ctx, 'move b', 'legal');
    const c = svg('rect', { x: 160, y: 30, width: 20, height: 20 });
    kit.moveTarget(c, C, ctx, 'move c', 'legal');
    const step = svg('rect', { x: 10, y: 80, width: 10, height: 10 });
    kit.choiceTarget(step, 'pick', 'pick', 'legal', () => {}, [A, B]);
    map.append(a, b, c, step);
    root.replaceChildren(map);
  }
  const state = () => [...root.querySelectorAll('[data-move],[data-covers]')].map((el) =>
    [el.getAttribute('aria-label'), el.getAttribute('data-review-mark'), el.getAttribute('data-review-text')]);
  const around = () => [...root.querySelectorAll('.review-badge')].every((badge) => {
    const o = badge.querySelector(':scope > rect').getBoundingClientRect();
    const i = badge.__owner.getBoundingClientRect();
    return o.left <= i.left && o.top <= i.top && o.right >= i.right && o.bottom >= i.bottom;
  });
  const tick = () => new Promise((r) => setTimeout(r, 0));
  draw();
  const marks = [{ move: A, kind: 'played', text: 'P' }, { move: B, kind: 'best', text: 'B' }];
  const found = [...kit.markMoves(root, marks, 'P=B')].sort();
  const first = state();
  const badges = root.querySelectorAll('.review-badge').length;
  const onTop = root.querySelector('svg').lastElementChild.classList.contains('review-badge');
  const ringed = around();
  draw();  // the board draws itself again (a click on a step does)
  await tick();
  const again = state();
  const badgesAgain = root.querySelectorAll('.review-badge').length;
  kit.markMoves(root, null);
  const cleared = state();
  const badgesCleared = root.querySelectorAll('.review-badge').length;
  draw();
  await tick();
  const after = root.querySelectorAll('[data-review-mark], .review-badge').length;
  root.remove();
  return { found, first, badges, onTop, ringed, again, badgesAgain, cleared, badgesCleared, after };
}"""


def test_the_kit_marks_the_two_moves_keeps_them_across_a_redraw_and_takes_them_away(server, new_page) -> None:
    page = new_page(server.url)
    out = page.evaluate(MARKS_IN_A_PAGE)
    assert out["found"] == ["best", "played"]
    marked = [["P: move a", "played", "P"], ["B: move b", "best", "B"], ["move c", None, None],
              ["P=B: pick", "both", "P=B"]]
    assert out["first"] == marked
    # One outline and badge per marked control, drawn last (on top), around the control
    # (its own transform and the drawing's scale counted).
    assert out["badges"] == 3 and out["onTop"] and out["ringed"]
    # The board drew itself again: the new drawing is marked the same, nothing left over.
    assert out["again"] == marked and out["badgesAgain"] == 3
    # Taken away: the labels as they were, no badge, and a later drawing stays unmarked.
    assert out["cleared"] == [[label, None, None] for label in ("move a", "move b", "move c", "pick")]
    assert out["badgesCleared"] == 0 and out["after"] == 0
