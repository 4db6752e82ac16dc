"""Hadrian's Wall rules: set-up (HW-2), who decides, the legal moves and playing one.

The parts are modules of their own: years.py (each year: fate card, player cards,
production, the Pict attack), sheets.py (the boxes: why one cannot be filled, filling it,
its reward, the fill moves), follow_ups.py (the decisions rewards leave owed), cards.py
(the fate deck, and whose cards a seat may follow).

Rule numbers (HW-n) refer to rules.md beside this module. Turn flow: ``pending`` and
``legal`` test the phase; ``perform`` dispatches on the move kind through ``PLAY``; a move
answering a decision a reward created (``Player.todo``, oldest first) goes through
``follow_ups.FOLLOW_UP``, and ``follow_ups.OWED`` lists the moves that answer each kind of
owed decision.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from typing import Any

from ludoteca.engine import Decision, Event, IllegalMove, Move, Prompt, Rng
from ludoteca.engine.flow import Dispatch

from .components import DIRECTIONS
from .follow_ups import FOLLOW_UP, settle, todo_options
from .sheets import (
    BOX_ID,
    BOX_INDEX,
    BOXES,
    PAY_LABELS,
    PAY_NEEDS,
    S_PRODUCTION,
    SECTIONS,
    C,
    block,
    fill,
    fills,
    lock_text,
)
from .state import PHASE_ATTACK, PHASE_CHOOSE, PHASE_MAIN, HadriansWallState, Player
from .years import attack, favour_options, finish_attack, reveal, start_year

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


def new_state(seats: int, options: Mapping[str, Any], rng: Rng) -> HadriansWallState:
    """The decks shuffled, each seat's first production circle filled, the first year begun (HW-2)."""
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
        fills(state, seat, p, moves)
        moves.append({"type": "end_year"})
        return moves
    if phase == PHASE_CHOOSE:
        return [] if p.chosen else [{"type": "choose", "guideline": c} for c in p.hand]
    if phase == PHASE_ATTACK:
        return [] if p.defended else favour_options(p)
    return []


Play = Callable[[HadriansWallState, int, Player, Move, list[Event]], None]
PLAY: Dispatch[str, Play] = Dispatch("hadrianswall: moves by kind")
"""The moves of the year's phases; the follow-up decisions are in FOLLOW_UP."""


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
    b = BOX_INDEX[box_id]
    pays = PAY_NEEDS[b]
    if pays is not None:
        stock = p.stock
        for i, n in pays[PAY_LABELS[b].index(move["pay"])] if "pay" in move else pays[0]:
            stock[i] -= n
    fill(state, seat, b)
    events.append(Event("hw.fill", {"seat": seat, "box": BOX_ID[b]}))
    if p.todo:
        settle(state, seat)


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


__all__ = ["explain", "legal", "move_text", "new_state", "pending", "perform", "reveals", "simultaneous"]
