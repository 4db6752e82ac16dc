"""OpenSpiel's IS-MCTS and MCTS as Ludoteca bots: they decide from a seat's view within
their budget, and the series accepts them by name."""

from __future__ import annotations

from typing import Any

import pytest

from ludoteca.bots.base import BotContext, Budget
from ludoteca.bots.series import OPENSPIEL_BOTS, opponent
from ludoteca.engine import Rng
from ludoteca.games import load


def _midgame(game_id: str, seats: int, steps: int) -> tuple[Any, Any]:
    game = load(game_id)
    state = game.setup(seats, None, seed=8)
    rng = Rng(8)
    for _ in range(steps):
        seat = game.pending(state)[0].seat
        game.perform(state, seat, rng.choice(game.legal(state, seat)))
    return game, state


@pytest.mark.parametrize("name", OPENSPIEL_BOTS)
@pytest.mark.parametrize(("game_id", "steps"), [("bloodrage", 30), ("iwari", 40)])
def test_openspiel_bots_choose_a_legal_move_within_their_budget(name: str, game_id: str, steps: int) -> None:
    game, state = _midgame(game_id, 2, steps)
    bot = opponent(name)
    seat = game.pending(state)[0].seat
    before = game.to_json(state)
    ctx = BotContext(game, state, seat, Rng(1), Budget(iterations=3))
    move = bot.choose(ctx)
    assert move in ctx.legal
    assert game.to_json(state) == before  # the true state is untouched
    assert bot.stats.decisions == 1 and 2 <= bot.stats.iterations <= 3


def test_unknown_opponent_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown bot"):
        opponent("openspiel-alphazero")


def test_series_cli_plays_openspiel_bots() -> None:
    import json

    from typer.testing import CliRunner

    from ludoteca.cli import app

    out = CliRunner().invoke(app, ["series", "bloodrage", "-p", "2", "--bots", "openspiel-ismcts,random",
                                   "-n", "1", "--iterations", "2", "--json"])
    assert out.exit_code == 0, out.output
    result = json.loads(out.stdout)
    assert [entry["bot"] for entry in result["entries"]] == ["openspiel-ismcts", "random"]
    assert result["entries"][0]["decisions"] > 0
