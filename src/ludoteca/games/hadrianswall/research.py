"""Hadrian's Wall: action vocabulary and observation layout.

Actions, in this order: ``choose`` x seats x the 12 player cards (``p<seat>-<card>``),
``end_year``, ``hold``, ``fill`` x every fillable box of sheets A and B (sheet order; a box
with several payments once per payment label), ``cohort`` x 3, ``attribute`` x 4,
``forum`` x 3, ``diplomat`` x 3, ``favour`` x 3 directions x (diplomat, temple),
``trade`` from the fate deck, from each seat, from each neutral card (1-2 seats),
``scout`` own, from each seat, from each neutral card, ``orient`` x every orientation of
every pattern, ``place`` x every placement of every orientation on the 4x5 map,
``fight`` x 2 gladiators x (true, false).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import numpy as np

from ludoteca.engine import Move, OptionValue
from ludoteca.games.hadrianswall.components import (
    ATTRIBUTES,
    CITIZENS,
    DIFFICULTIES,
    DIRECTIONS,
    STOCK,
    components,
)
from ludoteca.games.hadrianswall.follow_ups import cells
from ludoteca.games.hadrianswall.sheets import BOXES, FILLABLE, FORUM_GAINS
from ludoteca.rl.observation import Encoder

UNORDERED: frozenset[str] = frozenset()
C = components()
SOLO_SCALE = max(points for points, _ in C.solo_ranks)
"""The solo score worth a reward of +1: the threshold of the best solo rank (HW-47)."""
CARDS = tuple(card.id for card in C.cards)
FATE = tuple(card.id for card in C.fate)
PHASES = ("choose", "main", "attack", "over")
TODO = ("cohort", "attribute", "forum", "diplomat", "trade", "scout", "place", "fight")
ATTACK = ("left", "centre", "right", "breaches", "disdain", "valour", "favours", "extra")


def actions(seats: int, options: Mapping[str, OptionValue]) -> Iterator[Move]:
    neutral = [f"n-{card}" for card in CARDS] if seats <= 2 else []
    others = list(range(seats)) if seats > 1 else []
    for seat in range(seats):
        for card in CARDS:
            yield {"type": "choose", "guideline": f"p{seat}-{card}"}
    yield {"type": "end_year"}
    yield {"type": "hold"}
    for section in FILLABLE:
        for b in section.boxes:
            box = BOXES[b]
            if len(box.costs) == 1:
                yield {"type": "fill", "box": box.id}
            elif len(box.costs) > 1:
                for label in box.pay_labels:
                    yield {"type": "fill", "box": box.id, "pay": label}
    for d in DIRECTIONS:
        yield {"type": "cohort", "cohort": d}
    for a in ATTRIBUTES:
        yield {"type": "attribute", "attribute": a}
    for g in FORUM_GAINS:
        yield {"type": "forum", "gain": g}
    for d in DIRECTIONS:
        yield {"type": "diplomat", "direction": d}
    for d in DIRECTIONS:
        for favour in ("diplomat", "temple"):
            yield {"type": "favour", "direction": d, "favour": favour}
    for kind in ("trade", "scout"):
        yield {"type": kind, "from": "fate"} if kind == "trade" else {"type": kind, "from": "own"}
        for n in others:
            yield {"type": kind, "from": "seat", "seat": n}
        for card in neutral:
            yield {"type": kind, "from": "neutral", "card": card}
    for orients in C.orientations.values():
        for masks in orients:
            yield {"type": "orient", "shape": cells(masks[0])}
    for orients in C.orientations.values():
        for masks in orients:
            for mask in masks:
                yield {"type": "place", "cells": cells(mask)}
    for gladiator in (1, 2):
        for fight in (True, False):
            yield {"type": "fight", "gladiator": gladiator, "fight": fight}


def _card(card_id: str | None) -> int | None:
    """A player card's index from its id (``p2-architect``, ``n-planner``)."""
    return None if not card_id else CARDS.index(card_id.split("-", 1)[1])


class Observation(Encoder):
    def build(self) -> None:
        seats = self.seats
        self.boxes = {box.id: i for i, box in enumerate(C.boxes)}
        self.fate = {card: i for i, card in enumerate(FATE)}
        cells_n = C.map_rows * C.map_cols
        nb, nf, nc = len(self.boxes), len(FATE), len(CARDS)
        add = self.layout.add
        self.o_seat = add("seat", seats, "one-hot: the observing seat")
        self.o_year = add("year", 7, "one-hot: the year (0 before the first, 1..6)")
        self.o_phase = add("phase", len(PHASES), f"one-hot: the phase ({', '.join(PHASES)})")
        self.o_difficulty = add("difficulty", len(DIFFICULTIES), f"one-hot: {', '.join(DIFFICULTIES)}")
        self.o_year_card = add("year_card", nf, "one-hot: this year's fate card (card order)")
        self.o_flips = add("flips", nf, "multi-hot: the Pict cards flipped this year")
        self.o_attack = add("attack_cards", nf, "multi-hot: the cards of the last attack")
        self.o_last = add("last_attack", seats * len(ATTACK), f"per seat: the last attack's {', '.join(ATTACK)} / 10")
        self.o_decks = add("decks", 3, "fate deck / 48, fate discard / 48, neutral deck / 12")
        self.o_passing = add("resource_passing", 1, "1 if resources are passed between neighbours (the option)")
        self.o_neutral = add("neutral_open", nc, "multi-hot: the open neutral cards (1-2 seats)")
        self.player_parts: list[tuple[str, int, str]] = [
            ("filled", nb, "multi-hot: the boxes filled (sheet order)"),
            ("stock", len(STOCK), f"{', '.join(STOCK)} / 20"),
            ("attributes", len(ATTRIBUTES), f"{', '.join(ATTRIBUTES)} / 25"),
            ("citizens", len(CITIZENS), f"{', '.join(CITIZENS)} / 9"),
            ("cohorts", len(DIRECTIONS), "cohorts left, centre, right / 6"),
            ("disdain", 2, "disdain / 15, final disdain / 15"),
            ("favours", 1 + len(DIRECTIONS), "temple favours / 5, diplomat favours left, centre, right / 5"),
            ("diplomats", len(DIRECTIONS), "multi-hot: diplomat directions taken"),
            ("goods", 8, "per trade good: its value / 5"),
            ("gladiators", 6, "per gladiator: strength / 6, damage / 6, fought / 6"),
            ("map", cells_n, "multi-hot: the scouting map's covered cells"),
            ("prospect", nc, "one-hot: the prospect card"),
            ("flags", 3, "chosen, ended, defended"),
            ("todo", len(TODO), f"one-hot: the next follow-up decision ({', '.join(TODO)})"),
            ("counts", 5, "guidelines / 6, deck / 12, extra Pict cards from neutral items / 6, favours used / 6, "
                          "todo length / 10"),
            ("hits", len(DIRECTIONS), "Pict hits left, centre, right / 10"),
            ("guidelines", nc, "multi-hot: its guideline cards"),
        ]
        self.per_player = sum(size for _, size, _ in self.player_parts)
        self.o_players = add("players", seats * self.per_player,
                             f"per seat, {self.per_player} entries: " +
                             "; ".join(f"{name} ({size}): {doc}" for name, size, doc in self.player_parts))
        self.o_hand = add("hand", nc, "multi-hot: the observing seat's hand")
        self.o_pending = add("pending", 2 * nc, "one-hot: its pending guideline, then its pending prospect")
        self.o_score = add("score", 1, "its current score / 100")

    def fill(self, view: Mapping[str, Any], out: np.ndarray) -> None:
        seat = next((p["seat"] for p in view["players"] if "hand" in p), None)
        self.one_hot(out, self.o_seat, seat)
        self.one_hot(out, self.o_year, min(view["year"], 6))
        self.one_hot(out, self.o_phase, PHASES.index(view["phase"]))
        self.one_hot(out, self.o_difficulty, DIFFICULTIES.index(view["difficulty"]))
        if view["year_card"]:
            self.one_hot(out, self.o_year_card, self.fate[view["year_card"]])
        for card in view["flips"]:
            out[self.o_flips + self.fate[card]] = 1.0
        for card in view["attack_cards"]:
            out[self.o_attack + self.fate[card]] = 1.0
        for s, attack in enumerate(view["last_attack"]):
            self.counts(out, self.o_last + s * len(ATTACK), [attack.get(k, 0) for k in ATTACK], 10)
        self.counts(out, self.o_decks, (view["fate_deck_size"], view["fate_discard_size"]), 48)
        self.counts(out, self.o_decks + 2, (view["neutral_deck_size"],), 12)
        out[self.o_passing] = float(bool(view.get("resource_passing", True)))
        for card in view["neutral_open"]:
            self.one_hot(out, self.o_neutral, _card(card))
        for p in view["players"]:
            self._player(p, out, self.o_players + p["seat"] * self.per_player)
            if "hand" in p:
                for card in p["hand"]:
                    self.one_hot(out, self.o_hand, _card(card))
                self.one_hot(out, self.o_pending, _card(p.get("pending_guideline")))
                pending = _card(p.get("pending_prospect"))
                if pending is not None:
                    self.one_hot(out, self.o_pending + len(CARDS), pending)
                self.counts(out, self.o_score, (p["score"]["total"],), 100)

    def _player(self, p: Mapping[str, Any], out: np.ndarray, at: int) -> None:
        for box in p["filled"]:
            out[at + self.boxes[box]] = 1.0
        at += len(self.boxes)
        self.counts(out, at, [p["stock"][k] for k in STOCK], 20)
        at += len(STOCK)
        self.counts(out, at, [p["attributes"][k] for k in ATTRIBUTES], 25)
        at += len(ATTRIBUTES)
        self.counts(out, at, [p["citizens"][k] for k in CITIZENS], 9)
        at += len(CITIZENS)
        self.counts(out, at, [p["cohorts"][d] for d in DIRECTIONS], 6)
        at += len(DIRECTIONS)
        self.counts(out, at, (p["disdain"], p["final_disdain"]), 15)
        at += 2
        self.counts(out, at, (p["temple_favours"], *[p["diplomat_favours"][d] for d in DIRECTIONS]), 5)
        at += 1 + len(DIRECTIONS)
        for d in p["diplomats"]:
            out[at + DIRECTIONS.index(d)] = 1.0
        at += len(DIRECTIONS)
        self.counts(out, at, p["goods"][:8], 5)
        at += 8
        for g, glad in enumerate(p["gladiators"][:2]):
            self.counts(out, at + 3 * g, (glad["strength"], glad["damage"], glad["fought"]), 6)
        at += 6
        for cell in p["map"]:
            out[at + cell] = 1.0
        at += C.map_rows * C.map_cols
        self.one_hot(out, at, _card(p["prospect"]))
        at += len(CARDS)
        out[at:at + 3] = (float(bool(p["chosen"])), float(bool(p["ended"])), float(bool(p["defended"])))
        at += 3
        if p["todo"]:
            self.one_hot(out, at, TODO.index(p["todo"][0][0]))
        at += len(TODO)
        self.counts(out, at, (p["guideline_count"],), 6)
        self.counts(out, at + 1, (p["deck_size"],), 12)
        # the count of extra Pict cards its neutral items bring (named neutral_items before extra_picts)
        extra = p.get("extra_picts", p.get("neutral_items", 0))
        self.counts(out, at + 2, (extra, p["favours_used"]), 6)
        self.counts(out, at + 4, (len(p["todo"]),), 10)
        at += 5
        self.counts(out, at, [p["hits"][d] for d in DIRECTIONS], 10)
        at += len(DIRECTIONS)
        for card in p["guidelines"]:
            self.one_hot(out, at, _card(card))


def setup_of(view: Mapping[str, Any]) -> tuple[int, dict[str, OptionValue]]:
    """The seat count and options of a match, from any of its views."""
    return view["seats"], {"difficulty": view["difficulty"]}
