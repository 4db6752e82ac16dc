"""The greedy bot judges every move of a simultaneous round on the same footing, whichever
seat the game asks first (a Hadrian's Wall year: each seat's part is many steps long)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import pytest

from ludoteca.bots import BotContext, GreedyBot
from ludoteca.bots.hooks import GameHooks, register_hooks, unregister_hooks
from ludoteca.engine import Decision, Event, Game, Move, Prompt, Result, Rng, Seat

GATHERS = 3  # a seat's part of the round: up to three "gather" steps, then "rest"


class HarvestState:
    __slots__ = ("done", "gathered", "points")

    def __init__(self, seats: int) -> None:
        self.points = [0] * seats
        self.gathered = [0] * seats
        self.done = [False] * seats


class Harvest(Game[HarvestState]):
    """One simultaneous round: each seat gathers (1 point each, at most three times) and
    then rests (2 points), which ends its part. Nobody's moves touch anybody else's."""

    id = "harvest_test"
    name = "Harvest"
    min_seats = 2
    max_seats = 3
    max_moves = 20

    def new_state(self, seats: int, options: Mapping[str, Any], rng: Rng) -> HarvestState:
        return HarvestState(seats)

    def pending(self, state: HarvestState) -> list[Decision]:
        return [Decision(s, Prompt("harvest.act", {})) for s, done in enumerate(state.done) if not done]

    def legal(self, state: HarvestState, seat: Seat) -> list[Move]:
        if state.done[seat]:
            return []
        return ([{"type": "gather"}] if state.gathered[seat] < GATHERS else []) + [{"type": "rest"}]

    def perform(self, state: HarvestState, seat: Seat, move: Move) -> list[Event]:
        if move["type"] == "gather":
            state.gathered[seat] += 1
            state.points[seat] += 1
        else:
            state.done[seat] = True
            state.points[seat] += 2
        return []

    def view(self, state: HarvestState, seat: Seat | None) -> dict[str, Any]:
        return {"points": state.points, "done": state.done}

    def result(self, state: HarvestState) -> Result | None:
        return Result.ranked(state.points) if all(state.done) else None

    def clone(self, state: HarvestState) -> HarvestState:
        new = HarvestState(len(state.points))
        new.points, new.gathered, new.done = state.points[:], state.gathered[:], state.done[:]
        return new

    def to_json(self, state: HarvestState) -> dict[str, Any]:
        return {"points": state.points, "gathered": state.gathered, "done": state.done}

    def determinize(self, state: HarvestState, seat: Seat, rng: Rng) -> HarvestState:
        return self.clone(state)  # nothing is hidden

    def secrets(self, state: HarvestState) -> dict[Seat | None, set[str]]:
        return {}

    def from_json(self, data: Mapping[str, Any]) -> HarvestState:
        state = HarvestState(len(data["points"]))
        state.points, state.gathered, state.done = list(data["points"]), list(data["gathered"]), list(data["done"])
        return state


def lead(game: Game[Any], state: HarvestState) -> list[float]:
    """Each seat's points less the best other seat's: what a win share turns on."""
    return [p - max(q for s, q in enumerate(state.points) if s != seat) for seat, p in enumerate(state.points)]


@pytest.fixture
def harvest() -> Iterator[Harvest]:
    game = Harvest()
    # The others' rollout policy gathers all it can: played out, a seat still to act
    # ends with 5 points, which a move of ours judged after it would wrongly carry.
    register_hooks(game.id, GameHooks(evaluate=lead, rollout_policy=lambda g, s, seat, legal, rng: legal[0],
                                      source="test"))
    yield game
    unregister_hooks(game.id)


def choice(game: Harvest, state: HarvestState, seat: Seat) -> Move:
    return GreedyBot(samples=1, chain=0).choose(BotContext(game, state, seat, Rng(1)))


def values(game: Harvest, state: HarvestState, seat: Seat) -> list[float]:
    """The greedy bot's value of each of the seat's moves (one sample, no own chain)."""
    return GreedyBot(samples=1, chain=0).move_values(BotContext(game, state, seat, Rng(1)))


def test_the_choice_does_not_depend_on_which_seat_is_asked_first(harvest: Harvest) -> None:
    # Seat 0's sheet is the same twice (two gathers made): once with seat 1 still to act,
    # once with seat 1's part already played. Before the fix, with seat 1 still to act, the
    # rest was judged after seat 1's whole part (a lost game) and the gather before it.
    first = harvest.setup(2, None, 0)
    last = harvest.setup(2, None, 0)
    for _ in range(GATHERS):
        harvest.perform(last, 1, {"type": "gather"})
    harvest.perform(last, 1, {"type": "rest"})
    for state in (first, last):
        harvest.perform(state, 0, {"type": "gather"})
        harvest.perform(state, 0, {"type": "gather"})
    assert choice(harvest, first, 0) == choice(harvest, last, 0) == {"type": "rest"}


def test_mid_round_every_move_is_judged_right_after_it(harvest: Harvest) -> None:
    # Seat 1 still to act and a gather keeps seat 0 in the round: no other seat plays in
    # the lookahead of either move; each is the evaluation of the state it leaves.
    state = harvest.setup(2, None, 0)
    harvest.perform(state, 0, {"type": "gather"})
    harvest.perform(state, 0, {"type": "gather"})
    assert [m["type"] for m in harvest.legal(state, 0)] == ["gather", "rest"]
    assert values(harvest, state, 0) == [3.0, 4.0]
    assert state.points == [2, 0]  # the lookahead played on copies


def test_a_round_that_every_move_ends_is_played_out_before_the_evaluation(harvest: Harvest) -> None:
    # Three gathers made, resting is seat 0's only way on: as for a sealed bid, the other
    # seat makes its choices (by the policy: three gathers and a rest, 5 points) and the
    # game's result scores the move (5 points each: a shared win, 0.5).
    state = harvest.setup(2, None, 0)
    for _ in range(GATHERS):
        harvest.perform(state, 0, {"type": "gather"})
    assert harvest.legal(state, 0) == [{"type": "rest"}]
    assert values(harvest, state, 0) == [0.5]


def test_every_move_is_judged_against_the_same_sampled_choices_of_the_others() -> None:
    # Two gathers made: a gather (then the forced rest, 5 points) and a rest (4 points)
    # both end seat 0's part, so seat 1's part is sampled for each, here at random (2 to
    # 5 points). With dice of its own per move, the rest sometimes met a worse sample and
    # looked better; with common random numbers the gather never looks worse.
    game = Harvest()
    register_hooks(game.id, GameHooks(evaluate=lead, source="test"))
    try:
        state = game.setup(2, None, 0)
        game.perform(state, 0, {"type": "gather"})
        game.perform(state, 0, {"type": "gather"})
        for seed in range(40):
            gather, rest = GreedyBot(samples=1).move_values(BotContext(game, state, 0, Rng(seed)))
            assert gather >= rest, seed
    finally:
        unregister_hooks(game.id)
