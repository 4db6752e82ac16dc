"""The replay's transport and controls, in Chromium against a real server: the replay
comes as its first frame plus changes, gzipped; the page plays it on its own at a chosen
speed; on a phone its controls keep to one line under the slider."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

# A Sealed Bids game (the test game) played to its end without the reader: a one-second
# realtime clock runs out and the bot plays seat 0 on beside the one in seat 1.
FINISHED_TABLE = """async () => {
  const api = await import('/js/api.js');
  const { ensureUser } = await import('/js/session.js');
  await ensureUser();
  const table = await api.createTable({ game: 'sealedbids', seats: 2, mode: 'realtime',
    clock: { initial_seconds: 1, increment_seconds: 0 }, options: { rounds: 3 } });
  await api.addBot(table.id, 1, 'random');
  await api.start(table.id);
  return table.id;
}"""
WIRE = """() => performance.getEntriesByType('resource')
  .filter((e) => e.name.includes('/api/tables/') && e.name.includes('/replay'))
  .map((e) => ({ name: e.name, wire: e.encodedBodySize, whole: e.decodedBodySize }))"""


def finished_table(page) -> str:  # type: ignore[no-untyped-def]
    page.wait_for_function("() => document.querySelector('[data-game=sealedbids]')")
    table = page.evaluate(FINISHED_TABLE)
    # The scan ticks every second, then the bots play on: the game ends in a few seconds.
    for _ in range(60):
        status = page.evaluate("async (id) => (await (await fetch(`/api/tables/${id}`)).json()).table.status", table)
        if status == "over":
            return str(table)
        page.wait_for_timeout(500)
    raise AssertionError("the game did not end")


@pytest.mark.slow
def test_the_replay_comes_as_changes_gzipped_and_plays_on_its_own(server, new_page) -> None:  # type: ignore[no-untyped-def]
    page = new_page(server.url)
    table = finished_table(page)
    page.goto(f"{server.url}/#/replay/{table}")
    expect(page.locator("#replay-step")).to_be_visible()
    wire = page.evaluate(WIRE)
    assert wire and all("changes=true" in w["name"] for w in wire), wire
    # Gzipped on the wire (the answer is over 1 KB whole).
    assert all(w["wire"] < w["whole"] for w in wire if w["whole"] > 1024), wire
    # The frames put back are whole views: the board draws the last one as the record ends.
    total = int(page.locator("#replay-slider").get_attribute("max") or 0)
    assert total > 2
    # Auto-play at the fastest speed runs to the end, then the button offers to play again.
    page.locator("#replay-speed").select_option("250")
    page.locator("#replay-play").click()
    expect(page.locator("#replay-play")).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#replay-slider")).to_have_value(str(total), timeout=total * 250 + 5000)
    expect(page.locator("#replay-play")).to_have_attribute("aria-pressed", "false")
    expect(page.locator("#scoreboard")).to_be_visible()
    # A step of the reader's own stops it.
    page.locator("#replay-play").click()
    page.locator("#replay-prev").click()
    expect(page.locator("#replay-play")).to_have_attribute("aria-pressed", "false")


@pytest.mark.parametrize("locale", ["en-US", "ja-JP", "vi-VN"])
def test_the_replay_controls_keep_to_one_line_on_a_phone(server, new_page, locale: str) -> None:  # type: ignore[no-untyped-def]
    page = new_page(server.url, locale=locale, viewport={"width": 390, "height": 844})
    table = finished_table(page)
    page.goto(f"{server.url}/#/replay/{table}")
    expect(page.locator("#replay-last")).to_be_visible()
    boxes = [page.locator(f"#replay-{name}").bounding_box() for name in ("first", "prev", "play", "next", "last")]
    assert all(b is not None for b in boxes)
    tops = {round(b["y"]) for b in boxes if b}
    assert len(tops) == 1, boxes  # one line: no button wrapped under the others
    assert all(b["width"] >= 44 and b["height"] >= 44 for b in boxes if b), boxes
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
