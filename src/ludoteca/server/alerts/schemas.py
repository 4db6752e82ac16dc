"""What the alerts' routes take and answer (server/alerts/routes.py): the preferences,
Web Push subscriptions, the one-click unsubscribe."""

from __future__ import annotations

from pydantic import Field

from ludoteca.server.alerts.core import KINDS
from ludoteca.server.alerts.preferences import CHANNELS, TURN_EMAIL_MINUTES
from ludoteca.server.http.schemas import Answer, Strict

# -- bodies ----------------------------------------------------------------------------------


class PushKeys(Strict):
    p256dh: str = Field(min_length=1, max_length=128)
    auth: str = Field(min_length=1, max_length=64)


class PushSubscriptionIn(Strict):
    endpoint: str = Field(min_length=1, max_length=1024)
    keys: PushKeys
    expirationTime: int | None = Field(default=None, ge=0)  # as browsers send it


class EndpointIn(Strict):
    endpoint: str = Field(min_length=1, max_length=1024)


class PreferenceIn(Strict):
    kind: str = Field(min_length=1, max_length=24)
    channel: str = Field(min_length=1, max_length=16)
    enabled: bool


class PreferencesIn(Strict):
    set: list[PreferenceIn] = Field(default_factory=list, max_length=len(KINDS) * len(CHANNELS))
    turn_email_minutes: int | None = Field(default=None, ge=1, le=1440,
                                           description=f"one of {', '.join(map(str, TURN_EMAIL_MINUTES))}")


# -- answers ---------------------------------------------------------------------------------


class PreferencesOut(Answer):
    preferences: dict[str, dict[str, bool]] = Field(description="{kind: {channel: whether to be told}}")
    kinds: list[str]
    channels: list[str]
    turn_email_minutes: int
    turn_email_choices: list[int]


class PushKey(Answer):
    public_key: str


class Unsubscribed(Answer):
    ok: bool
    kind: str
