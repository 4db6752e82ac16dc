"""Hadrian's Wall components: the fate deck, the player cards, the year table and both
sheets box by box, loaded from data/ once and validated.

Sheets are flattened: every box gets an index into one global list, every section an
index too, so a seat's sheet is a list of ints (0: empty, else the year it was filled).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

DATA = Path(__file__).parent / "data"

WORKERS = ("soldiers", "builders", "servants", "civilians")
STOCK = (*WORKERS, "resources")
"""A seat's stock: four kinds of workers and the resources, indexed 0..4."""
SOLDIERS, BUILDERS, SERVANTS, CIVILIANS, RESOURCES = range(5)
ATTRIBUTES = ("renown", "piety", "valour", "discipline")
CITIZENS = ("traders", "performers", "priests", "apparitors", "patricians")
DIRECTIONS = ("left", "centre", "right")
COHORTS = ("cohort_left", "cohort_centre", "cohort_right")
KINDS = ("track", "column", "free")
DIFFICULTIES = ("easy", "normal", "hard")

FOLLOW_UPS = ("cohort", "sword", "production", "road_small", "road_large", "forum", "favour", "diplomat",
              "trade", "scout", "fight_1", "fight_2", "approve")
REWARD_TOKENS = frozenset((*STOCK, *ATTRIBUTES, *CITIZENS, *FOLLOW_UPS))
PATTERN_NAMES = ("I", "L", "O", "T", "Z")
GOALS = ("landmarks", "final_disdain", "wall_sections", "large_buildings", "full_cohorts", "production", "goods",
         "citizen_tracks", "temples", "scout_columns", "gladiator_strength", "wall_guard_sections")


class DataError(ValueError):
    """A data file breaks the rules of its format."""


@dataclass(frozen=True)
class Box:
    id: str
    index: int
    section: int
    position: int
    costs: tuple[tuple[int, ...], ...]
    """Payment options, each a 5-tuple over STOCK; one empty option for a free box."""
    pay_labels: tuple[str, ...]
    lock: tuple[tuple[int, int], ...]
    """(section index, least filled count) pairs that must all hold."""
    reward: tuple[str, ...]
    large: bool


@dataclass(frozen=True)
class Section:
    id: str
    index: int
    sheet: str
    kind: str
    earned: bool
    per_year: int
    boxes: tuple[int, ...]


@dataclass(frozen=True)
class FateCard:
    id: str
    attack: str
    gladiator: int
    good: int
    gain: tuple[int, ...]


@dataclass(frozen=True)
class PlayerCard:
    id: str
    goal: str
    thresholds: tuple[int, ...]
    gift: tuple[int, ...]
    good: int
    pattern: str


@dataclass(frozen=True)
class Components:
    boxes: tuple[Box, ...]
    sections: tuple[Section, ...]
    box_index: dict[str, int]
    section_index: dict[str, int]
    fate: tuple[FateCard, ...]
    fate_index: dict[str, FateCard]
    cards: tuple[PlayerCard, ...]
    card_index: dict[str, PlayerCard]
    patterns: dict[str, tuple[tuple[int, int], ...]]
    placements: dict[str, tuple[int, ...]]
    """Per pattern, every placement on the empty 4x5 map as a bit mask (rotations, flips)."""
    orientations: dict[str, tuple[tuple[int, ...], ...]]
    """Per pattern, its distinct rotations and flips, each with its placements."""
    years: tuple[dict[str, int], ...]
    disdain_penalty: tuple[int, ...]
    solo_ranks: tuple[tuple[int, str], ...]
    market_renown: tuple[int, ...]
    neutral_cards: dict[int, int]
    glad_survive: tuple[tuple[str, ...], ...]
    glad_die: tuple[tuple[str, ...], ...]
    map_rows: int
    map_cols: int
    map_rewards: dict[int, str]
    large_boxes: tuple[int, ...]


def _load(name: str) -> dict[str, Any]:
    data = json.loads((DATA / name).read_text(encoding="utf-8"))
    if not isinstance(data, dict) or "_provenance" not in data:
        raise DataError(f"{name}: a data file starts with a _provenance header")
    return data


def _stock(mapping: dict[str, int], where: str) -> tuple[int, ...]:
    for key, value in mapping.items():
        if key not in STOCK or not isinstance(value, int) or value < 0:
            raise DataError(f"{where}: bad stock entry {key!r}: {value!r}")
    return tuple(int(mapping.get(k, 0)) for k in STOCK)


def _label(cost: tuple[int, ...]) -> str:
    parts = [STOCK[i] for i in range(5) for _ in range(cost[i])]
    return "+".join(parts) or "free"


def _forum_costs() -> list[tuple[int, ...]]:
    out = []
    for a in range(1, 4):
        for b in range(a, 4):
            cost = [0] * 5
            cost[a] += 1
            cost[b] += 1
            out.append(tuple(cost))
    return out


def _orientations(cells: tuple[tuple[int, int], ...], rows: int, cols: int) -> tuple[tuple[int, ...], ...]:
    """Every rotation and flip of a pattern, each with all its placements on the empty map
    (bit masks), in a fixed order; the first mask of each is the shape at the map's corner."""
    shapes: set[tuple[tuple[int, int], ...]] = set()
    for flip in (False, True):
        turned = [(r, -c) for r, c in cells] if flip else list(cells)
        for _ in range(4):
            turned = [(c, -r) for r, c in turned]
            min_r = min(r for r, _ in turned)
            min_c = min(c for _, c in turned)
            shapes.add(tuple(sorted((r - min_r, c - min_c) for r, c in turned)))
    out = []
    for shape in sorted(shapes):
        height = max(r for r, _ in shape) + 1
        width = max(c for _, c in shape) + 1
        masks = []
        for r0 in range(rows - height + 1):
            for c0 in range(cols - width + 1):
                mask = 0
                for r, c in shape:
                    mask |= 1 << ((r0 + r) * cols + c0 + c)
                masks.append(mask)
        out.append(tuple(masks))
    return tuple(out)


def _sheets(raw: list[dict[str, Any]]) -> tuple[list[Box], list[Section]]:
    boxes: list[Box] = []
    sections: list[Section] = []
    pending_locks: list[tuple[int, dict[str, int]]] = []
    section_ids: dict[str, int] = {}
    box_ids: set[str] = set()
    for sheet in raw:
        for sec in sheet["sections"]:
            sid = sec["id"]
            if sid in section_ids:
                raise DataError(f"section {sid!r} appears twice")
            kind = sec.get("kind")
            if kind not in KINDS:
                raise DataError(f"section {sid!r}: unknown kind {kind!r}")
            if not sec.get("boxes"):
                raise DataError(f"section {sid!r} has no boxes")
            index = len(sections)
            section_ids[sid] = index
            members = []
            for position, box in enumerate(sec["boxes"]):
                bid = box["id"]
                if bid in box_ids:
                    raise DataError(f"box {bid!r} appears twice")
                box_ids.add(bid)
                cost_spec = box.get("cost", sec.get("cost"))
                if sec.get("earned"):
                    costs: list[tuple[int, ...]] = []
                elif cost_spec == "forum":
                    costs = _forum_costs()
                elif isinstance(cost_spec, list) and cost_spec:
                    costs = [_stock(c, bid) for c in cost_spec]
                else:
                    raise DataError(f"box {bid!r} has no cost and is not earned")
                reward = tuple(box.get("reward", ()))
                for token in reward:
                    if token not in REWARD_TOKENS:
                        raise DataError(f"box {bid!r}: unknown reward {token!r}")
                lock = box.get("lock", {})
                if not isinstance(lock, dict):
                    raise DataError(f"box {bid!r}: a lock is a mapping")
                b_index = len(boxes)
                pending_locks.append((b_index, lock))
                boxes.append(Box(bid, b_index, index, position, tuple(costs), tuple(_label(c) for c in costs), (),
                                 reward, bool(box.get("large", False))))
                members.append(b_index)
            alt = sec.get("also_filled_by")
            if alt is not None and alt not in REWARD_TOKENS:
                raise DataError(f"section {sid!r}: unknown icon {alt!r}")
            per_year = int(sec.get("per_year", 0))
            sections.append(Section(sid, index, sheet["sheet"], kind, bool(sec.get("earned", False)), per_year,
                                    tuple(members)))
    for b_index, lock in pending_locks:
        pairs = []
        for sid, least in lock.items():
            if sid not in section_ids:
                raise DataError(f"box {boxes[b_index].id!r}: lock names unknown section {sid!r}")
            target = sections[section_ids[sid]]
            if not isinstance(least, int) or not 1 <= least <= len(target.boxes):
                raise DataError(f"box {boxes[b_index].id!r}: lock {sid}>={least!r} is out of range")
            if target.index == boxes[b_index].section:
                raise DataError(f"box {boxes[b_index].id!r} is locked by its own section")
            pairs.append((target.index, least))
        old = boxes[b_index]
        boxes[b_index] = Box(old.id, old.index, old.section, old.position, old.costs, old.pay_labels,
                             tuple(pairs), old.reward, old.large)
    for name in (*COHORTS, *ATTRIBUTES, *CITIZENS, "production", "wall_guard", "wall", "fort", "goods", "bribes",
                 "scouts", "diplomats", "gladiator_1", "gladiator_2", "small_temple", "medium_temple",
                 "large_temple", "inn", "workshop", "road", "granary", "mining", "palisade", "forum",
                 "training_grounds", "performances", "precinct", "gardens", "temples", "market", "theatre", "arena",
                 "baths", "courthouse", "court_1", "court_2", "court_3", "archway", "monolith", "column", "statue"):
        if name not in section_ids:
            raise DataError(f"the sheets lack section {name!r}")
    for name in (*ATTRIBUTES,):
        if len(sections[section_ids[name]].boxes) != 25:
            raise DataError(f"attribute track {name!r} must have 25 boxes")
    return boxes, sections


@cache
def components() -> Components:
    fate_raw = _load("fate_cards.json")["cards"]
    fate = []
    for card in fate_raw:
        if card["attack"] not in DIRECTIONS or card["gladiator"] not in (1, 2, 3) or not 1 <= card["good"] <= 6:
            raise DataError(f"fate card {card.get('id')!r} is malformed")
        fate.append(FateCard(card["id"], card["attack"], card["gladiator"], card["good"],
                             _stock(card["gain"], card["id"])))
    if len(fate) != 48 or len({c.id for c in fate}) != 48:
        raise DataError("the fate deck has 48 distinct cards")
    for d in DIRECTIONS:
        if sum(1 for c in fate if c.attack == d) != 16:
            raise DataError(f"the fate deck has 16 cards attacking {d}")

    pc = _load("player_cards.json")
    patterns = {}
    for name, cells in pc["patterns"].items():
        if name not in PATTERN_NAMES or len(cells) != 4:
            raise DataError(f"pattern {name!r} must be a tetromino")
        patterns[name] = tuple((int(r), int(c)) for r, c in cells)
    cards = []
    for card in pc["cards"]:
        if card["goal"] not in GOALS or card["pattern"] not in patterns or len(card["thresholds"]) != 3:
            raise DataError(f"player card {card.get('id')!r} is malformed")
        cards.append(PlayerCard(card["id"], card["goal"], tuple(card["thresholds"]), _stock(card["gift"], card["id"]),
                                card["good"], card["pattern"]))
    if len(cards) != 12 or len({c.id for c in cards}) != 12 or len({c.goal for c in cards}) != 12:
        raise DataError("there are 12 distinct player cards")

    years = _load("years.json")
    table = tuple({k: int(v) for k, v in row.items()} for row in years["years"])
    if [row["year"] for row in table] != [1, 2, 3, 4, 5, 6]:
        raise DataError("the year table covers years 1..6")
    for row in table:
        if not row["easy"] <= row["normal"] <= row["hard"]:
            raise DataError("harder difficulties flip more Pict cards")

    a = _load("sheet_a.json")
    b = _load("sheet_b.json")
    boxes, sections = _sheets([a, b])
    sm = b["scout_map"]
    rows, cols = int(sm["rows"]), int(sm["cols"])
    orientations = {name: _orientations(cells, rows, cols) for name, cells in patterns.items()}
    placements = {name: tuple(sorted(m for o in orients for m in o)) for name, orients in orientations.items()}
    glad = b["gladiator"]
    if len(glad["survive"]) != 6 or len(glad["die"]) != 6:
        raise DataError("each gladiator has 6 boxes of rewards")
    return Components(
        boxes=tuple(boxes),
        sections=tuple(sections),
        box_index={box.id: box.index for box in boxes},
        section_index={s.id: s.index for s in sections},
        fate=tuple(fate),
        fate_index={c.id: c for c in fate},
        cards=tuple(cards),
        card_index={c.id: c for c in cards},
        patterns=patterns,
        placements=placements,
        orientations=orientations,
        years=table,
        disdain_penalty=tuple(years["disdain_penalty"]),
        solo_ranks=tuple((int(p), str(n)) for p, n in years["solo_ranks"]),
        market_renown=tuple(years["market_renown"]),
        neutral_cards={int(k): int(v) for k, v in years["neutral_cards"].items()},
        glad_survive=tuple(tuple(r) for r in glad["survive"]),
        glad_die=tuple(tuple(r) for r in glad["die"]),
        map_rows=rows,
        map_cols=cols,
        map_rewards={int(k): v for k, v in sm["rewards"].items()},
        large_boxes=tuple(box.index for box in boxes if box.large),
    )
