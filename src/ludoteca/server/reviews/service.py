"""Post-game reviews on the server: asked for by players, queued in the
database, computed in review worker processes (never in a process that serves moves),
stored with the table and served from there.

The judging is ``ludoteca.bots.review`` (pure). Here:

- **Who may ask.** A signed-in player, for a finished table: at a private table only for a
  seat they played; at a public one for any seat. Reading a review follows the table's
  visibility (``access.visible``).
- **Limits per player**: at most ``queued_limit`` reviews queued or running, and
  ``daily_limit`` asked for in 24 hours (429 ``too_many_reviews``). Asking for a review
  that exists already costs nothing: the row is (table, seat) unique and the answer is it.
- **Where it runs.** ``Reviews.run`` (a task of every server process) claims the oldest
  queued row with a conditional update (so two processes never take the same), counts
  the seat's decisions and judges them in chunks in a process pool of its own, started
  with ``spawn`` like the bots' (server/kernel/workers.py); after each chunk the row's
  ``done``/``total`` move, which is the progress clients poll. Then the review goes into
  the row, and the player who asked is alerted (``review_ready``).
- A row left ``running`` by a process that died is queued again when a process starts.

Settings (environment): ``LUDOTECA_REVIEW_BUDGET`` (``SEARCH,EVALUATE``: every game at
that budget; tests use a tiny one; default: each game's, docs/bots.md),
``LUDOTECA_REVIEW_WORKERS`` (processes, default 1), ``LUDOTECA_REVIEWS_QUEUED`` (3),
``LUDOTECA_REVIEWS_PER_DAY`` (20).
"""

from __future__ import annotations

import asyncio
import logging
import math
import os
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from sqlalchemy import func, select, update

from ludoteca.bots.review import Review, ReviewBudget, budget_for, decisions, judge, thresholds_for
from ludoteca.engine import MatchRecord, PlayedMove
from ludoteca.games import load
from ludoteca.server.alerts.core import Alert
from ludoteca.server.kernel.clock import now
from ludoteca.server.kernel.errors import ApiError
from ludoteca.server.kernel.identity import Actor
from ludoteca.server.kernel.models import GameReview
from ludoteca.server.kernel.workers import WorkerPool
from ludoteca.server.tables.access import own_seats, visible
from ludoteca.server.tables.runtime import TableRuntime

log = logging.getLogger("ludoteca.server.reviews.service")

CHUNKS = 20
"""A review is judged in about this many pieces: progress moves by 5% steps."""


@dataclass(frozen=True)
class ReviewSettings:
    budget: ReviewBudget | None = None
    workers: int = 1
    queued_limit: int = 3
    daily_limit: int = 20

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None) -> ReviewSettings:
        env = dict(os.environ if env is None else env)
        budget = None
        raw = env.get("LUDOTECA_REVIEW_BUDGET", "").strip()
        if raw:
            parts = raw.split(",")
            if len(parts) != 2 or not all(p.strip().isdigit() and int(p) > 0 for p in parts):
                raise ValueError(f"LUDOTECA_REVIEW_BUDGET takes SEARCH,EVALUATE, not {raw!r}")
            budget = ReviewBudget(int(parts[0]), int(parts[1]))

        def number(name: str, default: int) -> int:
            text = env.get(name, "").strip()
            if not text:
                return default
            if not text.isdigit():
                raise ValueError(f"{name} takes a whole number, not {text!r}")
            return int(text)

        return cls(budget, max(1, number("LUDOTECA_REVIEW_WORKERS", 1)), number("LUDOTECA_REVIEWS_QUEUED", 3),
                   number("LUDOTECA_REVIEWS_PER_DAY", 20))


# -- in the worker processes -----------------------------------------------------------


def count_decisions(record: dict[str, Any], seat: int) -> int:
    """In a worker: the decisions of ``seat`` to judge. The table's status says the game is
    over (a resignation ends a table whose engine state goes on)."""
    parsed = MatchRecord.from_json(record)
    return sum(1 for _ in decisions(parsed, seat, load(parsed.game)))


def judge_chunk(record: dict[str, Any], seat: int, search: int, evaluate: int, seed: int, start: int,
                stop: int) -> list[dict[str, Any]]:
    """In a worker: the judgements of the seat's decisions number ``start`` to ``stop - 1``."""
    parsed = MatchRecord.from_json(record)
    game = load(parsed.game)
    budget = ReviewBudget(search, evaluate)
    out = []
    for number, (index, state, move) in enumerate(decisions(parsed, seat, game)):
        if number >= stop:
            break
        if number >= start:
            out.append(judge(game, state, seat, move, budget, seed, index).to_json())
    return out


# -- in the serving process ---------------------------------------------------------------


def _out(row: GameReview) -> dict[str, Any]:
    percent = 100 if row.status == "done" else (int(100 * row.done / row.total) if row.total else 0)
    return {"table": row.table_id, "seat": row.seat, "status": row.status, "done": row.done, "total": row.total,
            "percent": percent, "budget": {"search": row.search, "evaluate": row.evaluate}, "seed": row.seed,
            "review": row.result if row.status == "done" else None, "error": row.error}


class Reviews:
    """The reviews of one server process: requests, reads, and the worker loop."""

    def __init__(self, runtime: TableRuntime, alert: Callable[[Alert], None],
                 settings: ReviewSettings | None = None) -> None:
        self.runtime = runtime
        self.settings = settings or ReviewSettings.from_env()
        self.wake = asyncio.Event()
        self._workers = WorkerPool(self.settings.workers)
        self.alert = alert
        """Called with an Alert when a review is ready."""
        self._loop: asyncio.AbstractEventLoop | None = None

    # -- asking and reading ----------------------------------------------------------------

    def _table(self, db: Any, actor: Actor | None, table_id: str) -> tuple[Any, list[Any], list[int]]:
        store = self.runtime.store
        row = store.table(db, table_id)
        seats = store.seats(db, table_id)
        own = visible(row, actor, seats)
        return row, seats, own

    def request(self, actor: Actor, table_id: str, seat: int) -> tuple[dict[str, Any], bool]:
        """Ask for the review of ``seat`` at ``table_id``: (the review's state, created)."""
        with self.runtime.transaction() as db:
            row, _, own = self._table(db, actor, table_id)
            if row.status != "over":
                raise ApiError(409, "game_not_over", "a game can be reviewed once it is over")
            if not 0 <= seat < row.seats:
                raise ApiError(422, "bad_seat", f"seats are numbered 0 to {row.seats - 1}")
            if row.private and seat not in own:
                raise ApiError(403, "not_your_seat", "at a private table you can ask for the review of your own seat")
            found = db.scalar(select(GameReview).where(GameReview.table_id == table_id, GameReview.seat == seat))
            if found is not None:
                if found.status != "failed":
                    return _out(found), False
                db.delete(found)  # a failed review may be asked for again
                db.flush()
            waiting = db.scalar(select(func.count()).select_from(GameReview).where(
                GameReview.requested_by == actor.user_id, GameReview.status.in_(("queued", "running"))))
            if (waiting or 0) >= self.settings.queued_limit:
                raise ApiError(429, "too_many_reviews",
                               f"at most {self.settings.queued_limit} of your reviews may wait at once")
            today = db.scalar(select(func.count()).select_from(GameReview).where(
                GameReview.requested_by == actor.user_id, GameReview.created_at >= now() - timedelta(days=1)))
            if (today or 0) >= self.settings.daily_limit:
                raise ApiError(429, "too_many_reviews",
                               f"at most {self.settings.daily_limit} reviews a day per player")
            budget = self.settings.budget or budget_for(row.game)
            review = GameReview(table_id=table_id, seat=seat, requested_by=actor.user_id, status="queued",
                                search=budget.search, evaluate=budget.evaluate, seed=0, done=0, total=0,
                                created_at=now())
            db.add(review)
            db.flush()
            out = _out(review)
        self._poke()
        return out, True

    def read(self, actor: Actor | None, table_id: str, seat: int) -> dict[str, Any]:
        with self.runtime.sessions() as db:
            self._table(db, actor, table_id)
            found = db.scalar(select(GameReview).where(GameReview.table_id == table_id, GameReview.seat == seat))
            if found is None:
                raise ApiError(404, "no_review", "nobody asked for this seat's review yet")
            return _out(found)

    def listing(self, actor: Actor | None, table_id: str) -> dict[str, Any]:
        """The reviews of a table (without their contents), and the seats the reader played."""
        with self.runtime.sessions() as db:
            row, seats, _ = self._table(db, actor, table_id)
            rows = db.scalars(select(GameReview).where(GameReview.table_id == table_id)
                              .order_by(GameReview.seat)).all()
            return {"table": table_id, "over": row.status == "over", "own": own_seats(seats, actor),
                    "private": bool(row.private),
                    "reviews": [{**_out(r), "review": None} for r in rows]}

    def _poke(self) -> None:
        loop = self._loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self.wake.set)

    # -- the worker loop -------------------------------------------------------------------

    def _submit(self, fn: Any, *args: Any) -> Any:
        return asyncio.wrap_future(self._workers.run(fn, *args))

    def _requeue_orphans(self) -> None:
        """Rows left running by a process that stopped mid-review start again."""
        with self.runtime.transaction() as db:
            db.execute(update(GameReview).where(GameReview.status == "running",
                                                GameReview.started_at < now() - timedelta(minutes=30))
                       .values(status="queued", done=0, total=0))

    def _claim(self) -> tuple[int, dict[str, Any], int, ReviewBudget, int, str] | None:
        with self.runtime.transaction() as db:
            review = db.scalar(select(GameReview).where(GameReview.status == "queued")
                               .order_by(GameReview.created_at, GameReview.id).limit(1))
            if review is None:
                return None
            taken = db.execute(update(GameReview).where(GameReview.id == review.id, GameReview.status == "queued")
                               .values(status="running", started_at=now()))
            if not taken.rowcount:  # type: ignore[attr-defined]
                return None
            row = self.runtime.store.table(db, review.table_id)
            seats = self.runtime.store.seats(db, review.table_id)
            moves = self.runtime.store.played(db, review.table_id)
            players = [s.username or "" for s in sorted(seats, key=lambda s: s.seat)]
            record = MatchRecord(row.game, row.seats, row.options, row.seed, [PlayedMove(s, m) for s, m in moves],
                                 players).to_json()
            return (review.id, record, review.seat, ReviewBudget(review.search, review.evaluate), review.seed,
                    row.game)

    def _set(self, review_id: int, **values: Any) -> GameReview | None:
        with self.runtime.transaction() as db:
            db.execute(update(GameReview).where(GameReview.id == review_id).values(**values))
            found = db.get(GameReview, review_id)
            if found is not None:
                db.expunge(found)
            return found

    async def run(self) -> None:
        self._loop = asyncio.get_running_loop()
        await asyncio.to_thread(self._requeue_orphans)
        while True:
            try:
                claimed = await asyncio.to_thread(self._claim)
                if claimed is None:
                    self.wake.clear()
                    # Woken by a request in this process; other processes' requests are
                    # found by the next look.
                    with _suppress_timeout():
                        await asyncio.wait_for(self.wake.wait(), timeout=5.0)
                    continue
                await self._review(*claimed)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("review loop failed")
                await asyncio.sleep(1.0)

    async def _review(self, review_id: int, record: dict[str, Any], seat: int, budget: ReviewBudget, seed: int,
                      game_id: str) -> None:
        try:
            total = await self._submit(count_decisions, record, seat)
            await asyncio.to_thread(self._set, review_id, total=total, done=0)
            step = max(1, math.ceil(total / CHUNKS))
            judged: list[dict[str, Any]] = []
            for start in range(0, total, step):
                part = await self._submit(judge_chunk, record, seat, budget.search, budget.evaluate, seed, start,
                                          min(total, start + step))
                judged.extend(part)
                await asyncio.to_thread(self._set, review_id, done=len(judged))
            result = _assemble(game_id, record["seats"], seat, budget, seed, judged)
            row = await asyncio.to_thread(self._set, review_id, status="done", done=len(judged), result=result,
                                          finished_at=now())
        except asyncio.CancelledError:
            raise
        except Exception as error:
            log.exception("review %s failed", review_id)
            message = getattr(error, "message", None) or type(error).__name__
            await asyncio.to_thread(self._set, review_id, status="failed", error=str(message)[:200],
                                    finished_at=now())
            return
        if row is not None and row.requested_by is not None:
            summary = result["summary"]
            self.alert(Alert(row.requested_by, "review_ready", row.table_id,
                             {"game": game_id, "seat": seat, "accuracy": summary["accuracy"],
                              "mistakes": summary["mistake"], "blunders": summary["blunder"]}))

    def shutdown(self) -> None:
        self._workers.shutdown()


def _assemble(game_id: str, seats: int, seat: int, budget: ReviewBudget, seed: int,
              judged: list[dict[str, Any]]) -> dict[str, Any]:
    """The review's JSON from its judged decisions (as ``Review.to_json`` gives it)."""
    from ludoteca.bots.review import Judgement, Outcome

    def outcome(data: dict[str, Any]) -> Outcome:
        return Outcome(tuple(data["points"]), tuple(data["ranks"]), tuple(data["wins"]), data["samples"])

    review = Review(game_id, seats, seat, budget, seed, thresholds_for(game_id))
    for d in judged:
        review.decisions.append(Judgement(d["index"], d["seat"], d["options"], d["played"], d["best"],
                                          outcome(d["after_played"]), outcome(d["after_best"]), d["loss_points"],
                                          d["loss_rank"], d["label"], d["played_text"], d["best_text"]))
    return review.to_json()


class _suppress_timeout:
    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: Any, value: Any, trace: Any) -> bool:
        return kind is TimeoutError or kind is asyncio.TimeoutError
