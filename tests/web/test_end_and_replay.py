"""The end of a game and its replay, in a real Chromium against a real server: the
points-by-source statistics of each game in en/ja/vi, Iwari's end screen without empty or
repeated columns, its half-journey table beside (not over) the map on one's own turn, its
tray for spectators, log lines with the badge of whom they are about, and a replay that
opens at the viewer's own seat."""

from __future__ import annotations

import json
import random
import re
from functools import cache
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from ludoteca.engine import Match
from tests.web.conftest import ROOT, frame_strings, screenshot
from tests.web.test_browser import GAME as SEALED
from tests.web.test_browser import click_first_move, create_table, play_to_end, start

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
GAMES = {"bloodrage": (3, {}), "crusaders": (2, {}), "iwari": (2, {}), "hadrianswall": (2, {})}
GAME_DIR = ROOT / "src" / "ludoteca" / "games"


@cache
def finished(game: str, seats: int, options: str = "{}", seed: int = 3) -> dict[str, Any]:
    """A finished game of random legal moves: the result and seat 0's last view."""
    match = Match.new(game, seats, json.loads(options), seed=seed)
    pick = random.Random(seed)
    while not match.over:
        seat = match.pending()[0]
        match.play(seat, pick.choice(match.legal(seat)))
    return {"result": match.result().to_json(), "view": match.view(0)}  # type: ignore[union-attr]


def strings(game: str, lang: str) -> dict[str, str]:
    data = json.loads((GAME_DIR / game / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
    return {k: v for k, v in data.items() if isinstance(v, str)}


SCOREBOARD = """async ([game, result, view, withModule]) => {
  const { loadGameStrings, useGame } = await import('/js/i18n.js');
  const { loadModule } = await import('/js/gamemodule.js');
  const { scoreboard } = await import('/js/pages/scoreboard.js');
  useGame(game);
  await loadGameStrings(game);
  const module = withModule ? await loadModule(game) : null;
  const names = ['Ana', 'Bo', 'Cy', 'Di', 'Ed'];
  const seats = result.scores.map((_, seat) => ({ seat, username: names[seat], bot: null, zombie: false }));
  const box = document.createElement('section');
  box.className = 'panel scoreboard';
  box.id = 'scoreboard-harness';
  box.append(...scoreboard({ id: game }, result, seats, module, view).filter(Boolean));
  document.querySelector('main').replaceChildren(box);
}"""


def lobby(new_page, server, locale: str = "en-US", viewport: dict[str, int] | None = None) -> Page:
    page = new_page(server.url, locale=locale, viewport=viewport)
    expect(page.locator("[data-game=iwari]")).to_be_visible()  # the lobby has drawn: main is free
    return page


@pytest.mark.parametrize("lang", ["en", "ja", "vi"])
@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_end_shows_each_games_points_by_source_in_the_readers_language(server, new_page, game: str,
                                                                          lang: str) -> None:
    seats, options = GAMES[game]
    done = finished(game, seats, json.dumps(options))
    result = done["result"]
    page = lobby(new_page, server, locale={"en": "en-US", "ja": "ja-JP", "vi": "vi-VN"}[lang], viewport=PHONE)
    page.evaluate(SCOREBOARD, [game, result, done["view"], True])
    table = page.locator("#scoreboard-harness #statistics")
    expect(table).to_be_visible()
    frame = frame_strings(lang)["score"]
    expect(table.locator("thead th").first).to_have_text(frame["source"])
    # One column per player, each source's points, and a total row that is the score:
    # the sources add up to it.
    rows = table.locator("tbody tr").evaluate_all(
        "(trs) => trs.map((tr) => [tr.querySelector('th').textContent,"
        " [...tr.querySelectorAll('td')].map((td) => Number(td.textContent.replace('\u2212', '-')))])")
    *sources, (total_label, totals) = rows
    assert total_label == frame["total_row"]
    assert totals == result["scores"]
    assert len(sources) >= 3
    for seat, score in enumerate(result["scores"]):
        assert sum(values[seat] for _, values in sources) == score, (seat, sources)
    # Every label is the game's own string in this language: no key, no English left over.
    text = table.inner_text()
    own = strings(game, lang)
    assert not re.search(r"\b(br|cr|iwari|hw|score)\.[a-z_]+", text) and "{" not in text, text
    labels = " ".join(label for label, _ in sources)
    if lang != "en":
        english = strings(game, "en")
        used = [k for k, v in own.items() if v and v in labels and english.get(k) != v]
        assert used, f"no {lang} string among the labels: {labels}"
    # The table fits a phone: nothing scrolls the page sideways.
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    screenshot(page, f"statistics-{game}-{lang}")


def test_iwaris_end_has_no_empty_or_repeated_columns(server, new_page) -> None:
    """Without the feats and expeditions options their columns are not drawn, and the
    breakdown's total (the score again) is not a column; the points by source take the
    breakdown's place."""
    done = finished("iwari", 2)
    result = done["result"]
    assert result["breakdown"][0]["expeditions"] == {} and result["breakdown"][0]["feats"] == []
    en = strings("iwari", "en")
    page = lobby(new_page, server)
    # The frame's own columns (a game module without statistics):
    page.evaluate(SCOREBOARD, ["iwari", result, done["view"], False])
    heads = page.locator("#scoreboard-harness #ranking thead th").all_inner_texts()
    assert en["iwari.breakdown.half_journey"] in heads
    for gone in ("iwari.breakdown.expeditions", "iwari.breakdown.feats", "iwari.breakdown.total"):
        assert en[gone] not in heads, heads
    # With the module: rank, player and score, then the statistics; no Expeditions row either.
    page.evaluate(SCOREBOARD, ["iwari", result, done["view"], True])
    heads = page.locator("#scoreboard-harness #ranking thead th").all_inner_texts()
    assert heads == ["Rank", "Player", "Score"]
    sources = page.locator("#statistics tbody th").all_inner_texts()
    assert en["iwari.breakdown.expeditions"] not in sources and sources[-1] == "Total"


def _half_journey_turn() -> dict[str, Any]:
    """Seat 0's view and moves on its first turn after the half-journey scoring."""
    for seed in range(20):
        match = Match.new("iwari", 3, {}, seed=seed)
        pick = random.Random(seed)
        while not match.over:
            seat = match.pending()[0]
            if seat == 0 and match.view(0).get("half_journey"):
                return {"view": match.view(0), "legal": match.legal(0), "events": [], "result": None}
            match.play(seat, pick.choice(match.legal(seat)))
    raise AssertionError("no half-journey turn for seat 0 in 20 seeded games")


RENDER = """async ([position, lang, seat]) => {
  const i18n = await import('/js/i18n.js');
  await i18n.setLanguage(lang, { remember: false });
  i18n.useGame('iwari');
  await i18n.loadGameStrings('iwari');
  const module = await import('/games/iwari.js');
  let root = document.querySelector('#iw-probe');
  if (!root) {
    root = document.createElement('div');
    root.id = 'iw-probe';
    root.className = 'board';
    document.querySelector('main').replaceChildren(root);
  }
  const seats = [0, 1, 2].map((s) => ({ seat: s, username: ['Ana', 'Bo', 'Cy'][s], bot: null, zombie: false }));
  module.render(root, { ...position, seat, seats, pending: [], t: i18n.t, lang, busy: false, play: () => {} });
}"""


def test_iwaris_half_journey_table_leaves_the_map_in_sight_on_ones_own_turn(server, new_page) -> None:
    position = _half_journey_turn()
    assert position["legal"]
    page = lobby(new_page, server, viewport=PHONE)
    page.evaluate(RENDER, [position, "en", 0])
    overlay = page.locator("#iw-probe .iw-overlay[data-kind=half]")
    expect(overlay).to_be_visible()
    box, board = overlay.bounding_box(), page.locator("#iw-probe svg.iw-map").bounding_box()
    cards = page.locator("#iw-probe svg.iw-cards").bounding_box()
    assert box and board and cards
    assert box["y"] >= board["y"] + board["height"] and box["y"] >= cards["y"] + cards["height"], (box, board, cards)
    screenshot(page, "iwari-half-journey-own-turn-phone")
    # Someone waiting for the others still gets it over the board, to read at once.
    page.evaluate(RENDER, [{**position, "legal": []}, "en", 0])
    expect(page.locator("#iw-probe .iw-overlay[data-kind=half]")).to_have_attribute("data-floating", "true")


@pytest.mark.parametrize("lang", ["en", "ja", "vi"])
def test_iwaris_tray_for_a_spectator_or_a_replay_has_no_empty_hand_and_no_click_to_take(server, new_page,
                                                                                         lang: str) -> None:
    match_view = Match.new("iwari", 2, {}, seed=5).view(None)
    own = strings("iwari", lang)
    page = lobby(new_page, server)
    page.evaluate(RENDER, [{"view": match_view, "legal": [], "events": [], "result": None}, lang, None])
    tray = page.locator("#iw-probe svg.iw-cards")
    text = tray.text_content() or ""
    assert own["iwari.ui.display"] in text and own["iwari.ui.display_take"] not in text
    assert own["iwari.ui.hand"] not in text
    assert tray.locator(".iw-hand").count() == 0
    # The display's cards are the tray's top row: no empty band above them.
    first = tray.locator(".iw-display").first.bounding_box()
    whole = tray.bounding_box()
    assert first and whole and first["y"] - whole["y"] < 0.25 * whole["height"]
    # A seat whose turn it is to draw is told it can take one.
    start_view = Match.new("iwari", 2, {}, seed=5)
    seat = start_view.pending()[0]
    legal = start_view.legal(seat)
    page.evaluate(RENDER, [{"view": start_view.view(seat), "legal": legal, "events": [], "result": None}, lang, seat])
    text = page.locator("#iw-probe svg.iw-cards").text_content() or ""
    assert own["iwari.ui.hand"] in text
    if any(m["type"] == "draw" for m in legal):
        assert own["iwari.ui.display_take"] in text
    else:
        assert own["iwari.ui.display_take"] not in text


def test_log_lines_carry_the_badge_of_the_seat_or_tribe_they_are_about(server, new_page) -> None:
    page = lobby(new_page, server)
    seats = page.evaluate("""async () => {
      const { loadGameStrings } = await import('/js/i18n.js');
      const { eventSeat } = await import('/js/gamemodule.js');
      await loadGameStrings('iwari');
      return [
        eventSeat('iwari', { key: 'iwari.placed_tent', args: { tribe: 1, territory: 'forest-1' } }),
        eventSeat('iwari', { key: 'iwari.passed', args: { seat: 0 } }),
        eventSeat('iwari', { key: 'iwari.you_drew', args: { card: 'forest-3' }, to: 1 }),
        eventSeat('iwari', { key: 'iwari.display_refilled', args: { card: 'forest-3' } }),
      ];
    }""")
    assert seats == [1, 0, 1, None]


def test_a_replay_opens_at_the_players_own_seat_and_at_the_spectators_for_others(server, new_page) -> None:
    page = new_page(server.url)
    expect(page.locator(f"[data-game={SEALED}]")).to_be_visible()
    table = create_table(page)
    start(page)
    play_to_end(page)
    page.goto(f"{server.url}/#/replay/{table}")
    expect(page.locator("#replay-pov")).to_have_value("0")
    other = new_page(f"{server.url}/#/replay/{table}")
    expect(other.locator("#replay-pov")).to_have_value("")
    # A link that names a seat wins over one's own.
    page.goto(f"{server.url}/#/replay/{table}?seat=1")
    page.reload()
    expect(page.locator("#replay-pov")).to_have_value("1")


def test_every_iwari_log_line_about_a_seat_or_tribe_shows_its_badge_at_the_table(server, new_page) -> None:
    page = new_page(server.url, viewport=PHONE)
    expect(page.locator("[data-game=iwari]")).to_be_visible()
    page.locator("[data-game=iwari] button.primary").click()
    page.locator("#create-seats").select_option("2")
    page.locator("#create-bot").select_option("random")
    page.locator("#create-submit").click()
    page.locator("#start").click()
    for _ in range(6):
        page.wait_for_function("() => document.querySelector('#moves button.move:not([disabled])')")
        click_first_move(page)
    # Two seats: the third tribe plays too, and its lines name a tribe, not a seat.
    seatless = {"iwari.display_refilled", "iwari.half_journey", "iwari.reshuffled", "iwari.end_journey"}
    lines = page.locator("#log li").evaluate_all(
        "(lis) => lis.map((li) => [li.dataset.key, Boolean(li.querySelector('svg'))])")
    about = [(key, badge) for key, badge in lines if key not in seatless]
    assert about and all(badge for _, badge in about), lines
    assert any(key in ("iwari.placed_tent", "iwari.placed_totem") for key, _ in about), lines


@pytest.mark.parametrize(("locale", "words"), [("en-US", "Download the record"), ("ja-JP", "記録をダウンロード")])
def test_the_replay_downloads_the_record_that_replays_the_game(server, new_page, tmp_path, locale: str,
                                                              words: str) -> None:
    from ludoteca.engine import MatchRecord

    page = new_page(server.url, locale=locale, viewport={"width": 390, "height": 844})
    expect(page.locator(f"[data-game={SEALED}]")).to_be_visible()
    table = create_table(page)
    start(page)
    play_to_end(page)
    page.goto(f"{server.url}/#/replay/{table}")
    link = page.locator("#replay-record")
    expect(link).to_have_text(words)
    assert link.bounding_box()["height"] >= 44
    with page.expect_download() as download:
        link.click()
    saved = tmp_path / download.value.suggested_filename
    download.value.save_as(saved)
    data = json.loads(saved.read_text())
    assert data["game"] == SEALED and data["reviews"] == [] and data["result"]
    record = MatchRecord.from_json(data)
    assert len(record.moves) == len(data["moves"]) > 0
