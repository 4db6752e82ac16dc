"""Crusaders: the turn's actions.

Resolving a wedge (its action with X tokens), splitting an upgraded wedge's tokens between
its two actions, upgrading one; then the five actions and the choices they take: Move (a
knight at a time, one step each), Crusade and its Saracen reward, Build, Muster and
Influence (which resolve by themselves) (CR-14 .. CR-34).
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import product
from typing import Any

from ludoteca.engine import Event, Move

from .components import ACTIONS, ENEMIES
from .economy import (
    BOARDS,
    BUILDING_INDEX,
    REGION_IDS,
    C,
    bonuses,
    build_options,
    can_build_in,
    enemy_kind,
    enemy_strength,
    gain,
    place_building,
)
from .sowing import begin_sow
from .state import CrusadersState, Player

_EVENTS: dict[tuple[Any, ...], Event] = {}
"""This module's events built once per content and shared, as economy's are."""

_ACTION_EVENTS: list[dict[str, dict[int, Event]]] = [{action: {} for action in ACTIONS} for _ in range(5)]
"""The shared ``cr.action`` events per seat, action and (value, tokens) as one int: the hottest events keyed
without a tuple built per action, as are ``cr.resolve`` (per seat, wedge and tokens) and ``cr.moved``."""
_RESOLVE_EVENTS: list[dict[str, dict[int, Event]]] = [{w.id: {} for w in C.wedges} for _ in range(5)]
_MOVED_EVENTS: dict[int, list[list[dict[str, Event]]]] = {
    seats: [[{} for _ in board.regions] for _ in range(5)] for seats, board in BOARDS.items()}
"""``cr.moved`` per seat count, seat and region left, keyed by the region id reached."""

WEDGES = {w.id: w for w in C.wedges}


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
    totals = bonuses(built)
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
    return [{"type": "build", "building": name, "region": ids[r]} for name, r in build_options(state)] + [
        {"type": "pass"}]


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


def _next_action(state: CrusadersState, events: list[Event]) -> None:
    while state.actions:
        action, tokens = state.actions.pop(0)
        if _start_action(state, action, tokens, events):
            return
    begin_sow(state, events)


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
    elif build_options(state, True):
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
        begin_sow(state, events)


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


LEGAL_BY_PHASE: dict[str, Callable[[CrusadersState, Player], list[Move]]] = {
    "turn": _legal_turn, "split": _legal_split, "move": _legal_move, "crusade": _legal_crusade,
    "saracen": _legal_saracen, "build": _legal_build,
}
"""The legal moves of the seat to play in this module's phases (rules.LEGAL gathers them)."""
PLAY_BY_KIND: dict[str, Callable[[CrusadersState, int, Move, list[Event]], None]] = {
    "resolve": _play_resolve, "split": _play_split, "step": _play_step, "stop": _play_next, "pass": _play_next,
    "crusade": _play_crusade, "saracen": _play_saracen, "build": _play_build, "upgrade": _play_upgrade,
}
"""Who plays each kind of move this module's phases take (rules.PLAY gathers them)."""
