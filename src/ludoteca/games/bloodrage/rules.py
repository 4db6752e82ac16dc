"""Blood Rage rules: setup, the age and phase flow, actions, legal moves and the dispatcher.

The flow is a stack of tasks (see state.py) run by ``FLOW``, the engine's decision stack
with every task of the game: this module's (ages, phases, actions, march) and those of
opening.py (clans), effects.py (card effects, destruction, invasion) and battle.py
(pillage and battle). ``FLOW.advance`` runs automatic tasks until a decision is needed;
``pending`` and ``legal`` read the decision on top (or, in the Action phase with nothing
on the stack, the seat whose turn it is).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from itertools import compress, product
from typing import Any

from ludoteca.engine import Decision, Event, IllegalMove, Move, Prompt, Rng
from ludoteca.engine.flow import Step, TaskFlow, push

from . import battle, effects, opening
from .board import (
    battle_locs,
    can_raise,
    gain_glory,
    has_upgrade,
    horns,
    invade_cost,
    occupancy,
    on_board,
    order_from,
    rooms,
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
_DECISIONS: dict[tuple[int, str, tuple], Decision] = {}  # immutable, shared


def _over(state: BRState) -> bool:
    return state.over


FLOW: TaskFlow[BRState] = TaskFlow("bloodrage", over=_over)
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
    s.kinds = [("leader", "ship", *("warrior",) * 8) for _ in range(seats)]
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
    s.occ = s.occ_of = None
    opening.set_up(s, options, rng)  # first player and clans (BR-11, BR-104, BR-105)
    FLOW.advance(s, s.stack, [])
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


def _draft_seats(state: BRState, task: tuple) -> list[int]:
    taken = state.taken
    low = min(taken)
    if low >= 6:
        return []
    if state.n != 2:  # one card a round: the seats still at the lowest count
        return [s for s, t in enumerate(taken) if t == low]
    target = 2 * (low // 2 + 1)
    return [s for s in range(state.n) if taken[s] < target]


_PICKS = {cid: {"type": "pick", "card": cid} for cid in CARDS}


def _draft_legal(state: BRState, task: tuple, seat: int) -> list[dict[str, Any]]:
    return [_PICKS[cid].copy() for cid in state.packs[seat]]


_EVENTS: dict[tuple[str, str, int], Event] = {}
_YOU_PICKED: dict[tuple[str, int], Event] = {}


def _event(key: str, value: int, name: str = "seat") -> Event:
    """The event ``key`` with one int argument, built once and shared (as the Decisions are:
    nothing changes an event after ``perform``)."""
    e = _EVENTS.get((key, name, value))
    if e is None:
        e = _EVENTS[(key, name, value)] = Event(key, {name: value})
    return e


def _you_picked(cid: str, seat: int) -> Event:
    e = _YOU_PICKED.get((cid, seat))
    if e is None:
        e = _YOU_PICKED[(cid, seat)] = Event("br.you_picked", {"card": CARDS[cid].name}, to=seat)
    return e


def _draft_perform(state: BRState, task: tuple, seat: int, move: dict[str, Any], q: list, ev: list) -> None:
    state.packs[seat].remove(move["card"])
    state.hands[seat].append(move["card"])
    state.taken[seat] += 1
    ev.append(_event("br.picked", seat))
    ev.append(_you_picked(move["card"], seat))
    per = _per_round(state)
    t = state.taken
    if t.count(t[0]) == len(t) and t[0] % per == 0:
        if t[0] >= 6:
            state.packs = [[] for _ in range(state.n)]  # the last two cards are discarded unseen
            ev.append(Event("br.draft_over", {}))
        else:
            packs = state.packs
            state.packs = [packs[(s - 1) % state.n] for s in range(state.n)]  # passed to the left
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


def _can_act(state: BRState, s: int) -> bool:
    return not state.passed[s] and state.rage[s] > 0


def action_phase_over(state: BRState) -> bool:
    passed, rage = state.passed, state.rage
    for s in range(state.n):  # _can_act, inlined: this runs after every action
        if not passed[s] and rage[s] > 0:
            break
    else:
        return True
    pillaged = state.pillaged
    for p, gone in enumerate(state.destroyed):  # noqa: SIM110  (a loop: faster than all() on a generator)
        if not gone and not pillaged[p]:
            return False
    return True


def _end_turn(state: BRState, task: tuple, q: list, ev: list) -> None:
    if action_phase_over(state):
        ev.append(Event("br.action_over", {}))
        q.extend([("discard_phase",), ("discard",), ("quests",), ("ragnarok",), ("release",), ("end_age",)])
        state.phase = "discard"
        return
    s = state.turn
    for _ in range(state.n):
        s = (s + 1) % state.n
        if _can_act(state, s):
            break
    state.turn = s


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
        dead = [i for i, at in enumerate(state.locs[s]) if at in locs]
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
_REACH = tuple(sum(1 << p for p, places in _PILLAGE_AT if at in places) for at in range(_NLOC))
"""Board place -> the provinces (a bit each) a figure there may pillage: its own, or the ones
a fjord supports."""
_MASK_OF = {bits[::-1]: m for m, bits in enumerate(product((False, True), repeat=_NPROV))}
"""A row of province flags (destroyed, pillaged) -> the same as bits."""
_PROVS_OF = tuple(tuple(compress(range(_NPROV), bits)) for bits in _MASK_OF)
"""Bits -> the provinces, ascending."""
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


def action_moves(state: BRState, seat: int) -> list[dict[str, Any]]:
    """Every action for the seat whose turn it is (computed in one pass over the figures)."""
    rage = state.rage[seat]
    if rage <= 0:
        return [_PASS.copy()]
    moves: list[dict[str, Any]] = []
    destroyed = state.destroyed
    occ = occupancy(state)
    outer_open = [p for p in OUTER if not destroyed[p] and VILLAGES[p] > occ[p]]
    ygg_open = not destroyed[YGG]
    kinds = state.kinds[seat]
    mine = state.locs[seat]
    reserve: list[str] = []
    valhalla: list[str] = []
    # One plain loop over small ints: the interpreter's specialised int operations cost
    # less here than sets or a Counter built in C (measured under callgrind).
    reach = landed = board = 0  # reach, landed: bits of provinces
    for kind, at in zip(kinds, mine, strict=True):
        if at >= 0:
            board += 1
            reach |= _REACH[at]
            if kind not in SHIP_KINDS:
                landed |= 1 << at
        elif at == RESERVE:
            if kind not in reserve:
                reserve.append(kind)
        elif at == VALHALLA and kind not in valhalla:
            valhalla.append(kind)
    ups = upgrade_names(state.upgrades[seat])
    room_for_more = board < TRACKS[2][state.stats[seat][2]]  # horns, inlined
    if room_for_more:
        fjords: list[int] | None = None
        for kind in reserve:
            if invade_cost(state, seat, kind) <= rage:
                shapes = _invade_shapes(kind)
                if kind in SHIP_KINDS:
                    if fjords is None:
                        fjords = [f for f, (a, b) in _FJORD_PAIRS if not (destroyed[a] and destroyed[b])]
                    moves.extend([shapes[t].copy() for t in fjords])
                else:
                    moves.extend([shapes[t].copy() for t in outer_open])
                    if kind == "dark_elf" and ygg_open:
                        moves.append(shapes[YGG].copy())
    n_open = len(outer_open) + ygg_open
    if n_open:
        only = -1 if n_open > 1 else (outer_open[0] if outer_open else YGG)
        for src in _PROVS_OF[landed & _PROV_BITS]:
            if src != only:
                moves.append(_MARCH_MOVES[src].copy())
    charm = -1
    for cid in state.hands[seat]:
        info = _HAND[cid]
        if info is not None:
            cost, shapes = info
            if cost < 0:  # a quest
                moves.append(shapes[0].copy())
                continue
            if charm < 0:  # upgrade_cost's discount, looked up once
                charm = 1 if "friggas_charm" in ups else 0
            if max(0, cost - charm) <= rage:
                moves.extend([m.copy() for m in shapes])
    reach &= ~_MASK_OF[tuple(destroyed)]
    if not (rage >= 2 and "tyrs_challenge" in ups):
        reach &= ~_MASK_OF[tuple(state.pillaged)]
    for p in _PROVS_OF[reach]:
        moves.append(_PILLAGE_MOVES[p].copy())
    if room_for_more and valhalla and "friggas_domain" in ups:
        fjords = [f for f, (a, b) in _FJORD_PAIRS if not (destroyed[a] and destroyed[b])]
        outer_ygg = [*outer_open, YGG] if ygg_open else outer_open
        for kind in valhalla:
            targets = fjords if kind in SHIP_KINDS else outer_ygg if kind == "dark_elf" else outer_open
            moves.extend({"type": "valhalla_invade", "figure": kind, "to": LOCATIONS[t]} for t in targets)
    if board >= 2 and "friggas_sacrifice" in ups and can_raise(state, seat):
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
    q.append(("end_turn",))


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
        state.kinds[seat] = (*state.kinds[seat], card.name)
        state.locs[seat].append(RESERVE)
        q.append(("free_invade", seat, card.name, -1, "upgrade"))
    elif card.slot in ("warrior", "leader", "ship"):
        q.append(("free_invade", seat, card.slot, -1, "upgrade"))


# -- march: source, then figures one by one, then destination -----------------------------------

def _march_dests(state: BRState, need: int) -> list[int]:
    assert state.march is not None
    src = state.march[0]
    free = rooms(state)
    return [p for p in range(len(PROVINCES)) if p != src and not state.destroyed[p] and free[p] >= need]


def _march_seats(state: BRState, task: tuple) -> list[int]:
    return [task[1]]


def _march_legal(state: BRState, task: tuple, seat: int) -> list[dict[str, Any]]:
    assert state.march is not None
    src, chosen = state.march
    moves: list[dict[str, Any]] = []
    if _march_dests(state, len(chosen) + 1):
        seen = []
        for i, (kind, at) in enumerate(zip(state.kinds[seat], state.locs[seat], strict=True)):
            if at == src and i not in chosen and kind not in SHIP_KINDS and kind not in seen:
                seen.append(kind)
                moves.append({"type": "march_add", "figure": kind})
    if chosen:
        moves.extend({"type": "march_to", "to": PROVINCES[p]} for p in _march_dests(state, len(chosen)))
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


_BY_AGE: dict[tuple[str, int], dict[int, Decision]] = {}
"""(prompt, age) -> seat -> the Decision of a prompt whose only argument is the age (the
draft, the action turn and most others): a flat key, cheaper to hash than the full one."""


def pending(state: BRState) -> list[Decision]:
    # pending_seats and prompt_args, inlined for the common prompts
    if state.over:
        return []
    stack = state.stack
    step = None
    if stack:
        task = stack[-1]
        step = _STEPS.get(task[0])
    if step is not None:
        seats = step.seats(state, task)
        if not seats:
            return []
        prompt = step.prompt
        if task[0] in _ARG_TASKS:
            return _decisions(seats, prompt, prompt_args(state))
    elif state.phase == "action":
        if stack:  # a task that is not a decision on top: the general path
            return _decisions([state.turn], "br.prompt.action", prompt_args(state))
        seats = [state.turn]
        prompt = "br.prompt.action"
    else:
        return []
    age = state.age
    row = _BY_AGE.get((prompt, age))
    if row is None:
        if age not in _AGE_ARGS:
            return _decisions(seats, prompt, prompt_args(state))
        row = _BY_AGE[(prompt, age)] = {}
    out = []
    for s in seats:
        d = row.get(s)
        if d is None:
            d = row[s] = _decisions([s], prompt, _AGE_ARGS[age])[0]
        out.append(d)
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
    if state.stack:
        return FLOW.legal(state, state.stack, seat)
    if state.phase == "action" and seat == state.turn:
        return action_moves(state, seat)
    return []


def perform(state: BRState, seat: int, move: Move) -> list[Event]:
    ev: list[Event] = [] if state.told else opening.announce(state)
    state.moves += 1
    if state.stack:
        FLOW.perform(state, state.stack, seat, move, ev)
    else:
        q: list = []
        perform_action(state, seat, move, q, ev)
        push(state.stack, q)
        FLOW.advance(state, state.stack, ev)
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
