"""Every game's bot hooks are found in its own package, whole."""

from __future__ import annotations

import importlib

import pytest

from ludoteca.bots import hooks_for
from ludoteca.games import load

GAMES = ("bloodrage", "crusaders", "hadrianswall", "iwari")


@pytest.mark.parametrize("game_id", GAMES)
def test_the_hooks_are_found_in_the_games_own_ai_module(game_id: str) -> None:
    ai = importlib.import_module(f"ludoteca.games.{game_id}.ai")
    hooks = hooks_for(load(game_id))
    assert hooks.source == f"ludoteca.games.{game_id}.ai"
    assert hooks.rollout_policy is ai.rollout_policy and hooks.evaluate is ai.evaluate
    assert hooks.rollout_depth == ai.ROLLOUT_DEPTH > 0
