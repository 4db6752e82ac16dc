"""Per-game hooks, the greedy bot, the rewards and the levels."""

from __future__ import annotations

import sys
import types
from typing import Any

import pytest
from sealedbids import value

from ludoteca.bots import (
    LEVELS,
    BotContext,
    Budget,
    GameHooks,
    GreedyBot,
    ISMCTSBot,
    RandomBot,
    bot_names,
    default_reward,
    hooks_for,
    make_bot,
    register_hooks,
)
from ludoteca.bots.hooks import estimate_from_points, unregister_hooks
from ludoteca.bots.series import lineup, run_series, wilson
from ludoteca.engine import Game, Result, Rng, canonical
from ludoteca.games import load


@pytest.fixture()
def game() -> Game[Any]:
    game = load("sealedbids")
    yield game
    unregister_hooks(game.id)


def test_default_reward_win_share_and_solo() -> None:
    game: Any = None
    two = default_reward(game, Result.ranked([5, 3]))
    assert two[0] > 0.9 > 0.1 > two[1] >= 0
    tie = default_reward(game, Result.ranked([4, 4, 1]))
    assert tie[0] == tie[1] == pytest.approx(0.9 / 2 + 0.1) and tie[2] == 0
    assert default_reward(game, Result.ranked([42])) == [42.0]


def test_estimate_from_points() -> None:
    values = estimate_from_points([30, 20, 20], spread=5)
    assert values[0] > 0.8 and values[1] == values[2] < 0.1
    assert sum(values) == pytest.approx(0.9 + 0.1 * 1)
    assert estimate_from_points([7, 7], spread=3) == pytest.approx([0.5, 0.5])
    assert estimate_from_points([12], spread=3) == [12.0]


def test_no_hooks_fall_back_to_defaults(game: Game[Any]) -> None:
    hooks = hooks_for(game)
    assert hooks.rollout_policy is None and hooks.evaluate is None and hooks.source == "default"


def test_hook_module_in_the_game_package_is_found(game: Game[Any], monkeypatch: pytest.MonkeyPatch) -> None:
    module = types.ModuleType("ludoteca.games.sealedbids.ai")
    module.ROLLOUT_DEPTH = 2  # type: ignore[attr-defined]
    module.evaluate = lambda g, s: [0.5] * s.seats  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "ludoteca.games.sealedbids.ai", module)
    unregister_hooks(game.id)
    hooks = hooks_for(game)
    assert hooks.source == "ludoteca.games.sealedbids.ai" and hooks.rollout_depth == 2
    assert hooks.evaluate is not None and hooks.rollout_policy is None


def _points(g: Any, state: Any) -> list[float]:
    """A leaf evaluation for the test game: the share of points, plus cards in hand."""
    totals = [p + 0.1 * sum(value(c) for c in hand) for p, hand in zip(state.points, state.hands, strict=True)]
    whole = sum(totals) or 1.0
    return [t / whole for t in totals]


def test_search_and_greedy_use_the_hooks(game: Game[Any]) -> None:
    calls = {"policy": 0, "evaluate": 0}

    def policy(g: Any, state: Any, seat: int, legal: list[Any], rng: Rng) -> Any:
        calls["policy"] += 1
        return legal[-1]

    def evaluate(g: Any, state: Any) -> list[float]:
        calls["evaluate"] += 1
        return _points(g, state)

    register_hooks(game.id, GameHooks(rollout_policy=policy, evaluate=evaluate, rollout_depth=1))
    state = game.setup(2, None, 4)
    legal_keys = {canonical(m) for m in game.legal(state, 0)}
    move = ISMCTSBot(Budget(iterations=50)).choose(BotContext(game, state, 0, Rng(1)))
    assert canonical(move) in legal_keys and calls["evaluate"] > 0 and calls["policy"] > 0
    calls["evaluate"] = 0
    move = GreedyBot().choose(BotContext(game, state, 0, Rng(1)))
    assert canonical(move) in legal_keys and calls["evaluate"] > 0


def test_greedy_beats_random(game: Game[Any]) -> None:
    # Without an evaluation hook the greedy bot scores moves by a few playouts.
    result = run_series(game, 2, [GreedyBot(), RandomBot()], games=30, seed=300)
    assert result.entries[0].win_share >= 0.65, result.to_json()
    register_hooks(game.id, GameHooks(evaluate=_points))
    result = run_series(game, 2, [GreedyBot(), RandomBot()], games=30, seed=300)
    assert result.entries[0].win_share >= 0.6, result.to_json()


def test_levels_are_registered_and_play_legal_moves(game: Game[Any]) -> None:
    names = bot_names()
    for level in LEVELS:
        assert level.name in names and level.description
    assert {"random", "greedy", "ismcts", "easy", "normal", "hard"} <= set(names)
    state = game.setup(3, None, 2)
    for name in ("easy", "normal", "hard", "greedy", "ismcts"):
        bot = make_bot(name)
        assert bot.name == name
        # The caller's budget caps the levels' seconds, so this stays fast.
        ctx = BotContext(game, state, 0, Rng(0), Budget(iterations=20, seconds=0.5))
        assert canonical(bot.choose(ctx)) in {canonical(m) for m in ctx.legal}


def test_lineup_and_wilson() -> None:
    assert lineup(["hard", "greedy"], 4) == ["hard", "greedy", "greedy", "greedy"]
    assert lineup(["random"], 1) == ["random"]
    with pytest.raises(ValueError):
        lineup(["a", "b", "c"], 2)
    with pytest.raises(ValueError):
        lineup([" "], 2)
    low, high = wilson(50, 100)
    assert low < 0.5 < high and high - low == pytest.approx(0.192, abs=0.01)
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0
