"""The Blood Rage state and its hand-written clone.

Figures are kept per seat in two parallel lists: ``kinds[seat][i]`` ("leader", "ship",
"warrior" or a monster's card name) and ``locs[seat][i]`` (a location index from
components, or RESERVE / VALHALLA / BOX). Everything that must still happen is a task on
``stack`` (top at the end): small tuples such as ``("raise", seat, ())`` or
``("resolve",)``. A task whose name is a decision waits for a move; the others run as soon
as they reach the top. The battle under way, if any, is ``battle``.
"""

from __future__ import annotations

from typing import Any

from ludoteca.engine import Rng

_copy = list.copy


class Battle:
    """A pillage attempt in progress: call to arms, battle cards, resolution."""

    __slots__ = (
        "call_seat",
        "cancelled",
        "chosen",
        "declines",
        "destroyed",
        "extra_seat",
        "fought",
        "out",
        "participants",
        "passes",
        "pillager",
        "played",
        "province",
        "valkyrie",
        "winner",
    )

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
        return {name: _plain(getattr(self, name)) for name in Battle.__slots__}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Battle:
        b = Battle.__new__(Battle)
        for name in Battle.__slots__:
            value = data[name]
            setattr(b, name, [list(v) if isinstance(v, list) else v for v in value] if isinstance(value, list)
                    else value)
        return b


def _plain(value: Any) -> Any:
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    return value


class BRState:
    __slots__ = (
        "age",
        "battle",
        "clans",
        "decks",
        "destroyed",
        "first",
        "glory",
        "hands",
        "kinds",
        "locs",
        "march",
        "moves",
        "n",
        "over",
        "packs",
        "passed",
        "phase",
        "pillaged",
        "quests",
        "rage",
        "ragnarok",
        "rng",
        "stack",
        "stats",
        "taken",
        "tokens",
        "told",
        "turn",
        "upgrades",
    )

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
        return s

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {}
        for name in BRState.__slots__:
            value = getattr(self, name)
            if name == "rng":
                data[name] = value.to_json()
            elif name == "battle":
                data[name] = value.to_json() if value is not None else None
            else:
                data[name] = _plain(value)
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> BRState:
        s = BRState.__new__(BRState)
        for name in BRState.__slots__:
            value = data[name]
            if name == "rng":
                value = Rng.from_json(value)
            elif name == "battle":
                value = Battle.from_json(value) if value is not None else None
            elif name == "stack":
                value = [_tuple(t) for t in value]
            elif name in ("upgrades", "kinds", "decks"):
                value = [tuple(v) for v in value]
            elif name == "march":
                value = _tuple(value) if value is not None else None
            elif isinstance(value, list):
                value = [list(v) if isinstance(v, list) else v for v in value]
            setattr(s, name, value)
        return s


def _tuple(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_tuple(v) for v in value)
    return value
