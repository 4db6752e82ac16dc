"""The Blood Rage state and its hand-written clone.

Figures are kept per seat in two parallel lists: ``kinds[seat][i]`` ("leader", "ship",
"warrior" or a monster's card name) and ``locs[seat][i]`` (a location index from
components, or RESERVE / VALHALLA / BOX). Everything that must still happen is a task on
``stack`` (top at the end): small tuples such as ``("raise", seat, ())`` or
``("resolve",)``. A task whose name is a decision waits for a move; the others run as soon
as they reach the top. The battle under way, if any, is ``battle``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from ludoteca.engine import Rng
from ludoteca.engine.fields import BOOL, INT, INT_ROWS, INTS, RNG, STR, STRS, Field, Fields, Kind, one, optional

_copy = list.copy


def _nested_tuple(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_nested_tuple(v) for v in value)
    return value


def _nested_list(value: Any) -> Any:
    if isinstance(value, tuple | list):
        return [_nested_list(v) for v in value]
    return value


BOOLS = Kind("list of bools", lambda v: v[:], lambda v: [bool(x) for x in v])
STR_ROWS = Kind("list of lists of strings", lambda v: [row[:] for row in v],
                lambda v: [[str(x) for x in row] for row in v])
STR_TUPLES = Kind("list of tuples of strings", lambda v: [list(t) for t in v],
                  lambda v: [tuple(str(x) for x in t) for t in v])
"""Rows that are tuples: a new tuple replaces one, none is changed in place."""
TASKS = Kind("task stack", _nested_list, lambda v: [_nested_tuple(t) for t in v])
"""Tasks: tuples of a kind and JSON-able arguments (tuples inside stay tuples)."""
NESTED_TUPLE = Kind("nested tuple", _nested_list, _nested_tuple)


class Battle:
    """A pillage attempt in progress: call to arms, battle cards, resolution."""

    FIELDS: ClassVar[Fields] = Fields(
        Field("call_seat", INT),
        Field("cancelled", STRS),
        Field("chosen", STRS),
        Field("declines", INT),
        Field("destroyed", INTS),
        Field("extra_seat", INT),
        Field("fought", BOOL),
        Field("out", INTS),
        Field("participants", INTS),
        Field("passes", INT),
        Field("pillager", INT),
        Field("played", STR_ROWS),
        Field("province", INT),
        Field("valkyrie", INTS),
        Field("winner", INT),
    )
    """Every field with its JSON form, declared once: the JSON form is derived from it and the
    hand-written clone checked against it (tests/engine/test_conformance.py)."""
    __slots__ = tuple(f.name for f in FIELDS)

    def __init__(self, province: int, pillager: int, seats: int) -> None:
        self.province = province
        self.pillager = pillager
        self.participants: list[int] = []
        self.chosen: list[str] = [""] * seats  # face-down cards, not yet revealed
        self.played: list[list[str]] = [[] for _ in range(seats)]  # revealed cards
        self.cancelled: list[str] = []  # revealed cards whose text Thor's Primacy cancelled
        self.call_seat = (pillager + 1) % seats
        self.declines = 0
        self.extra_seat = pillager
        self.passes = 0
        self.destroyed: list[int] = [0] * seats  # figures each seat lost in this battle
        self.out: list[int] = []  # participants left with no figure before the comparison (still in)
        self.winner = -1
        self.fought = False
        self.valkyrie: list[int] = []  # seats whose Valkyrie took part

    def clone(self) -> Battle:
        b = Battle.__new__(Battle)
        b.province = self.province
        b.pillager = self.pillager
        b.participants = self.participants[:]
        b.chosen = self.chosen[:]
        b.played = list(map(_copy, self.played))
        b.cancelled = self.cancelled[:]
        b.call_seat = self.call_seat
        b.declines = self.declines
        b.extra_seat = self.extra_seat
        b.passes = self.passes
        b.destroyed = self.destroyed[:]
        b.out = self.out[:]
        b.winner = self.winner
        b.fought = self.fought
        b.valkyrie = self.valkyrie[:]
        return b

    def to_json(self) -> dict[str, Any]:
        return Battle.FIELDS.to_json(self)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Battle:
        return Battle.FIELDS.from_json(cls, data)


class BRState:
    FIELDS: ClassVar[Fields] = Fields(
        Field("age", INT),
        Field("battle", one(Battle)),
        Field("clans", STRS),
        Field("decks", STR_TUPLES),
        Field("destroyed", BOOLS),
        Field("first", INT),
        Field("glory", INTS),
        Field("hands", STR_ROWS),
        Field("kinds", STR_TUPLES),
        Field("locs", INT_ROWS),
        Field("march", optional(NESTED_TUPLE)),
        Field("moves", INT),
        Field("n", INT),
        Field("over", BOOL),
        Field("packs", STR_ROWS),
        Field("passed", BOOLS),
        Field("phase", STR),
        Field("pillaged", BOOLS),
        Field("quests", STR_ROWS),
        Field("rage", INTS),
        Field("ragnarok", INTS),
        Field("rng", RNG),
        Field("stack", TASKS),
        Field("stats", INT_ROWS),
        Field("taken", INTS),
        Field("tokens", STRS),
        Field("told", BOOL),
        Field("turn", INT),
        Field("upgrades", STR_TUPLES),
        # Derived, not in the JSON: how many figures stand on each board place, and the copy
        # of ``locs`` those counts are for (board.occupancy recounts when the two differ, so
        # a state read back or a figure moved by hand is counted afresh).
        Field("occ", derived=lambda s: None, clone="copy"),
        Field("occ_of", derived=lambda s: None, clone="copy"),
        # Derived with them (board.occupancy): per seat, a summary of its figures (board count,
        # bits of the places where it has figures that are not ships and of those with ships,
        # bits of its figures in the reserve, counts per place), and the bits of the places
        # with no room left.
        Field("figs", derived=lambda s: None, clone="copy"),
        Field("full", derived=lambda s: 0, clone="copy"),
        # Derived, not in the JSON, not copied by a clone: (top task, its step, its seats) as
        # rules.perform left them, so that pending and legal do not ask the step again.
        Field("asked", derived=lambda s: None),
    )
    """Every field with its JSON form, declared once: the JSON form is derived from it and the
    hand-written clone checked against it (tests/engine/test_conformance.py)."""
    __slots__ = tuple(f.name for f in FIELDS)

    n: int
    rng: Rng
    clans: list[str]  # each seat's clan; "" while it has not chosen yet
    told: bool  # the set-up (first player, dealt clans) is announced with the first move
    age: int
    phase: str
    first: int
    turn: int
    glory: list[int]
    rage: list[int]
    passed: list[bool]
    stats: list[list[int]]
    hands: list[list[str]]
    quests: list[list[str]]
    upgrades: list[tuple[str, ...]]
    kinds: list[tuple[str, ...]]
    locs: list[list[int]]
    pillaged: list[bool]
    destroyed: list[bool]
    tokens: list[str]
    ragnarok: list[int]
    decks: list[tuple[str, ...]]
    packs: list[list[str]]
    taken: list[int]
    stack: list[tuple]
    battle: Battle | None
    march: tuple | None
    over: bool
    moves: int
    occ: list[int] | None
    occ_of: list[list[int]] | None
    figs: list[list[int]] | None
    full: int
    asked: tuple | None

    def clone(self) -> BRState:
        s = BRState.__new__(BRState)
        s.n = self.n
        s.rng = self.rng.copy()
        s.clans = self.clans[:]
        s.told = self.told
        s.age = self.age
        s.phase = self.phase
        s.first = self.first
        s.turn = self.turn
        s.glory = self.glory[:]
        s.rage = self.rage[:]
        s.passed = self.passed[:]
        s.stats = list(map(_copy, self.stats))
        s.hands = list(map(_copy, self.hands))
        s.quests = list(map(_copy, self.quests))
        s.upgrades = self.upgrades[:]  # tuples: replaced, never changed in place
        s.kinds = self.kinds[:]
        s.locs = list(map(_copy, self.locs))
        s.pillaged = self.pillaged[:]
        s.destroyed = self.destroyed[:]
        s.tokens = self.tokens[:]
        s.ragnarok = self.ragnarok[:]
        s.decks = self.decks[:]
        s.packs = list(map(_copy, self.packs))
        s.taken = self.taken[:]
        s.stack = self.stack[:]
        s.battle = self.battle.clone() if self.battle is not None else None
        s.march = self.march
        s.over = self.over
        s.moves = self.moves
        occ_of = self.occ_of
        if occ_of is None:
            s.occ = s.occ_of = s.figs = None
        else:
            s.occ = self.occ[:]  # type: ignore[index]
            s.occ_of = list(map(_copy, occ_of))
            s.figs = list(map(_copy, self.figs))  # type: ignore[arg-type]
        s.full = self.full
        s.asked = None  # asked again on first use: a clone may be changed before it is read
        return s

    def to_json(self) -> dict[str, Any]:
        return BRState.FIELDS.to_json(self)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> BRState:
        return BRState.FIELDS.from_json(cls, data)
