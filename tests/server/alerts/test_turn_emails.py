""""Your turn" emails, against a real SMTP server (aiosmtpd): only for turn-based
tables, after the player's delay, batched (one email per player per period listing every
table still waiting), in the player's language, with a one-click unsubscribe
(List-Unsubscribe, List-Unsubscribe-Post) that works."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select, update

from ludoteca.server.app import create_app
from ludoteca.server.kernel.clock import now
from ludoteca.server.kernel.models import AccountContact, PendingTurnEmail
from tests.server.conftest import Api, make_settings, new_table
from tests.server.mailbox import Mailbox, body, confirmed, mailbox  # noqa: F401 - the fixture

TURN_BASED: dict[str, Any] = {"mode": "turn-based", "clock": {"turn_seconds": 3600}}


@pytest.fixture(params=["sqlite", "postgresql"])
def http(request: pytest.FixtureRequest, tmp_path: Path, mailbox: Mailbox) -> Iterator[TestClient]:  # noqa: F811
    # The scan is run by the test itself (its own loop waits 1000 s).
    url = f"sqlite:///{tmp_path / 'db.sqlite'}" if request.param == "sqlite" else request.getfixturevalue("pg_url")
    settings = make_settings(url, smtp_url=mailbox.url,
                             public_url="http://ludoteca.test", alert_scan_seconds=1000.0,
                             turn_email_batch_seconds=3600.0)
    with TestClient(create_app(settings)) as client:
        yield client


def settle(server: Any) -> None:
    """What the move path handed to the alert threads is done."""
    server.turn_alerts.worker.join()  # a change read from the database...
    server.turn_alerts.worker.join()  # ...queues its alerts behind the first join
    server.email_alerts.worker.join()


def pending(server: Any, user: Api) -> set[str]:
    with server.runtime.sessions() as db:
        return set(db.scalars(select(PendingTurnEmail.table_id).join(AccountContact, AccountContact.user_id ==
                                                                     PendingTurnEmail.user_id)
                              .where(AccountContact.email.is_not(None))))


def make_due(server: Any, period_over: bool = False) -> None:
    with server.runtime.transaction() as db:
        db.execute(update(PendingTurnEmail).values(due_at=now() - timedelta(seconds=1)))
        if period_over:
            db.execute(update(AccountContact).values(last_turn_email_at=now() - timedelta(hours=2)))


def pass_move(user: Api, table_id: str) -> None:
    snap = user.table(table_id)
    move = next((m for m in snap["legal"] if m.get("type") == "pass"), snap["legal"][0])
    assert user.move(table_id, snap["version"], move).status_code == 200


def test_turn_emails_are_delayed_batched_translated_and_unsubscribable(http: TestClient,
                                                                       mailbox: Mailbox) -> None:  # noqa: F811
    server = http.app.state.server  # type: ignore[attr-defined]
    a = confirmed(http, mailbox, "ana@example.org")
    assert a.http.put("/api/account/language", json={"language": "vi"}, headers=a.headers).status_code == 200
    b = Api(http)
    first, second = new_table(a, [b], **TURN_BASED), new_table(a, [b], **TURN_BASED)
    new_table(a, [b])  # realtime: never an email
    settle(server)
    assert pending(server, a) == {first, second}
    assert server.email_alerts.scan() == 0  # not due yet (the delay a chose: 60 min by default)
    make_due(server)
    assert server.email_alerts.scan() == 1
    message = mailbox.wait(2)[-1]
    assert message["To"] == "ana@example.org"
    assert message["Subject"] == "Đến lượt bạn ở 2 bàn"
    text = body(message)
    assert f"http://ludoteca.test/#/table/{first}" in text and f"http://ludoteca.test/#/table/{second}" in text
    assert pending(server, a) == set()
    # Within the period: nothing more, whatever comes due.
    third = new_table(a, [b], **TURN_BASED)
    fourth = new_table(a, [b], **TURN_BASED)
    settle(server)
    make_due(server)
    assert server.email_alerts.scan() == 0
    # a moves at the fourth before the next batch: it is left out.
    pass_move(a, fourth)
    make_due(server, period_over=True)
    assert server.email_alerts.scan() == 1
    message = mailbox.wait(3)[-1]
    assert message["Subject"] == "Đến lượt bạn ở 1 bàn"
    assert third in body(message) and fourth not in body(message)
    # The one-click unsubscribe (RFC 8058).
    assert message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    url = str(message["List-Unsubscribe"]).strip("<>")
    assert url.startswith("http://ludoteca.test/api/alerts/unsubscribe?token=")
    local = urlsplit(url)
    target = f"{local.path}?{local.query}"
    page = http.get(target)
    assert page.status_code == 200 and "<form method=post>" in page.text
    assert a.get("/api/alerts/preferences").json()["preferences"]["your_turn"]["email"] is True  # GET changes nothing
    r = http.post(target, content=b"List-Unsubscribe=One-Click",
                  headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert r.status_code == 200 and r.json() == {"ok": True, "kind": "your_turn"}
    assert a.get("/api/alerts/preferences").json()["preferences"]["your_turn"]["email"] is False
    new_table(a, [b], **TURN_BASED)
    settle(server)
    assert pending(server, a) == set()
    forged = http.post(target[:-3] + "abc", content=b"List-Unsubscribe=One-Click")
    assert forged.status_code == 404 and forged.json()["code"] == "bad_link"


def test_the_delay_is_the_players_choice(http: TestClient, mailbox: Mailbox) -> None:  # noqa: F811
    server = http.app.state.server  # type: ignore[attr-defined]
    a = confirmed(http, mailbox, "bo@example.org")
    r = a.http.put("/api/alerts/preferences", json={"turn_email_minutes": 5}, headers=a.headers)
    assert r.status_code == 200 and r.json()["turn_email_minutes"] == 5
    bad = a.http.put("/api/alerts/preferences", json={"turn_email_minutes": 7,
                                                       "set": [{"kind": "your_turn", "channel": "email",
                                                                "enabled": False}]}, headers=a.headers)
    assert bad.status_code == 422 and bad.json()["code"] == "bad_delay"
    prefs = a.get("/api/alerts/preferences").json()
    assert prefs["turn_email_minutes"] == 5 and prefs["preferences"]["your_turn"]["email"] is True
    table_id = new_table(a, [Api(http)], **TURN_BASED)
    settle(server)
    with server.runtime.sessions() as db:
        due = db.scalar(select(PendingTurnEmail.due_at).where(PendingTurnEmail.table_id == table_id))
        assert due is not None and timedelta(minutes=4) < due - now() <= timedelta(minutes=5)


def test_no_email_without_a_confirmed_address(http: TestClient, mailbox: Mailbox) -> None:  # noqa: F811
    server = http.app.state.server  # type: ignore[attr-defined]
    a, b = Api(http), Api(http)
    http.put("/api/account/email", json={"email": "unconfirmed@example.org"}, headers=a.headers)
    mailbox.wait(1)
    new_table(a, [b], **TURN_BASED)
    settle(server)
    with server.runtime.sessions() as db:
        assert db.scalar(select(func.count()).select_from(PendingTurnEmail)) == 0


def test_racing_scans_send_one_email(http: TestClient, mailbox: Mailbox) -> None:  # noqa: F811
    """Every process scans; the claim on the player's row lets one of them send."""
    server = http.app.state.server  # type: ignore[attr-defined]
    a = confirmed(http, mailbox, "race@example.org")
    b = Api(http)
    new_table(a, [b], **TURN_BASED)
    settle(server)
    make_due(server)
    start = threading.Barrier(4)

    def scan() -> int:
        start.wait()
        return int(server.email_alerts.scan())

    with ThreadPoolExecutor(4) as pool:
        sent = list(pool.map(lambda _: scan(), range(4)))
    assert sum(sent) == 1, sent
    mailbox.wait(2)
    mailbox.quiet(2, 0.5)


def test_an_invitation_is_emailed_at_once(http: TestClient, mailbox: Mailbox) -> None:  # noqa: F811
    """Kinds other than "your turn" are not batched (the arena's invitations call this)."""
    from ludoteca.server.alerts.core import Alert

    server = http.app.state.server  # type: ignore[attr-defined]
    a = confirmed(http, mailbox, "invited@example.org")
    a.http.put("/api/account/language", json={"language": "ja"}, headers=a.headers)
    user_id = a.get("/api/sessions").json()["user"]["id"]
    server.alerts.notify(Alert(user_id, "invitation", "t1", {"inviter": "bob", "game": "drawbid"}))
    message = mailbox.wait(2)[-1]
    assert message["Subject"] == "招待"
    assert "bob さんが Draw and Bid (test game) のテーブルにあなたを招待しました。" in body(message)
    assert "/api/alerts/unsubscribe?token=" in str(message["List-Unsubscribe"])
    # "Table found" is off by email unless asked for.
    server.alerts.notify(Alert(user_id, "matched", "t1", {"game": "drawbid"}))
    server.email_alerts.worker.join()
    mailbox.quiet(2, 0.3)
