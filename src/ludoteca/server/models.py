"""The storage schema. The move log (``moves``) is the source of truth for every table:
a table's state is its setup replayed through its moves; nothing lives only in memory.

``tables.version`` counts every change to a table's match (a move or an undo) and is the
optimistic-concurrency token clients send back; ``moves.number`` is the move's place in
the match (1-based) and is unique per table, so two racing moves can never both land.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    pass


class Meta(Base):
    __tablename__ = "server_meta"
    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    value: Mapped[str] = mapped_column(Text)


class User(Base):
    __tablename__ = "users"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    username: Mapped[str] = mapped_column(String(40), unique=True)
    # The name as people read it (server/usernames.py): unique, so look-alikes are one.
    username_key: Mapped[str] = mapped_column(String(200), index=True, unique=True)
    password_hash: Mapped[str | None] = mapped_column(String(200), nullable=True)
    guest: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[datetime] = mapped_column(DateTime)
    # Moderation (server/moderation.py): None for a player, else "moderator" or "admin".
    role: Mapped[str | None] = mapped_column(String(16), nullable=True)
    # Until when the account may not sign in or play (NULL: not banned), may not chat.
    banned_until: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    muted_until: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)


class Session(Base):
    __tablename__ = "sessions"
    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    csrf: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime)
    expires_at: Mapped[datetime] = mapped_column(DateTime)


class GameTable(Base):
    __tablename__ = "tables"
    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    game: Mapped[str] = mapped_column(String(40), index=True)
    seats: Mapped[int] = mapped_column(Integer)
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    seed: Mapped[int] = mapped_column(BigInteger)
    mode: Mapped[str] = mapped_column(String(16))  # realtime | turn-based
    clock: Mapped[dict[str, Any]] = mapped_column(JSON)
    rated: Mapped[bool] = mapped_column(Boolean, default=False)
    private: Mapped[bool] = mapped_column(Boolean, default=False)
    record_public: Mapped[bool] = mapped_column(Boolean, default=False)
    status: Mapped[str] = mapped_column(String(16), index=True)  # open | playing | over | aborted
    version: Mapped[int] = mapped_column(Integer, default=0)
    moves_count: Mapped[int] = mapped_column(Integer, default=0)
    # The version of the last undo: a client that saw an older version cannot catch up by
    # appending events and gets the whole log again.
    undo_version: Mapped[int] = mapped_column(Integer, default=0)
    # Bumped by every change to the table that is not a move (seats, zombies, status):
    # a move checks it with the version, so a copy of the row kept in memory is safe.
    revision: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    pending: Mapped[list[int]] = mapped_column(JSON, default=list)
    # When the current decision began (epoch milliseconds): clocks run from here.
    turn_started_ms: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    created_by: Mapped[int] = mapped_column(ForeignKey("users.id"))
    created_at: Mapped[datetime] = mapped_column(DateTime)
    started_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    # The table this one's players went on to after it was over (one at most).
    rematch_id: Mapped[str | None] = mapped_column(String(16), nullable=True)
    # Seats that resigned, in order: [{"seat": s, "after": moves played then}]. Their
    # players rank last (the first to resign last of all); a bot plays each on.
    resigned: Mapped[list[dict[str, int]] | None] = mapped_column(JSON, nullable=True)


class TableSeat(Base):
    __tablename__ = "table_seats"
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True, index=True)
    bot: Mapped[str | None] = mapped_column(String(40), nullable=True)
    # A person's seat played by a bot for now (timed out or left); the person may take it back.
    zombie: Mapped[bool] = mapped_column(Boolean, default=False)
    # Realtime: the time bank in milliseconds at the start of the current decision.
    # Turn-based: when the decision its last move answered began (an undo's deadline).
    bank_ms: Mapped[int | None] = mapped_column(BigInteger, nullable=True)


class MoveRow(Base):
    __tablename__ = "moves"
    __table_args__ = (
        UniqueConstraint("table_id", "number", name="uq_moves_table_number"),
        UniqueConstraint("table_id", "move_id", name="uq_moves_table_move_id"),
        Index("ix_moves_table_version", "table_id", "version"),
    )
    id: Mapped[int] = mapped_column(BigInteger().with_variant(Integer, "sqlite"), primary_key=True,
                                    autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"))
    number: Mapped[int] = mapped_column(Integer)
    version: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)
    move: Mapped[dict[str, Any]] = mapped_column(JSON)
    move_id: Mapped[str] = mapped_column(String(64))
    undoable: Mapped[bool] = mapped_column(Boolean)
    events: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    by_bot: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[datetime] = mapped_column(DateTime)


class ChatMessage(Base):
    __tablename__ = "chat"
    id: Mapped[int] = mapped_column(BigInteger().with_variant(Integer, "sqlite"), primary_key=True,
                                    autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), index=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    text: Mapped[str] = mapped_column(String(500))
    created_at: Mapped[datetime] = mapped_column(DateTime)
    # Removed by a moderator: kept for the report that named it, shown to no one.
    hidden: Mapped[bool] = mapped_column(Boolean, default=False, server_default="0")


class Rating(Base):
    __tablename__ = "ratings"
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    game: Mapped[str] = mapped_column(String(40), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    played: Mapped[int] = mapped_column(Integer, default=0)


class Block(Base):
    """``blocker_id`` does not want to meet ``blocked_id``: no seat at the blocker's
    tables, no invitation, the blocked one's chat hidden from the blocker."""

    __tablename__ = "blocks"
    blocker_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    blocked_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True,
                                            index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime)


class Report(Base):
    """A player's report of a player, a chat line or a table, for the moderators."""

    __tablename__ = "reports"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    reporter_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"), nullable=True)
    kind: Mapped[str] = mapped_column(String(16))  # player | chat | table
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"), nullable=True)
    table_id: Mapped[str | None] = mapped_column(String(16), nullable=True)
    chat_id: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    reason: Mapped[str] = mapped_column(String(500))
    status: Mapped[str] = mapped_column(String(16), index=True)  # open | resolved
    created_at: Mapped[datetime] = mapped_column(DateTime)
    resolved_by: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"), nullable=True)
    resolved_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    note: Mapped[str | None] = mapped_column(String(500), nullable=True)


class AuditEntry(Base):
    """One moderator's (or the admin CLI's) action; never changed or deleted."""

    __tablename__ = "audit_log"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    actor_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"), nullable=True)
    actor_name: Mapped[str] = mapped_column(String(40))  # as it was, or "cli"
    action: Mapped[str] = mapped_column(String(32))
    target: Mapped[str] = mapped_column(String(80))
    detail: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime, index=True)
