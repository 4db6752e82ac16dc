"""Draw and Bid, a small game of our own for the server tests, so they do not depend on
the real games: 2-3 seats, a hidden hand, a random draw, and a simultaneous sealed bid.
(Unlike Sealed Bids, tests/toygame, each round opens with a turn to draw or pass, and
the option ``stall`` hangs the engine for the time-limit test.)

Each round: every seat in turn either passes (undoable) or draws a random card from the
deck (never undoable: it uses randomness); then all seats bid a card at once (a
simultaneous decision); when the last bid is in, the bids are revealed and the highest
card scores a point. After ``rounds`` rounds the most points win.

The option ``stall`` makes a pass hang (for the engine time-limit test).
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from ludoteca.engine import Decision, Event, Game, IllegalMove, Move, Option, OptionValue, Prompt, Result, Rng, Seat
from ludoteca.engine.fields import BOOL, INT, INTS, JSON, RNG, STR, STRS, Field, Fields


def value(card: str) -> int:
    return int(card.split("-")[1])


@dataclass
class State:
    seats: int
    rounds: int
    stall: bool
    rng: Rng
    deck: list[str]
    hands: list[list[str]]
    bids: list[str | None]
    scores: list[int]
    round: int = 1
    phase: str = "turns"  # turns | bid | over
    turn: int = 0
    last_reveal: dict[str, str] = field(default_factory=dict)

    FIELDS: ClassVar[Fields] = Fields(
        Field("seats", INT), Field("rounds", INT), Field("stall", BOOL), Field("rng", RNG), Field("deck", STRS),
        Field("hands", JSON), Field("bids", JSON), Field("scores", INTS), Field("round", INT), Field("phase", STR),
        Field("turn", INT), Field("last_reveal", JSON),
    )
    """Every field, declared once: the conformance suite checks the clone against it."""


class DrawBid(Game[State]):
    id = "drawbid"
    name = "Draw and Bid (test game)"
    min_seats = 2
    max_seats = 3
    options = (Option("rounds", "int", 2, "rounds to play", minimum=1, maximum=3),
               Option("stall", "bool", False, "a pass hangs (tests only)"))
    max_moves = 100

    def new_state(self, seats: int, options: Mapping[str, OptionValue], rng: Rng) -> State:
        deck = [f"card-{n:02d}" for n in range(1, 21)]
        rng.shuffle(deck)
        hands = [sorted(deck[i * 3:(i + 1) * 3]) for i in range(seats)]
        return State(seats, int(options["rounds"]), bool(options["stall"]), rng, deck[seats * 3:], hands,
                     [None] * seats, [0] * seats)

    def pending(self, state: State) -> list[Decision]:
        if state.phase == "turns":
            return [Decision(state.turn, Prompt("drawbid.turn"))]
        if state.phase == "bid":
            return [Decision(s, Prompt("drawbid.bid")) for s in range(state.seats) if state.bids[s] is None]
        return []

    def legal(self, state: State, seat: Seat) -> list[Move]:
        if state.phase == "turns" and seat == state.turn:
            moves: list[Move] = [{"type": "pass"}]
            if state.deck:
                moves.append({"type": "draw"})
            return moves
        if state.phase == "bid" and 0 <= seat < state.seats and state.bids[seat] is None:
            return [{"type": "bid", "card": card} for card in state.hands[seat]]
        return []

    def explain(self, state: State, seat: Seat, move: Move) -> IllegalMove:
        if move.get("type") == "bid" and state.phase == "bid":
            return IllegalMove("not_in_hand", "you can only bid a card from your hand")
        return super().explain(state, seat, move)

    def perform(self, state: State, seat: Seat, move: Move) -> list[Event]:
        events: list[Event] = []
        if move["type"] in ("pass", "draw"):
            if move["type"] == "pass" and state.stall:
                # A bug that hangs: a loop that does not end (bounded, so a test run ends).
                until = time.monotonic() + 5
                while time.monotonic() < until:
                    pass
            if move["type"] == "draw":
                card = state.deck.pop(state.rng.below(len(state.deck)))
                state.hands[seat].append(card)
                state.hands[seat].sort()
                events += [Event("drawbid.drew", {"card": card}, to=seat),
                           Event("drawbid.drew_one", {"seat": seat})]
            else:
                events.append(Event("drawbid.passed", {"seat": seat}))
            state.turn += 1
            if state.turn == state.seats:
                state.phase, state.turn = "bid", 0
            return events
        card = move["card"]
        state.hands[seat].remove(card)
        state.bids[seat] = card
        events += [Event("drawbid.bid", {"seat": seat}), Event("drawbid.my_bid", {"card": card}, to=seat)]
        if all(b is not None for b in state.bids):
            bids = [b for b in state.bids if b is not None]
            best = max(range(state.seats), key=lambda s: value(bids[s]))
            state.scores[best] += 1
            state.last_reveal = {str(s): bids[s] for s in range(state.seats)}
            events.append(Event("drawbid.revealed", {"bids": dict(state.last_reveal), "winner": best}))
            state.bids = [None] * state.seats
            state.round += 1
            state.phase = "over" if state.round > state.rounds else "turns"
        return events

    def reveals(self, before: State, after: State, seat: Seat, move: Move, events: Any) -> bool:
        return any(e.key == "drawbid.revealed" for e in events)

    def view(self, state: State, seat: Seat | None) -> dict[str, Any]:
        return {
            "round": state.round, "phase": state.phase, "turn": state.turn, "scores": list(state.scores),
            "deck": len(state.deck), "hand_sizes": [len(h) for h in state.hands],
            "hand": list(state.hands[seat]) if seat is not None else None,
            "bid_placed": [b is not None for b in state.bids],
            "my_bid": state.bids[seat] if seat is not None else None,
            "last_reveal": dict(state.last_reveal),
        }

    def result(self, state: State) -> Result | None:
        return Result.ranked(state.scores) if state.phase == "over" else None

    def clone(self, state: State) -> State:
        return State(state.seats, state.rounds, state.stall, state.rng.copy(), state.deck[:],
                     [h[:] for h in state.hands], state.bids[:], state.scores[:], state.round, state.phase,
                     state.turn, dict(state.last_reveal))

    def to_json(self, state: State) -> dict[str, Any]:
        return {"seats": state.seats, "rounds": state.rounds, "stall": state.stall, "rng": state.rng.to_json(),
                "deck": state.deck[:], "hands": [h[:] for h in state.hands], "bids": state.bids[:],
                "scores": state.scores[:], "round": state.round, "phase": state.phase, "turn": state.turn,
                "last_reveal": dict(state.last_reveal)}

    def from_json(self, data: Mapping[str, Any]) -> State:
        return State(data["seats"], data["rounds"], data["stall"], Rng.from_json(data["rng"]), list(data["deck"]),
                     [list(h) for h in data["hands"]], list(data["bids"]), list(data["scores"]), data["round"],
                     data["phase"], data["turn"], dict(data["last_reveal"]))

    def determinize(self, state: State, seat: Seat, rng: Rng) -> State:
        copy = self.clone(state)
        unknown = copy.deck[:]
        for s in range(copy.seats):
            if s != seat:
                unknown += copy.hands[s]
                unknown += [b for b in [copy.bids[s]] if b is not None]
        rng.shuffle(unknown)
        for s in range(copy.seats):
            if s != seat:
                n = len(copy.hands[s])
                copy.hands[s], unknown = sorted(unknown[:n]), unknown[n:]
                if copy.bids[s] is not None:
                    copy.bids[s], unknown = unknown[0], unknown[1:]
        copy.deck = unknown
        return copy

    def secrets(self, state: State) -> dict[Seat | None, set[str]]:
        out: dict[Seat | None, set[str]] = {None: set(state.deck)}
        for s in range(state.seats):
            out[s] = set(state.hands[s]) | ({state.bids[s]} if state.bids[s] else set())
        return out


GAME = DrawBid()
