"""The greedy bot: one turn of lookahead on the game's evaluation. The baseline that a
search bot must beat.

For each legal move, on a few samples of the hidden state (``ctx.sample()``): play the
move, take the seat's next steps greedily when the game splits a choice into steps, let
the other seats of a simultaneous round make theirs (sampled, with the rollout policy),
and score the state with the game's ``evaluate`` hook.

The other seats finish the round only where every move of ours finishes our part of it
(a bid, a drafted card). Where our part goes on for several steps (a year of Hadrian's
Wall), a move that ends it would otherwise be judged after the others had played their
whole part while the moves that do not end it are judged before: two different
measures, and which seat is asked first would decide which one the bot used. Where
they do finish it, every move meets the same sampled choices of theirs (common random
numbers), so what tells two moves apart is the moves, not the others' dice.
A game without that hook is scored by playouts instead (flat Monte Carlo), so the bot
is still better than random everywhere.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

from ludoteca.engine import Game, Move, Rng, Seat

from .base import Bot, BotContext
from .hooks import GameHooks, hooks_for, register_prior


class GreedyBot(Bot):
    """``samples`` determinizations per decision; ``chain`` caps how many of its own
    further steps a turn may take in the lookahead; ``playouts`` is the number of playouts
    per move and sample when the game has no evaluation."""

    name = "greedy"

    def __init__(self, samples: int = 4, chain: int = 6, playouts: int = 2, name: str | None = None) -> None:
        self.samples = samples
        self.chain = chain
        self.playouts = playouts
        if name:
            self.name = name

    def choose(self, ctx: BotContext) -> Move:
        if len(ctx.legal) == 1:
            return ctx.legal[0]
        totals = self.move_values(ctx)
        best = max(totals)
        # Equal values are common (a step that changes nothing visible yet): pick among
        # them at random rather than always the first listed.
        tied = [i for i, total in enumerate(totals) if total >= best - 1e-9]
        return ctx.legal[tied[ctx.rng.below(len(tied))]]

    def move_values(self, ctx: BotContext) -> list[float]:
        """The value of each of ``ctx.legal``, summed over the samples (the budget's
        deadline may stop them after the first)."""
        game, seat = ctx.game, ctx.seat
        hooks = hooks_for(game)
        deadline = ctx.budget.deadline()
        totals = [0.0] * len(ctx.legal)
        for sample_number in range(self.samples):
            for i, value in enumerate(self.values_on(game, hooks, ctx.sample(), seat, ctx.legal, ctx.rng)):
                totals[i] += value
            if deadline is not None and sample_number and time.perf_counter() >= deadline:
                break
        return totals

    def values_on(self, game: Game[Any], hooks: GameHooks, state: Any, seat: Seat, legal: Sequence[Move],
                  rng: Rng) -> list[float]:
        """The value of each of ``legal`` on one full state (a sample; left unchanged)."""
        # Seats deciding in the same simultaneous round as ours: the lookahead lets
        # them choose too (their choices are sampled), so the round resolves before
        # the evaluation; judging a bid before the bids are compared would be blind.
        others = {d.seat for d in game.pending(state)} - {seat}
        afters = []
        for move in legal:
            after = game.clone(state)
            game.perform(after, seat, move)
            afters.append(after)
        return self._values(game, hooks, afters, seat, others, rng)

    def _values(self, game: Game[Any], hooks: GameHooks, states: list[Any], seat: Seat, others: set[Seat],
                rng: Rng) -> list[float]:
        """The value of each state reached by one of our moves, all on the same footing."""
        if hooks.evaluate is None:
            return [self._playouts(game, hooks, state, seat, rng) for state in states]
        round_seats = others | {seat}
        states = [self._own_steps(game, hooks, state, seat, round_seats) for state in states]
        if others and all(self._round_left_to(game, state, others) for state in states):
            # Common random numbers: every move is judged against the same sampled choices
            # of the others (as far as its own state lets them be the same). With dice of
            # their own, the others' sampled years in Hadrian's Wall outweighed the
            # difference between our last fills, and the seats asked first played worst.
            round_rng = rng.fork()
            for state in states:
                self._finish_round(game, hooks, state, others, round_rng.copy())
        return [self._score(game, hooks, state, seat) for state in states]

    def _own_steps(self, game: Game[Any], hooks: GameHooks, state: Any, seat: Seat, round_seats: set[Seat]) -> Any:
        """Up to ``chain`` more steps of ours, each the best next one, while the same seat
        decides again within the round: a compound choice is judged whole, so a good first
        step is not judged by a bad second."""
        steps = 0
        while game.result(state) is None and steps < self.chain:
            now = [d.seat for d in game.pending(state)]
            if seat not in now or not set(now) <= round_seats:
                break
            best_value: float | None = None
            best_state = state
            for move in game.legal(state, seat):
                after = game.clone(state)
                game.perform(after, seat, move)
                value = self._score(game, hooks, after, seat)
                if best_value is None or value > best_value:
                    best_value, best_state = value, after
            state = best_state
            steps += 1
        return state

    @staticmethod
    def _round_left_to(game: Game[Any], state: Any, others: set[Seat]) -> bool:
        """Only other seats of the round are still to decide in it: our part is over."""
        if game.result(state) is not None:
            return True
        now = {d.seat for d in game.pending(state)}
        return bool(now) and now <= others

    @staticmethod
    def _finish_round(game: Game[Any], hooks: GameHooks, state: Any, others: set[Seat], rng: Rng) -> None:
        """The other seats of the simultaneous round make their choices (sampled, with the
        rollout policy), so the round resolves before the evaluation."""
        steps = 0
        while others and game.result(state) is None and steps < game.max_moves:
            now = [d.seat for d in game.pending(state)]
            if not now or not set(now) <= others:
                break
            who = now[0]
            game.perform(state, who, hooks.rollout_move(game, state, who, game.legal(state, who), rng))
            steps += 1

    @staticmethod
    def _score(game: Game[Any], hooks: GameHooks, state: Any, seat: Seat) -> float:
        result = game.result(state)
        if result is not None:
            return float(hooks.rewards(game, result)[seat])
        assert hooks.evaluate is not None
        return float(hooks.evaluate(game, state)[seat])

    def _playouts(self, game: Game[Any], hooks: GameHooks, state: Any, seat: Seat, rng: Rng) -> float:
        total = 0.0
        for _ in range(self.playouts):
            play = game.clone(state)
            moves = 0
            while (result := game.result(play)) is None:
                who = game.pending(play)[0].seat
                game.perform(play, who, hooks.rollout_move(game, play, who, game.legal(play, who), rng))
                moves += 1
                if moves > game.max_moves:
                    raise RuntimeError(f"{game.id}: no result after {game.max_moves} playout moves")
            total += float(hooks.rewards(game, result)[seat])
        return total / self.playouts


def greedy_prior(chain: int = 6) -> Callable[[Game[Any], Any, Seat, Sequence[Move], Rng], list[float]]:
    """A ``prior`` hook (ludoteca.bots.hooks) made of the greedy bot's one-ply values on the
    search's own sample: each move, then up to ``chain`` more steps of the same seat taken
    greedily, scored by the game's ``evaluate``. Where a turn is many small steps, the
    value of the state right after a step misjudges it (a box that opens a better one);
    and where the other seats are greedy bots, their moves are ranked as they rank them."""
    bot = GreedyBot(samples=1, chain=chain)

    def prior(game: Game[Any], state: Any, seat: Seat, legal: Sequence[Move], rng: Rng) -> list[float]:
        return bot.values_on(game, hooks_for(game), state, seat, legal, rng)

    return prior


register_prior("greedy", greedy_prior)
