"""Tournaments in a real Chromium: a person joins a tournament from its page, plays
their table when the round starts, and sees the standings move live; the pages in en, ja
and vi, at phone size with finger-wide controls, by keyboard."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import httpx
import pytest
from playwright.sync_api import expect

from tests.server.conftest import Api
from tests.web.conftest import PHONE, screenshot
from tests.web.tables import play_one, wait_for_turn
from tests.web.test_accessibility import serious_violations

pytestmark = pytest.mark.browser

PHONE_844 = {"width": 390, "height": 844}


def _organise(url: str, bots: int) -> tuple[Api, str]:
    http = httpx.Client(base_url=url, timeout=10)
    organiser = Api(http)
    start = (datetime.now(UTC) + timedelta(hours=1)).isoformat()
    r = organiser.post("/api/tournaments", {"game": "sealedbids", "name": "Evening cup", "seats": 2, "rounds": 2,
                                            "options": {"rounds": 1}, "starts_at": start, "bots": ["random"],
                                            "clock": {"initial_seconds": 120, "increment_seconds": 5}})
    assert r.status_code == 201, r.text
    tid = r.json()["id"]
    for _ in range(bots):
        assert organiser.post(f"/api/tournaments/{tid}/bots", {"bot": "random"}).status_code == 200
    return organiser, tid


@pytest.mark.slow
def test_join_play_and_see_the_standings_move(server, new_page) -> None:
    organiser, tid = _organise(server.url, 3)
    page = new_page(f"{server.url}/#/tournaments", viewport=PHONE_844)
    row = page.locator("#tournaments-upcoming a", has_text="Evening cup")
    expect(row).to_be_visible()
    # By keyboard: the link, then Join.
    row.focus()
    page.keyboard.press("Enter")
    join = page.locator("#tournament-join")
    expect(join).to_be_visible()
    leave = page.locator("#tournament-leave")
    for _ in range(3):
        # The page's live socket may redraw it between the focus and the key (a new
        # button, the focus gone): then the key did nothing, and the reader presses again.
        if leave.is_visible():
            break
        join.focus()
        page.keyboard.press("Enter")
        try:
            expect(leave).to_be_visible(timeout=4000)
            break
        except AssertionError:
            continue
    expect(leave).to_be_visible()
    expect(page.locator("#tournament-standings tbody tr")).to_have_count(4)
    page.wait_for_timeout(300)  # the socket made again for the newcomer redraws once
    small = page.evaluate("""() => [...document.querySelectorAll('main button, main select, main input, main a')]
      .filter((e) => e.offsetParent !== null && e.getBoundingClientRect().height < 44).map((e) => e.outerHTML)""")
    assert not small, small
    screenshot(page, "tournament-upcoming-phone")
    # The organiser moves the start to now: the page hears it over its socket.
    soon = (datetime.now(UTC) + timedelta(seconds=1)).isoformat()
    r = organiser.http.patch(f"/api/tournaments/{tid}", json={"starts_at": soon}, headers=organiser.headers)
    assert r.status_code == 200, r.text
    mine = page.locator("#tournament-my-table a")
    expect(mine).to_be_visible(timeout=20_000)
    played = page.locator("#tournament-standings tr.mine td:nth-child(4)")
    expect(played).to_have_text("0")  # the person has not played yet
    mine.click()
    pick = random.Random(28)
    while wait_for_turn(page):
        play_one(page, pick)
    page.go_back()
    # The person's game is over: their row moves, live (and round 2 begins).
    expect(played).not_to_have_text("0", timeout=20_000)
    page.wait_for_function("() => [...document.querySelectorAll('#tournament-standings td.points')]"
                           ".some((td) => Number(td.textContent) > 0)")
    expect(page.locator("#tournament-crosstable")).to_be_visible()
    screenshot(page, "tournament-running-phone")
    organiser.http.close()


@pytest.mark.parametrize("lang,word", [("ja-JP", "大会"), ("vi-VN", "Giải đấu"), ("en-US", "Tournaments")])
def test_the_tournament_pages_speak_each_language(server, new_page, lang, word) -> None:
    _organiser, tid = _organise(server.url, 1)
    page = new_page(f"{server.url}/#/tournament/{tid}", locale=lang, viewport=PHONE)
    expect(page.locator("#tournaments-link")).to_have_text(word)
    expect(page.locator("#tournament-standings")).to_be_visible()
    faults = serious_violations(page)
    page.goto(f"{server.url}/#/tournaments")
    expect(page.locator("#tournaments-upcoming a", has_text="Evening cup").first).to_be_visible()
    faults += serious_violations(page)
    page.goto(f"{server.url}/#/")
    expect(page.locator("#lobby-tournaments")).to_be_visible()
    expect(page.locator("#lobby-tournaments a", has_text="Evening cup").first).to_be_visible()
    assert not faults, "\n".join(faults)
    _organiser.http.close()


SIGN_UP = """async (name) => {
  const api = await import('/js/api.js');
  const { setUser } = await import('/js/session.js');
  await api.signUp(name, 'correct horse battery');
  await api.logIn(name, 'correct horse battery');
  setUser(await api.me());
}"""


def test_an_account_creates_a_tournament_from_the_form(server, new_page) -> None:
    page = new_page(f"{server.url}/#/tournaments", viewport=PHONE_844)
    expect(page.locator("#tournaments-upcoming")).to_be_visible()
    page.evaluate(SIGN_UP, f"org{random.Random().randrange(10**8)}")
    page.goto(f"{server.url}/#/")
    page.goto(f"{server.url}/#/tournaments")
    page.locator("#tournament-new").click()
    form = page.locator("#tournament-form")
    expect(form).to_be_visible()
    form.locator("#tf-name").fill("Form cup")
    form.locator("#tf-game").select_option("sealedbids")
    form.locator("#tf-rounds").fill("2")
    form.locator("#tf-bot-random").check()
    # Elimination shows its own field, not the rounds.
    form.locator("#tf-format").select_option("elimination")
    expect(form.locator("#tf-rounds")).to_be_hidden()
    expect(form.locator("#tf-advance")).to_be_visible()
    form.locator("#tf-format").select_option("swiss")
    form.locator("button[type=submit]").press("Enter")
    expect(page.locator("main h1")).to_have_text("Form cup")
    expect(page.locator("#tournament-add-bot")).to_be_visible()
    page.locator("#tournament-add-bot").click()
    expect(page.locator("#tournament-standings tbody tr")).to_have_count(1)
    expect(page.locator("#tournament-cancel")).to_be_visible()
