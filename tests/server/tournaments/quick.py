"""Quick Pick, a tiny game of our own for the tournament tests: 2 to 6 seats, each seat
in turn picks 1, 2 or 3, then a die from the match's generator is added to each pick;
the highest total wins (ties shared). One move a seat: a game lasts a few moves, so a
24-player tournament of four rounds runs in seconds with random bots."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ludoteca.engine import Decision, Event, Game, Move, OptionValue, Prompt, Result, Rng, Seat


@dataclass
class State:
    seats: int
    rng: Rng
    picks: list[int]
    turn: int = 0
    totals: list[int] | None = None


class QuickPick(Game[State]):
    id = "quickpick"
    name = "Quick Pick (test game)"
    min_seats = 2
    max_seats = 6
    options = ()
    max_moves = 10

    def new_state(self, seats: int, options: Mapping[str, OptionValue], rng: Rng) -> State:
        return State(seats, rng, [])

    def pending(self, state: State) -> list[Decision]:
        return [] if state.totals is not None else [Decision(state.turn, Prompt("quickpick.pick"))]

    def legal(self, state: State, seat: Seat) -> list[Move]:
        if state.totals is None and seat == state.turn:
            return [{"type": "pick", "n": n} for n in (1, 2, 3)]
        return []

    def perform(self, state: State, seat: Seat, move: Move) -> list[Event]:
        state.picks.append(int(move["n"]))
        state.turn += 1
        events = [Event("quickpick.picked", {"seat": seat, "n": move["n"]})]
        if state.turn == state.seats:
            state.totals = [p + 1 + state.rng.below(6) for p in state.picks]
            events.append(Event("quickpick.totals", {"totals": list(state.totals)}))
        return events

    def view(self, state: State, seat: Seat | None) -> dict[str, Any]:
        return {"picks": list(state.picks), "turn": state.turn, "totals": state.totals}

    def result(self, state: State) -> Result | None:
        return Result.ranked(state.totals) if state.totals is not None else None

    def clone(self, state: State) -> State:
        return State(state.seats, state.rng.copy(), state.picks[:], state.turn,
                     None if state.totals is None else state.totals[:])

    def to_json(self, state: State) -> dict[str, Any]:
        return {"seats": state.seats, "rng": state.rng.to_json(), "picks": state.picks[:], "turn": state.turn,
                "totals": state.totals}

    def from_json(self, data: Mapping[str, Any]) -> State:
        return State(data["seats"], Rng.from_json(data["rng"]), list(data["picks"]), data["turn"], data["totals"])

    def determinize(self, state: State, seat: Seat, rng: Rng) -> State:
        return self.clone(state)


GAME = QuickPick()
