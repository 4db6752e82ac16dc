"""The Crusaders state: plain lists and ints, cloned by hand."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from ludoteca.engine import Rng
from ludoteca.engine.fields import BOOL, INT, INTS, RNG, STR, STRS, Field, Fields, Kind, objects

BOOLS = Kind("list of bools", lambda v: v[:], lambda v: [bool(x) for x in v])
WHEEL = Kind("wedge ids", list, lambda v: tuple(str(x) for x in v))
BUILDINGS = Kind("buildings per region", lambda v: [[list(b) for b in here] for here in v],
                 lambda v: [tuple((int(b[0]), str(b[1]), int(b[2])) for b in here) for here in v])
"""Per region, a tuple of (seat, type, level): replaced, never changed in place."""
SETUP_TASKS = Kind("setup tasks", lambda v: [list(t) for t in v], lambda v: [(int(t[0]), str(t[1])) for t in v])
ACTIONS = Kind("actions to resolve", lambda v: [list(a) for a in v], lambda v: [(str(a[0]), int(a[1])) for a in v])


class Player:
    """One seat's board: wheel, knights, buildings, troops, influence, trophies, knight order."""

    FIELDS: ClassVar[Fields] = Fields(
        Field("wheel", WHEEL),
        Field("tokens", INTS),
        Field("upgraded", BOOLS),
        Field("knights", INTS),
        Field("built", INTS),
        Field("troops", INT),
        Field("influence", INT),
        Field("defeated", INTS),
        Field("order", STR),
        Field("offers", STRS),
        Field("rejected", STR),
    )
    """Every field with its JSON form, declared once: the JSON form is derived from it and the
    hand-written clone checked against it (tests/engine/test_conformance.py)."""
    __slots__ = tuple(f.name for f in FIELDS)

    def __init__(self) -> None:
        self.wheel: tuple[str, ...] = ()   # wedge ids by position, clockwise
        self.tokens: list[int] = [0] * 6   # action tokens per position
        self.upgraded: list[bool] = [False] * 6
        self.knights: list[int] = []       # region index, or -1 while still on the player board
        self.built: list[int] = [0, 0, 0, 0]  # buildings built per type (castle, church, farm, bank)
        self.troops = 0                    # troops mustered
        self.influence = 0
        self.defeated: list[int] = [0, 0, 0]  # prussian, slav, saracen tokens won
        self.order = ""                    # knight order id ("" none yet)
        self.offers: list[str] = []        # the two order tiles offered (hidden from others)
        self.rejected = ""                 # the order tile sent back to the box (hidden from others)

    def clone(self) -> Player:
        p = Player.__new__(Player)
        p.wheel = self.wheel
        p.tokens = self.tokens[:]
        p.upgraded = self.upgraded[:]
        p.knights = self.knights[:]
        p.built = self.built[:]
        p.troops = self.troops
        p.influence = self.influence
        p.defeated = self.defeated[:]
        p.order = self.order
        p.offers = self.offers[:]
        p.rejected = self.rejected
        return p

    def to_json(self) -> dict[str, Any]:
        return Player.FIELDS.to_json(self)

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> Player:
        return Player.FIELDS.from_json(cls, d)


class CrusadersState:
    """The whole table. ``phase`` names the decision awaited; the fields after it hold the
    turn in progress (the wedge resolved, the actions still to do, movement points left...)."""

    FIELDS: ClassVar[Fields] = Fields(
        Field("seats", INT),
        Field("knight_orders", BOOL),
        Field("wheel_option", STR),
        Field("side", STR),
        Field("rng", RNG),
        Field("players", objects(Player)),
        Field("enemy", STRS),
        Field("buildings", BUILDINGS),
        Field("tiles", STRS),
        Field("track", INTS),
        Field("supply", INT),
        Field("ending", BOOL),
        Field("phase", STR),
        Field("current", INT),
        Field("round", INT),
        Field("turns", INT),
        Field("revealed", BOOL),
        Field("box", STRS),
        Field("setup_tasks", SETUP_TASKS),
        Field("wedge", INT),
        Field("actions", ACTIONS),
        Field("points", INT),
        Field("sara_region", INT),
        Field("reward", STR),
    )
    """Every field with its JSON form, declared once: the JSON form is derived from it and the
    hand-written clone checked against it (tests/engine/test_conformance.py)."""
    __slots__ = tuple(f.name for f in FIELDS)

    def __init__(self) -> None:
        self.seats = 0
        self.knight_orders = True
        self.wheel_option = "shared"
        self.side = "large"
        self.rng = Rng(0)
        self.players: list[Player] = []
        self.enemy: list[str] = []         # per region: "", "prussian", "slav", "saracen:<reward>"
        self.buildings: list[tuple[tuple[int, str, int], ...]] = []  # per region: (seat, type, level)...
        self.tiles: list[str] = []         # per region: bonus tile id or ""
        self.track = [0, 0]                # steps advanced on the Prussian and Slav tracks
        self.supply = 0
        self.ending = False                # the last influence token has left the supply
        self.phase = "order"
        self.current = 0
        self.round = 0
        self.turns = 0
        self.revealed = False              # knight orders revealed
        self.box: list[str] = []           # knight orders never dealt (hidden)
        self.setup_tasks: list[tuple[int, str]] = []  # (seat, task) from knight orders, then knight placement
        self.wedge = -1                    # the wedge resolved this turn
        self.actions: list[tuple[str, int]] = []  # actions still to resolve this turn, with their token count
        self.points = 0                    # movement points left
        self.sara_region = -1              # the region of the Saracen just beaten
        self.reward = ""                   # what that Saracen offers: a building type or "troop"

    def clone(self) -> CrusadersState:
        s = CrusadersState.__new__(CrusadersState)
        s.seats = self.seats
        s.knight_orders = self.knight_orders
        s.wheel_option = self.wheel_option
        s.side = self.side
        s.rng = self.rng.copy()
        s.players = [p.clone() for p in self.players]
        s.enemy = self.enemy[:]
        s.buildings = self.buildings[:]
        s.tiles = self.tiles[:]
        s.track = self.track[:]
        s.supply = self.supply
        s.ending = self.ending
        s.phase = self.phase
        s.current = self.current
        s.round = self.round
        s.turns = self.turns
        s.revealed = self.revealed
        s.box = self.box[:]
        s.setup_tasks = self.setup_tasks[:]
        s.wedge = self.wedge
        s.actions = self.actions[:]
        s.points = self.points
        s.sara_region = self.sara_region
        s.reward = self.reward
        return s

    def to_json(self) -> dict[str, Any]:
        return CrusadersState.FIELDS.to_json(self)

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> CrusadersState:
        return CrusadersState.FIELDS.from_json(cls, d)
