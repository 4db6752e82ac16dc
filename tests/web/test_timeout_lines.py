"""A seat whose clock runs out, in Chromium against a real server: the clock scan hands it
to a bot, and the table says so, in the log (after the moves played by then) and on the
end screen, in the reader's language."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

# A Sealed Bids table (the test game) on a one-second realtime clock, the reader in seat 0
# and the instant random bot in seat 1, started: the reader never moves.
SHORT_CLOCK_TABLE = """async () => {
  const api = await import('/js/api.js');
  const { ensureUser } = await import('/js/session.js');
  await ensureUser();
  const table = await api.createTable({ game: 'sealedbids', seats: 2, mode: 'realtime',
    clock: { initial_seconds: 1, increment_seconds: 0 }, options: { rounds: 1 } });
  await api.addBot(table.id, 1, 'random');
  await api.start(table.id);
  location.hash = `#/table/${table.id}`;
}"""


@pytest.mark.parametrize(("locale", "words"), [("en-US", "ran out of time"), ("ja-JP", "持ち時間が切れ"),
                                               ("vi-VN", "hết thời gian")])
def test_a_seat_that_ran_out_of_time_is_said_in_the_log_and_at_the_end(server, new_page, locale: str,  # type: ignore[no-untyped-def]
                                                                       words: str) -> None:
    page = new_page(server.url, locale=locale)
    page.wait_for_function("() => document.querySelector('[data-game=sealedbids]')")
    page.evaluate(SHORT_CLOCK_TABLE)
    # The clock scan ticks every second; the bot then plays the seat to the end.
    line = page.locator('#log li[data-key="table.timed_out_log"]')
    expect(line).to_have_count(1, timeout=20_000)
    expect(line).to_contain_text(words)
    expect(page.locator("#scoreboard")).to_be_visible(timeout=20_000)
    expect(page.locator("#timed-out li")).to_have_count(1)
    expect(page.locator("#timed-out li")).to_contain_text(words)
    # Said once, where it happened: after a reload too.
    page.reload()
    expect(page.locator('#log li[data-key="table.timed_out_log"]')).to_have_count(1)
    expect(page.locator("#timed-out li")).to_have_count(1)
