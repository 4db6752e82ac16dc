"""The post-game review's budget and thresholds are each game's knowledge, declared in its
bot hooks (REVIEW_ITERATIONS, REVIEW_POINTS); the review itself names no game."""

from __future__ import annotations

import inspect

import pytest

from ludoteca.bots import review
from ludoteca.bots.review import (
    DEFAULT_BUDGET,
    DEFAULT_POINTS,
    RANK_THRESHOLDS,
    ReviewBudget,
    budget_for,
    thresholds_for,
)
from ludoteca.games import available

GAMES = ("bloodrage", "crusaders", "hadrianswall", "iwari")

# What each game's review used before the numbers moved into the games: unchanged.
KNOWN = {
    "iwari": ((800, 200), (2.0, 4.0, 7.0)),
    "bloodrage": ((300, 80), (4.0, 8.0, 15.0)),
    "crusaders": ((800, 200), (3.0, 5.0, 10.0)),
    "hadrianswall": ((200, 50), (3.0, 6.0, 12.0)),
}


@pytest.mark.parametrize("game_id", GAMES)
def test_each_game_states_its_review_budget_and_thresholds(game_id: str) -> None:
    (search, evaluate), points = KNOWN[game_id]
    assert budget_for(game_id) == ReviewBudget(search=search, evaluate=evaluate)
    thresholds = thresholds_for(game_id)
    assert thresholds.points == points and thresholds.rank == RANK_THRESHOLDS


@pytest.mark.parametrize("game_id", ["sealedbids", "no-such-game"])
def test_a_game_without_the_hooks_gets_the_defaults(game_id: str) -> None:
    assert budget_for(game_id) == DEFAULT_BUDGET
    assert thresholds_for(game_id).points == DEFAULT_POINTS


def test_the_review_names_no_game() -> None:
    source = inspect.getsource(review)
    assert [game_id for game_id in {*GAMES, *available()} if game_id in source] == []
