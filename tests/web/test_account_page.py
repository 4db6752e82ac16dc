"""The account page in Chromium against a real server with a real SMTP server (aiosmtpd)
started by the test: an address is confirmed from its emailed link; a password-reset
email reaches the SMTP server and its link works once in the browser; the alert
preferences and sessions on the account page; the page in Japanese on a phone
(390 x 844, every control 44 px), by keyboard. The service worker registers at the
site's root. Headless Chromium has no push service (``pushManager.subscribe`` fails with
"permission denied"), so a push subscription itself is tested through the API in
tests/server/alerts/test_web_push.py, which decrypts a real push end to end."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from ludoteca.testing.launch import ONE_ADDRESS_LOAD, ServerProcess, free_port
from tests.server.mailbox import Mailbox, link, mailbox  # noqa: F401 - the fixture
from tests.web.conftest import ROOT, screenshot

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
PASSWORD = "correct horse"
SMALL_CONTROLS = """() => [...document.querySelectorAll(
    '.account-page button, .account-page .button, .account-page select, .account-page input,'
    + ' .account-page label.check')]
  .filter((el) => { const r = el.getBoundingClientRect(); return r.width > 0 && !el.closest('[hidden]'); })
  .filter((el) => el.type !== 'checkbox' && el.getBoundingClientRect().height < 44)
  .map((el) => `${el.tagName}#${el.id} ${Math.round(el.getBoundingClientRect().height)}`)"""
SIDEWAYS = "() => document.documentElement.scrollWidth - window.innerWidth"


@pytest.fixture
def mail_server(tmp_path: Path, mailbox: Mailbox) -> Iterator[ServerProcess]:  # noqa: F811
    port = free_port()
    env = {**os.environ, "LUDOTECA_DATABASE_URL": f"sqlite:///{tmp_path / 'web.db'}", "PYTHONUNBUFFERED": "1",
           "LUDOTECA_PASSWORD_TIME_COST": "1", "LUDOTECA_PASSWORD_MEMORY_KIB": "1024", **ONE_ADDRESS_LOAD,
           "LUDOTECA_SMTP_URL": mailbox.url, "LUDOTECA_PUBLIC_URL": f"http://127.0.0.1:{port}",
           "LUDOTECA_MAIL_FROM": "Ludoteca <games@ludoteca.test>"}
    env.pop("LUDOTECA_REDIS_URL", None)
    proc = ServerProcess([sys.executable, "-m", "tests.serve", str(port), "sealedbids:SealedBids"], port=port,
                         env=env, cwd=ROOT, log=tmp_path / "server.log", seconds=60)  # a loaded machine
    proc.start()
    yield proc
    proc.stop(5)


def sign_up(page: Page, name: str) -> None:
    page.goto(page.url.split("#")[0] + "#/login")
    page.locator("#signup-username").fill(name)
    page.locator("#signup-password").fill(PASSWORD)
    page.locator("#signup-form button[type=submit]").click()
    expect(page.locator("#logout")).to_be_visible()


def test_confirm_then_reset_by_email_once(mail_server: ServerProcess, mailbox: Mailbox,  # noqa: F811
                                          new_page) -> None:  # type: ignore[no-untyped-def]
    page = new_page(mail_server.url + "/#/login")
    sign_up(page, "emma")
    page.locator("#account-link").click()
    expect(page.locator("#account-page h1")).to_have_text("Your account")
    page.locator("#email").fill("emma@example.org")
    page.locator("#email").press("Enter")  # by keyboard
    expect(page.locator("#account-message")).to_contain_text("emma@example.org")
    expect(page.locator("#email-state")).to_have_text("Not confirmed yet: open the link we emailed you.")
    confirm = mailbox.wait(1)[0]
    assert confirm["To"] == "emma@example.org" and confirm["From"] == "Ludoteca <games@ludoteca.test>"
    page.goto(f"{mail_server.url}/#/account/verify/{link(confirm, '#/account/verify/')}")
    expect(page.locator("#account-message")).to_have_text("Your email address is confirmed.")
    expect(page.locator("#email-state")).to_have_text("Confirmed.")
    # Preferences: a box unticked is kept.
    page.locator("#pref-your_turn-email").uncheck()
    expect(page.locator("#account-message")).to_have_text("Saved.")
    page.reload()
    expect(page.locator("#pref-your_turn-email")).not_to_be_checked()
    expect(page.locator("#pref-your_turn-push")).to_be_checked()
    expect(page.locator("#session-list li")).to_have_count(1)

    # Signed out, from the login page: the reset.
    page.locator("#logout").click()
    expect(page.locator("#login-link")).to_be_visible()
    page.goto(mail_server.url + "/#/login")
    page.locator("#forgot-link").click()
    page.locator("#reset-email").fill("emma@example.org")
    page.locator("#reset-request button[type=submit]").click()
    expect(page.locator("#reset-message")).to_contain_text("If an account has confirmed this address")
    reset = mailbox.wait(2)[1]
    assert reset["Subject"] == "Reset your password"
    url = f"{mail_server.url}/#/reset/{link(reset, '#/reset/')}"
    page.goto(url)
    page.locator("#reset-password").fill("a brand new secret")
    page.locator("#reset-password").press("Enter")
    expect(page.locator("#reset-message")).to_contain_text("Your password is set.")
    page.locator("#reset-login").click()
    page.locator("#login-username").fill("emma")
    page.locator("#login-password").fill("a brand new secret")
    page.locator("#login-form button[type=submit]").click()
    expect(page.locator("#logout")).to_be_visible()
    # The link works once.
    page.goto(mail_server.url + "/#/")
    page.goto(url)
    page.locator("#reset-password").fill("another new secret")
    page.locator("#reset-form button[type=submit]").click()
    expect(page.locator("#reset-message")).to_have_text("This link was used already. Ask for a new one.")
    # An unknown address reads the same as a known one.
    page.goto(mail_server.url + "/#/reset")
    page.locator("#reset-email").fill("nobody@example.org")
    page.locator("#reset-request button[type=submit]").click()
    expect(page.locator("#reset-message")).to_contain_text("If an account has confirmed this address")
    mailbox.quiet(2, 0.5)


def test_the_account_page_in_japanese_on_a_phone(mail_server: ServerProcess, new_page) -> None:  # type: ignore[no-untyped-def]
    page = new_page(mail_server.url + "/#/login", locale="ja-JP", viewport=PHONE)
    sign_up(page, "hana")
    page.goto(mail_server.url + "/#/account")
    expect(page.locator("#account-page h1")).to_have_text("あなたのアカウント")
    expect(page.locator("#sessions-title")).to_have_text("ログイン中の端末")
    expect(page.locator("#pref-your_turn-push")).to_be_visible()
    assert page.evaluate(SMALL_CONTROLS) == []
    assert page.evaluate(SIDEWAYS) <= 0
    screenshot(page, "account-phone-ja")
    # The page set the account's language: the emails will be in Japanese.
    answer = page.evaluate("fetch('/api/account').then((r) => r.json())")
    assert answer["language"] == "ja"
    # Wrong current password: a clear refusal, nothing changed.
    page.locator("#current-password").fill("not the password")
    page.locator("#new-password").fill("a brand new secret")
    page.locator("#password-form button[type=submit]").click()
    expect(page.locator("#account-message")).to_have_text("パスワードが違います。")
    # The service worker is served from the root, for the whole site.
    scope = page.evaluate("navigator.serviceWorker.register('/sw.js', {scope: '/'}).then((r) => r.scope)")
    assert scope == mail_server.url + "/"
    # Log out everywhere.
    page.locator("#end-all").click()
    expect(page.locator("#login-link")).to_be_visible()
    assert page.evaluate("fetch('/api/account').then((r) => r.status)") == 401
