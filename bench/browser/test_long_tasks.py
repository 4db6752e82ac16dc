"""The main thread while a person plays: a long-task observer (PerformanceObserver
"longtask", tasks of 50 ms and more) watches each game's table in Chromium while the
person plays a few turns against random bots at desktop size. A benchmark, not a test
(speed targets are measured here, never asserted in `make test`):

    .venv/bin/pytest bench/browser/test_long_tasks.py -s -p no:randomly

prints the longest task and the time blocked per game (docs/web.md has the figures); the
bound only says that a board froze the page."""

from __future__ import annotations

import random

import pytest
from tests.web.conftest import DESKTOP
from tests.web.tables import SETUPS, create_table, play_one, wait_for_turn

pytestmark = pytest.mark.browser

TURNS = 8
FROZEN_MS = 3000
"""A task this long is a frozen page, whatever the machine's load."""

OBSERVE = """
  window.__longTasks = [];
  new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__longTasks.push(e.duration); })
    .observe({ type: 'longtask', buffered: true });
"""

@pytest.mark.parametrize("game", sorted(SETUPS))
def test_the_longest_task_while_playing(server, browser, game: str) -> None:  # type: ignore[no-untyped-def]
    context = browser.new_context(viewport=DESKTOP, bypass_csp=True)
    context.set_default_timeout(15_000)
    context.add_init_script(OBSERVE)
    try:
        page = context.new_page()
        page.goto(server.url)
        create_table(page, game, SETUPS[game])
        assert wait_for_turn(page)
        page.evaluate("window.__longTasks.length = 0")  # the page's own loading is not play
        pick = random.Random(4)
        for _ in range(TURNS):
            if not wait_for_turn(page):
                break
            play_one(page, pick)
        tasks = page.evaluate("window.__longTasks")
    finally:
        context.close()
    longest = max(tasks, default=0)
    print(f"\n{game}: longest task {longest:.0f} ms, {len(tasks)} long tasks,"
          f" {sum(tasks):.0f} ms blocked over {TURNS} turns")
    assert longest < FROZEN_MS, tasks
