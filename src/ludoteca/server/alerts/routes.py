"""The alerts' API: each player's preferences, the Web Push subscriptions of their
devices, and the one-click unsubscribe of the alert emails. Bad input is a 4xx
``{code, message}`` and changes nothing."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query
from fastapi.responses import HTMLResponse

from ludoteca.server.alerts.preferences import Preferences
from ludoteca.server.alerts.push import Push
from ludoteca.server.alerts.schemas import (
    EndpointIn,
    PreferencesIn,
    PreferencesOut,
    PushKey,
    PushSubscriptionIn,
    Unsubscribed,
)
from ludoteca.server.http.deps import ERRORS, Me, provided
from ludoteca.server.http.schemas import Done
from ludoteca.server.kernel.errors import ApiError
from ludoteca.server.kernel.identity import Actor

router = APIRouter(prefix="/api", responses=ERRORS)
PreferencesDep = Annotated[Preferences, Depends(provided(Preferences))]
PushDep = Annotated[Push, Depends(provided(Push))]


def _refuse_guests(me: Actor) -> None:
    if me.guest:
        raise ApiError(403, "guest", "a guest has no alert settings; sign up first")


@router.get("/alerts/preferences", tags=["alerts"], response_model=PreferencesOut)
def preferences(me: Me, preferences: PreferencesDep) -> dict[str, Any]:
    """Per kind of alert and per channel (push, email), whether to be told; and the
    delay before a "your turn" email."""
    return preferences.describe(me.user_id)


@router.put("/alerts/preferences", tags=["alerts"], response_model=PreferencesOut)
def set_preferences(body: PreferencesIn, me: Me, preferences: PreferencesDep) -> dict[str, Any]:
    _refuse_guests(me)
    return preferences.change(me.user_id, [(item.kind, item.channel, item.enabled) for item in body.set],
                                     body.turn_email_minutes)


@router.get("/push/key", tags=["alerts"], response_model=PushKey)
def push_key(push: PushDep) -> dict[str, Any]:
    """The server's VAPID public key, for ``pushManager.subscribe``."""
    return {"public_key": push.public_key}


@router.post("/push/subscriptions", status_code=201, tags=["alerts"], response_model=Done)
def subscribe(body: PushSubscriptionIn, me: Me, push: PushDep) -> dict[str, Any]:
    """Keep this device's push subscription (``PushSubscription.toJSON()``)."""
    _refuse_guests(me)
    push.subscribe(me.user_id, body.endpoint, body.keys.p256dh, body.keys.auth)
    return {"ok": True}


@router.post("/push/unsubscribe", tags=["alerts"], response_model=Done)
def unsubscribe_device(body: EndpointIn, me: Me, push: PushDep) -> dict[str, Any]:
    """Forget a device's subscription (404 ``no_subscription`` if the account has none there)."""
    if not push.unsubscribe(me.user_id, body.endpoint):
        raise ApiError(404, "no_subscription", "no such subscription")
    return {"ok": True}


Token = Annotated[str, Query(min_length=1, max_length=120)]
PAGE = ("<!doctype html><meta charset=utf-8><meta name=viewport content='width=device-width, initial-scale=1'>"
        "<title>Ludoteca</title><form method=post><p>{text}</p>"
        "<button type=submit style='min-height:44px'>{button}</button></form>")


@router.get("/alerts/unsubscribe", tags=["alerts"], response_class=HTMLResponse,
            responses={200: {"description": "a page with one button that unsubscribes", "content": {"text/html": {}}}})
def unsubscribe_page(token: Token, preferences: PreferencesDep) -> HTMLResponse:
    """The link in an email's footer: a page with one button (a GET changes nothing, so
    a mail scanner following links unsubscribes nobody)."""
    kind = preferences.link_kind(token)
    return HTMLResponse(PAGE.format(text=f"Stop the emails of this kind ({kind}) / このメールを停止 / Ngừng nhận email",
                                    button="Unsubscribe / 停止 / Hủy đăng ký"))


@router.post("/alerts/unsubscribe", tags=["alerts"], response_model=Unsubscribed)
def unsubscribe(token: Token, preferences: PreferencesDep) -> dict[str, Any]:
    """One-click unsubscribe (RFC 8058; the email's List-Unsubscribe-Post): no session
    needed, the signed token says whose and which kind. The body is ignored."""
    return preferences.unsubscribe(token)
