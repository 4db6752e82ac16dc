"""Iwari: action vocabulary and observation layout.

Actions, in this order (T territories and S tent spaces of the chosen map, the biome
cards in play at this seat count in card order, C connections in number order):
``territory`` x T, ``discard`` x cards, ``pass``, ``tent`` x S, ``totem``, ``done``,
``pay`` one card x cards, ``pay`` two cards of one biome x each pair (sorted ids),
``draw`` from the deck, ``draw`` from the display x cards; with feats: ``feat`` union
and discovery x T, honour and respect x C.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import numpy as np

from ludoteca.engine import Move, OptionValue
from ludoteca.games.iwari.components import BIOMES, FEATS, cards, expeditions, game_map
from ludoteca.games.iwari.state import PHASES
from ludoteca.rl.observation import Encoder

UNORDERED = frozenset({"cards"})
"""A ``pay`` move's cards follow the hand's order; the vocabulary sorts them."""


def actions(seats: int, options: Mapping[str, OptionValue]) -> Iterator[Move]:
    board = game_map(str(options["map"]))
    deck = cards()
    in_play = deck.for_seats(seats)
    ids = [deck.ids[c] for c in in_play]
    territories = [t.id for t in board.territories]
    for t in territories:
        yield {"type": "territory", "territory": t}
    for card in ids:
        yield {"type": "discard", "card": card}
    yield {"type": "pass"}
    for space in board.space_ids:
        yield {"type": "tent", "space": space}
    yield {"type": "totem"}
    yield {"type": "done"}
    for card in ids:
        yield {"type": "pay", "cards": [card]}
    for i, a in enumerate(in_play):
        for b in in_play[i + 1:]:
            if deck.biome[a] == deck.biome[b]:
                yield {"type": "pay", "cards": sorted([deck.ids[a], deck.ids[b]])}
    yield {"type": "draw", "from": "deck"}
    for card in ids:
        yield {"type": "draw", "from": "display", "card": card}
    if options.get("feats"):
        for feat in FEATS[:2]:
            for t in territories:
                yield {"type": "feat", "feat": feat, "territory": t}
        for feat in FEATS[2:]:
            for c in board.connections:
                yield {"type": "feat", "feat": feat, "connection": c.number}


class Observation(Encoder):
    def build(self) -> None:
        seats = self.seats
        self.tribes = tribes = 3 if seats == 2 else seats
        board = game_map(str(self.options["map"]))
        self.territories = {t.id: i for i, t in enumerate(board.territories)}
        self.spaces = {s: i for i, s in enumerate(board.space_ids)}
        self.connections = {c.number: i for i, c in enumerate(board.connections)}
        self.cards = {c: i for i, c in enumerate(cards().ids)}
        self.biomes = {b: i for i, b in enumerate(BIOMES)}
        self.expeditions = {e.id: i for i, e in enumerate(expeditions().cards)}
        nt, ns, nc, ncard = len(self.territories), len(self.spaces), len(self.connections), len(self.cards)
        add = self.layout.add
        self.o_seat = add("seat", seats, "one-hot: the observing seat")
        self.o_phase = add("phase", len(PHASES), f"one-hot: the phase ({', '.join(PHASES)})")
        self.o_current = add("current", seats, "one-hot: the seat deciding now")
        self.o_tribe = add("tribe", tribes, "one-hot: the tribe being played (2 seats: tribe 2 is the third tribe)")
        self.o_territory = add("territory", nt, "one-hot: the territory chosen this move (map order)")
        self.o_piece = add("piece", ns + 1, "one-hot: the tent space chosen (map order), last entry the totem")
        self.o_turn = add("turn", 3, "pieces placed this move / 2, the move's limit / 2, turns played / 100")
        self.o_tents = add("tents", ns * tribes, "per tent space (map order), one-hot: the tribe whose tent is there")
        self.o_totems = add("totems", nt * tribes, "per territory, per tribe: its totems there / 3")
        self.o_mountains = add("mountains", nc, "per connection (number order): 1 if a mountain covers it")
        self.o_tfactor = add("territory_factors", nt, "per territory: its scoring factor / 4 (feats)")
        self.o_cfactor = add("connection_factors", nc, "per connection: its scoring factor / 4 (feats)")
        self.o_display = add("display", ncard, "per biome card (card order): 1 if face up in the display")
        self.o_discard = add("discard", len(BIOMES), "per biome: cards in the discard pile / 15")
        self.o_deck = add("deck", 1, "cards left in the deck / 57")
        self.o_hands = add("hand_sizes", seats, "per seat: its hand size / 10")
        self.o_left = add("pieces_left", 2 * tribes, "per tribe: tents left / 25, then per tribe: totems left / 10")
        self.o_scores = add("scores", tribes, "per tribe: score / 200")
        self.o_end = add("end", 2, "exhaustions / 5, 1 if the end is triggered")
        self.o_half = add("half_journey", nt * tribes,
                          "per territory, per tribe: its half-journey row entry / 10 (The Long Road), else 0")
        self.o_feats = add("feats", len(FEATS) * tribes, "per feat, per tribe: 1 if it holds that feat")
        self.o_exp = add("expeditions", len(self.expeditions) * (1 + tribes),
                         "per expedition card (data order): 1 if in play, then per tribe 1 if it completed it")
        self.o_hand = add("hand", ncard, "per biome card: 1 if in the observing seat's hand")

    def fill(self, view: Mapping[str, Any], out: np.ndarray) -> None:
        tribes = self.tribes
        seat = view.get("seat")
        self.one_hot(out, self.o_seat, seat)
        self.one_hot(out, self.o_phase, PHASES.index(view["phase"]))
        self.one_hot(out, self.o_current, view["current"])
        self.one_hot(out, self.o_tribe, view["tribe"])
        if view["territory"] is not None:
            self.one_hot(out, self.o_territory, self.territories[view["territory"]])
        piece = view["piece"]
        if piece is not None:
            self.one_hot(out, self.o_piece, len(self.spaces) if piece == "totem" else self.spaces[piece])
        self.counts(out, self.o_turn, (view["placed"], view["limit"]), 2)
        self.counts(out, self.o_turn + 2, (view["turns"],), 100)
        for space, tribe in view["tents"].items():
            out[self.o_tents + self.spaces[space] * tribes + tribe] = 1.0
        for t, row in view["totems"].items():
            self.counts(out, self.o_totems + self.territories[t] * tribes, row, 3)
        for number in view["mountains"]:
            out[self.o_mountains + self.connections[number]] = 1.0
        for t, f in view["territory_factors"].items():
            self.counts(out, self.o_tfactor + self.territories[t], (f,), 4)
        for number, f in view["connection_factors"].items():
            self.counts(out, self.o_cfactor + self.connections[int(number)], (f,), 4)
        for card in view["display"]:
            out[self.o_display + self.cards[card]] = 1.0
        discard = [0] * len(BIOMES)
        for biome in view["discard"]:
            discard[self.biomes[biome]] += 1
        self.counts(out, self.o_discard, discard, 15)
        self.counts(out, self.o_deck, (view["deck"],), 57)
        self.counts(out, self.o_hands, view["hand_sizes"], 10)
        self.counts(out, self.o_left, view["tents_left"], 25)
        self.counts(out, self.o_left + tribes, view["totems_left"], 10)
        self.counts(out, self.o_scores, view["scores"], 200)
        self.counts(out, self.o_end, (view["exhaustions"],), 5)
        out[self.o_end + 1] = 1.0 if view["end_triggered"] else 0.0
        for t, row in (view.get("half_journey") or {}).items():
            self.counts(out, self.o_half + self.territories[t] * tribes, row, 10)
        for k, feat in enumerate(FEATS):
            for tribe in (view.get("feats") or {}).get(feat, []):
                out[self.o_feats + k * tribes + tribe] = 1.0
        for entry in view.get("expeditions") or []:
            base = self.o_exp + self.expeditions[entry["id"]] * (1 + tribes)
            out[base] = 1.0
            for tribe in entry["done"]:
                out[base + 1 + tribe] = 1.0
        for card in view.get("hand", []):
            out[self.o_hand + self.cards[card]] = 1.0


def setup_of(view: Mapping[str, Any]) -> tuple[int, dict[str, OptionValue]]:
    """The seat count and options of a match, from any of its views."""
    return view["seats"], {"map": view["map"], **view["options"]}
