"""Pillage and battle: call to arms, battle cards, reveal, after-reveal cards, resolution.

Order of a pillage: call -> after_call -> [cards -> reveal -> extra -> resolve ->
protect* -> lose_destroy -> outcome (lose and win hooks) -> pillage_success? -> win_glory
-> battle_end and take_cards hooks -> prowess? -> cards_back] -> battle_done.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ludoteca.engine import Event
from ludoteca.engine.flow import Step, TaskFlow

from .board import (
    F_LANDED,
    MASK_OF,
    adjacent,
    figures_in,
    gain_glory,
    has_upgrade,
    kinds_at,
    occupancy,
    order_from,
    pillage_reward,
    present,
    set_loc,
    str_at,
)
from .components import ADJACENT, CARDS, LOC_INDEX, LOCATIONS, SHIP_KINDS, TRACKS, VILLAGES, YGG
from .effects import HOOKS, destroy, fire
from .state import Battle, BRState

FLOW: TaskFlow[BRState] = TaskFlow("bloodrage battle")
"""The steps of a pillage and its battle."""

AFTER_REVEAL = frozenset({"heimdalls_eye", "heimdalls_gaze"})
_AFTER_REVEAL_IDS = frozenset(cid for cid, card in CARDS.items() if card.name in AFTER_REVEAL)


def start_pillage(state: BRState, seat: int, p: int, q: list, ev: list) -> None:
    state.battle = Battle(p, seat, state.n)
    ev.append(Event("br.pillage", {"seat": seat, "province": LOCATIONS[p]}))
    q.append(("call",))
    q.append(("after_call",))
    q.append(("battle_done",))


# -- 1. call to arms ------------------------------------------------------------------------

def _joinable(state: BRState, seat: int, p: int) -> list[tuple[str, int]]:
    """(kind, from) pairs: one figure from an adjacent province (ships never move)."""
    out = []
    locs = state.locs[seat]
    destroyed = state.destroyed
    for src in adjacent(p):
        if destroyed[src] or src not in locs:
            continue
        for kind in kinds_at(state, seat, src):
            if kind not in SHIP_KINDS:
                out.append((kind, src))
    return out


_ADJ_BITS = tuple(sum(1 << q for q in ADJACENT[p]) for p in range(len(ADJACENT)))


def _call_seats(state: BRState, task: tuple) -> list[int]:
    b = state.battle
    assert b is not None
    p = b.province
    occ = occupancy(state)  # the summaries too, counted afresh if they were stale
    if p != YGG and occ[p] >= VILLAGES[p]:  # room(state, p) <= 0, without its calls
        return []
    n = state.n
    near = _ADJ_BITS[p] & ~MASK_OF[tuple(state.destroyed)]  # flag_bits, inlined
    summaries: list[list[int]] = state.figs  # type: ignore[assignment]
    while b.declines < n:
        # whether _joinable would give anything: the seat's summary has a figure that is not a
        # ship in a standing adjacent province
        if summaries[b.call_seat][F_LANDED] & near:
            return [b.call_seat]
        b.declines += 1
        b.call_seat = (b.call_seat + 1) % n
    return []


def _call_legal(state: BRState, task: tuple, seat: int) -> list[dict[str, Any]]:
    b = state.battle
    assert b is not None
    moves: list[dict[str, Any]] = [{"type": "join", "figure": k, "from": LOCATIONS[src]}
                                   for k, src in _joinable(state, seat, b.province)]
    moves.append({"type": "decline"})
    return moves


def _call_perform(state: BRState, task: tuple, seat: int, move: dict[str, Any], q: list, ev: list) -> None:
    b = state.battle
    assert b is not None
    if move["type"] == "join":
        src = LOC_INDEX[move["from"]]
        for i, at in enumerate(state.locs[seat]):
            if at == src and state.kinds[seat][i] == move["figure"]:
                set_loc(state, seat, i, b.province)
                break
        b.declines = 0
        ev.append(Event("br.join", {"seat": seat, "figure": move["figure"], "from": move["from"],
                                    "province": LOCATIONS[b.province]}))
    else:
        b.declines += 1
    b.call_seat = (b.call_seat + 1) % state.n
    # the task stays; _call_seats drops it once the call is over


FLOW.decision("call", Step("br.prompt.call", _call_seats, _call_legal, _call_perform))


def _after_call(state: BRState, task: tuple, q: list, ev: list) -> None:
    b = state.battle
    assert b is not None
    p = b.province
    here = []  # a plain loop: a comprehension costs a function and a frame
    for s in order_from(state, b.pillager):
        if present(state, s, p):
            here.append(s)
    b.participants = here
    if b.participants == [b.pillager]:
        ev.append(Event("br.no_battle", {"seat": b.pillager, "province": LOCATIONS[p]}))
        b.winner = b.pillager
        q.append(("pillage_success",))
        return
    if b.pillager not in b.participants:  # nothing of the pillager's is left: the attempt fails
        ev.append(Event("br.pillage_failed", {"seat": b.pillager, "province": LOCATIONS[p]}))
        return
    b.fought = True
    b.valkyrie = [s for s in b.participants  # one C test first: most clans have no Valkyrie
                  if "valkyrie" in state.kinds[s]
                  and any(state.kinds[s][i] == "valkyrie" for i in figures_in(state, s, p))]
    strength = []
    for s in b.participants:
        strength.append(str_at(state, s, p))
    ev.append(Event("br.battle", {"province": LOCATIONS[p], "seats": b.participants[:], "str": strength}))
    q.extend([("cards",), ("reveal",), ("extra",), ("resolve",)])


FLOW.add_auto("after_call", _after_call)


# -- 2. battle cards ----------------------------------------------------------------------

def _cards_seats(state: BRState, task: tuple) -> list[int]:
    b = state.battle
    assert b is not None
    seats = []  # a plain loop: a comprehension costs a function and a frame
    for s in b.participants:
        if not b.chosen[s] and state.hands[s]:
            seats.append(s)
    return seats


def _cards_legal(state: BRState, task: tuple, seat: int) -> list[dict[str, Any]]:
    moves = []  # a plain loop: a comprehension costs a function and a frame
    for cid in state.hands[seat]:
        moves.append({"type": "play", "card": cid})
    return moves


_CHOSEN = tuple(Event("br.card_chosen", {"seat": s}) for s in range(4))
"""Built once and shared: nothing changes an event after ``perform``."""


def _cards_perform(state: BRState, task: tuple, seat: int, move: dict[str, Any], q: list, ev: list) -> None:
    b = state.battle
    assert b is not None
    state.hands[seat].remove(move["card"])
    b.chosen[seat] = move["card"]
    ev.append(_CHOSEN[seat] if seat < len(_CHOSEN) else Event("br.card_chosen", {"seat": seat}))


FLOW.decision("cards", Step("br.prompt.battle_card", _cards_seats, _cards_legal, _cards_perform))


def card_bonus(state: BRState, seat: int, cid: str) -> int:
    """The STR a revealed card adds for ``seat`` (Heimdall's Sight and quests under Tyr's Domain)."""
    b = state.battle
    assert b is not None
    card = CARDS[cid]
    if card.type == "quest":
        bonus = 0
        if has_upgrade(state, seat, "tyrs_domain"):
            bonus = max(bonus, 3)
        if has_upgrade(state, seat, "tyrs_wrath"):
            bonus = max(bonus, 5)
        return bonus
    if card.type != "battle":
        return 0
    if card.name == "heimdalls_sight":
        if cid in b.cancelled:
            return 0
        best = 0
        for other in b.participants:
            if other != seat:
                for ocid in b.played[other]:
                    if CARDS[ocid].name != "heimdalls_sight":
                        best = max(best, card_bonus(state, other, ocid))
        return best
    return card.str


def _reveal(state: BRState, task: tuple, q: list, ev: list) -> None:
    b = state.battle
    assert b is not None
    new: list[tuple[int, str]] = []
    for s in b.participants:
        if b.chosen[s]:
            b.played[s].append(b.chosen[s])
            new.append((s, b.chosen[s]))
            b.chosen[s] = ""
    ev.append(Event("br.reveal", {"cards": [[s, CARDS[c].name] for s, c in new]}))
    # reveal timing: Thor's Primacy cancels first, then Heimdall's Watch, then the others
    for s, cid in new:
        if CARDS[cid].name == "thors_primacy":
            for o, ocid in new:
                if o != s and CARDS[ocid].name != "thors_primacy" and ocid not in b.cancelled:
                    b.cancelled.append(ocid)
                    ev.append(Event("br.cancelled", {"seat": o, "card": CARDS[ocid].name}))
    watchers = []  # plain loops: a comprehension costs a function and a frame
    for s, cid in new:
        if CARDS[cid].name == "heimdalls_watch" and cid not in b.cancelled:
            watchers.append(s)
    if watchers:
        total = sum(card_bonus(state, s, cid) for s in b.participants for cid in b.played[s])
        for s in b.participants:
            b.played[s] = []
        ev.append(Event("br.watch", {"seats": watchers, "total": total}))
        for s in watchers:
            gain_glory(state, s, total, "heimdalls_watch", ev)
        q.extend([("cards",), ("reveal",)])
        return
    ids = set()
    for _, cid in new:
        ids.add(cid)
    for s in order_from(state, b.pillager):
        for cid in b.played[s]:
            if cid in ids and cid not in b.cancelled:
                fn = HOOKS.get(CARDS[cid].name, {}).get("reveal")
                if fn is not None:
                    fn(state, s, cid, {}, q, ev)


FLOW.add_auto("reveal", _reveal)


# -- after the reveal: Heimdall's Eye and Gaze, pillager first, clockwise ------------------

def _extra_seats(state: BRState, task: tuple) -> list[int]:
    b = state.battle
    assert b is not None
    while b.passes < state.n:
        s = b.extra_seat
        # every participant holding cards is asked, so that being asked tells nothing about the hand
        if s in b.participants and state.hands[s]:
            return [s]
        b.passes += 1
        b.extra_seat = (s + 1) % state.n
    return []


def _extra_legal(state: BRState, task: tuple, seat: int) -> list[dict[str, Any]]:
    moves: list[dict[str, Any]] = []  # a plain loop: a comprehension costs a function and a frame
    hand = state.hands[seat]
    if not _AFTER_REVEAL_IDS.isdisjoint(hand):  # most hands hold neither card: one C test
        for c in hand:
            if c in _AFTER_REVEAL_IDS:
                moves.append({"type": "play_extra", "card": c})
    moves.append({"type": "decline"})
    return moves


def _extra_perform(state: BRState, task: tuple, seat: int, move: dict[str, Any], q: list, ev: list) -> None:
    b = state.battle
    assert b is not None
    if move["type"] == "play_extra":
        state.hands[seat].remove(move["card"])
        b.played[seat].append(move["card"])
        b.passes = 0
        ev.append(Event("br.extra_card", {"seat": seat, "card": CARDS[move["card"]].name}))
    else:
        b.passes += 1
    b.extra_seat = (seat + 1) % state.n


FLOW.decision("extra", Step("br.prompt.extra_card", _extra_seats, _extra_legal, _extra_perform))


# -- 3. resolution ------------------------------------------------------------------------

def totals(state: BRState) -> dict[int, int]:
    b = state.battle
    assert b is not None
    out = {}  # plain loops: a comprehension or a generator costs a function and a frame
    for s in b.participants:
        total = str_at(state, s, b.province)
        for c in b.played[s]:
            total += card_bonus(state, s, c)
        out[s] = total
    return out


def _chain(state: BRState, tasks: tuple | list, q: list, ev: list) -> None:
    """Queue ``tasks`` after what ``q`` holds, as the caller (an automatic task) would, but run
    each automatic one here while nothing is queued before it: the flow would pop and run it
    next anyway, so the order of every effect and event is the same, without a trip through
    the stack. The caller must read no state after this (the tasks may change it). From the
    first decision, or the first task that queues something, the rest are queued."""
    for k, task in enumerate(tasks):
        fn = _CHAINED.get(task[0])
        if q or fn is None:
            q.extend(tasks[k:])
            return
        fn(state, task, q, ev)


_PILLAGE_SUCCESS, _WIN_GLORY, _BATTLE_END, _CARDS_BACK = ("pillage_success",), ("win_glory",), ("battle_end",), \
    ("cards_back",)
_AFTER_RESOLVE = (("lose_destroy",), ("outcome",))


def _resolve(state: BRState, task: tuple, q: list, ev: list) -> None:
    b = state.battle
    assert b is not None
    p = b.province
    for s in b.participants:  # a clan with no figure left stays in: its card may still win (rulebook)
        if s not in b.out and not present(state, s, p):
            b.out.append(s)
            ev.append(Event("br.out_of_battle", {"seat": s}))
    tot = totals(state)
    best = max(tot.values()) if tot else 0
    top = [s for s, v in tot.items() if v == best]
    b.winner = top[0] if len(top) == 1 else -1
    ev.append(Event("br.totals", {"totals": [[s, v] for s, v in tot.items()], "winner": b.winner}))
    # The same outcome as readable log lines: one strength per clan, then the verdict.
    for s, v in tot.items():
        ev.append(Event("br.strength", {"seat": s, "strength": v}))
    ev.append(Event("br.battle_won", {"winner": b.winner}) if b.winner >= 0 else Event("br.battle_tied"))
    _chain(state, _AFTER_RESOLVE, q, ev)


FLOW.add_auto("resolve", _resolve)


def _losers(state: BRState) -> list[int]:
    b = state.battle
    assert b is not None
    losers = []  # a plain loop: a comprehension costs a function and a frame
    for s in b.participants:
        if s != b.winner:
            losers.append(s)
    return losers


def _lose_destroy(state: BRState, task: tuple, q: list, ev: list) -> None:
    b = state.battle
    assert b is not None
    for s in _losers(state):
        for i in figures_in(state, s, b.province):
            destroy(state, s, i, "battle", q, ev)


FLOW.add_auto("lose_destroy", _lose_destroy)


def _outcome(state: BRState, task: tuple, q: list, ev: list) -> None:
    b = state.battle
    assert b is not None
    ctx = {"province": b.province, "winner": b.winner}
    fire(state, "lose", _losers(state), ctx, q, ev, battle_cards=True)
    tail: list[tuple] = []
    if b.winner >= 0:
        fire(state, "win", [b.winner], ctx, q, ev, battle_cards=True)
        if b.winner == b.pillager:
            tail.append(_PILLAGE_SUCCESS)
        tail.append(_WIN_GLORY)
    tail.append(_BATTLE_END)
    if b.winner >= 0 and has_upgrade(state, b.winner, "tyrs_prowess"):
        tail.append(("prowess", b.winner))
    tail.append(_CARDS_BACK)
    _chain(state, tail, q, ev)  # every state read above is done before any of them runs


FLOW.add_auto("outcome", _outcome)


def _cards_back(state: BRState, task: tuple, q: list, ev: list) -> None:
    """The winner discards its revealed cards; the others take theirs back into hand."""
    b = state.battle
    assert b is not None
    for s in b.participants:
        if s == b.winner:
            b.played[s] = []
        elif b.played[s]:
            state.hands[s].extend(b.played[s])
            b.played[s] = []


FLOW.add_auto("cards_back", _cards_back)


def _win_glory(state: BRState, task: tuple, q: list, ev: list) -> None:
    b = state.battle
    assert b is not None
    w = b.winner
    gain_glory(state, w, TRACKS[1][state.stats[w][1]], "battle", ev)


FLOW.add_auto("win_glory", _win_glory)


def _battle_end(state: BRState, task: tuple, q: list, ev: list) -> None:
    b = state.battle
    assert b is not None
    fire(state, "battle_end", b.participants, {"province": b.province}, q, ev, battle_cards=True)
    # then a loser may take the winner's cards (Loki's Poison), before Tyr's Prowess (the FAQ)
    fire(state, "take_cards", _losers(state), {"winner": b.winner}, q, ev, battle_cards=True)


FLOW.add_auto("battle_end", _battle_end)


def _battle_done(state: BRState, task: tuple, q: list, ev: list) -> None:
    state.battle = None


FLOW.add_auto("battle_done", _battle_done)


def _pillage_success(state: BRState, task: tuple, q: list, ev: list) -> None:
    b = state.battle
    assert b is not None
    p, seat = b.province, b.pillager
    state.pillaged[p] = True
    ev.append(Event("br.pillaged", {"seat": seat, "province": LOCATIONS[p], "reward": state.tokens[p]}))
    raised = pillage_reward(state, seat, p, "pillage", ev)
    fire(state, "pillaged", [seat], {"province": p, "raised": raised}, q, ev, battle_cards=True)


FLOW.add_auto("pillage_success", _pillage_success)

_CHAINED: dict[str, Callable[[BRState, tuple, list, list], None]] = {
    "lose_destroy": _lose_destroy, "outcome": _outcome, "pillage_success": _pillage_success,
    "win_glory": _win_glory, "battle_end": _battle_end, "cards_back": _cards_back}
"""The automatic tasks that ``_chain`` may run in place (the flow's own functions)."""


# -- Thor's Domain: after an invasion, pillage that province for 2 rage ------------------------------

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
        state.rage[seat] -= 2
        start_pillage(state, seat, task[2], q, ev)


FLOW.decision("thors_domain", Step("br.prompt.thors_domain", _domain_seats, _domain_legal, _domain_perform))


# -- Tyr's Prowess: the winner keeps revealed cards for 1 rage each --------------------------

def _prowess_seats(state: BRState, task: tuple) -> list[int]:
    b = state.battle
    assert b is not None
    seat = task[1]
    return [seat] if state.rage[seat] >= 1 and b.played[seat] else []


def _prowess_legal(state: BRState, task: tuple, seat: int) -> list[dict[str, Any]]:
    b = state.battle
    assert b is not None
    moves: list[dict[str, Any]] = [{"type": "keep_card", "card": c} for c in b.played[seat]]
    moves.append({"type": "decline"})
    return moves


def _prowess_perform(state: BRState, task: tuple, seat: int, move: dict[str, Any], q: list, ev: list) -> None:
    b = state.battle
    assert b is not None
    if move["type"] == "decline":
        state.stack.pop()
        return
    b.played[seat].remove(move["card"])
    state.hands[seat].append(move["card"])
    state.rage[seat] -= 1
    ev.append(Event("br.prowess_keep", {"seat": seat, "card": CARDS[move["card"]].name}))


FLOW.decision("prowess", Step("br.prompt.prowess", _prowess_seats, _prowess_legal, _prowess_perform))
