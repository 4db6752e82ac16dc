"""Play now: the queue, wired to the database and the table services. The pairing itself
is ``pools.pair`` (pure); this module stores the queue, runs the pairing under a lock,
and opens and starts each table it decided (``Tables.open``, with the seats it chose).

**The queue lives in the database** (``playnow_entries``), so any process may take an
entry and any process may pair: one row per player (``user_id`` is unique: a second
entry for the same player cannot exist, whatever the processes do), and an entry is
matched by writing its table into it, in the same transaction that opens and starts the
table: a player is matched to a table in play, or not at all.

**Locking.** A sweep of one pool (game, mode, preset) runs in one write transaction:

- PostgreSQL: ``pg_try_advisory_xact_lock`` on the pool's key, then the pool's waiting
  rows read ``FOR UPDATE``. One process sweeps a pool at a time (another that finds the
  pool's lock taken skips it: the sweep under way sees its entries, or the next tick
  does); the row locks make a cancel or a re-join that races the sweep wait for it and
  then see the entry matched, so nobody is both matched and told "cancelled".
- SQLite: write transactions are ``BEGIN IMMEDIATE`` (``TableRuntime.writing``), one writer
  at a time: the sweep is alone by construction.

A sweep whose game does not answer in time (an engine timeout while a table starts)
rolls back whole: nobody is matched, and the next sweep tries again.
"""

from __future__ import annotations

import asyncio
import logging
import random
import zlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, select, text
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session as OrmSession

from ludoteca.bots.base import seatable_bot_names
from ludoteca.server.alerts.core import Alert
from ludoteca.server.kernel.clock import now_ms
from ludoteca.server.kernel.errors import ApiError
from ludoteca.server.kernel.identity import Actor
from ludoteca.server.kernel.models import Block, PlayNowEntry, Rating, User
from ludoteca.server.playnow import pools
from ludoteca.server.tables import Tables, clocks
from ludoteca.server.tables.opening import Bot, NewTable, Person, Sitter, game_or_404
from ludoteca.server.tables.runtime import TableRuntime

log = logging.getLogger("ludoteca.server.playnow.queue")

PRESETS = ("default",)
"""Options presets a pool may name: ``default`` is each game's default options."""
BOTS_AFTER_MAX = 3600
DEFAULT_MU = 25.0
"""openskill's starting mu: the rating of a player the game has not rated yet."""
MATCHED_KEPT_MS = 15 * 60_000
"""How long a matched entry stays to say where its player was seated."""

Notify = Callable[[Alert], None]
Tell = Callable[[int, Mapping[str, Any]], None]


@dataclass(frozen=True)
class Pool:
    game: str
    mode: str
    preset: str

    @property
    def key(self) -> int:
        """The pool's advisory lock key on PostgreSQL (a stable 31-bit number)."""
        return zlib.crc32(f"playnow:{self.game}:{self.mode}:{self.preset}".encode()) & 0x7FFFFFFF


def _entry(row: PlayNowEntry | None, at_ms: int) -> dict[str, Any]:
    if row is None:
        return {"status": "idle", "game": None, "seats": None, "mode": None, "preset": None, "waited_ms": 0,
                "bots_after": None, "bot_level": None, "table": None}
    return {"status": "matched" if row.table_id else "waiting", "game": row.game, "seats": row.seats or None,
            "mode": row.mode, "preset": row.preset, "waited_ms": max(0, at_ms - row.joined_ms),
            "bots_after": row.bots_after, "bot_level": row.bot_level, "table": row.table_id}


class Matchmaking:
    def __init__(self, runtime: TableRuntime, tables: Tables, notify: Notify, tell: Tell) -> None:
        self.runtime, self.tables, self.notify, self.tell = runtime, tables, notify, tell
        self.postgres = runtime.engine.dialect.name == "postgresql"

    # -- the player's entry ---------------------------------------------------------------

    def join(self, actor: Actor, game_id: str, seats: int | None, mode: str, preset: str,
             bots_after: int | None, bot_level: str | None) -> dict[str, Any]:
        """Queue the player (409 ``already_queued`` if they wait already: one entry per
        player), then sweep the pool at once: the player completing a table sits now."""
        game = game_or_404(game_id)
        if seats is not None and not game.min_seats <= seats <= game.max_seats:
            raise ApiError(422, "bad_seats", f"{game.id} seats {game.min_seats} to {game.max_seats}")
        if mode not in clocks.MODES:
            raise ApiError(422, "bad_mode", f"mode is one of {', '.join(clocks.MODES)}")
        if preset not in PRESETS:
            raise ApiError(422, "bad_preset", f"preset is one of {', '.join(PRESETS)}")
        if bots_after is not None and not 0 <= bots_after <= BOTS_AFTER_MAX:
            raise ApiError(422, "bad_wait", f"bots_after is 0 to {BOTS_AFTER_MAX} seconds")
        level = bot_level or "random"
        if level not in seatable_bot_names():
            raise ApiError(422, "no_bot", f"no bot {level!r}")
        at = now_ms()
        try:
            with self.runtime.transaction() as db:
                earlier = db.scalar(select(PlayNowEntry).where(PlayNowEntry.user_id == actor.user_id)
                                    .with_for_update())
                if earlier is not None and earlier.table_id is None:
                    raise ApiError(409, "already_queued", "you are already waiting to play; cancel first")
                if earlier is not None:  # matched before: this is a new wish
                    db.delete(earlier)
                    db.flush()
                rating = db.scalar(select(Rating.mu).where(Rating.user_id == actor.user_id, Rating.game == game.id))
                row = PlayNowEntry(user_id=actor.user_id, game=game.id, seats=seats or 0, mode=mode, preset=preset,
                                   rating=(rating if rating is not None else DEFAULT_MU) * pools.SCALE,
                                   bots_after=bots_after, bot_level=level if bots_after is not None else None,
                                   joined_ms=at, table_id=None)
                db.add(row)
                db.flush()
        except IntegrityError:  # the same player joined through another request meanwhile
            raise ApiError(409, "already_queued", "you are already waiting to play; cancel first") from None
        self.sweep(Pool(game.id, mode, preset))
        return self.status(actor.user_id)

    def status(self, user_id: int) -> dict[str, Any]:
        with self.runtime.sessions() as db:
            row = db.scalar(select(PlayNowEntry).where(PlayNowEntry.user_id == user_id))
            return _entry(row, now_ms())

    def cancel(self, actor: Actor) -> dict[str, Any]:
        """Leave the queue; 404 ``not_queued`` if not in it, 409 ``already_matched`` (with
        the table) if a sweep seated the player first."""
        with self.runtime.transaction() as db:
            row = db.scalar(select(PlayNowEntry).where(PlayNowEntry.user_id == actor.user_id).with_for_update())
            if row is None:
                raise ApiError(404, "not_queued", "you are not waiting to play")
            if row.table_id is not None:
                raise ApiError(409, "already_matched", "you were seated already", table=row.table_id)
            db.delete(row)
        return _entry(None, 0)

    # -- pairing --------------------------------------------------------------------------

    def waiting_pools(self) -> list[Pool]:
        with self.runtime.sessions() as db:
            return [Pool(*r) for r in db.execute(
                select(PlayNowEntry.game, PlayNowEntry.mode, PlayNowEntry.preset)
                .where(PlayNowEntry.table_id.is_(None)).distinct())]

    def sweep_all(self) -> list[str]:
        made: list[str] = []
        for pool in self.waiting_pools():
            made += self.sweep(pool)
        self._forget_matched()
        return made

    def _locked_pool(self, db: OrmSession, pool: Pool) -> list[PlayNowEntry] | None:
        if self.postgres and not db.scalar(text("SELECT pg_try_advisory_xact_lock(:key)"), {"key": pool.key}):
            return None  # another process is pairing this pool right now
        return list(db.scalars(select(PlayNowEntry).where(
            PlayNowEntry.game == pool.game, PlayNowEntry.mode == pool.mode, PlayNowEntry.preset == pool.preset,
            PlayNowEntry.table_id.is_(None)).order_by(PlayNowEntry.joined_ms, PlayNowEntry.id).with_for_update()))

    def sweep(self, pool: Pool) -> list[str]:
        """Pair one pool: open and start the tables ``pools.pair`` decides. Returns the
        tables made."""
        try:
            game = game_or_404(pool.game)
        except ApiError:
            return []
        made: list[tuple[str, list[int]]] = []
        try:
            with self.runtime.transaction() as db:
                rows = self._locked_pool(db, pool)
                if not rows:
                    return []
                at = now_ms()
                ids = [r.user_id for r in rows]
                apart = {frozenset((a, b)) for a, b in db.execute(
                    select(Block.blocker_id, Block.blocked_id).where(Block.blocker_id.in_(ids),
                                                                     Block.blocked_id.in_(ids)))}
                seekers = [pools.Seeker(r.user_id, r.rating, (at - r.joined_ms) / 1000, r.seats or None,
                                        None if r.bots_after is None else float(r.bots_after)) for r in rows]
                groups = pools.pair(seekers, game.min_seats, game.max_seats, apart)
                if not groups:
                    return []
                by_user = {r.user_id: r for r in rows}
                guests = set(db.scalars(select(User.id).where(User.id.in_(ids), User.guest.is_(True))))
                for group in groups:
                    table_id = self._open(db, pool, group, by_user, guests)
                    for user in group.players:
                        by_user[user].table_id = table_id
                    made.append((table_id, list(group.players)))
        except ApiError as error:  # a table did not start: the whole sweep rolled back
            log.warning("play now pool %s/%s/%s not paired: %s", pool.game, pool.mode, pool.preset, error.code)
            return []
        for table_id, players in made:
            for user in players:
                self.notify(Alert(user, "matched", table_id, {"game": pool.game}))
                self.tell(user, {"type": "playnow", "status": "matched", "table": table_id})
        return [t for t, _ in made]

    def _open(self, db: OrmSession, pool: Pool, group: pools.Group, by_user: dict[int, PlayNowEntry],
              guests: set[int]) -> str:
        """The group's table, opened and started in the sweep's transaction, with the
        game's default options; every person and bot seated in a random order (who plays
        first is nobody's privilege), the bots at the level the first player asked for.
        Rated when only people play and none is a guest."""
        host = group.players[0]
        level = by_user[host].bot_level or "random"
        sitters: list[Sitter] = [*(Person(user) for user in group.players), *([Bot(level)] * group.bots)]
        random.SystemRandom().shuffle(sitters)
        rated = group.bots == 0 and not (set(group.players) & guests)
        return self.tables.open(db, NewTable(pool.game, host, sitters, mode=pool.mode, rated=rated), start=True)

    def _forget_matched(self) -> None:
        with self.runtime.transaction() as db:
            db.execute(delete(PlayNowEntry).where(PlayNowEntry.table_id.is_not(None),
                                                  PlayNowEntry.joined_ms < now_ms() - MATCHED_KEPT_MS))

    async def run(self, every: float) -> None:
        """Sweep every pool now and then: waits widen bands and call bots in."""
        while True:
            await asyncio.sleep(every)
            try:
                await asyncio.to_thread(self.sweep_all)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("play now sweep failed")


def close_account(db: OrmSession, user_id: int) -> None:
    """A closed account leaves every Play now queue."""
    db.execute(delete(PlayNowEntry).where(PlayNowEntry.user_id == user_id))
