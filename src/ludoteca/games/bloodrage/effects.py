"""The timing system, and every Gods' Gifts card effect registered by timing.

Every card effect is a hook registered here for a timing; ``fire`` calls the hooks of the
cards in force for that timing, seat by seat in the order given. Hooks either act at once
or queue tasks (decisions included) on ``q``; the flow (rules.py) puts queued tasks on the
stack in order, so they resolve before whatever was already waiting. Destruction and
invasion live here too, since both fire hooks ("destroyed", "invaded").

Timings: "reveal" (a battle card as it is revealed), "win" / "lose" (battle outcome),
"pillaged" (a successful pillage), "battle_end" (after the losers' figures are gone),
"take_cards" (a loser, after the battle-end hooks and before Tyr's Prowess: Loki's Poison),
"destroyed" (a figure of the card's owner dies), "invaded" (after one of the owner's
figures invades), "release" (Release Valhalla), "ragnarok" (glory multiplier), and the
persistent effects read where they apply: STR (board.warriors_str, board.figure_str,
battle.card_bonus), costs (rules.upgrade_cost, board.invade_cost), quest glory
(rules quests), actions (rules: Tyr's Challenge, Frigga's Domain, Frigga's Sacrifice).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ludoteca.engine import Event
from ludoteca.engine.flow import Step, TaskFlow

from .board import (
    F_BOARD,
    F_RESERVE,
    adjacent,
    battle_locs,
    can_raise,
    figs,
    figures_in,
    first_at,
    gain_glory,
    has_upgrade,
    horns,
    invade_targets,
    on_board,
    order_from,
    pillage_reward,
    raise_stat,
    reserve_kinds,
    room,
    set_loc,
)
from .components import CARDS, LOC_INDEX, LOCATIONS, MONSTERS, OUTER, RESERVE, STATS, VALHALLA, YGG
from .state import BRState

FLOW: TaskFlow[BRState] = TaskFlow("bloodrage effects")
"""The tasks and decisions that card effects, destruction and invasion queue."""

HOOKS: dict[str, dict[str, Callable[..., None]]] = {}
"""card name -> timing -> hook(state, seat, card_id, ctx, q, events)."""


def hook(name: str, timing: str) -> Callable[[Callable[..., None]], Callable[..., None]]:
    def register(fn: Callable[..., None]) -> Callable[..., None]:
        HOOKS.setdefault(name, {})[timing] = fn
        _BY_TIMING.clear()
        _HOOKED.clear()
        _UPGRADE_HOOKS.clear()
        return fn
    return register


_BY_TIMING: dict[str, dict[str, Callable[..., None]]] = {}
"""timing -> card id -> hook, built from HOOKS at first use (and again after a new hook):
``fire`` then asks one dict per card in force instead of two, and most timings find none."""


_HOOKED: dict[str, frozenset[str]] = {}
"""timing -> the ids of the cards with a hook for it: most upgrade rows have none of them, which
one C ``isdisjoint`` tells without building a key for the row."""


_UPGRADE_HOOKS: dict[tuple[str, tuple[str, ...]], tuple[tuple[str, Callable[..., None]], ...]] = {}
"""(timing, a seat's upgrade row) -> its (card, hook) pairs for that timing, in slot order."""


def _hooks_for(timing: str) -> dict[str, Callable[..., None]]:
    table = _BY_TIMING.get(timing)
    if table is None:
        table = {}
        for cid, card in CARDS.items():
            fn = HOOKS.get(card.name, {}).get(timing)
            if fn is not None:
                table[cid] = fn
        _BY_TIMING[timing] = table
    return table


def upgrade_hooks(timing: str, ups: tuple[str, ...]) -> tuple[tuple[str, Callable[..., None]], ...]:
    """The (card, hook) pairs of an upgrade row for ``timing``, in slot order (usually none:
    callers that fire no battle card skip building the context then)."""
    ids = _HOOKED.get(timing)
    if ids is None:
        ids = _HOOKED[timing] = frozenset(_hooks_for(timing))
    if ids.isdisjoint(ups):
        return ()
    hooked = _UPGRADE_HOOKS.get((timing, ups))
    if hooked is None:
        table = _BY_TIMING.get(timing)
        if table is None:
            table = _hooks_for(timing)
        if len(_UPGRADE_HOOKS) > 8192:  # bounded: a long-lived server sees many rows
            _UPGRADE_HOOKS.clear()
        hooked = _UPGRADE_HOOKS[(timing, ups)] = tuple((cid, table[cid]) for cid in ups if cid in table)
    return hooked


def fire(state: BRState, timing: str, seats: list[int], ctx: dict[str, Any], q: list, ev: list,
         battle_cards: bool = False) -> None:
    table = _BY_TIMING.get(timing)
    if table is None:
        table = _hooks_for(timing)
    ids = _HOOKED.get(timing)  # upgrade_hooks' gate, asked once for every seat
    if ids is None:
        ids = _HOOKED[timing] = frozenset(table)
    b = state.battle if battle_cards else None
    for seat in seats:
        ups = state.upgrades[seat]  # a tuple: hooks replace it, never change it
        played: list[str] = []
        # the revealed cards in force, taken before any hook runs (a loop: no frame), when one of
        # them has a hook for the timing (``ids`` holds every card that has one)
        if b is not None and b.played[seat] and not ids.isdisjoint(b.played[seat]):
            cancelled = b.cancelled
            for cid in b.played[seat]:
                if cid not in cancelled:
                    played.append(cid)
        if not ids.isdisjoint(ups):  # most rows have no upgrade with a hook for the timing
            for cid, fn in upgrade_hooks(timing, ups):
                fn(state, seat, cid, ctx, q, ev)
        for cid in played:
            card_hook = table.get(cid)
            if card_hook is not None:
                card_hook(state, seat, cid, ctx, q, ev)


# -- destruction and invasion ---------------------------------------------------------------

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
        set_loc(state, seat, fig, YGG)
        ev.append(Event("br.witch_retreat", {"seat": seat, "from": LOCATIONS[at]}))
        return
    set_loc(state, seat, fig, VALHALLA)
    ev.append(Event("br.destroyed", {"seat": seat, "figure": kind, "at": LOCATIONS[at], "cause": cause}))
    b = state.battle
    if b is not None:
        b.destroyed[seat] += 1
    if upgrade_hooks("destroyed", state.upgrades[seat]):  # fire, when it has something to call
        fire(state, "destroyed", [seat], {"kind": kind, "at": at, "cause": cause}, q, ev)


def _guard(state: BRState, task: tuple, q: list, ev: list) -> None:
    _, seat, fig, cause = task
    if state.locs[seat][fig] < 0:
        return
    if state.rage[seat] >= 1:
        q.append(("protect", seat, fig, cause))
    else:
        destroy(state, seat, fig, cause, q, ev, guarded=True)


FLOW.add_auto("guard", _guard)


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


FLOW.decision("protect", Step("br.prompt.protect", _protect_seats, _protect_legal, _protect_perform))


def place(state: BRState, seat: int, kind: str, to: int, reason: str, q: list, ev: list,
          source: int = RESERVE) -> None:
    """Put a figure from the reserve (or Valhalla) onto the board, then fire "invaded"."""
    i = first_at(state, seat, source, kind)
    if i >= 0:
        set_loc(state, seat, i, to)
    ev.append(Event("br.invade", {"seat": seat, "figure": kind, "to": LOCATIONS[to], "reason": reason}))
    if upgrade_hooks("invaded", state.upgrades[seat]):  # fire, when it has something to call
        fire(state, "invaded", [seat], {"kind": kind, "at": to, "reason": reason}, q, ev)


# -- battle cards -------------------------------------------------------------------------


@hook("odins_smite", "reveal")
def _odins_smite(state: BRState, seat: int, cid: str, ctx: dict, q: list, ev: list) -> None:
    b = state.battle
    assert b is not None
    for other in order_from(state, seat):
        if other != seat and other in b.participants:
            for i, at in enumerate(state.locs[other]):
                if at == b.province and state.kinds[other][i] == "warrior":
                    destroy(state, other, i, "odins_smite", q, ev)
                    break


@hook("odins_tide", "reveal")
def _odins_tide(state: BRState, seat: int, cid: str, ctx: dict, q: list, ev: list) -> None:
    b = state.battle
    assert b is not None
    for s in order_from(state, b.pillager):
        if s in b.participants and len(figures_in(state, s, b.province)) > 1:
            q.append(("tide", s))


def _tide_seats(state: BRState, task: tuple) -> list[int]:
    b = state.battle
    assert b is not None
    return [task[1]] if len(figures_in(state, task[1], b.province)) > 1 else []


def _tide_legal(state: BRState, task: tuple, seat: int) -> list[dict[str, Any]]:
    b = state.battle
    assert b is not None
    seen = []
    for i in figures_in(state, seat, b.province):
        m = {"type": "keep_figure", "figure": state.kinds[seat][i], "at": LOCATIONS[state.locs[seat][i]]}
        if m not in seen:
            seen.append(m)
    return seen


def _tide_perform(state: BRState, task: tuple, seat: int, move: dict[str, Any], q: list, ev: list) -> None:
    b = state.battle
    assert b is not None
    state.stack.pop()
    at = LOC_INDEX[move["at"]]
    kept = False
    for i in figures_in(state, seat, b.province):
        if not kept and state.locs[seat][i] == at and state.kinds[seat][i] == move["figure"]:
            kept = True
            continue
        destroy(state, seat, i, "odins_tide", q, ev)


FLOW.decision("tide", Step("br.prompt.tide", _tide_seats, _tide_legal, _tide_perform))


@hook("friggas_grace", "pillaged")
def _friggas_grace(state: BRState, seat: int, cid: str, ctx: dict, q: list, ev: list) -> None:
    q.append(("raise", seat, tuple(ctx["raised"]), "friggas_grace"))


@hook("lokis_trickery", "lose")
def _lokis_trickery(state: BRState, seat: int, cid: str, ctx: dict, q: list, ev: list) -> None:
    w = ctx["winner"]
    if w >= 0 and state.rage[w] > 0:
        state.rage[w] -= 1
        state.rage[seat] += 1
        ev.append(Event("br.steal_rage", {"seat": seat, "from": w, "amount": 1}))


@hook("lokis_backstab", "lose")
def _lokis_backstab(state: BRState, seat: int, cid: str, ctx: dict, q: list, ev: list) -> None:
    w = ctx["winner"]
    if w >= 0:
        amount = min(2, state.glory[w])
        state.glory[w] -= amount
        state.glory[seat] += amount
        ev.append(Event("br.steal_glory", {"seat": seat, "from": w, "amount": amount}))


@hook("lokis_poison", "take_cards")
def _lokis_poison(state: BRState, seat: int, cid: str, ctx: dict, q: list, ev: list) -> None:
    b = state.battle
    assert b is not None
    w = ctx["winner"]
    if w >= 0 and b.played[w]:
        taken = b.played[w]
        b.played[w] = []
        state.hands[seat].extend(taken)
        ev.append(Event("br.poison", {"seat": seat, "from": w, "cards": [CARDS[c].name for c in taken]}))


@hook("thors_hammer", "win")
def _thors_hammer(state: BRState, seat: int, cid: str, ctx: dict, q: list, ev: list) -> None:
    gain_glory(state, seat, 3, "thors_hammer", ev)


@hook("thors_oath", "win")
def _thors_oath(state: BRState, seat: int, cid: str, ctx: dict, q: list, ev: list) -> None:
    q.append(("raise", seat, (), "thors_oath"))


@hook("thors_ascension", "win")
def _thors_ascension(state: BRState, seat: int, cid: str, ctx: dict, q: list, ev: list) -> None:
    state.rage[seat] += 3
    ev.append(Event("br.rage_gain", {"seat": seat, "amount": 3}))
    gain_glory(state, seat, 3, "thors_ascension", ev)


@hook("odins_judgement", "battle_end")
def _odins_judgement(state: BRState, seat: int, cid: str, ctx: dict, q: list, ev: list) -> None:
    b = state.battle
    assert b is not None
    gain_glory(state, seat, 2 * sum(b.destroyed), "odins_judgement", ev)


# -- upgrades: warriors, leaders, ships ----------------------------------------------------

@hook("lord_of_hammers", "pillaged")
def _lord_of_hammers(state: BRState, seat: int, cid: str, ctx: dict, q: list, ev: list) -> None:
    if state.locs[seat][0] == ctx["province"]:
        q.append(("hammers", seat))


def _hammers_targets(state: BRState, seat: int) -> list[int]:
    p = state.locs[seat][0]
    if p < 0 or p > YGG:
        return []
    return [a for a in adjacent(p) if not state.destroyed[a] and room(state, a) > 0]


def _hammers_seats(state: BRState, task: tuple) -> list[int]:
    return [task[1]] if _hammers_targets(state, task[1]) else []


def _hammers_legal(state: BRState, task: tuple, seat: int) -> list[dict[str, Any]]:
    moves: list[dict[str, Any]] = [{"type": "move_leader", "to": LOCATIONS[a]} for a in _hammers_targets(state, seat)]
    moves.append({"type": "decline"})
    return moves


def _hammers_perform(state: BRState, task: tuple, seat: int, move: dict[str, Any], q: list, ev: list) -> None:
    state.stack.pop()
    if move["type"] == "move_leader":
        set_loc(state, seat, 0, LOC_INDEX[move["to"]])
        ev.append(Event("br.leader_moved", {"seat": seat, "to": move["to"]}))


FLOW.decision("hammers", Step("br.prompt.hammers", _hammers_seats, _hammers_legal, _hammers_perform))


@hook("lord_of_axes", "pillaged")
def _lord_of_axes(state: BRState, seat: int, cid: str, ctx: dict, q: list, ev: list) -> None:
    if state.locs[seat][0] == ctx["province"]:
        q.append(("raise", seat, (), "lord_of_axes"))


@hook("lord_of_spears", "pillaged")
def _lord_of_spears(state: BRState, seat: int, cid: str, ctx: dict, q: list, ev: list) -> None:
    if state.locs[seat][0] == ctx["province"]:
        for k in range(3):
            raise_stat(state, seat, k, "lord_of_spears", ev)


def _dragons(amount: int):
    def fn(state: BRState, seat: int, cid: str, ctx: dict, q: list, ev: list) -> None:
        if ctx["kind"] in ("ship", "sea_serpent"):
            gain_glory(state, seat, amount, CARDS[cid].name, ev)
    return fn


hook("lokis_dragons", "destroyed")(_dragons(4))
hook("fire_dragons", "destroyed")(_dragons(8))
hook("eternal_dragons", "destroyed")(_dragons(12))


# -- monsters -----------------------------------------------------------------------------

@hook("troll", "invaded")
def _troll(state: BRState, seat: int, cid: str, ctx: dict, q: list, ev: list) -> None:
    if ctx["kind"] == "troll":
        _destroy_enemies(state, seat, ctx["at"], lambda kind: kind == "warrior", "troll", q, ev)


@hook("fire_giant", "invaded")
def _fire_giant(state: BRState, seat: int, cid: str, ctx: dict, q: list, ev: list) -> None:
    if ctx["kind"] == "fire_giant":
        _destroy_enemies(state, seat, ctx["at"], lambda kind: kind not in MONSTERS, "fire_giant", q, ev)


def _destroy_enemies(state: BRState, seat: int, at: int, which, cause: str, q: list, ev: list) -> None:
    """Destroy enemy figures in the province and, as for any effect on a province, in its fjords."""
    locs = battle_locs(at) if at <= YGG else (at,)
    for other in order_from(state, seat):
        if other == seat:
            continue
        for i, loc in enumerate(state.locs[other]):
            if loc in locs and which(state.kinds[other][i]):
                destroy(state, other, i, cause, q, ev)


@hook("valkyrie", "battle_end")
def _valkyrie(state: BRState, seat: int, cid: str, ctx: dict, q: list, ev: list) -> None:
    b = state.battle
    assert b is not None
    if seat in b.valkyrie:
        enemies = sum(d for s, d in enumerate(b.destroyed) if s != seat)
        gain_glory(state, seat, 2 * enemies, "valkyrie", ev)


@hook("frost_giant", "pillaged")
def _frost_giant(state: BRState, seat: int, cid: str, ctx: dict, q: list, ev: list) -> None:
    p = ctx["province"]
    if any(state.kinds[seat][i] == "frost_giant" and state.locs[seat][i] == p for i in range(len(state.kinds[seat]))):
        pillage_reward(state, seat, p, "frost_giant", ev)


# -- clan upgrades ------------------------------------------------------------------------

@hook("thors_glory", "battle_end")
def _thors_glory(state: BRState, seat: int, cid: str, ctx: dict, q: list, ev: list) -> None:
    b = state.battle
    assert b is not None
    if sum(d for s, d in enumerate(b.destroyed) if s != seat) >= 2:
        gain_glory(state, seat, 2, "thors_glory", ev)


def _release(amount: int):
    def fn(state: BRState, seat: int, cid: str, ctx: dict, q: list, ev: list) -> None:
        gain_glory(state, seat, amount * ctx["count"], CARDS[cid].name, ev)
    return fn


hook("lokis_domain", "release")(_release(1))
hook("lokis_eminence", "release")(_release(2))
hook("lokis_wrath", "release")(_release(3))


@hook("lokis_blessing", "lose")
def _lokis_blessing(state: BRState, seat: int, cid: str, ctx: dict, q: list, ev: list) -> None:
    q.append(("free_invade", seat, "warrior", ctx["province"], "lokis_blessing"))


@hook("friggas_succor", "invaded")
def _friggas_succor(state: BRState, seat: int, cid: str, ctx: dict, q: list, ev: list) -> None:
    if ctx["reason"] != "friggas_succor" and ctx["at"] <= YGG:
        q.append(("free_invade", seat, "warrior", ctx["at"], "friggas_succor"))


@hook("thors_domain", "invaded")
def _thors_domain(state: BRState, seat: int, cid: str, ctx: dict, q: list, ev: list) -> None:
    if ctx["at"] <= YGG:  # the choice to pillage is battle.py's "thors_domain" decision
        q.append(("thors_domain", seat, ctx["at"]))


# -- free invasions (after an upgrade, Frigga's Succor, Loki's Blessing) ----------------------

def free_targets(state: BRState, seat: int, kind: str, p: int) -> list[int]:
    f = figs(state, seat)
    if f[F_BOARD] >= horns(state, seat) or kind not in reserve_kinds(state.kinds[seat], f[F_RESERVE]):
        return []
    targets = invade_targets(state, kind)
    if p >= 0:
        targets = [t for t in targets if t == p]
    return targets


def _free_seats(state: BRState, task: tuple) -> list[int]:
    return [task[1]] if free_targets(state, task[1], task[2], task[3]) else []


def _free_legal(state: BRState, task: tuple, seat: int) -> list[dict[str, Any]]:
    moves: list[dict[str, Any]] = [{"type": "free_invade", "figure": task[2], "to": LOCATIONS[t]}
                                   for t in free_targets(state, seat, task[2], task[3])]
    moves.append({"type": "decline"})
    return moves


def _free_perform(state: BRState, task: tuple, seat: int, move: dict[str, Any], q: list, ev: list) -> None:
    state.stack.pop()
    if move["type"] == "free_invade":
        place(state, seat, task[2], LOC_INDEX[move["to"]], task[4], q, ev)


FLOW.decision("free_invade", Step("br.prompt.free_invade", _free_seats, _free_legal, _free_perform))


# -- raise one stat (quests, Thor's Oath, Frigga's Grace, Lord of Axes, Frigga's Sacrifice) ---

def _raise_seats(state: BRState, task: tuple) -> list[int]:
    return [task[1]] if can_raise(state, task[1], task[2]) else []


def _raise_legal(state: BRState, task: tuple, seat: int) -> list[dict[str, Any]]:
    return [{"type": "raise", "stat": STATS[k]} for k in can_raise(state, seat, task[2])]


def _raise_perform(state: BRState, task: tuple, seat: int, move: dict[str, Any], q: list, ev: list) -> None:
    state.stack.pop()
    raise_stat(state, seat, STATS.index(move["stat"]), task[3], ev)


FLOW.decision("raise", Step("br.prompt.raise", _raise_seats, _raise_legal, _raise_perform))


# -- Frigga's Sacrifice: destroy two of your figures, raise a stat ------------------------------

def _sacrifice_seats(state: BRState, task: tuple) -> list[int]:
    return [task[1]] if on_board(state, task[1]) > 0 else []


def _sacrifice_legal(state: BRState, task: tuple, seat: int) -> list[dict[str, Any]]:
    moves: list[dict[str, Any]] = []
    for i, at in enumerate(state.locs[seat]):
        if at >= 0:
            m = {"type": "sacrifice_figure", "figure": state.kinds[seat][i], "at": LOCATIONS[at]}
            if m not in moves:
                moves.append(m)
    return moves


def _sacrifice_perform(state: BRState, task: tuple, seat: int, move: dict[str, Any], q: list, ev: list) -> None:
    state.stack.pop()
    at = LOC_INDEX[move["at"]]
    for i, loc in enumerate(state.locs[seat]):
        if loc == at and state.kinds[seat][i] == move["figure"]:
            destroy(state, seat, i, "sacrifice", q, ev)
            break
    if task[2] > 1:
        q.append(("sacrifice", seat, task[2] - 1))
    else:
        q.append(("raise", seat, (), "friggas_sacrifice"))


FLOW.decision("sacrifice", Step("br.prompt.sacrifice", _sacrifice_seats, _sacrifice_legal, _sacrifice_perform))


def _noop(state: BRState, task: tuple, q: list, ev: list) -> None:
    return None


FLOW.add_auto("noop", _noop)

