"""Following players: anyone may follow anyone who has not blocked them (and whom they
have not blocked); two players who follow each other are friends. Friends are shown
online in the lobby and invited in one tap."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from sqlalchemy import delete, or_, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session as OrmSession
from sqlalchemy.orm import aliased

from ludoteca.server.kernel.clock import now
from ludoteca.server.kernel.errors import ApiError
from ludoteca.server.kernel.models import Follow, User
from ludoteca.server.kernel.runtime import Runtime
from ludoteca.server.moderation.service import may_invite

MAX_FOLLOWING = 1000
"""Players one account may follow (a bound on what one client can make us store)."""

Online = Callable[[Iterable[int]], set[int]]


def user_named(db: OrmSession, username: str) -> User:
    """The account called ``username`` (exactly, as the lobby shows it); 404 ``no_user``."""
    user = db.scalar(select(User).where(User.username == username))
    if user is None:
        raise ApiError(404, "no_user", f"no player called {username!r}")
    return user


def friend_ids(db: OrmSession, user_id: int) -> list[int]:
    """Those who follow ``user_id`` and whom it follows."""
    back = aliased(Follow)
    return list(db.scalars(select(Follow.followed_id).join(
        back, (back.follower_id == Follow.followed_id) & (back.followed_id == Follow.follower_id))
        .where(Follow.follower_id == user_id)))


class Follows:
    def __init__(self, runtime: Runtime, online: Online) -> None:
        self.runtime = runtime
        self.online = online

    def follow(self, user_id: int, username: str) -> dict[str, Any]:
        try:
            with self.runtime.transaction() as db:
                target = user_named(db, username)
                if target.id == user_id:
                    raise ApiError(422, "self_follow", "one cannot follow oneself")
                if not may_invite(db, user_id, target.id):
                    raise ApiError(403, "blocked", "one of you has blocked the other")
                if db.get(Follow, (user_id, target.id)) is None:
                    count = len(list(db.scalars(select(Follow.followed_id).where(Follow.follower_id == user_id)
                                                .limit(MAX_FOLLOWING))))
                    if count >= MAX_FOLLOWING:
                        raise ApiError(409, "too_many_follows", f"one follows {MAX_FOLLOWING} players at most")
                    db.add(Follow(follower_id=user_id, followed_id=target.id, created_at=now()))
        except IntegrityError:
            pass  # the same follow raced in from another request: it is there, as asked
        with self.runtime.sessions() as db:
            target = user_named(db, username)
            friend = db.get(Follow, (target.id, user_id)) is not None
            return {"username": target.username, "following": True, "friend": friend}

    def unfollow(self, user_id: int, username: str) -> dict[str, Any]:
        with self.runtime.transaction() as db:
            target = user_named(db, username)
            found = db.execute(delete(Follow).where(Follow.follower_id == user_id, Follow.followed_id == target.id))
            if not getattr(found, "rowcount", 0):
                raise ApiError(404, "not_following", f"you do not follow {username!r}")
            name = target.username
        return {"username": name, "following": False, "friend": False}

    def friend_ids(self, user_id: int) -> list[int]:
        with self.runtime.sessions() as db:
            return friend_ids(db, user_id)

    def names(self, user_ids: Iterable[int]) -> dict[int, str]:
        ids = list(user_ids)
        if not ids:
            return {}
        with self.runtime.sessions() as db:
            return {u: n for u, n in db.execute(select(User.id, User.username).where(User.id.in_(ids)))}

    def listing(self, user_id: int) -> dict[str, Any]:
        """Whom the player follows, who follows them, and the friends with whether each
        is online now."""
        with self.runtime.sessions() as db:
            following = list(db.execute(select(User.id, User.username).join(Follow, Follow.followed_id == User.id)
                                        .where(Follow.follower_id == user_id).order_by(User.username)))
            followers = list(db.execute(select(User.id, User.username).join(Follow, Follow.follower_id == User.id)
                                        .where(Follow.followed_id == user_id).order_by(User.username)
                                        .limit(MAX_FOLLOWING)))
        back = {u for u, _ in followers}
        friends = [(u, n) for u, n in following if u in back]
        online = self.online([u for u, _ in friends])
        return {"following": [n for _, n in following], "followers": [n for _, n in followers],
                "friends": [{"username": n, "online": u in online} for u, n in friends]}


def close_account(db: OrmSession, user_id: int) -> None:
    """Follows of and by a closed account go, both ways."""
    db.execute(delete(Follow).where(or_(Follow.follower_id == user_id, Follow.followed_id == user_id)))
