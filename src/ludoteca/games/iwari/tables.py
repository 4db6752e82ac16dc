"""Lookup tables for the hot paths of Iwari's rules, built once per map and per card.

The rules work on small ints (territories, tent spaces, cards) and bit masks of
territories; moves, decisions and events only become dicts and strings at the API edge.
What a call hands out is built here once: a move's shape (copied per call, since callers
may keep or change the moves they get), a Decision, a placement's Event (shared: nothing
changes an event after ``perform`` returns it). A few tables fill lazily, keyed by masks
or small ints, so a map only holds the entries that play reaches.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from ludoteca.engine import Decision, Event, Move, Prompt

from .components import BIOMES, GameMap, cards, game_map

_CARDS = cards()
CARD_IDS = _CARDS.ids
CARD_BIOME = _CARDS.biome
CARD_BIT: tuple[int, ...] = tuple(1 << b for b in CARD_BIOME)
"""Per card, its biome as one bit (of five)."""
CARD_DIGIT: tuple[int, ...] = tuple(b + 1 for b in CARD_BIOME)
"""Per card, its biome as a digit 1-5: the keys of PAY_PATTERNS and of the placement events
write a hand's (or a payment's) biomes in base 6."""
ALL_BIOMES = (1 << len(BIOMES)) - 1
"""The payable biomes of a hand holding a pair: a pair pays anywhere (IW-8)."""
BIT_COUNT: tuple[int, ...] = tuple(bin(mask).count("1") for mask in range(ALL_BIOMES + 1))
"""Per mask of biomes, its number of biomes: a hand with fewer biomes than cards holds a pair."""
DISCARD_MOVES: tuple[Move, ...] = tuple({"type": "discard", "card": c} for c in CARD_IDS)
DISPLAY_MOVES: tuple[Move, ...] = tuple({"type": "draw", "from": "display", "card": c} for c in CARD_IDS)
DECK_MOVE: Move = {"type": "draw", "from": "deck"}
TOTEM_MOVE: Move = {"type": "totem"}
DONE_MOVE: Move = {"type": "done"}
PASS_MOVE: Move = {"type": "pass"}

PIECE_PROMPT = "iwari.prompt.piece"
THIRD_PIECE_PROMPT = "iwari.prompt.third_piece"
PAY_PROMPT = "iwari.prompt.pay"
SEATS = 5
"""Seats and tribes are at most five: the decision and event tables are sized for that."""


def payable(hand: list[int]) -> int:
    """The biomes (as bits) whose territories ``hand`` can pay a piece in: a card of the
    biome, or any pair (IW-8)."""
    seen = 0
    for card in hand:
        bit = CARD_BIT[card]
        if seen & bit:
            return ALL_BIOMES
        seen |= bit
    return seen


PAID_NAMES: dict[int, tuple[str, ...]] = {
    (a + 1) * 6 + b + 1 if a >= 0 else b + 1: (BIOMES[b],) if a < 0 else (BIOMES[a], BIOMES[b])
    for a in range(-1, len(BIOMES)) for b in range(len(BIOMES))}
"""The biome names of a payment (one card, or a pair in the order paid), per its digits in base 6."""

PAY_PATTERNS: dict[int, tuple[tuple[int, int], ...]] = {}
"""The ways to pay a piece (IW-8) as positions in the hand, (i, -1) for a single card and
(i, j) for a pair, per key: the territory's biome, then each card's, as digits 1-5 in
base 6 (rules.legal computes it). A few hundred keys at most: hands hold three cards."""


def pay_pattern(biome: int, hand: list[int]) -> tuple[tuple[int, int], ...]:
    """The ways to pay in a territory of ``biome`` from ``hand`` (IW-8), in a fixed order:
    the single cards of the biome, then the pairs of one other biome, in hand order."""
    biomes = [CARD_BIOME[card] for card in hand]
    code = biome + 1
    for b in biomes:
        code = code * 6 + b + 1
    out = [(i, -1) for i, b in enumerate(biomes) if b == biome]
    out += [(i, j) for i, a in enumerate(biomes) if a != biome
            for j in range(i + 1, len(biomes)) if biomes[j] == a]
    pattern = PAY_PATTERNS[code] = tuple(out)
    return pattern


def _all_pay_patterns() -> None:
    """Fill PAY_PATTERNS at import for every hand of up to three cards (780 keys), so play
    never pays for building them."""
    first = [CARD_BIOME.index(b) for b in range(len(BIOMES))]  # a card of each biome
    hands: list[list[int]] = [[]]
    for _ in range(_CARDS.hand):
        hands += [[*hand, card] for hand in hands if len(hand) == len(hands[-1]) for card in first]
    for biome in range(len(BIOMES)):
        for hand in hands:
            pay_pattern(biome, hand)


_all_pay_patterns()


class MapKit:
    """One map's tables (immutable but for the lazily filled caches)."""

    __slots__ = ("biome_territories", "board", "connection_names", "decisions", "n_pieces", "n_spaces",
                 "placed_events", "spaces", "tent_moves", "territory_bit", "territory_moves", "tids",
                 "totem_allowed")

    def __init__(self, board: GameMap) -> None:
        self.board = board
        n_t = len(board.territories)
        self.n_spaces = len(board.space_ids)
        self.n_pieces = self.n_spaces + n_t
        """Pieces are tent spaces, then the territories' totem circles."""
        self.tids: tuple[str, ...] = tuple(t.id for t in board.territories)
        self.connection_names: tuple[str, ...] = tuple(str(c.number) for c in board.connections)
        self.spaces: tuple[tuple[int, ...], ...] = tuple(t.spaces for t in board.territories)
        self.territory_bit: tuple[int, ...] = tuple(1 << b for b in board.territory_biome)
        """Per territory, its biome as one bit."""
        self.biome_territories: tuple[int, ...] = tuple(
            sum(1 << t for t in range(n_t) if mask >> board.territory_biome[t] & 1) for mask in range(ALL_BIOMES + 1))
        """Per mask of biomes, the mask of the territories of those biomes."""
        self.totem_allowed = board.totem_allowed
        self.tent_moves: tuple[Move, ...] = tuple({"type": "tent", "space": s} for s in board.space_ids)
        self.territory_moves: dict[int, tuple[Move, ...]] = {}
        """Per mask of territories, their territory moves in territory order (filled as met)."""
        self.decisions: tuple[list[list[list[list[Decision] | None]]], ...] = tuple(
            [[[None] * n_t for _tribe in range(SEATS)] for _seat in range(SEATS)] for _pay in (False, True))
        """The piece and pay decisions, ``decisions[pay][seat][tribe][territory]`` with ``pay`` 0 or 1
        (filled as met: plain indexing, no key to build and hash)."""
        self.placed_events: dict[int, Event] = {}
        """The placement events, per (tribe, piece, biomes paid) (filled as met)."""

    def territory_shapes(self, mask: int) -> tuple[Move, ...]:
        shapes = self.territory_moves.get(mask)
        if shapes is None:
            shapes = self.territory_moves[mask] = tuple(
                {"type": "territory", "territory": tid} for t, tid in enumerate(self.tids) if mask >> t & 1)
        return shapes

    def decision(self, pay: bool, seat: int, tribe: int, territory: int) -> list[Decision]:
        """The shared one-item list of a piece or pay decision."""
        args: dict[str, Any] = {"seat": seat, "tribe": tribe, "territory": self.tids[territory]}
        # The third tribe's move cannot be ended early (IW-9): its prompt offers no "end".
        prompt = PAY_PROMPT if pay else PIECE_PROMPT if tribe == seat else THIRD_PIECE_PROMPT
        cached = self.decisions[int(pay)][seat][tribe][territory] = [Decision(seat, Prompt(prompt, args))]
        return cached

    def placed_event(self, tribe: int, space: int, territory: int, paid: int) -> Event:
        """The event of a piece placed: a tent on ``space``, or a totem (``space`` < 0) in
        ``territory``, paid with cards of the biomes ``paid`` (digits 1-5 in base 6, in the
        order paid: rules.perform computes it). Shared, keyed by the tribe, the piece and ``paid``."""
        tid = self.tids[territory]
        names = list(PAID_NAMES[paid])
        if space >= 0:
            event = Event("iwari.placed_tent", {"tribe": tribe, "territory": tid,
                                                "space": self.board.space_ids[space], "paid": names})
        else:
            event = Event("iwari.placed_totem", {"tribe": tribe, "territory": tid, "paid": names})
            space = self.n_spaces + territory  # the totem circle's piece number
        self.placed_events[((tribe * self.n_pieces + space) << 16) + paid] = event
        return event


@cache
def kit(map_id: str) -> MapKit:
    return MapKit(game_map(map_id))
