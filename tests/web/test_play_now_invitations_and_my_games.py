"""Play now, invitations and My games in the browser: two people who press Play now in
two browsers are seated together; an invitation reaches the invitee (live, on whatever
page) and is accepted; the header's badge counts a table waiting for me, and My games
lists it first (at phone size, in each language, controls of 44 px)."""

from __future__ import annotations

import json
import uuid
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.web.conftest import ROOT
from tests.web.test_browser import GAME, create_table, start

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
PASSWORD = "correct horse battery"
SMALL_CONTROLS = """() => [...document.querySelectorAll(
  '#main button, #main select, #main input, #main a.button, #invitations button')]
  .filter((el) => el.offsetParent !== null && el.getBoundingClientRect().height < 44)
  .map((el) => el.id || el.className || el.textContent)"""


def strings(lang: str) -> dict:
    return json.loads(Path(ROOT / "src/ludoteca/web/i18n" / f"{lang}.json").read_text(encoding="utf-8"))


def sign_up(page: Page) -> str:
    name = f"p{uuid.uuid4().hex[:10]}"
    page.goto(page.url.split("#")[0] + "#/login")
    page.locator("#signup-username").fill(name)
    page.locator("#signup-password").fill(PASSWORD)
    page.locator("#signup-form button[type=submit]").click()
    expect(page.locator("#logout")).to_be_visible(timeout=15_000)  # a sign-in under load
    return name


def test_two_people_pressing_play_now_are_seated_together(server, new_page) -> None:
    pages = [new_page(server.url), new_page(server.url)]
    names = [sign_up(page) for page in pages]
    for page in pages:
        expect(page.locator("#playnow-go")).to_be_visible()
        page.locator("#playnow-game").select_option(GAME)
        page.locator("#playnow-seats").select_option("2")
    pages[0].locator("#playnow-go").click()
    expect(pages[0].locator("#playnow-cancel")).to_be_visible()  # waiting, with a way out
    pages[1].locator("#playnow-go").click()
    for page in pages:
        page.wait_for_url("**/#/table/*")
    tables = {page.url.split("#/table/")[1] for page in pages}
    assert len(tables) == 1
    for page in pages:
        seats = page.locator("#seats-panel")
        for name in names:
            expect(seats).to_contain_text(name)


def test_an_invitation_reaches_the_invitee_and_is_accepted(server, new_page) -> None:
    host, guest = new_page(server.url), new_page(server.url)
    host_name, guest_name = sign_up(host), sign_up(guest)
    table_id = create_table(host, bots=False)
    host.goto(server.url + "/#/my")
    form = host.locator(f".invite-form[data-table='{table_id}']")
    form.locator("input").fill(guest_name)
    form.locator("button[type=submit]").click()
    expect(host.locator(f"[data-table='{table_id}'] [role=status]")).to_contain_text(guest_name)
    # The guest is in the lobby: the invitation shows up there, live.
    box = guest.locator("#invitations")
    expect(box).to_contain_text(host_name)
    box.locator("button.accept").click()
    guest.wait_for_url(f"**/#/table/{table_id}")
    expect(guest.locator("main")).to_contain_text(host_name)
    expect(guest.locator("#invitations")).to_have_count(0)
    host.goto(server.url + f"/#/table/{table_id}")
    expect(host.locator("main")).to_contain_text(guest_name)


@pytest.mark.parametrize("locale,lang", [("en-US", "en"), ("ja-JP", "ja"), ("vi-VN", "vi")])
def test_the_badge_counts_a_table_waiting_for_me(server, new_page, locale, lang) -> None:
    text = strings(lang)["arena"]
    page = new_page(server.url, locale=locale, viewport=PHONE)
    sign_up(page)
    expect(page.locator("#my-badge")).to_be_hidden()
    create_table(page)
    start(page)  # the first decision is mine
    expect(page.locator("#my-badge")).to_have_text("1")
    page.locator("#my-link").click()
    waiting = page.locator("#my-waiting")
    expect(waiting.locator("h2")).to_have_text(text["waiting_for_me"])
    expect(waiting.locator("li.my-table")).to_have_count(1)
    assert page.evaluate(SMALL_CONTROLS) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    # Keyboard: the table's link is reachable and opens it.
    link = waiting.locator("a.button")
    link.focus()
    page.keyboard.press("Enter")
    page.wait_for_url("**/#/table/*")
