"""Hadrian's Wall rules: set-up, the year (fate card, player cards, production, actions,
Pict attack), every box's fill, and the follow-up decisions rewards create.

Rule numbers (HW-n) refer to rules.md beside this module. Turn flow: ``pending`` and
``legal`` test the phase; ``perform`` dispatches on the move kind through ``PLAY``; a move
answering a decision a reward created (``Player.todo``, oldest first) goes through
``FOLLOW_UP``, and ``OWED`` lists the moves that answer each kind of owed decision.
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Callable, Hashable, Mapping
from typing import Any

from ludoteca.engine import Decision, Event, IllegalMove, Move, Option, Prompt, Rng
from ludoteca.engine.flow import Dispatch

from . import scoring
from .components import (
    ATTRIBUTES,
    BUILDERS,
    CITIZENS,
    CIVILIANS,
    COHORTS,
    DIFFICULTIES,
    DIRECTIONS,
    RESOURCES,
    SOLDIERS,
    STOCK,
    components,
)
from .state import PHASE_ATTACK, PHASE_CHOOSE, PHASE_MAIN, PHASE_OVER, HadriansWallState, Player

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

OPTIONS = (
    Option("difficulty", "choice", "normal", "How many Pict cards attack each year (HW-40).", choices=DIFFICULTIES),
    Option("resource_passing", "bool", True,
           "A neighbour whose card you use receives your resource or soldier; off: you add a Pict card to "
           "your own attack instead (HW-55).", seats=(2, 3, 4, 5, 6)),
)


# -- small helpers -----------------------------------------------------------------------


def neighbours(state: HadriansWallState, seat: int) -> list[int]:
    """HW-39: the seats on either side (one seat with two players, none solo)."""
    n = state.seats
    if n == 1:
        return []
    if n == 2:
        return [1 - seat]
    return [(seat - 1) % n, (seat + 1) % n]


def flip_fate(state: HadriansWallState, attacking: bool = False) -> str:
    """Turn the top fate card face up onto the discard (HW-3). When the deck runs out the
    discard is shuffled into a new deck, except the year's card and, during an attack,
    the Pict cards already flipped; the other cards on show leave the table."""
    if not state.fate_deck:
        keep = {state.year_card}
        if attacking:
            keep |= set(state.attack_cards)
        else:
            state.attack_cards = []
        state.flips = []
        pile = [c for c in state.fate_discard if c not in keep]
        state.fate_discard = [c for c in state.fate_discard if c in keep]
        state.rng.shuffle(pile)
        state.fate_deck = pile
    card = state.fate_deck.pop()
    state.fate_discard.append(card)
    state.reveal_count += 1
    return card


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


# -- rewards -------------------------------------------------------------------------------


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
    # "approve": the bribe box itself cancels one disdain (HW-34)


def last_filled_goods(p: Player) -> int:
    """The goods box just filled: the one whose good is not yet written."""
    for pos, b in enumerate(SECTIONS[S_GOODS].boxes):
        if p.boxes[b] and not p.goods[pos]:
            return pos
    return 0


# -- follow-up decisions -----------------------------------------------------------------------


def scout_sources(state: HadriansWallState, seat: int) -> list[Move]:
    """HW-37: whose pattern a scout may follow, where one still fits the map."""
    out: list[Move] = []
    p = state.players[seat]
    if p.prospect and fits(p.map, C.card_index[card_name(p.prospect)].pattern):
        out.append({"type": "scout", "from": "own"})
    for n in neighbours(state, seat):
        q = state.players[n]
        if q.prospect and fits(p.map, C.card_index[card_name(q.prospect)].pattern):
            out.append({"type": "scout", "from": "seat", "seat": n})
    for card in state.neutral_open:
        if fits(p.map, C.card_index[card_name(card)].pattern):
            out.append({"type": "scout", "from": "neutral", "card": card})
    return out


def fits(grid: int, pattern: str) -> bool:
    return any(not grid & mask for mask in C.placements[pattern])


def trade_sources(state: HadriansWallState, seat: int) -> list[Move]:
    """HW-28: buy a trade good from the fate deck, a neighbour's prospect or a neutral card."""
    out: list[Move] = [{"type": "trade", "from": "fate"}]
    for n in neighbours(state, seat):
        if state.players[n].prospect:
            out.append({"type": "trade", "from": "seat", "seat": n})
    for card in state.neutral_open:
        out.append({"type": "trade", "from": "neutral", "card": card})
    return out


def card_name(card_id: str) -> str:
    return card_id.split("-", 1)[1]


Owed = Callable[[HadriansWallState, int, Player, list[Any]], list[Move]]
OWED: Dispatch[str, Owed] = Dispatch("hadrianswall: owed decisions by kind")
"""Per kind of owed decision (``Player.todo``), the moves that answer it."""


def todo_options(state: HadriansWallState, seat: int, item: list[Any]) -> list[Move]:
    return OWED[item[0]](state, seat, state.players[seat], item)


@OWED.on("cohort")
def _owed_cohort(state: HadriansWallState, seat: int, p: Player, item: list[Any]) -> list[Move]:
    return [{"type": "cohort", "cohort": d} for d, s in zip(DIRECTIONS, S_COHORTS, strict=True) if p.count[s] < 6]


@OWED.on("attribute")
def _owed_attribute(state: HadriansWallState, seat: int, p: Player, item: list[Any]) -> list[Move]:
    return [{"type": "attribute", "attribute": a} for a in item[1:] if p.count[S_ATTR[a]] < 25]


@OWED.on("forum")
def _owed_forum(state: HadriansWallState, seat: int, p: Player, item: list[Any]) -> list[Move]:
    return [{"type": "forum", "gain": g} for g in FORUM_GAINS]


@OWED.on("diplomat")
def _owed_diplomat(state: HadriansWallState, seat: int, p: Player, item: list[Any]) -> list[Move]:
    return [{"type": "diplomat", "direction": d} for d in DIRECTIONS if d not in p.diplomat_dirs]


@OWED.on("trade")
def _owed_trade(state: HadriansWallState, seat: int, p: Player, item: list[Any]) -> list[Move]:
    return trade_sources(state, seat)


@OWED.on("scout")
def _owed_scout(state: HadriansWallState, seat: int, p: Player, item: list[Any]) -> list[Move]:
    return scout_sources(state, seat) if p.stock[SOLDIERS] >= 1 else []


@OWED.on("place")
def _owed_place(state: HadriansWallState, seat: int, p: Player, item: list[Any]) -> list[Move]:
    grid = p.map
    orients = C.orientations[item[1]]
    if len(item) == 3:
        return [{"type": "place", "cells": cells(mask)} for mask in orients[item[2]] if not grid & mask]
    fitting = [k for k, masks in enumerate(orients) if any(not grid & mask for mask in masks)]
    if len(fitting) == 1:
        return [{"type": "place", "cells": cells(mask)} for mask in orients[fitting[0]] if not grid & mask]
    return [{"type": "orient", "shape": cells(orients[k][0])} for k in fitting]


@OWED.on("fight")
def _owed_fight(state: HadriansWallState, seat: int, p: Player, item: list[Any]) -> list[Move]:
    return [{"type": "fight", "gladiator": item[1] + 1, "fight": True},
            {"type": "fight", "gladiator": item[1] + 1, "fight": False}]


def cells(mask: int) -> list[int]:
    known = _CELLS.get(mask)
    if known is None:
        known = _CELLS[mask] = tuple(i for i in range(C.map_rows * C.map_cols) if mask >> i & 1)
    return list(known)


_CELLS: dict[int, tuple[int, ...]] = {}
"""The cells of each placement mask (a few hundred at most), as they are asked for."""


def settle(state: HadriansWallState, seat: int) -> None:
    """Drop owed decisions that have no option left (a full track, say)."""
    p = state.players[seat]
    while p.todo and not todo_options(state, seat, p.todo[0]):
        p.todo.pop(0)


# -- the year ----------------------------------------------------------------------------


def start_year(state: HadriansWallState, events: list[Event]) -> None:
    """HW-3..HW-6: fate card, production, player cards."""
    state.year += 1
    state.phase = PHASE_CHOOSE
    state.flips = []
    state.year_card = None  # nothing is on show yet: a reshuffle takes last year's card too (HW-3)
    card = flip_fate(state)
    state.year_card = card
    fate = C.fate_index[card]
    events.append(Event("hw.year", {"year": state.year, "card": card}))
    for seat, p in enumerate(state.players):
        p.year_fills = [0] * len(SECTIONS)
        p.ended = False
        p.chosen = False
        for i in range(5):
            p.stock[i] += fate.gain[i]
        p.stock[RESOURCES] += p.count[S_PRODUCTION]
        p.stock[CIVILIANS] += p.count[S_INN]
        p.stock[BUILDERS] += p.count[S_WORKSHOP]
        for _ in range(p.count[S_ROAD]):
            p.todo.append(["attribute", *ATTRIBUTES])
        p.hand = [p.deck.pop(), p.deck.pop()]
        p.pending_guideline = None
        p.pending_prospect = None
        settle(state, seat)


def reveal(state: HadriansWallState, events: list[Event]) -> None:
    """HW-5: all have chosen: prospects turn face up and give their gifts."""
    state.reveal_count += 1
    for p in state.players:
        assert p.pending_guideline is not None and p.pending_prospect is not None
        p.guidelines.append(p.pending_guideline)
        p.prospect = p.pending_prospect
        p.pending_guideline = None
        p.pending_prospect = None
        gift = C.card_index[card_name(p.prospect)].gift
        for i in range(5):
            p.stock[i] += gift[i]
    state.neutral_open = []
    for _ in range(C.neutral_cards.get(state.seats, 0)):
        if state.neutral_deck:
            state.neutral_open.append(state.neutral_deck.pop())
    state.phase = PHASE_MAIN
    events.append(Event("hw.reveal", {"prospects": [p.prospect for p in state.players],
                                      "neutral": state.neutral_open[:]}))
    for seat in range(state.seats):
        settle(state, seat)


def attack(state: HadriansWallState, events: list[Event]) -> None:
    """HW-11, HW-40, HW-46: workers go back and the Pict cards are flipped; seats that
    can spend a favour decide (HW-42), then the attack is resolved."""
    row = C.years[state.year - 1]
    for p in state.players:
        p.stock = [0, 0, 0, 0, 0]
    state.attack_cards = []
    for _ in range(row[state.difficulty]):
        state.attack_cards.append(flip_fate(state, attacking=True))
    common = [0, 0, 0]
    for card in state.attack_cards:
        common[DIRECTIONS.index(C.fate_index[card].attack)] += 1
    for p in state.players:
        hits = common[:]
        for _ in range(p.extra_picts):
            card = flip_fate(state, attacking=True)
            state.attack_cards.append(card)
            hits[DIRECTIONS.index(C.fate_index[card].attack)] += 1
        p.hits = hits
        p.favours_used = 0
        p.defended = not favour_options(p)
    state.phase = PHASE_ATTACK
    events.append(Event("hw.picts", {"year": state.year, "cards": state.attack_cards[:]}))
    if all(p.defended for p in state.players):
        finish_attack(state, events)


def favour_options(p: Player) -> list[Move]:
    """HW-42: favours that would cancel a card that breaches."""
    out: list[Move] = []
    for d, direction in enumerate(DIRECTIONS):
        if p.hits[d] > p.count[S_COHORTS[d]]:
            if p.dir_favours[d]:
                out.append({"type": "favour", "direction": direction, "favour": "diplomat"})
            if p.temple_favours:
                out.append({"type": "favour", "direction": direction, "favour": "temple"})
    if out:
        out.append({"type": "hold"})
    return out


def finish_attack(state: HadriansWallState, events: list[Event]) -> None:
    """HW-41, HW-43, HW-44: cohorts block, valour and disdain, then the next year."""
    potential = C.years[state.year - 1]["valour"]
    state.last_attack = []
    for seat, p in enumerate(state.players):
        outcome = resolve_attack(p, p.hits, potential)
        outcome["favours"] = p.favours_used
        outcome["extra"] = p.extra_picts
        state.last_attack.append(outcome)
        p.disdain = min(15, p.disdain + outcome["disdain"])
        for _ in range(outcome["valour"]):
            gain(state, seat, "valour")
        p.extra_picts = 0
        p.defended = True
        events.append(Event("hw.attack", {"seat": seat, **outcome}))
    state.neutral_open = []
    if state.year >= 6:
        state.phase = PHASE_OVER
        for p in state.players:
            p.todo = []
            p.stock = [0, 0, 0, 0, 0]  # HW-53: workers won in the last attack are worthless
        scores = [scoring.score(state, s)["total"] for s in range(state.seats)]
        if state.seats == 1:  # HW-47: the log names the solo rank too
            events.append(Event("hw.over_solo", {"scores": scores, "solo_rank": scoring.solo_rank(scores[0])}))
        else:
            events.append(Event("hw.over", {"scores": scores}))
    else:
        start_year(state, events)


def resolve_attack(p: Player, hits: list[int], potential: int) -> dict[str, int]:
    """HW-41, HW-43 for one seat: cohorts block, the rest breaches."""
    breaches = 0
    for d in range(3):
        breaches += max(0, hits[d] - p.count[S_COHORTS[d]])
    if breaches == 0:
        disdain, valour = 0, potential
    else:
        disdain = min(breaches, potential)
        valour = max(0, potential - breaches)
    return {"left": hits[0], "centre": hits[1], "right": hits[2], "breaches": breaches, "disdain": disdain,
            "valour": valour}


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
_BOX_ID = tuple(box.id for box in BOXES)
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
_BOX_INDEX = C.box_index
_PAY_NEEDS = tuple(None if box.section in DEFERRED else tuple(tuple((i, n) for i, n in enumerate(cost) if n)
                                                               for cost in box.costs)
                   for box in BOXES)
"""Per box and payment, the (stock index, amount) pairs it takes; None where the payment is deferred."""
_PAY_LABELS = tuple(box.pay_labels for box in BOXES)

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


def _fills(state: HadriansWallState, seat: int, p: Player, out: list[Move]) -> None:
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


_DECISIONS: dict[tuple[int, str, int], Decision] = {}
"""Decisions are immutable and few: built once per (seat, prompt, year) and shared."""


class _TodoPrompts(dict[str, str]):
    def __missing__(self, kind: str) -> str:
        self[kind] = f"hw.prompt.{kind}"
        return self[kind]


_TODO_PROMPTS = _TodoPrompts()


def _decision(seat: int, key: str, year: int) -> Decision:
    d = _DECISIONS.get((seat, key, year))
    if d is None:
        d = _DECISIONS[(seat, key, year)] = Decision(seat, Prompt(key, {"year": year}))
    return d


# -- set-up (HW-2) -------------------------------------------------------------------------


def new_state(seats: int, options: Mapping[str, Any], rng: Rng) -> HadriansWallState:
    state = HadriansWallState(rng, seats, str(options["difficulty"]), bool(options["resource_passing"]))
    state.fate_deck = [c.id for c in C.fate]
    rng.shuffle(state.fate_deck)
    for seat in range(seats):
        p = Player(len(BOXES), len(SECTIONS))
        p.deck = [f"p{seat}-{c.id}" for c in C.cards]
        rng.shuffle(p.deck)
        state.players.append(p)
        fill(state, seat, SECTIONS[S_PRODUCTION].boxes[0])  # HW-2: one production circle to start
    if seats <= 2:
        state.neutral_deck = [f"n-{c.id}" for c in C.cards]
        rng.shuffle(state.neutral_deck)
    start_year(state, [])
    return state


# -- who decides and what they may do --------------------------------------------------------
# Four phases, one of which (the year's actions) takes nearly every decision: a plain test
# of the phase, that one first, costs less than a dispatch table's extra call here.


def pending(state: HadriansWallState) -> list[Decision]:
    phase = state.phase
    year = state.year
    if phase == PHASE_MAIN:
        out = []
        for seat, p in enumerate(state.players):
            if p.ended:
                continue
            key = _TODO_PROMPTS[p.todo[0][0]] if p.todo else "hw.prompt.act"
            d = _DECISIONS.get((seat, key, year))
            out.append(d if d is not None else _decision(seat, key, year))
        return out
    if phase == PHASE_CHOOSE:
        return [_decision(seat, "hw.prompt.choose", year) for seat, p in enumerate(state.players) if not p.chosen]
    if phase == PHASE_ATTACK:
        return [_decision(seat, "hw.prompt.favour", year) for seat, p in enumerate(state.players) if not p.defended]
    return []


def simultaneous(state: HadriansWallState) -> Hashable | None:
    """HW-9: each phase of a year (choosing guidelines, the year's actions, the
    favours against the Picts) is one decision every seat makes on its own sheets."""
    if state.phase in (PHASE_CHOOSE, PHASE_MAIN, PHASE_ATTACK):
        return (state.phase, state.year)
    return None


def legal(state: HadriansWallState, seat: int) -> list[Move]:
    if not isinstance(seat, int) or not 0 <= seat < state.seats:
        return []
    p = state.players[seat]
    phase = state.phase
    if phase == PHASE_MAIN:
        if p.ended:
            return []
        if p.todo:
            return todo_options(state, seat, p.todo[0])
        moves: list[Move] = []
        _fills(state, seat, p, moves)
        moves.append({"type": "end_year"})
        return moves
    if phase == PHASE_CHOOSE:
        return [] if p.chosen else [{"type": "choose", "guideline": c} for c in p.hand]
    if phase == PHASE_ATTACK:
        return [] if p.defended else favour_options(p)
    return []


# -- playing a move, per kind ----------------------------------------------------------------

Play = Callable[[HadriansWallState, int, Player, Move, list[Event]], None]
PLAY: Dispatch[str, Play] = Dispatch("hadrianswall: moves by kind")
"""The moves of the year's phases; the follow-up decisions are in FOLLOW_UP."""

FollowUp = Callable[[HadriansWallState, int, Player, list[Any], Move, list[Event]], None]
FOLLOW_UP: Dispatch[str, FollowUp] = Dispatch("hadrianswall: follow-up decisions by move kind")
"""A move answering the decision owed first (``p.todo[0]``, already taken off the list)."""


def perform(state: HadriansWallState, seat: int, move: Move) -> list[Event]:
    events: list[Event] = []
    p = state.players[seat]
    kind = move["type"]
    play = PLAY.get(kind)
    if play is not None:
        play(state, seat, p, move, events)
    else:
        FOLLOW_UP[kind](state, seat, p, p.todo.pop(0), move, events)
        settle(state, seat)
    return events


@PLAY.on("choose")
def _play_choose(state: HadriansWallState, seat: int, p: Player, move: Move, events: list[Event]) -> None:
    chosen = move["guideline"]
    p.pending_guideline = chosen
    p.pending_prospect = next(c for c in p.hand if c != chosen)
    p.hand = []
    p.chosen = True
    events.append(Event("hw.chose", {"seat": seat}))
    if all(q.chosen for q in state.players):
        reveal(state, events)


@PLAY.on("favour", "hold")
def _play_favour(state: HadriansWallState, seat: int, p: Player, move: Move, events: list[Event]) -> None:
    kind = move["type"]
    if kind == "favour":
        d = DIRECTIONS.index(move["direction"])
        if move["favour"] == "diplomat":
            p.dir_favours[d] -= 1
        else:
            p.temple_favours -= 1
        p.hits[d] -= 1
        p.favours_used += 1
        events.append(Event("hw.favour", {"seat": seat, "direction": move["direction"], "favour": move["favour"]}))
    if kind == "hold" or not favour_options(p):
        p.defended = True
    if all(q.defended for q in state.players):
        finish_attack(state, events)


@PLAY.on("end_year")
def _play_end_year(state: HadriansWallState, seat: int, p: Player, move: Move, events: list[Event]) -> None:
    p.ended = True
    events.append(Event("hw.ended", {"seat": seat, "year": state.year}))
    if all(q.ended for q in state.players):
        attack(state, events)


@PLAY.on("fill")
def _play_fill(state: HadriansWallState, seat: int, p: Player, move: Move, events: list[Event]) -> None:
    box_id = move["box"]
    b = _BOX_INDEX[box_id]
    pays = _PAY_NEEDS[b]
    if pays is not None:
        stock = p.stock
        for i, n in pays[_PAY_LABELS[b].index(move["pay"])] if "pay" in move else pays[0]:
            stock[i] -= n
    fill(state, seat, b)
    events.append(Event("hw.fill", {"seat": seat, "box": _BOX_ID[b]}))
    if p.todo:
        settle(state, seat)


@FOLLOW_UP.on("cohort")
def _cohort(state: HadriansWallState, seat: int, p: Player, item: list[Any], move: Move, events: list[Event]) -> None:
    fill_next(state, seat, S_COHORTS[DIRECTIONS.index(move["cohort"])])
    events.append(Event("hw.cohort", {"seat": seat, "cohort": move["cohort"]}))


@FOLLOW_UP.on("attribute")
def _attribute(state: HadriansWallState, seat: int, p: Player, item: list[Any], move: Move,
               events: list[Event]) -> None:
    gain(state, seat, move["attribute"])
    events.append(Event("hw.attribute", {"seat": seat, "attribute": move["attribute"]}))


@FOLLOW_UP.on("forum")
def _forum(state: HadriansWallState, seat: int, p: Player, item: list[Any], move: Move, events: list[Event]) -> None:
    gain(state, seat, move["gain"])
    events.append(Event("hw.forum", {"seat": seat, "gain": move["gain"]}))


@FOLLOW_UP.on("diplomat")
def _diplomat(state: HadriansWallState, seat: int, p: Player, item: list[Any], move: Move,
              events: list[Event]) -> None:
    d = move["direction"]
    p.diplomat_dirs.append(d)
    p.dir_favours[DIRECTIONS.index(d)] += 2
    events.append(Event("hw.diplomat", {"seat": seat, "direction": d}))


@FOLLOW_UP.on("trade")
def _trade(state: HadriansWallState, seat: int, p: Player, item: list[Any], move: Move, events: list[Event]) -> None:
    later: list[Event] = []  # the payment's events (a neighbour's year given back), logged after the purchase
    good = _pay_source(state, seat, move, RESOURCES, "good", later)
    pos = item[1]
    before = {g for g in p.goods if g}
    p.goods[pos] = good
    if good not in before:
        for _ in range(C.market_renown[len(before)]):
            gain(state, seat, "renown")
    events.append(Event("hw.trade", {"seat": seat, "good": good, **_source_args(move)}))
    events.extend(later)


@FOLLOW_UP.on("scout")
def _scout(state: HadriansWallState, seat: int, p: Player, item: list[Any], move: Move, events: list[Event]) -> None:
    later: list[Event] = []
    pattern = _pay_source(state, seat, move, SOLDIERS, "pattern", later)
    p.todo.insert(0, ["place", pattern])
    events.append(Event("hw.scout", {"seat": seat, "pattern": pattern, **_source_args(move)}))
    events.extend(later)


@FOLLOW_UP.on("orient")
def _orient(state: HadriansWallState, seat: int, p: Player, item: list[Any], move: Move, events: list[Event]) -> None:
    shape = move["shape"]
    orients = C.orientations[item[1]]
    k = next(k for k, masks in enumerate(orients) if cells(masks[0]) == shape)
    p.todo.insert(0, ["place", item[1], k])


@FOLLOW_UP.on("place")
def _place(state: HadriansWallState, seat: int, p: Player, item: list[Any], move: Move, events: list[Event]) -> None:
    mask = 0
    for cell in move["cells"]:
        mask |= 1 << cell
    map_before = p.map
    p.map |= mask
    for cell in move["cells"]:
        token = C.map_rewards.get(cell)
        if token:
            gain(state, seat, token)
    for r in range(C.map_rows):
        full = FULL_ROW << (r * C.map_cols)
        if p.map & full == full and map_before & full != full:
            gain(state, seat, "valour")
    events.append(Event("hw.place", {"seat": seat, "cells": list(move["cells"])}))


@FOLLOW_UP.on("fight")
def _fight_or_not(state: HadriansWallState, seat: int, p: Player, item: list[Any], move: Move,
                  events: list[Event]) -> None:
    if move["fight"]:
        _fight(state, seat, move["gladiator"] - 1, events)


def _pay_source(state: HadriansWallState, seat: int, move: Move, what: int, field: str,
                later: list[Event]) -> Any:
    """Pay one resource (trade) or soldier (scout) to the supply, a neighbour or a
    neutral card (HW-10, HW-28, HW-37, HW-54, HW-55) and return the good or the pattern."""
    p = state.players[seat]
    p.stock[what] -= 1
    source = move["from"]
    if source == "fate":
        card = flip_fate(state)
        state.flips.append(card)
        return C.fate_index[card].good
    if source == "seat":
        n = move["seat"]
        other = state.players[n]
        if state.passing:
            other.stock[what] += 1
            if other.ended:
                # HW-54: the year ends only when everyone has finished, so a seat that had
                # ended gets its year back to use what it received (and ends it again).
                other.ended = False
                later.append(Event("hw.reopen", {"seat": n, "from_seat": seat, "gain": STOCK[what]}))
        else:
            p.extra_picts += 1  # HW-55: without resource passing, a Pict card instead
        card_id = other.prospect
    elif source == "neutral":
        p.extra_picts += 1
        card_id = move["card"]
    else:
        card_id = p.prospect
    assert card_id is not None
    followed = C.card_index[card_name(card_id)]
    return followed.good if field == "good" else followed.pattern


def _fight(state: HadriansWallState, seat: int, g: int, events: list[Event]) -> None:
    """HW-31: the gladiator fights; a fate card deals the damage."""
    p = state.players[seat]
    card = flip_fate(state)
    state.flips.append(card)
    strength = p.count[S_GLAD[g]]
    health = strength - p.glad_damage[g]
    damage = min(C.fate_index[card].gladiator, health)
    p.glad_damage[g] += damage
    p.glad_fought[g] = state.year
    dead = p.glad_damage[g] >= strength
    for token in (C.glad_die if dead else C.glad_survive)[strength - 1]:
        gain(state, seat, token)
    events.append(Event("hw.fight", {"seat": seat, "gladiator": g + 1, "card": card, "damage": damage,
                                     "dead": dead}))


# -- the rest of the contract ------------------------------------------------------------------


def reveals(before: HadriansWallState, after: HadriansWallState) -> bool:
    """A fate card was turned face up (the only hidden order a move shows)."""
    return before.reveal_count != after.reveal_count


def explain(state: HadriansWallState, seat: int, move: Move) -> IllegalMove | None:
    """Why a fill is refused, in the sheet's terms; None for the engine's generic answer."""
    if state.phase == PHASE_MAIN and move.get("type") == "fill" and isinstance(move.get("box"), str):
        b = C.box_index.get(move["box"])
        if b is None:
            return IllegalMove("unknown_box", f"there is no box {move['box']!r}")
        if state.players[seat].todo:
            return IllegalMove("decision_owed", "finish the decision your last box gave first")
        reason = block(state, seat, b)
        if reason == "locked":
            return IllegalMove("box_locked", f"box {move['box']} is locked: needs {lock_text(b)}")
        if reason is not None:
            return IllegalMove(f"box_{reason}", f"box {move['box']} cannot be filled now ({reason})")
        return IllegalMove("bad_payment", f"box {move['box']} takes pay: {list(BOXES[b].pay_labels)}")
    return None


def move_text(move: Move) -> str | None:
    """A fill's label; None for the engine's generic one."""
    if move.get("type") == "fill":
        return f"fill {move['box']}" + (f" paying {move['pay']}" if "pay" in move else "")
    return None


def _source_args(move: Move) -> dict[str, Any]:
    out: dict[str, Any] = {"from": move["from"]}
    if "seat" in move:
        out["from_seat"] = move["seat"]
    if "card" in move:
        out["card"] = move["card"]
    return out


__all__ = ["OPTIONS", "block", "box_status", "explain", "legal", "move_text", "neighbours", "new_state", "pending",
           "perform", "simultaneous"]

