"""The alerts away from the tables and the account services, built once per process
and wired to the server: the mailer, Web Push, the email channel with its batches, the
"your turn" watch on the tables, and the account service behind /account."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from ludoteca.server.accounts.service import AccountService
from ludoteca.server.alerts.email import EmailAlerts
from ludoteca.server.alerts.mailer import Mailer
from ludoteca.server.alerts.push import Push
from ludoteca.server.alerts.your_turn import TurnWatch

log = logging.getLogger("ludoteca.server.alerts.core")


class AlertServices:
    def __init__(self, server: Any) -> None:
        settings = server.settings
        present = lambda table_id: server.live.present(table_id)  # noqa: E731 - live is made later in tests
        self.mailer = Mailer(settings.smtp_url, settings.mail_from)
        self.push = Push(server)
        self.email = EmailAlerts(server, self.mailer, present)
        self.turns = TurnWatch(server, server.alerts, present)
        self.accounts = AccountService(server, self.mailer, self.push)
        server.tables.notices.watch = self.turns
        server.alerts.add_channel("push", self.push.channel)
        server.alerts.add_channel("email", self.email.channel)

    async def run(self) -> None:
        """The "your turn" email batches, every ``LUDOTECA_ALERT_SCAN_SECONDS``."""
        while True:
            await asyncio.sleep(self.email.settings.alert_scan_seconds)
            try:
                await asyncio.to_thread(self.email.scan)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("the turn email scan failed")

    def stop(self) -> None:
        for part in (self.turns, self.email, self.push, self.mailer):
            part.stop()
