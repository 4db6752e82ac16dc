"""The turn-flow helpers (engine/flow.py): dispatch tables and the decision stack."""

from __future__ import annotations

import pickle
from typing import Any

import pytest

from ludoteca.engine import Event, Move
from ludoteca.engine.flow import Dispatch, Step, Task, TaskFlow, UnknownKey


def test_a_dispatch_table_registers_and_names_what_is_missing() -> None:
    table: Dispatch[str, Any] = Dispatch("moves by kind")

    @table.on("tent", "totem")
    def place(x: int) -> int:
        return x + 1

    assert table["tent"] is place and table["totem"] is place
    assert table.get("draw") is None
    with pytest.raises(UnknownKey, match=r"moves by kind: nothing for 'draw' \(known: 'tent', 'totem'\)"):
        table["draw"]
    with pytest.raises(ValueError, match="registered twice"):
        table.add("tent", place)
    copy = pickle.loads(pickle.dumps(Dispatch("by phase", [(1, "one")])))
    assert copy.name == "by phase" and copy == {1: "one"}


class Bidding:
    """A little game on a stack: a round deals, then asks each seat in turn to bid."""

    def __init__(self) -> None:
        self.stack: list[Task] = [("round", 1)]
        self.bids: dict[int, int] = {}
        self.over = False
        self.log: list[str] = []


flow: TaskFlow[Bidding] = TaskFlow("test")


@flow.automatic("round")
def _round(game: Bidding, task: Task, queue: list[Task], events: list[Event]) -> None:
    events.append(Event("round", {"n": task[1]}))
    queue.extend([("bid", 0), ("bid", 1), ("score", task[1])])


@flow.automatic("score")
def _score(game: Bidding, task: Task, queue: list[Task], events: list[Event]) -> None:
    game.log.append(f"score {task[1]}: {sorted(game.bids.items())}")
    if task[1] == 2:
        game.over = True
        queue.append(("round", 3))  # never runs: the game is over
    else:
        queue.append(("round", task[1] + 1))


def _bid_seats(game: Bidding, task: Task) -> list[int]:
    return [] if task[1] in game.bids and game.bids[task[1]] < 0 else [task[1]]


def _bid_legal(game: Bidding, task: Task, seat: int) -> list[Move]:
    return [{"type": "bid", "amount": n} for n in (1, 2)]


def _bid_perform(game: Bidding, task: Task, seat: int, move: Move, queue: list[Task], events: list[Event]) -> None:
    game.stack.pop()
    game.bids[seat] = move["amount"]
    if move["amount"] == 2:
        queue.append(("note", seat))


flow.decision("bid", Step("test.prompt.bid", _bid_seats, _bid_legal, _bid_perform))


@flow.automatic("note")
def _note(game: Bidding, task: Task, queue: list[Task], events: list[Event]) -> None:
    game.log.append(f"seat {task[1]} bid high")


def test_the_stack_runs_automatic_tasks_and_stops_at_a_decision() -> None:
    game = Bidding()
    events: list[Event] = []
    flow.advance(game, game.stack, events)
    assert [e.key for e in events] == ["round"]
    assert game.stack == [("score", 1), ("bid", 1), ("bid", 0)]  # the top is the last item
    top = flow.top(game.stack)
    assert top is not None and top[0] == ("bid", 0) and top[1].prompt == "test.prompt.bid"
    assert flow.seats(game, game.stack) == [0]
    assert flow.legal(game, game.stack, 0) == [{"type": "bid", "amount": 1}, {"type": "bid", "amount": 2}]
    assert flow.legal(game, game.stack, 1) == []


def test_the_flow_returns_the_decision_it_stops_at_for_legal_and_perform_to_reuse() -> None:
    game = Bidding()
    asked = flow.advance(game, game.stack, [])
    assert asked is not None
    task, step, seats = asked
    assert task is game.stack[-1] and step is flow.steps["bid"] and seats == [0]
    # Handed back, it spares asking the step who decides: a step that would say nobody now
    # is not asked again while its task is on top.
    game.bids[0] = -1
    assert flow.legal(game, game.stack, 0, asked) == [{"type": "bid", "amount": 1}, {"type": "bid", "amount": 2}]
    assert flow.legal(game, game.stack, 0) == []
    del game.bids[0]
    after = flow.perform(game, game.stack, 0, {"type": "bid", "amount": 1}, [], asked)
    assert after is not None and after[0] == ("bid", 1) and after[2] == [1]


def test_an_unknown_task_names_the_flow() -> None:
    game = Bidding()
    game.stack = [("nothing-like-it",)]
    with pytest.raises(UnknownKey, match="test: nothing for task 'nothing-like-it'"):
        flow.advance(game, game.stack, [])


def test_queued_tasks_run_first_and_in_order() -> None:
    game = Bidding()
    flow.advance(game, game.stack, [])
    flow.perform(game, game.stack, 0, {"type": "bid", "amount": 2}, [])
    assert game.log == ["seat 0 bid high"]  # the queued note ran before the next bid was asked
    assert flow.seats(game, game.stack) == [1]
    flow.perform(game, game.stack, 1, {"type": "bid", "amount": 1}, [])
    assert game.log[-1] == "score 1: [(0, 2), (1, 1)]"
    assert flow.seats(game, game.stack) == [0]  # round 2 dealt by itself


def test_the_flow_stops_when_the_game_is_over() -> None:
    game = Bidding()
    flow.advance(game, game.stack, [])
    for _ in range(2):
        flow.perform(game, game.stack, 0, {"type": "bid", "amount": 1}, [])
        flow.perform(game, game.stack, 1, {"type": "bid", "amount": 1}, [])
    assert game.over and game.stack == [("round", 3)]
    assert flow.top(game.stack) is None and flow.seats(game, game.stack) == []


def test_a_decision_nobody_has_to_take_is_dropped() -> None:
    game = Bidding()
    game.bids[1] = -1  # seat 1 is out: its bid asks nobody
    game.stack = [("score", 1), ("bid", 1)]
    flow.advance(game, game.stack, [])
    assert game.log == ["score 1: [(1, -1)]"] and flow.seats(game, game.stack) == [0]


def test_flows_combine_without_clashes() -> None:
    whole: TaskFlow[Bidding] = TaskFlow("whole")
    whole.include(flow)
    assert set(whole.auto) == {"round", "score", "note"} and set(whole.steps) == {"bid"}
    with pytest.raises(ValueError, match="registered twice"):
        whole.include(flow)
    with pytest.raises(ValueError, match="already an automatic task"):
        whole.decision("round", Step("x", _bid_seats, _bid_legal, _bid_perform))
