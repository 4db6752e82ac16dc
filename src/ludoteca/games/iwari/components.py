"""Iwari's components, loaded from data/ once and validated, as immutable objects.

Everything the rules look up during play is precomputed here as tuples of ints
(space -> territory, settlement neighbours, connections by territory) so that legal
move generation and scoring never parse strings or rebuild graphs.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from itertools import pairwise
from typing import Any

BIOMES: tuple[str, ...] = ("tundra", "forest", "glacier", "coast", "desert")
BIOME_INDEX: dict[str, int] = {name: i for i, name in enumerate(BIOMES)}
MAP_IDS: tuple[str, ...] = ("base", "floating-lands", "glacial-mass", "long-road")
LAND, SEA = 0, 1


class DataError(ValueError):
    """A data file breaks an invariant; raised when it loads, never during play."""


def _load(name: str) -> dict[str, Any]:
    text = resources.files(__package__).joinpath("data", name).read_text(encoding="utf-8")
    data = json.loads(text)
    if not isinstance(data.get("_provenance"), str) or not data["_provenance"]:
        raise DataError(f"{name}: every data file says what is confirmed and reconstructed (_provenance)")
    return data


# -- cards -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CardSet:
    """The biome cards: ``ids[i]`` is card i's public name, ``biome[i]`` its biome index."""

    ids: tuple[str, ...]
    biome: tuple[int, ...]
    removed_per_biome: dict[int, int]
    display: int
    hand: int
    max_per_turn: int

    def for_seats(self, seats: int) -> list[int]:
        """The cards in play (a new list): the highest-numbered of each biome are boxed (IW-2)."""
        return list(_cards_in_play(seats))


@cache
def _cards_in_play(seats: int) -> tuple[int, ...]:
    deck = cards()
    drop = deck.removed_per_biome[seats]
    kept: list[int] = []
    for b in range(len(BIOMES)):
        of_biome = [i for i in range(len(deck.ids)) if deck.biome[i] == b]
        kept.extend(of_biome[: len(of_biome) - drop])
    return tuple(kept)


@cache
def cards() -> CardSet:
    data = _load("cards.json")
    if [b["id"] for b in data["biomes"]] != list(BIOMES):
        raise DataError("cards.json: the five biomes, in order")
    ids: list[str] = []
    biome: list[int] = []
    for b, entry in enumerate(data["biomes"]):
        for n in range(1, entry["cards"] + 1):
            ids.append(f"{entry['id']}-{n:02d}")
            biome.append(b)
    if len(ids) != 57:
        raise DataError(f"cards.json: 57 cards, not {len(ids)}")
    removed = {int(k): int(v) for k, v in data["removed_per_biome"].items()}
    if sorted(removed) != [2, 3, 4, 5]:
        raise DataError("cards.json: a removal count for 2 to 5 seats")
    return CardSet(tuple(ids), tuple(biome), removed, data["display"], data["hand"], data["max_cards_per_turn"])


# -- pieces, connection types ---------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Pieces:
    tents_on_map: int
    totems: int
    colours: tuple[str, ...]


@cache
def pieces() -> Pieces:
    data = _load("pieces.json")
    on_map = data["tents_per_tribe"] - data["tents_on_score_track"]
    if on_map != 20 or data["totems_per_tribe"] != 8 or len(data["tribes"]) != 5:
        raise DataError("pieces.json: 20 tents on the map, 8 totems, 5 tribes")
    return Pieces(on_map, data["totems_per_tribe"], tuple(data["tribes"]))


@cache
def mountains_by_seats() -> dict[int, int]:
    data = _load("connections.json")
    counts = {int(k): int(v) for k, v in data["mountains_by_seats"].items()}
    if data["peaks"] != [1, 2, 3, 4] or data["spots_per_type"] != 2 or counts.get(2) != 4:
        raise DataError("connections.json: four types of two spots, all four mountains with 2 seats")
    if any(not 0 <= n <= 4 for n in counts.values()):
        raise DataError("connections.json: at most one mountain per type")
    return counts


# -- maps ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Territory:
    index: int
    id: str
    biome: int
    spaces: tuple[int, ...]
    """Its tent spaces (global space indexes)."""


@dataclass(frozen=True, slots=True)
class Connection:
    index: int
    number: int
    """The printed number; connections are scored in number order."""
    a: int
    b: int
    kind: int
    """LAND or SEA."""
    peaks: int
    """Its type, 1 to 4 peaks (a mountain may cover it), or 0: no type, never covered."""
    ends: tuple[int, int]
    """The tent spaces it touches (Floating Lands: it joins them as a road)."""


@dataclass(frozen=True, slots=True)
class GameMap:
    id: str
    name: str
    territories: tuple[Territory, ...]
    space_ids: tuple[str, ...]
    space_territory: tuple[int, ...]
    roads: tuple[tuple[int, int], ...]
    neighbours: tuple[tuple[int, ...], ...]
    """Per space, the spaces joined to it for settlements (roads, and on Floating Lands the connections)."""
    connections: tuple[Connection, ...]
    """In number order."""
    territory_connections: tuple[tuple[int, ...], ...]
    """Per territory, the indexes of its connections."""
    peak_spots: tuple[tuple[int, ...], ...]
    """Per type (index 0 = 1 peak), the connection indexes showing it."""
    purple_road: tuple[int, ...]
    """The Long Road: the spaces on the purple road, scored like a territory at the end."""
    connections_are_roads: bool
    totem_allowed: tuple[bool, ...]
    """Per territory, whether totems may go there (Floating Lands: none on tundra, IW-24)."""
    territory_biome: tuple[int, ...]
    territory_index: dict[str, int]
    space_index: dict[str, int]
    connection_by_number: dict[int, int]
    drawing: dict[str, Any]
    """The map as the browser draws it (from the files' layout blocks): rules never read it."""


def _check(condition: bool, message: str) -> None:
    if not condition:
        raise DataError(message)


def _build_map(data: dict[str, Any]) -> GameMap:
    name = f"map-{data['id']}.json"
    rules = data.get("rules", {})
    territories: list[Territory] = []
    space_ids: list[str] = []
    space_territory: list[int] = []
    adjacency: list[set[int]] = []
    roads: list[tuple[int, int]] = []
    for t, entry in enumerate(data["territories"]):
        _check(entry["biome"] in BIOME_INDEX, f"{name}: {entry['id']} has an unknown biome")
        _check(entry["spaces"] >= 1, f"{name}: {entry['id']} has no tent space")
        first = len(space_ids)
        for n in range(1, entry["spaces"] + 1):
            space_ids.append(f"{entry['id']}.{n}")
            space_territory.append(t)
            adjacency.append(set())
        territories.append(Territory(t, entry["id"], BIOME_INDEX[entry["biome"]],
                                     tuple(range(first, len(space_ids)))))
        for a, b in entry["roads"]:
            _check(1 <= a <= entry["spaces"] and 1 <= b <= entry["spaces"] and a != b,
                   f"{name}: road {a}-{b} in {entry['id']} does not join two of its spaces")
            roads.append((first + a - 1, first + b - 1))
    territory_index = {t.id: t.index for t in territories}
    _check(len(territory_index) == len(territories), f"{name}: territory ids are unique")
    _check(len(territories) == 12, f"{name}: 12 territories (one per territory score marker)")
    _check({t.biome for t in territories} == set(range(len(BIOMES))), f"{name}: every biome has a territory")
    space_index = {s: i for i, s in enumerate(space_ids)}

    def space(label: str) -> int:
        _check(label in space_index, f"{name}: no tent space {label!r}")
        return space_index[label]

    for a, b in data["roads"]:
        sa, sb = space(a), space(b)
        _check(space_territory[sa] != space_territory[sb], f"{name}: road {a}-{b} should cross territories")
        roads.append((sa, sb))
    _check(len(set(map(frozenset, roads))) == len(roads), f"{name}: a road is listed twice")
    for a, b in roads:
        adjacency[a].add(b)
        adjacency[b].add(a)

    shared = {frozenset(pair) for pair in rules.get("shared_connections", [])}
    connections: list[Connection] = []
    seen: dict[frozenset[int], int] = {}
    for i, entry in enumerate(sorted(data["connections"], key=lambda c: c["number"])):
        _check(entry["number"] == i + 1, f"{name}: connections are numbered 1, 2, 3 ... without gaps")
        ta, tb = (territory_index.get(x, -1) for x in entry["between"])
        _check(ta >= 0 and tb >= 0 and ta != tb, f"{name}: connection {entry['number']} joins two territories")
        pair = frozenset((ta, tb))
        if pair in seen:
            _check(frozenset((seen[pair], entry["number"])) in shared,
                   f"{name}: connections {seen[pair]} and {entry['number']} join the same territories")
        seen.setdefault(pair, entry["number"])
        _check(entry["kind"] in ("land", "sea"), f"{name}: connection {entry['number']} is land or sea")
        _check(entry["peaks"] in (0, 1, 2, 3, 4), f"{name}: connection {entry['number']} has 0-4 peaks")
        ea, eb = space(entry["ends"][0]), space(entry["ends"][1])
        _check(space_territory[ea] == ta and space_territory[eb] == tb,
               f"{name}: connection {entry['number']} ends on spaces of its two territories")
        connections.append(Connection(i, entry["number"], ta, tb, LAND if entry["kind"] == "land" else SEA,
                                      entry["peaks"], (ea, eb)))
    for pair in shared:
        _check(all(n in {c.number for c in connections} for n in pair), f"{name}: shared connections exist")
    peak_spots = tuple(tuple(c.index for c in connections if c.peaks == p) for p in (1, 2, 3, 4))
    _check(all(len(spots) == 2 for spots in peak_spots), f"{name}: two spots of each connection type")
    _check(any(c.kind == LAND for c in connections) and any(c.kind == SEA for c in connections),
           f"{name}: land and sea connections")

    connections_are_roads = bool(rules.get("connections_are_roads", False))
    if connections_are_roads:
        for c in connections:
            adjacency[c.ends[0]].add(c.ends[1])
            adjacency[c.ends[1]].add(c.ends[0])
    no_totems = rules.get("no_totems", [])
    _check(isinstance(no_totems, list) and all(b in BIOME_INDEX for b in no_totems),
           f"{name}: no_totems lists biomes")
    totem_allowed = tuple(BIOMES[t.biome] not in no_totems for t in territories)
    _check(any(totem_allowed), f"{name}: totems may go somewhere")
    purple = tuple(space(s) for s in data.get("purple_road", []))
    _check(bool(purple) == bool(rules.get("purple_road", False)), f"{name}: a purple road iff the map has one")
    _check(len(set(purple)) == len(purple), f"{name}: the purple road passes each space once")
    for a, b in pairwise(purple):
        _check(b in adjacency[a], f"{name}: the purple road follows roads ({space_ids[a]}-{space_ids[b]})")
    drawing = _drawing(data, name, space_ids)
    return GameMap(
        id=data["id"], name=data["name"], territories=tuple(territories), space_ids=tuple(space_ids),
        space_territory=tuple(space_territory), roads=tuple(roads),
        neighbours=tuple(tuple(sorted(n)) for n in adjacency), connections=tuple(connections),
        territory_connections=tuple(tuple(c.index for c in connections if t in (c.a, c.b))
                                    for t in range(len(territories))),
        peak_spots=peak_spots, purple_road=purple, connections_are_roads=connections_are_roads,
        totem_allowed=totem_allowed, territory_biome=tuple(t.biome for t in territories),
        territory_index=territory_index, space_index=space_index,
        connection_by_number={c.number: c.index for c in connections},
        drawing=drawing,
    )


def _point(value: Any, size: tuple[int, int], what: str) -> list[int]:
    ok = (isinstance(value, list) and len(value) == 2 and all(isinstance(v, int) for v in value)
          and 0 <= value[0] <= size[0] and 0 <= value[1] <= size[1])
    _check(ok, f"{what}: a point [x, y] inside the map's layout size")
    return [value[0], value[1]]


def _drawing(data: dict[str, Any], name: str, space_ids: list[str]) -> dict[str, Any]:
    """Check the layout blocks and gather them, with the map's structure, for the client.

    The view sends this (one shared dict per map) so the browser needs no copy of the
    map data; only geometry is new here, everything else repeats the validated map.
    """
    box = data.get("layout")
    _check(isinstance(box, dict) and box.get("width", 0) > 0 and box.get("height", 0) > 0,
           f"{name}: a layout block with the map's width and height")
    assert isinstance(box, dict)  # checked just above; tells the type checker
    size = (box["width"], box["height"])
    territories = []
    for entry in data["territories"]:
        where = f"{name}: layout of {entry['id']}"
        layout = entry.get("layout")
        _check(isinstance(layout, dict), f"{where} is missing")
        outline = layout.get("outline")
        _check(isinstance(outline, list) and len(outline) >= 3, f"{where}: an outline of 3 points or more")
        spaces = layout.get("spaces")
        _check(isinstance(spaces, list) and len(spaces) == entry["spaces"], f"{where}: one point per tent space")
        territories.append({
            "id": entry["id"], "biome": entry["biome"],
            "outline": [_point(p, size, where) for p in outline],
            "totem": _point(layout.get("totem"), size, where),
            "spaces": {f"{entry['id']}.{n}": _point(p, size, where) for n, p in enumerate(spaces, 1)},
        })
    roads = [[f"{e['id']}.{a}", f"{e['id']}.{b}"] for e in data["territories"] for a, b in e["roads"]]
    roads.extend([a, b] for a, b in data["roads"])
    connections = []
    for c in sorted(data["connections"], key=lambda c: c["number"]):
        layout = c.get("layout")
        _check(isinstance(layout, dict), f"{name}: layout of connection {c['number']} is missing")
        connections.append({"number": c["number"], "between": list(c["between"]), "kind": c["kind"],
                            "peaks": c["peaks"], "ends": list(c["ends"]),
                            "at": _point(layout.get("at"), size, f"{name}: connection {c['number']}")})
    _check(len(space_ids) == sum(len(t["spaces"]) for t in territories), f"{name}: layout spaces")
    return {"width": size[0], "height": size[1], "territories": territories, "roads": roads,
            "connections": connections, "purple_road": list(data.get("purple_road", [])),
            "connections_are_roads": bool(data.get("rules", {}).get("connections_are_roads", False)),
            "no_totems": list(data.get("rules", {}).get("no_totems", []))}


@cache
def game_map(map_id: str) -> GameMap:
    if map_id not in MAP_IDS:
        raise DataError(f"no map {map_id!r}")
    data = _load(f"map-{map_id}.json")
    _check(data["id"] == map_id, f"map-{map_id}.json names itself {data['id']!r}")
    return _build_map(data)


# -- feats and expeditions ----------------------------------------------------------

FEATS: tuple[str, ...] = ("union", "discovery", "honour", "respect")
UNION, DISCOVERY, HONOUR, RESPECT = range(4)


@cache
def feat_counts() -> tuple[int, ...]:
    data = _load("feats.json")
    _check([f["id"] for f in data["feats"]] == list(FEATS), "feats.json: union, discovery, honour, respect")
    return tuple(int(f["count"]) for f in data["feats"])


MISSIONS: tuple[str, ...] = ("biomes", "territories", "settlement", "totems", "totem_territories",
                             "majorities", "biome_tents")


@dataclass(frozen=True, slots=True)
class Expedition:
    index: int
    id: str
    mission: str
    count: int
    biome: int
    """For ``biome_tents``: which biome; else -1."""
    values: tuple[int, int]


@dataclass(frozen=True, slots=True)
class ExpeditionDeck:
    cards: tuple[Expedition, ...]
    face_up: int
    by_id: dict[str, int]


@cache
def expeditions() -> ExpeditionDeck:
    data = _load("expeditions.json")
    out: list[Expedition] = []
    for i, entry in enumerate(data["cards"]):
        _check(entry["mission"] in MISSIONS, f"expeditions.json: {entry['id']} has an unknown mission")
        values = tuple(entry["values"])
        _check(len(values) == 2 and values[0] >= values[1] >= 0, f"expeditions.json: {entry['id']} values")
        _check(entry["count"] >= 1, f"expeditions.json: {entry['id']} count")
        biome = BIOME_INDEX[entry["biome"]] if entry["mission"] == "biome_tents" else -1
        out.append(Expedition(i, entry["id"], entry["mission"], entry["count"], biome,
                              (int(values[0]), int(values[1]))))
    by_id = {e.id: e.index for e in out}
    _check(len(by_id) == len(out), "expeditions.json: ids are unique")
    _check(1 <= data["face_up"] <= len(out), "expeditions.json: face_up")
    return ExpeditionDeck(tuple(out), int(data["face_up"]), by_id)


def load_all() -> None:
    """Load and validate every data file (at import: a broken file fails loudly, early)."""
    cards()
    pieces()
    mountains_by_seats()
    feat_counts()
    expeditions()
    for map_id in MAP_IDS:
        game_map(map_id)
