"""What the accounts' routes take and answer (server/accounts/routes.py): signing up
and in, the sessions, and the account page."""

from __future__ import annotations

from pydantic import Field

from ludoteca.server.http.schemas import Answer, Strict
from ludoteca.server.moderation.service import Role

# -- bodies ----------------------------------------------------------------------------------


# Usernames and passwords are checked by auth.check_credentials (with their own error
# codes, bad_username and bad_password); the description says exactly what it takes.
class Credentials(Strict):
    username: str = Field(min_length=1, max_length=64,
                          json_schema_extra={"minLength": 3, "maxLength": 32, "pattern": r"^[A-Za-z0-9_.-]{3,32}$"})
    password: str = Field(min_length=1, max_length=256, json_schema_extra={"minLength": 8, "maxLength": 256})


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


# -- signing up and in -------------------------------------------------------------------------


class AccountCreated(Answer):
    id: int
    username: str


class User(Answer):
    id: int
    username: str
    guest: bool


class Session(Answer):
    """A new session: the token (also set as the HttpOnly cookie) and the CSRF token
    that cookie sessions send as X-CSRF-Token."""

    token: str
    csrf: str
    user: User


class Caller(Answer):
    """The signed-in user, the session's CSRF token and the user's role (null for a player)."""

    user: User
    csrf: str
    role: Role | None


class MaybeCaller(Answer):
    """``Caller``, or nulls when nobody is signed in."""

    user: User | None
    csrf: str | None
    role: Role | None


# -- the account page --------------------------------------------------------------------------


class AccountOut(Answer):
    username: str
    guest: bool
    email: str | None
    email_verified: bool
    language: str
    email_enabled: bool = Field(description="whether this server sends email at all")
    push_key: str = Field(description="the VAPID public key (applicationServerKey), base64url")
    push_devices: int


class Deleted(Answer):
    ok: bool
    now: str = Field(description="the placeholder name the account's finished games now show")


class SessionOut(Answer):
    id: str
    created_at: str
    expires_at: str
    current: bool
