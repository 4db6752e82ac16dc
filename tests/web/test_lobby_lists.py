"""The lobby's lists in a real Chromium: filtered by game and by list, paged, with a plain
note on what "in progress" holds (and for how long an untouched table stays) and on
what real time and turn-based mean, in en, ja and vi, at phone size."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.web.conftest import frame_strings, screenshot

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}

PAGE = 10  # web/js/pages/lobby.js
MAKE = """async ([game, n]) => {
  const api = await import('/js/api.js');
  const { ensureUser } = await import('/js/session.js');
  await ensureUser();
  const ids = [];
  for (let i = 0; i < n; i++) ids.push((await api.createTable({ game, seats: 2, options: {}, mode: 'realtime',
    clock: { initial_seconds: 600, increment_seconds: 5 } })).id);
  return ids;
}"""


def frame(lang: str) -> dict:  # type: ignore[type-arg]
    return frame_strings(lang)


def rows(page: Page, status: str) -> list[str]:
    return page.locator(f"#tables-{status} tr[data-table]").evaluate_all("(trs) => trs.map((tr) => tr.dataset.table)")


def test_the_lobby_filters_by_game_and_list_and_pages(server, new_page) -> None:
    page = new_page(server.url, viewport=PHONE)
    expect(page.locator("[data-game=iwari]")).to_be_visible()
    made = page.evaluate(MAKE, ["sealedbids", PAGE + 2])
    iwari = page.evaluate(MAKE, ["iwari", 1])
    page.reload()
    expect(page.locator("#lobby-filter")).to_be_visible()

    # One game: the other game's tables leave every list.
    page.locator("#filter-game").select_option("iwari")
    page.wait_for_function("""([iwari, made]) => {
      const shown = [...document.querySelectorAll('#tables-open tr[data-table]')].map((tr) => tr.dataset.table);
      return shown.includes(iwari) && !made.some((id) => shown.includes(id));
    }""", arg=[iwari[0], made])
    # One list: the others are not drawn.
    page.locator("#filter-game").select_option("sealedbids")
    page.locator("#filter-status").select_option("open")
    expect(page.locator("#tables-playing")).to_have_count(0)
    expect(page.locator("#tables-over")).to_have_count(0)
    page.wait_for_function("(made) => document.querySelector(`#tables-open tr[data-table='${made}']`)", arg=made[-1])
    expect(page.locator("#tables-open tr[data-table]")).to_have_count(PAGE)
    first = rows(page, "open")
    assert first == made[::-1][:PAGE]  # newest first
    pager = page.locator("#tables-open .pager")
    expect(pager.locator(".page-prev")).to_be_disabled()
    pager.locator(".page-next").click()
    expect(pager.locator(".page-prev")).to_be_enabled()
    page.wait_for_function("(first) => !document.querySelector(`#tables-open tr[data-table='${first}']`)", arg=first[0])
    second = rows(page, "open")
    assert second[:2] == made[::-1][PAGE:] and not set(first) & set(second)
    box = pager.locator(".page-next").bounding_box()
    assert box and box["height"] >= 44 and box["width"] >= 44  # a finger's size on a phone
    screenshot(page, "lobby-filtered-phone")
    # Another game goes back to the first page.
    page.locator("#filter-game").select_option("")
    expect(page.locator("#tables-open .pager .page-prev")).to_be_disabled()


@pytest.mark.parametrize("lang", ["en", "ja", "vi"])
def test_the_lobby_says_what_in_progress_and_the_modes_mean(server, new_page, lang: str) -> None:
    page = new_page(server.url, locale={"en": "en-US", "ja": "ja-JP", "vi": "vi-VN"}[lang], viewport=PHONE)
    expect(page.locator("[data-game=iwari]")).to_be_visible()
    strings = frame(lang)["lobby"]
    hours = page.evaluate("fetch('/api/health').then((r) => r.json()).then((d) => d.table_expiry_hours)")
    note = strings["in_progress_note"].replace("{hours}", str(hours))
    expect(page.locator("#tables-playing .note")).to_have_text(note)
    expect(page.locator("#modes-note")).to_have_text(strings["modes_note"])
    expect(page.locator("#filter-game option").first).to_have_text(strings["all_games"])
    screenshot(page, f"lobby-notes-{lang}-phone")
