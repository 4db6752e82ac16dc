"""Each player's choice, per kind of alert and per channel, of whether to be told
(``alert_preferences``; no row: the default here), and the signed links of the one-click
unsubscribe in every alert email; ``Preferences``: the API's reads and changes of them."""

from __future__ import annotations

import base64
import hashlib
import hmac
from collections.abc import Iterable
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.orm import Session as OrmSession

from ludoteca.server.alerts.core import KINDS
from ludoteca.server.kernel.errors import ApiError
from ludoteca.server.kernel.models import AccountContact, AlertPreference, PendingTurnEmail, PushSubscription, User
from ludoteca.server.kernel.runtime import Runtime

CHANNELS: tuple[str, ...] = ("push", "email")
DEFAULTS: dict[tuple[str, str], bool] = {
    **{(kind, "push"): True for kind in KINDS},
    ("your_turn", "email"): True,
    ("invitation", "email"): True,
    ("tournament", "email"): True,
    # A match is found while the player waits on the page; a review is no hurry.
    ("matched", "email"): False,
    ("review_ready", "email"): False,
}
TURN_EMAIL_MINUTES: tuple[int, ...] = (5, 15, 60, 240, 720, 1440)
"""The delays a player may choose before a "your turn" email (minutes)."""


def preferences(db: OrmSession, user_id: int) -> dict[str, dict[str, bool]]:
    """{kind: {channel: enabled}} for every kind and channel."""
    out: dict[str, dict[str, bool]] = {kind: {channel: DEFAULTS[(kind, channel)] for channel in CHANNELS}
                                       for kind in KINDS}
    for row in db.scalars(select(AlertPreference).where(AlertPreference.user_id == user_id)):
        if row.kind in out and row.channel in CHANNELS:
            out[row.kind][row.channel] = row.enabled
    return out


def wants(db: OrmSession, user_id: int, kind: str, channel: str) -> bool:
    row = db.get(AlertPreference, (user_id, kind, channel))
    return DEFAULTS.get((kind, channel), False) if row is None else row.enabled


def set_preference(db: OrmSession, user_id: int, kind: str, channel: str, enabled: bool) -> None:
    if kind not in KINDS or channel not in CHANNELS:
        raise ApiError(422, "bad_preference", f"kinds are {', '.join(KINDS)}; channels {', '.join(CHANNELS)}")
    db.execute(delete(AlertPreference).where(AlertPreference.user_id == user_id, AlertPreference.kind == kind,
                                             AlertPreference.channel == channel))
    db.add(AlertPreference(user_id=user_id, kind=kind, channel=channel, enabled=enabled))


def contact(db: OrmSession, user_id: int, lock: bool = False) -> AccountContact:
    """The account's contact row, made (empty) when it has none yet."""
    row = db.get(AccountContact, user_id, with_for_update=lock)
    if row is None:
        row = AccountContact(user_id=user_id, email=None, email_verified=False, language="en",
                             turn_email_minutes=60)
        db.add(row)
        db.flush()
    return row


# -- one-click unsubscribe (RFC 8058) ---------------------------------------------------


def _signature(secret: str, payload: str) -> str:
    digest = hmac.new(secret.encode(), f"unsubscribe:{payload}".encode(), hashlib.sha256).digest()[:18]
    return base64.urlsafe_b64encode(digest).decode().rstrip("=")


def unsubscribe_token(secret: str, user_id: int, kind: str) -> str:
    payload = f"{user_id}.{kind}"
    return f"{payload}.{_signature(secret, payload)}"


def read_unsubscribe_token(secret: str, token: str) -> tuple[int, str]:
    """(user id, kind) of a token this server signed; 404 ``bad_link`` otherwise."""
    refusal = ApiError(404, "bad_link", "this unsubscribe link is not valid")
    if len(token) > 120:
        raise refusal
    parts = token.split(".")
    if len(parts) != 3 or not parts[0].isdigit() or parts[1] not in KINDS:
        raise refusal
    payload = f"{parts[0]}.{parts[1]}"
    if not hmac.compare_digest(_signature(secret, payload), parts[2]):
        raise refusal
    return int(parts[0]), parts[1]


def describe(db: OrmSession, user_id: int) -> dict[str, Any]:
    row = db.get(AccountContact, user_id)
    return {"preferences": preferences(db, user_id), "kinds": list(KINDS), "channels": list(CHANNELS),
            "turn_email_minutes": row.turn_email_minutes if row else 60,
            "turn_email_choices": list(TURN_EMAIL_MINUTES)}


def close_account(db: OrmSession, user_id: int) -> None:
    """A closed account is told nothing more: its address, devices, choices and waiting
    "your turn" emails go."""
    for model in (AccountContact, PushSubscription, AlertPreference, PendingTurnEmail):
        db.execute(delete(model).where(model.user_id == user_id))


class Preferences:
    """A player's choices as the API reads and changes them, and the one-click
    unsubscribe of the alert emails."""

    def __init__(self, runtime: Runtime) -> None:
        self.runtime = runtime

    def describe(self, user_id: int) -> dict[str, Any]:
        with self.runtime.sessions() as db:
            return describe(db, user_id)

    def change(self, user_id: int, choices: Iterable[tuple[str, str, bool]], turn_email_minutes: int | None,
               ) -> dict[str, Any]:
        """(kind, channel, enabled) for each choice, and the delay before a "your turn"
        email: all of it or, on the first bad one, nothing (one transaction)."""
        if turn_email_minutes is not None and turn_email_minutes not in TURN_EMAIL_MINUTES:
            raise ApiError(422, "bad_delay", f"the delay is one of {', '.join(map(str, TURN_EMAIL_MINUTES))} minutes")
        with self.runtime.transaction() as db:
            for kind, channel, enabled in choices:
                set_preference(db, user_id, kind, channel, enabled)
            if turn_email_minutes is not None:
                contact(db, user_id).turn_email_minutes = turn_email_minutes
        return self.describe(user_id)

    def link_kind(self, token: str) -> str:
        """The kind of email an unsubscribe link stops; 404 ``bad_link`` for a link this
        server did not sign."""
        return read_unsubscribe_token(self.runtime.secret, token)[1]

    def unsubscribe(self, token: str) -> dict[str, Any]:
        """No more emails of the link's kind for the account it names."""
        user_id, kind = read_unsubscribe_token(self.runtime.secret, token)
        with self.runtime.transaction() as db:
            if db.get(User, user_id) is None:  # deleted since
                raise ApiError(404, "bad_link", "this unsubscribe link is not valid")
            set_preference(db, user_id, kind, "email", False)
        return {"ok": True, "kind": kind}
