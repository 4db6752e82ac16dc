"""The email channel of the alerts. Every message goes to a verified address only, in
the player's language, with a one-click unsubscribe (RFC 8058: ``List-Unsubscribe`` and
``List-Unsubscribe-Post``) for the kind of alert it carries.

"Your turn" is batched: an alert for a turn-based table while the player is not at it
becomes a row of ``pending_turn_emails``, due after the delay the player chose. A scan
(every ``LUDOTECA_ALERT_SCAN_SECONDS``, in every process) sends each player with a due
row one email listing every table still waiting for them, at most one per
``LUDOTECA_TURN_EMAIL_BATCH_SECONDS``: a conditional UPDATE of the player's
``last_turn_email_at`` decides which process sends it, so two never both do. A table
the player has moved at meanwhile (or is looking at) is left out. Other kinds go out at
once."""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from datetime import timedelta

from sqlalchemy import delete, or_, select, update

from ludoteca.server.alerts import messages
from ludoteca.server.alerts.core import Alert
from ludoteca.server.alerts.mailer import Mailer, Worker
from ludoteca.server.alerts.preferences import unsubscribe_token, wants
from ludoteca.server.kernel.clock import now
from ludoteca.server.kernel.models import AccountContact, PendingTurnEmail, User
from ludoteca.server.tables.runtime import TableRuntime

log = logging.getLogger("ludoteca.server.alerts.email")

SCAN_USERS = 200
"""Players served per scan at most (the next scan takes the rest)."""


class EmailAlerts:
    def __init__(self, runtime: TableRuntime, mailer: Mailer, present: Callable[[str], Sequence[int | None]]) -> None:
        self.runtime = runtime
        self.settings = runtime.settings
        self.mailer = mailer
        self.present = present
        self.worker = Worker("email-alerts")

    def base(self) -> str:
        return self.settings.public_url.rstrip("/")

    # -- the channel ------------------------------------------------------------------------

    def channel(self, alert: Alert) -> None:
        """Alerts' channel ``email``: returns at once."""
        if not self.mailer.enabled:
            return
        if alert.kind == "your_turn" and alert.params.get("mode") != "turn-based":
            return  # realtime: the clock is too short for email
        self.worker.put(lambda: self.handle(alert))

    def handle(self, alert: Alert) -> None:
        with self.runtime.transaction() as db:
            contact = db.get(AccountContact, alert.user_id)
            if contact is None or not contact.email or not contact.email_verified:
                return
            if not wants(db, alert.user_id, alert.kind, "email"):
                return
            if alert.kind == "your_turn":
                if alert.table_id is None or db.get(PendingTurnEmail, (alert.user_id, alert.table_id)) is not None:
                    return
                due = now() + timedelta(minutes=contact.turn_email_minutes)
                db.add(PendingTurnEmail(user_id=alert.user_id, table_id=alert.table_id,
                                        game=str(alert.params.get("game", ""))[:40], due_at=due))
                return
            name = db.scalar(select(User.username).where(User.id == alert.user_id)) or ""
            email, lang = contact.email, contact.language
        self._send_one(alert, name, email, lang)

    def _footer(self, lang: str, user_id: int, kind: str) -> tuple[str, dict[str, str]]:
        link = f"{self.base()}/api/alerts/unsubscribe?token={unsubscribe_token(self.runtime.secret, user_id, kind)}"
        text = "\n\n-- \n" + messages.text(lang, "mail.unsubscribe", url=link) + "\n" + \
            messages.text(lang, "mail.settings", url=f"{self.base()}/#/account")
        return text, {"List-Unsubscribe": f"<{link}>", "List-Unsubscribe-Post": "List-Unsubscribe=One-Click"}

    def _send_one(self, alert: Alert, name: str, email: str, lang: str) -> None:
        args = {**{k: v for k, v in alert.params.items() if isinstance(v, (str, int, float))},
                "game": messages.game_name(alert.params.get("game")), "name": name}
        url = f"{self.base()}/#/table/{alert.table_id}" if alert.table_id else f"{self.base()}/#/"
        footer, headers = self._footer(lang, alert.user_id, alert.kind)
        body = messages.text(lang, f"{alert.kind}.body", **args) + "\n\n" + messages.text(lang, "mail.open", url=url)
        self.mailer.deliver(self.mailer.message(email, messages.text(lang, f"{alert.kind}.title", **args),
                                                body + footer, headers))

    # -- the batches ----------------------------------------------------------------------------

    def scan(self) -> int:
        """Send the due "your turn" batches; the number of emails sent."""
        if not self.mailer.enabled:
            return 0
        moment = now()
        with self.runtime.sessions() as db:
            users = list(db.scalars(select(PendingTurnEmail.user_id).where(PendingTurnEmail.due_at <= moment)
                                    .distinct().limit(SCAN_USERS)))
        sent = 0
        for user_id in users:
            try:
                sent += self._batch(user_id)
            except Exception:
                log.exception("the turn email of user %s failed", user_id)
        return sent

    def _waiting(self, user_id: int, table_ids: list[str]) -> tuple[list[str], list[str]]:
        """Of ``table_ids``: those still waiting on the player, and those that are not."""
        store = self.runtime.store
        waiting: list[str] = []
        done: list[str] = []
        with self.runtime.sessions() as db:
            for table_id in table_ids:
                row = store.table_or_none(db, table_id)
                if row is None or row.status != "playing":
                    done.append(table_id)
                    continue
                mine = [s for s in store.seats(db, table_id)
                        if s.user_id == user_id and not s.played_by_bot and s.seat in row.pending]
                (waiting if mine else done).append(table_id)
        return waiting, done

    def _batch(self, user_id: int) -> int:
        moment = now()
        with self.runtime.sessions() as db:
            rows = list(db.scalars(select(PendingTurnEmail).where(PendingTurnEmail.user_id == user_id)))
        waiting, done = self._waiting(user_id, [r.table_id for r in rows])
        if done:
            with self.runtime.transaction() as db:
                db.execute(delete(PendingTurnEmail).where(PendingTurnEmail.user_id == user_id,
                                                          PendingTurnEmail.table_id.in_(done)))
        here = {t for t in waiting if user_id in self.present(t)}
        listed = [r for r in rows if r.table_id in waiting and r.table_id not in here]
        if not any(r.due_at <= moment for r in listed):
            return 0
        batch = timedelta(seconds=self.settings.turn_email_batch_seconds)
        with self.runtime.transaction() as db:
            # The claim: only the process whose UPDATE matched sends this period's email.
            claimed = db.execute(update(AccountContact).where(
                AccountContact.user_id == user_id, AccountContact.email_verified.is_(True),
                or_(AccountContact.last_turn_email_at.is_(None), AccountContact.last_turn_email_at <= moment - batch))
                .values(last_turn_email_at=moment))
            if getattr(claimed, "rowcount", 0) != 1:
                return 0
            db.execute(delete(PendingTurnEmail).where(PendingTurnEmail.user_id == user_id,
                                                      PendingTurnEmail.table_id.in_([r.table_id for r in listed])))
            contact = db.get(AccountContact, user_id)
            name = db.scalar(select(User.username).where(User.id == user_id)) or ""
            assert contact is not None and contact.email is not None
            email, lang = contact.email, contact.language
            if not wants(db, user_id, "your_turn", "email"):
                return 0
        lines = [messages.text(lang, "your_turn.intro", name=name), ""]
        for r in sorted(listed, key=lambda r: r.due_at):
            lines.append(f"- {messages.game_name(r.game)}: {self.base()}/#/table/{r.table_id}")
        footer, headers = self._footer(lang, user_id, "your_turn")
        self.mailer.deliver(self.mailer.message(email, messages.text(lang, "your_turn.subject", count=len(listed)),
                                                "\n".join(lines) + footer, headers))
        return 1

    def stop(self) -> None:
        self.worker.stop()
