"""An optional email address, confirmed by an emailed single-use link; a password reset
by an emailed single-use link that expires, is rate-limited, and answers the same
whether the address exists or not. Against a real SMTP server (aiosmtpd) started by the
test."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import update

from ludoteca.server.app import create_app
from ludoteca.server.kernel.clock import now
from ludoteca.server.kernel.models import AccountToken
from tests.server.conftest import Api, make_settings
from tests.server.mailbox import Mailbox, body, confirmed, link, mailbox  # noqa: F401 - the fixture

PASSWORD = "correct horse"


@pytest.fixture(params=["sqlite", "postgresql"])
def http(request: pytest.FixtureRequest, tmp_path: Path, mailbox: Mailbox) -> Iterator[TestClient]:  # noqa: F811
    url = f"sqlite:///{tmp_path / 'db.sqlite'}" if request.param == "sqlite" else request.getfixturevalue("pg_url")
    settings = make_settings(url, smtp_url=mailbox.url,
                             public_url="http://ludoteca.test", account_emails_per_hour=5)
    with TestClient(create_app(settings)) as client:
        yield client


def test_an_address_is_confirmed_by_its_link_once(http: TestClient, mailbox: Mailbox) -> None:  # noqa: F811
    user = Api(http)
    assert user.get("/api/account").json()["email"] is None
    http.put("/api/account/language", json={"language": "ja"}, headers=user.headers)
    r = http.put("/api/account/email", json={"email": "Ana@Example.ORG"}, headers=user.headers)
    assert r.status_code == 200 and r.json() == {**r.json(), "email": "Ana@example.org", "email_verified": False}
    message = mailbox.wait(1)[0]
    assert message["Subject"] == "メールアドレスの確認"  # the account's language
    assert "http://ludoteca.test/#/account/verify/" in body(message)
    token = link(message, "#/account/verify/")
    assert http.post("/api/account/email/verify", json={"token": token}).json() == {"ok": True}
    assert user.get("/api/account").json()["email_verified"] is True
    again = http.post("/api/account/email/verify", json={"token": token})
    assert again.status_code == 409 and again.json()["code"] == "link_used"
    wrong = http.post("/api/account/email/verify", json={"token": "x" * 43})
    assert wrong.status_code == 404 and wrong.json()["code"] == "bad_link"


def test_bad_addresses_are_refused_and_change_nothing(http: TestClient, mailbox: Mailbox) -> None:  # noqa: F811
    user = Api(http)
    for bad in ("nobody", "a@b", "a b@example.org", "a@@example.org", "<a>@example.org", "a@example..org",
                "a@example.org\r\nBcc: x@example.org", "x" * 250 + "@example.org"):
        r = http.put("/api/account/email", json={"email": bad}, headers=user.headers)
        assert r.status_code == 422, (bad, r.text)
    assert user.get("/api/account").json()["email"] is None
    mailbox.quiet(0, 0.3)
    guest = http.post("/api/sessions/guest").json()
    r = http.put("/api/account/email", json={"email": "g@example.org"},
                 headers={"Authorization": f"Bearer {guest['token']}"})
    assert r.status_code == 403 and r.json()["code"] == "guest"


def test_a_reset_link_works_once_and_ends_the_sessions(http: TestClient, mailbox: Mailbox) -> None:  # noqa: F811
    user = confirmed(http, mailbox, "reset-me@example.org")
    http.cookies.clear()
    r = http.post("/api/account/reset", json={"email": "reset-me@example.org"})
    assert r.status_code == 200 and r.json() == {"ok": True}
    message = mailbox.wait(2)[-1]
    assert message["Subject"] == "Reset your password"
    token = link(message, "#/reset/")
    # A password the rules refuse leaves the link usable.
    weak = http.post("/api/account/reset/confirm", json={"token": token, "password": "short"})
    assert weak.status_code == 422 and weak.json()["code"] == "bad_password"
    r = http.post("/api/account/reset/confirm", json={"token": token, "password": "a brand new secret"})
    assert r.status_code == 200, r.text
    assert user.get("/api/account").status_code == 401  # every session ended
    assert http.post("/api/sessions", json={"username": user.name, "password": PASSWORD}).status_code == 401
    assert http.post("/api/sessions", json={"username": user.name, "password": "a brand new secret"}).status_code == 200
    again = http.post("/api/account/reset/confirm", json={"token": token, "password": "yet another secret"})
    assert again.status_code == 409 and again.json()["code"] == "link_used"
    assert http.post("/api/sessions", json={"username": user.name, "password": "yet another secret"}).status_code == 401


def test_an_expired_link_is_refused(http: TestClient, mailbox: Mailbox) -> None:  # noqa: F811
    user = confirmed(http, mailbox, "late@example.org")
    http.post("/api/account/reset", json={"email": "late@example.org"})
    token = link(mailbox.wait(2)[-1], "#/reset/")
    server = http.app.state.server  # type: ignore[attr-defined]
    with server.runtime.transaction() as db:
        db.execute(update(AccountToken).values(expires_at=now() - timedelta(seconds=1)))
    r = http.post("/api/account/reset/confirm", json={"token": token, "password": "a brand new secret"})
    assert r.status_code == 410 and r.json()["code"] == "link_expired"
    assert http.post("/api/sessions", json={"username": user.name, "password": PASSWORD}).status_code == 200


def test_the_answer_is_the_same_for_an_unknown_or_unconfirmed_address(http: TestClient,
                                                                      mailbox: Mailbox) -> None:  # noqa: F811
    confirmed(http, mailbox, "known@example.org")
    unconfirmed = Api(http)
    http.put("/api/account/email", json={"email": "unconfirmed@example.org"}, headers=unconfirmed.headers)
    mailbox.wait(2)
    answers = [http.post("/api/account/reset", json={"email": address})
               for address in ("known@example.org", "nobody@example.org", "unconfirmed@example.org")]
    assert {(r.status_code, r.text) for r in answers} == {(200, '{"ok":true}')}
    messages = mailbox.wait(3)
    mailbox.quiet(3, 0.5)  # only the confirmed address got one
    assert messages[-1]["To"] == "known@example.org"


def test_reset_requests_are_rate_limited(http: TestClient, mailbox: Mailbox) -> None:  # noqa: F811
    # account_emails_per_hour=5 per client address and per address written to.
    codes = [http.post("/api/account/reset", json={"email": f"n{i}@example.org"}).status_code for i in range(7)]
    assert codes == [200] * 5 + [429] * 2
    bad = http.post("/api/account/reset", json={"email": "not an address"})
    assert bad.status_code == 422


def test_no_smtp_no_email(tmp_path: Path) -> None:
    with TestClient(create_app(make_settings(f"sqlite:///{tmp_path / 'db.sqlite'}"))) as http:
        user = Api(http)
        assert user.get("/api/account").json()["email_enabled"] is False
        r = http.put("/api/account/email", json={"email": "a@example.org"}, headers=user.headers)
        assert r.status_code == 409 and r.json()["code"] == "no_email"
        assert user.get("/api/account").json()["email"] is None


@pytest.mark.filterwarnings("ignore:Requiring AUTH while not requiring TLS")
def test_the_smtp_url_takes_a_user_and_password() -> None:
    """``smtp://user:pass@host:port``: the mailer signs in before sending (here over plain
    SMTP, which the test server allows; a real one wants ``?starttls=1`` or smtps)."""
    from aiosmtpd.controller import Controller
    from aiosmtpd.smtp import AuthResult, LoginPassword

    from ludoteca.server.alerts.mailer import Mailer
    from ludoteca.server.kernel.config import Settings, SettingsError
    from ludoteca.testing.launch import free_port

    seen: list[tuple[bytes, bytes]] = []

    def check(_server: object, _session: object, _envelope: object, mechanism: str, data: object) -> AuthResult:
        assert isinstance(data, LoginPassword)
        seen.append((data.login, data.password))
        return AuthResult(success=data.login == b"games" and data.password == b"p@ss word")

    box = Mailbox()
    box.port = free_port()
    controller = Controller(box, hostname="127.0.0.1", port=box.port, authenticator=check, auth_required=True,
                            auth_require_tls=False)
    controller.start()
    try:
        mailer = Mailer(f"smtp://games:p%40ss%20word@127.0.0.1:{box.port}", "Ludoteca <a@ludoteca.test>")
        mailer.deliver(mailer.message("x@example.org", "hello", "body"))
        assert box.wait(1)[0]["Subject"] == "hello" and seen == [(b"games", b"p@ss word")]
        assert Mailer(f"smtp://127.0.0.1:{box.port}?starttls=1", "a@b.c").config.starttls  # type: ignore[union-attr]
    finally:
        controller.stop()
    with pytest.raises(SettingsError):
        Settings.from_env(env={"LUDOTECA_SMTP_URL": "http://mail.example.org"})
    assert Settings.from_env(env={}).smtp_url is None
