"""Iwari's board in a real Chromium: a person plays a whole 3-seat game against two bots
by clicking on the board (territories, tent spaces, totem circles, cards, the deck),
closes the half-journey and end-of-journey scoring overlays, and reaches the final
scoreboard. Screenshots at desktop and phone widths go to .playwright/screenshots/."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import Page, expect

from tests.web.conftest import DESKTOP, PHONE, ROOT, screenshot

pytestmark = pytest.mark.browser

GAME = "iwari"
# The order the person prefers moves in: spread tents, raise totems, then pay, draw.
PREFERENCE = ["feat", "pay", "tent", "totem", "done", "territory", "draw", "discard"]


def create_table(page: Page, seats: int = 3) -> None:
    """From the lobby: an Iwari table with random bots (instant) in every other seat."""
    page.locator(f"[data-game={GAME}] button.primary").click()
    form = page.locator("#create-form")
    expect(form).to_be_visible()
    form.locator("#create-seats").select_option(str(seats))
    expect(form.locator("input[name=bot]")).to_have_count(seats - 1)
    form.locator("#create-bot").select_option("random")
    form.locator("#create-submit").click()
    expect(page.locator("#waiting")).to_be_visible()
    page.locator("#start").click()


def wait_for_turn_or_end(page: Page) -> str:
    """'end' once the final scoreboard shows, 'overlay' when a scoring overlay is open,
    'turn' when the person has a move to make (and the board has drawn it)."""
    page.wait_for_function(
        "() => { const s = window.ludotecaTable && window.ludotecaTable.state;"
        " if (!document.querySelector('#scoreboard').hidden) return true;"
        " if (document.querySelector('#board .iw-overlay')) return true;"
        " return s && !s.busy && s.legal.length > 0 && (document.querySelector('#board .iw-legal')"
        "   || document.querySelector('#moves button.move:not([disabled])')); }")
    if page.locator("#board .iw-overlay").count():
        return "overlay"
    if page.locator("#scoreboard").is_visible():
        return "end"
    return "turn"


def board_moves(page: Page) -> list[dict]:  # type: ignore[type-arg]
    """The moves the board offers as clickable shapes."""
    return [json.loads(m) for m in page.locator("#board .iw-legal[data-move]").evaluate_all(
        "(els) => els.map((e) => e.getAttribute('data-move'))")]


def check_move_list(page: Page) -> bool:
    """The frame's move list: one button per distinct label (two Desert cards make one
    "discard a Desert card" button), and every legal move behind some button."""
    buttons = page.locator("#moves button.move").evaluate_all(
        "(bs) => bs.map((b) => [b.textContent, b.dataset.move, b.dataset.also || ''])")
    labels = [label for label, _, _ in buttons]
    assert len(labels) == len(set(labels)), labels
    behind = [move for _, first, also in buttons for move in [json.loads(first), *json.loads(also or "[]")]]
    legal = page.evaluate("window.ludotecaTable.state.legal")
    assert sorted(map(json.dumps, behind)) == sorted(map(json.dumps, legal))
    return any(also for _, _, also in buttons)


def choose(moves: list[dict]) -> dict:  # type: ignore[type-arg]
    return min(moves, key=lambda m: PREFERENCE.index(m["type"]) if m["type"] in PREFERENCE else 99)


def click_and_wait(page: Page, target) -> None:  # type: ignore[no-untyped-def]
    """Click, then wait for the update the move brought: an accepted move alone is not
    enough, the board must show the new legal moves before the next click."""
    before = page.evaluate("[window.ludotecaTable.state.acks, window.ludotecaTable.state.version]")
    target.click()
    page.wait_for_function("([acks, version]) => { const s = window.ludotecaTable.state;"
                           " return s.acks > acks && s.version > version && !s.busy; }", arg=before)


@pytest.mark.slow
def test_a_person_plays_a_whole_iwari_game_on_the_board(server, new_page) -> None:
    page = new_page(server.url)
    create_table(page)
    expect(page.locator("#board svg.iw-map")).to_be_visible()
    expect(page.locator("#board .iw-territory").first).to_be_visible()
    # The map is drawn in full: 12 territories' spaces, totem circles, numbered connections.
    assert page.locator("#board .iw-totems").count() == 12
    assert page.locator("#board .iw-connection").count() == 17
    assert page.locator("#board .iw-hand").count() == 3
    assert page.locator("#board .iw-display").count() == 4
    screenshot(page, "iwari-start-desktop")

    shots = {"pay", "half", "late"}  # each full-page screenshot costs ~0.5 s: a few, well chosen
    clicks = fallbacks = collapsed = 0
    kinds: set[str] = set()
    played: list[dict] = []  # type: ignore[type-arg]
    for _ in range(600):
        state = wait_for_turn_or_end(page)
        if state == "end":
            break
        if state == "overlay":
            kind = page.locator("#board .iw-overlay").get_attribute("data-kind")
            if kind == "half" and "half" in shots:
                shots.discard("half")
                expect(page.locator("#board .iw-overlay table")).to_be_visible()
                screenshot(page, "iwari-half-journey-desktop")
            if kind == "end":
                break
            page.locator("#board .iw-overlay-close").click()
            continue
        collapsed += check_move_list(page)
        moves = board_moves(page)
        if not moves:
            # Only a "pass" has no shape on the board: the status bar's button plays it.
            fallbacks += 1
            click_and_wait(page, page.locator("#bar-moves button.move:not([disabled])").first)
            continue
        move = choose(moves)
        kind = move["type"] if move["type"] != "draw" else "draw"
        if kind in shots:
            shots.discard(kind)
            screenshot(page, f"iwari-{kind}-desktop")
        if page.evaluate("window.ludotecaTable.state.view.turns") > 40 and "late" in shots:
            shots.discard("late")
            screenshot(page, "iwari-late-desktop")
            screenshot(page, "iwari-late-phone", PHONE)
            page.set_viewport_size(DESKTOP)
        kinds.add(move["type"])
        played.append(move)
        target = page.locator(f"#board .iw-legal[data-move={json.dumps(json.dumps(move, separators=(',', ':')))}]")
        click_and_wait(page, target.first)
        clicks += 1
    else:
        raise AssertionError("the game did not end")

    assert collapsed, "no turn offered two moves that read the same"

    # The end-of-journey overlay explains the score, then the frame's scoreboard remains.
    overlay = page.locator("#board .iw-overlay[data-kind=end]")
    expect(overlay).to_be_visible()
    expect(overlay.locator("table").first).to_be_visible()
    screenshot(page, "iwari-end-desktop")
    screenshot(page, "iwari-end-phone", PHONE)
    page.set_viewport_size(DESKTOP)
    overlay.locator(".iw-overlay-close").click()
    expect(overlay).to_have_count(0)
    expect(page.locator("#scoreboard")).to_be_visible()
    expect(page.locator("#ranking tbody tr")).to_have_count(3)
    screenshot(page, "iwari-scoreboard-desktop")
    # The person played by the board: every kind of step was a board click.
    assert {"territory", "tent", "pay", "draw"} <= kinds, played
    assert clicks > 20 and fallbacks <= 2, (clicks, fallbacks)

    # The replay draws the whole map at every step: the frames refer to the map, a static
    # part of the views that the page fetches once.
    page.locator("#replay-link").click()
    expect(page.locator("#replay-step")).to_have_text(re.compile(r"Move 0 of \d+"))
    expect(page.locator("#board svg.iw-map")).to_be_visible()
    assert page.locator("#board .iw-totems").count() == 12
    assert page.locator("#board .iw-space[role=img]").count() == 0  # no tent yet
    page.locator("#replay-slider").fill("30")
    expect(page.locator("#board .iw-space[role=img]").first).to_be_visible()  # tents drawn


# -- every map, with the feats and expeditions options, drawn from engine views -----------

MAPS = ["base", "floating-lands", "glacial-mass", "long-road"]


def _positions(map_id: str) -> tuple[dict, dict]:  # type: ignore[type-arg]
    """Seat 0's view at a feat decision, and a finished game's view with its result:
    random legal moves from seeded set-ups (the engine, not the server)."""
    import random

    from ludoteca.games.iwari import IwariGame

    game = IwariGame()
    feat = finished = None
    for seed in range(40):
        state = game.setup(3, {"map": map_id, "feats": True, "expeditions": True}, seed)
        pick = random.Random(seed)
        events: list[dict] = []  # type: ignore[type-arg]
        while game.result(state) is None:
            seat = game.seats_to_move(state)[0]
            moves = game.legal(state, seat)
            if feat is None and seat == 0 and moves[0]["type"] == "feat":
                feat = {"view": game.view(state, 0), "legal": moves, "events": events[:], "result": None}
            events.extend(e.to_json() for e in game.apply(state, seat, pick.choice(moves)) if e.visible_to(0))
        if finished is None:
            finished = {"view": game.view(state, 0), "legal": [], "events": events,
                        "result": game.result(state).to_json()}  # type: ignore[union-attr]
        if feat and finished:
            return feat, finished
    raise AssertionError(f"no feat decision for seat 0 on {map_id} in 40 seeded games")


RENDER = """async ([position, strings]) => {
  const module = await import('/games/iwari.js');
  const t = (key, args = {}) => String(strings[key] ?? key).replace(/\\{(\\w+)\\}/g,
    (whole, name) => (name in args ? (Array.isArray(args[name]) ? args[name].join(', ') : String(args[name])) : whole));
  let root = document.querySelector('#iw-harness');
  if (!root) {
    root = document.createElement('div');
    root.id = 'iw-harness';
    root.className = 'board';
    root.style.cssText = 'background:#fff;padding:8px;max-width:900px';
    document.querySelector('main').replaceChildren(root);
  }
  window.played = [];
  const seats = [0, 1, 2].map((seat) => ({ seat, username: seat ? null : 'Ana', bot: seat > 0, zombie: false }));
  module.render(root, { ...position, seat: 0, seats, pending: [], t, lang: 'en', busy: false,
    play: (move) => window.played.push(move) });
  return root.querySelectorAll('.iw-legal').length;
}"""


@pytest.mark.parametrize("map_id", MAPS)
def test_every_map_draws_its_feats_and_final_scoring(server, new_page, map_id: str) -> None:
    feat, finished = _positions(map_id)
    strings = json.loads((ROOT / "src" / "ludoteca" / "games" / GAME / "i18n" / "en.json").read_text())
    page = new_page(server.url)
    expect(page.locator(f"[data-game={GAME}]")).to_be_visible()  # the lobby has drawn: main is free

    # A feat decision: its targets (territories or connections) are the board's controls.
    count = page.evaluate(RENDER, [feat, strings])
    assert count == len(feat["legal"])
    harness = page.locator("#iw-harness")
    close_overlay(harness)
    assert harness.locator(".iw-totems").count() == 12
    assert harness.locator(".iw-connection").count() == len(feat["view"]["board"]["connections"])
    assert harness.locator("text.iw-name").count() == 12
    target = harness.locator(".iw-legal").first
    target.focus()
    page.keyboard.press("Enter")  # the keyboard plays it as a click would
    played = page.evaluate("window.played")
    assert played and played[0] in feat["legal"]
    harness.screenshot(path=str(_shot(f"iwari-feat-{map_id}")))

    # The finished game: the end overlay says where the end's points came from; the points
    # by source (the purple road's row among them) are the frame's one score table, from
    # the module's statistics, and the overlay does not repeat them.
    page.evaluate(RENDER, [finished, strings])
    overlay = harness.locator(".iw-overlay[data-kind=end]")
    expect(overlay).to_be_visible()
    expect(overlay).to_contain_text(strings["iwari.ui.end_detail"])
    expect(overlay).not_to_contain_text(strings["iwari.ui.row_settlements"])
    rows = page.evaluate("async ([result, view, strings]) => (await import('/games/iwari.js'))"
                         ".statistics(result, { t: (k) => strings[k] ?? k, view }).map((r) => r.label)",
                         [finished["result"], finished["view"], strings])
    assert strings["iwari.ui.row_settlements"] in rows, rows
    if map_id == "long-road":
        assert strings["iwari.ui.row_purple"] in rows, rows
    assert "{" not in overlay.inner_text()  # every placeholder filled
    harness.screenshot(path=str(_shot(f"iwari-final-{map_id}")))

    if map_id == "base":
        # In Japanese too: every word on the board comes from the game's strings.
        ja = json.loads((ROOT / "src" / "ludoteca" / "games" / GAME / "i18n" / "ja.json").read_text())
        page.evaluate(RENDER, [feat, ja])
        close_overlay(harness)
        text = harness.locator("svg.iw-map").text_content() + harness.locator("svg.iw-cards").text_content()
        assert ja["iwari.ui.hand"] in text and "iwari." not in text
        harness.screenshot(path=str(_shot("iwari-feat-base-ja")))


def close_overlay(harness) -> None:  # type: ignore[no-untyped-def]
    """A half-journey overlay stays until it is closed (the position may be past it)."""
    if harness.locator(".iw-overlay").count():
        harness.locator(".iw-overlay-close").click()
        expect(harness.locator(".iw-overlay")).to_have_count(0)


def _shot(name: str):  # type: ignore[no-untyped-def]
    from tests.web.conftest import SHOTS

    SHOTS.mkdir(parents=True, exist_ok=True)
    return SHOTS / f"{name}.png"


def test_the_final_scoreboard_shows_iwaris_nested_breakdown(server, new_page) -> None:
    """Iwari's breakdown nests (points per territory, settlements, feats): the frame's
    scoreboard shows them as nested tables behind a disclosure, never "[object Object]"."""
    _feat, finished = _positions("base")
    result = finished["result"]
    page = new_page(server.url)
    expect(page.locator(f"[data-game={GAME}]")).to_be_visible()  # the lobby has drawn: main is free
    page.evaluate("""async (result) => {
      const { loadGameStrings, useGame } = await import('/js/i18n.js');
      const { scoreboard } = await import('/js/pages/scoreboard.js');
      useGame('iwari');
      await loadGameStrings('iwari');
      const seats = [0, 1, 2].map((seat) => ({ seat, username: ['Ana', 'Bo', 'Cy'][seat], bot: null, zombie: false }));
      const box = document.createElement('section');
      box.className = 'panel scoreboard';
      box.id = 'scoreboard-harness';
      box.append(...scoreboard({ id: 'iwari' }, result, seats));
      document.querySelector('main').replaceChildren(box);
    }""", result)
    board = page.locator("#scoreboard-harness")
    expect(board.locator("tbody tr")).to_have_count(3)
    assert "[object Object]" not in board.inner_text()
    strings = json.loads((ROOT / "src" / "ludoteca" / "games" / GAME / "i18n" / "en.json").read_text())
    expect(board.locator("thead th")).to_contain_text([strings["iwari.breakdown.end_journey"]])
    # The end of the journey: a disclosure whose summary is the total, a nested table inside.
    winner_row = board.locator("tr[data-seat]").first
    details = winner_row.locator("details.breakdown").first
    expect(details).to_be_visible()
    seat = int(winner_row.get_attribute("data-seat"))
    end = result["breakdown"][seat]["end_journey"]
    heads = board.locator("thead th").all_inner_texts()
    cell = winner_row.locator(":scope > td").nth(heads.index(strings["iwari.breakdown.end_journey"]))
    summary = cell.locator(":scope > details > summary")
    expect(summary).to_have_text(f"total {end['total']}")
    summary.click()
    nested = cell.locator("dl.breakdown-nested").first
    expect(nested).to_be_visible()
    expect(nested.locator(":scope > dt")).to_have_count(len(end))
    expect(board.locator("tbody tr")).to_have_count(3)  # nothing nested adds rows
    # Plain values stay plain: the unused pieces are a number in their cell.
    column = heads.index(strings["iwari.breakdown.unused_pieces"])
    unused = str(result["breakdown"][seat]["unused_pieces"])
    expect(winner_row.locator(":scope > td").nth(column)).to_have_text(unused)
    board.screenshot(path=str(_shot("iwari-scoreboard-nested")))


# -- the face-up expedition cards, and Floating Lands' tundra, at phone width -----------------


def _expedition_position() -> dict:  # type: ignore[type-arg]
    """Seat 0's view of a Floating Lands game with expeditions, once some card has been
    completed (random legal moves from seeded set-ups)."""
    import random

    from ludoteca.games.iwari import IwariGame

    game = IwariGame()
    for seed in range(60):
        state = game.setup(3, {"map": "floating-lands", "expeditions": True}, seed)
        pick = random.Random(seed)
        while game.result(state) is None:
            seat = game.seats_to_move(state)[0]
            game.apply(state, seat, pick.choice(game.legal(state, seat)))
            view = game.view(state, 0)
            if any(e["completed"] for e in view["expeditions"]) and game.seats_to_move(state)[0] == 0:
                return {"view": view, "legal": game.legal(state, 0), "events": [], "result": None}
    raise AssertionError("no expedition completed in 60 seeded games")


def test_iw_20_expedition_cards_are_drawn_legibly_at_phone_width(server, new_page) -> None:
    position = _expedition_position()
    cards = position["view"]["expeditions"]
    page = new_page(server.url, viewport=PHONE)
    expect(page.locator(f"[data-game={GAME}]")).to_be_visible()
    for lang in ("en", "ja", "vi"):
        strings = json.loads((ROOT / "src" / "ludoteca" / "games" / GAME / "i18n" / f"{lang}.json").read_text())
        page.evaluate(RENDER, [position, strings])
        harness = page.locator("#iw-harness")
        close_overlay(harness)
        shown = harness.locator(".iw-expedition")
        expect(shown).to_have_count(len(cards))
        for i, card in enumerate(cards):
            el = shown.nth(i)
            assert el.get_attribute("data-expedition") == card["id"]
            mission = el.locator(".iw-exp-mission").inner_text()
            assert "{" not in mission and "iwari." not in mission and str(card["count"]) in mission, mission
            values = el.locator(".iw-exp-values").inner_text()
            assert str(card["values"][0]) in values and str(card["values"][1]) in values, values
            by = el.locator(".iw-exp-by")
            expect(by).to_have_count(len(card["completed"]))
            for j, done in enumerate(card["completed"]):
                assert f"+{done['points']}" in by.nth(j).inner_text()
            # Legible on a phone: inside the screen, and text no smaller than 12 px.
            box = el.bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"] + 0.5, box
            size = el.locator(".iw-exp-values").evaluate("(e) => parseFloat(getComputedStyle(e).fontSize)")
            assert size >= 12, size
        if lang == "ja":
            assert strings["iwari.ui.expeditions"] in harness.locator(".iw-expeditions h3").inner_text()
        harness.screenshot(path=str(_shot(f"iwari-expeditions-phone-{lang}")))
    # IW-24: Floating Lands' three tundra totem circles are struck through and say why.
    closed = page.locator("#iw-harness .iw-totems[data-no-totems]")
    expect(closed).to_have_count(3)
    assert all(closed.nth(i).get_attribute("data-totems").startswith("tundra-") for i in range(3))
    label = closed.first.get_attribute("aria-label") or ""
    assert strings["iwari.ui.no_totems"].split("{territory}")[1] in label, label  # the last language drawn
