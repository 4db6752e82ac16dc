"""Hadrian's Wall: the two sheets, box by box.

The sections and boxes (from the data), why a box cannot be filled now (HW-7), filling
one and collecting its reward (HW-8), and the fill moves a seat has: kept fast by tables
built at import and by the boxes each seat's counts allow (``Player.ready``), kept up to
date where the counts change, in ``fill``.
"""

from __future__ import annotations

from bisect import insort
from typing import Any

from ludoteca.engine import Move

from .cards import scout_sources
from .components import ATTRIBUTES, CITIZENS, COHORTS, STOCK, components
from .state import HadriansWallState, Player

C = components()
SECTIONS = C.sections
BOXES = C.boxes
SEC = C.section_index
S_COHORTS = tuple(SEC[c] for c in COHORTS)
S_ATTR = {a: SEC[a] for a in ATTRIBUTES}
S_CIT = {c: SEC[c] for c in CITIZENS}
S_PRODUCTION = SEC["production"]
S_WALL_GUARD = SEC["wall_guard"]
S_GOODS = SEC["goods"]
S_BRIBES = SEC["bribes"]
S_SCOUTS = SEC["scouts"]
S_GLAD = (SEC["gladiator_1"], SEC["gladiator_2"])
S_INN = SEC["inn"]
S_WORKSHOP = SEC["workshop"]
S_ROAD = SEC["road"]
DEFERRED = frozenset((S_GOODS, S_SCOUTS))
"""Sections whose cost is paid when its source is chosen (it may go to a neighbour)."""
FILLABLE = tuple(s for s in SECTIONS if not s.earned)
STOCK_INDEX = {name: i for i, name in enumerate(STOCK)}
FORUM_GAINS = ("builders", "servants", "civilians")
FULL_ROW = (1 << C.map_cols) - 1


def affordable(stock: list[int], cost: tuple[int, ...]) -> bool:
    return (stock[0] >= cost[0] and stock[1] >= cost[1] and stock[2] >= cost[2] and stock[3] >= cost[3]
            and stock[4] >= cost[4])


def block(state: HadriansWallState, seat: int, b: int) -> str | None:
    """Why box ``b`` cannot be filled by ``seat`` now, or None if it can (HW-7)."""
    box = BOXES[b]
    sec = SECTIONS[box.section]
    p = state.players[seat]
    if sec.earned:
        return "earned"
    if p.boxes[b]:
        return "filled"
    if sec.kind != "free" and box.position != p.count[sec.index]:
        return "order"
    for s, least in box.lock:
        if p.count[s] < least:
            return "locked"
    if sec.per_year and p.year_fills[sec.index] >= sec.per_year:
        return "year_limit"
    si = sec.index
    if si == S_BRIBES and p.count[S_BRIBES] >= p.disdain:
        return "no_disdain"
    if si in S_GLAD:
        g = S_GLAD.index(si)
        if p.count[si] and p.glad_damage[g] >= p.count[si]:
            return "dead"
    if si == S_SCOUTS and not scout_sources(state, seat):
        return "no_pattern"
    for cost in box.costs:
        if affordable(p.stock, cost):
            return None
    return "cost"


def box_status(state: HadriansWallState, seat: int) -> dict[str, str]:
    """For every box of ``seat``'s sheets: "filled", "open" (fillable now) or why not.

    The same answers as ``block`` box by box; the first checks are inlined because most
    boxes stop there (filled, or waiting for the box before them), and every seat's view
    asks after every move."""
    p = state.players[seat]
    filled = p.boxes
    count = p.count
    out = {}
    for box in BOXES:
        sec = SECTIONS[box.section]
        if sec.earned:
            out[box.id] = "earned"
        elif filled[box.index]:
            out[box.id] = "filled"
        elif sec.kind != "free" and box.position != count[sec.index]:
            out[box.id] = "order"
        else:
            out[box.id] = block(state, seat, box.index) or "open"
    return out


def lock_text(b: int) -> list[list[Any]]:
    return [[SECTIONS[s].id, least] for s, least in BOXES[b].lock]


def fill(state: HadriansWallState, seat: int, b: int) -> None:
    """Mark box ``b`` filled this year and collect its reward."""
    p = state.players[seat]
    s = _BOX_SECTION[b]
    year = state.year
    p.boxes[b] = year if year > 1 else 1
    count = p.count
    n = count[s] + 1
    count[s] = n
    p.year_fills[s] += 1
    rc = p.ready_count
    if rc is not None:
        # Player.ready follows the counts here, before the rewards, whose fills follow in turn
        rc[s] += 1
        kind, members, size, unlocks = _ADVANCE[s]
        ready = p.ready
        if kind == 1:
            if b in ready:
                ready.remove(b)
        elif kind == 2 and 0 < n <= size:
            before = members[n - 1]
            if before in ready:
                ready.remove(before)
            if n < size:
                nb = members[n]
                for ls, least in _BOX_LOCK[nb]:
                    if count[ls] < least:
                        break
                else:
                    insort(ready, nb)
        if n <= size:
            for nb in unlocks[n]:
                if nb not in ready and _placed(count, p.boxes, nb):
                    insort(ready, nb)
    stock_gains, tokens = _BOX_GAINS[b]
    if stock_gains:
        stock = p.stock
        for i in stock_gains:
            stock[i] += 1
    for token in tokens:
        gain(state, seat, token)


def fill_next(state: HadriansWallState, seat: int, s: int, check_lock: bool = False) -> bool:
    p = state.players[seat]
    members = SECTIONS[s].boxes
    n = p.count[s]
    if n >= len(members):
        return False
    b = members[n]
    if check_lock:
        for ls, least in BOXES[b].lock:
            if p.count[ls] < least:
                return False
    fill(state, seat, b)
    return True


def gain(state: HadriansWallState, seat: int, token: str) -> None:
    """Collect one reward icon (HW-8)."""
    p = state.players[seat]
    i = STOCK_INDEX.get(token)
    if i is not None:
        p.stock[i] += 1
    elif token in S_ATTR:
        fill_next(state, seat, S_ATTR[token])
    elif token in S_CIT:
        fill_next(state, seat, S_CIT[token])
    elif token == "production":
        fill_next(state, seat, S_PRODUCTION)
    elif token == "sword":
        fill_next(state, seat, S_WALL_GUARD, check_lock=True)
    elif token == "cohort":
        p.todo.append(["cohort"])
    elif token == "road_small":
        p.todo.append(["attribute", "piety", "discipline"])
    elif token == "road_large":
        p.todo.append(["attribute", "renown", "valour"])
    elif token == "forum":
        p.todo.append(["forum"])
    elif token == "favour":
        p.temple_favours += 1
    elif token == "diplomat":
        p.todo.append(["diplomat"])
    elif token == "trade":
        b = last_filled_goods(p)
        p.todo.append(["trade", b])
    elif token == "scout":
        p.todo.append(["scout"])
    elif token in ("fight_1", "fight_2"):
        g = int(token[-1]) - 1
        if p.glad_fought[g] != state.year:
            p.todo.append(["fight", g])


def last_filled_goods(p: Player) -> int:
    """The goods box just filled: the one whose good is not yet written."""
    for pos, b in enumerate(SECTIONS[S_GOODS].boxes):
        if p.boxes[b] and not p.goods[pos]:
            return pos
    return 0


# -- the fillable boxes -------------------------------------------------------------------------
# A box can be filled when its place allows (the next of its track or column, or any empty
# box of a free section), its locks hold, the seat can pay, its section's yearly limit is not
# reached and its own condition holds (bribes, gladiators, scouts). Place and locks depend on
# the section counts alone, which only rise, and only in ``fill``: the boxes they allow
# (``Player.ready``) are kept up to date there, so a legal-move call visits those dozen boxes
# instead of every section; the payment is one bit test against a mask of the affordable costs.

_COSTS = sorted({cost for box in BOXES for cost in box.costs})
_COST_BIT = {cost: 1 << i for i, cost in enumerate(_COSTS)}
_COST_NEEDS = tuple((1 << i, tuple((k, n) for k, n in enumerate(cost) if n)) for i, cost in enumerate(_COSTS))
_SPECIAL = {S_BRIBES: 1, S_GLAD[0]: 2, S_GLAD[1]: 3, S_SCOUTS: 4}
_FREE_SECTION = tuple(sec.kind == "free" for sec in SECTIONS)
_BOX_SECTION = tuple(box.section for box in BOXES)
_BOX_POSITION = tuple(box.position for box in BOXES)
_BOX_LOCK = tuple(box.lock for box in BOXES)
BOX_ID = tuple(box.id for box in BOXES)
_PLAIN_BIT = tuple(
    _COST_BIT[box.costs[0]] if (not SECTIONS[box.section].earned and len(box.costs) == 1
                                and not _FREE_SECTION[box.section] and not SECTIONS[box.section].per_year
                                and box.section not in _SPECIAL) else 0
    for box in BOXES)
"""Per box, the bit of its one cost if nothing but the place, locks and payment decide it; else 0."""
_GENERAL = tuple(
    (box.section, SECTIONS[box.section].per_year, _FREE_SECTION[box.section], _SPECIAL.get(box.section, 0),
     box.id, _COST_BIT[box.costs[0]] if len(box.costs) == 1 else 0,
     tuple((_COST_BIT[c], label) for c, label in zip(box.costs, box.pay_labels, strict=True))) if box.costs
    else (box.section, 0, False, 0, box.id, 0, ())  # earned: never ready
    for box in BOXES)
"""Per box, what the other boxes need: section, yearly limit, free, condition, id, the bit of its
one cost (0 if it has several), (cost bit, label) per payment."""
_FILL_SHAPE = tuple({"type": "fill", "box": box.id} for box in BOXES)
"""Per box, its fill move without a payment label, copied for each caller (callers keep them)."""


def _unlocks() -> tuple[tuple[tuple[int, ...], ...], ...]:
    out = []
    for sec in SECTIONS:
        by_count: list[list[int]] = [[] for _ in range(len(sec.boxes) + 1)]
        for fs in FILLABLE:
            for b in fs.boxes:
                for ls, least in BOXES[b].lock:
                    if ls == sec.index:
                        by_count[least].append(b)
        out.append(tuple(tuple(bs) for bs in by_count))
    return tuple(out)


_UNLOCKS = _unlocks()
"""Per section and count, the fillable boxes with a lock that this count of that section meets."""
_ADVANCE = tuple((0 if sec.earned else 1 if sec.kind == "free" else 2, sec.boxes, len(sec.boxes),
                  _UNLOCKS[sec.index]) for sec in SECTIONS)
"""Per section, what ``fill`` needs to keep ``Player.ready`` up to date: 0 earned, 1 free, 2 in
order; its boxes and how many; the boxes each count of it (0..how many) unlocks."""
_BOX_GAINS = tuple((tuple(STOCK_INDEX[t] for t in box.reward if t in STOCK_INDEX),
                    tuple(t for t in box.reward if t not in STOCK_INDEX)) for box in BOXES)
"""Per box, its reward: the stock it adds, then the other icons in order. Nothing the other
icons do reads the stock, so adding it first changes nothing."""
BOX_INDEX = C.box_index
PAY_NEEDS = tuple(None if box.section in DEFERRED else tuple(tuple((i, n) for i, n in enumerate(cost) if n)
                                                               for cost in box.costs)
                   for box in BOXES)
"""Per box and payment, the (stock index, amount) pairs it takes; None where the payment is deferred."""
PAY_LABELS = tuple(box.pay_labels for box in BOXES)

_AFFORD_SPAN = 96
"""Stock amounts 0.._AFFORD_SPAN - 1 are looked up in tables."""


def _afford_tables() -> tuple[tuple[int, ...], ...]:
    tables = []
    for i in range(5):
        top = max(cost[i] for cost in _COSTS)
        row = [sum(bit for bit, needs in _COST_NEEDS if all(amount >= need for k, need in needs if k == i))
               for amount in range(top + 1)]
        tables.append(tuple(row + row[-1:] * (_AFFORD_SPAN - len(row))))
    return tuple(tables)


_A0, _A1, _A2, _A3, _A4 = _afford_tables()
"""Per stock index and amount, the bits of the costs that amount of it does not stop."""


def _afford(stock: list[int]) -> int:
    """The bits of the costs ``stock`` pays."""
    s0, s1, s2, s3, s4 = stock
    if s0 | s1 | s2 | s3 | s4 >= 0:  # no amount below zero
        try:
            return _A0[s0] & _A1[s1] & _A2[s2] & _A3[s3] & _A4[s4]
        except IndexError:  # an amount beyond the tables: cost by cost
            pass
    mask = 0
    for bit, needs in _COST_NEEDS:
        for i, need in needs:
            if stock[i] < need:
                break
        else:
            mask |= bit
    return mask


def _placed(count: list[int], filled: list[int], b: int) -> bool:
    """Box ``b`` is in a place to be filled and its locks hold."""
    s = _BOX_SECTION[b]
    if _FREE_SECTION[s]:
        if filled[b]:
            return False
    elif _BOX_POSITION[b] != count[s]:
        return False
    for ls, least in _BOX_LOCK[b]:  # noqa: SIM110 -- a loop: all() with a generator costs more here
        if count[ls] < least:
            return False
    return True


def ready_boxes(p: Player) -> list[int]:
    """The boxes ``p`` could fill now if it could pay (and the per-year limits and the
    sections' own conditions allow), ascending; recomputed when the counts it was
    computed for are not ``p``'s counts."""
    count = p.count
    if count != p.ready_count:
        filled = p.boxes
        ready = []
        for si, free, members in _FILLABLE_SECTIONS:
            if free:
                candidates = members
            else:
                n = count[si]
                if n >= len(members):
                    continue
                candidates = (members[n],)
            for b in candidates:
                if free and filled[b]:
                    continue
                for ls, least in _BOX_LOCK[b]:
                    if count[ls] < least:
                        break
                else:
                    ready.append(b)
        p.ready = ready
        p.ready_count = count[:]
    return p.ready


_FILLABLE_SECTIONS = tuple((sec.index, sec.kind == "free", sec.boxes) for sec in FILLABLE)


def fills(state: HadriansWallState, seat: int, p: Player, out: list[Move]) -> None:
    """Append a fill move for every box ``seat`` can fill now, one per payment (HW-7)."""
    ready = p.ready if p.count == p.ready_count else ready_boxes(p)
    aff = _afford(p.stock)
    plain = _PLAIN_BIT
    shapes = _FILL_SHAPE
    for b in ready:
        bit = plain[b]
        if bit:
            if aff & bit:
                out.append(shapes[b].copy())
            continue
        si, per_year, free, special, box_id, bit, pays_by = _GENERAL[b]
        if per_year and p.year_fills[si] >= per_year:
            continue
        if free and p.boxes[b]:
            continue
        if bit:
            if not aff & bit:
                continue
        else:
            pays = []
            for cost_bit, label in pays_by:
                if aff & cost_bit:
                    pays.append(label)
            if not pays:
                continue
        if special:
            count = p.count
            if special == 1:
                if count[S_BRIBES] >= p.disdain:
                    continue
            elif special == 4:
                if not scout_sources(state, seat):
                    continue
            else:
                g = special - 2
                strength = count[S_GLAD[g]]
                if strength and p.glad_damage[g] >= strength:
                    continue
        if bit:
            out.append(shapes[b].copy())
        else:
            for label in pays:
                out.append({"type": "fill", "box": box_id, "pay": label})
