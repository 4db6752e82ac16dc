"""The Crusaders state: plain lists and ints, cloned by hand."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ludoteca.engine import Rng


class Player:
    """One seat's board: wheel, knights, buildings, troops, influence, trophies, knight order."""

    __slots__ = ("built", "defeated", "influence", "knights", "offers", "order", "rejected", "tokens", "troops",
                 "upgraded", "wheel")

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
        return {
            "wheel": list(self.wheel), "tokens": self.tokens[:], "upgraded": self.upgraded[:],
            "knights": self.knights[:], "built": self.built[:], "troops": self.troops, "influence": self.influence,
            "defeated": self.defeated[:], "order": self.order, "offers": self.offers[:], "rejected": self.rejected,
        }

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> Player:
        p = cls()
        p.wheel = tuple(d["wheel"])
        p.tokens = list(d["tokens"])
        p.upgraded = list(d["upgraded"])
        p.knights = list(d["knights"])
        p.built = list(d["built"])
        p.troops = d["troops"]
        p.influence = d["influence"]
        p.defeated = list(d["defeated"])
        p.order = d["order"]
        p.offers = list(d["offers"])
        p.rejected = d["rejected"]
        return p


class CrusadersState:
    """The whole table. ``phase`` names the decision awaited; the fields after it hold the
    turn in progress (the wedge resolved, the actions still to do, movement points left...)."""

    __slots__ = ("actions", "box", "buildings", "current", "ending", "enemy", "knight_orders", "phase", "players",
                 "points", "revealed", "reward", "rng", "round", "sara_region", "seats", "setup_tasks", "side",
                 "supply", "tiles", "track", "turns", "wedge", "wheel_option")

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
        return {
            "seats": self.seats, "knight_orders": self.knight_orders, "wheel_option": self.wheel_option,
            "side": self.side, "rng": self.rng.to_json(), "players": [p.to_json() for p in self.players],
            "enemy": self.enemy[:], "buildings": [[list(b) for b in bs] for bs in self.buildings],
            "tiles": self.tiles[:], "track": self.track[:], "supply": self.supply, "ending": self.ending,
            "phase": self.phase, "current": self.current, "round": self.round, "turns": self.turns,
            "revealed": self.revealed, "box": self.box[:], "setup_tasks": [list(t) for t in self.setup_tasks],
            "wedge": self.wedge, "actions": [list(a) for a in self.actions], "points": self.points,
            "sara_region": self.sara_region, "reward": self.reward,
        }

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> CrusadersState:
        s = cls()
        s.seats = d["seats"]
        s.knight_orders = d["knight_orders"]
        s.wheel_option = d["wheel_option"]
        s.side = d["side"]
        s.rng = Rng.from_json(d["rng"])
        s.players = [Player.from_json(p) for p in d["players"]]
        s.enemy = list(d["enemy"])
        s.buildings = [tuple((int(b[0]), str(b[1]), int(b[2])) for b in bs) for bs in d["buildings"]]
        s.tiles = list(d["tiles"])
        s.track = list(d["track"])
        s.supply = d["supply"]
        s.ending = d["ending"]
        s.phase = d["phase"]
        s.current = d["current"]
        s.round = d["round"]
        s.turns = d["turns"]
        s.revealed = d["revealed"]
        s.box = list(d["box"])
        s.setup_tasks = [(int(t[0]), str(t[1])) for t in d["setup_tasks"]]
        s.wedge = d["wedge"]
        s.actions = [(str(a[0]), int(a[1])) for a in d["actions"]]
        s.points = d["points"]
        s.sara_region = d["sara_region"]
        s.reward = d["reward"]
        return s
