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
    # The name as people read it (server/accounts/usernames.py): unique, so look-alikes are one.
    username_key: Mapped[str] = mapped_column(String(200), index=True, unique=True)
    password_hash: Mapped[str | None] = mapped_column(String(200), nullable=True)
    guest: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[datetime] = mapped_column(DateTime)
    # Moderation (server/moderation/service.py): None for a player, else "moderator" or "admin".
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
    # The moves played when this seat's time last ran out and a bot took it (None: never):
    # the table's log and end screen say so (migration 0012).
    timed_out_after: Mapped[int | None] = mapped_column(Integer, nullable=True)


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


# -- Play now, invitations, follows (migration 0007) ------------------------------------


class PlayNowEntry(Base):
    """A player waiting in a Play now pool (server/playnow/queue.py): one row per player
    (``user_id`` is unique, so a second entry cannot exist, whatever the processes do).
    Kept once matched, with the table, until the player queues again or cancels."""

    __tablename__ = "playnow_entries"
    __table_args__ = (Index("ix_playnow_pool", "game", "mode", "preset", "table_id"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), unique=True)
    game: Mapped[str] = mapped_column(String(40))
    seats: Mapped[int] = mapped_column(Integer)  # 0: any seat count the game takes
    mode: Mapped[str] = mapped_column(String(16))
    preset: Mapped[str] = mapped_column(String(40))
    rating: Mapped[float] = mapped_column(Float)
    bots_after: Mapped[int | None] = mapped_column(Integer, nullable=True)  # seconds; None: people only
    bot_level: Mapped[str | None] = mapped_column(String(40), nullable=True)
    joined_ms: Mapped[int] = mapped_column(BigInteger)
    table_id: Mapped[str | None] = mapped_column(String(16), nullable=True)  # set once matched


class Invitation(Base):
    """An invitation to a seat of a table (server/social/invitations.py); one per (table, invitee)."""

    __tablename__ = "invitations"
    __table_args__ = (UniqueConstraint("table_id", "invitee_id", name="uq_invitations_table_invitee"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"))
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)  # None: any free seat
    inviter_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    invitee_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    status: Mapped[str] = mapped_column(String(16))  # pending | accepted | declined | cancelled
    created_at: Mapped[datetime] = mapped_column(DateTime)
    answered_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)


class Follow(Base):
    """``follower_id`` follows ``followed_id``; both ways: friends (server/social/follows.py)."""

    __tablename__ = "follows"
    follower_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    followed_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True,
                                             index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime)



# -- accounts' email and the alerts: resets, push subscriptions, preferences (0008) ------


class AccountContact(Base):
    """How to reach an account away from its pages (server/accounts/service.py,
    server/alerts/mailer.py): its email address (optional, verified before any mail but the
    verification goes to it), the language its messages are written in, and its "your
    turn" email rhythm. One row per account, made when first needed."""

    __tablename__ = "account_contacts"
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    email: Mapped[str | None] = mapped_column(String(254), nullable=True, index=True)
    email_verified: Mapped[bool] = mapped_column(Boolean, default=False, server_default="0")
    language: Mapped[str] = mapped_column(String(8), default="en", server_default="en")
    # Minutes a turn-based table waits on the player before the "your turn" email.
    turn_email_minutes: Mapped[int] = mapped_column(Integer, default=60, server_default="60")
    # The last "your turn" email: at most one per batch period (server/alerts/your_turn.py).
    last_turn_email_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)


class AccountToken(Base):
    """A single-use link sent by email: ``verify`` (the address it was sent to) or
    ``reset`` (a new password). Only the token's HMAC is kept."""

    __tablename__ = "account_tokens"
    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    purpose: Mapped[str] = mapped_column(String(16))  # verify | reset
    email: Mapped[str] = mapped_column(String(254))
    created_at: Mapped[datetime] = mapped_column(DateTime)
    expires_at: Mapped[datetime] = mapped_column(DateTime)
    used_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)


class PushSubscription(Base):
    """One device's Web Push subscription (its endpoint and the keys of RFC 8291)."""

    __tablename__ = "push_subscriptions"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    endpoint: Mapped[str] = mapped_column(String(1024), unique=True)
    p256dh: Mapped[str] = mapped_column(String(128))
    auth: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime)


class AlertPreference(Base):
    """A player's choice for one kind of alert on one channel (no row: the default of
    ``server/alerts/preferences.py``)."""

    __tablename__ = "alert_preferences"
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    kind: Mapped[str] = mapped_column(String(24), primary_key=True)
    channel: Mapped[str] = mapped_column(String(16), primary_key=True)  # push | email
    enabled: Mapped[bool] = mapped_column(Boolean)


class PendingTurnEmail(Base):
    """A turn-based table waiting on a player who was not there: emailed in the next
    batch once ``due_at`` has passed, unless the player moved meanwhile."""

    __tablename__ = "pending_turn_emails"
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True)
    game: Mapped[str] = mapped_column(String(40))
    due_at: Mapped[datetime] = mapped_column(DateTime, index=True)


# -- rating history (0009) -------------------------------------------------------------


class RatingChange(Base):
    """One player's rating before and after one rated game, written by server/ratings/ladder.py
    in the transaction that rates the ending (so the history and ``ratings`` agree)."""

    __tablename__ = "rating_history"
    __table_args__ = (UniqueConstraint("table_id", "user_id", name="uq_rating_history_table_user"),
                      Index("ix_rating_history_user_game", "user_id", "game", "id"))
    id: Mapped[int] = mapped_column(BigInteger().with_variant(Integer, "sqlite"), primary_key=True,
                                    autoincrement=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    game: Mapped[str] = mapped_column(String(40))
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"))
    at: Mapped[datetime] = mapped_column(DateTime)
    mu_before: Mapped[float] = mapped_column(Float)
    sigma_before: Mapped[float] = mapped_column(Float)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    rank: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)  # the player's (first) seat
    seats: Mapped[int] = mapped_column(Integer)  # the table's seats
    players: Mapped[int] = mapped_column(Integer)  # the rated players at the table


class ZombieOption(Base):
    """The bot level a table's creator named for seats whose player left or ran out of
    time (else server/seatbots/zombies.py picks one by each player's rating)."""

    __tablename__ = "zombie_options"
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True)
    level: Mapped[str] = mapped_column(String(40))


class ZombieChoice(Base):
    """The bot level chosen, once, for a person's seat the first time a bot plays it."""

    __tablename__ = "zombie_choices"
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    level: Mapped[str] = mapped_column(String(40))
    # Why: "table" (the table's option), "rating" (nearest to ``mu``), "default".
    basis: Mapped[str] = mapped_column(String(16))
    mu: Mapped[float | None] = mapped_column(Float, nullable=True)
    chosen_at: Mapped[datetime] = mapped_column(DateTime)


# -- post-game reviews (0010) ----------------------------------------------------------
# The review of one seat of a finished table (server/reviews/service.py; the judging itself is
# ludoteca.bots.review): queued, computed in the review worker processes, then kept with
# the table (deleted with it) and served from here.


class GameReview(Base):
    """One seat's review of one finished table, at one budget and seed: (table, seat) is
    unique, so a second request for it reads the first one's row."""

    __tablename__ = "reviews"
    __table_args__ = (UniqueConstraint("table_id", "seat", name="uq_reviews_table_seat"),
                      Index("ix_reviews_requester", "requested_by", "created_at"))
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"))
    seat: Mapped[int] = mapped_column(Integer)
    requested_by: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"), nullable=True)
    status: Mapped[str] = mapped_column(String(16), index=True)  # queued | running | done | failed
    search: Mapped[int] = mapped_column(Integer)  # the budget: iterations per decision
    evaluate: Mapped[int] = mapped_column(Integer)
    seed: Mapped[int] = mapped_column(Integer)
    done: Mapped[int] = mapped_column(Integer, default=0)  # decisions judged so far
    total: Mapped[int] = mapped_column(Integer, default=0)  # decisions to judge (0: not counted yet)
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    error: Mapped[str | None] = mapped_column(String(200), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime)
    started_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)



# -- tournaments (0011) ----------------------------------------------------------------
# Player tournaments (server/tournaments/service.py; the pure logic in ludoteca.tournaments).


class Tournament(Base):
    """A Swiss, an elimination or an arena, from sign-up to podium. ``revision`` moves
    with every change, so live pages know when to read it again."""

    __tablename__ = "tournaments"
    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    name: Mapped[str] = mapped_column(String(80))
    game: Mapped[str] = mapped_column(String(40))
    format: Mapped[str] = mapped_column(String(16))  # swiss | elimination | arena
    seats: Mapped[int] = mapped_column(Integer)
    min_seats: Mapped[int] = mapped_column(Integer)
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    mode: Mapped[str] = mapped_column(String(16))
    clock: Mapped[dict[str, Any]] = mapped_column(JSON)
    rounds: Mapped[int] = mapped_column(Integer, default=0)  # swiss: as set; elimination: planned at the start
    minutes: Mapped[int | None] = mapped_column(Integer, nullable=True)  # arena: the window
    starts_at: Mapped[datetime] = mapped_column(DateTime, index=True)
    ends_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    min_players: Mapped[int] = mapped_column(Integer)
    max_players: Mapped[int] = mapped_column(Integer)
    rated: Mapped[bool] = mapped_column(Boolean, default=False)
    bot_levels: Mapped[list[str]] = mapped_column(JSON, default=list)  # empty: no bots
    private: Mapped[bool] = mapped_column(Boolean, default=False)
    invite: Mapped[str | None] = mapped_column(String(32), nullable=True)
    points: Mapped[list[float] | None] = mapped_column(JSON, nullable=True)  # None: the default by rank
    bye_points: Mapped[float] = mapped_column(Float)
    skipped_points: Mapped[float] = mapped_column(Float, default=0.0)
    avoid_repeats: Mapped[bool] = mapped_column(Boolean, default=True)
    advance: Mapped[int] = mapped_column(Integer, default=1)  # elimination: the best k of each table go on
    max_missed: Mapped[int] = mapped_column(Integer, default=2)
    seed: Mapped[int] = mapped_column(BigInteger)
    status: Mapped[str] = mapped_column(String(16), index=True)  # upcoming | running | finished | cancelled
    round: Mapped[int] = mapped_column(Integer, default=0)
    revision: Mapped[int] = mapped_column(Integer, default=0)
    podium: Mapped[list[int] | None] = mapped_column(JSON, nullable=True)  # entrant ids, first first
    created_by: Mapped[int] = mapped_column(ForeignKey("users.id"))
    created_at: Mapped[datetime] = mapped_column(DateTime)
    started_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)


class TournamentPlayer(Base):
    """An entrant: a person (``user_id``) or a bot (``bot``, its level)."""

    __tablename__ = "tournament_players"
    __table_args__ = (UniqueConstraint("tournament_id", "user_id", name="uq_tournament_players_user"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"), index=True)
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), nullable=True,
                                                index=True)
    bot: Mapped[str | None] = mapped_column(String(40), nullable=True)
    name: Mapped[str] = mapped_column(String(60))
    rating: Mapped[float] = mapped_column(Float, default=0.0)
    joined_at: Mapped[datetime] = mapped_column(DateTime)
    withdrawn: Mapped[bool] = mapped_column(Boolean, default=False)
    missed: Mapped[int] = mapped_column(Integer, default=0)


class TournamentRound(Base):
    """A round paired: its primary key (tournament, number) is what keeps two processes
    from pairing one round twice. Arenas have none."""

    __tablename__ = "tournament_rounds"
    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    byes: Mapped[list[list[Any]]] = mapped_column(JSON, default=list)  # [entrant, points, "bye" | "skipped"]
    created_at: Mapped[datetime] = mapped_column(DateTime)


class TournamentGame(Base):
    """A table of a tournament, its players (entrants, in seat order) and, once over,
    their ranks and tournament points."""

    __tablename__ = "tournament_games"
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True)
    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"), index=True)
    round: Mapped[int] = mapped_column(Integer)  # 0 in an arena
    board: Mapped[int] = mapped_column(Integer)
    players: Mapped[list[int]] = mapped_column(JSON)
    status: Mapped[str] = mapped_column(String(16), index=True)  # playing | over
    ranks: Mapped[list[int] | None] = mapped_column(JSON, nullable=True)
    points: Mapped[list[float] | None] = mapped_column(JSON, nullable=True)
    missed: Mapped[list[int] | None] = mapped_column(JSON, nullable=True)  # entrants a bot played for at the end
    started_at: Mapped[datetime] = mapped_column(DateTime)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
