"""The PettingZoo AEC environment: PettingZoo's own api_test for every game at every
seat count, whole games with rewards that sum to 0, rendering, refusals."""

from __future__ import annotations

import contextlib
import io
import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test

from ludoteca.games import load
from ludoteca.rl.pettingzoo import LudotecaEnv, env
from ludoteca.rl.vocab import GAMES

CONFIGS = [(g, n) for g in GAMES for n in range(load(g).min_seats, load(g).max_seats + 1)]


@pytest.mark.parametrize(("game_id", "players"), CONFIGS)
def test_pettingzoo_api_test_passes(game_id: str, players: int) -> None:
    with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()) as printed:
        # api_test warns that a dict observation is "not a NumPy array": the action-mask
        # convention of PettingZoo's own classic games does the same
        warnings.simplefilter("ignore")
        api_test(env(game_id, players, seed=players, render_mode="ansi"), num_cycles=300)
    assert "Passed API test" in printed.getvalue()


def _play(e: LudotecaEnv, rng: np.random.Generator) -> dict[str, float]:
    totals: dict[str, float] = {}
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _info = e.last()
        totals[agent] = totals.get(agent, 0.0) + reward
        action = None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"])))
        e.step(action)
    return totals


@pytest.mark.parametrize(("game_id", "players"), [("iwari", 3), ("bloodrage", 2), ("hadrianswall", 2),
                                                  ("crusaders", 2), ("hadrianswall", 1)])
def test_a_whole_game_ends_with_ranking_rewards(game_id: str, players: int) -> None:
    e = env(game_id, players, seed=4, render_mode="ansi")
    e.reset()
    totals = _play(e, np.random.default_rng(0))
    assert set(totals) == set(e.possible_agents)
    result = load(game_id).result(e.state)
    assert result is not None
    if players > 1:
        assert sum(totals.values()) == pytest.approx(0.0)
        best = min(range(players), key=lambda s: result.ranks[s])
        assert totals[f"player_{best}"] == max(totals.values())
    else:
        assert -1.0 <= totals["player_0"] <= 1.0
    assert e.render()


def test_same_seed_same_matches() -> None:
    a, b = env("iwari", 2, seed=9), env("iwari", 2, seed=9)
    a.reset()
    b.reset()
    assert a.match_seed == b.match_seed
    a.reset(seed=1)
    b.reset(seed=1)
    assert a.match_seed == b.match_seed
    assert np.array_equal(a.observe("player_0")["observation"], b.observe("player_0")["observation"])


def test_observation_matches_the_seats_view_and_mask() -> None:
    e = env("bloodrage", 3, seed=2)
    e.reset()
    agent = e.agent_selection
    seat = e.seat_of[agent]
    obs = e.observe(agent)
    assert np.array_equal(obs["observation"], e.encoder.encode(e.game.view(e.state, seat)))
    legal = e.game.legal(e.state, seat)
    assert sorted(np.flatnonzero(obs["action_mask"])) == e.vocab.legal_indices(legal)
    assert e.observation_space(agent).contains(obs)


def test_illegal_action_and_bad_render_mode_are_refused() -> None:
    with pytest.raises(ValueError, match="render_mode"):
        env("iwari", 2, render_mode="human")
    e = env("iwari", 2, seed=1)
    e.reset()
    before = e.game.to_json(e.state)
    mask = e.observe(e.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(ValueError, match="not legal now"):
        e.step(illegal)
    assert e.game.to_json(e.state) == before
    assert e.render() is None
