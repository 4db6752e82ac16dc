"""The accounts' API: signing up, the sessions (sign in, as a guest, who am I, sign
out), and the account page (server/accounts/service.py). Bad input is a 4xx
``{code, message}`` and changes nothing."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Request, Response

from ludoteca.server.accounts.schemas import (
    AccountCreated,
    AccountOut,
    Caller,
    Credentials,
    Deleted,
    EmailIn,
    LanguageIn,
    MaybeCaller,
    PasswordChangeIn,
    PasswordIn,
    ResetIn,
    Session,
    SessionOut,
    TokenIn,
)
from ludoteca.server.accounts.service import AccountService
from ludoteca.server.accounts.signin import SignIn
from ludoteca.server.http.deps import ERRORS, MaybeMe, Me, provided
from ludoteca.server.http.schemas import Done
from ludoteca.server.kernel import identity as auth
from ludoteca.server.kernel.runtime import Runtime
from ludoteca.server.live.sessions import SocketEnder
from ludoteca.server.moderation.service import Moderation

router = APIRouter(prefix="/api", responses=ERRORS)
AccountServiceDep = Annotated[AccountService, Depends(provided(AccountService))]
ModerationDep = Annotated[Moderation, Depends(provided(Moderation))]
RuntimeDep = Annotated[Runtime, Depends(provided(Runtime))]
SignInDep = Annotated[SignIn, Depends(provided(SignIn))]
SocketEnderDep = Annotated[SocketEnder, Depends(provided(SocketEnder))]


def _token(request: Request) -> str | None:
    found = auth.token_from(request.headers, request.cookies)
    return found[0] if found else None


# -- signing up and the sessions ---------------------------------------------------------


@router.post("/accounts", status_code=201, tags=["accounts"], response_model=AccountCreated)
async def create_account(body: Credentials, request: Request, signin: SignInDep) -> dict[str, Any]:
    """Create an account (then sign in with POST /api/sessions). 409 ``username_taken``
    also for a name that reads the same as a taken one (case, look-alike letters)."""
    return await signin.sign_up(request, body.username, body.password)


@router.post("/sessions", tags=["accounts"], response_model=Session)
async def log_in(body: Credentials, request: Request, response: Response, signin: SignInDep) -> dict[str, Any]:
    """Sign in: sets an HttpOnly SameSite session cookie and returns the same token for
    bearer use, with the CSRF token that cookie sessions send as X-CSRF-Token."""
    return await signin.log_in(request, response, body.username, body.password)


@router.post("/sessions/guest", tags=["accounts"], response_model=Session)
async def guest(request: Request, response: Response, signin: SignInDep) -> dict[str, Any]:
    """Play without an account, if this server allows guests."""
    return await signin.guest(request, response)


@router.get("/sessions", tags=["accounts"], response_model=Caller)
def who_am_i(me: Me, moderation: ModerationDep) -> dict[str, Any]:
    """The signed-in user, the session's CSRF token and the user's role (null, or
    ``moderator`` or ``admin``: server/moderation/service.py)."""
    return {"user": {"id": me.user_id, "username": me.username, "guest": me.guest}, "csrf": me.csrf,
            "role": moderation.role_of(me.user_id)}


@router.get("/sessions/current", tags=["accounts"], response_model=MaybeCaller)
def current_session(me: MaybeMe, moderation: ModerationDep) -> dict[str, Any]:
    """What ``GET /sessions`` answers, or nulls when nobody is signed in: the client asks
    this one on every page load, so a signed-out visitor's browser logs no 401."""
    if me is None:
        return {"user": None, "csrf": None, "role": None}
    return who_am_i(me, moderation)


@router.delete("/sessions", tags=["accounts"], response_model=Done)
def log_out(request: Request, response: Response, me: Me, runtime: RuntimeDep, ender: SocketEnderDep) -> dict[str, Any]:
    found = auth.token_from(request.headers, request.cookies)
    if found:
        auth.end_session(runtime, found[0])
        ender.end_token(found[0])  # before the answer; its sockets close in every process
    response.delete_cookie(auth.COOKIE, path="/")
    return {"ok": True}


# -- the account page ----------------------------------------------------------------------


@router.get("/account", tags=["account"], response_model=AccountOut)
def account(me: Me, accounts: AccountServiceDep) -> dict[str, Any]:
    """The caller's account: email (and whether confirmed), language, push devices."""
    return accounts.describe(me.user_id)


@router.put("/account/language", tags=["account"], response_model=AccountOut)
def set_language(body: LanguageIn, me: Me, accounts: AccountServiceDep) -> dict[str, Any]:
    """The language of the emails and push messages (the pages set it from theirs)."""
    return accounts.set_language(me.user_id, body.language)


@router.put("/account/email", tags=["account"], response_model=AccountOut)
def set_email(body: EmailIn, request: Request, me: Me, accounts: AccountServiceDep) -> dict[str, Any]:
    """Set the address (unconfirmed until its emailed link is opened); 409 ``no_email``
    if this server sends no email; 429 past the emails per hour."""
    return accounts.set_email(request, me.user_id, body.email)


@router.delete("/account/email", tags=["account"], response_model=AccountOut)
def remove_email(me: Me, accounts: AccountServiceDep) -> dict[str, Any]:
    return accounts.remove_email(me.user_id)


@router.post("/account/email/resend", tags=["account"], response_model=AccountOut)
def resend(request: Request, me: Me, accounts: AccountServiceDep) -> dict[str, Any]:
    """Send the confirmation link again."""
    return accounts.resend(request, me.user_id)


@router.post("/account/email/verify", tags=["account"], response_model=Done)
def verify(body: TokenIn, accounts: AccountServiceDep) -> dict[str, Any]:
    """Confirm an address with the token of its emailed link (once; 410 ``link_expired``,
    409 ``link_used``, 404 ``bad_link``)."""
    return accounts.verify(body.token)


@router.put("/account/password", tags=["account"], response_model=Done)
async def change_password(body: PasswordChangeIn, request: Request, me: Me,
                          accounts: AccountServiceDep) -> dict[str, Any]:
    """A new password, with the current one (403 ``bad_credentials``); every other
    session ends."""
    return await accounts.change_password(me.user_id, _token(request), body.current, body.new)


@router.post("/account/reset", tags=["account"], response_model=Done)
def request_reset(body: EmailIn, request: Request, accounts: AccountServiceDep) -> dict[str, Any]:
    """Email a password-reset link to this address if an account confirmed it. The
    answer is the same either way; 429 past the emails per hour."""
    auth.refuse_cross_site(request.headers)
    return accounts.request_reset(request, body.email)


@router.post("/account/reset/confirm", tags=["account"], response_model=Done)
async def reset(body: ResetIn, request: Request, accounts: AccountServiceDep) -> dict[str, Any]:
    """Set a new password with the token of a reset link (once, before it expires);
    every session of the account ends."""
    auth.refuse_cross_site(request.headers)
    return await accounts.reset(body.token, body.password)


@router.get("/account/sessions", tags=["account"], response_model=list[SessionOut])
def sessions(request: Request, me: Me, accounts: AccountServiceDep) -> list[dict[str, Any]]:
    """The account's sessions (devices signed in), newest first; ``current`` is this one."""
    return accounts.sessions(me.user_id, _token(request))


@router.delete("/account/sessions", tags=["account"], response_model=Done)
def end_all(response: Response, me: Me, accounts: AccountServiceDep) -> dict[str, Any]:
    """Log out everywhere, this session too; open sockets close."""
    done = accounts.end_sessions(me.user_id)
    response.delete_cookie(auth.COOKIE, path="/")
    return done


@router.delete("/account/sessions/{session_id}", tags=["account"], response_model=Done)
def end_one(session_id: Annotated[str, Path(min_length=16, max_length=16, pattern="^[0-9a-f]{16}$")],
            me: Me, accounts: AccountServiceDep) -> dict[str, Any]:
    return accounts.end_sessions(me.user_id, session_id)


@router.post("/account/delete", tags=["account"], response_model=Deleted)
async def delete_account(body: PasswordIn, response: Response, me: Me, accounts: AccountServiceDep) -> dict[str, Any]:
    """Delete the account, with its password: finished games stay under an anonymous
    name; ratings, profile, email, devices and sessions go."""
    done = await accounts.delete(me.user_id, body.password)
    response.delete_cookie(auth.COOKIE, path="/")
    return done
