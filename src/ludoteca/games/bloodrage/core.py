"""Shared primitives: figures, STR, glory and stats, destruction, and the task registries.

The timing system: every card effect is a hook (effects.py) registered for a timing;
``fire`` calls the hooks of the cards in force for that timing, seat by seat in turn
order from a given seat. Hooks either act at once or queue tasks (decisions included) on
``q``; the dispatcher (rules.py) puts queued tasks on the stack in order, so they resolve
before whatever was already waiting.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ludoteca.engine import Event

from .components import (
    ADJACENT,
    BOX,
    CARDS,
    FJORD_LOCS,
    FJORD_SUPPORTS,
    LOCATIONS,
    MAX_STEP,
    MONSTER_COST,
    MONSTER_STR,
    OUTER,
    RESERVE,
    SHIP_KINDS,
    STATS,
    SUPPORT,
    TRACKS,
    VALHALLA,
    VILLAGES,
    YGG,
)
from .state import BRState

Q = list  # tasks queued by a hook or a task, in the order they must run

# -- registries filled by battle.py, effects.py and rules.py ---------------------------------
AUTO: dict[str, Callable[[BRState, tuple, list, list], None]] = {}
"""Tasks that run by themselves: fn(state, task, q, events)."""


class Decision:
    """A task that waits for moves: who is asked, what they may do, what a move does."""

    def __init__(self, prompt: str, seats: Callable[[BRState, tuple], list[int]],
                 legal: Callable[[BRState, tuple, int], list[dict[str, Any]]],
                 perform: Callable[[BRState, tuple, int, dict[str, Any], list, list], None]) -> None:
        self.prompt = prompt
        self.seats = seats  # empty list: nothing to decide any more, the task is dropped
        self.legal = legal
        self.perform = perform  # must pop its task from the stack when it is finished


DECIDE: dict[str, Decision] = {}

HOOKS: dict[str, dict[str, Callable[..., None]]] = {}
"""card name -> timing -> hook(state, seat, card_id, ctx, q, events)."""


def hook(name: str, timing: str) -> Callable[[Callable[..., None]], Callable[..., None]]:
    def register(fn: Callable[..., None]) -> Callable[..., None]:
        HOOKS.setdefault(name, {})[timing] = fn
        return fn
    return register


def order_from(state: BRState, seat: int) -> list[int]:
    return [(seat + k) % state.n for k in range(state.n)]


def sources(state: BRState, seat: int, battle_cards: bool) -> list[str]:
    """The cards in force for ``seat``: its upgrades, then (in battle) its revealed cards."""
    ids = [cid for cid in state.upgrades[seat] if cid]
    b = state.battle
    if battle_cards and b is not None:
        ids.extend(cid for cid in b.played[seat] if cid not in b.cancelled)
    return ids


def fire(state: BRState, timing: str, seats: list[int], ctx: dict[str, Any], q: list, ev: list,
         battle_cards: bool = False) -> None:
    for seat in seats:
        for cid in sources(state, seat, battle_cards):
            fn = HOOKS.get(CARDS[cid].name, {}).get(timing)
            if fn is not None:
                fn(state, seat, cid, ctx, q, ev)


_NAME = {cid: c.name for cid, c in CARDS.items()}
_NAME[""] = ""


def has_upgrade(state: BRState, seat: int, name: str) -> bool:
    for c in state.upgrades[seat]:  # noqa: SIM110  (a plain loop: twice as fast as any() on a generator)
        if c and _NAME[c] == name:
            return True
    return False


# -- board --------------------------------------------------------------------------------

def standing(state: BRState, loc: int) -> bool:
    if loc >= YGG + 1:  # a fjord stands while one of its provinces does
        a, b = FJORD_SUPPORTS[loc - YGG - 1]
        return not (state.destroyed[a] and state.destroyed[b])
    return not state.destroyed[loc]


def occupants(state: BRState, loc: int) -> int:
    count = 0
    for locs in state.locs:
        for at in locs:
            if at == loc:
                count += 1
    return count


def room(state: BRState, p: int) -> int:
    if p == YGG:
        return 999
    return VILLAGES[p] - occupants(state, p)


def rooms(state: BRState) -> list[int]:
    """``room`` of every province, from one pass over the figures (not one per province)."""
    occ = [0] * len(LOCATIONS)
    for locs in state.locs:
        for at in locs:
            if at >= 0:
                occ[at] += 1
    out = [villages - n for villages, n in zip(VILLAGES, occ, strict=False)]
    out[YGG] = 999
    return out


def battle_locs(p: int) -> tuple[int, ...]:
    return (p, *SUPPORT[p])


def on_board(state: BRState, seat: int) -> int:
    return sum(1 for at in state.locs[seat] if at >= 0)


def horns(state: BRState, seat: int) -> int:
    return TRACKS[2][state.stats[seat][2]]


def present(state: BRState, seat: int, p: int) -> bool:
    locs = battle_locs(p)
    return any(at in locs for at in state.locs[seat])


def find_figure(state: BRState, seat: int, kind: str, at: int) -> int:
    kinds = state.kinds[seat]
    for i, loc in enumerate(state.locs[seat]):
        if loc == at and kinds[i] == kind:
            return i
    return -1


def kinds_at(state: BRState, seat: int, at: int) -> list[str]:
    """The distinct figure kinds ``seat`` has at ``at``, in figure order."""
    seen: list[str] = []
    kinds = state.kinds[seat]
    for i, loc in enumerate(state.locs[seat]):
        if loc == at and kinds[i] not in seen:
            seen.append(kinds[i])
    return seen


# -- STR ----------------------------------------------------------------------------------

def warrior_card(state: BRState, seat: int) -> str:
    cid = state.upgrades[seat][0]
    return CARDS[cid].name if cid else ""


def warriors_str(state: BRState, seat: int, count: int) -> int:
    name = warrior_card(state, seat)
    if name == "brothers_in_arms":
        return 3 * (count // 2) + count % 2
    if name == "masters_in_arms":
        return 6 * (count // 2) + 2 * (count % 2)
    if name == "experts_in_arms":
        return 2 * count
    return count


def figure_str(kind: str, loc: int) -> int:
    if kind == "leader":
        return 3
    if kind == "ship":
        return 2
    if kind == "dark_elf" and loc == YGG:
        return 3
    return MONSTER_STR.get(kind, 1)


def str_at(state: BRState, seat: int, p: int) -> int:
    """The STR ``seat`` has in province ``p`` with its supporting fjords."""
    locs = battle_locs(p)
    warriors = total = 0
    kinds = state.kinds[seat]
    for i, at in enumerate(state.locs[seat]):
        if at in locs:
            kind = kinds[i]
            if kind == "warrior":
                warriors += 1
            else:
                total += figure_str(kind, at)
    return total + warriors_str(state, seat, warriors) if warriors else total


def figures_in(state: BRState, seat: int, p: int) -> list[int]:
    locs = battle_locs(p)
    return [i for i, at in enumerate(state.locs[seat]) if at in locs]


def invade_cost(state: BRState, seat: int, kind: str) -> int:
    if kind == "leader":
        return 0
    if kind == "warrior":
        cid = state.upgrades[seat][0]
        return CARDS[cid].str if cid else 1
    if kind == "ship":
        return 2
    return MONSTER_COST[kind]


def invade_targets(state: BRState, kind: str) -> list[int]:
    if kind in SHIP_KINDS:
        return [f for f in FJORD_LOCS if standing(state, f)]
    free = rooms(state)
    targets = [p for p in OUTER if not state.destroyed[p] and free[p] > 0]
    if kind == "dark_elf" and not state.destroyed[YGG]:
        targets.append(YGG)
    return targets


def adjacent(p: int) -> tuple[int, ...]:
    return ADJACENT[p]


# -- glory, rage, stats -------------------------------------------------------------------

def gain_glory(state: BRState, seat: int, amount: int, reason: str, ev: list) -> None:
    if amount <= 0:
        return
    state.glory[seat] += amount
    ev.append(Event("br.glory", {"seat": seat, "amount": amount, "reason": reason}))


def raise_stat(state: BRState, seat: int, stat: int, reason: str, ev: list) -> None:
    steps = state.stats[seat]
    if steps[stat] >= MAX_STEP:
        return
    steps[stat] += 1
    ev.append(Event("br.stat_up", {"seat": seat, "stat": STATS[stat], "value": TRACKS[stat][steps[stat]],
                                   "reason": reason}))


def can_raise(state: BRState, seat: int, exclude: tuple = ()) -> list[int]:
    return [k for k in range(3) if k not in exclude and state.stats[seat][k] < MAX_STEP]


# -- destruction --------------------------------------------------------------------------

UNGUARDED = frozenset({"ragnarok", "sacrifice"})
"""Deaths that Frigga's Protection cannot prevent (the province is gone; the owner chose it)."""


def destroy(state: BRState, seat: int, fig: int, cause: str, q: list, ev: list, guarded: bool = False) -> None:
    """Send a figure to Valhalla (the Volur Witch may withdraw to Yggdrasil instead).

    With Frigga's Protection, the death waits on a "guard" task that lets the owner pay 1
    rage to keep the figure where it is.
    """
    if not guarded and cause not in UNGUARDED and has_upgrade(state, seat, "friggas_protection"):
        q.append(("guard", seat, fig, cause))
        return
    kind = state.kinds[seat][fig]
    at = state.locs[seat][fig]
    if at < 0:
        return
    if kind == "volur_witch" and at in OUTER and cause not in UNGUARDED and not state.destroyed[YGG]:
        state.locs[seat][fig] = YGG
        ev.append(Event("br.witch_retreat", {"seat": seat, "from": LOCATIONS[at]}))
        return
    state.locs[seat][fig] = VALHALLA
    ev.append(Event("br.destroyed", {"seat": seat, "figure": kind, "at": LOCATIONS[at], "cause": cause}))
    b = state.battle
    if b is not None:
        b.destroyed[seat] += 1
    fire(state, "destroyed", [seat], {"kind": kind, "at": at, "cause": cause}, q, ev)


def _guard(state: BRState, task: tuple, q: list, ev: list) -> None:
    _, seat, fig, cause = task
    if state.locs[seat][fig] < 0:
        return
    if state.rage[seat] >= 1:
        q.append(("protect", seat, fig, cause))
    else:
        destroy(state, seat, fig, cause, q, ev, guarded=True)


AUTO["guard"] = _guard


def _protect_seats(state: BRState, task: tuple) -> list[int]:
    return [task[1]]


def _protect_legal(state: BRState, task: tuple, seat: int) -> list[dict[str, Any]]:
    fig = task[2]
    return [{"type": "protect", "figure": state.kinds[seat][fig], "at": LOCATIONS[state.locs[seat][fig]]},
            {"type": "decline"}]


def _protect_perform(state: BRState, task: tuple, seat: int, move: dict[str, Any], q: list, ev: list) -> None:
    state.stack.pop()
    _, _, fig, cause = task
    if move["type"] == "protect":
        state.rage[seat] -= 1
        ev.append(Event("br.protected", {"seat": seat, "figure": move["figure"], "at": move["at"]}))
    else:
        destroy(state, seat, fig, cause, q, ev, guarded=True)


DECIDE["protect"] = Decision("br.prompt.protect", _protect_seats, _protect_legal, _protect_perform)


def to_box(state: BRState, seat: int, kind: str) -> None:
    kinds = state.kinds[seat]
    for i, k in enumerate(kinds):
        if k == kind and state.locs[seat][i] != BOX:
            state.locs[seat][i] = BOX


def reserve_figure(state: BRState, seat: int, kind: str) -> int:
    return find_figure(state, seat, kind, RESERVE)


def loc_name(loc: int) -> str:
    return LOCATIONS[loc]
