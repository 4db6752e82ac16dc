"""Crusaders rules: who decides, the legal moves and playing one, the turn as small steps.

The parts are modules of their own: opening.py (the set-up, up to the first turn),
actions.py (resolving a wedge and the five actions), sowing.py (the mancala sowing and the
end of a turn), economy.py (bonuses, enemies, influence, what buildings cost). Each gives
the legal moves of its phases and plays the moves they take (``LEGAL_BY_PHASE``,
``PLAY_BY_KIND``); this module gathers them into ``LEGAL`` and ``PLAY``.

Phases (``state.phase``) and the moves they take:

- ``order``: every seat without a knight order picks one of its two offers (simultaneous).
- ``setup``: the task at the head of ``state.setup_tasks`` (knight-order setup changes, then
  knight placement in reverse turn order).
- ``turn``: resolve a wedge, upgrade one, or (all upgraded) skip and sow.
- ``split``: an upgraded wedge's tokens are divided between its two actions, and the first chosen.
- ``move`` (one step of one knight at a time), ``crusade``, ``saracen``, ``build``: the actions
  that need a choice (Muster and Influence resolve by themselves).
- ``after_upgrade``: sow one wedge, or not; ``skip``: sow one wedge.
- ``sow``: how to sow, for the knight orders that change the sowing.
- ``over``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ludoteca.engine import Decision, Event, IllegalMove, Move, Prompt
from ludoteca.engine.flow import Dispatch

from . import actions, opening, sowing
from .opening import legal_order, play_setup
from .state import CrusadersState, Player

_DECISIONS: dict[tuple[Any, ...], Decision] = {}
"""Decisions are immutable and few: built once per (seat, prompt, argument) and shared."""


def _decision(seat: int, key: str, arg: str = "", value: Any = None) -> Decision:
    cache_key = (seat, key, arg, value)
    d = _DECISIONS.get(cache_key)
    if d is None:
        d = _DECISIONS[cache_key] = Decision(seat, Prompt(key, {arg: value} if arg else {}))
    return d


_PLAIN_DECISIONS = {phase: [_decision(seat, f"cr.prompt.{phase}") for seat in range(5)]
                    for phase in ("turn", "crusade", "saracen", "build", "after_upgrade", "skip")}
"""The decisions of the phases whose prompt names only the phase, per seat."""
_WEDGE_PROMPTS = {"split": "cr.prompt.split", "sow": "cr.prompt.sow"}
"""The prompts of the phases about one wedge (built strings would be hashed anew on every call)."""

_MOVE_DECISIONS: list[dict[int, Decision]] = [{} for _ in range(5)]
"""The move phase's decision per seat and movement points left."""
_WEDGE_DECISIONS: dict[str, list[dict[str, Decision]]] = {phase: [{} for _ in range(5)] for phase in _WEDGE_PROMPTS}
"""The split and sow phases' decisions per phase, seat and wedge."""


# A real bound: at most 60 rounds (CR-35) of 5 turns; a turn takes at most 23 decisions (resolve, split,
# 15 knight steps and a stop, a crusade and its Saracen reward or a build, a sowing choice); setup
# takes at most 30 (5 orders, 20 order tasks, 5 knights).
MAX_MOVES = 60 * 5 * 23 + 30


def pending(state: CrusadersState) -> list[Decision]:
    phase = state.phase
    plain = _PLAIN_DECISIONS.get(phase)
    if plain is not None:
        return [plain[state.current]]
    if phase == "move":
        seat = state.current
        by_points = _MOVE_DECISIONS[seat]
        d = by_points.get(state.points)
        if d is None:
            d = by_points[state.points] = _decision(seat, "cr.prompt.move", "points", state.points)
        return [d]
    by_wedge = _WEDGE_DECISIONS.get(phase)
    if by_wedge is not None:
        seat = state.current
        wedge = state.players[seat].wheel[state.wedge]
        d = by_wedge[seat].get(wedge)
        if d is None:
            d = by_wedge[seat][wedge] = _decision(seat, _WEDGE_PROMPTS[phase], "wedge", wedge)
        return [d]
    if phase == "over":
        return []
    if phase == "order":
        # the offers themselves are in each seat's own view, never in a prompt others might see
        out = []
        for seat, p in enumerate(state.players):
            if len(p.wheel) < 6:
                out.append(_decision(seat, "cr.prompt.arrange", "n", len(p.wheel) + 1))
            elif state.knight_orders and not p.order:
                key = "cr.prompt.order_any" if state.wheel_option == "tournament" else "cr.prompt.order"
                out.append(_decision(seat, key))
        return out
    seat, task = state.setup_tasks[0]  # phase == "setup"
    return [_decision(seat, f"cr.prompt.setup_{task}")]


def legal(state: CrusadersState, seat: int) -> list[Move]:
    phase = state.phase
    if phase == "order":
        return legal_order(state, seat)
    if seat != state.current:
        return []
    # one lookup instead of a chain of comparisons: legal runs on every decision of a playout
    moves = _LEGAL.get(phase)
    return moves(state, state.players[seat]) if moves is not None else []


def perform(state: CrusadersState, seat: int, move: Move) -> list[Event]:
    events: list[Event] = []
    kind = move["type"]
    # one lookup instead of a chain of comparisons: perform runs on every decision of a playout
    play = _PLAY.get(kind)
    if state.phase == "setup" and kind != "arrange" and kind != "order":
        play = play_setup
    if play is None:
        raise IllegalMove("bad_move_type", f"unknown move {kind!r}")
    play(state, seat, move, events)
    return events


def explain(state: CrusadersState, seat: int, move: Move) -> IllegalMove | None:
    """Why a move the rules refuse is refused, where a precise reason is known."""
    kind = move.get("type")
    p = state.players[seat] if 0 <= seat < state.seats else None
    if kind == "upgrade" and state.wheel_option == "learning":
        return IllegalMove("no_upgrades", "the learning game has no upgrading")
    if kind == "arrange" and state.phase == "order" and p is not None and len(p.wheel) < 6:
        return IllegalMove("cannot_arrange", "choose a wedge that is not on your wheel yet")
    if state.phase == "turn" and p is not None and isinstance(move.get("wedge"), int) and 0 <= move["wedge"] < 6:
        w = move["wedge"]
        if kind == "resolve" and p.tokens[w] == 0:
            return IllegalMove("wedge_empty", "an action needs at least one token on its wedge")
        if kind == "upgrade" and p.upgraded[w]:
            return IllegalMove("already_upgraded", "this wedge is already upgraded")
    if state.phase == "turn" and kind == "skip":
        return IllegalMove("cannot_skip", "you may skip only once every wedge is upgraded")
    if state.phase == "build" and kind == "build":
        return IllegalMove("cannot_build", "build where your knight stands, with no enemy and a free space, "
                                           "and pay the cost")
    if state.phase == "crusade" and kind == "crusade":
        return IllegalMove("cannot_crusade", "crusade where your knight meets an enemy you are strong enough for")
    if state.phase == "move" and kind == "step":
        return IllegalMove("cannot_move", "a knight moves to a neighbouring region and needs the points to leave")
    return None


LEGAL: Dispatch[str, Callable[[CrusadersState, Player], list[Move]]] = Dispatch("crusaders: legal moves by phase", (
    *opening.LEGAL_BY_PHASE.items(), *actions.LEGAL_BY_PHASE.items(), *sowing.LEGAL_BY_PHASE.items()))
"""The legal moves of the seat to play, per phase ("order" is every seat's; "over" has none)."""

PLAY: Dispatch[str, Callable[[CrusadersState, int, Move, list[Event]], None]] = Dispatch("crusaders: move kinds", (
    *opening.PLAY_BY_KIND.items(), *actions.PLAY_BY_KIND.items(), *sowing.PLAY_BY_KIND.items()))
"""Who plays each kind of move (the setup tasks' moves go to ``play_setup`` by the phase)."""

_LEGAL = dict(LEGAL)
_PLAY = dict(PLAY)
"""Plain-dict copies of the two tables for ``legal`` and ``perform``: ``get`` on a dict subclass is a slower
method call, and these two run on every decision of a playout."""
