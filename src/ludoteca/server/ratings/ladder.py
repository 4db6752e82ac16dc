"""Ratings per game with openskill (Plackett-Luce), updated when a rated table ends,
in the same transaction as its end (``rate_ending`` subscribes to ``Endings``), with a
row of rating history per rated player (``RatingChange``).

People see a rating on the display scale (``ludoteca.bots.ratings.display_rating``:
60 x mu, 1500 at the start, "?" while provisional); ``ordinal`` (mu - 3 sigma) is kept for
whoever wants the conservative estimate."""

from __future__ import annotations

from typing import Any

from openskill.models import PlackettLuce
from sqlalchemy import Connection, delete, select
from sqlalchemy.orm import Session as OrmSession

from ludoteca.bots.ratings import is_provisional, shown
from ludoteca.server.kernel.clock import now
from ludoteca.server.kernel.models import Rating, RatingChange, User
from ludoteca.server.tables.endings import Ending

_model = PlackettLuce()


def ordinal(mu: float, sigma: float) -> float:
    """The conservative estimate the leaderboard sorts by."""
    return mu - 3 * sigma


Change = tuple[int, tuple[float, float], tuple[float, float]]
"""(user id, (mu, sigma) before, (mu, sigma) after)."""


def update(db: OrmSession, game: str, players: list[tuple[int, int]]) -> list[Change]:
    """``players``: (user id, rank) for every rated seat (people with accounts; bots and
    guests are not rated). Fewer than two: nothing to learn. Returns what changed."""
    if len(players) < 2:
        return []
    ids = [user_id for user_id, _ in players]
    stored = {r.user_id: r for r in db.scalars(select(Rating).where(Rating.game == game, Rating.user_id.in_(ids)))}
    teams = []
    for user_id in ids:
        row = stored.get(user_id)
        teams.append([_model.rating(mu=row.mu, sigma=row.sigma) if row else _model.rating()])
    new = _model.rate(teams, ranks=[float(rank) for _, rank in players])
    changes: list[Change] = []
    for user_id, team, before in zip(ids, new, teams, strict=True):
        rating = team[0]
        row = stored.get(user_id)
        if row is None:
            db.add(Rating(user_id=user_id, game=game, mu=rating.mu, sigma=rating.sigma, played=1))
        else:
            row.mu, row.sigma, row.played = rating.mu, rating.sigma, row.played + 1
        changes.append((user_id, (before[0].mu, before[0].sigma), (rating.mu, rating.sigma)))
    return changes


def rate_ending(connection: Connection, ending: Ending) -> None:
    """A rated table ended: rate its players (not guests, not bots; one person in two
    seats is not a contest), in the transaction that ends it."""
    if not ending.rated or ending.how == "aborted":  # an aborted game has no result
        return
    # Joins the ending's transaction: its commit flushes, the ending's commits.
    with OrmSession(bind=connection, join_transaction_mode="rollback_only") as db:
        seated = [user_id for _seat, user_id in ending.players if user_id is not None]
        guests = set(db.scalars(select(User.id).where(User.guest.is_(True), User.id.in_(seated))))
        ranks = list(ending.result["ranks"])
        players = [(user_id, ranks[seat]) for seat, user_id in ending.players
                   if user_id is not None and user_id not in guests]
        if len({p for p, _ in players}) == len(players):
            changes = update(db, ending.game, players)
            seat_of = {user_id: seat for seat, user_id in ending.players if user_id is not None}
            rank_of = dict(players)
            at = now()
            for user_id, (mu0, sigma0), (mu1, sigma1) in changes:
                db.add(RatingChange(user_id=user_id, game=ending.game, table_id=ending.table_id, at=at,
                                    mu_before=mu0, sigma_before=sigma0, mu=mu1, sigma=sigma1,
                                    rank=rank_of[user_id], seat=seat_of[user_id], seats=len(ending.players),
                                    players=len(players)))
        db.commit()


def leaderboard(db: OrmSession, game: str, limit: int = 50) -> list[dict[str, Any]]:
    rows = db.execute(select(User.username, Rating.mu, Rating.sigma, Rating.played)
                      .join(User, User.id == Rating.user_id).where(Rating.game == game)).all()
    # As lichess: established players first, by the rating they are shown; the
    # provisional ones after them (lichess leaves them out; a small server would show
    # nobody), and the name breaks ties so the order is stable.
    board = sorted(rows, key=lambda r: (is_provisional(r.sigma), -r.mu, r.username))[:limit]
    return [{"rank": i + 1, "username": r.username, **shown(r.mu, r.sigma), "mu": round(r.mu, 3),
             "sigma": round(r.sigma, 3), "played": r.played} for i, r in enumerate(board)]


def close_account(db: OrmSession, user_id: int) -> None:
    """A closed account's ratings and their history go (its results stay with the tables)."""
    for model in (Rating, RatingChange):
        db.execute(delete(model).where(model.user_id == user_id))
