"""Sealed Bids: a tiny game that exercises every part of the engine contract.

Each seat holds a hidden hand of numbered cards. Each round a prize is revealed from the
shuffled deck; all seats bid one card at once (hidden until all have bid); the highest
bid takes the prize (ties: nobody). A seat may also "pass" once per game instead of
bidding. Most prize points wins; tie-break: the higher sum of cards left in hand.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ludoteca.engine import Decision, Event, Game, IllegalMove, Move, Option, Prompt, Result, Rng, Seat
from ludoteca.engine.fields import BOOL, INT, INTS, JSON, OPT_STR, RNG, STRS, Field, Fields


class SealedBidsState:
    __slots__ = ("bids", "deck", "hands", "may_pass", "passed", "points", "prize", "rng", "round", "rounds", "seats")

    def __init__(self, rng: Rng, seats: int, rounds: int) -> None:
        self.rng = rng
        self.seats = seats
        self.rounds = rounds
        self.hands: list[list[str]] = [[] for _ in range(seats)]
        self.deck: list[str] = []
        self.prize: str | None = None
        self.bids: list[str | None] = [None] * seats
        self.passed: list[bool] = [False] * seats
        self.points = [0] * seats
        self.round = 0
        self.may_pass = True

    FIELDS = Fields(
        Field("rng", RNG), Field("seats", INT), Field("rounds", INT), Field("round", INT), Field("prize", OPT_STR),
        Field("hands", JSON), Field("deck", STRS), Field("bids", JSON), Field("passed", JSON), Field("points", INTS),
        Field("may_pass", BOOL),
    )
    """Every field, declared once: the conformance suite checks the clone against it."""


def value(card: str) -> int:
    return int(card.split("-")[1])


class SealedBids(Game[SealedBidsState]):
    id = "sealedbids"
    name = "Sealed Bids"
    min_seats = 2
    max_seats = 4
    max_moves = 100
    options = (
        Option("rounds", "int", 3, "Prizes auctioned.", minimum=1, maximum=5),
        Option("may_pass", "bool", True, "Each seat may pass once instead of bidding."),
    )

    def new_state(self, seats: int, options: Mapping[str, Any], rng: Rng) -> SealedBidsState:
        state = SealedBidsState(rng, seats, int(options["rounds"]))
        cards = [f"c{seat}-{n}" for seat in range(seats) for n in range(1, 6)]
        for seat in range(seats):
            state.hands[seat] = [c for c in cards if c.startswith(f"c{seat}-")]
        state.deck = [f"prize-{n}" for n in range(1, 8)]
        rng.shuffle(state.deck)
        state.prize = state.deck.pop()
        state.may_pass = bool(options["may_pass"])
        return state

    def pending(self, state: SealedBidsState) -> list[Decision]:
        if state.round >= state.rounds:
            return []
        return [Decision(s, Prompt("sealedbids.bid", {"prize": state.prize})) for s in range(state.seats)
                if state.bids[s] is None]

    def legal(self, state: SealedBidsState, seat: Seat) -> list[Move]:
        if state.round >= state.rounds or state.bids[seat] is not None:
            return []
        moves: list[Move] = [{"type": "bid", "card": card} for card in state.hands[seat]]
        if state.may_pass and not state.passed[seat]:
            moves.append({"type": "pass"})
        return moves

    def explain(self, state: SealedBidsState, seat: Seat, move: Move) -> IllegalMove:
        if move.get("type") == "bid":
            return IllegalMove("not_in_hand", "you can only bid a card from your hand")
        return super().explain(state, seat, move)

    def perform(self, state: SealedBidsState, seat: Seat, move: Move) -> list[Event]:
        events = [Event("sealedbids.bid_placed", {"seat": seat})]
        if move["type"] == "pass":
            state.passed[seat] = True
            state.bids[seat] = ""
        else:
            state.hands[seat].remove(move["card"])
            state.bids[seat] = move["card"]
            events.append(Event("sealedbids.you_bid", {"card": move["card"]}, to=seat))
        if all(bid is not None for bid in state.bids):
            values = [value(b) if b else 0 for b in state.bids]
            best = max(values)
            winners = [s for s, v in enumerate(values) if v == best]
            revealed = {str(s): b for s, b in enumerate(state.bids)}
            events.append(Event("sealedbids.revealed", {"bids": revealed}))
            if len(winners) == 1 and best > 0:
                state.points[winners[0]] += value(state.prize or "p-0")
                events.append(Event("sealedbids.won", {"seat": winners[0], "prize": state.prize}))
            state.bids = [None] * state.seats
            state.round += 1
            state.prize = state.deck.pop() if state.round < state.rounds else None
        return events

    def reveals(self, before: SealedBidsState, after: SealedBidsState, seat: Seat, move: Move,
                events: Sequence[Event]) -> bool:
        return any(event.key == "sealedbids.revealed" for event in events)

    def view(self, state: SealedBidsState, seat: Seat | None) -> dict[str, Any]:
        return {
            "round": state.round,
            "rounds": state.rounds,
            "prize": state.prize,
            "points": list(state.points),
            "deck": len(state.deck),
            "passed": list(state.passed),
            "may_pass": state.may_pass,
            "hands": [list(h) if s == seat else len(h) for s, h in enumerate(state.hands)],
            "bid": [b is not None for b in state.bids],
            "my_bid": state.bids[seat] if seat is not None else None,
        }

    def result(self, state: SealedBidsState) -> Result | None:
        if state.round < state.rounds:
            return None
        left = [[sum(value(c) for c in hand)] for hand in state.hands]
        return Result.ranked(state.points, left, [{"prizes": p} for p in state.points])

    def clone(self, state: SealedBidsState) -> SealedBidsState:
        new = SealedBidsState.__new__(SealedBidsState)
        new.rng = state.rng.copy()
        new.seats, new.rounds, new.round, new.prize = state.seats, state.rounds, state.round, state.prize
        new.may_pass = state.may_pass
        new.hands = [h[:] for h in state.hands]
        new.deck = state.deck[:]
        new.bids = state.bids[:]
        new.passed = state.passed[:]
        new.points = state.points[:]
        return new

    def to_json(self, state: SealedBidsState) -> dict[str, Any]:
        return {"rng": state.rng.to_json(), "seats": state.seats, "rounds": state.rounds, "round": state.round,
                "prize": state.prize, "hands": state.hands, "deck": state.deck, "bids": state.bids,
                "passed": state.passed, "points": state.points, "may_pass": state.may_pass}

    def from_json(self, data: Mapping[str, Any]) -> SealedBidsState:
        state = SealedBidsState(Rng.from_json(data["rng"]), data["seats"], data["rounds"])
        state.round, state.prize = data["round"], data["prize"]
        state.hands = [list(h) for h in data["hands"]]
        state.deck = list(data["deck"])
        state.bids = list(data["bids"])
        state.passed = list(data["passed"])
        state.points = list(data["points"])
        state.may_pass = data["may_pass"]
        return state

    def determinize(self, state: SealedBidsState, seat: Seat, rng: Rng) -> SealedBidsState:
        new = self.clone(state)
        rng.shuffle(new.deck)
        # Other seats' pending bids are hidden: put them back into their hands, then a
        # random card of that hand becomes the bid.
        for other in range(state.seats):
            if other != seat and new.bids[other]:
                new.hands[other].append(new.bids[other])  # type: ignore[arg-type]
                new.hands[other].sort()
                pick = rng.below(len(new.hands[other]))
                new.bids[other] = new.hands[other].pop(pick)
        return new

    def secrets(self, state: SealedBidsState) -> dict[Seat | None, set[str]]:
        secret: dict[Seat | None, set[str]] = {None: set(state.deck)}
        for seat in range(state.seats):
            secret[seat] = {b for b in [state.bids[seat]] if b}
        return secret
