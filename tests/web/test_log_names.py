"""Log lines and prompts name things, not ids: an argument whose value is an id the
game's strings name (their "_names" rules, see src/ludoteca/games/README.md) reads
as that name. Iwari in a real Chromium: the territory "desert-2" reads "Desert 2"
(English) and 砂漠 2 (Japanese), in the prompt and in the log."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import Page

from tests.web.conftest import ROOT
from tests.web.tables import create_table, open_move_list, wait_for_turn

pytestmark = pytest.mark.browser

# Ids of Iwari territories and cards ("desert-2", "forest-02"), spaces ("desert-2.3").
RAW_ID = re.compile(r"\b(tundra|forest|glacier|coast|desert)-\d")
PREFERENCE = ["tent", "pay", "territory", "draw_deck", "draw_display", "done", "feat"]


def strings(lang: str) -> dict[str, str]:
    path = ROOT / "src" / "ludoteca" / "games" / "iwari" / "i18n" / f"{lang}.json"
    return json.loads(path.read_text(encoding="utf-8"))


def play_until_a_tent(page: Page) -> None:
    """Play the frame's move buttons (tents first) until the log has a tent placed."""
    for _ in range(80):
        if page.locator('#log li[data-key="iwari.placed_tent"]').count():
            return
        assert wait_for_turn(page), "the game ended before a tent was placed"
        prompt = page.locator("#prompt").inner_text()
        assert not RAW_ID.search(prompt), prompt
        moves = [json.loads(m) for m in page.locator("#moves button.move").evaluate_all(
            "(els) => els.map((e) => e.getAttribute('data-move'))")]
        index = min(range(len(moves)), key=lambda i: PREFERENCE.index(moves[i]["type"])
                    if moves[i]["type"] in PREFERENCE else 99)
        before = page.evaluate("[window.ludotecaTable.state.acks, window.ludotecaTable.state.version]")
        open_move_list(page)
        page.locator("#moves button.move").nth(index).click()
        page.wait_for_function("([acks, version]) => { const s = window.ludotecaTable.state;"
                               " return s.acks > acks && s.version > version && !s.busy; }", arg=before)
    raise AssertionError("no tent was placed")


@pytest.mark.parametrize("locale,lang", [("en-US", "en"), ("ja-JP", "ja")])
def test_iwari_log_and_prompt_show_territory_names(server, new_page, locale: str, lang: str) -> None:
    text = strings(lang)
    page = new_page(server.url, locale=locale)
    create_table(page, "iwari", 2)
    play_until_a_tent(page)
    line = page.locator('#log li[data-key="iwari.placed_tent"]').first
    territory = page.evaluate("window.ludotecaTable.state.view.board.territories.map((t) => t.id)")
    content = line.inner_text()
    assert not RAW_ID.search(content), content
    biomes = [text[f"iwari.biome.{tid.split('-')[0]}"] for tid in territory]
    assert any(biome in content for biome in biomes), content
    # The space reads as "space 3", the payment as biome names.
    assert text["iwari.name.space"].replace("{n}", "").strip() in content, content
    # The tribe reads as its player (or the third tribe), not as a number.
    players = page.evaluate("window.ludotecaTable.state.table.players.map((p) => p.username || p.bot || '')")
    assert not re.search(r"(Tribe|部族)\s*\d", content), content
    assert any(name and name in content for name in players) or text["iwari.tribe.2"] in content, (content, players)
    # The whole log: no id of a territory, card or space is left.
    log = page.locator("#log").inner_text()
    assert not RAW_ID.search(log), log
    assert "iwari." not in log


def test_a_list_with_an_entry_per_tribe_names_each_owner(server, new_page) -> None:
    """The "@each:tribe" rule: Iwari's scores read with whose they are, the third tribe too."""
    text = strings("en")
    page = new_page(server.url, locale="en-US")
    create_table(page, "iwari", 2)
    page.wait_for_function("() => window.ludotecaTable && window.ludotecaTable.state.view")
    lines = page.evaluate("""async () => {
        const m = await import('/js/gamemodule.js');
        const seats = [{ seat: 0, username: 'ana' }, { seat: 1, bot: 'random' }];
        return [
          m.eventText('iwari', { key: 'iwari.half_journey', args: { points: [8, 20, 5], scores: [8, 20, 5] } }, seats),
          m.eventText('iwari', { key: 'iwari.expedition',
                                 args: { seat: 1, expedition: 'x', rank: 2, points: 7 } }, seats),
          m.eventText('iwari', { key: 'iwari.reshuffled', args: { cards: [[1, 'a'], [0, 'b']] } }, seats),
        ];
    }""")
    third = text["iwari.tribe.2"]
    assert lines[0] == text["iwari.half_journey"].replace("{points}", f"ana 8, Bot 2 20, {third} 5"), lines
    # A number on its own under the same argument stays a number.
    assert "scores 7" in lines[1] and "Bot 2" in lines[1], lines
    # A pair inside a list reads "first: second" (Blood Rage reveals [seat, card] pairs).
    assert "1: a, 0: b" in lines[2], lines
