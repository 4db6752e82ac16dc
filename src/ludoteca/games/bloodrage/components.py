"""Blood Rage components: the board, the clans' sheets and the three Gods' Gifts decks.

Loaded and validated once from data/*.json into immutable tables. Locations are small
ints: provinces 0..8 (8 is Yggdrasil), fjords 9..12; off-board places are negative.
"""

from __future__ import annotations

import builtins
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

RESERVE = -1
VALHALLA = -2
BOX = -3

STATS = ("rage", "axes", "horns")
SLOTS = ("warrior", "leader", "ship", "monster1", "monster2", "clan1", "clan2", "clan3")


def _load(name: str) -> dict[str, Any]:
    text = (Path(__file__).parent / "data" / name).read_text(encoding="utf-8")
    data = json.loads(text)
    if "_provenance" not in data:
        raise ValueError(f"{name}: no _provenance header")
    return data


@dataclass(frozen=True, slots=True)
class Card:
    id: str
    name: str
    age: int
    type: str  # battle, quest, upgrade
    marker: int  # 0, 3 or 4: the least seat count that keeps it
    str: int = 0  # battle bonus, or the STR an upgrade gives
    cost: int = 0  # rage to play an upgrade
    # Below the field named after the game's STR, a bare ``str`` would name that field.
    slot: builtins.str = ""  # upgrade: warrior, leader, ship, monster, clan
    goal: builtins.str = ""  # quest: a realm, "yggdrasil" or "valhalla"
    glory: int = 0  # quest reward


_board = _load("board.json")
_clans = _load("clans.json")
_cards = _load("cards.json")

PROVINCES: tuple[str, ...] = tuple(p["id"] for p in _board["provinces"])
YGG = PROVINCES.index("yggdrasil")
OUTER = tuple(i for i in range(len(PROVINCES)) if i != YGG)
REALM: tuple[str, ...] = tuple(p["realm"] for p in _board["provinces"])
VILLAGES: tuple[int, ...] = tuple(p["villages"] if p["villages"] is not None else 999 for p in _board["provinces"])
FJORDS: tuple[str, ...] = tuple(f["id"] for f in _board["fjords"])
LOCATIONS: tuple[str, ...] = PROVINCES + FJORDS
LOC_INDEX = {name: i for i, name in enumerate(LOCATIONS)}
FJORD_LOCS = tuple(range(len(PROVINCES), len(LOCATIONS)))
FJORD_SUPPORTS: tuple[tuple[int, int], ...] = tuple(
    (PROVINCES.index(f["supports"][0]), PROVINCES.index(f["supports"][1])) for f in _board["fjords"]
)
# the fjords (as locations) supporting each province
SUPPORT: tuple[tuple[int, ...], ...] = tuple(
    tuple(len(PROVINCES) + k for k, pair in enumerate(FJORD_SUPPORTS) if p in pair) for p in range(len(PROVINCES))
)
# The outer provinces clockwise from the top of the printed board (Elvagar): the board
# drawing follows it. Adjacency comes from the land borders read off the printed board
# (BR-2), Yggdrasil bordering every province.
RING: tuple[str, ...] = tuple(_board["ring"])
_adj: dict[int, set[int]] = {p: set() for p in range(len(PROVINCES))}
for _a, _b in _board["borders"]:
    p, q = PROVINCES.index(_a), PROVINCES.index(_b)
    _adj[p].add(q)
    _adj[q].add(p)
for p in OUTER:
    _adj[p].add(YGG)
    _adj[YGG].add(p)
# The data must agree with itself: the ring names each outer province once, the borders
# between outer provinces are exactly the ring's neighbours, and each fjord lies between
# two provinces that share a border (as on the printed board).
if sorted(RING) != sorted(PROVINCES[p] for p in OUTER):
    raise ValueError("board.json: the ring must list every outer province once")
_ring_pairs = {frozenset((RING[k], RING[(k + 1) % len(RING)])) for k in range(len(RING))}
if {frozenset(pair) for pair in _board["borders"]} != _ring_pairs:
    raise ValueError("board.json: the borders must be the ring's neighbours")
for _a, _b in FJORD_SUPPORTS:
    if _b not in _adj[_a] or YGG in (_a, _b):
        raise ValueError("board.json: a fjord must lie between two bordering outer provinces")
ADJACENT: tuple[tuple[int, ...], ...] = tuple(tuple(sorted(_adj[p])) for p in range(len(PROVINCES)))
REALMS = ("manheim", "alfheim", "jotunheim")
REALM_PROVINCES = {realm: tuple(p for p in OUTER if REALM[p] == realm) for realm in REALMS}
YGG_TOKEN = _board["pillage_tokens"]["yggdrasil"]
OUTER_TOKENS: tuple[str, ...] = tuple(_board["pillage_tokens"]["outer"])
PILLAGE_GLORY: int = _board["pillage_glory"]
RAGNAROK_GLORY: tuple[int, ...] = tuple(_board["ragnarok_glory"])
DESTROYED_AT_SETUP = {int(k): v for k, v in _board["destroyed_at_setup"].items()}

CLANS: tuple[str, ...] = tuple(_clans["clans"])
TRACKS: tuple[tuple[int, ...], ...] = tuple(tuple(_clans["stats"][s]) for s in STATS)
LEGENDARY: tuple[int, ...] = tuple(_clans["legendary_glory"])
MAX_STEP = len(TRACKS[0]) - 1
assert tuple(_clans["slots"]) == SLOTS

CARDS: dict[str, Card] = {}
for raw in _cards["cards"]:
    card = Card(**{k: v for k, v in raw.items()})
    if card.type not in ("battle", "quest", "upgrade") or card.marker not in (0, 3, 4):
        raise ValueError(f"bad card {raw}")
    CARDS[card.id] = card
DECKS: tuple[tuple[str, ...], ...] = tuple(
    tuple(c.id for c in CARDS.values() if c.age == age) for age in (1, 2, 3)
)
for _deck in DECKS:
    assert len(_deck) == 34
CARD_NAMES = sorted({c.name for c in CARDS.values()})
# a monster's figure kind is its card name
MONSTERS = frozenset(c.name for c in CARDS.values() if c.type == "upgrade" and c.slot == "monster")
MONSTER_STR = {c.name: c.str for c in CARDS.values() if c.slot == "monster"}
MONSTER_COST = {c.name: c.cost for c in CARDS.values() if c.slot == "monster"}
SHIP_KINDS = frozenset({"ship", "sea_serpent"})


def deck_for(age: int, seats: int) -> list[str]:
    """The age deck with the cards removed by seat count (3+: three or more seats...)."""
    return [cid for cid in DECKS[age - 1] if CARDS[cid].marker <= seats]
