"""The moderators' page in Chromium against a real server, at phone size (390 x 844) and
in Japanese: only the language's own words, every control a finger wide, no sideways
scroll; a reported chat line removed and its report resolved, a ban applied with an end
(the banned player then refused at sign-in); a player is refused the page; a player
blocks and reports another from the profile."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, expect
from typer.testing import CliRunner

from ludoteca.cli import app
from tests.server.conftest import Api
from tests.web.conftest import screenshot
from tests.web.test_translated_pages import check

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
PASSWORD = "correct horse"

SMALL_CONTROLS = """() => [...document.querySelectorAll(
    '.moderation-page button, .moderation-page select, .moderation-page input, .player-actions button')]
  .filter((el) => { const r = el.getBoundingClientRect(); return r.width > 0 && !el.closest('[hidden]'); })
  .filter((el) => { const r = el.getBoundingClientRect(); return r.height < 44 || r.width < 44; })
  .map((el) => `${el.tagName}#${el.id}.${el.className} ${Math.round(el.getBoundingClientRect().width)}x`
               + `${Math.round(el.getBoundingClientRect().height)}`)"""
SIDEWAYS = "() => document.documentElement.scrollWidth - window.innerWidth"


def log_in(page: Page, name: str) -> None:
    page.locator("#login-username").fill(name)
    page.locator("#login-password").fill(PASSWORD)
    page.locator("#login-form button[type=submit]").click()
    expect(page.locator("#logout")).to_be_visible()


def fit_for_a_phone(page: Page) -> None:
    assert page.evaluate(SMALL_CONTROLS) == []
    assert page.evaluate(SIDEWAYS) <= 0


@pytest.fixture
def arena(own_server: Any, tmp_path: Any):
    """The server, a moderator (named from the admin command), an offender who chats and
    a reporter who reports them."""
    http = httpx.Client(base_url=own_server.url, timeout=15)
    mod, offender, reporter = (Api(http, password=PASSWORD) for _ in range(3))
    made = CliRunner().invoke(app, ["admin", "role", mod.name, "moderator", "--db", f"sqlite:///{tmp_path / 'web.db'}"])
    assert made.exit_code == 0, made.output
    table_id = offender.post("/api/tables", {"game": "sealedbids", "seats": 2}).json()["id"]
    assert reporter.post(f"/api/tables/{table_id}/join").status_code == 200
    line = offender.post(f"/api/tables/{table_id}/chat", {"text": "some rude words"}).json()
    assert reporter.post("/api/reports", {"kind": "chat", "chat": line["id"], "reason": "rude"}).status_code == 201
    assert reporter.post("/api/reports", {"kind": "player", "username": offender.name,
                                          "reason": "keeps insulting"}).status_code == 201
    yield own_server, http, mod, offender, reporter, table_id
    http.close()


def test_a_moderator_handles_a_report_and_bans_in_japanese_on_a_phone(arena, new_page) -> None:
    server, http, mod, offender, reporter, table_id = arena
    page = new_page(f"{server.url}/#/login", locale="ja-JP", viewport=PHONE)
    log_in(page, mod.name)
    page.locator("#moderation-link").click()
    expect(page.locator("#report-list li.report")).to_have_count(2)
    foreign: dict[str, str] = {}
    check(page, "ja", "moderation", foreign)
    fit_for_a_phone(page)

    # The chat line's report: the line removed, the report resolved.
    chat_report = page.locator("#report-list li.report[data-kind=chat]")
    chat_report.locator("button.remove-line").click()
    expect(page.locator("#mod-message")).to_have_text("完了しました。")
    assert reporter.get(f"/api/tables/{table_id}/chat").json() == []
    page.locator("#report-list li.report[data-kind=chat] button.resolve").click()
    expect(page.locator("#report-list li.report")).to_have_count(1)
    page.locator("#mod-status").select_option("resolved")
    expect(page.locator("#report-list li.report[data-kind=chat]")).to_have_count(1)
    page.locator("#mod-status").select_option("open")

    # The player's report: looked up, banned for a day with a reason.
    page.locator("#report-list li.report[data-kind=player] button.look-up").click()
    expect(page.locator(f"#user-card [data-user='{offender.name}']")).to_be_visible()
    expect(page.locator("#user-chat li")).to_have_count(1)
    check(page, "ja", "moderation user", foreign)
    fit_for_a_phone(page)
    page.locator("#sanction-minutes").select_option("1440")
    page.locator("#sanction-reason").fill("侮辱を繰り返した")
    page.locator("#ban").click()
    expect(page.locator("#unban")).to_be_visible()
    expect(page.locator("#user-banned")).to_contain_text("利用停止")
    expect(page.locator("#audit-rows tr").first).to_contain_text("利用停止")
    check(page, "ja", "moderation after the ban", foreign)
    screenshot(page, "moderation-ja-phone")
    assert not foreign, foreign

    refused = http.post("/api/sessions", json={"username": offender.name, "password": PASSWORD})
    assert refused.status_code == 403 and refused.json()["code"] == "banned"
    assert offender.get("/api/sessions").status_code == 401
    actions = [e["action"] for e in mod.get("/api/moderation/audit").json()]
    assert actions[:3] == ["ban", "resolve_report", "remove_chat"]


def test_a_player_is_refused_the_page_and_blocks_and_reports_from_a_profile(arena, new_page) -> None:
    server, _http, mod, offender, reporter, _table_id = arena
    page = new_page(f"{server.url}/#/login", locale="vi-VN", viewport=PHONE)
    log_in(page, reporter.name)
    expect(page.locator("#moderation-link")).to_have_count(0)
    page.goto(f"{server.url}/#/moderation")
    expect(page.locator("#mod-refused")).to_have_text("Trang này dành cho người kiểm duyệt.")

    page.goto(f"{server.url}/#/player/{offender.name}")
    page.locator("#block").click()
    expect(page.locator("#block")).to_have_text("Bỏ chặn")
    expect(page.locator("#blocked-note")).to_be_visible()
    assert reporter.get("/api/blocks").json()["blocked"] == [offender.name]
    page.locator("#report").click()
    page.locator("#report-reason").fill("spam")
    page.locator("#report-form button[type=submit]").click()
    expect(page.locator(".player-actions .message")).to_have_text("Cảm ơn bạn: người kiểm duyệt sẽ xem xét.")
    foreign: dict[str, str] = {}
    check(page, "vi", "profile with block and report", foreign)
    fit_for_a_phone(page)
    assert not foreign, foreign
    assert len(mod.get("/api/moderation/reports").json()) == 3


def test_a_player_reports_a_chat_line_and_the_table_from_the_table_on_a_phone(arena, new_page) -> None:
    server, _http, mod, offender, reporter, table_id = arena
    page = new_page(f"{server.url}/#/login", locale="ja-JP", viewport=PHONE)
    log_in(page, reporter.name)
    page.goto(f"{server.url}/#/table/{table_id}")
    expect(page.locator("#chat-lines li")).to_have_count(1)
    page.locator("#chat-report").click()
    # The table first, then the others' lines (the reporter's own would not be listed).
    expect(page.locator("#report-what option")).to_have_count(2)
    expect(page.locator("#report-what option").nth(0)).to_have_text("このテーブル")
    expect(page.locator("#report-what option").nth(1)).to_contain_text(f"{offender.name}: some rude words")
    page.locator("#report-what").select_option(index=1)
    page.locator("#report-why").fill("ひどい言葉")
    page.locator("#report-send").click()
    expect(page.locator(".chat-report .message")).to_have_text("ありがとうございます。モデレーターが確認します。")
    foreign: dict[str, str] = {}
    check(page, "ja", "table with the report form", foreign)
    assert not foreign, foreign

    page.locator("#chat-report").click()
    page.locator("#report-what").select_option("table")
    page.locator("#report-why").fill("荒らし")
    page.locator("#report-send").click()
    expect(page.locator(".chat-report .message")).to_be_visible()
    small = page.evaluate("""() => [...document.querySelectorAll(
        '.chat-report button, .chat-report select, .chat-report input')]
      .filter((el) => el.getBoundingClientRect().width > 0 && el.getBoundingClientRect().height < 44)
      .map((el) => el.id)""")
    assert small == []

    reports = mod.get("/api/moderation/reports").json()
    mine = [(r["kind"], r["reason"]) for r in reports if r["reporter"] == reporter.name]
    assert ("chat", "ひどい言葉") in mine and ("table", "荒らし") in mine

    # A moderator removes the reported line: it leaves the open table's chat at once.
    chat_id = next(r["chat"] for r in reports if r["kind"] == "chat")
    assert mod.post(f"/api/moderation/chat/{chat_id}/remove").status_code == 200
    expect(page.locator("#chat-lines li")).to_have_count(0)
