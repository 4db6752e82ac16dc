"""Per-game knowledge for the search bots, kept in each game's own package.

A game may ship an optional module ``ludoteca.games.<id>.ai`` (or ``<package of the
game class>.ai`` for games installed from elsewhere) defining any of:

``rollout_policy(game, state, seat, legal, rng) -> Move``
    The move ``seat`` plays in a playout. Cheaper and smarter than uniform random.
``evaluate(game, state) -> list[float]``
    One value per seat for an unfinished (or finished) state, on the same scale as
    ``reward``: by default the expected win share in [0, 1] for two or more seats, the
    expected final score for a one-seat game.
``reward(game, result) -> list[float]``
    The per-seat reward of a finished game (default: ``default_reward``).
``ROLLOUT_DEPTH: int``
    With ``evaluate``: playouts stop after this many decisions and ``evaluate`` scores
    the state (default: play to the end).
``prior(game, state, seat, legal, rng) -> list[float]``
    With ``evaluate``: one value per move of ``legal`` for ``seat`` (on ``evaluate``'s
    scale), from which the search's moves start (default: ``evaluate`` of the state each
    move leads to). Costlier than one evaluation per move, so ``PRIOR_DEPTH`` may keep
    it near the root.
``PRIOR: str``
    Instead of ``prior``, the name of a prior the bots make: ``"greedy"``, the greedy
    bot's one-ply values (``ludoteca.bots.greedy.greedy_prior``). A game names it rather
    than importing it, since games import nothing of the bots but this module.
``PRIOR_DEPTH: int``
    With ``prior``: it serves the moves of the first this many decisions from the root
    (the root's own moves: 1); deeper, the default prior (default: every depth).
``PRIOR_VISITS: float``
    With ``prior``: how many playouts its values are worth (default: the bot's
    ``prior_visits``, as the default prior).
``OTHERS_BY_POLICY: bool``
    In a simultaneous round, the search plays the other seats' steps by the rollout
    policy instead of searching them, and its tree follows the searching seat's own steps
    only (default: every seat searched). For games whose seats barely touch each other
    while they choose at once, as Hadrian's Wall's sheets during a year: the iterations go
    to the seat's own choices, which the other seats' cannot change much.
``estimate_points(state) -> list[float]``
    With ``evaluate``: each seat's expected final points. The post-game review ends its
    playouts after ``ROLLOUT_DEPTH`` with them (default: playouts run to the end).
``REVIEW_ITERATIONS: tuple[int, int]``
    The post-game review's iterations per judged decision: to find the preferred move,
    then to evaluate each of the two moves compared (default: ``(200, 48)``). Chosen per
    game because an iteration's cost and a game's length differ.
``REVIEW_POINTS: tuple[float, float, float]``
    The losses, in the game's expected final points, from which the review calls a move
    an inaccuracy, a mistake, a blunder (default: ``(1.0, 2.0, 4.0)``). Games score on
    different scales, so one set of numbers cannot serve them all.

Every function receives determinized states only (never the true state), so a hook
cannot make a bot cheat unless it reads another seat's uncommitted simultaneous choice
out of the state; hooks must not do that.

Anything missing falls back to uniform random playouts and result-based rewards.
Tests and out-of-tree games can also call ``register_hooks`` directly.
"""

from __future__ import annotations

import importlib
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from ludoteca.engine import Game, Move, Result, Rng, Seat

RolloutPolicy = Callable[[Game[Any], Any, Seat, Sequence[Move], Rng], Move]
Evaluate = Callable[[Game[Any], Any], Sequence[float]]
Reward = Callable[[Game[Any], Result], Sequence[float]]
Prior = Callable[[Game[Any], Any, Seat, Sequence[Move], Rng], Sequence[float]]
EstimatePoints = Callable[[Any], Sequence[float]]

WIN_WEIGHT = 0.9
"""Share of the reward given by the win share; the rest rewards the score's place between
the worst and the best seat, so a playout that loses narrowly still teaches something."""


def default_reward(game: Game[Any], result: Result) -> list[float]:
    """Per-seat reward of a finished game.

    Two or more seats: ``0.9 * win share + 0.1 * normalised score`` (win share is 1 split
    among the seats ranked first; normalised score is 0 for the lowest score, 1 for the
    highest). One seat: the score itself, since there is nobody to beat; the search
    normalises it by the range it observes.
    """
    scores = result.scores
    if len(scores) == 1:
        return [float(scores[0])]
    winners = result.ranks.count(1)
    low, high = min(scores), max(scores)
    span = high - low
    rewards = []
    for score, rank in zip(scores, result.ranks, strict=True):
        share = 1.0 / winners if rank == 1 else 0.0
        place = (score - low) / span if span else 0.5
        rewards.append(WIN_WEIGHT * share + (1.0 - WIN_WEIGHT) * place)
    return rewards


def estimate_from_points(points: Sequence[float], spread: float) -> list[float]:
    """Turn per-seat point estimates into values on ``default_reward``'s scale, for an
    ``evaluate`` hook: a softmax of the points (``spread``: how many points of lead make a
    win about e times likelier, e.g. the points still to be scored divided by 3) stands
    for the win share, plus the points' place between the lowest and the highest seat.
    One seat: the points themselves."""
    if len(points) == 1:
        return [float(points[0])]
    top = max(points)
    weights = [math.exp((p - top) / max(spread, 1e-9)) for p in points]
    whole = sum(weights)
    low = min(points)
    span = top - low
    return [WIN_WEIGHT * w / whole + (1.0 - WIN_WEIGHT) * ((p - low) / span if span else 0.5)
            for p, w in zip(points, weights, strict=True)]


@dataclass(frozen=True)
class GameHooks:
    """What a game tells its bots; every field is optional."""

    rollout_policy: RolloutPolicy | None = None
    evaluate: Evaluate | None = None
    reward: Reward | None = None
    rollout_depth: int | None = None
    others_by_policy: bool = False
    prior: Prior | None = None
    prior_depth: int | None = None
    prior_visits: float | None = None
    estimate_points: EstimatePoints | None = None
    review_iterations: tuple[int, int] | None = None
    review_points: tuple[float, float, float] | None = None
    source: str = "default"

    def rewards(self, game: Game[Any], result: Result) -> Sequence[float]:
        return (self.reward or default_reward)(game, result)

    def rollout_move(self, game: Game[Any], state: Any, seat: Seat, legal: Sequence[Move], rng: Rng) -> Move:
        """The rollout policy's move, or a uniformly random one without a policy."""
        policy = self.rollout_policy
        return policy(game, state, seat, legal, rng) if policy is not None else rng.choice(legal)

    def label(self, players: int) -> str:
        """The hooks' name as it matters at this seat count: ``source``, and whether other
        seats are played by policy (which changes nothing when one seat plays), and whether
        the search starts from a ``prior`` hook."""
        label = f"{self.source}, others by policy" if self.others_by_policy and players > 1 else self.source
        if self.prior is not None and self.evaluate is not None:
            label += ", prior" + (f" to depth {self.prior_depth}" if self.prior_depth is not None else "") + \
                (f" worth {self.prior_visits:g}" if self.prior_visits is not None else "")
        return label


_explicit: dict[str, GameHooks] = {}
_found: dict[str, GameHooks] = {}
_named_priors: dict[str, Callable[[], Prior]] = {}


def register_prior(name: str, make: Callable[[], Prior]) -> None:
    """Offer a prior that a game's ``PRIOR`` may name. The module that makes it registers it
    when it is imported (``ludoteca.bots`` imports them all), because it imports this one:
    this module cannot import it back."""
    _named_priors[name] = make


def named_prior(name: str) -> Prior:
    """A new prior of the kind ``name`` names (``"greedy"``)."""
    make = _named_priors.get(name)
    if make is None:
        raise ValueError(f"no prior named {name!r} (priors: {', '.join(sorted(_named_priors)) or 'none'})")
    return make()


def register_hooks(game_id: str, hooks: GameHooks) -> None:
    """Give a game its hooks directly (tests, notebooks, games outside the package tree)."""
    _explicit[game_id] = hooks
    _found.pop(game_id, None)


def unregister_hooks(game_id: str) -> None:
    _explicit.pop(game_id, None)
    _found.pop(game_id, None)


def _import(name: str) -> ModuleType | None:
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as error:
        # Only a missing hook module means "no hooks"; a hook module that fails to
        # import its own dependencies is a bug that should be seen.
        if error.name is not None and (name == error.name or name.startswith(error.name + ".")):
            return None
        raise


def _from_module(module: ModuleType) -> GameHooks:
    depth = getattr(module, "ROLLOUT_DEPTH", None)
    prior = getattr(module, "prior", None)
    named = getattr(module, "PRIOR", None)
    if named is not None:
        if prior is not None:
            raise ValueError(f"{module.__name__}: a prior and a PRIOR; give one of them")
        prior = named_prior(str(named))
    prior_depth = getattr(module, "PRIOR_DEPTH", None)
    prior_visits = getattr(module, "PRIOR_VISITS", None)
    iterations = getattr(module, "REVIEW_ITERATIONS", None)
    points = getattr(module, "REVIEW_POINTS", None)
    return GameHooks(
        rollout_policy=getattr(module, "rollout_policy", None),
        evaluate=getattr(module, "evaluate", None),
        reward=getattr(module, "reward", None),
        rollout_depth=int(depth) if depth is not None else None,
        others_by_policy=bool(getattr(module, "OTHERS_BY_POLICY", False)),
        prior=prior,
        prior_depth=int(prior_depth) if prior_depth is not None else None,
        prior_visits=float(prior_visits) if prior_visits is not None else None,
        estimate_points=getattr(module, "estimate_points", None),
        review_iterations=(int(iterations[0]), int(iterations[1])) if iterations is not None else None,
        review_points=(float(points[0]), float(points[1]), float(points[2])) if points is not None else None,
        source=module.__name__,
    )


def hooks_for(game: Game[Any]) -> GameHooks:
    """The hooks of a game, looked up once: registered ones, then ``ludoteca.games.<id>.ai``,
    then ``ai`` next to the module defining the game class; else the defaults."""
    if game.id in _explicit:
        return _explicit[game.id]
    if game.id in _found:
        return _found[game.id]
    candidates = [f"ludoteca.games.{game.id}.ai"]
    package = type(game).__module__.rpartition(".")[0]
    if package and f"{package}.ai" not in candidates:
        candidates.append(f"{package}.ai")
    hooks = GameHooks()
    for name in candidates:
        module = _import(name)
        if module is not None:
            hooks = _from_module(module)
            break
    _found[game.id] = hooks
    return hooks
