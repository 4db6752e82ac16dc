"""Every word a page shows comes from the chosen language's string tables: the lobby (with
each game's create form, its options and hints), a table in play, a replay to its end,
the help pages, a profile and the leaderboard, walked in Japanese and Vietnamese. A text
on the page that no string of the language's tables (the frame's, every game's, the
board modules' own) can produce fails the test, with the text and the page it was on."""

from __future__ import annotations

import functools
import re

import pytest
from playwright.sync_api import Page, expect

from tests.web.conftest import screenshot
from tests.web.test_browser import click_first_move, play_to_end, start

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}

REAL_GAMES = ("bloodrage", "crusaders", "iwari", "hadrianswall")
LOCALES = {"ja": "ja-JP", "vi": "vi-VN"}
# Not words of any language: the brand, the languages' own names, the licence's name.
NAMES = {"Ludoteca", "English", "日本語", "Tiếng Việt", "GNU AGPL-3.0"}
SEPARATORS = re.compile(r"\s*(?:—|–|·|:|：|、|,|;|\(|\)|（|）|→|/|\+|×)\s*")
NEUTRAL = re.compile(r"https?://\S+|[IVX]+|[a-z]\d{1,3}")
WORDS = re.compile(r"\s+|\s*(?:—|–|·|:|：|、|,|;|\(|\)|（|）|→|/|\+|×)\s*")

TABLES = """async (lang) => {
  const flat = (d, p = '', o = []) => {
    for (const [k, v] of Object.entries(d || {})) {
      if (k.startsWith('_')) continue;
      if (v && typeof v === 'object' && !Array.isArray(v)) flat(v, `${p}${k}.`, o);
      else if (typeof v === 'string') o.push(v);
    }
    return o;
  };
  const out = flat(await (await fetch(`/i18n/${lang}.json`)).json());
  const data = await (await fetch('/api/games')).json();
  for (const g of Array.isArray(data) ? data : data.games) {
    const res = await fetch(`/api/games/${g.id}/i18n/${lang}`);
    if (res.ok) out.push(...flat(await res.json()));
    const module = await import(`/games/${g.id}.js`).catch(() => null);
    if (module && module.strings && module.strings[lang]) out.push(...flat(module.strings[lang]));
  }
  const names = [];
  for (const status of ['open', 'playing', 'over']) {
    const rows = await (await fetch(`/api/tables?status=${status}&limit=500`)).json();
    for (const row of Array.isArray(rows) ? rows : rows.tables) {
      for (const s of row.players || []) if (s && s.username) names.push(s.username);
    }
  }
  const me = await (await fetch('/api/sessions')).json().catch(() => null);
  if (me && (me.user || me).username) names.push((me.user || me).username);
  return { strings: out, names };
}"""

SHOWN = """() => {
  const out = [];
  const visible = (el) => el && (typeof el.checkVisibility !== 'function' || el.checkVisibility());
  // .user-text: what players wrote (a report's reason, a chat line, a name): not the page's words.
  const skip = (el) => el.closest('script, style, .rules, pre, details.no-board, .user-text');
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const lines = new Set(); // SVG texts cut into lines (<tspan>s): one string, read whole
  while (walker.nextNode()) {
    const node = walker.currentNode;
    const text = node.textContent.replace(/\\s+/g, ' ').trim();
    const el = node.parentElement;
    if (!text || !el || skip(el) || !visible(el)) continue;
    const whole = el.closest('text');
    if (whole && whole.querySelectorAll('tspan').length > 1) {
      if (!lines.has(whole)) {
        lines.add(whole);
        out.push([...whole.querySelectorAll('tspan')].map((t) => t.textContent.trim()));
      }
      continue;
    }
    out.push(text);
  }
  for (const el of document.querySelectorAll('[aria-label], [title], [placeholder]')) {
    if (skip(el) || !visible(el)) continue;
    for (const a of ['aria-label', 'title', 'placeholder']) if (el.getAttribute(a)) out.push(el.getAttribute(a).trim());
  }
  return out;
}"""


class Table:
    """What a language's string tables can produce: each string, its placeholders standing
    for any text."""

    def __init__(self, strings: list[str], names: list[str]) -> None:
        self.any = any_string(tuple(strings))
        self.literals = [re.split(r"\{\w+\}", s)[0] for s in strings]
        self.names = NAMES | set(names)

    def begins(self, text: str) -> bool:
        """Some string starts as ``text`` does (up to its first placeholder)."""
        head = text[:8]
        return len(head) >= 4 and any(lit.startswith(head) for lit in self.literals)

    def neutral(self, text: str) -> bool:
        # Also not words: links, Roman numerals (Blood Rage's ages), map coordinates ("s12").
        return (not any(ch.isalpha() for ch in text) or text in self.names or bool(NEUTRAL.fullmatch(text)))

    def says(self, text: str) -> bool:
        if self.neutral(text) or self.any.fullmatch(text):
            return True
        # Texts the code joins from several strings ("Replay — Iwari", "(you)", "Tundra 1").
        core = re.sub(r"^[\W\d_]+|[\W\d_]+$", "", text)  # "Sa Mạc 1": a name and its number
        if core and core != text and self.any.fullmatch(core):
            return True
        for separators in (SEPARATORS, WORDS):
            pieces = [p for p in separators.split(text) if p.strip()]
            if pieces != [text] and all(self.neutral(p) or self.any.fullmatch(p) for p in pieces):
                return True
        return False


@functools.lru_cache(maxsize=4)
def any_string(strings: tuple[str, ...]) -> re.Pattern[str]:
    """One pattern for all of a language's strings, compiled once per language: it takes a
    while, and a walk checks some thirty pages."""
    patterns = []
    for text in {s.strip() for s in strings if s.strip()}:
        parts = re.split(r"\{\w+\}", text)
        if not any(ch.isalpha() for ch in "".join(parts)):
            continue  # "{n}" alone, or "{a} / {b}": a pattern that would let anything through
        patterns.append(".+?".join(re.escape(p) for p in parts))
    return re.compile("|".join(f"(?:{p})" for p in sorted(patterns, key=len, reverse=True)), re.S)


def check(page: Page, lang: str, where: str, seen: dict[str, str]) -> None:
    screenshot(page, f"words-{lang}-{re.sub(r'[^a-z0-9]+', '-', where.lower()).strip('-')}")
    tables = page.evaluate(TABLES, lang)
    table = Table(tables["strings"], tables["names"])
    for shown in page.evaluate(SHOWN):
        if isinstance(shown, list):
            # A board's text cut into lines: joined as the language writes (no space in
            # Japanese); a text cut short with "…" is checked up to the cut.
            joined = [" ".join(shown), "".join(shown)]
            if any(table.says(text) or (text.endswith("…") and table.begins(text[:-1])) for text in joined):
                continue
            seen.setdefault(" / ".join(shown), where)
        elif not table.says(shown):
            seen.setdefault(shown, where)


def lobby(page: Page) -> None:
    expect(page.locator("[data-game=iwari]")).to_be_visible()


@pytest.mark.slow
@pytest.mark.parametrize("lang", sorted(LOCALES))
def test_every_page_speaks_only_the_chosen_language(server, new_page, lang: str) -> None:
    foreign: dict[str, str] = {}
    page = new_page(server.url, locale=LOCALES[lang], viewport=PHONE)
    lobby(page)
    check(page, lang, "lobby", foreign)
    # Each game's create form: its options, their choices and hints.
    for game in REAL_GAMES:
        page.locator(f"[data-game={game}] button.primary").click()
        expect(page.locator("#create-form")).to_be_visible()
        seats = page.locator("#create-seats option").all_inner_texts()
        for n in seats:
            page.locator("#create-seats").select_option(n)
            check(page, lang, f"create {game} with {n} seats", foreign)
        page.locator("#create-form button:not(.primary)").last.click()

    # A sealed-bids game played to its end, then its replay, step by step to the end.
    page.locator("[data-game=sealedbids] button.primary").click()
    page.locator("#create-bot").select_option("random")
    page.locator("#create-submit").click()
    expect(page.locator("#waiting")).to_be_visible()
    check(page, lang, "waiting room", foreign)
    start(page)
    check(page, lang, "table", foreign)
    play_to_end(page)
    check(page, lang, "table at the end", foreign)
    page.locator("#replay-link").click()
    expect(page.locator("#replay-step")).to_be_visible()
    check(page, lang, "replay", foreign)
    page.locator("#replay-last").click()
    expect(page.locator("#scoreboard")).to_be_visible()
    check(page, lang, "replay at the end", foreign)

    # Each game's table in play against bots, a few moves in, at phone size.
    for game in REAL_GAMES:
        page.goto(f"{server.url}/#/")
        lobby(page)
        page.locator(f"[data-game={game}] button.primary").click()
        page.locator("#create-bot").select_option("random")
        page.locator("#create-submit").click()
        expect(page.locator("#waiting")).to_be_visible()
        page.locator("#start").click()
        expect(page.locator("#board svg").first).to_be_visible()
        for _ in range(4):
            page.wait_for_function("() => document.querySelector('#moves button.move:not([disabled])')"
                                   " || !document.querySelector('#scoreboard').hidden")
            if page.locator("#scoreboard").is_visible():
                break
            click_first_move(page)
        check(page, lang, f"{game} table", foreign)

    for where in ["#/help", *(f"#/help/{g}" for g in REAL_GAMES), "#/leaderboard", "#/leaderboard/iwari"]:
        page.goto(f"{server.url}/{where}")
        expect(page.locator("main section.panel").first).to_be_visible()
        page.wait_for_load_state("networkidle")
        check(page, lang, where, foreign)
    me = page.evaluate("fetch('/api/sessions').then((r) => r.json()).then((d) => (d.user || d).username)")
    page.goto(f"{server.url}/#/player/{me}")
    expect(page.locator("main h1")).to_be_visible()
    check(page, lang, "profile", foreign)
    assert not foreign, f"text not in the {lang} string tables (text: page): {foreign}"
