"""The Crusaders board in Chromium (src/ludoteca/web/games/crusaders.js).

- A person plays a whole 3-seat game against two random bots by clicking on the board itself
  (wedges, upgrade badges, map regions, the board's tray of choices), never on the frame's
  list of moves, and reaches the final scoreboard.
- Views of every phase of random 3- and 5-seat games (the large side of the map, knight
  orders included), drawn by the module: every legal move has its control on the board.

Screenshots at desktop and phone widths go to .playwright/screenshots/crusaders-*.png."""

from __future__ import annotations

import json
import random
import time
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.web.conftest import DESKTOP, PHONE, PROBE_ROOT, SHOTS, screenshot

pytestmark = pytest.mark.browser

GAME = "crusaders"
# The person prefers the actions that bring influence, so the supply runs out sooner.
PREFERENCE = {"influence": 3, "build": 2, "crusade": 2, "muster": 1, "move": 0}


def board_moves(page: Page) -> list[tuple[int, dict]]:
    """Every control on the board that plays a move, with that move."""
    texts = page.locator("#board [data-move]").evaluate_all("els => els.map(e => e.getAttribute('data-move'))")
    return [(i, json.loads(text)) for i, text in enumerate(texts)]


def click_board(page: Page, index: int) -> None:
    """Click the index-th board control and wait until the server has taken the move and
    its update is on the page."""
    state = "window.ludotecaTable.state"
    before = page.evaluate(f"[{state}.acks, {state}.version]")
    page.locator("#board [data-move]").nth(index).click()
    page.wait_for_function(f"([a, v]) => {state}.acks > a && {state}.version > v && !{state}.busy", arg=before)


def wait_for_turn_or_end(page: Page) -> bool:
    """True once the game is over; False when the board offers a move."""
    page.wait_for_function("() => !document.querySelector('#scoreboard').hidden"
                           " || (document.querySelector('#board [data-move]') && !window.ludotecaTable.state.busy)",
                           timeout=30_000)
    return page.locator("#scoreboard").is_visible()


def wedge_action(page: Page, pos: int) -> str:
    return page.locator(f"#board svg.cr-player[data-seat='0'] .cr-wedge[data-pos='{pos}']").evaluate(
        "g => g.classList.contains('upgraded') ? 'upgraded' : g.getAttribute('data-wedge')")


def choose(page: Page, moves: list[tuple[int, dict]], memo: dict, rng: random.Random) -> int:
    """A quick player. Early on it tries each kind of control once (an upgrade badge, a Move
    wedge and its steps on the map, an upgraded wedge and its split); then it takes the
    fullest wedge whose action brings influence at once, which also needs the fewest clicks
    (every move is a round trip to the server, and the test has a time budget)."""
    kinds = {m["type"] for _, m in moves}
    first = moves[0][0]
    pick = lambda t: [i for i, m in moves if m["type"] == t]  # noqa: E731 - a local shorthand
    if "order" in kinds or "place_knight" in kinds:
        return first
    if kinds & {"resolve", "upgrade"}:
        memo["steps"] = 0
        if not memo.get("upgraded") and pick("upgrade"):
            memo["upgraded"] = True
            return pick("upgrade")[0]
        wheel = page.evaluate("window.ludotecaTable.state.view.players[0].wheel")
        wedge = {i: wheel[m["wedge"]] for i, m in moves if "wedge" in m}
        if not memo.get("moved"):
            moving = [i for i in pick("resolve") if wedge[i]["action"] == "move" and not wedge[i]["upgraded"]]
            if moving:
                memo["moved"] = True
                return moving[0]
        if not memo.get("split"):
            split = [i for i in pick("resolve") if wedge[i]["upgraded"] and wedge[i]["tokens"] >= 2]
            if split:
                memo["split"] = True
                return split[0]
        plain = [i for i in pick("resolve") if not wedge[i]["upgraded"] and wedge[i]["action"] != "move"]
        if plain:
            return max(plain, key=lambda i: wedge[i]["tokens"] * PREFERENCE[wedge[i]["action"]])
        return (pick("resolve") or pick("upgrade") or [first])[0]
    if "split" in kinds:
        splits = [(i, m) for i, m in moves if m["type"] == "split"]
        return max(splits, key=lambda im: PREFERENCE.get(im[1]["first"], 0) * 10 + im[1]["primary"])[0]
    if "step" in kinds:
        if memo.get("steps", 0) < 2:
            memo["steps"] = memo.get("steps", 0) + 1
            return rng.choice(pick("step"))
        return pick("stop")[0]
    if "crusade" in kinds:
        return pick("crusade")[0]
    if "build" in kinds:
        return pick("build")[0]
    if "no_sow" in kinds:
        return pick("no_sow")[0]
    return first


@pytest.mark.slow
def test_a_whole_game_against_a_bot_on_the_board(server, new_page) -> None:
    started = time.monotonic()
    page = new_page(server.url)
    page.locator(f"[data-game={GAME}] button.primary").click()
    form = page.locator("#create-form")
    expect(form).to_be_visible()
    form.locator("#create-seats").select_option("3")
    form.locator("#create-bot").select_option("random")  # instant moves keep the test short
    # Without knight orders: some orders ask one more question every turn (how to sow, how to
    # split an upgraded wedge), and the test has a time budget. The order cards are played on
    # the board in test_the_large_board_offers_every_phase_on_the_board.
    form.locator("#opt-knight_orders").uncheck()
    form.locator("#create-submit").click()
    expect(page.locator("#waiting")).to_be_visible()
    page.locator("#start").click()
    expect(page.locator("#board svg.cr-map .cr-region")).to_have_count(61)  # the 3-5 seat side
    kinds_played: set[str] = set()

    rng = random.Random(5)
    memo: dict = {}
    clicks = 0
    shots = {"turn": False, "move": False}
    keyboard_done = False
    for _ in range(400):
        if wait_for_turn_or_end(page):
            break
        moves = board_moves(page)
        kinds = {m["type"] for _, m in moves}
        # Every legal move has its control on the board: the frame's list offers nothing more.
        # Steps and builds are picked in two clicks (the knight or the region first), so only
        # some of them carry their move at a time.
        legal = page.evaluate("window.ludotecaTable.state.legal")
        on_board = {json.dumps(m, sort_keys=True) for _, m in moves}
        for m in legal:
            if m["type"] in ("step", "build"):
                assert any(b["type"] == m["type"] for _, b in moves), (m, moves)
            else:
                assert json.dumps(m, sort_keys=True) in on_board, (m, moves)
        if "resolve" in kinds and not shots["turn"] and memo.get("upgraded"):
            shots["turn"] = True
            expect(page.locator("#board .cr-wedge.upgraded")).not_to_have_count(0)
            screenshot(page, "crusaders-turn-desktop")
            # Close-ups of the reader's own board and of the map, to look at the details.
            page.locator("#board svg.cr-player").first.screenshot(path=SHOTS / "crusaders-wheel-closeup.png")
            page.locator("#board svg.cr-map").screenshot(path=SHOTS / "crusaders-map-closeup.png")
            screenshot(page, "crusaders-turn-phone", PHONE)
            page.set_viewport_size(DESKTOP)
        if "step" in kinds and not shots["move"]:
            shots["move"] = True
            screenshot(page, "crusaders-move-desktop")
        index = choose(page, moves, memo, rng)
        move = moves[index][1]
        if move["type"] == "resolve" and not keyboard_done:
            # Once with the keyboard: a wedge is a button (Enter plays it).
            keyboard_done = True
            state = "window.ludotecaTable.state"
            before = page.evaluate(f"{state}.acks")
            page.locator("#board [data-move]").nth(index).focus()
            page.keyboard.press("Enter")
            page.wait_for_function(f"(a) => {state}.acks > a && !{state}.busy", arg=before)
        elif move["type"] == "build" and page.locator(region := f"#board .cr-region[data-region='{move['region']}']"
                                                      ).get_attribute("data-move") is None:
            # Several buildings fit this region: pick the region on the map, then the building.
            page.locator(region).click()
            expect(page.locator("#board .cr-tray .cr-choice[data-move*='\"build\"']").first).to_be_visible()
            moves = board_moves(page)
            index = next(i for i, m in moves if m["type"] == "build" and m["region"] == move["region"])
            click_board(page, index)
        else:
            click_board(page, index)
        kinds_played.add(move["type"])
        clicks += 1
    else:
        raise AssertionError("the game did not end")

    tried = {"place_knight", "upgrade", "no_sow", "resolve", "step", "stop", "split"}
    assert tried <= kinds_played, kinds_played
    # The end: one score table, the frame's, with the points by source in the reader's
    # words (the board no longer repeats it).
    expect(page.locator("#table-status")).to_have_attribute("data-status", "over")
    expect(page.locator("#ranking tbody tr")).to_have_count(3)
    final = page.locator("#statistics")
    expect(final).to_be_visible()
    expect(final.locator("thead th")).to_have_count(4)  # the source, then a column per player
    expect(final.locator("tbody")).to_contain_text("Influence")
    expect(page.locator("#board .cr-final")).to_have_count(0)
    expect(page.locator("#board [data-move]")).to_have_count(0)
    screenshot(page, "crusaders-over-desktop")
    screenshot(page, "crusaders-over-phone", PHONE)
    # The same board in Japanese: no key shows through.
    page.set_viewport_size(DESKTOP)
    page.locator("#language").select_option("ja")
    expect(final.locator("tbody")).to_contain_text("合計")
    assert "cr.ui" not in page.locator("#board").inner_text()
    screenshot(page, "crusaders-over-ja-desktop")
    print(f"{clicks} clicks, rounds {page.evaluate('window.ludotecaTable.state.view.round')}, "
          f"kinds played: {sorted(kinds_played)}; {time.monotonic() - started:.1f} s")


def engine_views(seats: int, seed: int, wheel: str = "individual") -> dict[str, tuple[dict, list[dict], int]]:
    """A random game in this process: the first view (and legal moves) of the deciding seat
    in each phase, keyed by phase."""
    from ludoteca.engine import Rng
    from ludoteca.games.crusaders import CrusadersGame

    game = CrusadersGame()
    rng = Rng(seed)
    state = game.setup(seats, {"knight_orders": True, "wheel": wheel}, seed)
    found: dict[str, tuple[dict, list[dict], int]] = {}
    while game.result(state) is None:
        seat = game.pending(state)[0].seat
        legal = game.legal(state, seat)
        found.setdefault(state.phase, (game.view(state, seat), legal, seat))
        game.perform(state, seat, rng.choice(legal))
    found["over"] = (game.view(state, 0), [], 0)
    return found


RENDER = """async ([view, legal, seat, lang]) => {
  const m = await import('/games/crusaders.js');
  const i18n = await import('/js/i18n.js');
  if (lang) await i18n.setLanguage(lang, { remember: false });
  i18n.useGame('crusaders');
  await i18n.loadGameStrings('crusaders');
""" + PROBE_ROOT + """  window.played = [];
  const seats = view.players.map((_, s) => ({ seat: s, username: `Player ${s + 1}`, bot: false }));
  m.render(root, { view, legal, events: [], seat, seats, pending: [seat], result: null, t: i18n.t, lang: 'en',
                   play: (move) => window.played.push(move) });
  return root.querySelectorAll('[data-move]').length;
}"""


def moves_on_board(page: Page, legal: list[dict[str, Any]], phase: str) -> list[dict[str, Any]]:
    """The moves the drawn board's controls play, after checking every legal move has one
    (steps and builds by kind: a region may stand for several)."""
    on_board = [json.loads(m) for m in page.locator("#probe [data-move]").evaluate_all(
        "els => els.map(e => e.getAttribute('data-move'))")]
    for move in legal:
        if move["type"] in ("step", "build"):
            assert any(b["type"] == move["type"] for b in on_board), (phase, move)
        else:
            assert move in on_board, (phase, move)
    return on_board


@pytest.mark.parametrize("seats", [3, 5])
def test_the_large_board_offers_every_phase_on_the_board(server, new_page, seats: int) -> None:
    """Views from every phase of a random 3- or 5-seat game, drawn straight by the module:
    each legal move has its control on the board, and clicking one plays exactly it."""
    page = new_page(f"{server.url}/#/help")
    views = engine_views(seats, seed=seats)
    assert {"order", "setup", "turn", "move", "split", "build", "after_upgrade", "over"} <= set(views), set(views)
    for phase, (view, legal, seat) in views.items():
        assert page.evaluate(RENDER, [view, legal, seat, None]) >= (1 if legal else 0), phase
        expect(page.locator("#probe svg.cr-map .cr-region")).to_have_count(61)
        expect(page.locator("#probe svg.cr-player")).to_have_count(seats)
        on_board = moves_on_board(page, legal, phase)
        if seats == 3 and phase in ("crusade", "build", "split", "order"):
            screenshot(page, f"crusaders-3-seats-{phase}")
        if legal:
            # The first control, clicked: exactly its move is played.
            page.locator("#probe [data-move]").first.click()
            assert page.evaluate("window.played") == [on_board[0]], phase
        if phase == "turn" and seats == 5:
            expect(page.locator("#probe .cr-region").first.locator(".cr-space")).to_have_count(2)
            screenshot(page, "crusaders-5-seats-desktop")
            screenshot(page, "crusaders-5-seats-phone", PHONE)
            page.set_viewport_size(DESKTOP)
    expect(page.locator("#probe .cr-final")).to_have_count(0)  # the frame's end screen has the scores
    assert "cr.ui" not in page.locator("#probe").inner_text()


@pytest.mark.parametrize("wheel", ["learning", "tournament"])
def test_cr_41_cr_42_variant_games_offer_every_move_on_the_board(server, new_page, wheel: str) -> None:
    """The Learning Game (no upgrade badges) and the Knight's Tournament (the wheel arranged
    place by place, any knight order), drawn from a random 3-seat game: every legal move has
    its control on the board, and another seat's wheel stays hidden while it is arranged."""
    page = new_page(f"{server.url}/#/help")
    views = engine_views(3, seed=5, wheel=wheel)
    for phase, (view, legal, seat) in views.items():
        assert page.evaluate(RENDER, [view, legal, seat, None]) >= (1 if legal else 0), phase
        moves_on_board(page, legal, phase)
        if wheel == "learning":
            expect(page.locator("#probe .cr-upgrade")).to_have_count(0)
            if phase == "turn":
                expect(page.locator("#probe svg.cr-player[data-seat='0'] .cr-wedge.upgraded")).to_have_count(2)
        if wheel == "tournament" and phase == "order":
            assert legal[0]["type"] == "arrange"
            # the reader arranges its own wheel; the others' are not shown
            expect(page.locator(f"#probe svg.cr-player:not([data-seat='{seat}']) .cr-wedge")).to_have_count(0)
            expect(page.locator("#probe .cr-choice").first).to_contain_text("Place 1:")
            screenshot(page, "crusaders-tournament-arrange")
            page.set_viewport_size(PHONE)
            heights = page.locator("#probe .cr-choice").evaluate_all(
                "els => els.map(e => e.getBoundingClientRect().height)")
            assert heights and min(heights) >= 44, heights  # a finger can hit every choice
            screenshot(page, "crusaders-tournament-arrange-phone", PHONE)
            page.set_viewport_size(DESKTOP)
        text = page.locator("#probe").inner_text()
        assert "cr.ui" not in text and "undefined" not in text, phase
    assert "order" in views and "over" in views


@pytest.mark.parametrize("lang", ["en", "ja", "vi"])
def test_cr_43_the_map_and_the_log_name_regions_alike(server, new_page, lang: str) -> None:
    """Every hex shows its name (row letter, place number), the names the log lines and the
    move labels use: "from D2 to C1", never a region id such as l20."""
    from ludoteca.games.crusaders import CrusadersGame
    from ludoteca.games.crusaders.components import components

    board = components().board_for(3)
    game = CrusadersGame()
    state = game.setup(3, {"knight_orders": False, "wheel": "shared"}, 3)  # first knights to place
    seat = game.pending(state)[0].seat
    legal = game.legal(state, seat)
    assert {m["type"] for m in legal} == {"place_knight"}
    page = new_page(f"{server.url}/#/help")
    page.evaluate(RENDER, [game.view(state, seat), legal, seat, lang])
    drawn = page.locator("#probe svg.cr-map .cr-region").evaluate_all(
        "els => els.map(e => [e.dataset.region, e.querySelector('.cr-region-name').textContent])")
    assert sorted(drawn) == sorted([reg.id, reg.name] for reg in board.regions)
    labels = page.locator("#probe [data-move]").evaluate_all(
        "els => els.map(e => e.getAttribute('aria-label') || e.textContent)")
    named = {board.regions[board.index[m["region"]]].name for m in legal}
    assert len(labels) == len(legal) and all(any(name in label for label in labels) for name in named), labels
    assert not any(reg.id in " ".join(labels) for reg in board.regions), labels
    line = page.evaluate("""async () => {
        const m = await import('/js/gamemodule.js');
        return m.eventText('crusaders', { key: 'cr.moved', args: { seat: 0, from: 'l20', to: 'l12' } },
                           [{ seat: 0, username: 'ana' }]);
    }""")
    assert "D2" in line and "C1" in line and "l20" not in line and "l12" not in line, line
    screenshot(page, f"crusaders-region-names-{lang}")
