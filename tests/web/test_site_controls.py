"""The site's own controls, in Chromium against a real server:

- the create-table form says that bots are not rated, as soon as "Rated" is ticked with a
  bot seated (never silently), in en/ja/vi;
- on a phone (390 x 844) the header's links, the language selector, the lobby's "Rules"
  and "Create a table" and the form's checkboxes (their labels) are 44 px tall at least;
- the leaderboard's phone rule keeps its Rating column."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
FINGER = 44


@pytest.mark.parametrize(("locale", "words"), [("en-US", "not rated"), ("ja-JP", "レーティングの対象外"),
                                               ("vi-VN", "không được tính xếp hạng")])
def test_the_form_says_bots_are_not_rated(server, new_page, locale: str, words: str) -> None:  # type: ignore[no-untyped-def]
    page = new_page(server.url, locale=locale)
    page.locator("[data-game=iwari] button.primary").click()
    form = page.locator("#create-form")
    hint = form.locator("#create-rated-hint")
    expect(hint).to_be_hidden()
    form.locator("input[name=rated]").check()
    expect(hint).to_be_visible()
    expect(hint).to_contain_text(words)
    assert form.locator("input[name=rated]").get_attribute("aria-describedby") == "create-rated-hint"
    # No bot, no hint: the people are rated against each other.
    for box in form.locator("input[name=bot]").all():
        box.uncheck()
    expect(hint).to_be_hidden()


def heights(page, selector: str) -> list[tuple[str, float]]:  # type: ignore[no-untyped-def]
    return page.locator(selector).evaluate_all(
        "(els) => els.filter((e) => e.getClientRects().length)"
        ".map((e) => [e.outerHTML.slice(0, 60), e.getBoundingClientRect().height])")


def test_the_site_controls_are_a_finger_tall_on_a_phone(server, new_page) -> None:  # type: ignore[no-untyped-def]
    page = new_page(server.url, viewport=PHONE)
    expect(page.locator("[data-game]").first).to_be_visible()
    small = [x for sel in (".top nav a", ".top .account a", ".top .account button", "#language",
                           "[data-game] button.primary", "[data-game] a[href^='#/help/']")
             for x in heights(page, sel) if x[1] < FINGER]
    page.locator("[data-game=iwari] button.primary").click()
    expect(page.locator("#create-form")).to_be_visible()
    boxes = "#create-form label:has(> input[type=checkbox]), #create-form label:has(> input[type=radio])"
    small += [x for x in heights(page, boxes) if x[1] < FINGER]
    assert not small, small


def test_the_leaderboard_keeps_its_rating_column_on_a_phone(server, new_page) -> None:  # type: ignore[no-untyped-def]
    page = new_page(server.url, viewport=PHONE)
    expect(page.locator("[data-game]").first).to_be_visible()
    # Give the leaderboard a row: the rules are the table's, whatever the data.
    page.goto(f"{server.url}/#/leaderboard/iwari")
    expect(page.locator("#leaderboard-game")).to_be_visible()
    page.evaluate("""() => {
      const table = document.createElement('table'); table.className = 'tables keep-columns'; table.id = 'probe-board';
      table.innerHTML = '<thead><tr><th>#</th><th>P</th><th>Rating</th><th>G</th></tr></thead>'
        + '<tbody><tr><td>1</td><td>a</td><td>1500</td><td>3</td></tr></tbody>';
      document.querySelector('main section').append(table);
    }""")
    if page.locator("main table:not(#probe-board)").count():
        expect(page.locator("main table:not(#probe-board) th").nth(2)).to_be_visible()
    expect(page.locator("#probe-board th").nth(2)).to_be_visible()
    expect(page.locator("#probe-board td").nth(2)).to_be_visible()
