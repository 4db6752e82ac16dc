"""Blood Rage rules: setup, the age and phase flow, actions, legal moves and the dispatcher.

The flow is a stack of tasks (see state.py) run by ``FLOW``, the engine's decision stack
with every task of the game: this module's (ages, phases, actions, march) and those of
opening.py (clans), effects.py (card effects, destruction, invasion) and battle.py
(pillage and battle). ``FLOW.advance`` runs automatic tasks until a decision is needed and
returns it; the state keeps it (``state.asked``) until the next move, so that ``pending``,
``legal`` and ``perform`` read the decision on top without asking its step again who decides
(the call to arms or a free invasion recounts room and figures to say it). In the Action
phase with nothing on the stack, the seat whose turn it is decides.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from typing import Any

from ludoteca.engine import Decision, Event, IllegalMove, Move, Prompt, Rng
from ludoteca.engine.flow import Step, TaskFlow

from . import battle, effects, opening
from .board import (
    BASE_KINDS,
    F_BOARD,
    F_LANDED,
    F_LANDED_AT,
    F_RESERVE,
    F_SHIPS,
    MASK_OF,
    NAMES_OF,
    NOT_WARRIORS,
    ONE_WARRIOR,
    OUTER_BITS,
    PROVS_OF,
    WARRIOR_BITS,
    add_figure,
    battle_locs,
    can_raise,
    figs,
    figures_at,
    gain_glory,
    has_upgrade,
    horns,
    invade_cost,
    occupancy,
    on_board,
    order_from,
    remember,
    reserve_kinds,
    set_loc,
    str_at,
    to_box,
    upgrade_names,
)
from .components import (
    CARDS,
    CLANS,
    DESTROYED_AT_SETUP,
    FJORD_LOCS,
    FJORD_SUPPORTS,
    LOC_INDEX,
    LOCATIONS,
    MONSTER_COST,
    OUTER,
    OUTER_TOKENS,
    PROVINCES,
    RAGNAROK_GLORY,
    REALM,
    RESERVE,
    SHIP_KINDS,
    SLOTS,
    SUPPORT,
    TRACKS,
    VALHALLA,
    VILLAGES,
    YGG,
    YGG_TOKEN,
    deck_for,
)
from .effects import destroy, fire, place
from .scoring import final_scoring
from .state import BRState

MAX_STEPS_GUARD = 20_000
_MAX_SEATS = 4
_DECISIONS: dict[tuple[int, str, tuple], Decision] = {}  # immutable, shared


FLOW: TaskFlow[BRState] = TaskFlow("bloodrage")
"""Every task of the game, by kind: the flow runs the stack kept in ``state.stack``."""
FLOW.include(opening.FLOW, effects.FLOW, battle.FLOW)


def new_state(seats: int, options: Mapping[str, Any], rng: Rng) -> BRState:
    """The board laid out, the decks shuffled, the first player and the clans (or their
    choice) set, and the flow run up to the first decision."""
    s = BRState.__new__(BRState)
    s.n = seats
    s.rng = rng
    s.clans = [""] * seats
    s.told = True
    s.age = 1
    s.phase = "setup"
    s.first = 0
    s.turn = 0
    s.glory = [0] * seats
    s.rage = [0] * seats
    s.passed = [False] * seats
    s.stats = [[0, 0, 0] for _ in range(seats)]
    s.hands = [[] for _ in range(seats)]
    s.quests = [[] for _ in range(seats)]
    s.upgrades = [("",) * len(SLOTS) for _ in range(seats)]
    s.kinds = [BASE_KINDS] * seats  # one shared tuple (replaced, never changed): identity tests
    s.locs = [[RESERVE] * 10 for _ in range(seats)]
    s.pillaged = [False] * len(PROVINCES)
    s.destroyed = [False] * len(PROVINCES)
    tokens = list(OUTER_TOKENS)
    rng.shuffle(tokens)
    s.tokens = [""] * len(PROVINCES)
    for p, token in zip(OUTER, tokens, strict=True):
        s.tokens[p] = token
    s.tokens[YGG] = YGG_TOKEN
    ragnarok = list(OUTER)
    rng.shuffle(ragnarok)
    s.ragnarok = ragnarok[:3]
    for p in ragnarok[3:3 + DESTROYED_AT_SETUP[seats]]:
        s.destroyed[p] = True
    s.decks = []
    for age in (1, 2, 3):
        deck = deck_for(age, seats)
        rng.shuffle(deck)
        s.decks.append(tuple(deck))
    s.packs = [[] for _ in range(seats)]
    s.taken = [0] * seats
    s.stack = [("start_age",)]
    s.battle = None
    s.march = None
    s.over = False
    s.moves = 0
    s.occ = s.occ_of = s.figs = None
    s.full = 0
    s.asked = None
    opening.set_up(s, options, rng)  # first player and clans (BR-11, BR-104, BR-105)
    s.asked = FLOW.advance(s, s.stack, [])
    return s


# -- the dispatcher ---------------------------------------------------------------------------

_STEPS = FLOW.steps


def pending_seats(state: BRState) -> tuple[list[int], str]:
    if state.over:
        return [], ""
    top = FLOW.top(state.stack)
    if top is not None:
        task, step = top
        return step.seats(state, task), step.prompt
    if state.phase == "action":
        return [state.turn], "br.prompt.action"
    return [], ""


_BATTLE_TASKS = frozenset({"call", "cards", "extra", "tide", "protect", "prowess"})


_ARG_TASKS = _BATTLE_TASKS | {"free_invade", "raise", "thors_domain", "march"}
_AGE_ARGS = {age: (("age", age),) for age in (1, 2, 3)}


def prompt_args(state: BRState) -> tuple[tuple[str, Any], ...]:
    """What the prompt on top needs to be read: the age, and the province, figure or reason."""
    stack = state.stack
    if not stack or stack[-1][0] not in _ARG_TASKS:  # the age alone: one shared tuple
        age_args = _AGE_ARGS.get(state.age)
        if age_args is not None:
            return age_args
    args: list[tuple[str, Any]] = [("age", state.age)]
    if state.stack:
        task = state.stack[-1]
        kind = task[0]
        if kind in _BATTLE_TASKS and state.battle is not None:
            args.append(("province", PROVINCES[state.battle.province]))
        elif kind == "free_invade":
            args.extend((("figure", task[2]), ("reason", task[4])))
        elif kind == "raise":
            args.append(("reason", task[3]))
        elif kind == "thors_domain":
            args.append(("province", PROVINCES[task[2]]))
        elif kind == "march" and state.march is not None:
            args.append(("from", PROVINCES[state.march[0]]))
    return tuple(args)


# -- ages and phases ----------------------------------------------------------------------------

def _start_age(state: BRState, task: tuple, q: list, ev: list) -> None:
    state.phase = "draft"
    deck = state.decks[state.age - 1]
    for s in range(state.n):
        state.packs[s] = list(deck[8 * s: 8 * s + 8])
    state.decks[state.age - 1] = ()  # the rest is removed unseen
    state.taken = [0] * state.n
    ev.append(Event("br.age", {"age": state.age, "doom": PROVINCES[state.ragnarok[state.age - 1]]}))
    q.append(("draft",))
    q.append(("start_action",))


FLOW.add_auto("start_age", _start_age)


def _per_round(state: BRState) -> int:
    return 2 if state.n == 2 else 1


_DRAFT_SEATS: dict[tuple[int, ...], tuple[int, ...]] = {}
"""The cards each seat has taken -> the seats that pick now (few distinct rows: 7 counts a seat)."""


def _draft_seats(state: BRState, task: tuple) -> list[int]:
    seats = _DRAFT_SEATS.get(tuple(state.taken))
    if seats is None:
        seats = _DRAFT_SEATS[tuple(state.taken)] = tuple(_draft_seats_of(state.taken, state.n))
    return list(seats)


def _draft_seats_of(taken: list[int], n: int) -> list[int]:
    low = min(taken)
    if low >= 6:
        return []
    if n != 2:  # one card a round: the seats still at the lowest count
        if taken.count(low) == n:  # a round begins: everyone (one C count, no loop)
            return list(range(n))
        seats = []
        for s in range(n):
            if taken[s] == low:
                seats.append(s)
        return seats
    target = 2 * (low // 2 + 1)
    return [s for s in range(n) if taken[s] < target]


_PICKS = {cid: {"type": "pick", "card": cid} for cid in CARDS}


def _draft_legal(state: BRState, task: tuple, seat: int) -> list[dict[str, Any]]:
    moves = []  # a plain loop: a comprehension costs a function and a frame
    for cid in state.packs[seat]:
        moves.append(_PICKS[cid].copy())
    return moves


_EVENTS: dict[tuple[str, str, int], Event] = {}
_YOU_PICKED: dict[tuple[str, int], Event] = {}


def _event(key: str, value: int, name: str = "seat") -> Event:
    """The event ``key`` with one int argument, built once and shared (as the Decisions are:
    nothing changes an event after ``perform``)."""
    e = _EVENTS.get((key, name, value))
    if e is None:
        e = _EVENTS[(key, name, value)] = Event(key, {name: value})
    return e


_PICKED = tuple(_event("br.picked", s) for s in range(_MAX_SEATS))


def _you_picked(cid: str, seat: int) -> Event:
    e = _YOU_PICKED.get((cid, seat))
    if e is None:
        e = _YOU_PICKED[(cid, seat)] = Event("br.you_picked", {"card": CARDS[cid].name}, to=seat)
    return e


def _draft_perform(state: BRState, task: tuple, seat: int, move: dict[str, Any], q: list, ev: list) -> None:
    cid = move["card"]
    state.packs[seat].remove(cid)
    state.hands[seat].append(cid)
    t = state.taken
    t[seat] += 1
    picked = _YOU_PICKED.get((cid, seat))
    if picked is None:
        picked = _you_picked(cid, seat)
    ev += (_PICKED[seat] if seat < _MAX_SEATS else _event("br.picked", seat), picked)  # one C extend
    if t.count(t[0]) == len(t) and (state.n != 2 or t[0] % 2 == 0):  # the round is over
        if t[0] >= 6:
            state.packs = [[] for _ in range(state.n)]  # the last two cards are discarded unseen
            ev.append(Event("br.draft_over", {}))
        else:
            packs = state.packs
            state.packs = packs[-1:] + packs[:-1]  # passed to the left: seat s gets seat s-1's
            ev.append(_event("br.packs_passed", len(state.packs[0]), "left"))


FLOW.decision("draft", Step("br.prompt.pick", _draft_seats, _draft_legal, _draft_perform))


def _start_action(state: BRState, task: tuple, q: list, ev: list) -> None:
    state.phase = "action"
    for s in range(state.n):
        state.rage[s] = TRACKS[0][state.stats[s][0]]
        state.passed[s] = False
    state.turn = state.first
    ev.append(Event("br.action_phase", {"first": state.first}))


FLOW.add_auto("start_action", _start_action)


_AFTER = {n: tuple(tuple((t + k) % n for k in range(1, n + 1)) for t in range(n)) for n in range(1, 9)}
"""Seats -> a seat -> the seats after it in turn order, itself last."""


def _end_turn(state: BRState, task: tuple, q: list, ev: list) -> None:
    # The action phase is over when no seat can act (not passed, rage left) or no province is
    # left to pillage. The search for the next seat that can act visits every seat (the one
    # whose turn ends last), so it also tells whether any seat can act.
    passed, rage = state.passed, state.rage
    for s in _AFTER[state.n][state.turn]:
        if not passed[s] and rage[s] > 0:  # the next seat that can act
            pillaged = state.pillaged
            for p, gone in enumerate(state.destroyed):
                if not gone and not pillaged[p]:  # a province left to pillage: play on
                    state.turn = s
                    return
            break
    ev.append(Event("br.action_over", {}))
    q.extend([("discard_phase",), ("discard",), ("quests",), ("ragnarok",), ("release",), ("end_age",)])
    state.phase = "discard"


FLOW.add_auto("end_turn", _end_turn)


def _discard_phase(state: BRState, task: tuple, q: list, ev: list) -> None:
    state.phase = "discard"
    if state.age == 3:
        for s in range(state.n):
            state.hands[s] = []
        ev.append(Event("br.discard_all", {}))


FLOW.add_auto("discard_phase", _discard_phase)


def _discard_seats(state: BRState, task: tuple) -> list[int]:
    return [s for s in range(state.n) if len(state.hands[s]) > 1]


def _discard_legal(state: BRState, task: tuple, seat: int) -> list[dict[str, Any]]:
    moves: list[dict[str, Any]] = [{"type": "keep", "card": cid} for cid in state.hands[seat]]
    moves.append({"type": "discard_all"})
    return moves


def _discard_perform(state: BRState, task: tuple, seat: int, move: dict[str, Any], q: list, ev: list) -> None:
    state.hands[seat] = [move["card"]] if move["type"] == "keep" else []
    ev.append(Event("br.discarded", {"seat": seat, "kept": len(state.hands[seat])}))


FLOW.decision("discard", Step("br.prompt.discard", _discard_seats, _discard_legal, _discard_perform))


def quest_done(state: BRState, seat: int, goal: str) -> bool:
    if goal == "valhalla":
        return sum(1 for at in state.locs[seat] if at == VALHALLA) >= 4
    provinces = [YGG] if goal == "yggdrasil" else [p for p in OUTER if REALM[p] == goal]
    for p in provinces:
        if state.destroyed[p]:
            continue
        mine = str_at(state, seat, p)
        if mine > 0 and all(str_at(state, o, p) < mine for o in range(state.n) if o != seat):
            return True
    return False


def _quests(state: BRState, task: tuple, q: list, ev: list) -> None:
    state.phase = "quests"
    for s in order_from(state, state.first):
        for cid in state.quests[s]:
            card = CARDS[cid]
            ok = quest_done(state, s, card.goal)
            ev.append(Event("br.quest_result", {"seat": s, "quest": card.name, "goal": card.goal, "done": ok}))
            if ok:
                glory = card.glory * (2 if has_upgrade(state, s, "odins_throne") else 1)
                gain_glory(state, s, glory, "quest", ev)
                q.append(("raise", s, (), "quest"))
        state.quests[s] = []


FLOW.add_auto("quests", _quests)


def _ragnarok(state: BRState, task: tuple, q: list, ev: list) -> None:
    state.phase = "ragnarok"
    p = state.ragnarok[state.age - 1]
    ev.append(Event("br.ragnarok", {"province": PROVINCES[p], "age": state.age}))
    locs = battle_locs(p)
    for s in order_from(state, state.first):
        dead = figures_at(state, s, locs)
        for i in dead:
            destroy(state, s, i, "ragnarok", q, ev)
        each = RAGNAROK_GLORY[state.age - 1] * (2 if has_upgrade(state, s, "odins_inspiration") else 1)
        gain_glory(state, s, each * len(dead), "ragnarok", ev)
    state.destroyed[p] = True
    state.pillaged[p] = False
    if state.age < 3:
        ev.append(Event("br.doom", {"province": PROVINCES[state.ragnarok[state.age]]}))


FLOW.add_auto("ragnarok", _ragnarok)


def _release(state: BRState, task: tuple, q: list, ev: list) -> None:
    state.phase = "release"
    for s in order_from(state, state.first):
        count = 0
        for i, at in enumerate(state.locs[s]):
            if at == VALHALLA:
                set_loc(state, s, i, RESERVE)
                count += 1
        if count:
            ev.append(Event("br.released", {"seat": s, "count": count}))
            fire(state, "release", [s], {"count": count}, q, ev)


FLOW.add_auto("release", _release)


def _end_age(state: BRState, task: tuple, q: list, ev: list) -> None:
    state.pillaged = [False] * len(PROVINCES)
    state.first = (state.first + 1) % state.n
    if state.age == 3:
        final_scoring(state, ev)
        state.phase = "over"
        state.over = True
        return
    state.age += 1
    q.append(("start_age",))


FLOW.add_auto("end_age", _end_age)


# -- the actions ----------------------------------------------------------------------------------

def upgrade_cost(state: BRState, seat: int, cid: str) -> int:
    cost = CARDS[cid].cost
    if has_upgrade(state, seat, "friggas_charm"):
        cost -= 1
    return max(0, cost)


def upgrade_slots(cid: str) -> list[int]:
    slot = CARDS[cid].slot
    if slot == "monster":
        return [3, 4]
    if slot == "clan":
        return [5, 6, 7]
    return [SLOTS.index(slot)]


_NPROV = len(PROVINCES)
_FJORD_PAIRS = tuple(zip(FJORD_LOCS, FJORD_SUPPORTS, strict=True))
_PILLAGE_AT = tuple((p, (p, *SUPPORT[p])) for p in range(_NPROV))
# Move shapes built once and copied per call (a copy costs about half a literal); callers
# still get fresh dicts on every call.
_MARCH_MOVES = tuple({"type": "march", "from": name} for name in PROVINCES)
_PILLAGE_MOVES = tuple({"type": "pillage", "province": name} for name in PROVINCES)
_INVADE_MOVES: dict[str, tuple[dict[str, Any], ...]] = {}
_PASS = {"type": "pass"}
_NLOC = len(LOCATIONS)
_PROV_BITS = (1 << _NPROV) - 1


def _or_of(bits: Iterable[int]) -> int:
    out = 0
    for b in bits:
        out |= b
    return out


_REACH = tuple(sum(1 << p for p, places in _PILLAGE_AT if at in places) for at in range(_NLOC))
"""Board place -> the provinces (a bit each) a figure there may pillage: its own, or the ones
a fjord supports."""
_REACH_P = tuple(_or_of(_REACH[p] for p in ps) for ps in PROVS_OF)
"""Bits of provinces with a figure -> the provinces those figures may pillage."""
_REACH_F = tuple(_or_of(_REACH[f] for k, f in enumerate(FJORD_LOCS) if m >> k & 1)
                 for m in range(1 << len(FJORD_LOCS)))
"""Bits of fjords with a figure (fjord k: bit k) -> the provinces those figures may pillage."""
_HAND: dict[str, tuple[int, tuple[dict[str, Any], ...]] | None] = {}
"""Card id -> (cost, the upgrade move of each slot) for an upgrade, (-1, (quest move,)) for a
quest, None for a battle card."""
for _cid, _card in CARDS.items():
    if _card.type == "upgrade":
        _HAND[_cid] = (_card.cost, tuple({"type": "upgrade", "card": _cid, "slot": SLOTS[k]}
                                          for k in upgrade_slots(_cid)))
    elif _card.type == "quest":
        _HAND[_cid] = (-1, ({"type": "quest", "card": _cid},))
    else:
        _HAND[_cid] = None


def _invade_shapes(kind: str) -> tuple[dict[str, Any], ...]:
    shapes = _INVADE_MOVES.get(kind)
    if shapes is None:
        shapes = _INVADE_MOVES[kind] = tuple({"type": "invade", "figure": kind, "to": name} for name in LOCATIONS)
    return shapes


_FIXED_COST = {"leader": 0, "ship": 2, **MONSTER_COST}
"""invade_cost of every kind but the warrior (whose cost is its upgrade's STR)."""
_TO_FJORD, _TO_OUTER, _TO_OUTER_YGG = 0, 1, 2
_OUTER_SHAPES: dict[str, list[tuple[dict[str, Any], ...] | None]] = {}
"""kind -> bits of the open outer provinces -> the invade move shapes to them, in province order
(filled on first use): the action turn copies them all with one C ``map``, no loop."""
_copy_move = dict.copy
_Shapes = tuple[dict[str, Any], ...]
_Plan = tuple[tuple[int, _Shapes, int, list[_Shapes | None]], ...]
_INVADE_PLANS: dict[tuple[tuple[str, ...], int], _Plan] = {}
"""(a seat's figure kinds, bits of its figures in the reserve with the warriors' bits folded
into one) -> per distinct kind in the reserve, in reserve_kinds' order: its invade cost (-1 for
the warrior), its invade move shapes, where it may go (_TO_FJORD, _TO_OUTER, or _TO_OUTER_YGG
for the dark elf), and its _OUTER_SHAPES row. action_moves then makes no call per kind."""


def _invade_plan(kinds: tuple[str, ...], res: int) -> _Plan:
    key = res & NOT_WARRIORS | ONE_WARRIOR if res & WARRIOR_BITS else res  # board.reserve_key, inlined
    plan = _INVADE_PLANS.get((kinds, key))
    if plan is None:
        rows = []
        for kind in reserve_kinds(kinds, res):
            to = _TO_FJORD if kind in SHIP_KINDS else _TO_OUTER_YGG if kind == "dark_elf" else _TO_OUTER
            outer = _OUTER_SHAPES.get(kind)
            if outer is None:
                outer = _OUTER_SHAPES[kind] = [None] * (1 << _NPROV)
            rows.append((_FIXED_COST.get(kind, -1), _invade_shapes(kind), to, outer))
        plan = tuple(rows)
        remember(_INVADE_PLANS, kinds, key, plan)
    return plan


_FJORDS_OPEN: list[tuple[int, ...] | None] = [None] * (1 << _NPROV)
"""Bits of the destroyed provinces -> the fjords still standing (filled on first use)."""


def _standing_fjords(destroyed: list[bool]) -> tuple[int, ...]:
    return tuple(fj for fj, (a, b) in _FJORD_PAIRS if not (destroyed[a] and destroyed[b]))


def action_moves(state: BRState, seat: int) -> list[dict[str, Any]]:
    """Every action for the seat whose turn it is, read from the seat's figure summary
    (board.figs, kept up to date by set_loc) rather than a pass over its figures."""
    rage = state.rage[seat]
    if rage <= 0:
        return [_PASS.copy()]
    moves: list[dict[str, Any]] = []
    add = moves.append  # plain loops below: a comprehension costs a function and a frame
    destroyed = state.destroyed
    if state.occ_of != state.locs:
        occupancy(state)  # the summaries, counted afresh
    f = state.figs[seat]  # type: ignore[index]
    gone = MASK_OF[tuple(destroyed)]  # flag_bits, inlined
    open_bits = OUTER_BITS & ~(gone | state.full)
    outer_open = PROVS_OF[open_bits]
    ygg_open = not destroyed[YGG]
    kinds = state.kinds[seat]
    where = f[F_LANDED] | f[F_SHIPS]
    upgrades = state.upgrades[seat]
    ups = NAMES_OF.get(upgrades)  # upgrade_names, inlined for a known row
    if ups is None:
        ups = upgrade_names(upgrades)
    room_for_more = f[F_BOARD] < TRACKS[2][state.stats[seat][2]]  # horns, inlined
    if room_for_more and f[F_RESERVE]:
        for cost, shapes, to, outer in _invade_plan(kinds, f[F_RESERVE]):  # invade_cost, inlined
            if cost < 0:  # the warrior: its upgrade's STR, or 1
                cid = state.upgrades[seat][0]
                cost = CARDS[cid].str if cid else 1
            if cost <= rage:
                if to == _TO_FJORD:
                    fjords = _FJORDS_OPEN[gone]
                    if fjords is None:
                        fjords = _FJORDS_OPEN[gone] = _standing_fjords(destroyed)
                    for t in fjords:
                        add(shapes[t].copy())
                else:
                    row = outer[open_bits]
                    if row is None:
                        row = outer[open_bits] = tuple(shapes[t] for t in outer_open)
                    moves += map(_copy_move, row)
                    if to == _TO_OUTER_YGG and ygg_open:
                        add(shapes[YGG].copy())
    n_open = len(outer_open) + ygg_open
    if n_open:
        only = -1 if n_open > 1 else (outer_open[0] if outer_open else YGG)
        for src in PROVS_OF[f[F_LANDED] & _PROV_BITS]:
            if src != only:
                add(_MARCH_MOVES[src].copy())
    charm = -1
    for cid in state.hands[seat]:
        info = _HAND[cid]
        if info is not None:
            cost, shapes = info
            if cost < 0:  # a quest
                add(shapes[0].copy())
                continue
            if charm < 0:  # upgrade_cost's discount, looked up once
                charm = 1 if "friggas_charm" in ups else 0
            if cost - charm <= rage:  # upgrade_cost, never below 0 (and rage is above 0 here)
                for m in shapes:
                    add(m.copy())
    reach = (_REACH_P[where & _PROV_BITS] | _REACH_F[where >> _NPROV]) & ~gone
    if not (rage >= 2 and "tyrs_challenge" in ups):
        reach &= ~MASK_OF[tuple(state.pillaged)]  # flag_bits, inlined
    for p in PROVS_OF[reach]:
        add(_PILLAGE_MOVES[p].copy())
    if room_for_more and "friggas_domain" in ups:
        valhalla: list[str] = []
        for kind, at in zip(kinds, state.locs[seat], strict=True):
            if at == VALHALLA and kind not in valhalla:
                valhalla.append(kind)
        if valhalla:
            standing = _standing_fjords(destroyed)
            outer_ygg = [*outer_open, YGG] if ygg_open else outer_open
            for kind in valhalla:
                targets = standing if kind in SHIP_KINDS else outer_ygg if kind == "dark_elf" else outer_open
                moves.extend({"type": "valhalla_invade", "figure": kind, "to": LOCATIONS[t]} for t in targets)
    if f[F_BOARD] >= 2 and "friggas_sacrifice" in ups and can_raise(state, seat):
        moves.append({"type": "sacrifice"})
    moves.append(_PASS.copy())
    return moves


def perform_action(state: BRState, seat: int, move: dict[str, Any], q: list, ev: list) -> None:
    kind = move["type"]
    if kind == "invade":
        state.rage[seat] -= invade_cost(state, seat, move["figure"])
        place(state, seat, move["figure"], LOC_INDEX[move["to"]], "invade", q, ev)
    elif kind == "march":
        state.rage[seat] -= 1
        state.march = (PROVINCES.index(move["from"]), ())
        ev.append(Event("br.march_from", {"seat": seat, "from": move["from"]}))
        q.append(("march", seat))
    elif kind == "upgrade":
        _upgrade(state, seat, move["card"], SLOTS.index(move["slot"]), q, ev)
    elif kind == "quest":
        state.hands[seat].remove(move["card"])
        state.quests[seat].append(move["card"])
        ev.append(Event("br.quest", {"seat": seat}))
    elif kind == "pillage":
        p = PROVINCES.index(move["province"])
        if state.pillaged[p]:
            state.rage[seat] -= 2
            ev.append(Event("br.challenge", {"seat": seat, "province": move["province"]}))
        battle.start_pillage(state, seat, p, q, ev)
    elif kind == "valhalla_invade":
        state.rage[seat] -= 1
        place(state, seat, move["figure"], LOC_INDEX[move["to"]], "friggas_domain", q, ev, source=VALHALLA)
    elif kind == "sacrifice":
        ev.append(Event("br.sacrifice", {"seat": seat}))
        q.append(("sacrifice", seat, 2))
    elif kind == "pass":
        state.passed[seat] = True
        state.rage[seat] = 0
        ev.append(Event("br.pass", {"seat": seat}))
    if q:
        q.append(_END_TURN)  # after what the action queued
    else:  # nothing queued: FLOW.advance would pop the task at once, so it runs here, without the stack
        _end_turn(state, _END_TURN, q, ev)


_END_TURN = ("end_turn",)


def _upgrade(state: BRState, seat: int, cid: str, slot: int, q: list, ev: list) -> None:
    card = CARDS[cid]
    state.rage[seat] -= upgrade_cost(state, seat, cid)
    state.hands[seat].remove(cid)
    old = state.upgrades[seat][slot]
    if old:
        if CARDS[old].slot == "monster":
            to_box(state, seat, CARDS[old].name)
        ev.append(Event("br.upgrade_replaced", {"seat": seat, "card": CARDS[old].name}))
    ups = list(state.upgrades[seat])
    ups[slot] = cid
    state.upgrades[seat] = tuple(ups)
    ev.append(Event("br.upgrade", {"seat": seat, "card": card.name, "slot": SLOTS[slot]}))
    if card.slot == "monster":
        add_figure(state, seat, card.name)
        q.append(("free_invade", seat, card.name, -1, "upgrade"))
    elif card.slot in ("warrior", "leader", "ship"):
        q.append(("free_invade", seat, card.slot, -1, "upgrade"))


# -- march: source, then figures one by one, then destination -----------------------------------

def _march_room(state: BRState, src: int, need: int) -> tuple[list[int], bool]:
    """The standing provinces but ``src`` with room for ``need`` more figures, and whether one
    has room for ``need + 1`` (one pass over the figures for both, not one per province)."""
    occ = occupancy(state)
    dests: list[int] = []
    more = False
    # the standing provinces but src, from bits; Yggdrasil's room never runs out (room gives 999)
    for p in PROVS_OF[_PROV_BITS & ~(MASK_OF[tuple(state.destroyed)] | 1 << src)]:
        free = _MARCH_CAP[p] - occ[p]
        if free > need:
            more = True
        if free >= need:
            dests.append(p)
    return dests, more


_MARCH_CAP = tuple(1 << 30 if p == YGG else VILLAGES[p] for p in range(_NPROV))
"""Province -> its villages (Yggdrasil: more than any march can fill, as room's 999)."""


def _march_seats(state: BRState, task: tuple) -> list[int]:
    return [task[1]]


_MARCH_TO = tuple({"type": "march_to", "to": name} for name in PROVINCES)


def _march_legal(state: BRState, task: tuple, seat: int) -> list[dict[str, Any]]:
    assert state.march is not None
    src, chosen = state.march
    moves: list[dict[str, Any]] = []
    dests, more = _march_room(state, src, len(chosen))
    kinds = state.kinds[seat]
    if more and (kinds is BASE_KINDS or kinds == BASE_KINDS):  # no monster: the leader, then a warrior
        locs = state.locs[seat]
        if locs[0] == src and 0 not in chosen:
            moves.append({"type": "march_add", "figure": "leader"})
        # the landed figures at src (the chosen ones are still there) but the leader and the chosen
        if figs(state, seat)[F_LANDED_AT + src] - (locs[0] == src) - len(chosen) + (0 in chosen) > 0:
            moves.append({"type": "march_add", "figure": "warrior"})
    elif more:
        seen = []
        for i, (kind, at) in enumerate(zip(state.kinds[seat], state.locs[seat], strict=True)):
            if at == src and i not in chosen and kind not in SHIP_KINDS and kind not in seen:
                seen.append(kind)
                moves.append({"type": "march_add", "figure": kind})
    if chosen:
        for p in dests:  # a plain loop: a comprehension costs a function and a frame
            moves.append(_MARCH_TO[p].copy())
    return moves


def _march_perform(state: BRState, task: tuple, seat: int, move: dict[str, Any], q: list, ev: list) -> None:
    assert state.march is not None
    src, chosen = state.march
    if move["type"] == "march_add":
        for i, (kind, at) in enumerate(zip(state.kinds[seat], state.locs[seat], strict=True)):
            if at == src and i not in chosen and kind == move["figure"]:
                state.march = (src, (*chosen, i))
                return
    dst = PROVINCES.index(move["to"])
    for i in chosen:
        set_loc(state, seat, i, dst)
    ev.append(Event("br.march", {"seat": seat, "from": PROVINCES[src], "to": move["to"],
                                 "figures": [state.kinds[seat][i] for i in chosen]}))
    state.march = None
    state.stack.pop()


FLOW.decision("march", Step("br.prompt.march", _march_seats, _march_legal, _march_perform))


# -- the entry points of the Game (game.py) ---------------------------------------------------------

def _decisions(seats: list[int], prompt: str, args: tuple[tuple[str, Any], ...]) -> list[Decision]:
    out = []
    for s in seats:
        key = (s, prompt, args)
        d = _DECISIONS.get(key)
        if d is None:
            d = _DECISIONS[key] = Decision(s, Prompt(prompt, dict(args)))
        out.append(d)
    return out


_BY_AGE: dict[int, dict[str, tuple[Decision, ...]]] = {age: {} for age in _AGE_ARGS}
"""age -> prompt -> the Decision of each seat, for a prompt whose only argument is the age (the
draft, the action turn and most others): no key to build, one list index per seat."""
_ARG_ROWS: dict[tuple[str, int, int], tuple[Decision, ...]] = {}
"""(prompt, age, province) -> the Decision of each seat, for a battle's prompts (the province)
and a march's (its source)."""


def _age_row(prompt: str, age: int) -> tuple[Decision, ...] | None:
    rows = _BY_AGE.get(age)
    if rows is None:
        return None
    row = rows.get(prompt)
    if row is None:
        row = rows[prompt] = tuple(_decisions(list(range(_MAX_SEATS)), prompt, _AGE_ARGS[age]))
    return row


_ACTION_ROWS = {age: _age_row("br.prompt.action", age) for age in _AGE_ARGS}
"""age -> the action turn's Decision of each seat (the most asked prompt), built at import."""


def pending(state: BRState) -> list[Decision]:
    # pending_seats and prompt_args, inlined for the common prompts
    if state.over:
        return []
    stack = state.stack
    if not stack:
        if state.phase != "action":
            return []
        row = _ACTION_ROWS.get(state.age)
        if row is None:
            return _decisions([state.turn], "br.prompt.action", prompt_args(state))
        return [row[state.turn]]
    task = stack[-1]
    asked = state.asked
    if asked is not None and asked[0] is task:  # as perform left it (never with no seats)
        step = asked[1]
        seats = asked[2]
    else:
        step = _STEPS.get(task[0])
        if step is None:
            if state.phase == "action":  # a task that is not a decision on top: the general path
                return _decisions([state.turn], "br.prompt.action", prompt_args(state))
            return []
        seats = step.seats(state, task)
        if not seats:
            return []
    kind = task[0]
    if kind in _ARG_TASKS:
        # a battle's prompts name the province, a march's its source: a flat key for both
        if kind in _BATTLE_TASKS and state.battle is not None:
            key = (step.prompt, state.age, state.battle.province)
        elif kind == "march" and state.march is not None:
            key = (step.prompt, state.age, state.march[0])
        else:
            return _decisions(seats, step.prompt, prompt_args(state))
        row = _ARG_ROWS.get(key)
        if row is None:
            row = _ARG_ROWS[key] = tuple(_decisions(list(range(_MAX_SEATS)), step.prompt, prompt_args(state)))
    else:
        rows = _BY_AGE.get(state.age)  # _age_row, inlined for a row already built
        row = rows.get(step.prompt) if rows is not None else None
        if row is None:
            row = _age_row(step.prompt, state.age)
            if row is None:
                return _decisions(seats, step.prompt, prompt_args(state))
    if len(seats) == 1:
        return [row[seats[0]]]
    out = []
    for s in seats:
        out.append(row[s])
    return out


def simultaneous(state: BRState) -> Hashable | None:
    """The draft (one round of picks at a time), the discard before the quests and a
    battle's cards are chosen by every seat at once, each from its own hand."""
    if state.over or not state.stack:
        return None
    kind = state.stack[-1][0]
    if kind == "draft":
        return ("draft", state.age, min(state.taken) // _per_round(state))
    if kind == "discard":
        return ("discard", state.age)
    if kind == "cards" and state.battle is not None:
        return ("cards", state.age, state.battle.province)
    return None


def legal(state: BRState, seat: int) -> list[Move]:
    if state.over:
        return []
    stack = state.stack
    if stack:  # FLOW.legal, inlined: legal runs on every decision of a playout
        task = stack[-1]
        asked = state.asked
        if asked is not None and asked[0] is task:
            step = asked[1]
            seats = asked[2]
        else:
            step = _STEPS.get(task[0])
            if step is None:
                return []
            seats = step.seats(state, task)
        if seat not in seats:
            return []
        return step.legal(state, task, seat)
    if state.phase == "action" and seat == state.turn:
        return action_moves(state, seat)
    return []


def perform(state: BRState, seat: int, move: Move) -> list[Event]:
    ev: list[Event] = [] if state.told else opening.announce(state)
    state.moves += 1
    asked = state.asked
    state.asked = None  # whatever the move changes, the decision after it is asked anew
    stack = state.stack
    q: list = []
    if stack:
        # FLOW.perform's first half, inline: a call layer less on every move of a playout
        # (0.5% of a random game's instructions), since an action turn plays outside the stack
        # and needs FLOW.advance after it all the same.
        task = stack[-1]
        step = asked[1] if asked is not None and asked[0] is task else _STEPS[task[0]]
        step.perform(state, task, seat, move, q, ev)
    else:
        perform_action(state, seat, move, q, ev)
    if q:
        stack.extend(reversed(q))  # push: the first queued runs first
    if stack:  # (an action turn that queued nothing leaves none: the next turn needs no advance)
        state.asked = FLOW.advance(state, stack, ev)
    return ev


def explain(state: BRState, seat: int, move: Move) -> IllegalMove | None:
    """Why a move the rules refuse is refused, where a precise reason is known."""
    kind = move.get("type")
    cid = move.get("card")
    if kind == "clan" and state.stack and state.stack[-1][0] == "clan" and seat in pending_seats(state)[0]:
        if move.get("clan") not in CLANS:
            return IllegalMove("unknown_clan", f"there is no clan {move.get('clan')!r} (clans: {', '.join(CLANS)})")
        if move.get("clan") in state.clans:
            return IllegalMove("clan_taken", "another player has already chosen that clan")
    if isinstance(cid, str) and kind in ("pick", "play", "play_extra", "upgrade", "quest", "keep"):
        where = state.packs[seat] if kind == "pick" else state.hands[seat]
        if cid not in where:
            place = "pack" if kind == "pick" else "hand"
            return IllegalMove("not_your_card", f"that card is not in your {place}")
    if state.phase == "action" and not state.stack and seat == state.turn:
        if state.rage[seat] <= 0 and kind != "pass":
            return IllegalMove("no_rage", "with no rage left you can only pass")
        if kind == "invade" and on_board(state, seat) >= horns(state, seat):
            return IllegalMove("horns_limit", "you already have as many figures on the board as your Horns")
        if kind == "invade" and move.get("to") == "yggdrasil":
            return IllegalMove("no_invade_yggdrasil", "figures reach Yggdrasil by marching, not by invading")
        if kind in ("invade", "upgrade", "march"):
            return IllegalMove("not_enough_rage_or_room", f"this {kind} is not possible: rage, room or figure")
        if kind == "pillage":
            return IllegalMove("cannot_pillage", "you need a figure there and an unpillaged, standing province")
    return None


REVEALING_EVENTS = frozenset({"br.reveal", "br.quest_result", "br.watch", "br.packs_passed"})
"""Events that show hidden cards: a move that caused one can never be taken back."""

