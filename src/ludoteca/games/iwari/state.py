"""Iwari's state: flat lists of ints (cheap to clone and to compare) and its JSON form.

Tribes are numbered like seats; with 2 seats, tribe 2 is the third tribe both players
play (IW-9). Per-territory counts are flat lists indexed ``territory * tribes + tribe``
so a clone is a handful of list slices.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any, ClassVar

from ludoteca.engine import Rng
from ludoteca.engine.fields import BOOL, INT, INT_ROWS, INTS, RNG, STR, Field, Fields, Kind, optional

from .components import GameMap, cards, game_map
from .tables import MapKit, kit

# Phases: what the pending seat is deciding.
START = 0  # choose a territory, or discard one card, or (nothing possible) pass
PIECE = 1  # choose the next piece (a tent space or the totem circle), or done
PAY = 2  # choose the cards paying for the chosen piece
DRAW = 3  # refill the hand from the deck or the display
FEAT = 4  # place a feat just earned
THIRD = 5  # 2 seats: choose the territory of the third tribe's move
OVER = 6
PHASES: tuple[str, ...] = ("start", "piece", "pay", "draw", "feat", "third", "over")

NO_PIECE = -1
TOTEM = -2
"""``state.piece`` while paying: a tent space index, or TOTEM."""


class IwariState:
    __slots__ = (
        "board",
        "connection_factor",
        "covered",
        "current",
        "deck",
        "discard",
        "display",
        "end",
        "end_triggered",
        "exhaustions",
        "expedition_cards",
        "expedition_done",
        "expedition_points",
        "expeditions_on",
        "feat_places",
        "feat_queue",
        "feats",
        "feats_on",
        "free",
        "half",
        "hands",
        "kit",
        "limit",
        "map_id",
        "phase",
        "piece",
        "pieces_in",
        "placed",
        "played",
        "rng",
        "room_for",
        "scores",
        "seats",
        "tent_count",
        "tent_room",
        "tents",
        "tents_left",
        "territory",
        "territory_factor",
        "totem_count",
        "totem_room",
        "totems_left",
        "tribe",
        "tribes",
        "turns",
    )

    FIELDS: ClassVar[Fields]
    """Every field, declared once (below the class)."""

    board: GameMap
    """The map in play (immutable, shared by clones; not serialised: ``map_id`` names it)."""
    kit: MapKit
    """The map's lookup tables for the rules (shared by clones; not serialised)."""
    rng: Rng
    seats: int
    tribes: int
    map_id: str
    feats_on: bool
    expeditions_on: bool
    tents: list[int]
    """Per tent space: the tribe whose tent stands there, or -1."""
    tent_count: list[int]
    totem_count: list[int]
    pieces_in: list[int]
    """Per territory: pieces of any tribe (0: unexplored)."""
    free: list[int]
    """Per territory: empty tent spaces."""
    tents_left: list[int]
    totems_left: list[int]
    hands: list[list[int]]
    deck: list[int]
    """The draw deck; its top is the last item."""
    display: list[int]
    discard: list[int]
    covered: list[int]
    """Per connection: 1 if a mountain covers it (never scored)."""
    phase: int
    current: int
    """The seat whose turn it is."""
    tribe: int
    """The tribe placing pieces now (the current seat's, or the third tribe's)."""
    territory: int
    limit: int
    placed: int
    piece: int
    played: int
    """Cards the current seat played for its own move this turn (IW-9)."""
    exhaustions: int
    end_triggered: bool
    turns: int
    scores: list[int]
    """Per tribe (the third tribe's are shown but rank nobody)."""
    half: list[list[int]] | None
    """The half-journey tent points, per territory per tribe, once scored."""
    territory_factor: list[int]
    connection_factor: list[int]
    feats: list[list[int]]
    """Per feat kind, the seats that earned it, in order."""
    feat_places: list[tuple[int, int, int]]
    """(feat kind, seat, territory or connection index) of each feat placed."""
    feat_queue: list[tuple[int, int, tuple[int, ...]]]
    """Feats earned but not yet placed: (kind, seat, the targets allowed)."""
    expedition_cards: list[int]
    expedition_done: list[list[int]]
    expedition_points: list[int]
    tent_room: int
    """Derived, not serialised: the territories (bits) with an empty tent space."""
    totem_room: int
    """Derived, not serialised: the territories (bits) where a totem may go (IW-7, IW-24):
    allowed, and fewer totems than the tent majority."""
    room_for: list[int] | None
    """The ``pieces_in`` that ``tent_room`` and ``totem_room`` were computed for; None, or
    counts that differ (a state read back from JSON, pieces put by hand in a test), means
    they must be rebuilt before use (rules.room). Placing a piece keeps all three up to date."""
    end: dict[str, Any] | None
    """The end-of-journey scoring once the game is over, kept for ``result`` (not serialised:
    recomputed from the board when a state is read back)."""

    def copy(self) -> IwariState:
        new = IwariState.__new__(IwariState)
        new.board = self.board
        new.kit = self.kit
        new.rng = self.rng.copy()
        new.seats = self.seats
        new.tribes = self.tribes
        new.map_id = self.map_id
        new.feats_on = self.feats_on
        new.expeditions_on = self.expeditions_on
        new.tents = self.tents[:]
        new.tent_count = self.tent_count[:]
        new.totem_count = self.totem_count[:]
        new.pieces_in = self.pieces_in[:]
        new.free = self.free[:]
        new.tents_left = self.tents_left[:]
        new.totems_left = self.totems_left[:]
        new.hands = [hand[:] for hand in self.hands]
        new.deck = self.deck[:]
        new.display = self.display[:]
        new.discard = self.discard[:]
        new.covered = self.covered  # never changes after set-up: shared
        new.phase = self.phase
        new.current = self.current
        new.tribe = self.tribe
        new.territory = self.territory
        new.limit = self.limit
        new.placed = self.placed
        new.piece = self.piece
        new.played = self.played
        new.exhaustions = self.exhaustions
        new.end_triggered = self.end_triggered
        new.turns = self.turns
        new.scores = self.scores[:]
        new.half = self.half  # written once, never mutated: shared
        new.territory_factor = self.territory_factor[:]
        new.connection_factor = self.connection_factor[:]
        new.feats = [seats[:] for seats in self.feats]
        new.feat_places = self.feat_places[:]
        new.feat_queue = self.feat_queue[:]
        new.expedition_cards = self.expedition_cards
        new.expedition_done = [seats[:] for seats in self.expedition_done]
        new.expedition_points = self.expedition_points[:]
        new.tent_room = self.tent_room
        new.totem_room = self.totem_room
        room_for = self.room_for
        new.room_for = None if room_for is None else room_for[:]
        new.end = self.end  # set once at the end, never mutated: shared
        return new

    def to_json(self) -> dict[str, Any]:
        return STATE_FIELDS.to_json(self)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> IwariState:
        return STATE_FIELDS.from_json(cls, data)


# -- the declared fields: the JSON form is derived from them, the clone checked against them

def _card_ids(hand: list[int]) -> list[str]:
    ids = cards().ids
    return [ids[c] for c in hand]


@cache
def _card_index() -> dict[str, int]:
    return {card_id: i for i, card_id in enumerate(cards().ids)}


def _card_indices(names: list[str]) -> list[int]:
    index = _card_index()
    return [index[name] for name in names]


CARDS = Kind("card ids", _card_ids, _card_indices)
"""A list of cards: indices in the state, card ids in JSON."""
CARD_ROWS = Kind("lists of card ids", lambda rows: [_card_ids(row) for row in rows],
                 lambda rows: [_card_indices(row) for row in rows])
FEAT_PLACES = Kind("feat places", lambda places: [list(place) for place in places],
                   lambda places: [(int(k), int(seat), int(t)) for k, seat, t in places])
FEAT_QUEUE = Kind("feat queue", lambda queue: [[kind, seat, list(targets)] for kind, seat, targets in queue],
                  lambda queue: [(int(k), int(seat), tuple(int(t) for t in targets)) for k, seat, targets in queue])

STATE_FIELDS = Fields(
    Field("board", derived=lambda s: game_map(s.map_id)),
    Field("kit", derived=lambda s: kit(s.map_id)),
    Field("rng", RNG),
    Field("seats", INT),
    Field("tribes", INT),
    Field("map_id", STR, key="map"),
    Field("feats_on", BOOL),
    Field("expeditions_on", BOOL),
    Field("tents", INTS),
    Field("tent_count", INTS),
    Field("totem_count", INTS),
    Field("pieces_in", INTS),
    Field("free", INTS),
    Field("tents_left", INTS),
    Field("totems_left", INTS),
    Field("hands", CARD_ROWS),
    Field("deck", CARDS),
    Field("display", CARDS),
    Field("discard", CARDS),
    Field("covered", INTS, clone="share"),  # set up once, never changes
    Field("phase", INT),
    Field("current", INT),
    Field("tribe", INT),
    Field("territory", INT),
    Field("limit", INT),
    Field("placed", INT),
    Field("piece", INT),
    Field("played", INT),
    Field("exhaustions", INT),
    Field("end_triggered", BOOL),
    Field("turns", INT),
    Field("scores", INTS),
    Field("half", optional(INT_ROWS), clone="share"),  # written once, never mutated
    Field("territory_factor", INTS),
    Field("connection_factor", INTS),
    Field("feats", INT_ROWS),
    Field("feat_places", FEAT_PLACES),
    Field("feat_queue", FEAT_QUEUE),
    Field("expedition_cards", INTS, clone="share"),  # drawn at set-up, never changes
    Field("expedition_done", INT_ROWS),
    Field("expedition_points", INTS),
    Field("tent_room", derived=lambda s: 0, clone="copy"),
    Field("totem_room", derived=lambda s: 0, clone="copy"),
    Field("room_for", derived=lambda s: None, clone="copy"),  # None: rebuilt at first use
    Field("end", derived=lambda s: None),  # the end scoring, recomputed by result() when read back
)
IwariState.FIELDS = STATE_FIELDS
