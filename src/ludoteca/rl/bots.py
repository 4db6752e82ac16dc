"""OpenSpiel's search bots as Ludoteca bots, through the OpenSpiel adapter.

- ``openspiel-ismcts``: OpenSpiel's IS-MCTS (``open_spiel.python.algorithms.ismcts``)
  with random-rollout evaluation, UCT constant 2, the most visited action. It searches
  the seat's information states; every simulation starts from a fresh resample of what
  the seat cannot see (the game's ``determinize``), as our own ISMCTS does.
- ``openspiel-mcts``: OpenSpiel's MCTS (``open_spiel.python.algorithms.mcts``), a
  perfect-information search, run on one determinization of the seat's view per decision
  (it never sees the true hidden state).

Both think for the budget the caller gives (``--seconds`` / ``--iterations`` in
``ludoteca series``), else 1 second per decision. Importing this module registers
them with ``ludoteca.bots``; it needs the ``rl`` extra.
"""

from __future__ import annotations

import time
from functools import cache
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from ludoteca.bots.base import Bot, BotContext, register_bot
from ludoteca.bots.ismcts import SearchStats
from ludoteca.engine import Game, Move, Rng, canonical

from .openspiel import LudotecaGame, LudotecaState, _Match, short_name
from .vocab import full_options, game_module

DEFAULT_SECONDS = 1.0
UCT_C = 2.0


class _OutOfTime(Exception):
    pass


@cache
def _spiel_game(game_id: str, seats: int, options_key: str) -> LudotecaGame:
    import json

    params: dict[str, Any] = {"players": seats, **json.loads(options_key)}
    game: LudotecaGame = pyspiel.load_game(short_name(game_id), params)
    return game


def spiel_state(game: Game[Any], seats: int, options: dict[str, Any], state: Any, seed: int) -> LudotecaState:
    """An OpenSpiel state around an engine state (a determinization: the bot's own
    sample); ``seed`` seeds the resampling of what the seat cannot see."""
    spiel = _spiel_game(game.id, seats, canonical(options))
    root: LudotecaState = spiel.new_initial_state()
    root._match = _Match(game, state)
    root._seen = [b"root-%d" % p for p in range(seats)]
    root._rng = Rng(seed)
    return root


def _seed(ctx: BotContext) -> int:
    return ctx.rng.next64() & 0xFFFFFFFF


class _Clock:
    """Stops a search at its deadline, between two simulations, after at least two (the
    first only expands the root)."""

    def __init__(self, ctx: BotContext) -> None:
        budget = ctx.budget
        self.limit = budget.iterations
        seconds = budget.seconds if budget.seconds is not None else (None if self.limit else DEFAULT_SECONDS)
        self.started = time.perf_counter()
        self.deadline = None if seconds is None else self.started + seconds
        self.simulations = 0

    def tick(self) -> None:
        if self.simulations >= 2 and (
                (self.limit is not None and self.simulations >= self.limit)
                or (self.deadline is not None and time.perf_counter() >= self.deadline)):
            raise _OutOfTime
        self.simulations += 1


class OpenSpielISMCTSBot(Bot):
    name = "openspiel-ismcts"

    def __init__(self) -> None:
        self.stats = SearchStats()

    def _search_setup(self, ctx: BotContext) -> tuple[_Clock, Any, Any, Any, Any]:
        """The decision's clock, the root (one resample of the seat's view), its game, the
        generator and the random-rollout evaluator both OpenSpiel searches take."""
        clock = _Clock(ctx)
        root = spiel_state(ctx.game, *setup_of(ctx), ctx.sample(), _seed(ctx))
        random_state = np.random.RandomState(_seed(ctx))
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=random_state)
        return clock, root, root.get_game(), random_state, evaluator

    def choose(self, ctx: BotContext) -> Move:
        if len(ctx.legal) == 1:
            return ctx.legal[0]
        clock, root, game, random_state, evaluator = self._search_setup(ctx)
        bot = ismcts.ISMCTSBot(game, evaluator, UCT_C, max_simulations=1 << 40, random_state=random_state)

        def resample(state: LudotecaState, player: int) -> LudotecaState:
            clock.tick()
            return state.resample_from_infostate(player)

        bot.set_resampler(resample)
        try:
            policy = bot.run_search(root)
        except _OutOfTime:
            policy = bot.get_final_policy(root, bot._root_node)
        action = max(policy, key=lambda pair: pair[1])[0]
        self._count(clock)
        return game.vocab.resolve(action, ctx.legal)

    def _count(self, clock: _Clock) -> None:
        self.stats.decisions += 1
        self.stats.iterations += clock.simulations
        self.stats.seconds += time.perf_counter() - clock.started


class _TimedMCTS(mcts.MCTSBot):  # type: ignore[misc]
    """OpenSpiel's MCTS, stopped by a clock between two simulations."""

    def __init__(self, *args: Any, clock: _Clock, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.clock = clock
        self.root: Any = None

    def _apply_tree_policy(self, root: Any, state: Any) -> Any:
        self.clock.tick()
        self.root = root
        return super()._apply_tree_policy(root, state)


class OpenSpielMCTSBot(OpenSpielISMCTSBot):
    name = "openspiel-mcts"

    def choose(self, ctx: BotContext) -> Move:
        if len(ctx.legal) == 1:
            return ctx.legal[0]
        clock, root, game, random_state, evaluator = self._search_setup(ctx)
        bot = _TimedMCTS(game, UCT_C, 1 << 40, evaluator, random_state=random_state, clock=clock)
        try:
            action = bot.step(root)
        except _OutOfTime:
            action = bot.root.best_child().action
        self._count(clock)
        return game.vocab.resolve(action, ctx.legal)


def setup_of(ctx: BotContext) -> tuple[int, dict[str, Any]]:
    """The match's seat count and options, read from the seat's view (they are public)."""
    seats, options = game_module(ctx.game.id).setup_of(ctx.view)
    return seats, full_options(ctx.game.id, seats, options)


# For the series only: a table's seat takes Ludoteca's own bots (see seatable_bot_names).
register_bot(OpenSpielISMCTSBot.name, OpenSpielISMCTSBot, seatable=False)
register_bot(OpenSpielMCTSBot.name, OpenSpielMCTSBot, seatable=False)
