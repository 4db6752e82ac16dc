"""Planted mistakes: for each game, positions where one move is clearly worse by
the numbered rules (docs/rules/<game>.md), taken from seeded games of greedy bots
(tests/bots/data/review_planted.json: the record, the seat, the move's index, the two
moves). The review labels the worse move a mistake or a blunder, and the clearly better
one neither."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from ludoteca.bots.review import ReviewBudget, judge
from ludoteca.engine import Match, MatchRecord, canonical
from ludoteca.games import load

POSITIONS = json.loads((Path(__file__).parent / "data" / "review_planted.json").read_text(encoding="utf-8"))
BUDGETS = {"hadrianswall": ReviewBudget(search=100, evaluate=32)}
BUDGET = ReviewBudget(search=200, evaluate=48)


def _state(position: dict[str, Any]) -> tuple[Any, Any]:
    record = MatchRecord.from_json(position["record"])
    game = load(record.game)
    match = Match.new(record.game, record.seats, record.options, record.seed, game=game)
    for played in record.moves[:position["index"]]:
        match.play(played.seat, played.move)
    return game, match.state


def _name(position: dict[str, Any]) -> str:
    rule = position["rule"].split(":")[0]
    return f"{position['game']}-{rule}-{position['index']}"


@pytest.mark.parametrize("position", POSITIONS, ids=[_name(p) for p in POSITIONS])
def test_planted_mistake_is_caught(position: dict[str, Any]) -> None:
    game, state = _state(position)
    seat = position["seat"]
    legal = {canonical(m) for m in game.legal(state, seat)}
    assert canonical(position["bad"]) in legal and canonical(position["good"]) in legal
    budget = BUDGETS.get(game.id, BUDGET)
    # The rule that makes the bad move bad, as the position was chosen by it:
    print(position["rule"])
    bad = judge(game, state, seat, position["bad"], budget, 0, position["index"])
    good = judge(game, state, seat, position["good"], budget, 0, position["index"])
    assert bad.label in ("mistake", "blunder"), bad.to_json()
    assert good.label not in ("mistake", "blunder"), good.to_json()
    assert bad.loss_points > good.loss_points
