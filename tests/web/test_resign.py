"""The table page's resign button, with its confirmation, at phone size in English,
Japanese and Vietnamese; the replay shows the resignation."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.web.conftest import ROOT
from tests.web.test_browser import create_table, start

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}


def strings(lang: str) -> dict:
    return json.loads(Path(ROOT / "src/ludoteca/web/i18n" / f"{lang}.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("locale,lang", [("en-US", "en"), ("ja-JP", "ja"), ("vi-VN", "vi")])
def test_resign_with_confirmation_at_phone_size(server, new_page, locale, lang) -> None:
    text = strings(lang)
    page = new_page(server.url, locale=locale, viewport=PHONE)
    create_table(page)
    start(page)
    button = page.locator("#resign")
    expect(button).to_have_text(text["table"]["resign"])
    box = button.bounding_box()
    assert box is not None and box["height"] >= 44 and box["x"] + box["width"] <= PHONE["width"]
    # Cancelled: nothing changes.
    button.click()
    dialog = page.locator("#resign-dialog")
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text(text["table"]["resign_confirm_two"])
    for control in ("#resign-yes", "#resign-no"):
        size = page.locator(control).bounding_box()
        assert size is not None and size["height"] >= 44 and size["x"] + size["width"] <= PHONE["width"]
    page.locator("#resign-no").click()
    expect(dialog).to_have_count(0)
    assert page.evaluate("window.ludotecaTable.state.table.status") == "playing"
    # Confirmed: the bot wins, the scoreboard says why, the seat reads as resigned.
    page.locator("#resign").click()
    page.locator("#resign-yes").click()
    expect(page.locator("#by-resignation")).to_have_text(text["score"]["by_resignation"])
    expect(page.locator("#seats-panel .resigned")).to_have_text(text["seat"]["resigned"])
    expect(page.locator("#resign")).to_have_count(0)
    # The replay shows it.
    page.locator("#replay-link").click()
    page.locator("#replay-last").click()
    expect(page.locator("#log li.resigned")).to_have_count(1)
    assert "{name}" not in page.locator("#log li.resigned").inner_text()
