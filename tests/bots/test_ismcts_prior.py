"""The ``prior`` hook: read from a game's ai module (a function, or the name of a prior the
bots make), served by the search down to ``PRIOR_DEPTH``, and the greedy bot's one-ply
values as Hadrian's Wall's prior."""

from __future__ import annotations

import dataclasses
import types
from collections.abc import Sequence
from typing import Any

import pytest

from ludoteca.bots import BotContext, Budget, ISMCTSBot, hooks_for
from ludoteca.bots.greedy import GreedyBot, greedy_prior
from ludoteca.bots.hooks import _from_module
from ludoteca.bots.ismcts import Node
from ludoteca.engine import Move, Rng, Seat, canonical
from ludoteca.games import load
from ludoteca.games.hadrianswall import ai

from .walks import unfinished_states

GAME: Any = load("hadrianswall")
MARK = 1000.0
"""The recording prior's values start here, far above any evaluation (win shares)."""


def hw_state(seed: int = 4) -> Any:
    """A three-seat state in a year's main phase, reached by the rollout policy."""
    for state in unfinished_states(GAME, 3, 20, seed, 200, policy=ai.rollout_policy):
        if state.phase == "main" and len(GAME.legal(state, GAME.pending(state)[0].seat)) > 2:
            return state
    raise AssertionError("no mid-year state")


def test_the_prior_and_its_depth_are_read_from_the_ai_module() -> None:
    def prior(game: Any, state: Any, seat: Seat, legal: Sequence[Move], rng: Rng) -> list[float]:
        return [0.0] * len(legal)

    module = types.ModuleType("some_game_ai")
    module.evaluate = lambda game, state: [0.5, 0.5]  # type: ignore[attr-defined]
    module.prior = prior  # type: ignore[attr-defined]
    module.PRIOR_DEPTH = 2  # type: ignore[attr-defined]
    hooks = _from_module(module)
    assert hooks.prior is prior and hooks.prior_depth == 2
    assert hooks.label(3) == "some_game_ai, prior to depth 2"


@pytest.mark.parametrize("game_id", ["bloodrage", "crusaders", "iwari"])
def test_the_other_games_keep_the_evaluation_prior(game_id: str) -> None:
    hooks = hooks_for(load(game_id))
    assert hooks.prior is None and hooks.label(2) == hooks.source


def test_a_prior_named_by_the_ai_module_is_made_by_the_bots() -> None:
    module = types.ModuleType("some_game_ai")
    module.evaluate = lambda game, state: [0.5, 0.5]  # type: ignore[attr-defined]
    module.PRIOR = "greedy"  # type: ignore[attr-defined]
    assert _from_module(module).prior is not None
    module.PRIOR = "no-such-prior"  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="no prior named 'no-such-prior'"):
        _from_module(module)
    module.PRIOR = "greedy"  # type: ignore[attr-defined]
    module.prior = lambda game, state, seat, legal, rng: [0.0] * len(legal)  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="give one of them"):
        _from_module(module)


def test_hadrians_wall_takes_the_greedy_prior_at_the_root() -> None:
    hooks = hooks_for(GAME)
    assert ai.PRIOR == "greedy" and not hasattr(ai, "prior")
    assert hooks.prior is not None and hooks.prior_depth == ai.PRIOR_DEPTH == 1
    state = hw_state(5)
    seat = GAME.pending(state)[0].seat
    legal = GAME.legal(state, seat)
    assert hooks.prior(GAME, state, seat, legal, Rng(9)) == greedy_prior()(GAME, state, seat, legal, Rng(9))
    assert hooks.prior_visits == ai.PRIOR_VISITS == 10
    assert hooks.label(3) == "ludoteca.games.hadrianswall.ai, prior to depth 1 worth 10"


def test_the_search_serves_the_hook_down_to_its_depth_only() -> None:
    """With PRIOR_DEPTH 1 the root seat's first moves start from the hook's values, and
    every deeper decision from the evaluation after the move (never the hook's)."""
    calls: list[int] = []

    def prior(game: Any, state: Any, seat: Seat, legal: Sequence[Move], rng: Rng) -> list[float]:
        calls.append(len(legal))
        return [MARK + i for i in range(len(legal))]

    hooks = dataclasses.replace(hooks_for(GAME), prior=prior, prior_depth=1)
    state = hw_state()
    seat = GAME.pending(state)[0].seat
    move, root = search(hooks, state, seat, 40, Rng(2))
    assert move in GAME.legal(state, seat)
    first = root.edges[seat, ()]
    assert calls and sum(calls) == len(first)
    assert all(edge.prior >= MARK for edge in first.values())
    deeper = [edge for node in walk(root) for key, edges in node.edges.items()
              if node is not root or key != (seat, ()) for edge in edges.values()]
    assert deeper and all(edge.prior < MARK for edge in deeper)


def search(hooks: Any, state: Any, seat: Seat, iterations: int, rng: Rng) -> tuple[Move, Node]:
    """The move an ISMCTS search with ``hooks`` chooses, and the root of its tree."""
    roots: list[Node] = []

    class Keeping(ISMCTSBot):
        @staticmethod
        def _best(root: Node, ctx: BotContext) -> Move:
            roots.append(root)
            return ISMCTSBot._best(root, ctx)

    move = Keeping(Budget(iterations=iterations), hooks=hooks).choose(BotContext(GAME, state, seat, rng))
    return move, roots[0]


def walk(node: Node) -> list[Node]:
    nodes = [node]
    for child in node.children.values():
        nodes.extend(walk(child))
    return nodes


def test_the_greedy_prior_is_the_greedy_bots_values_on_the_sample() -> None:
    state = hw_state(5)
    seat = GAME.pending(state)[0].seat
    legal = GAME.legal(state, seat)
    before = [canonical(m) for m in legal], ai.evaluate(GAME, state)
    values = greedy_prior(chain=3)(GAME, state, seat, legal, Rng(9))
    assert values == GreedyBot(samples=1, chain=3).values_on(GAME, hooks_for(GAME), state, seat, legal, Rng(9))
    assert len(values) == len(legal)
    assert ([canonical(m) for m in GAME.legal(state, seat)], ai.evaluate(GAME, state)) == before


def test_the_hooks_weight_is_its_prior_visits() -> None:
    """Worth 1000 playouts, the hook's favourite (ending the year, mid-year) takes every
    root visit of a short search; worth the default 3, the playouts spread them."""
    state = hw_state(6)
    seat = GAME.pending(state)[0].seat
    favourite = canonical(GAME.legal(state, seat)[-1])
    assert favourite == canonical({"type": "end_year"})

    def prior(game: Any, state: Any, seat: Seat, legal: Sequence[Move], rng: Rng) -> list[float]:
        return [1.0 if canonical(m) == favourite else 0.0 for m in legal]

    def visits(weight: float | None) -> tuple[int, int]:
        hooks = dataclasses.replace(hooks_for(GAME), prior=prior, prior_depth=1, prior_visits=weight)
        _, root = search(hooks, state, seat, 60, Rng(3))
        edges = root.edges[seat, ()]
        return edges[favourite].visits, sum(edge.visits for edge in edges.values())

    heavy, all_heavy = visits(1000.0)
    light, all_light = visits(None)
    assert heavy == all_heavy and light < all_light / 2
    assert dataclasses.replace(hooks_for(GAME), prior_visits=1000.0).label(3).endswith(", prior to depth 1 worth 1000")
