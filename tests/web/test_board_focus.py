"""Each prompt brings into view the part of the board it is about, at 390 x 844 in
Chromium: a board drawn from a fixed position (the first of its kind in a seeded random
game) inside the table page's own layout and board viewport (web/js/boardview.js), and
the viewport's box then shows that part: Blood Rage's reserve when a figure is to be
chosen there (not the map above it), then the map once one is picked, and its pack in
the draft; Crusaders' wheel when a wedge is to be taken, its map for a knight; Hadrian's
Wall's sheet for a box to fill; Iwari's map for a territory or a tent, its cards for a
card to draw.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from ludoteca.games import load
from tests.web.conftest import TABLE_PROBE

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}

CASES: dict[str, list[tuple[Any, ...]]] = {
    "bloodrage": [
        # Several kinds of figure may invade: the first step is the reserve, at the foot of the
        # reader's clan sheet, far under the map.
        ("a figure in the reserve",
         lambda legal: len({m["figure"] for m in legal if m["type"] == "invade"}) > 1
         and not any(m["type"] == "valhalla_invade" for m in legal),
         '.br-clan[data-seat="{seat}"] .br-pool[data-select]', ".br-map [data-move]"),
        ("a card of the pack", lambda legal: any(m["type"] == "pick" for m in legal),
         ".br-cards[data-row=pack] [data-move]"),
    ],
    "crusaders": [
        ("a wedge of the wheel", lambda legal: any(m["type"] == "resolve" for m in legal),
         '.cr-player[data-seat="{seat}"] .cr-wedge[data-move]'),
        ("a region of the map",
         lambda legal: any(m["type"] in ("place_knight", "crusade", "step") for m in legal),
         ".cr-map [data-move], .cr-map [role=button]"),
    ],
    "hadrianswall": [
        ("a box of the sheet", lambda legal: sum(m["type"] == "fill" for m in legal) > 1,
         ".hw-sheets [data-move], .hw-sheets [data-select]"),
    ],
    "iwari": [
        ("a territory or a tent on the map",
         lambda legal: any(m["type"] in ("territory", "tent") for m in legal), ".iw-map [data-move]"),
        ("a card to draw", lambda legal: any(m["type"] == "draw" for m in legal), ".iw-cards [data-move]"),
    ],
}
SEATS = {"bloodrage": 3, "crusaders": 3, "hadrianswall": 2, "iwari": 3}


def first_positions(game_id: str, seats: int, seed: int = 31) -> list[dict[str, Any]]:
    """The first position of each case of ``CASES[game_id]`` in a seeded random game, from
    the deciding seat's view."""
    game = load(game_id)
    pick = random.Random(seed)
    state = game.setup(seats, {}, seed)
    wanted = CASES[game_id]
    found: dict[int, dict[str, Any]] = {}
    moves = 0
    while game.result(state) is None and len(found) < len(wanted) and moves < 5000:
        seat = game.seats_to_move(state)[0]
        legal = game.legal(state, seat)
        for k, (what, test, selector, *then) in enumerate(wanted):
            if k not in found and test(legal):
                found[k] = {"what": what, "selector": selector.format(seat=seat), "then": then[0] if then else None,
                            "view": game.view(state, seat),
                            "legal": legal, "seat": seat, "pending": game.seats_to_move(state)}
        plain = [m for m in legal if m["type"] != "end_year"]
        game.perform(state, seat, pick.choice(plain if plain and pick.random() < 0.95 else legal))
        moves += 1
    assert len(found) == len(wanted), f"{game_id}: only {[found[k]['what'] for k in sorted(found)]} came up"
    return [found[k] for k in sorted(found)]


# The board drawn in the table page's layout (main, its columns, the board's panel) with the
# frame's viewport round it, as the table page does at a new decision; then whether the
# part asked for shows in the viewport's box, which on a phone is the screen's height under
# the prompt.
FOCUS = """async ([game, cases, seats, onScreen]) => {
  const module = await import(`/games/${game}.js`);
  const i18n = await import('/js/i18n.js');
  const { BoardView } = await import('/js/boardview.js');
  i18n.useGame(game);
  await i18n.loadGameStrings(game);
""" + TABLE_PROBE + """  const players = Array.from({ length: seats },
    (_, s) => ({ seat: s, username: `P${s}`, bot: null, zombie: false }));
  const tick = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  const out = [];
  for (const [i, c] of cases.entries()) {
    const root = document.createElement('div');
    root.className = 'board';
    const view = new BoardView(root, i18n.t);
    panel.replaceChildren(view.element);
    const ctx = { view: c.view, legal: c.legal, events: [], seat: c.seat, seats: players, pending: c.pending,
                  result: null, game, lang: 'en', t: i18n.t, busy: false, play: () => {} };
    module.render(root, ctx);
    await tick();
    module.render(root, ctx);
    window.scrollTo(0, 0);
    view.fit({ decision: `case ${i}` });
    await tick();
    // On a desktop the page scrolls, not the box: what counts is the part of the box on the screen.
    const clip = (r) => (onScreen ? { left: Math.max(r.left, 0), right: Math.min(r.right, innerWidth),
      top: Math.max(r.top, 0), bottom: Math.min(r.bottom, innerHeight), height: r.height } : r);
    const box = clip(view.pan.getBoundingClientRect());
    const targets = [...root.querySelectorAll(c.selector)].map((el) => el.getBoundingClientRect())
      .filter((r) => r.width > 0);
    const seen = targets.filter((r) => {
      const x = r.left + r.width / 2, y = r.top + r.height / 2;
      return x >= box.left && x <= box.right && y >= box.top && y <= box.bottom;
    });
    out.push({ what: c.what, targets: targets.length, seen: seen.length,
               box: [Math.round(box.height), view.pan.scrollTop],
               first: targets.length ? Math.round(targets[0].top - box.top + view.pan.scrollTop) : null });
    if (c.then && targets.length) {
      // The first step taken (a figure picked): its next part comes into view in turn.
      root.querySelector(c.selector).dispatchEvent(new MouseEvent('click', { bubbles: true }));
      await tick();
      const next = [...root.querySelectorAll(c.then)].map((el) => el.getBoundingClientRect())
        .filter((r) => r.width > 0);
      const box2 = clip(view.pan.getBoundingClientRect());
      out.push({ what: `${c.what}, then ${c.then}`, targets: next.length,
                 box: [Math.round(box2.height), view.pan.scrollTop],
                 seen: next.filter((r) => { const x = r.left + r.width / 2, y = r.top + r.height / 2;
                   return x >= box2.left && x <= box2.right && y >= box2.top && y <= box2.bottom; }).length,
                 first: next.length ? Math.round(next[0].top - box2.top + view.pan.scrollTop) : null });
    }
    view.destroy();
  }
  return out;
}"""


@pytest.mark.parametrize("game_id", sorted(CASES))
def test_each_prompt_brings_its_part_of_the_board_into_view_on_a_phone(server, new_page, game_id: str) -> None:
    cases = first_positions(game_id, SEATS[game_id])
    page = new_page(f"{server.url}/#/help", viewport=PHONE)
    results = page.evaluate(FOCUS, [game_id, cases, SEATS[game_id], False])
    faults = [f"{game_id}: at a prompt about {r['what']}, none of its {r['targets']} controls is in the board's box"
              f" (box {r['box'][0]} px tall, scrolled to {r['box'][1]}; the first lies {r['first']} px down)"
              for r in results if not r["seen"]]
    assert all(r["targets"] for r in results), results
    assert not faults, "\n".join(faults)


DESKTOP_SHORT = {"width": 1440, "height": 700}


@pytest.mark.parametrize("game_id", sorted(CASES))
def test_on_a_desktop_the_page_brings_the_part_of_a_prompt_on_screen(server, new_page, game_id: str) -> None:
    """At 1440 x 700 the page, not the board's box, scrolls: the part a prompt is about (Blood
    Rage's reserve far under the map, say) ends up on the screen."""
    cases = first_positions(game_id, SEATS[game_id])
    page = new_page(f"{server.url}/#/help", viewport=DESKTOP_SHORT)
    results = page.evaluate(FOCUS, [game_id, cases, SEATS[game_id], True])
    faults = [f"{game_id}: at a prompt about {r['what']}, none of its {r['targets']} controls is on the screen"
              f" (the first lies {r['first']} px down the board)" for r in results if not r["seen"]]
    assert all(r["targets"] for r in results), results
    assert not faults, "\n".join(faults)
