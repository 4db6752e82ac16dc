"""Small things of the pages, in Chromium against a real server where the page shows
them: no console 401 on a signed-out page load; one minus sign (U+2212) in scores; and,
in the games' strings, "Movement points left: 1" (no "1 movement points"), no "Click" on
a touch screen (choose), and one Vietnamese word for Iwari's totem."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect

from tests.web.conftest import ROOT

pytestmark = pytest.mark.browser

GAMES = ROOT / "src" / "ludoteca" / "games"


def strings(game: str, lang: str) -> dict[str, str]:
    return json.loads((GAMES / game / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))


def test_a_signed_out_page_load_logs_no_401(server, browser) -> None:  # type: ignore[no-untyped-def]
    context = browser.new_context(bypass_csp=True)
    page = context.new_page()
    failed: list[str] = []
    page.on("response", lambda r: failed.append(f"{r.status} {r.url}") if r.status >= 400 else None)
    page.on("console", lambda m: failed.append(m.text) if m.type == "error" else None)
    try:
        for where in ("/", "/#/leaderboard", "/#/help"):
            page.goto(server.url + where)
            expect(page.locator("#login-link")).to_be_visible()
            page.wait_for_load_state("networkidle")
    finally:
        context.close()
    assert not failed, failed


def test_negative_scores_read_with_the_minus_sign(server, new_page) -> None:  # type: ignore[no-untyped-def]
    page = new_page(server.url)
    expect(page.locator("[data-game=iwari]")).to_be_visible()
    text = page.evaluate("""async () => {
      const { scoreboard } = await import('/js/pages/scoreboard.js');
      const box = document.createElement('section');
      const result = { scores: [-15, 3], ranks: [2, 1], breakdown: [{ bonus: -7 }, { bonus: 2 }] };
      box.append(...scoreboard({ id: 'sealedbids' }, result,
        [{ seat: 0, username: 'a' }, { seat: 1, username: 'b' }]).filter(Boolean));
      document.querySelector('main').replaceChildren(box);
      return box.textContent;
    }""")
    assert "\u221215" in text and "\u22127" in text, text
    assert not re.search(r"-\d", text), text


def test_the_games_strings_say_one_thing_one_way() -> None:
    crusaders = strings("crusaders", "en")
    assert not re.search(r"\{n\} movement points", crusaders["cr.ui.value_move"])
    for game in ("crusaders", "iwari"):
        for lang, word in (("en", r"\b[Cc]lick"), ("ja", "クリック"), ("vi", r"\b[Bb]ấm\b")):
            clicks = [k for k, v in strings(game, lang).items()
                      if k.startswith(("cr.ui.hint", "iwari.ui")) and isinstance(v, str) and re.search(word, v)]
            assert not clicks, (game, lang, clicks)
    vi = strings("iwari", "vi")
    assert not [k for k, v in vi.items() if isinstance(v, str) and re.search(r"\b[Tt]otem\b", v)]
    assert "vật tổ" in vi["iwari.piece.totem"]
