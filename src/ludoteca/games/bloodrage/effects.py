"""Every Gods' Gifts card effect, registered by timing (see core.hook).

Timings: "reveal" (a battle card as it is revealed), "win" / "lose" (battle outcome),
"pillaged" (a successful pillage), "battle_end" (after the losers' figures are gone),
"take_cards" (a loser, after the battle-end hooks and before Tyr's Prowess: Loki's Poison),
"destroyed" (a figure of the card's owner dies), "invaded" (after one of the owner's
figures invades), "release" (Release Valhalla), "ragnarok" (glory multiplier), and the
persistent effects read where they apply: STR (core.warriors_str, core.figure_str,
battle.card_bonus), costs (rules.upgrade_cost, core.invade_cost), quest glory
(rules quests), actions (rules: Tyr's Challenge, Frigga's Domain, Frigga's Sacrifice).
"""

from __future__ import annotations

from typing import Any

from ludoteca.engine import Event

from .components import CARDS, LOC_INDEX, LOCATIONS, RESERVE, STATS, YGG
from .core import (
    AUTO,
    DECIDE,
    Decision,
    adjacent,
    battle_locs,
    can_raise,
    destroy,
    figures_in,
    gain_glory,
    hook,
    horns,
    on_board,
    order_from,
    raise_stat,
    room,
    str_at,
)
from .state import BRState

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


DECIDE["tide"] = Decision("br.prompt.tide", _tide_seats, _tide_legal, _tide_perform)


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
        state.locs[seat][0] = LOC_INDEX[move["to"]]
        ev.append(Event("br.leader_moved", {"seat": seat, "to": move["to"]}))


DECIDE["hammers"] = Decision("br.prompt.hammers", _hammers_seats, _hammers_legal, _hammers_perform)


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
        from .components import MONSTERS
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
        from .battle import pillage_reward
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
    if ctx["at"] <= YGG:
        q.append(("thors_domain", seat, ctx["at"]))


def _domain_seats(state: BRState, task: tuple) -> list[int]:
    seat, p = task[1], task[2]
    ok = state.rage[seat] >= 2 and not state.pillaged[p] and not state.destroyed[p] and state.battle is None \
        and state.phase == "action"
    return [seat] if ok and any(at == p for at in state.locs[seat]) else []


def _domain_legal(state: BRState, task: tuple, seat: int) -> list[dict[str, Any]]:
    return [{"type": "domain_pillage", "province": LOCATIONS[task[2]]}, {"type": "decline"}]


def _domain_perform(state: BRState, task: tuple, seat: int, move: dict[str, Any], q: list, ev: list) -> None:
    state.stack.pop()
    if move["type"] == "domain_pillage":
        from .battle import start_pillage
        state.rage[seat] -= 2
        start_pillage(state, seat, task[2], q, ev)


DECIDE["thors_domain"] = Decision("br.prompt.thors_domain", _domain_seats, _domain_legal, _domain_perform)


# -- free invasions (after an upgrade, Frigga's Succor, Loki's Blessing) ----------------------

def free_targets(state: BRState, seat: int, kind: str, p: int) -> list[int]:
    from .core import invade_targets
    if on_board(state, seat) >= horns(state, seat) or not any(
            k == kind and at == RESERVE for k, at in zip(state.kinds[seat], state.locs[seat], strict=True)):
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
        from .rules import place
        place(state, seat, task[2], LOC_INDEX[move["to"]], task[4], q, ev)


DECIDE["free_invade"] = Decision("br.prompt.free_invade", _free_seats, _free_legal, _free_perform)


# -- raise one stat (quests, Thor's Oath, Frigga's Grace, Lord of Axes, Frigga's Sacrifice) ---

def _raise_seats(state: BRState, task: tuple) -> list[int]:
    return [task[1]] if can_raise(state, task[1], task[2]) else []


def _raise_legal(state: BRState, task: tuple, seat: int) -> list[dict[str, Any]]:
    return [{"type": "raise", "stat": STATS[k]} for k in can_raise(state, seat, task[2])]


def _raise_perform(state: BRState, task: tuple, seat: int, move: dict[str, Any], q: list, ev: list) -> None:
    state.stack.pop()
    raise_stat(state, seat, STATS.index(move["stat"]), task[3], ev)


DECIDE["raise"] = Decision("br.prompt.raise", _raise_seats, _raise_legal, _raise_perform)


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


DECIDE["sacrifice"] = Decision("br.prompt.sacrifice", _sacrifice_seats, _sacrifice_legal, _sacrifice_perform)


def _noop(state: BRState, task: tuple, q: list, ev: list) -> None:
    return None


AUTO["noop"] = _noop

__all__ = ["free_targets", "str_at"]
