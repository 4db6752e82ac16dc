"""The ``OTHERS_BY_POLICY`` hook (docs/bots.md): in a decision the game calls simultaneous,
ISMCTS plays the other seats' steps by the rollout policy and its tree follows the
searching seat's own steps only. Measured on Hadrian's Wall, where the seats' sheets
barely touch, and left off there (docs/bots.md): these tests turn it on themselves."""

from __future__ import annotations

import dataclasses
from typing import Any

from ludoteca.bots import Budget, ISMCTSBot
from ludoteca.bots.base import BotContext
from ludoteca.bots.hooks import GameHooks, hooks_for
from ludoteca.bots.ismcts import Node, _Search
from ludoteca.engine import Game, Rng, canonical
from ludoteca.games import load


def _year_decision(game: Game[Any]) -> BotContext:
    """A 3-seat decision inside a year, with other seats choosing at the same time, for a
    seat that is not the first pending: the search plays the seats before it first (the
    engine's pending order), so searched in full their steps would key our children."""
    rng = Rng(3)
    state = game.setup(3, None, 3)
    for _ in range(400):
        pending = game.pending(state)
        if game.simultaneous(state) is not None and len(pending) > 1 and len(game.legal(state, pending[0].seat)) > 3:
            return BotContext(game, state, pending[-1].seat, Rng(4))
        seat = pending[0].seat
        game.perform(state, seat, rng.choice(game.legal(state, seat)))
    raise AssertionError("no simultaneous decision found")


def _tree(game: Game[Any], ctx: BotContext, hooks: GameHooks, iterations: int = 60) -> Node:
    root = Node()
    search = _Search(game, hooks, Rng(5), 0.7, ctx.seat, 3.0)
    for _ in range(iterations):
        search.iterate(root, ctx.sample())
    return root


def _seats_in(node: Node) -> set[int]:
    seen: set[int] = set()
    for (seat, _steps) in node.edges:
        seen.add(seat)
    for joint, child in node.children.items():
        seen.update(seat for seat, _move in joint)
        seen |= _seats_in(child)
    return seen


def test_the_hook_is_read_from_the_game_module_and_named_in_the_label() -> None:
    game = load("hadrianswall")
    assert hooks_for(game).others_by_policy is False
    # Without the prior hook, which the label names too (tests/bots/test_ismcts_prior.py).
    hooks = dataclasses.replace(hooks_for(game), prior=None)
    on = dataclasses.replace(hooks, others_by_policy=True)
    assert on.label(3) == f"{hooks.source}, others by policy"
    # One seat has no others: the same bot, the same label.
    assert on.label(1) == hooks.label(1) == hooks.source


def test_with_the_hook_the_tree_holds_only_the_searching_seats_steps_in_a_year() -> None:
    game = load("hadrianswall")
    ctx = _year_decision(game)
    on = _tree(game, ctx, dataclasses.replace(hooks_for(game), others_by_policy=True))
    off = _tree(game, ctx, dataclasses.replace(hooks_for(game), others_by_policy=False))
    # The control: searched in full, the other seats' steps are in the tree too.
    assert _seats_in(off) > {ctx.seat}
    # Later phases (the attack, the next year) may be sequential and are searched for all;
    # the root's own decision and everything below it in this year holds only our steps.
    assert set(seat for seat, _steps in on.edges) == {ctx.seat}
    for joint in on.children:
        assert {seat for seat, _move in joint} <= {ctx.seat}, joint


def test_with_the_hook_the_bot_stays_legal_and_reproducible() -> None:
    game = load("hadrianswall")
    ctx = _year_decision(game)
    state = ctx.sample()

    hooks = dataclasses.replace(hooks_for(game), others_by_policy=True)

    def choice() -> str:
        fresh = BotContext(game, game.clone(state), ctx.seat, Rng(9))
        return canonical(ISMCTSBot(Budget(iterations=40), hooks=hooks).choose(fresh))

    first = choice()
    assert first == choice()
    assert first in {canonical(m) for m in ctx.legal}
