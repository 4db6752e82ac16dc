"""What a table at Board Game Arena has besides the board, in a real Chromium against a
real server:

- the other players' last moves marked on the board (a class and corner brackets, no
  colour alone), at a real table after a bot moves and on each of the four games' boards;
- moves animated, briefly, and not at all for a reader who asks for reduced motion;
- sounds of the table's own making, off with one button that is remembered, and no
  AudioContext made while they are off;
- a tooltip on every card, tile and box of the four boards;
- each seat's key resources and its clock in its panel, bots' too;
- one score table at the end: the boards no longer repeat the frame's.
"""

from __future__ import annotations

import json
import random
from functools import cache
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from ludoteca.engine import Match
from tests.web.conftest import PROBE_ROOT, ROOT, screenshot
from tests.web.tables import SETUPS, wait_for_turn
from tests.web.tables import create_table as create_game_table
from tests.web.test_browser import click_first_move, create_table, start

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
LOCALES = {"en": "en-US", "ja": "ja-JP", "vi": "vi-VN"}
GAMES = ["bloodrage", "crusaders", "iwari", "hadrianswall"]

# Counts the AudioContexts the page makes, and samples document.getAnimations() on every
# frame (the longest list seen), before any of the page's own scripts run.
WATCH = """
(() => {
  window.__audio = 0;
  for (const name of ['AudioContext', 'webkitAudioContext']) {
    const Real = window[name];
    if (!Real) continue;
    window[name] = class extends Real { constructor(...a) { super(...a); window.__audio += 1; } };
  }
  window.__animations = 0;
  window.__animate = 0;
  const real = Element.prototype.animate;
  window.__durations = [];
  Element.prototype.animate = function (...a) {
    window.__animate += 1;
    window.__durations.push(typeof a[1] === 'number' ? a[1] : (a[1] || {}).duration);
    return real.apply(this, a);
  };
  const sample = () => {
    window.__animations = Math.max(window.__animations, document.getAnimations().length);
    requestAnimationFrame(sample);
  };
  requestAnimationFrame(sample);
})();
"""


def sealed_table(new_page, server, locale: str = "en-US", viewport: dict[str, int] | None = None,
                 reduced: bool = False) -> Page:
    """A started Sealed Bids table against the random bot, with the watch above installed
    (and reduced motion asked for, if ``reduced``)."""
    page = new_page(server.url, locale=locale, viewport=viewport)
    page.add_init_script(WATCH)
    if reduced:
        page.emulate_media(reduced_motion="reduce")
    page.reload()
    expect(page.locator("[data-game=sealedbids]")).to_be_visible()
    create_table(page)
    start(page)
    return page


def bot_has_moved(page: Page) -> None:
    """Bid once, then wait until the bot has bid after that (for the next prize): two
    versions on at least, with the bot's bid in the view."""
    before = page.evaluate("window.ludotecaTable.state.version")
    click_first_move(page)
    page.wait_for_function("(v) => { const s = window.ludotecaTable.state;"
                           " return (s.version >= v + 2 && s.view.bid[1]) || s.table.status === 'over'; }", arg=before)
    page.evaluate("() => new Promise((r) => setTimeout(r, 400))")  # an animation's length and more


# -- the last moves -------------------------------------------------------------------------


def test_a_bots_move_is_marked_on_the_board_with_corner_brackets(server, new_page) -> None:
    page = sealed_table(new_page, server)
    click_first_move(page)
    # The bot bids for the next prize after the reader's bid: its check mark, or the points
    # the round gave, are marked; never the reader's own move alone.
    marked = page.locator("#board .last-change")
    expect(marked.first).to_be_attached()
    parts = marked.evaluate_all("(els) => els.map((e) => e.getAttribute('data-part'))")
    assert any(p.endswith("/1") or p == "prize" for p in parts), parts
    expect(marked.first).to_have_attribute("aria-description", "Changed since your last move")  # heard too
    # A cue that is not a colour: corner brackets round each marked SVG part (four of
    # them in one path, drawn over a halo).
    corners = page.locator("#board .change-mark .change-corner").first
    expect(corners).to_be_attached()
    assert page.evaluate("(el) => el.getAttribute('d').split('M').length - 1", corners.element_handle()) == 4
    screenshot(page, "last-move-marked")


@cache
def another_seats_move(game: str, seats: int) -> dict[str, Any]:
    """Two views of a random game, either side of a move by a seat the reader is not: the
    reader is seat 0 (a spectator in Hadrian's Wall, whose board shows one seat's sheets:
    seat 0's, which moves then). A move some way in, where the reader's view changes."""
    match = Match.new(game, seats, {}, seed=5)
    pick = random.Random(5)
    reader = None if game == "hadrianswall" else 0
    found = 0
    while not match.over:
        seat = match.pending()[0]
        before = match.view(reader)
        match.play(seat, pick.choice(match.legal(seat)))
        mover_is_other = seat != 0 if reader == 0 else seat == 0
        if mover_is_other and match.view(reader) != before:
            found += 1
            if found >= 6:
                return {"before": before, "after": match.view(reader), "reader": reader}
    raise AssertionError("no move by another seat")


DRAW_TWO = """async ([game, before, after, reader, seats]) => {
  const module = await import(`/games/${game}.js`);
  const i18n = await import('/js/i18n.js');
  const kit = await import('/js/table/lastmove.js');
  i18n.useGame(game);
  await i18n.loadGameStrings(game);
""" + PROBE_ROOT + """
  const players = Array.from({ length: seats },
    (_, s) => ({ seat: s, username: s ? null : 'Ana', bot: s ? 'random' : null, zombie: false }));
  const ctx = (view) => ({ view, legal: [], events: [], seat: reader, seats: players, pending: [], result: null, game,
    lang: 'en', t: i18n.t, busy: false, play: () => {} });
  module.render(root, ctx(before));
  const places = kit.piecePlaces(root);
  module.render(root, ctx(after));
  const marked = kit.markChanges(root, before, after);
  const moved = kit.animateUpdate(root, places, before, after);
  // The slides as they start: read in a later call, a loaded machine may have run them out.
  const slides = document.getAnimations().filter((a) => a.effect.getKeyframes().some((k) => k.translate))
    .map((a) => [a.effect.target.getAttribute('data-piece'), a.effect.getTiming().duration]);
  return { marked: marked.length, moved, running: document.getAnimations().length, slides,
    parts: root.querySelectorAll('[data-part]').length };
}"""


@pytest.mark.parametrize("game", GAMES)
def test_each_board_marks_and_animates_what_another_seat_changed(server, new_page, game: str) -> None:
    case = another_seats_move(game, SETUPS[game])
    page = new_page(server.url)
    expect(page.locator("[data-game=iwari]")).to_be_visible()
    got = page.evaluate(DRAW_TWO, [game, case["before"], case["after"], case["reader"], SETUPS[game]])
    assert got["parts"] > 0, got
    assert got["marked"] > 0, got
    assert got["moved"] > 0 and got["running"] > 0, got
    expect(page.locator("#probe .last-change").first).to_be_attached()
    # Reduced motion: the same change is marked, and nothing moves.
    page.evaluate("() => document.getAnimations().forEach((a) => a.finish())")
    page.emulate_media(reduced_motion="reduce")
    got = page.evaluate(DRAW_TWO, [game, case["before"], case["after"], case["reader"], SETUPS[game]])
    assert got["marked"] > 0 and got["moved"] == 0 and got["running"] == 0, got


def a_knight_steps() -> tuple[dict[str, Any], dict[str, Any]]:
    """Seat 0's views of a two-seat Crusaders game either side of seat 1's first knight step."""
    match = Match.new("crusaders", 2, {}, seed=5)
    pick = random.Random(5)
    while not match.over:
        seat = match.pending()[0]
        before = match.view(0)
        legal = match.legal(seat)
        steps = [m for m in legal if m["type"] == "step"]
        move = steps[0] if steps and seat == 1 else pick.choice(legal)
        match.play(seat, move)
        if seat == 1 and move["type"] == "step":
            return before, match.view(0)
    raise AssertionError("no knight stepped")


def test_a_knight_that_steps_slides_from_where_it_stood(server, new_page) -> None:
    before, after = a_knight_steps()
    page = new_page(server.url)
    expect(page.locator("[data-game=iwari]")).to_be_visible()
    got = page.evaluate(DRAW_TWO, ["crusaders", before, after, 0, 2])
    assert got["moved"] > 0, got
    slides = got["slides"]
    assert [piece for piece, _ in slides] == ["1-0"], slides  # seat 1's first knight, alone
    assert all(duration < 300 for _, duration in slides), slides


# -- motion ------------------------------------------------------------------------------------


@pytest.mark.parametrize("reduced", [False, True], ids=["motion", "reduced-motion"])
def test_moves_animate_unless_the_reader_asks_for_reduced_motion(server, new_page, reduced: bool) -> None:
    page = sealed_table(new_page, server, reduced=reduced)
    bot_has_moved(page)
    seen = page.evaluate("[window.__animations, window.__animate]")
    # The sounds are on by default: the bot's move (or the turn coming back) was heard.
    assert page.evaluate("window.__audio") == 1
    if reduced:
        assert seen == [0, 0], seen
        assert page.evaluate("document.getAnimations().length") == 0
    else:
        assert seen[0] > 0 and seen[1] > 0, seen
        # Short: every animation the table started is over within 300 ms.
        durations = page.evaluate("window.__durations")
        assert all(d < 300 for d in durations), durations


# -- sounds ------------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "ja", "vi"])
def test_the_sound_button_is_remembered_and_off_means_no_audio_context(server, new_page, lang: str) -> None:
    page = sealed_table(new_page, server, locale=LOCALES[lang], viewport=PHONE)
    button = page.locator("#prompt-panel #sound-toggle")
    expect(button).to_have_attribute("aria-pressed", "true")
    strings = json.loads((ROOT / "src/ludoteca/web/i18n" / f"{lang}.json").read_text(encoding="utf-8"))["table"]
    expect(button).to_have_attribute("aria-label", strings["sound_off"])
    box = button.bounding_box()
    assert box and box["width"] >= 44 and box["height"] >= 44, box  # a finger's size on a phone
    button.click()
    expect(button).to_have_attribute("aria-pressed", "false")
    expect(button).to_have_attribute("aria-label", strings["sound_on"])
    assert page.evaluate("localStorage.getItem('ludoteca.sound')") == "0"
    # Remembered across a reload; and while off, the table makes no AudioContext at all,
    # through the bot's moves and the reader's turn coming back.
    page.reload()
    expect(page.locator("#sound-toggle")).to_have_attribute("aria-pressed", "false")
    page.wait_for_function("() => window.ludotecaTable && window.ludotecaTable.state.legal.length > 0")
    bot_has_moved(page)
    wait_for_turn(page)
    assert page.evaluate("window.__audio") == 0
    # On again: the click plays a sound, so there is one now.
    page.locator("#sound-toggle").click()
    expect(page.locator("#sound-toggle")).to_have_attribute("aria-pressed", "true")
    page.wait_for_function("() => window.__audio > 0")
    assert page.evaluate("localStorage.getItem('ludoteca.sound')") == "1"


# -- tooltips ------------------------------------------------------------------------------------

# Every card, tile and box each board draws.
THINGS = {
    "bloodrage": ".br-card-face, .br-province > .br-face, .br-fjord > .br-face, .br-token, .br-slot, .br-stat, .br-age",
    "crusaders": ".cr-region, .cr-tile, .cr-slot, .cr-troop, .cr-wedge, .cr-enemy, .cr-printed, .cr-influence",
    "iwari": ".iw-card, .iw-deck, .iw-space, .iw-totems, .iw-connection, .iw-land",
    "hadrianswall": ".hw-box, .hw-card, .hw-fate, .hw-cell, .hw-stock, .hw-disdain",
}

UNTITLED = """async ([game, view, reader, seats, selector]) => {
  const module = await import(`/games/${game}.js`);
  const i18n = await import('/js/i18n.js');
  i18n.useGame(game);
  await i18n.loadGameStrings(game);
""" + PROBE_ROOT + """
  const players = Array.from({ length: seats },
    (_, s) => ({ seat: s, username: s ? null : 'Ana', bot: s ? 'random' : null, zombie: false }));
  module.render(root, { view, legal: [], events: [], seat: reader, seats: players, pending: [], result: null, game,
    lang: 'en', t: i18n.t, busy: false, play: () => {} });
  const things = [...root.querySelectorAll(selector)];
  const tip = (el) => (el.getAttribute('title') || '').trim()
    || [...el.children].some((c) => c.tagName === 'title' && c.textContent.trim());
  const untitled = things.filter((el) => !tip(el)).slice(0, 8).map((el) => el.outerHTML.slice(0, 160));
  return { count: things.length, untitled };
}"""


@pytest.mark.parametrize("game", GAMES)
def test_every_card_tile_and_box_has_a_tooltip(server, new_page, game: str) -> None:
    case = another_seats_move(game, SETUPS[game])
    page = new_page(server.url)
    expect(page.locator("[data-game=iwari]")).to_be_visible()
    got = page.evaluate(UNTITLED, [game, case["after"], case["reader"], SETUPS[game], THINGS[game]])
    assert got["count"] > 10, got
    assert not got["untitled"], got


# -- the seat panels ------------------------------------------------------------------------------


@pytest.mark.parametrize(("game", "lang", "phone"), [("bloodrage", "en", False), ("crusaders", "ja", True),
                                                     ("iwari", "vi", True), ("hadrianswall", "en", True)])
def test_each_seat_shows_its_resources_and_its_clock_bots_too(server, new_page, game: str, lang: str,
                                                            phone: bool) -> None:
    page = new_page(server.url, locale=LOCALES[lang], viewport=PHONE if phone else None)
    expect(page.locator(f"[data-game={game}]")).to_be_visible()
    seats = SETUPS[game]
    create_game_table(page, game, seats)
    wait_for_turn(page)
    panels = page.locator("#seats-panel .seat")
    expect(panels).to_have_count(seats)
    for seat in range(seats):
        panel = page.locator(f"#seats-panel .seat[data-seat='{seat}']")
        expect(panel.locator(".clock")).to_have_count(1)
        resources = panel.locator(".resources .resource")
        assert resources.count() >= 2, (seat, panel.inner_text())
        for item in resources.all():
            label = item.locator(".res-label").inner_text().strip()
            value = item.locator(".res-value").inner_text().strip()
            assert label and "." not in label and "{" not in label, label  # a name, not a key
            assert value.lstrip("-").isdigit(), value
    # The bots' seats among them, each with its clock.
    bots = page.evaluate("() => window.ludotecaTable.state.table.players.filter((x) => x.bot).map((x) => x.seat)")
    assert len(bots) == seats - 1, bots
    for seat in bots:
        expect(page.locator(f"#seats-panel .seat[data-seat='{seat}'] .clock")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    screenshot(page, f"seat-panels-{game}-{lang}")


# -- the end ---------------------------------------------------------------------------------------

# Tables (HTML or SVG) on the board that list every seat's name with its final score:
# the frame's end screen shows the scores; a board that repeats them is a second table.
SCORE_TABLES = """async ([game, view, result, seats]) => {
  const module = await import(`/games/${game}.js`);
  const i18n = await import('/js/i18n.js');
  const { scoreboard } = await import('/js/pages/scoreboard.js');
  i18n.useGame(game);
  await i18n.loadGameStrings(game);
""" + PROBE_ROOT + """
  const names = ['Ana', 'Bo', 'Cy', 'Di', 'Ed'];
  const players = Array.from({ length: seats }, (_, s) => ({ seat: s, username: names[s], bot: null, zombie: false }));
  module.render(root, { view, legal: [], events: [], seat: 0, seats: players, pending: [], result, game,
    lang: 'en', t: i18n.t, busy: false, play: () => {} });
  const end = document.createElement('section');
  end.className = 'panel scoreboard';
  end.append(...scoreboard({ id: game }, result, players, module, view).filter(Boolean));
  root.before(end);
  const cells = (el) => el instanceof SVGElement
    ? [...el.querySelectorAll('text')].map((x) => x.textContent.trim())
    : [...el.querySelectorAll('td, th')].map((x) => x.textContent.trim());
  const lists = (el) => {
    const got = cells(el);
    const text = got.join(' ');
    const has = (score) => got.some((c) => c.replace('\u2212', '-').split(/\\s+/).includes(String(score)));
    return result.scores.every(has) && players.every((p) => text.includes(p.username));
  };
  const outer = (el) => !el.parentElement.closest('svg, table');
  const tablesIn = (box) => [...box.querySelectorAll('table, svg')].filter(outer).filter(lists);
  const board = tablesIn(root).map((el) => el.outerHTML.slice(0, 120));
  return { board, frame: end.querySelectorAll('#ranking').length };
}"""


@pytest.mark.parametrize("game", GAMES)
def test_the_end_shows_one_score_table(server, new_page, game: str) -> None:
    seats = 3 if game == "bloodrage" else 2
    match = Match.new(game, seats, {}, seed=3)
    pick = random.Random(3)
    while not match.over:
        seat = match.pending()[0]
        match.play(seat, pick.choice(match.legal(seat)))
    page = new_page(server.url, viewport=PHONE)
    expect(page.locator("[data-game=iwari]")).to_be_visible()
    got = page.evaluate(SCORE_TABLES, [game, match.view(0), match.result().to_json(), seats])  # type: ignore[union-attr]
    assert got["frame"] == 1, got
    assert got["board"] == [], got
