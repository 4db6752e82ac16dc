"""The worked example of docs/rl.md: policy-gradient training runs and learns from its
games; docs/rl.md lists the layouts the code builds."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from ludoteca.bots.series import wilson as series_wilson
from ludoteca.rl import encoder
from ludoteca.rl.train import LinearPolicy, evaluate, moving, train, wilson
from ludoteca.rl.vocab import GAMES, game_module

DOCUMENTED = [g for g in GAMES if game_module(g).__name__.startswith("ludoteca.games.")]
"""The games of this project; a game from elsewhere (the test game) documents itself."""

DOCS = Path(__file__).resolve().parents[2] / "docs" / "rl.md"


def test_a_few_episodes_of_training_change_the_policy() -> None:
    policy, wins, summary = train("bloodrage", 2, minutes=5, seed=3, max_episodes=4)
    untrained = LinearPolicy(policy.w.shape[1], policy.w.shape[0], 3)
    assert summary["episodes"] == 4 and len(wins) == 4
    assert all(w in (0.0, 0.5, 1.0) for w in wins)
    assert summary["features"] == encoder("bloodrage", 2).size
    if any(w != 0.5 for w in wins):  # a decided game moves the weights
        assert not np.array_equal(policy.w, untrained.w)
    result = evaluate(policy, "bloodrage", 2, games=2)
    assert result["games"] == 2 and 0.0 <= result["win_share"] <= 1.0


def test_masked_policy_never_picks_an_illegal_action() -> None:
    policy = LinearPolicy(4, 6, seed=0)
    policy.w[5] = 100.0  # the best-looking action is masked out
    mask = np.array([0, 1, 0, 1, 0, 0], dtype=np.int8)
    p = policy.probabilities(np.ones(4, dtype=np.float32), mask)
    assert p[mask == 0].sum() == 0 and p.sum() == pytest.approx(1.0)
    rng = np.random.default_rng(0)
    assert {policy.act(np.ones(4, dtype=np.float32), mask, rng) for _ in range(20)} <= {1, 3}


def test_helpers() -> None:
    assert moving([1, 0, 1, 1], 2) == [1.0, 0.5, 0.5, 1.0]
    assert wilson(7, 10) == pytest.approx(series_wilson(7, 10))


@pytest.mark.parametrize("game_id", DOCUMENTED)
def test_docs_list_each_games_layout(game_id: str) -> None:
    """Every slice's name and meaning is in docs/rl.md (its offsets are those of the data
    version the docs name: `python -m ludoteca.rl.describe` prints the current ones)."""
    docs = DOCS.read_text(encoding="utf-8")
    section = docs[docs.index(f"(`{game_id}`)"):]
    for part in encoder(game_id, 2).layout.parts:
        assert f"| `{part.name}` [" in section and f"| {part.doc} |" in section, part.name
