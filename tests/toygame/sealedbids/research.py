"""Sealed Bids: action vocabulary and observation layout.

Actions, in this order: ``bid`` each card (seat by seat, 1 to 5), then ``pass``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import numpy as np

from ludoteca.engine import Move, OptionValue
from ludoteca.rl.observation import Encoder

CARDS = range(1, 6)
PRIZES = range(1, 8)
UNORDERED: frozenset[str] = frozenset()


def _cards(seats: int) -> list[str]:
    return [f"c{seat}-{n}" for seat in range(seats) for n in CARDS]


def actions(seats: int, options: Mapping[str, OptionValue]) -> Iterator[Move]:
    for card in _cards(seats):
        yield {"type": "bid", "card": card}
    yield {"type": "pass"}


class Observation(Encoder):
    def build(self) -> None:
        self.index = {card: i for i, card in enumerate(_cards(self.seats))}
        add = self.layout.add
        self.o_seat = add("seat", self.seats, "one-hot: the observing seat")
        self.o_round = add("round", 1, "rounds played / rounds")
        self.o_prize = add("prize", len(PRIZES), "the prize on offer, one-hot by its value")
        self.o_hand = add("hand", len(self.index), "the cards in this seat's hand")
        self.o_bid = add("my_bid", len(self.index), "this seat's hidden bid, if placed")
        self.o_points = add("points", self.seats, "each seat's prize points / 21")
        self.o_bid_placed = add("bid_placed", self.seats, "1 where a seat has bid this round")
        self.o_passed = add("passed", self.seats, "1 where a seat has used its pass")

    def fill(self, view: Mapping[str, Any], out: np.ndarray) -> None:
        # Only the reader's own hand is a list (the others are counts).
        own = next((seat for seat, hand in enumerate(view["hands"]) if isinstance(hand, list)), None)
        self.one_hot(out, self.o_seat, own)
        out[self.o_round] = view["round"] / max(1, view["rounds"])
        if view["prize"]:
            self.one_hot(out, self.o_prize, int(view["prize"].split("-")[1]) - 1)
        for card in view["hands"][own] if own is not None else []:
            out[self.o_hand + self.index[card]] = 1.0
        if view["my_bid"]:
            out[self.o_bid + self.index[view["my_bid"]]] = 1.0
        self.counts(out, self.o_points, view["points"], 21)
        self.counts(out, self.o_bid_placed, [float(b) for b in view["bid"]], 1)
        self.counts(out, self.o_passed, [float(p) for p in view["passed"]], 1)


def setup_of(view: Mapping[str, Any]) -> tuple[int, dict[str, OptionValue]]:
    """The seat count and options of a match, from any of its views."""
    return len(view["hands"]), {"rounds": view["rounds"], "may_pass": view["may_pass"]}
