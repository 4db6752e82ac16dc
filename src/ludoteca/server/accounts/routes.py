"""The account page's API (server/accounts/service.py) and the alerts' (preferences, Web
Push subscriptions, the one-click unsubscribe of alert emails). Bad input is a 4xx
``{code, message}`` and changes nothing."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Query, Request, Response
from fastapi.responses import HTMLResponse
from pydantic import BaseModel, Field
from starlette.concurrency import run_in_threadpool

from ludoteca.server.alerts.core import KINDS
from ludoteca.server.alerts.preferences import (
    CHANNELS,
    TURN_EMAIL_MINUTES,
    describe,
    read_unsubscribe_token,
    set_preference,
)
from ludoteca.server.alerts.preferences import contact as contact_row
from ludoteca.server.http.routes import ERRORS, Me, ServerDep
from ludoteca.server.http.schemas import Strict
from ludoteca.server.kernel import identity as auth
from ludoteca.server.kernel.errors import ApiError
from ludoteca.server.kernel.identity import Actor
from ludoteca.server.kernel.models import User
from ludoteca.server.server import Server

router = APIRouter(prefix="/api", responses=ERRORS)



def _token(request: Request) -> str | None:
    found = auth.token_from(request.headers, request.cookies)
    return found[0] if found else None


# -- bodies and answers ------------------------------------------------------------------


class EmailIn(Strict):
    email: str = Field(min_length=1, max_length=254)


class LanguageIn(Strict):
    language: str = Field(min_length=2, max_length=8, description="en, ja or vi")


class PasswordChangeIn(Strict):
    current: str = Field(min_length=1, max_length=256)
    new: str = Field(min_length=1, max_length=256)


class PasswordIn(Strict):
    password: str = Field(min_length=1, max_length=256)


class TokenIn(Strict):
    token: str = Field(min_length=1, max_length=100)


class ResetIn(Strict):
    token: str = Field(min_length=1, max_length=100)
    password: str = Field(min_length=1, max_length=256)


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


class AccountOut(BaseModel):
    username: str
    guest: bool
    email: str | None
    email_verified: bool
    language: str
    email_enabled: bool = Field(description="whether this server sends email at all")
    push_key: str = Field(description="the VAPID public key (applicationServerKey), base64url")
    push_devices: int


class Done(BaseModel):
    ok: bool


class Deleted(BaseModel):
    ok: bool
    now: str = Field(description="the placeholder name the account's finished games now show")


class SessionOut(BaseModel):
    id: str
    created_at: str
    expires_at: str
    current: bool


class PreferencesOut(BaseModel):
    preferences: dict[str, dict[str, bool]]
    kinds: list[str]
    channels: list[str]
    turn_email_minutes: int
    turn_email_choices: list[int]


class PushKey(BaseModel):
    public_key: str


class Unsubscribed(BaseModel):
    ok: bool
    kind: str


# -- the account -------------------------------------------------------------------------


@router.get("/account", tags=["account"], response_model=AccountOut)
def account(me: Me, server: ServerDep) -> dict[str, Any]:
    """The caller's account: email (and whether confirmed), language, push devices."""
    return server.alert_services.accounts.describe(me.user_id)


@router.put("/account/language", tags=["account"], response_model=AccountOut)
def set_language(body: LanguageIn, me: Me, server: ServerDep) -> dict[str, Any]:
    """The language of the emails and push messages (the pages set it from theirs)."""
    return server.alert_services.accounts.set_language(me.user_id, body.language)


@router.put("/account/email", tags=["account"], response_model=AccountOut)
def set_email(body: EmailIn, request: Request, me: Me, server: ServerDep) -> dict[str, Any]:
    """Set the address (unconfirmed until its emailed link is opened); 409 ``no_email``
    if this server sends no email; 429 past the emails per hour."""
    return server.alert_services.accounts.set_email(request, me.user_id, body.email)


@router.delete("/account/email", tags=["account"], response_model=AccountOut)
def remove_email(me: Me, server: ServerDep) -> dict[str, Any]:
    return server.alert_services.accounts.remove_email(me.user_id)


@router.post("/account/email/resend", tags=["account"], response_model=AccountOut)
def resend(request: Request, me: Me, server: ServerDep) -> dict[str, Any]:
    """Send the confirmation link again."""
    return server.alert_services.accounts.resend(request, me.user_id)


@router.post("/account/email/verify", tags=["account"], response_model=Done)
def verify(body: TokenIn, server: ServerDep) -> dict[str, Any]:
    """Confirm an address with the token of its emailed link (once; 410 ``link_expired``,
    409 ``link_used``, 404 ``bad_link``)."""
    return server.alert_services.accounts.verify(body.token)


@router.put("/account/password", tags=["account"], response_model=Done)
async def change_password(body: PasswordChangeIn, request: Request, me: Me, server: ServerDep) -> dict[str, Any]:
    """A new password, with the current one (403 ``bad_credentials``); every other
    session ends."""
    return await server.alert_services.accounts.change_password(me.user_id, _token(request), body.current, body.new)


@router.post("/account/reset", tags=["account"], response_model=Done)
def request_reset(body: EmailIn, request: Request, server: ServerDep) -> dict[str, Any]:
    """Email a password-reset link to this address if an account confirmed it. The
    answer is the same either way; 429 past the emails per hour."""
    auth.refuse_cross_site(request.headers)
    return server.alert_services.accounts.request_reset(request, body.email)


@router.post("/account/reset/confirm", tags=["account"], response_model=Done)
async def reset(body: ResetIn, request: Request, server: ServerDep) -> dict[str, Any]:
    """Set a new password with the token of a reset link (once, before it expires);
    every session of the account ends."""
    auth.refuse_cross_site(request.headers)
    return await server.alert_services.accounts.reset(body.token, body.password)


@router.get("/account/sessions", tags=["account"], response_model=list[SessionOut])
def sessions(request: Request, me: Me, server: ServerDep) -> list[dict[str, Any]]:
    """The account's sessions (devices signed in), newest first; ``current`` is this one."""
    return server.alert_services.accounts.sessions(me.user_id, _token(request))


@router.delete("/account/sessions", tags=["account"], response_model=Done)
def end_all(response: Response, me: Me, server: ServerDep) -> dict[str, Any]:
    """Log out everywhere, this session too; open sockets close."""
    done = server.alert_services.accounts.end_sessions(me.user_id)
    response.delete_cookie(auth.COOKIE, path="/")
    return done


@router.delete("/account/sessions/{session_id}", tags=["account"], response_model=Done)
def end_one(session_id: Annotated[str, Path(min_length=16, max_length=16, pattern="^[0-9a-f]{16}$")],
            me: Me, server: ServerDep) -> dict[str, Any]:
    return server.alert_services.accounts.end_sessions(me.user_id, session_id)


@router.post("/account/delete", tags=["account"], response_model=Deleted)
async def delete_account(body: PasswordIn, response: Response, me: Me, server: ServerDep) -> dict[str, Any]:
    """Delete the account, with its password: finished games stay under an anonymous
    name; ratings, profile, email, devices and sessions go."""
    done = await server.alert_services.accounts.delete(me.user_id, body.password)
    response.delete_cookie(auth.COOKIE, path="/")
    return done


# -- alerts ------------------------------------------------------------------------------------


def _guest_check(server: Server, me: Actor) -> None:
    if me.guest:
        raise ApiError(403, "guest", "a guest has no alert settings; sign up first")


@router.get("/alerts/preferences", tags=["alerts"], response_model=PreferencesOut)
def preferences(me: Me, server: ServerDep) -> dict[str, Any]:
    """Per kind of alert and per channel (push, email), whether to be told; and the
    delay before a "your turn" email."""
    with server.sessions() as db:
        return describe(db, me.user_id)


@router.put("/alerts/preferences", tags=["alerts"], response_model=PreferencesOut)
def set_preferences(body: PreferencesIn, me: Me, server: ServerDep) -> dict[str, Any]:
    _guest_check(server, me)
    if body.turn_email_minutes is not None and body.turn_email_minutes not in TURN_EMAIL_MINUTES:
        raise ApiError(422, "bad_delay", f"the delay is one of {', '.join(map(str, TURN_EMAIL_MINUTES))} minutes")
    with server.transaction() as db:
        for item in body.set:  # all checked before any is written (one transaction)
            set_preference(db, me.user_id, item.kind, item.channel, item.enabled)
        if body.turn_email_minutes is not None:
            contact_row(db, me.user_id).turn_email_minutes = body.turn_email_minutes
    with server.sessions() as db:
        return describe(db, me.user_id)


@router.get("/push/key", tags=["alerts"], response_model=PushKey)
def push_key(server: ServerDep) -> dict[str, Any]:
    """The server's VAPID public key, for ``pushManager.subscribe``."""
    return {"public_key": server.alert_services.push.public_key}


@router.post("/push/subscriptions", status_code=201, tags=["alerts"], response_model=Done)
def subscribe(body: PushSubscriptionIn, me: Me, server: ServerDep) -> dict[str, Any]:
    """Keep this device's push subscription (``PushSubscription.toJSON()``)."""
    _guest_check(server, me)
    server.alert_services.push.subscribe(me.user_id, body.endpoint, body.keys.p256dh, body.keys.auth)
    return {"ok": True}


@router.post("/push/unsubscribe", tags=["alerts"], response_model=Done)
def unsubscribe_device(body: EndpointIn, me: Me, server: ServerDep) -> dict[str, Any]:
    """Forget a device's subscription (404 ``no_subscription`` if the account has none there)."""
    if not server.alert_services.push.unsubscribe(me.user_id, body.endpoint):
        raise ApiError(404, "no_subscription", "no such subscription")
    return {"ok": True}


Token = Annotated[str, Query(min_length=1, max_length=120)]
PAGE = ("<!doctype html><meta charset=utf-8><meta name=viewport content='width=device-width, initial-scale=1'>"
        "<title>Ludoteca</title><form method=post><p>{text}</p>"
        "<button type=submit style='min-height:44px'>{button}</button></form>")


@router.get("/alerts/unsubscribe", tags=["alerts"], response_class=HTMLResponse,
            responses={200: {"description": "a page with one button that unsubscribes", "content": {"text/html": {}}}})
def unsubscribe_page(token: Token, server: ServerDep) -> HTMLResponse:
    """The link in an email's footer: a page with one button (a GET changes nothing, so
    a mail scanner following links unsubscribes nobody)."""
    _user_id, kind = read_unsubscribe_token(server.secret, token)
    return HTMLResponse(PAGE.format(text=f"Stop the emails of this kind ({kind}) / このメールを停止 / Ngừng nhận email",
                                    button="Unsubscribe / 停止 / Hủy đăng ký"))


@router.post("/alerts/unsubscribe", tags=["alerts"], response_model=Unsubscribed)
async def unsubscribe(token: Token, server: ServerDep) -> dict[str, Any]:
    """One-click unsubscribe (RFC 8058; the email's List-Unsubscribe-Post): no session
    needed, the signed token says whose and which kind. The body is ignored."""
    user_id, kind = read_unsubscribe_token(server.secret, token)

    def write() -> None:
        with server.transaction() as db:
            if db.get(User, user_id) is None:  # deleted since
                raise ApiError(404, "bad_link", "this unsubscribe link is not valid")
            set_preference(db, user_id, kind, "email", False)
    await run_in_threadpool(write)
    return {"ok": True, "kind": kind}
