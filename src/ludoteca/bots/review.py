"""Post-game review: every decision of one seat judged by the search bot, from what that
seat could know at that moment. Pure logic, no I/O: the CLI and the server's
bot workers call ``review`` and store or print what it returns.

How one decision is judged (``judge``):

1. **Search.** The ISMCTS bot's search (``ludoteca.bots.ismcts``, the game's hooks) runs
   ``budget.search`` iterations from the seat's information set: every iteration starts
   from ``Game.determinize(state, seat)``, never from the true state. Its most visited
   move is the bot's preferred move.
2. **Evaluation.** The move played and the preferred move are each followed by
   ``budget.evaluate`` iterations of a fresh search rooted after the move, on the same
   determinized samples (common random numbers: the noise of the deal cancels out of the
   difference). Each iteration ends in a finished game (its scores and ranks) or, after
   the game's ``ROLLOUT_DEPTH``, in the game's ``estimate_points`` hook (ranks from
   the estimates). Their means are the expected final points and rank of every seat,
   and the win chance (a shared first place counts as a share).
3. **Loss and label.** ``loss_points`` is the reviewed seat's expected points after the
   preferred move minus after the move played, ``loss_rank`` its expected rank after the
   move played minus after the preferred move (both at least 0: a move played that
   evaluates at least as well is not a loss). The label is the worse of the two labels
   the thresholds give (rank counts only with two or more seats): in points, the game's
   ``REVIEW_POINTS`` hook; in rank, the same in every game.

The budget and the point thresholds are each game's knowledge, in its bot hooks
(``REVIEW_ITERATIONS``, ``REVIEW_POINTS``; ``ludoteca.bots.hooks``): a game without them
gets ``DEFAULT_BUDGET`` and ``DEFAULT_POINTS``.

**Honesty, exactly.** The determinizations draw from a generator whose shuffles first
sort what they shuffle (``_CanonicalRng``), and each sample's own generator (the future
draws of the deal) is reseeded from it: a sample is then a function of what the seat
sees and the seed only, not of how the hidden cards happen to lie in the true state.
The seed of each decision is derived from the seat's view (``decision_seed``). So
changing a secret the seat could not see changes nothing in the review, bit for bit
(tests/bots/test_review_honesty.py), not merely in distribution.

**Deterministic**: the same record, seat, budget and seed give the same review.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator, MutableSequence, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from ludoteca.engine import Game, IllegalMove, Match, MatchRecord, Move, RecordError, Rng, Seat, canonical
from ludoteca.engine.registry import UnknownGame, load

from .hooks import GameHooks, hooks_for
from .ismcts import Node, _Search, most_visited

T = TypeVar("T")

LABELS = ("good", "inaccuracy", "mistake", "blunder")
"""From no loss to the worst."""

EXPLORATION = 0.7
PRIOR_VISITS = 3.0
"""The ISMCTS bot's own settings (ISMCTSBot's defaults): the review judges as it plays."""


@dataclass(frozen=True)
class ReviewBudget:
    """Iterations per judged decision: ``search`` to find the preferred move, ``evaluate``
    for each of the two moves compared."""

    search: int
    evaluate: int

    def to_json(self) -> dict[str, int]:
        return {"search": self.search, "evaluate": self.evaluate}


@dataclass(frozen=True)
class Thresholds:
    """Where a loss becomes an inaccuracy, a mistake, a blunder: in the seat's expected
    final points, and in its expected final rank (1 = first; ignored at one seat)."""

    points: tuple[float, float, float]
    rank: tuple[float, float, float]

    def label(self, loss_points: float, loss_rank: float, seats: int) -> str:
        level = sum(1 for limit in self.points if loss_points >= limit)
        if seats > 1:
            level = max(level, sum(1 for limit in self.rank if loss_rank >= limit))
        return LABELS[level]

    def severity(self, loss_points: float, loss_rank: float, seats: int) -> float:
        """The loss as a share of a blunder's (capped at 1), for the accuracy."""
        share = loss_points / self.points[2]
        if seats > 1:
            share = max(share, loss_rank / self.rank[2])
        return min(1.0, max(0.0, share))

    def to_json(self) -> dict[str, list[float]]:
        return {"points": list(self.points), "rank": list(self.rank)}


DEFAULT_BUDGET = ReviewBudget(search=200, evaluate=48)
"""For a game whose hooks give no ``REVIEW_ITERATIONS``."""

DEFAULT_POINTS = (1.0, 2.0, 4.0)
"""For a game whose hooks give no ``REVIEW_POINTS``: games score on such different scales
that no default fits them all, so it is small, and a game states its own."""
RANK_THRESHOLDS = (0.3, 0.6, 1.0)
"""The same in every game: 0.3, 0.6 and a whole place of expected rank (at two seats, 0.3
of rank is 30 points of win chance); below 0.3 the estimate's own noise at the default
budgets (about 0.1) would label sound moves."""


def _hooks_of(game_id: str) -> GameHooks:
    """The game's hooks; the defaults for a game this installation lacks."""
    try:
        return hooks_for(load(game_id))
    except UnknownGame:
        return GameHooks()


def budget_of(hooks: GameHooks) -> ReviewBudget:
    """A game's review budget: its ``REVIEW_ITERATIONS`` hook, else ``DEFAULT_BUDGET``."""
    iterations = hooks.review_iterations
    return DEFAULT_BUDGET if iterations is None else ReviewBudget(search=iterations[0], evaluate=iterations[1])


def thresholds_of(hooks: GameHooks) -> Thresholds:
    """A game's labels: its ``REVIEW_POINTS`` hook (else ``DEFAULT_POINTS``) and the rank's."""
    points = hooks.review_points
    return Thresholds(points=DEFAULT_POINTS if points is None else points, rank=RANK_THRESHOLDS)


def budget_for(game_id: str) -> ReviewBudget:
    return budget_of(_hooks_of(game_id))


def thresholds_for(game_id: str) -> Thresholds:
    return thresholds_of(_hooks_of(game_id))


# -- the pieces --------------------------------------------------------------------------


class _CanonicalRng(Rng):
    """A generator whose shuffles sort first: a determinization drawn with it depends on
    which hidden things exist, not on the order they lie in (which is itself a secret)."""

    __slots__ = ()

    def shuffle(self, items: MutableSequence[T]) -> None:
        ordered = sorted(items, key=repr)
        items[:] = ordered
        super().shuffle(items)


@dataclass(frozen=True)
class Outcome:
    """Expected final points, rank and win share of every seat, over ``samples`` games."""

    points: tuple[float, ...]
    ranks: tuple[float, ...]
    wins: tuple[float, ...]
    samples: int

    def to_json(self) -> dict[str, Any]:
        return {"points": [round(v, 3) for v in self.points], "ranks": [round(v, 3) for v in self.ranks],
                "wins": [round(v, 3) for v in self.wins], "samples": self.samples}


@dataclass(frozen=True)
class Judgement:
    """One decision of the reviewed seat."""

    index: int
    """The move's index in the record (0: the first move)."""
    seat: Seat
    options: int
    """How many legal moves the seat had."""
    played: Move
    best: Move
    after_played: Outcome
    after_best: Outcome
    loss_points: float
    loss_rank: float
    label: str
    played_text: str = ""
    best_text: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "index": self.index, "seat": self.seat, "options": self.options,
            "played": self.played, "best": self.best,
            "played_text": self.played_text, "best_text": self.best_text,
            "after_played": self.after_played.to_json(), "after_best": self.after_best.to_json(),
            "loss_points": round(self.loss_points, 3), "loss_rank": round(self.loss_rank, 3),
            "label": self.label,
        }


@dataclass
class Review:
    """The review of one seat of one record."""

    game: str
    seats: int
    seat: Seat
    budget: ReviewBudget
    seed: int
    thresholds: Thresholds
    decisions: list[Judgement] = field(default_factory=list)

    def counts(self) -> dict[str, int]:
        counts = dict.fromkeys(LABELS, 0)
        for decision in self.decisions:
            counts[decision.label] += 1
        return counts

    @property
    def accuracy(self) -> float:
        """100 x the mean of (1 - severity) over the judged decisions: a good move counts
        1, a blunder 0, the rest by their loss as a share of a blunder's."""
        if not self.decisions:
            return 100.0
        rules = self.thresholds
        total = sum(1.0 - rules.severity(d.loss_points, d.loss_rank, self.seats) for d in self.decisions)
        return 100.0 * total / len(self.decisions)

    def to_json(self) -> dict[str, Any]:
        return {
            "format": "ludoteca.review/1",
            "game": self.game, "seats": self.seats, "seat": self.seat, "seed": self.seed,
            "budget": self.budget.to_json(), "thresholds": self.thresholds.to_json(),
            "summary": {"decisions": len(self.decisions), "accuracy": round(self.accuracy, 1), **self.counts()},
            "decisions": [d.to_json() for d in self.decisions],
        }


def decision_seed(game: Game[Any], state: Any, seat: Seat, index: int, seed: int) -> int:
    """The seed of one decision's search: from the game, what the seat sees (its view
    holds the whole history it may know), the seat, the move's index and the review's
    seed. Nothing the seat cannot see enters it."""
    text = canonical([game.id, game.view(state, seat), seat, index, seed])
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


def _points_estimator(hooks: GameHooks) -> Callable[[Any], Sequence[float]] | None:
    """The game's ``estimate_points(state)`` hook, where its ``evaluate`` makes playouts stop
    early (without one they run to the end)."""
    return hooks.estimate_points if hooks.evaluate is not None else None


def _outcome_of(game: Game[Any], state: Any, estimate: Callable[[Any], Sequence[float]] | None
                ) -> tuple[list[float], list[float]]:
    """The final points and ranks of a finished state, else the estimates' (ranks by them)."""
    result = game.result(state)
    if result is not None:
        return [float(s) for s in result.scores], [float(r) for r in result.ranks]
    assert estimate is not None, "a playout without an estimate ends the game"
    points = [float(p) for p in estimate(state)]
    return points, [1.0 + sum(1 for q in points if q > p) for p in points]


class _Judge:
    """The search and evaluation of one decision."""

    def __init__(self, game: Game[Any], state: Any, seat: Seat, seed: int, budget: ReviewBudget) -> None:
        self.game = game
        self.state = state
        self.seat = seat
        self.budget = budget
        self.hooks = hooks_for(game)
        self.estimate = _points_estimator(self.hooks)
        self.sampler = _CanonicalRng(seed)
        self.seed = seed

    def sample(self) -> Any:
        """A state drawn from the seat's information set (see _CanonicalRng), with its own
        generator reseeded: the deal's future draws are hidden too."""
        copy = self.game.determinize(self.state, self.seat, self.sampler)
        copy.rng = Rng(self.sampler.next64())
        return copy

    def _search(self, rng: Rng) -> _Search:
        search = _Search(self.game, self.hooks, rng, EXPLORATION, self.seat, PRIOR_VISITS)
        if self.estimate is None:
            search.rollout_depth = None  # no estimate to end a playout with: play to the end
        return search

    def preferred(self, legal: list[Move]) -> Move:
        root = Node()
        search = self._search(Rng(self.seed ^ 0x5EA4C4))
        for _ in range(self.budget.search):
            search.iterate(root, self.sample())
        return most_visited(root, self.seat, legal)

    def evaluate(self, moves: list[Move]) -> list[Outcome]:
        """Each move followed by ``budget.evaluate`` iterations of a search rooted after
        it, on the same samples and the same generator seeds for every move."""
        game = self.game
        keys = [canonical(m) for m in moves]
        samples = []
        for _ in range(self.budget.evaluate):
            sample = self.sample()
            legal = {canonical(m) for m in game.legal(sample, self.seat)}
            if all(key in legal for key in keys):
                samples.append(sample)
        outcomes = []
        for move in moves:
            rng = Rng(self.seed ^ 0xE7A1)
            search = self._search(rng)
            root = Node()
            points: list[float] = []
            ranks: list[float] = []
            wins: list[float] = []
            for sample in samples:
                state = game.clone(sample)
                game.perform(state, self.seat, move)
                search.iterate(root, state)  # plays `state` on to the leaf, in place
                got, places = _outcome_of(game, state, self.estimate)
                if not points:
                    points, ranks, wins = [0.0] * len(got), [0.0] * len(got), [0.0] * len(got)
                firsts = places.count(1.0)
                for s in range(len(got)):
                    points[s] += got[s]
                    ranks[s] += places[s]
                    wins[s] += 1.0 / firsts if places[s] == 1.0 else 0.0
            n = max(1, len(samples))
            outcomes.append(Outcome(tuple(p / n for p in points), tuple(r / n for r in ranks),
                                    tuple(w / n for w in wins), len(samples)))
        return outcomes


def judge(game: Game[Any], state: Any, seat: Seat, played: Move, budget: ReviewBudget, seed: int,
          index: int = 0) -> Judgement:
    """Judge the move ``played`` by ``seat`` in ``state`` (one of its legal moves), from
    the seat's information only. ``seed`` is the review's; the decision's own seed comes
    from ``decision_seed``. ``state`` is not changed."""
    legal = game.legal(state, seat)
    own_seed = decision_seed(game, state, seat, index, seed)
    work = _Judge(game, state, seat, own_seed, budget)
    best = work.preferred(legal)
    played_key = canonical(played)
    if canonical(best) == played_key:
        (after,) = work.evaluate([played])
        after_played = after_best = after
    else:
        after_played, after_best = work.evaluate([played, best])
    n_seats = len(after_played.points)
    if not n_seats:  # no sample kept the move legal (cannot happen with an honest determinize)
        raise ValueError("no determinization of this decision allows the move played")
    loss_points = max(0.0, after_best.points[seat] - after_played.points[seat])
    loss_rank = max(0.0, after_played.ranks[seat] - after_best.ranks[seat])
    label = thresholds_of(work.hooks).label(loss_points, loss_rank, n_seats)
    return Judgement(index, seat, len(legal), played, best, after_played, after_best, loss_points, loss_rank,
                     label, game.move_text(state, seat, played), game.move_text(state, seat, best))


def decisions(record: MatchRecord, seat: Seat, game: Game[Any] | None = None) -> Iterator[tuple[int, Any, Move]]:
    """The decisions ``seat`` made in ``record``: (index, state before, move), where it had
    more than one legal move. Raises RecordError for a record that does not replay."""
    match = Match.new(record.game, record.seats, record.options, record.seed, game=game)
    for index, played in enumerate(record.moves):
        if played.seat == seat and len(match.legal(seat)) > 1:
            yield index, match.game.clone(match.state), played.move
        try:
            match.play(played.seat, played.move)
        except IllegalMove as error:
            raise RecordError("record_illegal", f"move {index + 1} does not replay: {error.message}") from None


Progress = Callable[[int, int], None]
"""Called with (decisions judged, decisions in all) after each decision."""


def review(record: MatchRecord, seat: Seat, budget: ReviewBudget | None = None, seed: int = 0,
           progress: Progress | None = None) -> Review:
    """The review of ``seat`` in a finished ``record``. Raises RecordError for a record
    that does not replay or is not over, ValueError for a seat not in the game."""
    game = load(record.game)
    if not 0 <= seat < record.seats:
        raise ValueError(f"seat {seat} is not in this {record.seats}-seat game")
    final = record.replay(game)
    if not final.over:
        raise RecordError("record_not_over", "the game in this record is not over")
    hooks = hooks_for(game)
    budget = budget or budget_of(hooks)
    out = Review(record.game, record.seats, seat, budget, seed, thresholds_of(hooks))
    todo = list(decisions(record, seat, game))
    if progress is not None:
        progress(0, len(todo))
    for done, (index, state, move) in enumerate(todo, 1):
        out.decisions.append(judge(game, state, seat, move, budget, seed, index))
        if progress is not None:
            progress(done, len(todo))
    return out
