"""Crusaders components: loaded from data/ once, validated, and frozen."""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path
from typing import Any

DATA = Path(__file__).parent / "data"

ACTIONS = ("move", "muster", "crusade", "influence", "build")
BUILDINGS = ("castle", "church", "farm", "bank")
ENEMIES = ("prussian", "slav", "saracen")
BONUS_KINDS = ("move", "muster", "crusade", "influence", "build", "knight")
HEX_DIRECTIONS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
ROW_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


@dataclass(frozen=True)
class Region:
    id: str
    q: int
    r: int
    start: bool
    flag: bool
    bonus_slot: bool
    discount: tuple[tuple[str, int], ...]
    influence: tuple[tuple[str, int], ...]
    name: str = ""  # the name players read on the map and in the log (CR-43), e.g. "D2"

    def discount_for(self, building: str) -> int:
        return sum(n for b, n in self.discount if b == building)

    def influence_for(self, building: str) -> int:
        return sum(n for b, n in self.influence if b == building)


@dataclass(frozen=True)
class Board:
    side: str
    regions: tuple[Region, ...]
    neighbours: tuple[tuple[int, ...], ...]
    index: dict[str, int]
    starts: tuple[int, ...]
    flags: tuple[int, ...]
    slots: tuple[int, ...]


@dataclass(frozen=True)
class Wedge:
    id: str
    action: str
    upgrade: str


@dataclass(frozen=True)
class BuildingType:
    id: str
    costs: tuple[int, ...]
    uncovers: tuple[tuple[tuple[str, int], ...], ...]
    end: tuple[tuple[str, int], ...]


@dataclass(frozen=True)
class Troop:
    cost: int
    influence: int
    crusade: int


@dataclass(frozen=True)
class BonusTile:
    id: str
    building: str
    discount: int
    influence: int

    def applies(self, building: str) -> bool:
        return self.building in ("any", building)


@dataclass(frozen=True)
class KnightOrder:
    id: str
    extra_tokens: int
    extra_move_tokens: int
    tokens_per_wedge: int
    removed_tokens: int
    upgrades: int
    extra_knight: bool
    all_bonus: int
    move_bonus: int
    sow_from_same: bool
    sow_skip: bool
    sow_double: bool
    sow_reverse: bool


@dataclass(frozen=True)
class Components:
    boards: dict[str, Board]
    wedges: tuple[Wedge, ...]
    wedge_index: dict[str, int]
    tokens_per_wedge: int
    first_game_order: tuple[str, ...]
    learning_upgraded: tuple[str, ...]
    buildings: dict[str, BuildingType]
    troops: tuple[Troop, ...]
    enemy_tokens: tuple[str, ...]
    tracks: dict[str, tuple[int, ...]]
    saracen_strength: int
    saracen_fallback: int
    majority_first: int
    majority_second: int
    majority_tied_first: int
    tiles: tuple[BonusTile, ...]
    tile_index: dict[str, BonusTile]
    orders: tuple[KnightOrder, ...]
    order_index: dict[str, KnightOrder]
    supply_base: int
    supply_per_player: int
    knights: int
    round_limit: int

    def board_for(self, seats: int) -> Board:
        return self.boards["small" if seats == 2 else "large"]


def _load(name: str) -> dict[str, Any]:
    with (DATA / name).open(encoding="utf-8") as handle:
        data = json.load(handle)
    if "_provenance" not in data:
        raise ValueError(f"crusaders data {name} has no _provenance header")
    return data


def _pairs(mapping: dict[str, int] | None, allowed: tuple[str, ...]) -> tuple[tuple[str, int], ...]:
    out = []
    for key, value in sorted((mapping or {}).items()):
        if key not in allowed or not isinstance(value, int):
            raise ValueError(f"crusaders data: bad entry {key!r}: {value!r}")
        out.append((key, value))
    return tuple(out)


def region_names(cells: list[tuple[int, int]]) -> list[str]:
    """Names for hexes given as axial (q, r): a letter per row from the north (A, B, ...) and a number
    per place in the row from the west (1, 2, ...), so "D2" is the second hex of the fourth row (CR-43).
    No public source names the regions of the printed map, so the names are a grid drawn on the map."""
    rows = sorted({r for _, r in cells})
    return [f"{ROW_LETTERS[rows.index(r)]}{sorted(q2 for q2, r2 in cells if r2 == r).index(q) + 1}" for q, r in cells]


def _named(regions: tuple[Region, ...]) -> tuple[Region, ...]:
    names = region_names([(reg.q, reg.r) for reg in regions])
    return tuple(replace(reg, name=name) for reg, name in zip(regions, names, strict=True))


def _board(side: str, data: dict[str, Any]) -> Board:
    regions = tuple(
        Region(r["id"], int(r["q"]), int(r["r"]), bool(r.get("start")), bool(r.get("flag")),
               bool(r.get("bonus_slot")), _pairs(r.get("discount"), BUILDINGS), _pairs(r.get("influence"), BUILDINGS))
        for r in data["regions"]
    )
    regions = _named(regions)
    where = {(reg.q, reg.r): i for i, reg in enumerate(regions)}
    if len(where) != len(regions):
        raise ValueError(f"crusaders board {side}: two regions share a hex")
    neighbours = tuple(
        tuple(where[(reg.q + dq, reg.r + dr)] for dq, dr in HEX_DIRECTIONS if (reg.q + dq, reg.r + dr) in where)
        for reg in regions
    )
    starts = tuple(i for i, reg in enumerate(regions) if reg.start)
    if len(starts) < max(data["seats"]):
        raise ValueError(f"crusaders board {side}: too few start spaces")
    return Board(side, regions, neighbours, {reg.id: i for i, reg in enumerate(regions)}, starts,
                 tuple(i for i, reg in enumerate(regions) if reg.flag),
                 tuple(i for i, reg in enumerate(regions) if reg.bonus_slot))


@cache
def components() -> Components:
    board = _load("board.json")
    wheel = _load("wheel.json")
    buildings = _load("buildings.json")
    troops = _load("troops.json")
    enemies = _load("enemies.json")
    tiles = _load("bonus_tiles.json")
    orders = _load("knight_orders.json")
    game = _load("game.json")

    wedges = tuple(Wedge(w["id"], w["action"], w["upgrade"]) for w in wheel["wedges"])
    if len(wedges) != 6 or any(w.action not in ACTIONS or w.upgrade not in ACTIONS or w.action == w.upgrade
                               for w in wedges):
        raise ValueError("crusaders wheel: six wedges with two different actions each")
    btypes = {}
    for name in BUILDINGS:
        b = buildings["types"][name]
        if len(b["costs"]) != 4 or len(b["uncovers"]) != 4:
            raise ValueError(f"crusaders building {name}: four levels")
        btypes[name] = BuildingType(name, tuple(b["costs"]), tuple(_pairs(u, BONUS_KINDS) for u in b["uncovers"]),
                                    tuple(sorted(b["end"].items())))
    knights_unlocked = sum(n for u in btypes["castle"].uncovers for k, n in u if k == "knight")
    if knights_unlocked != game["knights"] - 1:
        raise ValueError("crusaders: castles must unlock every knight but the first")
    enemy_tokens: list[str] = []
    for kind in ("prussian", "slav"):
        enemy_tokens += [kind] * (enemies["tokens"][kind] - 1)  # one marks the track
    for reward, count in sorted(enemies["tokens"]["saracen"].items()):
        if reward not in (*BUILDINGS, "troop"):
            raise ValueError(f"crusaders saracen reward {reward!r}")
        enemy_tokens += [f"saracen:{reward}"] * count
    tile_list = tuple(BonusTile(t["id"], t["building"], int(t.get("discount", 0)), int(t.get("influence", 0)))
                      for t in tiles["tiles"])
    if len(tile_list) != int(tiles["count_confirmed"]) or len({t.id for t in tile_list}) != len(tile_list):
        raise ValueError("crusaders: the bonus tiles must be the box's count, each with its own id")
    for t in tile_list:
        if t.building not in (*BUILDINGS, "any") or (t.discount > 0) == (t.influence > 0) or min(t.discount,
                                                                                                   t.influence) < 0:
            raise ValueError(f"crusaders bonus tile {t.id}: one building type (or any), a discount or an influence")
    ids = {w.id for w in wedges}
    if sorted(wheel["first_game_order"]) != sorted(ids) or not set(wheel["learning_upgraded"]) <= ids:
        raise ValueError("crusaders wheel: the first-game order holds each wedge once")
    order_list = []
    for o in orders["orders"]:
        s, p = o["setup"], o["play"]
        order_list.append(KnightOrder(
            o["id"], int(s.get("extra_tokens", 0)), int(s.get("extra_move_tokens", 0)),
            int(s.get("tokens_per_wedge", wheel["tokens_per_wedge"])), int(s.get("removed_tokens", 0)),
            int(s.get("upgrades", 0)), bool(s.get("extra_knight", False)), int(p.get("all_bonus", 0)),
            int(p.get("move_bonus", 0)), bool(p.get("sow_from_same", False)), bool(p.get("sow_skip", False)),
            bool(p.get("sow_double", False)), bool(p.get("sow_reverse", False))))
    if len(order_list) != 10:
        raise ValueError("crusaders: there are 10 knight orders")
    boards = {side: _board(side, data) for side, data in board["sides"].items()}
    if any(len(b.slots) > len(tile_list) for b in boards.values()):
        raise ValueError("crusaders: more bonus spaces than tiles")
    if any(len(b.flags) > len(enemy_tokens) for b in boards.values()):
        raise ValueError("crusaders: more flag spaces than enemy tokens")
    return Components(
        boards=boards,
        wedges=wedges,
        wedge_index={w.id: i for i, w in enumerate(wedges)},
        tokens_per_wedge=int(wheel["tokens_per_wedge"]),
        first_game_order=tuple(wheel["first_game_order"]),
        learning_upgraded=tuple(wheel["learning_upgraded"]),
        buildings=btypes,
        troops=tuple(Troop(int(t["cost"]), int(t["influence"]), int(t["crusade"])) for t in troops["troops"]),
        enemy_tokens=tuple(enemy_tokens),
        tracks={k: tuple(v) for k, v in enemies["tracks"].items()},
        saracen_strength=int(enemies["saracen_strength"]),
        saracen_fallback=int(enemies["saracen_fallback_influence"]),
        majority_first=int(enemies["majority"]["first"]),
        majority_second=int(enemies["majority"]["second"]),
        majority_tied_first=int(enemies["majority"]["tied_first"]),
        tiles=tile_list,
        tile_index={t.id: t for t in tile_list},
        orders=tuple(order_list),
        order_index={o.id: o for o in order_list},
        supply_base=int(game["supply_base"]),
        supply_per_player=int(game["supply_per_player"]),
        knights=int(game["knights"]),
        round_limit=int(game["round_limit"]),
    )
