"""Blood Rage's board in Chromium: a person plays a whole 4-seat game against three bots by
clicking on the board (web/games/bloodrage.js), from the first draft to the final glory.

Each click goes to the board element that carries the chosen move in `data-move` (a
province, a fjord, a figure, a pillage token, a card, a stat track, an upgrade slot, the
bar of moves without a target); an invasion first picks the figure in the reserve, an
upgrade that fits several slots first picks the card. The frame's list of moves is used
only if the board has no control for a move, and the test counts those fallbacks.
"""

from __future__ import annotations

import contextlib
import json

import pytest
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.web.conftest import DESKTOP, PHONE, PROBE_ROOT, SHOTS, screenshot
from tests.web.tables import open_move_list

pytestmark = pytest.mark.browser

GAME = "bloodrage"
ME = 0


def create_table(page: Page) -> None:
    """From the lobby: a 4-seat Blood Rage table with the instant random bot in the other seats."""
    page.locator(f"[data-game={GAME}] button.primary").click()
    form = page.locator("#create-form")
    expect(form).to_be_visible()
    # BR-11: the first player is drawn, or named among the seats the table has
    form.locator("#create-seats").select_option("2")
    expect(form.locator("#opt-first_player option")).to_have_count(3)
    form.locator("#create-seats").select_option("4")
    expect(form.locator("#opt-first_player option")).to_have_text(["drawn at random", "seat 1", "seat 2", "seat 3",
                                                                    "seat 4"])
    expect(form.locator("#opt-clans")).to_have_value("choose")
    form.locator("#create-bot").select_option("random")
    form.locator("#create-submit").click()
    expect(page.locator("#waiting")).to_be_visible()
    page.locator("#start").click()


def state(page: Page) -> dict:
    return page.evaluate("""() => { const s = window.ludotecaTable.state;
        return {legal: s.legal, view: s.view, version: s.version, acks: s.acks, busy: s.busy,
                over: Boolean(s.result) || (s.table && s.table.status === 'over')}; }""")


def wait_for_turn_or_end(page: Page) -> dict:
    page.wait_for_function("""() => { const s = window.ludotecaTable && window.ludotecaTable.state;
        return s && (s.result || (s.table && s.table.status === 'over')
                     || (s.legal.length && !s.busy && document.querySelector('#board .br-board'))); }""",
                           timeout=20_000)
    return state(page)


def board_shot(page: Page, name: str) -> None:
    """The board alone, at the current width: a full-page phone shot is too tall to read."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.locator("#board").screenshot(path=SHOTS / f"{name}.png")
    page.locator("#board .br-map").screenshot(path=SHOTS / f"{name}-map.png")


def phone_shots(page: Page, name: str) -> None:
    """The whole page and the board alone at phone width, once the board has redrawn
    itself for it (it enlarges the map's lettering), then back to the desktop."""
    page.set_viewport_size(PHONE)
    expect(page.locator("#board .br-board")).to_have_attribute("data-compact", "1")
    screenshot(page, name)
    board_shot(page, f"{name}-board")
    page.set_viewport_size(DESKTOP)
    expect(page.locator("#board .br-board")).to_have_attribute("data-compact", "0")


class Player:
    """Chooses moves the way a cautious person might (a few actions an age, then pass),
    and plays each by clicking the board."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.actions = 0  # actions taken in the current age
        self.age = 0
        self.seen: set[str] = set()  # move types played through the board
        self.fallbacks: list[dict] = []
        self.marched = False

    def choose(self, legal: list[dict], view: dict) -> dict:
        by_type: dict[str, list[dict]] = {}
        for m in legal:
            by_type.setdefault(m["type"], []).append(m)
        if view["age"] != self.age:
            self.age, self.actions = view["age"], 0
        if "pass" in by_type and not view.get("battle"):  # the action phase, my turn
            return self.action(by_type, view)
        for kind in ("pick", "play", "keep", "raise", "join", "march_add", "free_invade", "keep_figure",
                     "sacrifice_figure", "protect", "keep_card", "move_leader", "domain_pillage"):
            if kind in by_type:
                if kind == "march_add" and "march_to" in by_type:
                    return by_type["march_to"][0]
                return by_type[kind][0]
        if "march_to" in by_type:
            return by_type["march_to"][0]
        for m in legal:
            if m["type"] in ("decline", "discard_all"):
                return m
        return legal[0]

    def action(self, by_type: dict[str, list[dict]], view: dict) -> dict:
        self.actions += 1
        if self.actions > 7:
            return by_type["pass"][0]
        mine = [p["id"] for p in view["provinces"] if any(s == ME for s, _ in p["figures"])]
        invades = by_type.get("invade", [])
        if invades and self.actions == 1:  # each age opens with an invasion: two clicks
            return invades[len(invades) // 2]
        if "pillage" in by_type:
            return by_type["pillage"][0]
        if "upgrade" in by_type:
            return by_type["upgrade"][-1]  # the last slot: for a clan card, not the first one
        if "quest" in by_type:
            return by_type["quest"][0]
        if "march" in by_type and not self.marched and len(mine) >= 1 and self.actions > 2:
            self.marched = True
            return by_type["march"][0]
        leader = [m for m in invades if m["figure"] == "leader"]
        if leader:
            return leader[0]
        if invades:
            ship = [m for m in invades if m["figure"] == "ship"]
            return ship[0] if ship and self.actions % 2 else invades[len(invades) // 2]
        return by_type["pass"][0]

    def click(self, move: dict) -> None:
        page = self.page
        key = json.dumps(move, separators=(",", ":"), ensure_ascii=False)
        target = page.locator(f"#board [data-move='{key}']")
        if move["type"] not in ("invade", "valhalla_invade", "upgrade"):
            # Bots drafting at the same time redraw the board: wait out a redraw in progress
            # rather than read an empty board.
            with contextlib.suppress(PlaywrightTimeout):
                target.first.wait_for(state="attached", timeout=3_000)
        if not target.count():
            # The two-click moves: the figure (invade) or the card (upgrade) first.
            first = None
            if move["type"] == "invade":
                first = f"reserve:{move['figure']}"
            elif move["type"] == "valhalla_invade":
                first = f"valhalla:{move['figure']}"
            elif move["type"] == "upgrade":
                first = f"card:{move['card']}"
            if first:
                page.locator(f"#board [data-select='{first}']").first.click()
                target = page.locator(f"#board [data-move='{key}']")
        if target.count():
            self.seen.add(move["type"])
        else:
            self.fallbacks.append(move)
            # A move that reads like an earlier one shares its button (data-also).
            open_move_list(page)
            target = page.locator(f"#moves button.move[data-move='{key}'], #moves button.move[data-also*='{key}']")
        before = state(page)
        target.first.click()
        page.wait_for_function("([a, v]) => { const s = window.ludotecaTable.state;"
                               " return s.acks > a && s.version > v; }", arg=[before["acks"], before["version"]])


@pytest.mark.slow
def test_a_whole_blood_rage_game_by_clicking_the_board(server, new_page) -> None:
    page = new_page(server.url)
    expect(page.locator(f"[data-game={GAME}]")).to_be_visible()
    create_table(page)
    expect(page.locator("#board .br-board")).to_be_visible()
    expect(page.locator("#board .br-map")).to_be_visible()
    expect(page.locator("#board .br-province")).to_have_count(9)
    expect(page.locator("#board .br-fjord")).to_have_count(4)
    expect(page.locator("#board .br-clan")).to_have_count(4)

    player = Player(page)
    shots = {"draft": False, "action": False, "battle": False}
    # BR-104: the clans are chosen in turn from the first player (the bots choose at once);
    # mine from the bar, by name, among the clans still free. The clan sheets then name it.
    first = wait_for_turn_or_end(page)
    if first["legal"][0]["type"] == "clan":
        taken = {c["clan"] for c in first["view"]["clans"] if c["clan"]}
        assert {m["clan"] for m in first["legal"]} == {"wolf", "serpent", "raven", "bear"} - taken
        choice = first["legal"][-1]
        button = page.locator(f"#board .br-bar [data-move='{json.dumps(choice, separators=(',', ':'))}']")
        expect(button).to_have_attribute("aria-label", f"Play the {choice['clan'].capitalize()} clan")
        button.click()
        expect(page.locator(f"#board .br-clan[data-seat='{ME}'] [data-clan='{choice['clan']}']")).to_have_text(
            f"{choice['clan'].capitalize()} clan")
        first = wait_for_turn_or_end(page)
    # The first pick by keyboard: a card in the pack is a button.
    assert first["legal"][0]["type"] == "pick"
    assert all(c["clan"] for c in first["view"]["clans"])
    expect(page.locator("#board .br-card .br-legal")).to_have_count(len(first["legal"]))
    screenshot(page, "bloodrage-draft-desktop")
    phone_shots(page, "bloodrage-draft-phone")
    shots["draft"] = True
    # The same pack in Japanese: card titles, types and texts follow the reader's language.
    page.locator("#language").select_option("ja")
    expect(page.locator("#board .br-cards h3").first).to_have_text("ドラフトのパック")
    board_shot(page, "bloodrage-draft-ja")
    page.locator("#language").select_option("en")
    expect(page.locator("#board .br-cards h3").first).to_have_text("Draft pack")
    before = first["acks"]
    page.locator("#board .br-card .br-legal").first.focus()
    page.keyboard.press("Enter")
    page.wait_for_function("(a) => window.ludotecaTable.state.acks > a", arg=before)

    for _ in range(600):
        st = wait_for_turn_or_end(page)
        if st["over"]:
            break
        view = st["view"]
        if not shots["action"] and view["phase"] == "action" and view["age"] == 2:
            screenshot(page, "bloodrage-action-desktop")
            phone_shots(page, "bloodrage-action-phone")
            shots["action"] = True
        if not shots["battle"] and view.get("battle") and view["battle"]["participants"][1:]:
            screenshot(page, "bloodrage-battle-desktop")
            board_shot(page, "bloodrage-battle-board")
            shots["battle"] = True
        player.click(player.choose(st["legal"], view))
    else:
        raise AssertionError("the game did not end")

    expect(page.locator("#scoreboard")).to_be_visible()
    expect(page.locator("#ranking tbody tr")).to_have_count(4)
    # One score table: the frame's (with the points by source); the board repeats none.
    expect(page.locator("#statistics")).to_be_visible()
    expect(page.locator("#board .br-final")).to_have_count(0)
    screenshot(page, "bloodrage-over-desktop")
    phone_shots(page, "bloodrage-over-phone")
    print("played on the board:", sorted(player.seen))
    # Whatever the board offered was played on the board; only moves it has no control
    # for would have gone through the frame's list.
    assert not player.fallbacks, player.fallbacks
    # "pass" is not required: a clan whose rage runs out first never needs it.
    assert {"pick", "invade"} <= player.seen, player.seen


MAP_PROBE = """async ([view, legal]) => {
  const module = await import('/games/bloodrage.js');
  const i18n = await import('/js/i18n.js');
  i18n.useGame('bloodrage');
  await i18n.loadGameStrings('bloodrage');
""" + PROBE_ROOT + """  const seats = view.clans.map((c) => ({ seat: c.seat, username: `P${c.seat + 1}`, bot: null,
                                        zombie: false }));
  module.render(root, { view, legal, events: [], seat: 0, seats, pending: [0], result: null, game: 'bloodrage',
                        lang: 'en', t: i18n.t, busy: false, play: () => {} });
  const map = root.querySelector('.br-map');
  const shape = (id) => map.querySelector(`.br-province[data-loc="${id}"] > .br-face`);
  const ids = view.provinces.map((p) => p.id);
  const inside = (x, y) => {
    const pt = map.createSVGPoint();
    pt.x = x; pt.y = y;
    return ids.filter((id) => shape(id).isPointInFill(pt));
  };
  // Round the board at mid-ring: the provinces met in turn, and what lies at the ring's inner edge.
  const cx = 390, cy = 400;
  const around = [];
  const inner = new Set();
  for (let deg = 0; deg < 360; deg += 1) {
    const a = deg * Math.PI / 180;
    const hit = inside(cx + 204 * Math.cos(a), cy + 204 * Math.sin(a));
    if (hit.length === 1 && around[around.length - 1] !== hit[0]) around.push(hit[0]);
    for (const r of [97, 103]) for (const id of inside(cx + r * Math.cos(a), cy + r * Math.sin(a))) inner.add(id);
  }
  if (around.length > 1 && around[0] === around[around.length - 1]) around.pop(); // round the full circle
  // Which provinces each fjord's water reaches into.
  const fjords = {};
  for (const g of map.querySelectorAll('.br-fjord')) {
    const c = g.querySelector('circle.br-face');
    const x0 = Number(c.getAttribute('cx')), y0 = Number(c.getAttribute('cy')), r = Number(c.getAttribute('r'));
    const touched = new Set();
    for (let dx = -r; dx <= r; dx += 3) for (let dy = -r; dy <= r; dy += 3) {
      if (dx * dx + dy * dy < r * r) for (const id of inside(x0 + dx, y0 + dy)) touched.add(id);
    }
    fjords[g.getAttribute('data-loc')] = [...touched].sort();
  }
  const clans = [...root.querySelectorAll('.br-clan [data-clan]')]
    .map((el) => [el.getAttribute('data-clan'), el.textContent]);
  return { around, inner: [...inner].sort(), fjords, clans };
}"""


def _ring_pairs(names: list[str]) -> set[frozenset[str]]:
    return {frozenset((names[k], names[(k + 1) % len(names)])) for k in range(len(names))}


def test_br_2_3_the_map_shows_the_printed_neighbours_and_fjords(server, new_page) -> None:
    from ludoteca.games.bloodrage import BloodRageGame
    from ludoteca.games.bloodrage.components import ADJACENT, FJORD_SUPPORTS, FJORDS, OUTER, PROVINCES, YGG

    game = BloodRageGame()
    state = game.setup(4, {"clans": "random", "first_player": "1"}, 3)
    state.destroyed = [False] * len(PROVINCES)
    for seat, where in enumerate(FJORDS):  # a ship in each fjord
        state.locs[seat][1] = PROVINCES.index("yggdrasil") + 1 + FJORDS.index(where)
    page = new_page(f"{server.url}/#/help")
    got = page.evaluate(MAP_PROBE, [game.view(state, 0), []])
    # BR-2: going round the ring, each province meets exactly its printed neighbours...
    borders = {frozenset((PROVINCES[p], PROVINCES[q])) for p in OUTER for q in ADJACENT[p] if q != YGG}
    assert sorted(got["around"]) == sorted(PROVINCES[p] for p in OUTER)
    assert _ring_pairs(got["around"]) == borders
    # ... and every one of them touches Yggdrasil
    assert got["inner"] == sorted(PROVINCES)
    # BR-3: each fjord's water cuts into the two provinces it supports, and no other
    assert got["fjords"] == {FJORDS[k]: sorted(PROVINCES[p] for p in pair) for k, pair in enumerate(FJORD_SUPPORTS)}
    # BR-106: each clan sheet names its clan
    assert [c for c, _ in got["clans"]] == state.clans
    page.locator("#probe .br-map").screenshot(path=str(_shot("bloodrage-printed-map")))


def _shot(name: str):
    SHOTS.mkdir(parents=True, exist_ok=True)
    return SHOTS / f"{name}.png"


CLAN_PROBE = """async ([view, legal, lang]) => {
  const module = await import('/games/bloodrage.js');
  const i18n = await import('/js/i18n.js');
  await i18n.setLanguage(lang, { remember: false });
  i18n.useGame('bloodrage');
  await i18n.loadGameStrings('bloodrage');
""" + PROBE_ROOT + """  const seats = view.clans.map((c) => ({ seat: c.seat, username: `P${c.seat + 1}`, bot: null,
                                        zombie: false }));
  const missing = [];
  const t = (key, args) => { if (!i18n.has(key)) missing.push(key); return i18n.t(key, args); };
  module.render(root, { view, legal, events: [], seat: view.you.seat, seats, pending: [view.you.seat],
                        result: null, game: 'bloodrage', lang, t, busy: false, play: () => {} });
  const buttons = [...root.querySelectorAll('.br-bar [data-move]')].map((el) => el.getAttribute('aria-label'));
  const sheets = [...root.querySelectorAll('.br-clan [data-clan]')].map((el) => el.textContent);
  // the height a finger can hit: the button's face with its outline, rounded to the pixel
  const sizes = [...root.querySelectorAll('.br-bar [data-move] > .br-face')]
    .map((el) => Math.round(el.getBoundingClientRect().height + Number(el.getAttribute('stroke-width'))));
  return { buttons, sheets, missing, sizes };
}"""


@pytest.mark.parametrize("lang", ["en", "ja", "vi"])
def test_br_104_the_clan_choice_reads_in_every_language(server, new_page, lang: str) -> None:
    from pathlib import Path

    from ludoteca.games.bloodrage import BloodRageGame

    texts = json.loads((Path(__file__).resolve().parents[2] / "src" / "ludoteca" / "games" / "bloodrage" / "i18n"
                        / f"{lang}.json").read_text(encoding="utf-8"))
    game = BloodRageGame()
    state = game.setup(3, {"first_player": "2"}, 1)
    game.apply(state, 1, {"type": "clan", "clan": "raven"})
    legal = game.legal(state, 2)
    page = new_page(f"{server.url}/#/help", viewport=PHONE)
    got = page.evaluate(CLAN_PROBE, [game.view(state, 2), legal, lang])
    assert not got["missing"]
    # one button per clan still free, named in the reader's language
    assert got["buttons"] == [texts["br.ui.choose_clan"].replace("{clan}", texts[f"br.clan.{m['clan']}"])
                              for m in legal]
    # the sheets: the clan chosen, and "choosing" for the others
    assert got["sheets"] == [texts["br.ui.no_clan"], texts["br.clan.raven"], texts["br.ui.no_clan"]]
    assert min(got["sizes"]) >= 44  # a finger's width on a phone
