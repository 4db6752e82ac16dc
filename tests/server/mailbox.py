"""A real SMTP server for the tests (aiosmtpd), on a free loopback port: every message
it receives is kept, parsed, for the test to read; and an account confirmed through it."""

from __future__ import annotations

import email
import email.policy
import re
import threading
import time
from collections.abc import Iterator
from email.message import EmailMessage
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from fastapi.testclient import TestClient

from ludoteca.testing.launch import free_port
from tests.server.conftest import Api


class Mailbox:
    def __init__(self) -> None:
        self.messages: list[EmailMessage] = []
        self.recipients: list[list[str]] = []
        self._lock = threading.Condition()
        self.port = 0

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:  # aiosmtpd's name
        message = email.message_from_bytes(envelope.content, policy=email.policy.default)
        with self._lock:
            self.messages.append(message)  # type: ignore[arg-type]
            self.recipients.append(list(envelope.rcpt_tos))
            self._lock.notify_all()
        return "250 OK"

    @property
    def url(self) -> str:
        return f"smtp://127.0.0.1:{self.port}"

    def wait(self, count: int, seconds: float = 10.0) -> list[EmailMessage]:
        """The messages once at least ``count`` arrived (AssertionError after ``seconds``)."""
        deadline = time.monotonic() + seconds
        with self._lock:
            while len(self.messages) < count:
                left = deadline - time.monotonic()
                assert left > 0, f"{len(self.messages)} messages arrived, not {count}"
                self._lock.wait(left)
            return list(self.messages)

    def quiet(self, count: int, seconds: float = 1.0) -> None:
        """No more than ``count`` messages arrive within ``seconds``."""
        time.sleep(seconds)
        assert len(self.messages) == count, [m["Subject"] for m in self.messages]


def body(message: EmailMessage) -> str:
    part = message.get_body(("plain",))
    assert part is not None
    return str(part.get_content())  # type: ignore[attr-defined]


def link(message: EmailMessage, marker: str) -> str:
    """The token of the message's link with ``marker`` (e.g. "#/reset/")."""
    found = re.search(re.escape(marker) + r"([A-Za-z0-9_-]+)", body(message))
    assert found, body(message)
    return found.group(1)


@pytest.fixture
def mailbox() -> Iterator[Mailbox]:
    box = Mailbox()
    box.port = free_port()
    controller = Controller(box, hostname="127.0.0.1", port=box.port)
    controller.start()
    try:
        yield box
    finally:
        controller.stop()


def confirmed(http: TestClient, mailbox: Mailbox, address: str) -> Api:
    """A new account whose ``address`` is confirmed through the link mailed to it."""
    user = Api(http)
    count = len(mailbox.messages)
    r = user.http.put("/api/account/email", json={"email": address}, headers=user.headers)
    assert r.status_code == 200, r.text
    assert r.json()["email"] == address.lower() or r.json()["email"].endswith(address.split("@")[1].lower())
    message = mailbox.wait(count + 1)[-1]
    assert message["To"] == address.split("@")[0] + "@" + address.split("@")[1].lower()
    token = link(message, "#/account/verify/")
    assert http.post("/api/account/email/verify", json={"token": token}).status_code == 200
    assert user.get("/api/account").json()["email_verified"] is True
    return user
