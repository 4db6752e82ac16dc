"""The Blood Rage Game: the engine's contract bound to the modules that implement it (the
rules are numbered BR-1 ... in rules.md).

    components.py  data/ loaded and validated      state.py    the state, clone, JSON
    board.py       figures, STR, glory and stats   rules.py    set-up, flow, actions, march
    effects.py     timings, card effects, deaths   battle.py   pillage and battle
    opening.py     first player and clans          scoring.py  final scoring
    options.py     the options (clans, first player)
    views.py       views, secrets, determinize     ai.py       bot hooks
    research.py    the encoding for the RL adapters
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import Any

from ludoteca.engine import Event, Game, IllegalMove, Move, OptionValue, Result, Rng, Seat

from . import rules, views
from .options import OPTIONS
from .scoring import breakdown
from .state import BRState


class BloodRageGame(Game[BRState]):
    id = "bloodrage"
    name = "Blood Rage"
    min_seats = 2
    max_seats = 4
    description = "Viking clans draft the gods' gifts, invade, pillage and die gloriously before Ragnarok."
    max_moves = rules.MAX_STEPS_GUARD
    options = OPTIONS
    # The hot trio of every playout: the rules functions themselves, as static methods,
    # so a call costs no extra layer.
    pending = staticmethod(rules.pending)
    legal = staticmethod(rules.legal)
    perform = staticmethod(rules.perform)

    def new_state(self, seats: int, options: Mapping[str, OptionValue], rng: Rng) -> BRState:
        return rules.new_state(seats, options, rng)

    def simultaneous(self, state: BRState) -> Hashable | None:
        return rules.simultaneous(state)

    def explain(self, state: BRState, seat: Seat, move: Move) -> IllegalMove:
        return rules.explain(state, seat, move) or super().explain(state, seat, move)

    def result(self, state: BRState) -> Result | None:
        if not state.over:
            return None
        return Result.ranked(state.glory, None, breakdown(state))

    def clone(self, state: BRState) -> BRState:
        return state.clone()

    def to_json(self, state: BRState) -> dict[str, Any]:
        return state.to_json()

    def from_json(self, data: Mapping[str, Any]) -> BRState:
        return BRState.from_json(dict(data))

    def reveals(self, before: BRState, after: BRState, seat: Seat, move: Move, events: Sequence[Event]) -> bool:
        return any(e.key in rules.REVEALING_EVENTS for e in events)

    def view(self, state: BRState, seat: Seat | None) -> dict[str, Any]:
        return views.view(state, seat)

    def secrets(self, state: BRState) -> dict[Seat | None, set[str]]:
        return views.secrets(state)

    def determinize(self, state: BRState, seat: Seat, rng: Rng) -> BRState:
        return views.determinize(state, seat, rng)

    def move_text(self, state: BRState, seat: Seat, move: Move) -> str:
        return views.move_text(state, seat, move)

    def view_text(self, view: Mapping[str, Any]) -> str:
        return views.view_text(dict(view))
