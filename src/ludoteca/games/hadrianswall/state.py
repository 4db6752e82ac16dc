"""The Hadrian's Wall state and its hand-written clone and JSON form."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from ludoteca.engine import Rng
from ludoteca.engine.fields import BOOL, INT, INTS, JSON, OPT_STR, RNG, STR, STRS, Field, Fields, objects

PHASE_CHOOSE = "choose"
PHASE_MAIN = "main"
PHASE_ATTACK = "attack"
PHASE_OVER = "over"


class Player:
    """One seat's sheets and supply."""

    __slots__ = ("boxes", "chosen", "count", "deck", "defended", "diplomat_dirs", "dir_favours", "disdain", "ended",
                 "extra_picts", "favours_used", "glad_damage", "glad_fought", "goods", "guidelines", "hand", "hits",
                 "map", "pending_guideline", "pending_prospect", "prospect", "ready", "ready_count", "stock",
                 "temple_favours", "todo", "year_fills")
    FIELDS: ClassVar[Fields]
    """Every field, declared once (below the class)."""

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
        self.ready: list[int] = []
        """Derived, not serialised (sheets.ready_boxes): the boxes whose order and locks let
        them be filled, ascending; kept up to date by sheets.fill."""
        self.ready_count: list[int] | None = None
        """The section counts ``ready`` was computed for; None, or counts that differ (a
        state read back, a test that set a count by hand), and it is recomputed."""

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
        p.ready = self.ready[:]
        rc = self.ready_count
        p.ready_count = None if rc is None else rc[:]
        return p

    def to_json(self) -> dict[str, Any]:
        return PLAYER_FIELDS.to_json(self)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Player:
        return PLAYER_FIELDS.from_json(cls, data)


PLAYER_FIELDS = Fields(
    Field("boxes", INTS),
    Field("count", INTS),
    Field("year_fills", INTS),
    Field("stock", INTS),
    Field("todo", JSON),
    Field("ended", BOOL),
    Field("chosen", BOOL),
    Field("deck", STRS),
    Field("hand", STRS),
    Field("pending_guideline", OPT_STR),
    Field("pending_prospect", OPT_STR),
    Field("guidelines", STRS),
    Field("prospect", OPT_STR),
    Field("disdain", INT),
    Field("temple_favours", INT),
    Field("dir_favours", INTS),
    Field("diplomat_dirs", STRS),
    Field("goods", INTS),
    Field("glad_damage", INTS),
    Field("glad_fought", INTS),
    Field("map", INT),
    Field("extra_picts", INT),
    Field("hits", INTS),
    Field("favours_used", INT),
    Field("defended", BOOL),
    Field("ready", derived=lambda p: [], clone="copy"),
    Field("ready_count", derived=lambda p: None, clone="copy"),
)
Player.FIELDS = PLAYER_FIELDS


class HadriansWallState:
    __slots__ = ("attack_cards", "difficulty", "fate_deck", "fate_discard", "flips", "last_attack", "neutral_deck",
                 "neutral_open", "passing", "phase", "players", "reveal_count", "rng", "seats", "year", "year_card")
    FIELDS: ClassVar[Fields]
    """Every field, declared once (below the class)."""

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
        return STATE_FIELDS.to_json(self)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> HadriansWallState:
        return STATE_FIELDS.from_json(cls, data)


STATE_FIELDS = Fields(
    Field("rng", RNG),
    Field("seats", INT),
    Field("difficulty", STR),
    Field("passing", BOOL),
    Field("year", INT),
    Field("phase", STR),
    Field("players", objects(Player)),
    Field("fate_deck", STRS),
    Field("fate_discard", STRS),
    Field("year_card", OPT_STR),
    Field("flips", STRS),
    Field("attack_cards", STRS),
    Field("last_attack", JSON),
    Field("neutral_deck", STRS),
    Field("neutral_open", STRS),
    Field("reveal_count", INT),
)
HadriansWallState.FIELDS = STATE_FIELDS
