"""The Hadrian's Wall state and its hand-written clone and JSON form."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ludoteca.engine import Rng

PHASE_CHOOSE = "choose"
PHASE_MAIN = "main"
PHASE_ATTACK = "attack"
PHASE_OVER = "over"


class Player:
    """One seat's sheets and supply."""

    __slots__ = ("boxes", "chosen", "count", "deck", "defended", "diplomat_dirs", "dir_favours", "disdain", "ended",
                 "extra_picts", "favours_used", "glad_damage", "glad_fought", "goods", "guidelines", "hand", "hits",
                 "map", "pending_guideline", "pending_prospect", "prospect", "stock", "temple_favours", "todo",
                 "year_fills")

    def __init__(self, n_boxes: int, n_sections: int) -> None:
        self.boxes = [0] * n_boxes
        """0: empty; else the year the box was filled."""
        self.count = [0] * n_sections
        """Boxes filled per section."""
        self.year_fills = [0] * n_sections
        """Boxes filled per section this year (the # limits)."""
        self.stock = [0, 0, 0, 0, 0]
        self.todo: list[list[Any]] = []
        """Follow-up decisions owed before anything else, oldest first."""
        self.ended = False
        self.chosen = False
        self.deck: list[str] = []
        self.hand: list[str] = []
        self.pending_guideline: str | None = None
        self.pending_prospect: str | None = None
        self.guidelines: list[str] = []
        self.prospect: str | None = None
        self.disdain = 0
        self.temple_favours = 0
        self.dir_favours = [0, 0, 0]
        self.diplomat_dirs: list[str] = []
        self.goods = [0] * 8
        self.glad_damage = [0, 0]
        self.glad_fought = [0, 0]
        self.map = 0
        self.extra_picts = 0
        """Pict cards this seat adds to its own attack this year: one per resource or soldier
        paid onto a neutral card (HW-46), or to a neighbour without resource passing (HW-55)."""
        self.hits = [0, 0, 0]
        """Pict cards attacking this seat, per direction, less the favours used (year end)."""
        self.favours_used = 0
        self.defended = True

    def clone(self) -> Player:
        p = Player.__new__(Player)
        p.boxes = self.boxes[:]
        p.count = self.count[:]
        p.year_fills = self.year_fills[:]
        p.stock = self.stock[:]
        p.todo = [item[:] for item in self.todo]
        p.ended = self.ended
        p.chosen = self.chosen
        p.deck = self.deck[:]
        p.hand = self.hand[:]
        p.pending_guideline = self.pending_guideline
        p.pending_prospect = self.pending_prospect
        p.guidelines = self.guidelines[:]
        p.prospect = self.prospect
        p.disdain = self.disdain
        p.temple_favours = self.temple_favours
        p.dir_favours = self.dir_favours[:]
        p.diplomat_dirs = self.diplomat_dirs[:]
        p.goods = self.goods[:]
        p.glad_damage = self.glad_damage[:]
        p.glad_fought = self.glad_fought[:]
        p.map = self.map
        p.extra_picts = self.extra_picts
        p.hits = self.hits[:]
        p.favours_used = self.favours_used
        p.defended = self.defended
        return p

    def to_json(self) -> dict[str, Any]:
        return {
            "boxes": self.boxes[:], "count": self.count[:], "year_fills": self.year_fills[:],
            "stock": self.stock[:], "todo": [item[:] for item in self.todo], "ended": self.ended,
            "chosen": self.chosen, "deck": self.deck[:], "hand": self.hand[:],
            "pending_guideline": self.pending_guideline, "pending_prospect": self.pending_prospect,
            "guidelines": self.guidelines[:], "prospect": self.prospect, "disdain": self.disdain,
            "temple_favours": self.temple_favours, "dir_favours": self.dir_favours[:],
            "diplomat_dirs": self.diplomat_dirs[:], "goods": self.goods[:], "glad_damage": self.glad_damage[:],
            "glad_fought": self.glad_fought[:], "map": self.map, "extra_picts": self.extra_picts,
            "hits": self.hits[:], "favours_used": self.favours_used, "defended": self.defended,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Player:
        p = cls.__new__(cls)
        p.boxes = list(data["boxes"])
        p.count = list(data["count"])
        p.year_fills = list(data["year_fills"])
        p.stock = list(data["stock"])
        p.todo = [list(item) for item in data["todo"]]
        p.ended = bool(data["ended"])
        p.chosen = bool(data["chosen"])
        p.deck = list(data["deck"])
        p.hand = list(data["hand"])
        p.pending_guideline = data["pending_guideline"]
        p.pending_prospect = data["pending_prospect"]
        p.guidelines = list(data["guidelines"])
        p.prospect = data["prospect"]
        p.disdain = int(data["disdain"])
        p.temple_favours = int(data["temple_favours"])
        p.dir_favours = list(data["dir_favours"])
        p.diplomat_dirs = list(data["diplomat_dirs"])
        p.goods = list(data["goods"])
        p.glad_damage = list(data["glad_damage"])
        p.glad_fought = list(data["glad_fought"])
        p.map = int(data["map"])
        p.extra_picts = int(data["extra_picts"])
        p.hits = list(data["hits"])
        p.favours_used = int(data["favours_used"])
        p.defended = bool(data["defended"])
        return p


class HadriansWallState:
    __slots__ = ("attack_cards", "difficulty", "fate_deck", "fate_discard", "flips", "last_attack", "neutral_deck",
                 "neutral_open", "passing", "phase", "players", "reveal_count", "rng", "seats", "year", "year_card")

    def __init__(self, rng: Rng, seats: int, difficulty: str, passing: bool = True) -> None:
        self.rng = rng
        self.seats = seats
        self.difficulty = difficulty
        self.passing = passing
        """Resource passing (HW-55): a neighbour paid for its card receives the resource or soldier."""
        self.year = 0
        self.phase = PHASE_CHOOSE
        self.players: list[Player] = []
        self.fate_deck: list[str] = []
        """Face down; the top is the end of the list."""
        self.fate_discard: list[str] = []
        self.year_card: str | None = None
        self.flips: list[str] = []
        """Fate cards flipped during this year's actions (market, gladiators), in order."""
        self.attack_cards: list[str] = []
        """The Pict cards of the last attack."""
        self.last_attack: list[dict[str, Any]] = []
        """Per seat, how the last attack went (for views and logs)."""
        self.neutral_deck: list[str] = []
        self.neutral_open: list[str] = []
        self.reveal_count = 0

    def clone(self) -> HadriansWallState:
        s = HadriansWallState.__new__(HadriansWallState)
        s.rng = self.rng.copy()
        s.seats = self.seats
        s.difficulty = self.difficulty
        s.passing = self.passing
        s.year = self.year
        s.phase = self.phase
        s.players = [p.clone() for p in self.players]
        s.fate_deck = self.fate_deck[:]
        s.fate_discard = self.fate_discard[:]
        s.year_card = self.year_card
        s.flips = self.flips[:]
        s.attack_cards = self.attack_cards[:]
        s.last_attack = [dict(a) for a in self.last_attack]
        s.neutral_deck = self.neutral_deck[:]
        s.neutral_open = self.neutral_open[:]
        s.reveal_count = self.reveal_count
        return s

    def to_json(self) -> dict[str, Any]:
        return {
            "rng": self.rng.to_json(), "seats": self.seats, "difficulty": self.difficulty, "passing": self.passing,
            "year": self.year,
            "phase": self.phase, "players": [p.to_json() for p in self.players], "fate_deck": self.fate_deck[:],
            "fate_discard": self.fate_discard[:], "year_card": self.year_card, "flips": self.flips[:],
            "attack_cards": self.attack_cards[:], "last_attack": [dict(a) for a in self.last_attack],
            "neutral_deck": self.neutral_deck[:], "neutral_open": self.neutral_open[:],
            "reveal_count": self.reveal_count,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> HadriansWallState:
        s = cls.__new__(cls)
        s.rng = Rng.from_json(data["rng"])
        s.seats = int(data["seats"])
        s.difficulty = str(data["difficulty"])
        s.passing = bool(data["passing"])
        s.year = int(data["year"])
        s.phase = str(data["phase"])
        s.players = [Player.from_json(p) for p in data["players"]]
        s.fate_deck = list(data["fate_deck"])
        s.fate_discard = list(data["fate_discard"])
        s.year_card = data["year_card"]
        s.flips = list(data["flips"])
        s.attack_cards = list(data["attack_cards"])
        s.last_attack = [dict(a) for a in data["last_attack"]]
        s.neutral_deck = list(data["neutral_deck"])
        s.neutral_open = list(data["neutral_open"])
        s.reveal_count = int(data["reveal_count"])
        return s
