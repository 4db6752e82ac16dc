"""Information-set Monte Carlo tree search (single-observer ISMCTS), for any game.

Each iteration samples a full state from the bot's own view (``ctx.sample()``, the
game's determinize for this seat), walks the one shared tree with that sample, adds a
node, plays out, and backs the per-seat rewards up. The tree is keyed by moves' canonical
JSON, so the statistics of a move are shared across every sample in which it is legal.

- **Selection** is UCT with availability counts (a move is only "tried or not" in the
  samples where it was legal), each seat maximising its own reward component: max^n
  for three or more seats, plain alternating search for two, pure score for one.
- **Simultaneous decisions** (several seats pending at once) are taken one seat after
  another, in the order ``pending`` gives, but all at one node, where each seat keeps
  its own statistics keyed by its own steps only (decoupled UCT): no seat's choice is
  conditioned on what the others chose in the same round, which it cannot see (their
  choices are hidden, and resampled by determinize once made). The child is keyed by
  the joint choice, revealed together.
- **Playouts** use the game's hooks (``ludoteca.bots.hooks``): its rollout policy, and
  its evaluation after ``ROLLOUT_DEPTH`` decisions; else uniform random to the end.
  With an evaluation, a move's statistics also start from the evaluation of the state
  it leads to (a prior worth ``prior_visits`` playouts), or from the game's ``prior``
  hook (e.g. the greedy bot's one-ply values) where it has one, down to its depth.
- **Budget**: iterations or seconds (``Budget``), the bot's own, capped by the context's.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from typing import Any

from ludoteca.engine import Game, Move, Rng, Seat, canonical

from .base import Bot, BotContext, Budget
from .hooks import GameHooks, hooks_for

Joint = tuple[tuple[Seat, str], ...]
"""The moves made at a node, as (seat, canonical move) in the order they were made."""


class Edge:
    """Statistics of one move of one seat at one node."""

    __slots__ = ("available", "prior", "total", "visits")

    def __init__(self) -> None:
        self.visits = 0
        self.total = 0.0
        self.available = 0
        self.prior = 0.0


class Node:
    """A decision point as seen across samples. ``edges`` holds, per seat and its own
    earlier steps at this node, an Edge per move key; ``children`` are keyed by the
    joint choice made at this node."""

    __slots__ = ("children", "edges")

    def __init__(self) -> None:
        self.edges: dict[tuple[Seat, tuple[str, ...]], dict[str, Edge]] = {}
        self.children: dict[Joint, Node] = {}


class _Range:
    """The rewards seen so far, to put UCT's exploitation term on a [0, 1] scale whatever
    the game's reward scale (solo games reward raw scores)."""

    __slots__ = ("high", "low")

    def __init__(self) -> None:
        self.low = math.inf
        self.high = -math.inf

    def see(self, values: list[float]) -> None:
        for v in values:
            if v < self.low:
                self.low = v
            if v > self.high:
                self.high = v

    def scale(self, mean: float) -> float:
        span = self.high - self.low
        return (mean - self.low) / span if span > 1e-12 else 0.5


class SearchStats:
    """What the last searches cost, for benchmarks and the series table."""

    __slots__ = ("decisions", "iterations", "seconds")

    def __init__(self) -> None:
        self.decisions = 0
        self.iterations = 0
        self.seconds = 0.0

    @property
    def iterations_per_second(self) -> float:
        return self.iterations / self.seconds if self.seconds > 0 else 0.0


def _cap(own: Budget, imposed: Budget) -> Budget:
    """The bot's own budget, capped by whatever the caller imposes (first reached wins)."""

    def least(a: Any, b: Any) -> Any:
        return b if a is None else a if b is None else min(a, b)

    return Budget(least(own.iterations, imposed.iterations), least(own.seconds, imposed.seconds))


class ISMCTSBot(Bot):
    """Single-observer ISMCTS with max^n backups and decoupled simultaneous decisions.

    ``budget`` is the thinking allowance per decision; with neither iterations nor
    seconds set, 1000 iterations. ``exploration`` is UCT's constant on rewards scaled to
    [0, 1]. ``prior_visits`` weighs the evaluation prior (games with an ``evaluate``
    hook); ``hooks`` replaces the game's hooks.
    """

    name = "ismcts"

    def __init__(self, budget: Budget | None = None, exploration: float = 0.7, name: str | None = None,
                 prior_visits: float = 3.0, hooks: GameHooks | None = None) -> None:
        if budget is None or (budget.iterations is None and budget.seconds is None):
            budget = Budget(iterations=1000)
        self.budget = budget
        self.exploration = exploration
        self.prior_visits = prior_visits
        # Hooks given here replace the game's own (``GameHooks()``: none), to measure a
        # hook's worth head to head.
        self.hooks = hooks
        if name:
            self.name = name
        self.stats = SearchStats()

    # -- the decision ----------------------------------------------------------------------

    def choose(self, ctx: BotContext) -> Move:
        if len(ctx.legal) == 1:
            return ctx.legal[0]
        budget = _cap(self.budget, ctx.budget)
        started = time.perf_counter()
        deadline = None if budget.seconds is None else started + budget.seconds
        limit = budget.iterations
        root = Node()
        hooks = self.hooks if self.hooks is not None else hooks_for(ctx.game)
        search = _Search(ctx.game, hooks, ctx.rng, self.exploration, ctx.seat, self.prior_visits)
        iterations = 0
        while True:
            search.iterate(root, ctx.sample())
            iterations += 1
            if limit is not None and iterations >= limit:
                break
            if deadline is not None and time.perf_counter() >= deadline:
                break
            if iterations % 32 == 0 and self._decided(root, ctx.seat, iterations, limit, started, deadline):
                break
        self.stats.decisions += 1
        self.stats.iterations += iterations
        self.stats.seconds += time.perf_counter() - started
        return self._best(root, ctx)

    @staticmethod
    def _decided(root: Node, seat: Seat, iterations: int, limit: int | None, started: float,
                 deadline: float | None) -> bool:
        """Whether the most visited move can no longer be overtaken in the iterations
        left (counted, or estimated from the rate so far): thinking on would not change
        the answer, only spend the player's time."""
        edges = root.edges.get((seat, ()))
        if not edges or len(edges) < 2:
            return False
        left = math.inf if limit is None else limit - iterations
        if deadline is not None:
            now = time.perf_counter()
            left = min(left, (deadline - now) * iterations / max(now - started, 1e-9))
        first, second = sorted((edge.visits for edge in edges.values()), reverse=True)[:2]
        return first - second > left

    @staticmethod
    def _best(root: Node, ctx: BotContext) -> Move:
        return most_visited(root, ctx.seat, ctx.legal)


class _Search:
    """One decision's search: the game, its hooks, the generator, and the reward range."""

    __slots__ = ("c", "evaluate", "game", "hooks", "others_by_policy", "prior", "prior_depth", "prior_hook",
                 "prior_hook_visits", "range", "rng", "rollout_depth", "seat")

    def __init__(self, game: Game[Any], hooks: GameHooks, rng: Rng, exploration: float, seat: Seat,
                 prior_visits: float) -> None:
        self.game = game
        self.seat = seat
        # With a leaf evaluation, each new move starts with the evaluation of the state
        # it leads to, worth this many playouts: at small budgets the search then starts
        # from the greedy bot's judgement instead of from uniform ignorance.
        self.prior = prior_visits if hooks.evaluate is not None else 0.0
        self.prior_hook = hooks.prior if self.prior else None
        self.prior_depth = hooks.prior_depth if hooks.prior_depth is not None else math.inf
        self.prior_hook_visits = hooks.prior_visits if hooks.prior_visits is not None else self.prior
        self.hooks = hooks
        self.rng = rng
        self.c = exploration
        self.evaluate = hooks.evaluate
        self.rollout_depth = hooks.rollout_depth if hooks.evaluate is not None else None
        self.others_by_policy = hooks.others_by_policy
        self.range = _Range()

    def iterate(self, root: Node, state: Any) -> None:
        game = self.game
        node = root
        path: list[tuple[Edge, Seat]] = []
        rewards: list[float] | None = None
        while True:
            result = game.result(state)
            if result is not None:
                rewards = list(self.hooks.rewards(game, result))
                break
            joint = self._decide_round(node, state, path, self.seat if node is root else None)
            if joint is None:
                break
            child = node.children.get(joint)
            if child is None:
                child = node.children[joint] = Node()
            node = child
        if rewards is None:
            rewards = self._playout(state)
        self.range.see(rewards)
        for edge, seat in path:
            edge.visits += 1
            edge.total += rewards[seat]

    def _decide_round(self, node: Node, state: Any, path: list[tuple[Edge, Seat]],
                      first: Seat | None = None) -> Joint | None:
        """The seats pending now decide at this node, in the order ``pending`` gives.

        A seat that decides several steps in a row (a compound choice) keeps its own
        cursor inside the node, keyed by its own steps only: it never conditions on
        what the other seats of the round chose, which it could not see. The round ends
        when a seat outside it becomes pending, or when the next seat to decide has
        already decided in this round and no seat of the round is still waiting for its
        first step (the next simultaneous round, or the tail of the last seat's turn).
        Returns the joint choice, the key of the child; None once a move was tried for
        the first time (the iteration then goes on with a playout).

        At the root the searching seat goes first: in a simultaneous round the order
        changes nothing anyone can see, and so its own choice is searched every time.

        With the hook ``others_by_policy``, in a decision the game calls simultaneous
        (``Game.simultaneous``: no seat's move changes what another's means) the other
        seats play their steps by the rollout policy, outside the tree and the joint key."""
        game = self.game
        pending = [d.seat for d in game.pending(state)]
        block = set(pending)
        steps: dict[Seat, tuple[str, ...]] = {}
        joint: list[tuple[Seat, str]] = []
        seat = first if first in block else pending[0]
        scripted = self.others_by_policy and game.simultaneous(state) is not None
        while True:
            prefix = steps.get(seat, ())
            if scripted and seat != self.seat:
                game.perform(state, seat, self.hooks.rollout_move(game, state, seat, game.legal(state, seat), self.rng))
                steps[seat] = (*prefix, "")
                following = self._next_in_round(state, block, steps)
                if following is None:
                    break
                seat = following
                continue
            edges = node.edges.get((seat, prefix))
            if edges is None:
                edges = node.edges[seat, prefix] = {}
            legal = game.legal(state, seat)
            keys = [canonical(m) for m in legal]
            untried: list[int] = []
            new: list[int] = []
            for i, key in enumerate(keys):
                edge = edges.get(key)
                if edge is None:
                    edge = edges[key] = Edge()
                    new.append(i)
                edge.available += 1
                if edge.visits == 0:
                    untried.append(i)
            if self.prior:
                # The game's prior hook serves this node if it is near enough to the root.
                hooked = self.prior_hook is not None and len(path) < self.prior_depth
                if new:
                    self._set_priors(edges, keys, legal, new, state, seat, hooked)
                pick = self._uct_prior(edges, keys, self.prior_hook_visits if hooked else self.prior)
                expanding = edges[keys[pick]].visits == 0
            else:
                expanding = bool(untried)
                pick = untried[self.rng.below(len(untried))] if untried else self._uct(edges, keys)
            game.perform(state, seat, legal[pick])
            path.append((edges[keys[pick]], seat))
            if expanding:
                return None
            joint.append((seat, keys[pick]))
            steps[seat] = (*prefix, keys[pick])
            following = self._next_in_round(state, block, steps)
            if following is None:
                break
            seat = following
        return tuple(joint)

    def _next_in_round(self, state: Any, block: set[Seat], steps: dict[Seat, tuple[str, ...]]) -> Seat | None:
        """The seat that steps next in this round, or None once the round is over (see
        ``_decide_round``)."""
        game = self.game
        if game.result(state) is not None:
            return None
        now = [d.seat for d in game.pending(state)]
        if not now or any(s not in block for s in now):
            return None
        seat = now[0]
        if seat in steps and all(s in steps for s in now):
            return None
        return seat

    def _uct(self, edges: dict[str, Edge], keys: list[str]) -> int:
        best = 0
        best_value = -math.inf
        c = self.c
        scale = self.range.scale
        for i, key in enumerate(keys):
            edge = edges[key]
            value = scale(edge.total / edge.visits) + c * math.sqrt(math.log(edge.available) / edge.visits)
            if value > best_value:
                best, best_value = i, value
        return best

    def _set_priors(self, edges: dict[str, Edge], keys: list[str], legal: Sequence[Move], new: list[int],
                    state: Any, seat: Seat, hooked: bool) -> None:
        """The priors of the moves ``new`` (indices into ``legal``) first seen at this node:
        the game's prior hook's where it serves the node (``hooked``), else the evaluation
        after each move."""
        if hooked:
            assert self.prior_hook is not None
            values = [float(v) for v in self.prior_hook(self.game, state, seat, [legal[i] for i in new], self.rng)]
            self.range.see(values)
        else:
            values = [self._judge(state, seat, legal[i]) for i in new]
        for i, value in zip(new, values, strict=True):
            edges[keys[i]].prior = value

    def _judge(self, state: Any, seat: Seat, move: Move) -> float:
        """The evaluation, for ``seat``, of the state ``move`` leads to (the prior)."""
        after = self.game.clone(state)
        self.game.perform(after, seat, move)
        result = self.game.result(after)
        assert self.evaluate is not None
        value = float((self.hooks.rewards(self.game, result) if result is not None
                       else self.evaluate(self.game, after))[seat])
        self.range.see([value])
        return value

    def _uct_prior(self, edges: dict[str, Edge], keys: list[str], weight: float) -> int:
        """UCT where each move's mean starts from its prior, worth ``weight`` visits.

        Priors are spread over [0, 1] among the moves at hand (worst 0, best 1): what
        matters is how a move compares with its siblings, and an evaluation shaped like a
        win probability saturates (0.991 against 0.992) where one side leads, which
        would leave no preference at all on the playouts' scale."""
        low = high = edges[keys[0]].prior
        for key in keys:
            prior = edges[key].prior
            if prior < low:
                low = prior
            elif prior > high:
                high = prior
        span = high - low
        best = 0
        best_value = -math.inf
        c = self.c
        scale = self.range.scale
        for i, key in enumerate(keys):
            edge = edges[key]
            bias = (edge.prior - low) / span if span > 1e-12 else 0.5
            n = edge.visits + weight
            mean = (scale(edge.total / edge.visits) * edge.visits if edge.visits else 0.0) + weight * bias
            value = mean / n + c * math.sqrt(math.log(edge.available + 1) / n)
            if value > best_value:
                best, best_value = i, value
        return best

    def _playout(self, state: Any) -> list[float]:
        game = self.game
        hooks = self.hooks
        rng = self.rng
        depth = self.rollout_depth
        limit = game.max_moves
        moves = 0
        while True:
            result = game.result(state)
            if result is not None:
                return list(hooks.rewards(game, result))
            if depth is not None and moves >= depth and self.evaluate is not None:
                return list(self.evaluate(game, state))
            seat = game.pending(state)[0].seat
            game.perform(state, seat, hooks.rollout_move(game, state, seat, game.legal(state, seat), rng))
            moves += 1
            if moves > limit:
                raise RuntimeError(f"{game.id}: no result after {limit} playout moves")


def most_visited(root: Node, seat: Seat, legal: Sequence[Move]) -> Move:
    """The most visited of ``seat``'s legal moves at ``root``; ties go to the better mean,
    then to the first listed (deterministic); the first listed when none was tried."""
    edges = root.edges.get((seat, ()), {})
    best: Move | None = None
    best_key: tuple[int, float] | None = None
    for move in legal:
        edge = edges.get(canonical(move))
        if edge is None or edge.visits == 0:
            continue
        key = (edge.visits, edge.total / edge.visits)
        if best_key is None or key > best_key:
            best, best_key = move, key
    return best if best is not None else legal[0]
