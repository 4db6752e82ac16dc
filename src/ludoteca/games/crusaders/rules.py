"""Crusaders rules: setup, the turn as small steps, the five actions, the mancala sowing.

Phases (``state.phase``) and the moves they take:

- ``order``: every seat without a knight order picks one of its two offers (simultaneous).
- ``setup``: the task at the head of ``state.setup_tasks`` (knight-order setup changes, then
  knight placement in reverse turn order).
- ``turn``: resolve a wedge, upgrade one, or (all upgraded) skip and sow.
- ``split``: an upgraded wedge's tokens are divided between its two actions, and the first chosen.
- ``move`` (one step of one knight at a time), ``crusade``, ``saracen``, ``build``: the actions
  that need a choice (Muster and Influence resolve by themselves).
- ``after_upgrade``: sow one wedge, or not; ``skip``: sow one wedge.
- ``sow``: how to sow, for the knight orders that change the sowing.
- ``over``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from itertools import product
from operator import add
from typing import Any

from ludoteca.engine import Decision, Event, IllegalMove, Move, Option, OptionValue, Prompt, Rng
from ludoteca.engine.flow import Dispatch

from .components import ACTIONS, BUILDINGS, ENEMIES, Components, components
from .state import CrusadersState, Player

BUILDING_INDEX = {name: i for i, name in enumerate(BUILDINGS)}
PLAIN_SOW = {"type": "sow", "from": "next", "dir": "cw", "skip": -1, "double": -1}
"""The sowing of every seat whose knight order does not change it (never handed out as a move)."""


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


def _bonuses(built: tuple[int, ...]) -> dict[str, int]:
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
    return _bonuses(tuple(p.built)).get(kind, 0)


_SOW_SHAPES: dict[tuple[int, int, str], tuple[Move, ...]] = {}
"""The sowing variants per (wedge position, tokens, knight order): copied per call, since callers may keep
or change the moves they get."""

_DECISIONS: dict[tuple[Any, ...], Decision] = {}
"""Decisions are immutable and few: built once per (seat, prompt, argument) and shared."""


def _decision(seat: int, key: str, arg: str = "", value: Any = None) -> Decision:
    cache_key = (seat, key, arg, value)
    d = _DECISIONS.get(cache_key)
    if d is None:
        d = _DECISIONS[cache_key] = Decision(seat, Prompt(key, {arg: value} if arg else {}))
    return d


_EVENTS: dict[tuple[Any, ...], Event] = {}
"""Events whose arguments are a few ints and strings, built once per content and shared (as the Decisions
are): nothing changes an event after ``perform``, and a playout emits ~850 of them."""
_ACTION_EVENTS: list[dict[str, dict[int, Event]]] = [{action: {} for action in ACTIONS} for _ in range(5)]
"""The shared ``cr.action`` events per seat, action and (value, tokens) as one int: the hottest events keyed
without a tuple built per action, as are ``cr.resolve`` (per seat, wedge and tokens) and ``cr.moved``."""
_RESOLVE_EVENTS: list[dict[str, dict[int, Event]]] = [{w.id: {} for w in C.wedges} for _ in range(5)]
_MOVED_EVENTS: dict[int, list[list[dict[str, Event]]]] = {
    seats: [[{} for _ in board.regions] for _ in range(5)] for seats, board in BOARDS.items()}
"""``cr.moved`` per seat count, seat and region left, keyed by the region id reached."""

_PLAIN_DECISIONS = {phase: [_decision(seat, f"cr.prompt.{phase}") for seat in range(5)]
                    for phase in ("turn", "crusade", "saracen", "build", "after_upgrade", "skip")}
"""The decisions of the phases whose prompt names only the phase, per seat."""
_WEDGE_PROMPTS = {"split": "cr.prompt.split", "sow": "cr.prompt.sow"}
"""The prompts of the phases about one wedge (built strings would be hashed anew on every call)."""

_MOVE_DECISIONS: list[dict[int, Decision]] = [{} for _ in range(5)]
"""The move phase's decision per seat and movement points left."""
_WEDGE_DECISIONS: dict[str, list[dict[str, Decision]]] = {phase: [{} for _ in range(5)] for phase in _WEDGE_PROMPTS}
"""The split and sow phases' decisions per phase, seat and wedge."""

WEDGES = {w.id: w for w in C.wedges}
SOW_ORDERS = frozenset(o.id for o in C.orders if o.sow_from_same or o.sow_reverse or o.sow_skip or o.sow_double)
"""The knight orders that change the sowing."""


def _split_shapes(n: int, action: str, upgrade: str) -> tuple[Move, ...]:
    """The ways to divide n tokens between a wedge's action and its upgrade, and which goes first."""
    moves: list[Move] = []
    for k in range(n + 1):
        if k == 0:
            moves.append({"type": "split", "primary": 0, "first": upgrade})
        elif k == n:
            moves.append({"type": "split", "primary": n, "first": action})
        else:
            moves.append({"type": "split", "primary": k, "first": action})
            moves.append({"type": "split", "primary": k, "first": upgrade})
    return tuple(moves)


_SPLIT_SHAPES: dict[tuple[str, int], tuple[Move, ...]] = {}
"""The split moves per (wedge, tokens): copied per call, since callers may keep or change moves."""

_STEP_SHAPES = {
    seats: [[tuple({"type": "step", "knight": k, "to": board.regions[nb].id} for nb in board.neighbours[where])
             for k in range(C.knights + 1)]
            for where in range(len(board.regions))]
    for seats, board in BOARDS.items()
}
"""One knight's steps, per seat count, region and knight: copied per call, like the split moves."""

TROOP_CRUSADE = [sum(t.crusade for t in C.troops[:n]) for n in range(len(C.troops) + 1)]
"""The crusade strength added by the first n troops mustered."""


_ADDS: dict[tuple[str, tuple[int, ...], int], dict[str, int]] = {}
"""What adds to each action's X, per (revealed knight order, buildings built, troops): summed once, shared."""


def _action_adds(order_id: str, built: tuple[int, ...], troops: int) -> dict[str, int]:
    totals = _bonuses(built)
    order = C.order_index.get(order_id)
    extra = order.all_bonus if order else 0
    adds = {action: totals.get(action, 0) + extra for action in ACTIONS}
    adds["move"] += order.move_bonus if order else 0
    adds["crusade"] += TROOP_CRUSADE[troops]
    return adds


def action_value(state: CrusadersState, seat: int, action: str, tokens: int) -> int:
    """X plus everything that adds to this action (CR-15, CR-32)."""
    p = state.players[seat]
    key = (p.order if state.revealed else "", tuple(p.built), p.troops)
    adds = _ADDS.get(key)
    if adds is None:
        adds = _ADDS[key] = _action_adds(*key)
    value = tokens + adds[action]
    return value if value > 0 else 0


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


OPTIONS = (
    Option("knight_orders", "bool", True, "Each player draws two knight orders and keeps one."),
    Option("wheel", "choice", "shared", "Wheel arrangement: one random arrangement copied by all (shared), "
           "each player's own random arrangement (individual), the first-game arrangement (first_game), the "
           "learning game (learning: the first-game arrangement with both Move wedges upgraded, and no "
           "upgrading), or the Knight's Tournament (tournament: each player arranges its own wheel and, with "
           "knight orders, picks any order).",
           choices=("shared", "individual", "first_game", "learning", "tournament")),
)

# A real bound: at most 60 rounds (CR-35) of 5 turns; a turn takes at most 23 decisions (resolve, split,
# 15 knight steps and a stop, a crusade and its Saracen reward or a build, a sowing choice); setup
# takes at most 30 (5 orders, 20 order tasks, 5 knights).
MAX_MOVES = 60 * 5 * 23 + 30


# -- setup ----------------------------------------------------------------------

def new_state(seats: int, options: Mapping[str, OptionValue], rng: Rng) -> CrusadersState:
    s = CrusadersState()
    s.seats = seats
    s.knight_orders = bool(options["knight_orders"])
    s.wheel_option = str(options["wheel"])
    board = C.board_for(seats)
    s.side = board.side
    s.rng = rng
    ids = [w.id for w in C.wedges]
    shared = list(ids)
    tournament = s.wheel_option == "tournament"
    if s.wheel_option in ("first_game", "learning"):
        shared = list(C.first_game_order)
    elif not tournament:
        rng.shuffle(shared)
    for _ in range(seats):
        p = Player()
        wheel = list(shared)
        if s.wheel_option == "individual":
            rng.shuffle(wheel)
        # Knight's Tournament: each player arranges its own wheel before setup (CR-42)
        p.wheel = () if tournament else tuple(wheel)
        if s.wheel_option == "learning":
            # the learning game starts with both Move wedges on their upgraded side (CR-41)
            p.upgraded = [w in C.learning_upgraded for w in p.wheel]
        p.tokens = [C.tokens_per_wedge] * 6
        p.knights = [-1] * C.knights
        s.players.append(p)
    n = len(board.regions)
    tokens = list(C.enemy_tokens)
    rng.shuffle(tokens)
    s.enemy = [""] * n
    for region, token in zip(board.flags, tokens, strict=False):
        s.enemy[region] = token
    tiles = [t.id for t in C.tiles]
    rng.shuffle(tiles)
    s.tiles = [""] * n
    for region, tile in zip(board.slots, tiles, strict=False):
        s.tiles[region] = tile
    s.buildings = [()] * n
    s.supply = C.supply_base + C.supply_per_player * seats
    if tournament:
        # every order is open to every player, the same one to several (CR-42): nothing is dealt
        s.phase = "order"
    elif s.knight_orders:
        deck = [o.id for o in C.orders]
        rng.shuffle(deck)
        for p in s.players:
            p.offers = sorted(deck[:2])
            deck = deck[2:]
        s.box = sorted(deck)
        s.phase = "order"
    else:
        s.revealed = True
        _after_orders(s)
    return s


def _maybe_reveal(state: CrusadersState, events: list[Event]) -> None:
    """Once every seat has chosen (its order, and in the Knight's Tournament its wheel), all is shown."""
    if any(len(q.wheel) < 6 or (state.knight_orders and not q.order) for q in state.players):
        return
    state.revealed = True
    if state.wheel_option == "tournament":
        events.append(Event("cr.wheels_revealed", {}))
    if state.knight_orders:
        events.append(Event("cr.orders_revealed", {"orders": [q.order for q in state.players]}))
    _after_orders(state)


def _after_orders(s: CrusadersState) -> None:
    tasks: list[tuple[int, str]] = []
    for seat, p in enumerate(s.players):
        order = C.order_index.get(p.order)
        if order is None:
            continue
        if order.tokens_per_wedge != C.tokens_per_wedge:
            p.tokens = [order.tokens_per_wedge] * 6
        if order.extra_move_tokens:
            for pos, wedge in enumerate(p.wheel):
                if C.wedges[C.wedge_index[wedge]].action == "move":
                    p.tokens[pos] += order.extra_move_tokens
        if order.extra_knight:
            p.knights.append(-2)  # placed with the first knight
        tasks += [(seat, "remove")] * order.removed_tokens
        tasks += [(seat, "extra")] * order.extra_tokens
        tasks += [(seat, "upgrade")] * order.upgrades
    tasks += [(seat, "place") for seat in reversed(range(s.seats))]
    s.setup_tasks = tasks
    s.phase = "setup"
    s.current = tasks[0][0]


# -- who decides ----------------------------------------------------------------

def pending(state: CrusadersState) -> list[Decision]:
    phase = state.phase
    plain = _PLAIN_DECISIONS.get(phase)
    if plain is not None:
        return [plain[state.current]]
    if phase == "move":
        seat = state.current
        by_points = _MOVE_DECISIONS[seat]
        d = by_points.get(state.points)
        if d is None:
            d = by_points[state.points] = _decision(seat, "cr.prompt.move", "points", state.points)
        return [d]
    by_wedge = _WEDGE_DECISIONS.get(phase)
    if by_wedge is not None:
        seat = state.current
        wedge = state.players[seat].wheel[state.wedge]
        d = by_wedge[seat].get(wedge)
        if d is None:
            d = by_wedge[seat][wedge] = _decision(seat, _WEDGE_PROMPTS[phase], "wedge", wedge)
        return [d]
    if phase == "over":
        return []
    if phase == "order":
        # the offers themselves are in each seat's own view, never in a prompt others might see
        out = []
        for seat, p in enumerate(state.players):
            if len(p.wheel) < 6:
                out.append(_decision(seat, "cr.prompt.arrange", "n", len(p.wheel) + 1))
            elif state.knight_orders and not p.order:
                key = "cr.prompt.order_any" if state.wheel_option == "tournament" else "cr.prompt.order"
                out.append(_decision(seat, key))
        return out
    seat, task = state.setup_tasks[0]  # phase == "setup"
    return [_decision(seat, f"cr.prompt.setup_{task}")]


# -- legal moves ----------------------------------------------------------------

def legal(state: CrusadersState, seat: int) -> list[Move]:
    phase = state.phase
    if phase == "order":
        return _legal_order(state, seat)
    if seat != state.current:
        return []
    # one lookup instead of a chain of comparisons: legal runs on every decision of a playout
    moves = _LEGAL.get(phase)
    return moves(state, state.players[seat]) if moves is not None else []


def _legal_order(state: CrusadersState, seat: int) -> list[Move]:
    p = state.players[seat]
    if len(p.wheel) < 6:
        return [{"type": "arrange", "wedge": w.id} for w in C.wedges if w.id not in p.wheel]
    if p.order or not state.knight_orders:
        return []
    if state.wheel_option == "tournament":
        return [{"type": "order", "order": o.id} for o in C.orders]
    return [{"type": "order", "order": o} for o in p.offers]


def _legal_setup(state: CrusadersState, p: Player) -> list[Move]:
    board = BOARDS[state.seats]
    task = state.setup_tasks[0][1]
    if task == "place":
        taken = {k for other in state.players if other is not p for k in other.knights if k >= 0}
        return [{"type": "place_knight", "region": board.regions[r].id} for r in board.starts if r not in taken]
    if task == "remove":
        return [{"type": "remove_token", "wedge": pos} for pos in range(6) if p.tokens[pos] >= C.tokens_per_wedge]
    if task == "extra":
        return [{"type": "add_token", "wedge": pos} for pos in range(6)]
    return [{"type": "setup_upgrade", "wedge": pos} for pos in range(6) if not p.upgraded[pos]]


def _turn_tables() -> tuple[dict[tuple[bool, ...], tuple[Move, ...]], dict[tuple[bool, ...], tuple[Move, ...]]]:
    """The resolve moves per wedges with tokens, and the skip or upgrade moves per wedges upgraded: the
    loops over the wheel done once at import, for all 64 patterns of each."""
    resolve: dict[tuple[bool, ...], tuple[Move, ...]] = {}
    upgrade: dict[tuple[bool, ...], tuple[Move, ...]] = {}
    for pattern in product((False, True), repeat=6):
        resolve[pattern] = tuple({"type": "resolve", "wedge": pos} for pos, n in enumerate(pattern) if n)
        upgrade[pattern] = (({"type": "skip"},) if all(pattern) else
                            tuple({"type": "upgrade", "wedge": pos} for pos, up in enumerate(pattern) if not up))
    return resolve, upgrade


_RESOLVE_SHAPES, _UPGRADE_SHAPES = _turn_tables()


def _legal_turn(state: CrusadersState, p: Player) -> list[Move]:
    t = p.tokens
    moves = list(map(dict.copy, _RESOLVE_SHAPES[t[0] > 0, t[1] > 0, t[2] > 0, t[3] > 0, t[4] > 0, t[5] > 0]))
    upgraded = p.upgraded
    if state.wheel_option != "learning" or all(upgraded):  # the learning game has no upgrading (CR-41)
        moves += map(dict.copy, _UPGRADE_SHAPES[tuple(upgraded)])
    return moves


def _legal_split(state: CrusadersState, p: Player) -> list[Move]:
    w = state.wedge
    n = p.tokens[w]
    if 0 <= n < _SPLIT_TABLE_TOKENS:
        return list(map(dict.copy, _SPLIT_BY_WEDGE[p.wheel[w]][n]))
    key = (p.wheel[w], n)
    shapes = _SPLIT_SHAPES.get(key)
    if shapes is None:
        wedge = WEDGES[key[0]]
        shapes = _SPLIT_SHAPES[key] = _split_shapes(key[1], wedge.action, wedge.upgrade)
    return list(map(dict.copy, shapes))


_SPLIT_TABLE_TOKENS = 16
_SPLIT_BY_WEDGE = {wedge.id: [_split_shapes(n, wedge.action, wedge.upgrade) for n in range(_SPLIT_TABLE_TOKENS)]
                   for wedge in C.wedges}
"""The split moves per wedge and tokens up to 15, built at import (more go through ``_SPLIT_SHAPES``)."""


def _legal_move(state: CrusadersState, p: Player) -> list[Move]:
    moves: list[Move] = [{"type": "stop"}]
    points = state.points
    enemy = state.enemy
    steps = _STEP_SHAPES[state.seats]
    for k, where in enumerate(p.knights):
        if where < 0 or (2 if enemy[where] else 1) > points:
            continue
        moves += map(dict.copy, steps[where][k])
    return moves


def _legal_crusade(state: CrusadersState, p: Player) -> list[Move]:
    ids = REGION_IDS[state.seats]
    return [{"type": "crusade", "region": ids[r]} for r in _crusade_targets(state)] + [{"type": "pass"}]


def _legal_saracen(state: CrusadersState, p: Player) -> list[Move]:
    return [{"type": "saracen", "take": take} for take in _saracen_options(state)]


def _legal_build(state: CrusadersState, p: Player) -> list[Move]:
    ids = REGION_IDS[state.seats]
    return [{"type": "build", "building": name, "region": ids[r]} for name, r in _build_options(state)] + [
        {"type": "pass"}]


def _legal_after_upgrade(state: CrusadersState, p: Player) -> list[Move]:
    return [{"type": "sow_wedge", "wedge": pos} for pos, n in enumerate(p.tokens) if n > 0] + [{"type": "no_sow"}]


def _legal_skip(state: CrusadersState, p: Player) -> list[Move]:
    return [{"type": "sow_wedge", "wedge": pos} for pos, n in enumerate(p.tokens) if n > 0]


def _legal_sow(state: CrusadersState, p: Player) -> list[Move]:
    """The ways to sow the wedge ``state.wedge`` (several only with some knight orders) (CR-17, CR-33)."""
    return list(map(dict.copy, _sow_variant_shapes(state)))


def _crusade_targets(state: CrusadersState) -> list[int]:
    p = state.players[state.current]
    value = state.points
    seen = []
    for where in p.knights:
        token = state.enemy[where] if where >= 0 else ""
        if token and where not in seen and enemy_strength(state, token) <= value:
            seen.append(where)
    return sorted(seen)


def _saracen_options(state: CrusadersState) -> list[str]:
    p = state.players[state.current]
    reward = state.reward
    options = []
    if reward == "troop":
        if p.troops < len(C.troops):
            options.append("troop")
    elif p.built[BUILDING_INDEX[reward]] < 4 and can_build_in(state, state.sara_region):
        options.append("building")
    options.append("influence")
    return options


def _build_options(state: CrusadersState, first_only: bool = False) -> list[tuple[str, int]]:
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


# -- sowing ----------------------------------------------------------------------

def _sow_variant_shapes(state: CrusadersState) -> tuple[Move, ...]:
    """The sowing variants, shared: never to be handed out or changed."""
    p = state.players[state.current]
    order_id = p.order if state.revealed else ""
    n = p.tokens[state.wedge]
    by_wedge = _SOW_BY_ORDER.get(order_id)
    if by_wedge is not None and n < _SOW_TABLE_TOKENS:
        return by_wedge[state.wedge][n]
    key = (state.wedge, n, order_id)
    shapes = _SOW_SHAPES.get(key)
    if shapes is None:
        shapes = _SOW_SHAPES[key] = tuple(_sow_shapes(state.wedge, n, C.order_index.get(order_id)))
    return shapes


def _sow_shapes(wedge: int, n: int, order: Any) -> list[Move]:
    starts = ["next", "same"] if order and order.sow_from_same else ["next"]
    dirs = ["cw", "ccw"] if order and order.sow_reverse else ["cw"]
    moves: list[Move] = []
    for start in starts:
        for direction in dirs:
            d = 1 if direction == "cw" else -1
            first = wedge if start == "same" else (wedge + d) % 6
            path: list[int] = []
            for i in range(min(n, 6)):
                pos = (first + i * d) % 6
                if pos not in path:
                    path.append(pos)
            skips = [-1] + (path if order and order.sow_skip else [])
            doubles = [-1] + (path[: max(0, n - 1)] if order and order.sow_double and n >= 2 else [])
            for skip in skips:
                for double in doubles:
                    moves.append({"type": "sow", "from": start, "dir": direction, "skip": skip,
                                  "double": double})
    return moves


_SOW_TABLE_TOKENS = 16
"""Wedges of up to 15 tokens get their sowing variants and spreads from tables built at import (120 random
games sowed at most 13); more, from ``_SOW_SHAPES`` and the loops, as before."""
_SOW_BY_ORDER: dict[str, list[list[tuple[Move, ...]]]] = {
    order_id: [[tuple(_sow_shapes(wedge, n, C.order_index[order_id])) for n in range(_SOW_TABLE_TOKENS)]
               for wedge in range(6)]
    for order_id in sorted(SOW_ORDERS)}
"""The sowing variants per knight order that changes the sowing, wedge and tokens, built at import."""


def _do_sow(state: CrusadersState, move: Move, events: list[Event]) -> None:
    seat = state.current
    p = state.players[seat]
    w = state.wedge
    tokens = p.tokens
    n = tokens[w]
    tokens[w] = 0
    spread: tuple[int, ...] | None = None
    if 0 <= n < _SOW_TABLE_TOKENS:
        if move is PLAIN_SOW:
            spread = _PLAIN_SPREADS[w][n]
        else:
            spread = _SPREADS[w][n].get((move["from"], move["dir"], move["skip"], move["double"]))
    if spread is None:
        added = [0] * 6
        if move is PLAIN_SOW:
            _plain_sow(added, w, n)
        else:
            _spread(added, w, n, move)
        spread = tuple(added)
    tokens[:] = map(add, tokens, spread)
    events.append(Event("cr.sown", {"seat": seat, "wedge": p.wheel[w], "tokens": tokens[:]}))


def _spread(tokens: list[int], w: int, n: int, move: Move) -> None:
    """Sow n tokens from wedge w the way ``move`` says (from, dir, skip, double) onto ``tokens``."""
    d = 1 if move["dir"] == "cw" else -1
    pos = w if move["from"] == "same" else (w + d) % 6
    skip, double = move["skip"], move["double"]
    skipped = doubled = False
    while n > 0:
        if not skipped and pos == skip:
            skipped = True
            pos = (pos + d) % 6
            continue
        if not doubled and pos == double and n >= 2:
            tokens[pos] += 2
            n -= 2
            doubled = True
        else:
            tokens[pos] += 1
            n -= 1
        pos = (pos + d) % 6


def _plain_sow(tokens: list[int], w: int, n: int) -> None:
    """One token on each wedge clockwise from the next one, round and round: every wedge gets a
    full lap's worth, the first ``n % 6`` one more."""
    laps, rest = divmod(n, 6)
    if laps:
        for pos in range(6):
            tokens[pos] += laps
    for i in range(w + 1, w + 1 + rest):
        tokens[i % 6] += 1


def _spread_tables() -> tuple[list[list[tuple[int, ...]]], list[list[dict[tuple[Any, ...], tuple[int, ...]]]]]:
    """What a sowing adds to each wedge (after the sown wedge is emptied), per wedge and tokens: the plain
    sowing's, and every variant's of ``_SOW_BY_ORDER`` keyed by its (from, dir, skip, double)."""
    plain: list[list[tuple[int, ...]]] = []
    variants: list[list[dict[tuple[Any, ...], tuple[int, ...]]]] = []
    for w in range(6):
        plain.append([])
        variants.append([])
        for n in range(_SOW_TABLE_TOKENS):
            added = [0] * 6
            _plain_sow(added, w, n)
            plain[w].append(tuple(added))
            by_key: dict[tuple[Any, ...], tuple[int, ...]] = {}
            for by_wedge in _SOW_BY_ORDER.values():
                for shape in by_wedge[w][n]:
                    key = (shape["from"], shape["dir"], shape["skip"], shape["double"])
                    if key not in by_key:  # the orders share most variants
                        added = [0] * 6
                        _spread(added, w, n, shape)
                        by_key[key] = tuple(added)
            variants[w].append(by_key)
    return plain, variants


_PLAIN_SPREADS, _SPREADS = _spread_tables()
"""The sowings as tables (``_spread_tables``): a sowing is then one map over the wheel."""


def _can_step(state: CrusadersState) -> bool:
    points = state.points
    if points <= 0:
        return False
    knights = state.players[state.current].knights
    if points >= 2:  # any knight on the board can leave its region, enemy or not
        return max(knights) >= 0
    enemy = state.enemy
    for k in knights:  # noqa: SIM110  (a plain loop: cheaper than any() on a generator)
        if k >= 0 and not enemy[k]:
            return True
    return False


def _begin_sow(state: CrusadersState, events: list[Event]) -> None:
    state.phase = "sow"
    seat = state.current
    p = state.players[seat]
    if not state.revealed or p.order not in SOW_ORDERS:
        w = state.wedge
        tokens = p.tokens
        n = tokens[w]
        if 0 <= n < _SOW_TABLE_TOKENS:  # _do_sow of PLAIN_SOW, inline
            tokens[w] = 0
            tokens[:] = map(add, tokens, _PLAIN_SPREADS[w][n])
            events.append(Event("cr.sown", {"seat": seat, "wedge": p.wheel[w], "tokens": tokens[:]}))
        else:
            _do_sow(state, PLAIN_SOW, events)
        _end_turn(state, events)
        return
    variants = _sow_variant_shapes(state)
    if len(variants) == 1:
        _do_sow(state, variants[0], events)
        _end_turn(state, events)


def _end_turn(state: CrusadersState, events: list[Event]) -> None:
    state.actions = []
    state.wedge = -1
    state.points = 0
    state.sara_region = -1
    state.reward = ""
    state.turns += 1
    state.current = (state.current + 1) % state.seats
    if state.current == 0:
        state.round += 1
        if state.ending or state.round >= C.round_limit:
            state.phase = "over"
            events.append(Event("cr.game_over", {"round": state.round}))
            return
    state.phase = "turn"


# -- actions ---------------------------------------------------------------------

def _next_action(state: CrusadersState, events: list[Event]) -> None:
    while state.actions:
        action, tokens = state.actions.pop(0)
        if _start_action(state, action, tokens, events):
            return
    _begin_sow(state, events)


def _start_action(state: CrusadersState, action: str, tokens: int, events: list[Event]) -> bool:
    """Start one action; True if it waits for a choice, False if it resolved by itself."""
    seat = state.current
    p = state.players[seat]
    # action_value, inline: this runs for every action of a playout
    adds_key = (p.order if state.revealed else "", tuple(p.built), p.troops)
    adds = _ADDS.get(adds_key)
    if adds is None:
        adds = _ADDS[adds_key] = _action_adds(*adds_key)
    value = tokens + adds[action]
    if value < 0:
        value = 0
    by_count = _ACTION_EVENTS[seat][action]
    count_key = value << 20 | tokens  # one int, no tuple: a seat never holds 2**20 tokens
    event = by_count.get(count_key)
    if event is None:
        event = by_count[count_key] = Event("cr.action", {"seat": seat, "action": action, "tokens": tokens,
                                                          "value": value})
    events.append(event)
    if action == "move":
        state.points = value
        state.phase = "move"
        return _can_step(state)
    if action == "muster":
        if p.troops < len(C.troops) and value >= C.troops[p.troops].cost:
            _muster(state, seat, events)
        else:
            events.append(_failed(seat, action))
        return False
    if action == "influence":
        gain(state, seat, value, events, "influence")
        return False
    state.points = value
    state.phase = action
    if action == "crusade":
        if _crusade_targets(state):
            return True
    elif _build_options(state, True):
        return True
    events.append(_failed(seat, action))
    return False


def _failed(seat: int, action: str) -> Event:
    key = ("cr.failed", seat, action)
    event = _EVENTS.get(key)
    if event is None:
        event = _EVENTS[key] = Event("cr.failed", {"seat": seat, "action": action})
    return event


def _muster(state: CrusadersState, seat: int, events: list[Event]) -> None:
    p = state.players[seat]
    troop = C.troops[p.troops]
    p.troops += 1
    key = ("cr.mustered", seat, p.troops)
    event = _EVENTS.get(key)
    if event is None:
        event = _EVENTS[key] = Event("cr.mustered", {"seat": seat, "level": p.troops})
    events.append(event)
    gain(state, seat, troop.influence, events, "muster")


def _crusade(state: CrusadersState, region: int, events: list[Event]) -> None:
    seat = state.current
    p = state.players[seat]
    token = state.enemy[region]
    strength = enemy_strength(state, token)
    kind = enemy_kind(token)
    state.enemy[region] = ""
    p.defeated[kind] += 1
    region_id = BOARDS[state.seats].regions[region].id
    events.append(Event("cr.defeated", {"seat": seat, "enemy": ENEMIES[kind], "region": region_id,
                                        "strength": strength}))
    if kind < 2:
        gain(state, seat, strength, events, "crusade")
        state.track[kind] += 1
        _next_action(state, events)
        return
    state.sara_region = region
    state.reward = token.split(":", 1)[1]
    state.phase = "saracen"
    if _saracen_options(state) == ["influence"]:
        gain(state, seat, C.saracen_fallback, events, "saracen")
        _next_action(state, events)


# -- playing ---------------------------------------------------------------------

def perform(state: CrusadersState, seat: int, move: Move) -> list[Event]:
    events: list[Event] = []
    kind = move["type"]
    # one lookup instead of a chain of comparisons: perform runs on every decision of a playout
    play = _PLAY.get(kind)
    if state.phase == "setup" and kind != "arrange" and kind != "order":
        play = _play_setup
    if play is None:
        raise IllegalMove("bad_move_type", f"unknown move {kind!r}")
    play(state, seat, move, events)
    return events


def _play_arrange(state: CrusadersState, seat: int, move: Move, events: list[Event]) -> None:
    p = state.players[seat]
    p.wheel = (*p.wheel, move["wedge"])
    if len(p.wheel) == 5:  # the last wedge has one place left
        p.wheel = (*p.wheel, next(w.id for w in C.wedges if w.id not in p.wheel))
    if len(p.wheel) == 6:
        events.append(Event("cr.wheel_arranged", {"seat": seat}))
    _maybe_reveal(state, events)


def _play_order(state: CrusadersState, seat: int, move: Move, events: list[Event]) -> None:
    p = state.players[seat]
    p.order = move["order"]
    if p.offers:
        p.rejected = next(o for o in p.offers if o != p.order)
    events.append(Event("cr.order_chosen", {"seat": seat}))
    events.append(Event("cr.order_you_chose", {"seat": seat, "order": p.order}, to=seat))
    _maybe_reveal(state, events)


def _play_setup(state: CrusadersState, seat: int, move: Move, events: list[Event]) -> None:
    p = state.players[seat]
    task = state.setup_tasks.pop(0)[1]
    if task == "place":
        region = BOARDS[state.seats].index[move["region"]]
        for k, where in enumerate(p.knights):
            if k == 0 or where == -2:
                p.knights[k] = region
        events.append(Event("cr.knight_placed", {"seat": seat, "region": move["region"]}))
    elif task == "remove":
        p.tokens[move["wedge"]] -= 1
    elif task == "extra":
        p.tokens[move["wedge"]] += 1
    else:
        p.upgraded[move["wedge"]] = True
    if task != "place":
        events.append(Event("cr.order_setup", {"seat": seat, "task": task, "wedge": p.wheel[move["wedge"]]}))
    if state.setup_tasks:
        state.current = state.setup_tasks[0][0]
    else:
        state.phase = "turn"
        state.current = 0
        events.append(Event("cr.game_start", {"supply": state.supply}))


def _play_resolve(state: CrusadersState, seat: int, move: Move, events: list[Event]) -> None:
    p = state.players[seat]
    w = move["wedge"]
    state.wedge = w
    wedge = WEDGES[p.wheel[w]]
    tokens = p.tokens[w]
    by_tokens = _RESOLVE_EVENTS[seat][wedge.id]
    event = by_tokens.get(tokens)
    if event is None:
        event = by_tokens[tokens] = Event("cr.resolve", {"seat": seat, "wedge": wedge.id, "tokens": tokens})
    events.append(event)
    if p.upgraded[w]:
        state.phase = "split"
        return
    # _next_action with one action, inline: nothing is left to do after it
    state.actions = []
    if not _start_action(state, wedge.action, tokens, events):
        _begin_sow(state, events)


def split_tokens(state: CrusadersState, seat: int, move: Move) -> tuple[str, int, str, int]:
    """An upgraded wedge's split (``move``): the first action and its tokens, then the second
    and its tokens (``primary`` is the count given to the wedge's own action)."""
    p = state.players[seat]
    wedge = WEDGES[p.wheel[state.wedge]]
    n = p.tokens[state.wedge]
    k = move["primary"]
    first = move["first"]
    if first == wedge.action:
        return first, k, wedge.upgrade, n - k
    return first, n - k, wedge.action, k


def _play_split(state: CrusadersState, seat: int, move: Move, events: list[Event]) -> None:
    first, first_tokens, second, second_tokens = split_tokens(state, seat, move)
    events.append(_split_event(seat, first, first_tokens, second, second_tokens))
    state.actions = [(second, second_tokens)] if second_tokens > 0 else []
    # _next_action's first round inline: the first action, if given tokens, starts at once
    if first_tokens > 0 and _start_action(state, first, first_tokens, events):
        return
    _next_action(state, events)


def _split_event(seat: int, first: str, first_tokens: int, second: str, second_tokens: int) -> Event:
    """The shared ``cr.split`` event of this content."""
    key = ("cr.split", seat, first, first_tokens, second, second_tokens)
    event = _EVENTS.get(key)
    if event is None:
        event = _EVENTS[key] = Event("cr.split", {"seat": seat, "first": first, "tokens": first_tokens,
                                                  "second": second, "second_tokens": second_tokens})
    return event


def _play_step(state: CrusadersState, seat: int, move: Move, events: list[Event]) -> None:
    p = state.players[seat]
    board = BOARDS[state.seats]
    k = move["knight"]
    where = p.knights[k]
    state.points -= 2 if state.enemy[where] else 1
    p.knights[k] = board.index[move["to"]]
    by_to = _MOVED_EVENTS[state.seats][seat][where]
    event = by_to.get(move["to"])
    if event is None:
        event = by_to[move["to"]] = Event("cr.moved", {"seat": seat, "from": board.regions[where].id,
                                                        "to": move["to"]})
    events.append(event)
    if not _can_step(state):
        _next_action(state, events)


def _play_next(state: CrusadersState, seat: int, move: Move, events: list[Event]) -> None:
    _next_action(state, events)


def _play_crusade(state: CrusadersState, seat: int, move: Move, events: list[Event]) -> None:
    _crusade(state, BOARDS[state.seats].index[move["region"]], events)


def _play_saracen(state: CrusadersState, seat: int, move: Move, events: list[Event]) -> None:
    take = move["take"]
    if take == "building":
        place_building(state, seat, state.reward, state.sara_region, events, "saracen")
    elif take == "troop":
        _muster(state, seat, events)
    else:
        gain(state, seat, C.saracen_fallback, events, "saracen")
    _next_action(state, events)


def _play_build(state: CrusadersState, seat: int, move: Move, events: list[Event]) -> None:
    place_building(state, seat, move["building"], BOARDS[state.seats].index[move["region"]], events, "build")
    _next_action(state, events)


def _play_upgrade(state: CrusadersState, seat: int, move: Move, events: list[Event]) -> None:
    p = state.players[seat]
    p.upgraded[move["wedge"]] = True
    key = ("cr.upgraded", seat, p.wheel[move["wedge"]])
    event = _EVENTS.get(key)
    if event is None:
        event = _EVENTS[key] = Event("cr.upgraded", {"seat": seat, "wedge": key[2]})
    events.append(event)
    state.phase = "after_upgrade"


def _play_sow_wedge(state: CrusadersState, seat: int, move: Move, events: list[Event]) -> None:
    state.wedge = move["wedge"]
    _begin_sow(state, events)


def _play_no_sow(state: CrusadersState, seat: int, move: Move, events: list[Event]) -> None:
    _end_turn(state, events)


def _play_skip(state: CrusadersState, seat: int, move: Move, events: list[Event]) -> None:
    state.phase = "skip"
    key = ("cr.skipped", seat)
    event = _EVENTS.get(key)
    if event is None:
        event = _EVENTS[key] = Event("cr.skipped", {"seat": seat})
    events.append(event)


def _play_sow(state: CrusadersState, seat: int, move: Move, events: list[Event]) -> None:
    _do_sow(state, move, events)
    _end_turn(state, events)


def explain(state: CrusadersState, seat: int, move: Move) -> IllegalMove | None:
    """Why a move the rules refuse is refused, where a precise reason is known."""
    kind = move.get("type")
    p = state.players[seat] if 0 <= seat < state.seats else None
    if kind == "upgrade" and state.wheel_option == "learning":
        return IllegalMove("no_upgrades", "the learning game has no upgrading")
    if kind == "arrange" and state.phase == "order" and p is not None and len(p.wheel) < 6:
        return IllegalMove("cannot_arrange", "choose a wedge that is not on your wheel yet")
    if state.phase == "turn" and p is not None and isinstance(move.get("wedge"), int) and 0 <= move["wedge"] < 6:
        w = move["wedge"]
        if kind == "resolve" and p.tokens[w] == 0:
            return IllegalMove("wedge_empty", "an action needs at least one token on its wedge")
        if kind == "upgrade" and p.upgraded[w]:
            return IllegalMove("already_upgraded", "this wedge is already upgraded")
    if state.phase == "turn" and kind == "skip":
        return IllegalMove("cannot_skip", "you may skip only once every wedge is upgraded")
    if state.phase == "build" and kind == "build":
        return IllegalMove("cannot_build", "build where your knight stands, with no enemy and a free space, "
                                           "and pay the cost")
    if state.phase == "crusade" and kind == "crusade":
        return IllegalMove("cannot_crusade", "crusade where your knight meets an enemy you are strong enough for")
    if state.phase == "move" and kind == "step":
        return IllegalMove("cannot_move", "a knight moves to a neighbouring region and needs the points to leave")
    return None


HIDDEN_CHOICES = frozenset({"arrange", "order"})
"""The moves of the set-up whose content stays its seat's own until everyone has chosen."""


def hidden_choice(state: CrusadersState, seat: int, move: Move) -> bool:
    """Whether ``move``, played by ``seat`` on ``state``, is a choice the other seats may not
    see until the rules reveal it: a knight order, and in the Knight's Tournament each wedge
    placed on a wheel, before every seat has chosen (CR-40, CR-42).

    ``secrets`` cannot say it: the wedge ids are printed on every board (the view's
    catalogue) and several seats may choose the same order, so no id is one seat's alone."""
    return not state.revealed and move.get("type") in HIDDEN_CHOICES


LEGAL: Dispatch[str, Callable[[CrusadersState, Player], list[Move]]] = Dispatch("crusaders: legal moves by phase", (
    ("setup", _legal_setup), ("turn", _legal_turn), ("split", _legal_split), ("move", _legal_move),
    ("crusade", _legal_crusade), ("saracen", _legal_saracen), ("build", _legal_build),
    ("after_upgrade", _legal_after_upgrade), ("skip", _legal_skip), ("sow", _legal_sow),
))
"""The legal moves of the seat to play, per phase ("order" is every seat's; "over" has none)."""

PLAY: Dispatch[str, Callable[[CrusadersState, int, Move, list[Event]], None]] = Dispatch("crusaders: move kinds", (
    ("arrange", _play_arrange), ("order", _play_order), ("resolve", _play_resolve), ("split", _play_split),
    ("step", _play_step), ("stop", _play_next), ("pass", _play_next), ("crusade", _play_crusade),
    ("saracen", _play_saracen), ("build", _play_build), ("upgrade", _play_upgrade),
    ("sow_wedge", _play_sow_wedge), ("no_sow", _play_no_sow), ("skip", _play_skip), ("sow", _play_sow),
))
"""Who plays each kind of move (the setup tasks' moves go to ``_play_setup`` by the phase)."""

_LEGAL = dict(LEGAL)
_PLAY = dict(PLAY)
"""Plain-dict copies of the two tables for ``legal`` and ``perform``: ``get`` on a dict subclass is a slower
method call, and these two run on every decision of a playout."""
