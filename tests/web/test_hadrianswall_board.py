"""Hadrian's Wall's sheets in Chromium: a person plays a whole solo game, and a 3-seat
game against two bots, by clicking on the sheets (web/games/hadrianswall.js), from the first
choice of cards to the final scores.

Each click goes to the board element that carries the chosen move in `data-move`: a box
of sheet A or B (a fill; a box payable in several ways first opens its chooser, marked
`data-select`), the next box of a cohort or an attribute track, a cell of the scouting
map, one of the two player cards, or a button of the decision bar above the sheets. The
frame's list of moves is used only for a move the board has no control for, and the
test counts those fallbacks (none are expected).
"""

from __future__ import annotations

import contextlib
import json
import random

import pytest
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.web.conftest import DESKTOP, PHONE, PROBE_ROOT, ROOT, SHOTS, screenshot
from tests.web.tables import open_move_list

pytestmark = pytest.mark.browser

GAME = "hadrianswall"
STRINGS = ROOT / "src" / "ludoteca" / "games" / GAME / "i18n"
FILLS_PER_YEAR = {1: 8, 3: 6}
"""Fills a year before the person ends it: enough to reach both sheets, few enough to
keep each game well under a minute on a busy machine."""


def serve_strings_if_missing(page: Page) -> None:
    """The client reads a game's strings from GET /api/games/<id>/i18n/<lang>. Until the
    server has that route, the page gets the package's own files here, so the sheets are
    drawn (and looked at) in words rather than in key names."""

    def handle(route) -> None:
        answer = route.fetch()
        if answer.status != 404:
            route.fulfill(response=answer)
            return
        lang = route.request.url.rstrip("/").rsplit("/", 1)[-1].split("?")[0]
        path = STRINGS / f"{lang}.json"
        route.fulfill(status=200, content_type="application/json",
                      body=(path if path.exists() else STRINGS / "en.json").read_text(encoding="utf-8"))

    page.route(f"**/api/games/{GAME}/i18n/*", handle)


def create_table(page: Page, seats: int) -> None:
    """From the lobby: a Hadrian's Wall table, the instant random bot in the other seats."""
    page.locator(f"[data-game={GAME}] button.primary").click()
    form = page.locator("#create-form")
    expect(form).to_be_visible()
    form.locator("#create-seats").select_option(str(seats))
    expect(form.locator("input[name=bot]")).to_have_count(seats - 1)
    form.locator("#create-bot").select_option("random")
    form.locator("#create-submit").click()
    start = page.locator("#start")
    sheets = page.locator("#board .hw-sheet")
    expect(start.or_(sheets.first)).to_be_visible()
    if start.is_visible():
        start.click()


def state(page: Page) -> dict:
    """What the person needs from the page: the view itself stays there (it carries the
    sheets' layout, and copying it out at every move would double the test's time)."""
    return page.evaluate("""() => { const s = window.ludotecaTable.state; const v = s.view || {};
        const me = (v.players || [])[s.seat] || {};
        return {legal: s.legal, version: s.version, acks: s.acks, busy: s.busy,
                over: Boolean(s.result) || (s.table && s.table.status === 'over'),
                view: {year: v.year, phase: v.phase, last_attack: (v.last_attack || []).length,
                       blocked: Object.entries(me.blocked || {})}}; }""")


def wait_for_turn_or_end(page: Page) -> dict:
    page.wait_for_function("""() => { const s = window.ludotecaTable && window.ludotecaTable.state;
        return s && (s.result || (s.table && s.table.status === 'over')
                     || (s.legal.length && !s.busy && document.querySelector('#board .hw-board'))); }""",
                           timeout=20_000)
    return state(page)


def board_shots(page: Page, name: str) -> None:
    """Each sheet alone, at the current width: a full-page shot is too small to read."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.locator("#board .hw-sheet-A").screenshot(path=SHOTS / f"{name}-sheet-a.png")
    page.locator("#board .hw-sheet-B").screenshot(path=SHOTS / f"{name}-sheet-b.png")


def phone_shots(page: Page, name: str, full_page: bool = True) -> None:
    """The page and the sheets at phone width, once the board has redrawn itself for it
    (narrower sheets, sections wrapped), then back to the desktop."""
    page.set_viewport_size(PHONE)
    expect(page.locator("#board .hw-board")).to_have_attribute("data-compact", "1")
    if full_page:  # a phone page is four screens tall: slow to capture, taken once
        screenshot(page, name)
    board_shots(page, name)
    page.set_viewport_size(DESKTOP)
    expect(page.locator("#board .hw-board")).to_have_attribute("data-compact", "0")


class Person:
    """Fills a few boxes a year, varied (a seeded shuffle), pays in the second way when a
    box offers several (so the chooser is used), takes the first option of every
    follow-up, spends a favour when the Picts would breach, and plays each by clicking."""

    def __init__(self, page: Page, seed: int, fills_per_year: int) -> None:
        self.page = page
        self.fills_per_year = fills_per_year
        self.rng = random.Random(seed)
        self.year = 0
        self.fills = 0
        self.seen: set[str] = set()
        self.chooser_used = 0
        self.fallbacks: list[dict] = []

    def choose(self, legal: list[dict], view: dict) -> dict:
        if view["year"] != self.year:
            self.year, self.fills = view["year"], 0
        fills = [m for m in legal if m["type"] == "fill"]
        end = [m for m in legal if m["type"] == "end_year"]
        if end:
            if not fills or self.fills >= self.fills_per_year:
                return end[0]
            self.fills += 1
            by_box: dict[str, list[dict]] = {}
            for m in fills:
                by_box.setdefault(m["box"], []).append(m)
            box = self.rng.choice(sorted(by_box))
            options = by_box[box]
            return options[1] if len(options) > 1 else options[0]
        return legal[0]

    def click(self, move: dict) -> None:
        page = self.page
        key = json.dumps(move, separators=(",", ":"), ensure_ascii=False)
        target = page.locator(f"#board [data-move='{key}']")
        if move["type"] != "fill":
            # The bots' moves redraw the sheets all year long: wait out a redraw in progress
            # rather than read an empty board (fills are checked below, chooser included).
            with contextlib.suppress(PlaywrightTimeout):
                target.first.wait_for(state="attached", timeout=3_000)
        if not target.count() and move["type"] == "fill":
            # A box payable in several ways opens its chooser first (by keyboard here:
            # the chooser then takes the focus).
            page.locator(f"#board [data-select='box:{move['box']}']").focus()
            page.keyboard.press("Enter")
            target = page.locator(f"#board .hw-chooser [data-move='{key}']")
            if target.count():
                self.chooser_used += 1
        if target.count():
            self.seen.add(move["type"])
        else:
            self.fallbacks.append(move)
            # A move that reads like an earlier one shares its button (data-also).
            open_move_list(page)
            target = page.locator(f"#moves button.move[data-move='{key}'], #moves button.move[data-also*='{key}']")
        before = page.evaluate("() => [window.ludotecaTable.state.acks, window.ludotecaTable.state.version]")
        target.first.click()
        page.wait_for_function("([a, v]) => { const s = window.ludotecaTable.state;"
                               " return s.acks > a && s.version > v; }", arg=before)


def play_game(page: Page, seats: int, prefix: str, shots: bool) -> Person:
    create_table(page, seats)
    expect(page.locator("#board .hw-sheet-A")).to_be_visible()
    expect(page.locator("#board .hw-sheet-B")).to_be_visible()
    # Every box of both sheets is drawn, filled or not.
    total = page.evaluate("() => window.ludotecaTable.state.view.layout.sections"
                          ".reduce((n, s) => n + s.boxes.length, 0)")
    expect(page.locator("#board .hw-box")).to_have_count(total)
    first = wait_for_turn_or_end(page)
    assert {m["type"] for m in first["legal"]} == {"choose"}
    expect(page.locator("#board .hw-choose .hw-legal")).to_have_count(2)
    if shots:
        screenshot(page, f"{prefix}-choose-desktop")
        # The same sheets in Japanese: section names and cards follow the reader's language.
        page.locator("#language").select_option("ja")
        expect(page.locator("#board .hw-sheet-A > text").first).to_have_text("シートA：長城と砦")
        screenshot(page, f"{prefix}-choose-ja")
        page.locator("#language").select_option("en")
        expect(page.locator("#board .hw-sheet-A > text").first).to_have_text("Sheet A: the wall and the fort")
    # The first choice by keyboard: each of the two cards is a button.
    page.locator("#board .hw-choose .hw-legal").first.focus()
    page.keyboard.press("Enter")
    page.wait_for_function("(a) => window.ludotecaTable.state.acks > a", arg=first["acks"])

    person = Person(page, seed=seats, fills_per_year=FILLS_PER_YEAR[seats])
    taken = {"main": not shots, "picts": not shots, "attack": not shots, "blocked": False}
    for _ in range(700):
        st = wait_for_turn_or_end(page)
        if st["over"]:
            break
        view = st["view"]
        if not taken["blocked"] and view["phase"] == "main":
            # A blocked box explains itself: its tooltip carries the reason from the view.
            box = next(b for b, why in view["blocked"] if why == "locked")
            tip = page.locator(f"#board [data-box='{box}'] title").text_content() or ""
            assert "Locked" in tip and "Needs:" in tip, tip
            taken["blocked"] = True
        if not taken["main"] and view["year"] == 3 and view["phase"] == "main" and person.fills == 4:
            screenshot(page, f"{prefix}-year3-desktop")
            board_shots(page, f"{prefix}-year3")
            phone_shots(page, f"{prefix}-year3-phone", full_page=False)
            taken["main"] = True
        if not taken["picts"] and view["year"] >= 3 and view["phase"] == "choose" and view["last_attack"]:
            expect(page.locator("#board .hw-picts")).to_be_visible()
            screenshot(page, f"{prefix}-picts-desktop")
            taken["picts"] = True
        if not taken["attack"] and view["phase"] == "attack":
            # The favours at the attack are buttons of the bar, beside the cards per direction.
            expect(page.locator("#board .hw-bar[data-kind='favour'] button")).not_to_have_count(0)
            page.locator("#board .hw-board").screenshot(path=SHOTS / f"{prefix}-attack-board.png")
            taken["attack"] = True
        person.click(person.choose(st["legal"], view))
    else:
        raise AssertionError("the game did not end")
    # One score table, the frame's: the board repeats none.
    expect(page.locator("#scoreboard")).to_be_visible()
    expect(page.locator("#ranking tbody tr")).to_have_count(seats)
    expect(page.locator("#board .hw-final")).to_have_count(0)
    return person


@pytest.mark.slow
def test_a_whole_solo_game_by_clicking_the_sheets(server, new_page) -> None:
    page = new_page(server.url)
    serve_strings_if_missing(page)
    page.reload()
    expect(page.locator(f"[data-game={GAME}]")).to_be_visible()
    person = play_game(page, 1, "hadrianswall-solo", shots=True)
    # The solo rank (Miles to Legatus legionis) is in the final table, in words.
    head = page.locator("#ranking thead th").all_inner_texts()
    assert "Solo rank" in head, head
    screenshot(page, "hadrianswall-solo-over-desktop")
    phone_shots(page, "hadrianswall-solo-over-phone")
    print("played on the sheets:", sorted(person.seen), "chooser:", person.chooser_used)
    assert not person.fallbacks, person.fallbacks
    assert {"choose", "fill", "end_year"} <= person.seen, person.seen
    assert person.chooser_used, "no box was paid through its chooser"


@pytest.mark.slow
def test_a_three_seat_game_against_two_bots_with_the_neighbour_sheets(server, new_page) -> None:
    page = new_page(server.url)
    serve_strings_if_missing(page)
    page.reload()
    expect(page.locator(f"[data-game={GAME}]")).to_be_visible()
    person = play_game(page, 3, "hadrianswall-3p", shots=False)
    # The neighbour's sheets: the switcher shows the bot's boxes, without controls.
    page.locator("#board .hw-tab[data-seat='1']").click()
    expect(page.locator("#board .hw-board")).to_have_attribute("data-shown", "1")
    expect(page.locator("#board .hw-sheet .hw-legal")).to_have_count(0)
    expected = page.evaluate("() => Object.keys(window.ludotecaTable.state.view.players[1].filled).length")
    expect(page.locator("#board .hw-box.hw-filled")).to_have_count(expected)
    screenshot(page, "hadrianswall-3p-neighbour-desktop")
    board_shots(page, "hadrianswall-3p-neighbour")
    assert not person.fallbacks, person.fallbacks


# -- drawn from engine positions: resource passing off (HW-55), the solo rank (HW-47, HW-53) --

PROBE = """async ([view, legal, result, seats, lang]) => {
  const i18n = await import('/js/i18n.js');
  await i18n.setLanguage(lang, { remember: false });
  i18n.useGame('hadrianswall');
  await i18n.loadGameStrings('hadrianswall');
  const module = await import('/games/hadrianswall.js');
  const { scoreboard } = await import('/js/pages/scoreboard.js');
""" + PROBE_ROOT + """  const players = Array.from({ length: seats },
    (_, s) => ({ seat: s, username: ['Ana', 'Bo', 'Cy'][s], bot: null, zombie: false }));
  module.render(root, { view, legal, events: [], seat: 0, seats: players, pending: [], result, game: 'hadrianswall',
                        lang, t: i18n.t, busy: false, play: () => {} });
  if (result) {
    const box = document.createElement('section');
    box.id = 'scoreboard-probe';
    box.append(...scoreboard({ id: 'hadrianswall' }, result, players));
    root.append(box);
  }
  return root.innerText;
}"""


def _strings(lang: str) -> dict:
    return json.loads((STRINGS / f"{lang}.json").read_text(encoding="utf-8"))


def test_hw_55_without_resource_passing_the_neighbours_card_says_it_costs_a_pict_card(server, new_page) -> None:
    from tests.games.hadrianswall.hw_helpers import G, fill, give, main, set_count

    state = main(3, seed=1, resource_passing=False)
    set_count(state, 0, "traders", 9)
    set_count(state, 0, "market", 1)
    give(state, 0, resources=1)
    fill(state, 0, "goods_1")
    legal = G.legal(state, 0)
    assert {"type": "trade", "from": "seat", "seat": 1} in legal
    page = new_page(server.url)
    serve_strings_if_missing(page)
    page.reload()
    expect(page.locator(f"[data-game={GAME}]")).to_be_visible()
    for lang in ("en", "ja", "vi"):
        strings = _strings(lang)
        page.evaluate(PROBE, [G.view(state, 0), legal, None, 3, lang])
        bar = page.locator("#probe .hw-bar button")
        neighbour = bar.filter(has_text=strings["hw.ui.from_seat_pict"].split("{name}")[1])
        expect(neighbour).to_have_count(2)  # both neighbours' prospects, each costing a Pict card
        expect(page.locator("#probe .hw-no-passing")).to_have_text(strings["hw.ui.no_passing"])
    page.locator("#probe .hw-board").screenshot(path=SHOTS / "hadrianswall-no-passing-vi.png")


def test_hw_47_the_solo_rank_is_named_and_hw_53_no_worker_is_left_after_the_last_attack(server, new_page) -> None:
    from tests.games.hadrianswall.hw_helpers import G, choose_all, end_year_all, main, set_count

    state = main(1, seed=2)
    for _ in range(5):
        end_year_all(state)
        choose_all(state)
    state.players[0].todo = []
    set_count(state, 0, "valour", 2)  # the last attack's valour reaches box 3: a soldier, worthless now
    for d in ("cohort_left", "cohort_centre", "cohort_right"):
        set_count(state, 0, d, 6)
    end_year_all(state)
    result = G.result(state)
    assert result is not None
    rank = result.breakdown[0]["solo_rank"]
    view = G.view(state, 0)
    page = new_page(server.url, viewport=PHONE)
    serve_strings_if_missing(page)
    page.reload()
    expect(page.locator(f"[data-game={GAME}]")).to_be_visible()
    for lang in ("en", "ja", "vi"):
        strings = _strings(lang)
        name = strings[f"hw.rank.{rank}"]
        page.evaluate(PROBE, [view, [], result.to_json(), 1, lang])
        # The board repeats no final table: the frame's names the rank.
        expect(page.locator("#probe .hw-final")).to_have_count(0)
        # The frame's scoreboard too: the column is named and the value is the rank's name, not its id.
        head = page.locator("#scoreboard-probe thead th")
        expect(head).to_contain_text([strings["hw.breakdown.solo_rank"]])
        column = [h.strip() for h in head.all_inner_texts()].index(strings["hw.breakdown.solo_rank"])
        expect(page.locator("#scoreboard-probe tbody tr td").nth(column)).to_have_text(name)
        # No worker won in the last attack is shown in the supply.
        stocks = page.locator("#probe .hw-stock b").all_inner_texts()
        assert stocks == ["0"] * 5, stocks
    page.locator("#probe").screenshot(path=SHOTS / "hadrianswall-solo-rank-phone-vi.png")
