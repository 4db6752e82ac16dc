"""Crusaders: what things are worth and what they cost.

The bonuses a board's buildings uncover, the enemies' strength, influence from the supply,
what a building costs where (tables built at import, as the legal moves ask for every
region a knight stands in) and placing one.
"""

from __future__ import annotations

from operator import add
from typing import Any

from ludoteca.engine import Event

from .components import BUILDINGS, ENEMIES, Components, components
from .state import CrusadersState, Player

BUILDING_INDEX = {name: i for i, name in enumerate(BUILDINGS)}


def _cumulative(c: Components) -> dict[str, list[dict[str, int]]]:
    """For each building type and count built, the bonuses uncovered so far."""
    out: dict[str, list[dict[str, int]]] = {}
    for name, btype in c.buildings.items():
        levels: list[dict[str, int]] = [{}]
        for uncovered in btype.uncovers:
            nxt = dict(levels[-1])
            for kind, n in uncovered:
                nxt[kind] = nxt.get(kind, 0) + n
            levels.append(nxt)
        out[name] = levels
    return out


C = components()
CUM = _cumulative(C)
BOARDS = {seats: C.board_for(seats) for seats in range(2, 6)}
REGION_IDS = {seats: tuple(reg.id for reg in board.regions) for seats, board in BOARDS.items()}


_BONUS: dict[tuple[int, ...], dict[str, int]] = {}
"""Uncovered bonuses per count of buildings built of each type, summed once and shared."""


def bonuses(built: tuple[int, ...]) -> dict[str, int]:
    """The bonuses uncovered on a board with ``built`` buildings of each type, by kind."""
    totals = _BONUS.get(built)
    if totals is None:
        totals = {}
        for i, name in enumerate(BUILDINGS):
            for k, n in CUM[name][built[i]].items():
                totals[k] = totals.get(k, 0) + n
        _BONUS[built] = totals
    return totals


def bonus(p: Player, kind: str) -> int:
    """The uncovered bonus of one kind (move, muster, crusade, influence, build) on a board."""
    return bonuses(tuple(p.built)).get(kind, 0)


_EVENTS: dict[tuple[Any, ...], Event] = {}
"""Events whose arguments are a few ints and strings, built once per content and shared (as the Decisions
are): nothing changes an event after ``perform``, and a playout emits ~850 of them. Each module keeps its
own: a method called on an imported name costs a bound method per call in CPython 3.11."""


def enemy_strength(state: CrusadersState, token: str) -> int:
    if token.startswith("saracen"):
        return C.saracen_strength
    track = C.tracks[token]
    step = state.track[0 if token == "prussian" else 1]
    return track[min(step, len(track) - 1)]


def enemy_kind(token: str) -> int:
    return 2 if token.startswith("saracen") else ENEMIES.index(token)


def gain(state: CrusadersState, seat: int, n: int, events: list[Event], why: str) -> None:
    """Influence from the supply; once it runs dry the game is ending but influence stays unlimited."""
    if n <= 0:
        return
    state.players[seat].influence += n
    key = ("cr.gain", seat, n, why)
    event = _EVENTS.get(key)
    if event is None:
        event = _EVENTS[key] = Event("cr.gain", {"seat": seat, "influence": n, "why": why})
    events.append(event)
    if state.supply > 0:
        state.supply = max(0, state.supply - n)
        if state.supply == 0 and not state.ending:
            state.ending = True
            events.append(Event("cr.supply_empty", {"seat": seat}))


def building_limit(state: CrusadersState) -> int:
    return 2 if state.seats >= 5 else 1


def can_build_in(state: CrusadersState, region: int) -> bool:
    return not state.enemy[region] and len(state.buildings[region]) < building_limit(state)


def region_bonuses_apply(state: CrusadersState, region: int) -> bool:
    """At 5 seats printed and tile bonuses count only for a region's first building (CR-39)."""
    return state.seats < 5 or not state.buildings[region]


def build_cost(state: CrusadersState, seat: int, name: str, region: int) -> int:
    p = state.players[seat]
    cost = C.buildings[name].costs[p.built[BUILDING_INDEX[name]]]
    if region_bonuses_apply(state, region):
        board = BOARDS[state.seats]
        cost -= board.regions[region].discount_for(name)
        tile = state.tiles[region]
        if tile and C.tile_index[tile].applies(name):
            cost -= C.tile_index[tile].discount
    return max(0, cost)


BUILDING_COSTS = tuple(C.buildings[name].costs for name in BUILDINGS)
NO_DISCOUNTS = (0,) * len(BUILDINGS)


def _discounts(seats: int, region: int, tile: str) -> tuple[int, ...]:
    """The discount of each building type in a region with a bonus tile, as build_cost counts it."""
    reg = BOARDS[seats].regions[region]
    bonus_tile = C.tile_index[tile] if tile else None
    return tuple(reg.discount_for(name) + (bonus_tile.discount if bonus_tile and bonus_tile.applies(name) else 0)
                 for name in BUILDINGS)


def _level_costs(discounts: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Per building type, what each next level costs with these discounts (never below 0)."""
    return tuple(tuple(max(0, cost - discounts[b]) for cost in BUILDING_COSTS[b]) for b in range(len(BUILDINGS)))


_PLAIN_COSTS = _level_costs(NO_DISCOUNTS)
_BUILDING_RANGE = range(len(BUILDINGS))


def _region_costs() -> dict[int, list[dict[str, tuple[tuple[int, ...], ...]]]]:
    """What each building's next level costs, per seat count, region and bonus tile there (every region bare,
    and every tile on every region with a tile slot), as build_cost counts it when the region's bonuses apply."""
    out: dict[int, list[dict[str, tuple[tuple[int, ...], ...]]]] = {}
    tile_discounts = {t.id: tuple(t.discount if t.applies(name) else 0 for name in BUILDINGS) for t in C.tiles}
    by_discounts: dict[tuple[int, ...], tuple[tuple[int, ...], ...]] = {}  # a few distinct discounts
    for seats, board in BOARDS.items():
        out[seats] = []
        for r in range(len(board.regions)):
            bare = _discounts(seats, r, "")
            costs = {"": by_discounts.get(bare) or by_discounts.setdefault(bare, _level_costs(bare))}
            if r in board.slots:
                for tile, extra in tile_discounts.items():
                    both = tuple(map(add, bare, extra))
                    costs[tile] = by_discounts.get(both) or by_discounts.setdefault(both, _level_costs(both))
            out[seats].append(costs)
    return out


_REGION_COSTS = _region_costs()
"""Built at import, so finding what one can build adds up no discounts (other tiles, if any, are added as met)."""


def region_costs(state: CrusadersState, region: int) -> tuple[tuple[int, ...], ...]:
    """Per building type, what each level costs in ``region`` now: ``build_cost`` as a table row."""
    seats = state.seats
    if seats < 5 or not state.buildings[region]:  # region_bonuses_apply
        tile = state.tiles[region]
        by_tile = _REGION_COSTS[seats][region]
        costs = by_tile.get(tile)
        if costs is None:
            costs = by_tile[tile] = _level_costs(_discounts(seats, region, tile))
        return costs
    return _PLAIN_COSTS


def place_building(state: CrusadersState, seat: int, name: str, region: int, events: list[Event],
                   why: str) -> None:
    """Put the leftmost building of a type in a region: influence, uncovered bonus, knights (CR-28..CR-31)."""
    p = state.players[seat]
    b = BUILDING_INDEX[name]
    level = p.built[b] + 1
    influence = level
    if region_bonuses_apply(state, region):
        influence += BOARDS[state.seats].regions[region].influence_for(name)
        tile = state.tiles[region]
        if tile and C.tile_index[tile].applies(name):
            influence += C.tile_index[tile].influence
    p.built[b] = level
    state.buildings[region] = (*state.buildings[region], (seat, name, level))
    region_id = BOARDS[state.seats].regions[region].id
    events.append(Event("cr.built", {"seat": seat, "building": name, "level": level, "region": region_id,
                                     "why": why}))
    gain(state, seat, influence, events, "build")
    for kind, n in C.buildings[name].uncovers[level - 1]:
        if kind != "knight":
            continue
        for _ in range(n):
            for k, where in enumerate(p.knights):
                if where < 0:
                    p.knights[k] = region
                    events.append(Event("cr.knight_unlocked", {"seat": seat, "region": region_id}))
                    break


def build_options(state: CrusadersState, first_only: bool = False) -> list[tuple[str, int]]:
    """(building, region) pairs the current seat can build with ``state.points``; with ``first_only``
    the first one found, if any."""
    p = state.players[state.current]
    value = state.points
    built = p.built
    seats = state.seats
    limit = building_limit(state)
    enemy = state.enemy
    buildings = state.buildings
    out: list[tuple[str, int]] = []
    if value < 0:  # nothing costs less than 0
        return out
    by_region = _REGION_COSTS[seats]
    for r in sorted(set(p.knights)):
        if r < 0:
            continue
        here = buildings[r]
        if enemy[r] or len(here) >= limit:
            continue
        if seats < 5 or not here:  # region_bonuses_apply
            tile = state.tiles[r]
            costs = by_region[r].get(tile)
            if costs is None:
                costs = by_region[r][tile] = _level_costs(_discounts(seats, r, tile))
        else:
            costs = _PLAIN_COSTS
        for b in _BUILDING_RANGE:
            level = built[b]
            if level < 4 and costs[b][level] <= value:
                out.append((BUILDINGS[b], r))
                if first_only:
                    return out
    return out
