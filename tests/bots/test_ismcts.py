"""ISMCTS on the test game: strength against random, determinism, and no cheating."""

from __future__ import annotations

from typing import Any

import pytest

from ludoteca.bots import BotContext, Budget, ISMCTSBot, RandomBot
from ludoteca.bots.playout import play_match
from ludoteca.bots.series import run_series
from ludoteca.engine import Game, Rng, canonical
from ludoteca.games import load


@pytest.fixture(scope="module")
def game() -> Game[Any]:
    return load("sealedbids")


def test_ismcts_beats_random_two_seats(game: Game[Any]) -> None:
    # Measured about 89% over 40 games at 200 iterations; random against random is 50%.
    result = run_series(game, 2, [ISMCTSBot(Budget(iterations=150)), RandomBot()], games=24, seed=100)
    assert result.entries[0].win_share >= 0.7, result.to_json()


def test_ismcts_max_n_beats_random_three_seats(game: Game[Any]) -> None:
    # Three seats decide at once every round; measured about 73% against a 1/3 baseline.
    bots = [ISMCTSBot(Budget(iterations=150)), RandomBot(), RandomBot()]
    result = run_series(game, 3, bots, games=18, seed=200)
    assert result.entries[0].win_share >= 0.5, result.to_json()


def test_same_seed_and_iterations_same_game(game: Game[Any]) -> None:
    def record() -> list[Any]:
        bots = [ISMCTSBot(Budget(iterations=60)), ISMCTSBot(Budget(iterations=40))]
        return play_match(game, 2, None, 5, bots).record().to_json()["moves"]

    assert record() == record()


def test_seconds_budget_stops_and_is_capped_by_the_context(game: Game[Any]) -> None:
    bot = ISMCTSBot(Budget(seconds=30.0))
    state = game.setup(2, None, 1)
    ctx = BotContext(game, state, 0, Rng(1), Budget(iterations=25))
    move = bot.choose(ctx)
    assert canonical(move) in {canonical(m) for m in ctx.legal}
    assert bot.stats.iterations == 25


class _Poisoned(BotContext):
    """A context whose true state cannot be read by the bot: only view, legal and sample
    reach it. Reading ``ctx._state`` fails the test."""

    __slots__ = ("_hidden",)

    @property  # type: ignore[override]
    def _state(self) -> Any:
        raise AssertionError("the bot read the true state")

    @_state.setter
    def _state(self, value: Any) -> None:
        self._hidden = value

    @property
    def view(self) -> dict[str, Any]:
        return self.game.view(self._hidden, self.seat)

    def sample(self) -> Any:
        return self.game.determinize(self._hidden, self.seat, self.rng)


class _Oracle(_Poisoned):
    """A cheating context: its samples are the true state. The negative control."""

    __slots__ = ()

    def sample(self) -> Any:
        return self.game.clone(self._hidden)


def _after_opponent_bid(game: Game[Any], card: str) -> Any:
    state = game.setup(2, None, 3)
    game.apply(state, 1, {"type": "bid", "card": card})
    return state


def _choices(game: Game[Any], state: Any, context: type[BotContext], seeds: range) -> dict[str, int]:
    counts: dict[str, int] = {}
    for seed in seeds:
        ctx = context(game, state, 0, Rng(seed), Budget(iterations=80))
        key = canonical(ISMCTSBot().choose(ctx))
        counts[key] = counts.get(key, 0) + 1
    return counts


def _distance(a: dict[str, int], b: dict[str, int]) -> float:
    n = sum(a.values())
    return sum(abs(a.get(k, 0) - b.get(k, 0)) for k in set(a) | set(b)) / (2 * n)


def test_decisions_do_not_depend_on_what_the_seat_cannot_see(game: Game[Any]) -> None:
    # Seat 1 has bid its 5 in one world and its 1 in the other; seat 0 sees the same view.
    high, low = _after_opponent_bid(game, "c1-5"), _after_opponent_bid(game, "c1-1")
    assert game.view(high, 0) == game.view(low, 0)
    before = game.to_json(high)
    seeds = range(30)
    fair = _distance(_choices(game, high, _Poisoned, seeds), _choices(game, low, _Poisoned, seeds))
    assert game.to_json(high) == before, "the bot changed the true state"
    # The same distribution up to sampling noise (30 decisions each)...
    assert fair <= 0.35, fair
    # ...whereas a bot that saw the true state answers each world differently.
    cheat = _distance(_choices(game, high, _Oracle, seeds), _choices(game, low, _Oracle, seeds))
    assert cheat >= 0.6, cheat
    assert cheat > fair + 0.3
