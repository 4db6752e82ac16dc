"""Every label on every board, in English, Japanese and Vietnamese, measured against its box
in Chromium: boards drawn (in a `#probe` beside the page, as in test_boards_draw.py) from
positions sampled out of random games, at a desktop width and at a phone's.

A label's box is the smallest filled shape drawn before it in the same SVG that holds the
label's middle (a card, a wedge of a wheel, a badge, a slot), or else the SVG itself. The
label must lie inside that shape's fill (checked at nine points over its glyphs, in the
label's own turn when it is drawn turned), and no point over one label's glyphs may lie in
another label's box. A map label with a halo (a territory's or a fjord's name) is made to be
read over any shape: it only has to stay inside its drawing and off other labels.

Legible at 1x: drawn in the table page's layout and board viewport at 1440 x 900, every
word is at least 11 CSS px as shown (its font size times the scale of its drawing); at
390 x 844 a smaller one lies within a finger's reach in the board's box and a tap there
reads it (web/js/boardlens.js). And the Crusaders wheel writes each action's name in
whole words ("Influence", never "Influ" / "ence").
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.conftest import PROBE_ROOT, TABLE_PROBE
from tests.web.test_boards_draw import SETTING_IDS, SETTINGS, sample_positions

pytestmark = pytest.mark.browser

EVERY = 8
"""One sampled position in eight is measured (three), and the finished game's."""

MEASURE = """async ([game, positions, seats, lang, width]) => {
  const module = await import(`/games/${game}.js`);
  const i18n = await import('/js/i18n.js');
  await i18n.setLanguage(lang, { remember: false });
  i18n.useGame(game);
  await i18n.loadGameStrings(game);
""" + PROBE_ROOT + """  root.style.width = `${width}px`;
  const players = Array.from({ length: seats },
    (_, s) => ({ seat: s, username: s ? null : 'Nguyễn Thị Thu', bot: s ? 'random' : null, zombie: false }));
  const SHAPES = 'rect, circle, ellipse, path, polygon';
  const painted = (el) => { const f = getComputedStyle(el).fill; return f && f !== 'none' && !/rgba\\(.*, 0\\)$/.test(f)
    && getComputedStyle(el).fillOpacity !== '0' && !el.classList.contains('hit-area'); };
  const inside = (shape, x, y) =>
    shape.isPointInFill(new DOMPoint(x, y).matrixTransform(shape.getScreenCTM().inverse()));
  const faults = new Set();
  for (const [i, p] of positions.entries()) {
    root.replaceChildren();
    module.render(root, { view: p.view, legal: p.legal, events: [], seat: p.seat, seats: players, pending: p.pending,
                          result: p.result, game, lang, t: i18n.t, busy: false, play: () => {} });
    // A second drawing: boards that size themselves on the root's width (phone layouts).
    await new Promise((r) => requestAnimationFrame(r));
    module.render(root, { view: p.view, legal: p.legal, events: [], seat: p.seat, seats: players, pending: p.pending,
                          result: p.result, game, lang, t: i18n.t, busy: false, play: () => {} });
    for (const top of root.querySelectorAll('svg')) {
      if (top.parentElement.closest('svg')) continue;
      const all = [...top.querySelectorAll('*')];
      const shapes = all.filter((el) => el.matches(SHAPES) && !el.closest('defs, pattern, clipPath, mask')
        && painted(el));
      const texts = all.filter((el) => el.tagName === 'text' && el.textContent.trim() && !el.closest('defs')
        && getComputedStyle(el).display !== 'none' && getComputedStyle(el).visibility !== 'hidden');
      const index = new Map(all.map((el, k) => [el, k]));
      // Each shape's order and screen box, measured once per drawing (not once per label),
      // smallest first: a label's box is then the first one that holds its middle.
      const candidates = shapes.map((s) => [s, index.get(s), s.getBoundingClientRect()])
        .sort((a, b) => a[2].width * a[2].height - b[2].width * b[2].height);
      const boxes = [];
      for (const text of texts) {
        const r = text.getBoundingClientRect();
        if (!r.width) continue;
        // The glyphs' box as drawn: a turned label (along a wheel's rim) is a turned box.
        const bb = text.getBBox();
        const ctm = text.getScreenCTM();
        const [x0, y0, x1, y1] = [bb.x, bb.y, bb.x + bb.width, bb.y + bb.height];
        const quad = [[x0, y0], [x1, y0], [x1, y1], [x0, y1]]
          .map(([x, y]) => new DOMPoint(x, y).matrixTransform(ctm));
        // Points over the glyphs: the box's corners and edges, a pixel and a little of the
        // line's height in (the box is taller than the letters), and its middle.
        const at = (u, v) => {
          const [a, b, , d] = quad;
          return [a.x + (b.x - a.x) * u + (d.x - a.x) * v, a.y + (b.y - a.y) * u + (d.y - a.y) * v];
        };
        const du = Math.min(0.2, 1.5 / Math.max(1, Math.hypot(quad[1].x - quad[0].x, quad[1].y - quad[0].y)));
        const points = [];
        for (const u of [du, 0.5, 1 - du]) for (const v of [0.2, 0.5, 0.8]) points.push(at(u, v));
        const [cx, cy] = at(0.5, 0.5);
        const order = index.get(text);
        let box = null;
        for (const [s, at, b] of candidates) {
          if (at > order || cx < b.left || cx > b.right || cy < b.top || cy > b.bottom || !inside(s, cx, cy)) continue;
          box = s;
          break;
        }
        const word = text.textContent.trim().slice(0, 40);
        const parent = `${text.parentElement.tagName}.${text.parentElement.getAttribute('class') || ''}`;
        const where = `${game} ${lang} @${width}px, position ${i}: "${word}" (in ${parent})`;
        // A map label with a halo (drawn under its letters: paint-order stroke) is made to
        // be read over any shape; only the drawing's edge and other labels can hide it.
        const halo = getComputedStyle(text).paintOrder.startsWith('stroke') && getComputedStyle(text).stroke !== 'none';
        if (box && !halo) {
          if (points.some(([x, y]) => !inside(box, x, y)))
            faults.add(`${where} spills out of its ${box.tagName}.${box.getAttribute('class') || ''}`);
        } else if (!box || halo) {
          const b = top.getBoundingClientRect();
          if (points.some(([x, y]) => x < b.left || x > b.right || y < b.top || y > b.bottom))
            faults.add(`${where} is cut by the edge of its drawing (svg.${top.getAttribute('class') || ''})`);
        }
        const xs = quad.map((q) => q.x), ys = quad.map((q) => q.y);
        boxes.push([quad, points, where, [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)]]);
      }
      // Two labels overlap when a point over one's glyphs lies in the other's box. The points
      // lie inside their own box, so labels whose upright bounds are apart cannot overlap:
      // only the others are compared point by point (a sweep along x, boxes sorted by left).
      const within = (quad, [x, y]) => {
        let sign = 0;
        for (let k = 0; k < 4; k++) {
          const a = quad[k], b = quad[(k + 1) % 4];
          const c = (b.x - a.x) * (y - a.y) - (b.y - a.y) * (x - a.x);
          if (c === 0) continue;
          if (sign && Math.sign(c) !== sign) return false;
          sign = Math.sign(c);
        }
        return true;
      };
      boxes.sort((a, b) => a[3][0] - b[3][0]);
      for (let a = 0; a < boxes.length; a++)
      for (let b = a + 1; b < boxes.length && boxes[b][3][0] <= boxes[a][3][2]; b++) {
        const [qa, pa, wa, ba] = boxes[a];
        const [qb, pb, wb, bb] = boxes[b];
        if (bb[1] > ba[3] || ba[1] > bb[3]) continue;
        if (pa.some((p) => within(qb, p)) || pb.some((p) => within(qa, p)))
          faults.add(`${wa} overlaps ${wb.split(': ').slice(1).join(': ')}`);
      }
    }
  }
  return [...faults];
}"""


@pytest.mark.slow
@pytest.mark.parametrize(("game_id", "seats", "options"), SETTINGS,
                         ids=SETTING_IDS)
def test_every_board_label_fits_its_box_in_every_language(server, new_page, game_id: str, seats: int,
                                                          options: dict[str, Any]) -> None:
    positions = sample_positions(game_id, seats, options, seed=seats)
    kept = positions[:-2:EVERY] + positions[-1:]
    page = new_page(f"{server.url}/#/help")
    faults: list[str] = []
    for lang in ("en", "ja", "vi"):
        for width in (1200, 366):
            faults += page.evaluate(MEASURE, [game_id, kept, seats, lang, width])
    assert not faults, "\n".join(faults[:40]) + f"\n({len(faults)} in all)"


# -- legible at 1x --------------------------------------------------------------------------------

DESKTOP_WIDE = {"width": 1440, "height": 900}
PHONE_TALL = {"width": 390, "height": 844}
LEGIBLE = 11
"""CSS px: the smallest lettering on a board at its default zoom (font size times the scale
its drawing is shown at). On a phone, smaller lettering must be a tap away (web/js/boardlens.js)."""

SIZES = """async ([game, positions, seats, lang]) => {
  const module = await import(`/games/${game}.js`);
  const i18n = await import('/js/i18n.js');
  const { BoardView } = await import('/js/boardview.js');
  const { drawnSize } = await import('/js/boardlens.js');
  await i18n.setLanguage(lang, { remember: false });
  i18n.useGame(game);
  await i18n.loadGameStrings(game);
""" + TABLE_PROBE + """  const players = Array.from({ length: seats },
    (_, s) => ({ seat: s, username: s ? null : 'Nguyễn Thị Thu', bot: s ? 'random' : null, zombie: false }));
  const tick = () => new Promise((r) => requestAnimationFrame(r));
  const faults = [];
  let lensChecked = false;
  for (const [i, p] of positions.entries()) {
    const root = document.createElement('div');
    root.className = 'board';
    const view = new BoardView(root, i18n.t);
    panel.replaceChildren(view.element);
    const ctx = { view: p.view, legal: p.legal, events: [], seat: p.seat, seats: players, pending: p.pending,
                  result: p.result, game, lang, t: i18n.t, busy: false, play: () => {} };
    module.render(root, ctx);
    await tick();
    module.render(root, ctx);
    view.fit({ decision: `position ${i}` });
    const touch = view.element.classList.contains('touch');
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    const small = new Map();
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const el = node.parentElement;
      if (!node.textContent.trim() || small.has(el)
          || el.closest('title, desc, style, script, defs, [hidden], .board-lens')) continue;
      const style = getComputedStyle(el);
      if (style.display === 'none' || style.visibility === 'hidden') continue;
      const r = el.getBoundingClientRect();
      if (!r.width || !r.height) continue;
      const size = drawnSize(el);
      if (size < 11 - 0.05) small.set(el, size);
    }
    for (const [el, size] of small) {
      const words = el.textContent.trim().slice(0, 40);
      const cls = el.getAttribute('class') || el.parentElement.getAttribute('class') || '';
      const where = `${game} ${lang} @${innerWidth}px, position ${i}: "${words}" (${el.tagName}.${cls})`
        + ` at ${size.toFixed(1)} px`;
      if (!touch) {
        faults.push(where);
        continue;
      }
      // A tap away: the words scrolled into the board's box lie on the screen, over the board
      // (nothing else drawn over them), and a tap there reads them.
      el.scrollIntoView({ block: 'center', inline: 'center' });
      const r = el.getBoundingClientRect();
      const box = view.pan.getBoundingClientRect();
      const x = r.left + r.width / 2, y = r.top + r.height / 2;
      const under = document.elementFromPoint(x, y);
      const inBox = x >= Math.max(0, box.left) && x <= Math.min(innerWidth, box.right)
        && y >= Math.max(0, box.top) && y <= Math.min(innerHeight, box.bottom);
      if (!inBox || !under || !root.contains(under)) {
        faults.push(`${where}: out of a finger's reach`);
      } else if (!view.lens.readAt(x, y, under).includes(el.textContent.trim())) {
        faults.push(`${where}: a tap there does not read it`);
      } else if (!lensChecked) {
        lensChecked = true;
        const shown = view.lens.bubble;
        const li = shown.querySelector('li');
        if (shown.hidden || !li || parseFloat(getComputedStyle(li).fontSize) < 11)
          faults.push(`${where}: the tap's bubble is not shown at 11 px or more`);
      }
      view.lens.hide();
      if (faults.length > 60) break;
    }
    view.destroy();
  }
  return faults;
}"""

@pytest.mark.slow
@pytest.mark.parametrize("viewport", [DESKTOP_WIDE, PHONE_TALL], ids=["1440x900", "390x844"])
@pytest.mark.parametrize(("game_id", "seats", "options"), SETTINGS, ids=SETTING_IDS)
def test_every_board_label_is_legible_at_1x_or_a_tap_away(server, new_page, game_id: str, seats: int,
                                                          options: dict[str, Any], viewport: dict[str, int]) -> None:
    positions = sample_positions(game_id, seats, options, seed=seats)
    kept = positions[:-2:EVERY] + positions[-1:]
    page = new_page(f"{server.url}/#/help", viewport=viewport)
    faults: list[str] = []
    for lang in ("en", "vi") if viewport is DESKTOP_WIDE else ("en",):
        faults += page.evaluate(SIZES, [game_id, kept, seats, lang])
    assert not faults, "\n".join(faults[:40]) + f"\n({len(faults)} in all)"


WHEEL_WORDS = """async ([positions, seats, lang]) => {
  const module = await import('/games/crusaders.js');
  const i18n = await import('/js/i18n.js');
  await i18n.setLanguage(lang, { remember: false });
  i18n.useGame('crusaders');
  await i18n.loadGameStrings('crusaders');
""" + PROBE_ROOT + """  const players = Array.from({ length: seats },
    (_, s) => ({ seat: s, username: `P${s}`, bot: null, zombie: false }));
  const faults = new Set();
  for (const p of positions) {
    module.render(root, { view: p.view, legal: p.legal, events: [], seat: p.seat, seats: players, pending: p.pending,
                          result: p.result, game: 'crusaders', lang, t: i18n.t, busy: false, play: () => {} });
    for (const wedge of root.querySelectorAll('.cr-wedge')) {
      const name = i18n.t(`cr.action.${p.view.players[Number(wedge.closest('[data-seat]').dataset.seat)]
        .wheel[Number(wedge.dataset.pos)].action}`);
      const label = [...wedge.querySelectorAll('text')].find((t) => t.querySelector('tspan'));
      const lines = [...label.querySelectorAll('tspan')].map((t) => t.textContent);
      const words = name.split(/\\s+/);
      // Each line whole words of the name, in order: a word is never cut ("Influ" / "ence").
      let at = 0;
      const whole = lines.every((line) => {
        const n = line.split(/\\s+/).length;
        const ok = words.slice(at, at + n).join(' ') === line;
        at += n;
        return ok;
      }) && at === words.length;
      if (!whole) faults.add(`${lang}: "${name}" is written ${lines.map((l) => `"${l}"`).join(' / ')}`);
    }
  }
  return [...faults];
}"""


@pytest.mark.parametrize(("seats", "options"), [(n, o) for g, n, o in SETTINGS if g == "crusaders"])
def test_the_crusaders_wheel_writes_its_actions_whole(server, new_page, seats: int, options: dict[str, Any]) -> None:
    positions = sample_positions("crusaders", seats, options, seed=seats)
    page = new_page(f"{server.url}/#/help")
    faults: list[str] = []
    for lang in ("en", "ja", "vi"):
        faults += page.evaluate(WHEEL_WORDS, [positions[::EVERY] + positions[-1:], seats, lang])
    assert not faults, "\n".join(faults)
