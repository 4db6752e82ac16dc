"""``ludoteca admin``: the server's accounts from the command line, on the database
``ludoteca serve`` uses (``--db``, else LUDOTECA_DATABASE_URL, else ./ludoteca.db).

Every command goes through the moderation service (server/moderation/service.py) and is written
to the audit log as done by ``@cli``. The server's extra is imported only when a command
runs, so ``ludoteca`` works without it."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

if TYPE_CHECKING:
    from sqlalchemy.orm import Session as OrmSession

    from ludoteca.server.kernel.config import Settings
    from ludoteca.server.moderation.service import Moderation

admin_app = typer.Typer(help="Manage accounts: roles, bans, passwords, deletions, reports.",
                        no_args_is_help=True, add_completion=False)
console = Console()
err = Console(stderr=True)

Db = Annotated[str | None, typer.Option("--db", help="Database URL (else LUDOTECA_DATABASE_URL, else ./ludoteca.db).")]
Minutes = Annotated[int | None, typer.Option("--minutes", min=1, help="How long (default: until lifted).")]


class _Storage:
    """The server's database without the server: migrated, with its transactions."""

    def __init__(self, settings: Settings) -> None:
        from ludoteca.server.kernel.db import make_engine, make_sessionmaker, migrate

        self.settings = settings
        self.engine = make_engine(settings)
        migrate(self.engine)
        self._factory = make_sessionmaker(self.engine)

    @contextlib.contextmanager
    def transaction(self) -> Iterator[OrmSession]:
        with self._factory() as db, db.begin():
            yield db

    @contextlib.contextmanager
    def sessions(self) -> Iterator[OrmSession]:
        with self._factory() as db:
            yield db


@contextlib.contextmanager
def _moderation(db: str | None) -> Iterator[tuple[Moderation, _Storage]]:
    try:
        from ludoteca.server.kernel.config import Settings, SettingsError
        from ludoteca.server.kernel.errors import ApiError
        from ludoteca.server.moderation.service import Moderation
        from ludoteca.server.server import ACCOUNT_CLOSERS
    except ImportError:
        err.print("[red]error:[/red] the admin commands need the server's extra: pip install 'ludoteca[server]'")
        raise typer.Exit(2) from None
    env = dict(os.environ)
    if db:
        env["LUDOTECA_DATABASE_URL"] = db
    try:
        settings = Settings.from_env(env=env)
    except SettingsError as error:
        err.print(f"[red]error:[/red] {escape(str(error))}")
        raise typer.Exit(2) from None
    storage = _Storage(settings)
    try:
        # The same closers as the server's: a deletion from the CLI removes what one from the
        # account page does.
        yield Moderation(storage, ACCOUNT_CLOSERS), storage
    except ApiError as error:
        err.print(f"[red]error:[/red] {escape(error.message)} ({error.code})")
        raise typer.Exit(1) from None
    finally:
        storage.engine.dispose()


@admin_app.command()
def role(username: str, role: Annotated[str, typer.Argument(help="admin, moderator or none")], db: Db = None) -> None:
    """Make USERNAME an admin or a moderator (``none``: a player again)."""
    with _moderation(db) as (moderation, _):
        done = moderation.set_role(username, None if role == "none" else role)
    console.print(f"[green]{escape(done['username'])}[/green] is now {done['role'] or 'a player'}")


@admin_app.command()
def ban(username: str, minutes: Minutes = None,
        reason: Annotated[str | None, typer.Option(help="Why (kept in the audit log).")] = None,
        db: Db = None) -> None:
    """Ban USERNAME: no sign-in, no play; its sessions end now."""
    from ludoteca.server.moderation.service import CLI

    with _moderation(db) as (moderation, _):
        done = moderation.ban(None, CLI, username, minutes, reason)
    console.print(f"[red]{escape(done['username'])}[/red] is banned until {done['banned_until']}")


@admin_app.command()
def unban(username: str, db: Db = None) -> None:
    """Lift USERNAME's ban."""
    from ludoteca.server.moderation.service import CLI

    with _moderation(db) as (moderation, _):
        done = moderation.unban(None, CLI, username)
    console.print(f"[green]{escape(done['username'])}[/green] is no longer banned")


@admin_app.command("reset-password")
def reset_password(username: str,
                   password: Annotated[str | None, typer.Option(help="The new password (default: a random "
                                                                     "one-time password, printed).")] = None,
                   db: Db = None) -> None:
    """Set USERNAME's password; its sessions end."""
    from ludoteca.server.kernel.identity import Passwords

    with _moderation(db) as (moderation, storage):
        settings = storage.settings
        hasher = Passwords(settings.password_time_cost, settings.password_memory_kib, workers=1)
        chosen = moderation.reset_password(username, hasher.hash, password)
    if password is None:
        console.print(f"one-time password for [bold]{escape(username)}[/bold]: {escape(chosen)}")
        console.print("[dim]give it to them privately; shown once, not stored[/dim]")
    else:
        console.print(f"password of [bold]{escape(username)}[/bold] set")


@admin_app.command()
def delete(username: str,
           yes: Annotated[bool, typer.Option("--yes", help="Do not ask.")] = False,
           db: Db = None) -> None:
    """Delete USERNAME's account: its name becomes deleted-<id>, results and records stay."""
    if not yes:
        typer.confirm(f"delete the account {username}?", abort=True)
    with _moderation(db) as (moderation, _):
        done = moderation.delete_account(username)
    console.print(f"deleted [bold]{escape(done['deleted'])}[/bold] (records kept as {escape(done['now'])})")


@admin_app.command()
def reports(status: Annotated[str, typer.Option(help="open or resolved")] = "open",
            limit: Annotated[int, typer.Option(min=1, max=200)] = 50, db: Db = None) -> None:
    """List the players' reports, newest first."""
    with _moderation(db) as (moderation, _):
        rows: list[dict[str, Any]] = moderation.reports(status, limit)
    table = Table(title=f"{status} reports ({len(rows)})")
    for column in ("id", "kind", "reporter", "about", "reason", "filed"):
        table.add_column(column)
    for r in rows:
        about = r["user"] or ""
        if r["table"]:
            about += f" table {r['table']}"
        if r["chat_text"]:
            about += f" «{r['chat_text'][:60]}»"
        table.add_row(str(r["id"]), r["kind"], escape(r["reporter"] or "?"), escape(about.strip()),
                      escape(r["reason"]), r["created_at"][:16])
    console.print(table)
