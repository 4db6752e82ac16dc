"""Every label on every board, in English, Japanese and Vietnamese, measured against its box
in Chromium: boards drawn (in a `#probe` beside the page, as in test_boards_draw.py) from
positions sampled out of random games, at a desktop width and at a phone's.

A label's box is the smallest filled shape drawn before it in the same SVG that holds the
label's middle (a card, a wedge of a wheel, a badge, a slot), or else the SVG itself. The
label must lie inside that shape's fill (checked at nine points over its glyphs, in the
label's own turn when it is drawn turned), and no point over one label's glyphs may lie in
another label's box. A map label with a halo (a territory's or a fjord's name) is made to be
read over any shape: it only has to stay inside its drawing and off other labels.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.conftest import PROBE_ROOT
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
        const order = all.indexOf(text);
        let box = null, area = Infinity;
        for (const s of shapes) {
          if (all.indexOf(s) > order) continue;
          const b = s.getBoundingClientRect();
          if (b.width * b.height >= area || !inside(s, cx, cy)) continue;
          box = s;
          area = b.width * b.height;
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
        boxes.push([quad, points, where]);
      }
      // Two labels overlap when a point over one's glyphs lies in the other's box.
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
      for (let a = 0; a < boxes.length; a++) for (let b = a + 1; b < boxes.length; b++) {
        const [qa, pa, wa] = boxes[a];
        const [qb, pb, wb] = boxes[b];
        if (pa.some((p) => within(qb, p)) || pb.some((p) => within(qa, p)))
          faults.add(`${wa} overlaps ${wb.split(': ').slice(1).join(': ')}`);
      }
    }
  }
  return [...faults];
}"""


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
