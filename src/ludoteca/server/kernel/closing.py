"""Closing an account is an event: moderation anonymises the account row and ends its
sessions, then every feature removes or releases its own rows of that account, in the
same transaction (the composition root lists them: ``server.ACCOUNT_CLOSERS``). A
feature that keeps rows of a player adds its handler there and nowhere else."""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy.orm import Session as OrmSession

AccountCloser = Callable[[OrmSession, int], None]
"""Called with the open transaction and the id of the account being closed."""
