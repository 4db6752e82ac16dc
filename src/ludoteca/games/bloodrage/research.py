"""Blood Rage: action vocabulary and observation layout.

Actions, in this order (the cards kept at this seat count, in card order; the figure
kinds: leader, warrior, ship, then the monsters in name order; the 9 provinces and 4
fjords in board order): ``clan`` x the clans (the clan choice); ``pick``, ``keep``,
``play``, ``play_extra``, ``keep_card``, ``quest`` x cards; ``upgrade`` x card x each
slot it fits; ``discard_all``, ``pass``, ``decline``, ``sacrifice``; ``invade``,
``free_invade``, ``valhalla_invade`` x kind x location; ``march`` x province,
``march_add`` x kind, ``march_to`` x province; ``pillage``, ``domain_pillage`` x
province; ``join`` x kind x location; ``protect``, ``keep_figure``, ``sacrifice_figure``
x kind x location; ``move_leader`` x location; ``raise`` x (rage, axes, horns).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import numpy as np

from ludoteca.engine import Move, OptionValue
from ludoteca.games.bloodrage.components import (
    CARD_NAMES,
    CARDS,
    CLANS,
    LOCATIONS,
    MONSTERS,
    PROVINCES,
    SLOTS,
    STATS,
)
from ludoteca.games.bloodrage.rules import FLOW, upgrade_slots
from ludoteca.rl.observation import Encoder

UNORDERED: frozenset[str] = frozenset()
KINDS = ("leader", "warrior", "ship", *sorted(MONSTERS))
PHASES = ("setup", "clans", "draft", "action", "discard", "release", "quests", "ragnarok", "over")
TASKS = ("call", "cards", "clan", "discard", "draft", "extra", "free_invade", "hammers", "march", "protect", "prowess",
         "raise", "sacrifice", "thors_domain", "tide")
"""The decisions a view's ``task`` may name, in a fixed order (a superset of the game's)."""
if not set(FLOW.steps) <= set(TASKS):
    raise ValueError(f"bloodrage: decisions the RL adapter does not know: {sorted(set(FLOW.steps) - set(TASKS))}")
TOKENS = ("rage", "axes", "horns", "glory", "all")
CARD_IDS = tuple(sorted(CARDS))


def card_ids(seats: int) -> list[str]:
    """The cards in play at this seat count (a card's marker is the least seat count keeping it)."""
    return [cid for cid in CARD_IDS if CARDS[cid].marker <= seats]


def actions(seats: int, options: Mapping[str, OptionValue]) -> Iterator[Move]:
    cards = card_ids(seats)
    for clan in CLANS:
        yield {"type": "clan", "clan": clan}
    for kind in ("pick", "keep", "play", "play_extra", "keep_card", "quest"):
        for cid in cards:
            yield {"type": kind, "card": cid}
    for cid in cards:
        if CARDS[cid].type == "upgrade":
            for k in upgrade_slots(cid):
                yield {"type": "upgrade", "card": cid, "slot": SLOTS[k]}
    for kind in ("discard_all", "pass", "decline", "sacrifice"):
        yield {"type": kind}
    for kind in ("invade", "free_invade", "valhalla_invade"):
        for figure in KINDS:
            for at in LOCATIONS:
                yield {"type": kind, "figure": figure, "to": at}
    for p in PROVINCES:
        yield {"type": "march", "from": p}
    for figure in KINDS:
        yield {"type": "march_add", "figure": figure}
    for p in PROVINCES:
        yield {"type": "march_to", "to": p}
    for kind in ("pillage", "domain_pillage"):
        for p in PROVINCES:
            yield {"type": kind, "province": p}
    for figure in KINDS:
        for at in LOCATIONS:
            yield {"type": "join", "figure": figure, "from": at}
    for kind in ("protect", "keep_figure", "sacrifice_figure"):
        for figure in KINDS:
            for at in LOCATIONS:
                yield {"type": kind, "figure": figure, "at": at}
    for at in LOCATIONS:
        yield {"type": "move_leader", "to": at}
    for stat in STATS:
        yield {"type": "raise", "stat": stat}


class Observation(Encoder):
    def build(self) -> None:
        seats = self.seats
        np_, nl, nk, nn, nc = len(PROVINCES), len(LOCATIONS), len(KINDS), len(CARD_NAMES), len(CARD_IDS)
        self.locations = {loc: i for i, loc in enumerate(LOCATIONS)}
        self.kinds = {k: i for i, k in enumerate(KINDS)}
        self.names = {n: i for i, n in enumerate(CARD_NAMES)}
        self.cards = {c: i for i, c in enumerate(CARD_IDS)}
        self.per_clan = len(CLANS) + 3 + 3 + len(SLOTS) + nn + 3 + 2 * nk
        add = self.layout.add
        self.o_seat = add("seat", seats, "one-hot: the observing seat")
        self.o_age = add("age", 3, "one-hot: the age")
        self.o_phase = add("phase", len(PHASES), f"one-hot: the phase ({', '.join(PHASES)})")
        self.o_first = add("first", seats, "one-hot: the first player")
        self.o_turn = add("turn", seats, "one-hot: the seat whose action turn it is")
        self.o_ragnarok = add("ragnarok", 3 * np_, "per age, one-hot: the province Ragnarok destroys")
        self.o_doom = add("doom", np_, "one-hot: the province under the doom token")
        self.o_provinces = add("provinces", np_ * (2 + len(TOKENS)),
                               f"per province: destroyed, pillaged, one-hot pillage token ({', '.join(TOKENS)})")
        self.o_figures = add("figures", nl * seats * nk,
                             f"per location (provinces then fjords), per seat, per kind ({', '.join(KINDS)}): "
                             "figures there / 8")
        self.o_clans = add("clans", seats * self.per_clan,
                           f"per seat, {self.per_clan} entries: one-hot clan ({', '.join(CLANS)}; none while "
                           "it is to be chosen); glory / 100, rage / 18, passed; stat steps "
                           f"({', '.join(STATS)}) / 5; per upgrade slot ({', '.join(SLOTS)}) 1 if filled; "
                           f"multi-hot: upgrade cards in play by name ({nn} names); hand / 10, quests / 3, "
                           "pack / 8; per kind: figures in the reserve / 8, in Valhalla / 8")
        self.o_decks = add("decks", 3, "per age: cards left in its deck / 40")
        self.o_task = add("task", len(TASKS) + 1, f"one-hot: the decision asked ({', '.join(TASKS)}), last 1 if over")
        self.o_battle = add("battle", np_ + 5 * seats + 2 * nn,
                            "the battle: one-hot province; per seat: pillager, participant, card chosen, out, "
                            "winner; multi-hot card names played, cancelled")
        self.o_strength = add("strength", seats, "per seat in the battle: its STR / 30")
        self.o_march = add("march", np_ + nk, "the march: one-hot source province; per kind: figures chosen / 8")
        self.o_hand = add("hand", nc, "multi-hot by card id: the observing seat's hand")
        self.o_pack = add("pack", nc, "multi-hot by card id: its draft pack")
        self.o_quests = add("quests", nc, "multi-hot by card id: its face-down quests")
        self.o_chosen = add("chosen", nc, "one-hot by card id: its battle card chosen")

    def fill(self, view: Mapping[str, Any], out: np.ndarray) -> None:
        seats = self.seats
        nk, np_ = len(KINDS), len(PROVINCES)
        provinces = {p: i for i, p in enumerate(PROVINCES)}
        you = view.get("you")
        self.one_hot(out, self.o_seat, you["seat"] if you else None)
        self.one_hot(out, self.o_age, view["age"] - 1)
        self.one_hot(out, self.o_phase, PHASES.index(view["phase"]))
        self.one_hot(out, self.o_first, view["first"])
        self.one_hot(out, self.o_turn, view["turn"])
        for age, p in enumerate(view["ragnarok"][:3]):
            out[self.o_ragnarok + age * np_ + provinces[p]] = 1.0
        if view["doom"]:
            self.one_hot(out, self.o_doom, provinces[view["doom"]])
        width = 2 + len(TOKENS)
        for i, province in enumerate(view["provinces"]):
            at = self.o_provinces + i * width
            out[at] = float(bool(province["destroyed"]))
            out[at + 1] = float(bool(province["pillaged"]))
            if province["token"] in TOKENS:
                out[at + 2 + TOKENS.index(province["token"])] = 1.0
        for where in (*view["provinces"], *view["fjords"]):
            base = self.o_figures + self.locations[where["id"]] * seats * nk
            for s, kind in where["figures"]:
                out[base + s * nk + self.kinds[kind]] += 1 / 8
        for clan in view["clans"]:
            at = self.o_clans + clan["seat"] * self.per_clan
            if clan["clan"]:
                out[at + CLANS.index(clan["clan"])] = 1.0
            at += len(CLANS)
            self.counts(out, at, (clan["glory"],), 100)
            self.counts(out, at + 1, (clan["rage"],), 18)
            out[at + 2] = float(bool(clan["passed"]))
            self.counts(out, at + 3, [clan["stats"][k]["step"] for k in STATS], 5)
            at += 6
            for k, slot in enumerate(SLOTS):
                name = clan["upgrades"][slot]
                if name:
                    out[at + k] = 1.0
                    out[at + len(SLOTS) + self.names[name]] = 1.0
            at += len(SLOTS) + len(self.names)
            self.counts(out, at, (clan["hand"],), 10)
            self.counts(out, at + 1, (clan["quests"],), 3)
            self.counts(out, at + 2, (clan["pack"],), 8)
            at += 3
            for kind in clan["reserve"]:
                out[at + self.kinds[kind]] += 1 / 8
            for kind in clan["valhalla"]:
                out[at + nk + self.kinds[kind]] += 1 / 8
        self.counts(out, self.o_decks, view["decks"], 40)
        if view["task"]:
            self.one_hot(out, self.o_task, TASKS.index(view["task"]))
        if view["over"]:
            out[self.o_task + len(TASKS)] = 1.0
        battle = view.get("battle")
        if battle:
            at = self.o_battle
            self.one_hot(out, at, provinces[battle["province"]])
            at += np_
            self.one_hot(out, at, battle["pillager"])
            for s in battle["participants"]:
                out[at + seats + s] = 1.0
            for s, chosen in enumerate(battle["chosen"]):
                out[at + 2 * seats + s] = float(chosen)
            for s in battle["out"]:
                out[at + 3 * seats + s] = 1.0
            if battle["winner"] is not None and battle["winner"] >= 0:
                out[at + 4 * seats + battle["winner"]] = 1.0
            at += 5 * seats
            for names in battle["played"]:
                for name in names:
                    out[at + self.names[name]] = 1.0
            for name in battle["cancelled"]:
                out[at + len(self.names) + self.names[name]] = 1.0
            for s, strength in zip(battle["participants"], battle["strength"], strict=True):
                self.counts(out, self.o_strength + s, (strength,), 30)
        march = view.get("march")
        if march:
            self.one_hot(out, self.o_march, provinces[march["from"]])
            for kind in march["figures"]:
                out[self.o_march + np_ + self.kinds[kind]] += 1 / 8
        if you:
            for key, start in (("hand", self.o_hand), ("pack", self.o_pack), ("quests", self.o_quests)):
                for card in you[key]:
                    out[start + self.cards[card["id"]]] = 1.0
            if "chosen" in you:
                out[self.o_chosen + self.cards[you["chosen"]["id"]]] = 1.0


def setup_of(view: Mapping[str, Any]) -> tuple[int, dict[str, OptionValue]]:
    """The seat count and options of a match, from any of its views (Blood Rage has none)."""
    return len(view["clans"]), {}
