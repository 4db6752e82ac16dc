"""Every game's board (web/games/<id>.js) drawn in Chromium from positions sampled out of
random games, from the deciding seat's point of view and a spectator's.

Whole games played by clicking (the other board tests) walk one path each; these samples
reach the rare states too (a late year of Hadrian's Wall, a fifth Crusaders seat, Iwari's
expeditions). For each position the board must:

- draw without throwing;
- carry in every control's `data-move` a move that is legal for the reader, as JSON (the
  boards build some moves themselves: a payment, a step on the map; none may be one the
  engine would refuse). Moves chosen in two steps (a figure, then where it goes) have no
  control until the first step is taken, so not every legal move shows here: the whole-game
  board tests click those;
- ask the strings for keys that exist (a missing key would show as words made from it);
- show no unfilled placeholder, `undefined`, `NaN` or `[object Object]`.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from ludoteca.games import load
from tests.web.conftest import PROBE_ROOT

pytestmark = pytest.mark.browser

POSITIONS = 24
"""Positions sampled per game and setting, besides the finished game's."""

SETTINGS: list[tuple[str, int, dict[str, Any]]] = [
    ("bloodrage", 2, {}),
    ("bloodrage", 4, {}),
    ("crusaders", 2, {"knight_orders": False, "wheel": "shared"}),
    ("crusaders", 5, {"knight_orders": True, "wheel": "individual"}),
    ("iwari", 2, {}),
    ("iwari", 5, {"feats": True, "expeditions": True}),
    ("iwari", 3, {"map": "floating-lands", "expeditions": True}),
    ("hadrianswall", 1, {"difficulty": "hard"}),
    ("hadrianswall", 4, {}),
    ("hadrianswall", 3, {"resource_passing": False}),
]
SETTING_IDS = [f"{g}-{n}p" + ("-" + "-".join(f"{k}={v}" for k, v in o.items()) if o else "")
               for g, n, o in SETTINGS]

SHORTCUTS = {"end_year"}
"""Moves a random player would take far too early (Hadrian's Wall ends its year at once,
so its sheets would stay empty): taken only one time in ten when there is another."""


def sample_positions(game_id: str, seats: int, options: dict[str, Any], seed: int) -> list[dict[str, Any]]:
    """A random game's positions: ``POSITIONS`` drawn evenly by reservoir sampling, each
    from a deciding seat's view (with its legal moves) or, one time in four, a spectator's;
    and the end, from seat 0 and a spectator."""
    game = load(game_id)
    pick = random.Random(seed)
    state = game.setup(seats, options, seed)
    kept: list[dict[str, Any]] = []
    decisions = 0
    while game.result(state) is None:
        movers = game.seats_to_move(state)
        seat = movers[0]
        legal = game.legal(state, seat)
        decisions += 1
        slot = len(kept) if len(kept) < POSITIONS else pick.randrange(decisions)
        if slot < POSITIONS:
            reader = None if pick.random() < 0.25 else seat
            position = {"view": game.view(state, reader), "legal": legal if reader is not None else [],
                        "seat": reader, "pending": movers, "result": None}
            kept[slot:slot + 1] = [position]
        plain = [m for m in legal if m["type"] not in SHORTCUTS]
        game.perform(state, seat, pick.choice(plain if plain and pick.random() < 0.9 else legal))
    result = game.result(state)
    assert result is not None
    for reader in (0, None):
        kept.append({"view": game.view(state, reader), "legal": [], "seat": reader, "pending": [],
                     "result": result.to_json()})
    return kept


DRAW = """async ([game, positions, seats]) => {
  const module = await import(`/games/${game}.js`);
  const i18n = await import('/js/i18n.js');
  i18n.useGame(game);
  await i18n.loadGameStrings(game);
""" + PROBE_ROOT + """  // Key order aside, as the engine compares moves.
  const canonical = (v) => Array.isArray(v) ? `[${v.map(canonical).join(',')}]`
    : v && typeof v === 'object'
      ? `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`).join(',')}}`
      : JSON.stringify(v);
  const players = Array.from({ length: seats },
    (_, s) => ({ seat: s, username: s ? null : 'Ana', bot: s ? 'random' : null, zombie: false }));
  const faults = [];
  positions.forEach((p, i) => {
    const where = `position ${i} (seat ${p.seat}, ${p.legal.length} legal)`;
    const missing = new Set();
    const t = (key, args) => { if (!i18n.has(key)) missing.add(key); return i18n.t(key, args); };
    try {
      module.render(root, { view: p.view, legal: p.legal, events: [], seat: p.seat, seats: players, pending: p.pending,
                            result: p.result, game, lang: 'en', t, busy: false, play: () => {} });
    } catch (e) {
      faults.push(`${where}: render threw ${e && e.stack || e}`);
      return;
    }
    const legal = new Set(p.legal.map(canonical));
    for (const el of root.querySelectorAll('[data-move]')) {
      const raw = el.getAttribute('data-move');
      let move;
      try {
        move = JSON.parse(raw);
      } catch {
        faults.push(`${where}: data-move is not JSON: ${raw}`);
        continue;
      }
      if (!legal.has(canonical(move))) faults.push(`${where}: the board offers a move that is not legal: ${raw}`);
    }
    if (missing.size) faults.push(`${where}: no string for ${[...missing].join(', ')}`);
    const copy = root.cloneNode(true);
    copy.querySelectorAll('style').forEach((s) => s.remove());
    const text = copy.textContent;
    const bad = text.match(/undefined|NaN|\\[object Object\\]|\\{[a-z_]+\\}/);
    if (bad) faults.push(`${where}: the board reads "${text.slice(Math.max(0, bad.index - 40), bad.index + 40)}"`);
  });
  return faults;
}"""


@pytest.mark.parametrize(("game_id", "seats", "options"), SETTINGS,
                         ids=SETTING_IDS)
def test_the_board_draws_sampled_positions_offering_only_legal_moves(server, new_page, game_id: str, seats: int,
                                                                    options: dict[str, Any]) -> None:
    positions = sample_positions(game_id, seats, options, seed=seats)
    assert len(positions) == POSITIONS + 2
    page = new_page(f"{server.url}/#/help")
    faults = page.evaluate(DRAW, [game_id, positions, seats])
    assert not faults, "\n".join(faults[:10])
