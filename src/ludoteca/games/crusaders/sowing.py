"""Crusaders: the mancala sowing that ends a turn (CR-17, CR-33), and the end of the turn.

A plain sowing drops one token on each wedge from the next one, round the wheel; some
knight orders let a seat start from the wedge itself, go the other way, skip a wedge or
double one. The variants and what each adds to every wedge are tables built at import.
"""

from __future__ import annotations

from collections.abc import Callable
from operator import add
from typing import Any

from ludoteca.engine import Event, Move

from .economy import C
from .state import CrusadersState, Player

_EVENTS: dict[tuple[Any, ...], Event] = {}
"""This module's events built once per content and shared, as economy's are."""

PLAIN_SOW = {"type": "sow", "from": "next", "dir": "cw", "skip": -1, "double": -1}
"""The sowing of every seat whose knight order does not change it (never handed out as a move)."""


_SOW_SHAPES: dict[tuple[int, int, str], tuple[Move, ...]] = {}
"""The sowing variants per (wedge position, tokens, knight order): copied per call, since callers may keep
or change the moves they get."""

SOW_ORDERS = frozenset(o.id for o in C.orders if o.sow_from_same or o.sow_reverse or o.sow_skip or o.sow_double)
"""The knight orders that change the sowing."""


def _legal_after_upgrade(state: CrusadersState, p: Player) -> list[Move]:
    return [{"type": "sow_wedge", "wedge": pos} for pos, n in enumerate(p.tokens) if n > 0] + [{"type": "no_sow"}]


def _legal_skip(state: CrusadersState, p: Player) -> list[Move]:
    return [{"type": "sow_wedge", "wedge": pos} for pos, n in enumerate(p.tokens) if n > 0]


def _legal_sow(state: CrusadersState, p: Player) -> list[Move]:
    """The ways to sow the wedge ``state.wedge`` (several only with some knight orders) (CR-17, CR-33)."""
    return list(map(dict.copy, _sow_variant_shapes(state)))


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


def begin_sow(state: CrusadersState, events: list[Event]) -> None:
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


def _play_sow_wedge(state: CrusadersState, seat: int, move: Move, events: list[Event]) -> None:
    state.wedge = move["wedge"]
    begin_sow(state, events)


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


LEGAL_BY_PHASE: dict[str, Callable[[CrusadersState, Player], list[Move]]] = {
    "after_upgrade": _legal_after_upgrade, "skip": _legal_skip, "sow": _legal_sow}
"""The legal moves of the seat to play in this module's phases (rules.LEGAL gathers them)."""
PLAY_BY_KIND: dict[str, Callable[[CrusadersState, int, Move, list[Event]], None]] = {
    "sow_wedge": _play_sow_wedge, "no_sow": _play_no_sow, "skip": _play_skip, "sow": _play_sow}
"""Who plays each kind of move this module's phases take (rules.PLAY gathers them)."""
