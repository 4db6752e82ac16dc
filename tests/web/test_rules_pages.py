"""The rules pages for players: each game's, in English, Japanese and Vietnamese, written
for people who play (how to play, a turn, scoring, a small picture), in the reader's
language, readable on a phone; the numbered rules for developers stay one link away."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.web.conftest import ROOT, screenshot

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}

GAMES = ("bloodrage", "crusaders", "iwari", "hadrianswall")
LOCALES = {"en": "en-US", "ja": "ja-JP", "vi": "vi-VN"}
GAMES_DIR = ROOT / "src" / "ludoteca" / "games"
# What a developers' specification says and a players' page does not.
SPEC = re.compile(r"\b(BR|CR|IW|HW)-\d+|\btests?/|docs/|\.py\b|_provenance|\bseed\b|`")


def is_japanese(text: str) -> bool:
    kana_kanji = sum(1 for ch in text if "\u3040" <= ch <= "\u30ff" or "\u4e00" <= ch <= "\u9fff")
    latin = sum(1 for ch in text if ch.isascii() and ch.isalpha())
    return kana_kanji > 4 * latin


def is_vietnamese(text: str) -> bool:
    marked = sum(1 for ch in text if ch in "ăâđêôơưàảãáạằẳẵắặầẩẫấậèẻẽéẹềểễếệìỉĩíịòỏõóọồổỗốộờởỡớợùủũúụừửữứựỳỷỹýỵ")
    return marked > len(text) / 25


@pytest.mark.parametrize("lang", sorted(LOCALES))
@pytest.mark.parametrize("game", GAMES)
def test_each_game_has_rules_for_players_in_the_readers_language(server, new_page, game: str, lang: str) -> None:
    source = (GAMES_DIR / game / "help" / f"{lang}.md").read_text(encoding="utf-8")
    assert not SPEC.search(source), SPEC.search(source)
    page = new_page(f"{server.url}/#/help/{game}", locale=LOCALES[lang], viewport=PHONE)
    rules = page.locator("#rules")
    expect(rules).to_have_attribute("data-kind", "players")
    expect(rules).to_have_attribute("lang", lang)
    # How to play, a turn, scoring: the page's own sections, in its order.
    headings = [line[3:] for line in source.splitlines() if line.startswith("## ")]
    assert len(headings) >= 3
    expect(rules.locator("h3")).to_have_text(headings)
    text = rules.inner_text()
    in_language = {"en": lambda t: not is_japanese(t) and not is_vietnamese(t), "ja": is_japanese, "vi": is_vietnamese}
    assert in_language[lang](text)
    # A picture that loads, with words for those who cannot see it, within a phone's width.
    picture = rules.locator("img.rules-picture")
    expect(picture).to_have_count(1)
    picture.scroll_into_view_if_needed()
    page.wait_for_function("(img) => img.complete && img.naturalWidth > 0", arg=picture.element_handle())
    assert len(picture.get_attribute("alt") or "") > 20
    box = picture.bounding_box()
    assert box and 0 < box["width"] <= PHONE["width"]
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    # The developers' numbered rules, one link away.
    expect(page.locator("#numbered-rules")).to_have_attribute("href", f"/api/games/{game}/rules")
    screenshot(page, f"rules-{game}-{lang}-phone")


def test_the_rules_follow_a_change_of_language(server, new_page) -> None:
    page = new_page(f"{server.url}/#/help/iwari")
    expect(page.locator("#rules")).to_have_attribute("lang", "en")
    page.locator("#language").select_option("ja")
    expect(page.locator("#rules")).to_have_attribute("lang", "ja")
    first = re.search(r"^## (.+)$", (GAMES_DIR / "iwari" / "help" / "ja.md").read_text(encoding="utf-8"), re.M)
    assert first
    expect(page.locator("#rules h3").first).to_have_text(first.group(1))


def test_a_rules_page_picture_only_comes_from_this_server(server, new_page) -> None:
    page = new_page(f"{server.url}/#/help")
    expect(page.locator("main h1")).to_be_visible()
    html = page.evaluate("""async () => {
      const { renderMarkdown } = await import('/js/markdown.js');
      const box = renderMarkdown('![a](/rules/iwari/majority.svg) ![b](https://example.com/x.svg)'
        + ' ![c](javascript:alert(1))');
      return [...box.querySelectorAll('img')].map((img) => img.getAttribute('src'));
    }""")
    assert html == ["/rules/iwari/majority.svg"]
