"""Server settings, read from ``LUDOTECA_*`` environment variables (the CLI sets them too,
so that every uvicorn worker process reads the same settings)."""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

ENV_PREFIX = "LUDOTECA_"


YES = ("1", "true", "yes", "on")
NO = ("0", "false", "no", "off")
SQLITE_SYNCHRONOUS = ("OFF", "NORMAL", "FULL", "EXTRA")
MAY_BE_ZERO = frozenset({"bot_delay_seconds", "bot_processes"})


class SettingsError(ValueError):
    """A ``LUDOTECA_*`` variable that cannot be used; the message names it and says what
    it takes, so a host sees it at start-up, not as a failure later."""


def _flag(name: str, value: str | None, default: bool) -> bool:
    if value is None or value == "":
        return default
    word = value.strip().lower()
    if word in YES or word in NO:
        return word in YES
    raise SettingsError(f"{ENV_PREFIX}{name} takes one of {'/'.join(YES)} or {'/'.join(NO)}, not {value!r}")


def _number(name: str, kind: type[int] | type[float], raw: str) -> int | float:
    what = "a whole number" if kind is int else "a number"
    try:
        value = kind(raw)
    except ValueError:
        raise SettingsError(f"{ENV_PREFIX}{name.upper()} takes {what}, not {raw!r}") from None
    if not math.isfinite(value) or value < 0 or (value == 0 and name not in MAY_BE_ZERO):
        least = "zero or more" if name in MAY_BE_ZERO else "above zero"
        raise SettingsError(f"{ENV_PREFIX}{name.upper()} takes {what} {least}, not {raw!r}")
    return value


@dataclass(frozen=True)
class Settings:
    database_url: str = field(default_factory=lambda: f"sqlite:///{Path.cwd() / 'ludoteca.db'}")
    redis_url: str | None = None
    redis_prefix: str = "ludoteca:"
    allow_guests: bool = True
    # Keys the HMAC under which session tokens are stored, so a leaked database does not
    # yield usable tokens. When unset, one is generated once and kept in the database, so
    # that every process sharing the database agrees on it.
    secret: str | None = None
    secure_cookies: bool = False
    session_days: int = 30
    max_body_bytes: int = 64 * 1024
    max_ws_message_bytes: int = 64 * 1024
    login_attempts_per_minute: int = 10
    # What one client controls, bounded (server/http/edge.py, server/accounts/signin.py; docs/ops.md).
    max_head_bytes: int = 16 * 1024
    max_headers: int = 100
    head_timeout_seconds: float = 10.0
    body_timeout_seconds: float = 30.0
    stalled_send_seconds: float = 30.0
    max_connections_per_address: int = 64
    requests_per_second_per_address: float = 20.0
    request_burst_per_address: int = 120
    max_connections: int = 4096
    logins_per_minute_per_address: int = 10
    logins_per_minute: int = 600
    signups_per_hour_per_address: int = 5
    signups_per_hour: int = 300
    chat_lines_per_10_seconds: int = 10
    ws_messages_per_10_seconds: int = 100
    # permessage-deflate on the WebSockets: off, because it cost 0.14-0.28 ms of server CPU
    # per move on the counter game (a third of the move path) and 40-55 KB of memory per
    # socket, for updates of 1-10 KB sent at the pace people play (bench/asgi_servers.py,
    # docs/ops.md). On for players on slow links who would rather wait on the CPU.
    ws_compression: bool = False
    password_time_cost: int = 3
    password_memory_kib: int = 65536
    bot_seconds: float = 1.0
    bot_workers: int = 2
    # Processes in which searching bots think, off the serving process (0: in its threads).
    bot_processes: int = 2
    # Threads that stage, group-commit and announce moves (tables are spread over them).
    move_workers: int = 2
    engine_seconds: float = 5.0
    clock_tick_seconds: float = 1.0
    bot_delay_seconds: float = 0.0
    sqlite_synchronous: str = "NORMAL"
    # The lobby leaves out open and playing tables nobody has touched (created, started,
    # moved in) for this long: abandoned tables stop crowding it. They still open by link.
    table_expiry_hours: float = 72.0
    # Seconds between sweeps of the Play now pools (server/playnow/queue.py); a join sweeps
    # its own pool at once, the sweeps widen the waits' rating bands and call bots in.
    playnow_seconds: float = 1.0
    web_root: str | None = None
    # Alerts and account email (server/alerts/mailer.py, server/alerts/push.py, server/alerts/your_turn.py;
    # docs/ops.md). No SMTP URL: no email at all (verification, resets, alerts).
    smtp_url: str | None = None
    mail_from: str = "Ludoteca <ludoteca@localhost>"
    # The address players reach this server at, for the links in emails and push.
    public_url: str = "http://localhost:8000"
    # Who runs the server, for push services (VAPID "sub"): a mailto: or https: URL.
    vapid_subject: str = "mailto:admin@localhost"
    # At most one "your turn" email per player in this many seconds (a batch lists all).
    turn_email_batch_seconds: float = 3600.0
    alert_scan_seconds: float = 30.0
    reset_link_minutes: int = 60
    verify_link_hours: int = 48
    # Account emails asked for (resets, verifications), per address and per account an hour.
    account_emails_per_hour: int = 5
    # Push endpoints over plain http (the tests' own push service); never in production.
    push_allow_http: bool = False

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None, **overrides: Any) -> Settings:
        env = dict(os.environ if env is None else env)
        get = lambda name: env.get(ENV_PREFIX + name)  # noqa: E731
        base = cls()
        values: dict[str, Any] = {}
        if get("DATABASE_URL"):
            values["database_url"] = get("DATABASE_URL")
        if get("REDIS_URL"):
            values["redis_url"] = get("REDIS_URL")
        # Set but empty is a choice here (keys at the top level of a Redis of its own).
        if get("REDIS_PREFIX") is not None:
            values["redis_prefix"] = get("REDIS_PREFIX")
        values["allow_guests"] = _flag("ALLOW_GUESTS", get("ALLOW_GUESTS"), base.allow_guests)
        values["secure_cookies"] = _flag("SECURE_COOKIES", get("SECURE_COOKIES"), base.secure_cookies)
        values["ws_compression"] = _flag("WS_COMPRESSION", get("WS_COMPRESSION"), base.ws_compression)
        if get("SECRET"):
            values["secret"] = get("SECRET")
        for name, kind in (("bot_seconds", float), ("engine_seconds", float), ("clock_tick_seconds", float),
                           ("bot_delay_seconds", float), ("bot_workers", int), ("move_workers", int),
                           ("bot_processes", int),
                           ("max_body_bytes", int), ("max_ws_message_bytes", int),
                           ("login_attempts_per_minute", int), ("session_days", int),
                           ("password_time_cost", int), ("password_memory_kib", int),
                           ("table_expiry_hours", float), ("playnow_seconds", float),
                           ("max_head_bytes", int), ("max_headers", int), ("head_timeout_seconds", float),
                           ("body_timeout_seconds", float), ("stalled_send_seconds", float),
                           ("max_connections_per_address", int), ("max_connections", int),
                           ("requests_per_second_per_address", float), ("request_burst_per_address", int),
                           ("logins_per_minute_per_address", int), ("logins_per_minute", int),
                           ("signups_per_hour_per_address", int), ("signups_per_hour", int),
                           ("chat_lines_per_10_seconds", int), ("ws_messages_per_10_seconds", int),
                           ("turn_email_batch_seconds", float), ("alert_scan_seconds", float),
                           ("reset_link_minutes", int), ("verify_link_hours", int),
                           ("account_emails_per_hour", int)):
            raw = get(name.upper())
            if raw:
                values[name] = _number(name, kind, raw)
        synchronous = get("SQLITE_SYNCHRONOUS")
        if synchronous:
            # It goes into a PRAGMA as it is, so only SQLite's own words are let through.
            if synchronous.strip().upper() not in SQLITE_SYNCHRONOUS:
                raise SettingsError(f"{ENV_PREFIX}SQLITE_SYNCHRONOUS takes one of {', '.join(SQLITE_SYNCHRONOUS)}, "
                                    f"not {synchronous!r}")
            values["sqlite_synchronous"] = synchronous.strip().upper()
        if get("WEB_ROOT"):
            values["web_root"] = get("WEB_ROOT")
        for name in ("SMTP_URL", "MAIL_FROM", "PUBLIC_URL", "VAPID_SUBJECT"):
            if get(name):
                values[name.lower()] = get(name)
        if values.get("smtp_url") and not str(values["smtp_url"]).startswith(("smtp://", "smtps://")):
            raise SettingsError(f"{ENV_PREFIX}SMTP_URL takes smtp://[user:pass@]host[:port][?starttls=1] "
                                f"or smtps://..., not {values['smtp_url']!r}")
        values.update(overrides)
        return replace(base, **values)

    @property
    def backend(self) -> str:
        return self.database_url.split(":", 1)[0].split("+", 1)[0]
