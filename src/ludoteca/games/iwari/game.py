"""The Iwari game class: it only binds the engine's contract to the modules that
implement it (the rules are numbered IW-1 ... in rules.md):

    components.py  data/ loaded and validated     state.py   the state, clone, JSON
    rules.py       set-up, legal moves, perform   scoring.py the scorings and breakdown
    views.py       views, secrets, determinize    feats.py, expeditions.py  the two modules
    options.py     the options (map, feats, expeditions)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ludoteca.engine import Event, Game, IllegalMove, Move, OptionValue, Result, Rng, Seat

from . import rules, scoring, views
from .components import load_all
from .options import OPTIONS
from .state import OVER, IwariState

load_all()  # a broken data file fails at import, not in the middle of a game


class IwariGame(Game[IwariState]):
    id = "iwari"
    name = "Iwari"
    min_seats = 2
    max_seats = 5
    description = "Tribes settle a new world: tents for majorities, totems for the connections between lands."
    static_view_keys = ("board",)
    options = OPTIONS
    # A turn is at most ~20 decisions; every turn but the last round's takes a card out
    # of the deck, which is gone through twice (at most 2 x 57 cards): 200 turns is ample.
    max_moves = 4_000

    # The hot trio of every playout: the rules functions themselves, as static methods,
    # so a call costs no extra layer.
    pending = staticmethod(rules.pending)
    legal = staticmethod(rules.legal)
    perform = staticmethod(rules.perform)

    def new_state(self, seats: int, options: Mapping[str, OptionValue], rng: Rng) -> IwariState:
        return rules.new_state(seats, options, rng)

    def view(self, state: IwariState, seat: Seat | None) -> dict[str, Any]:
        return views.view(state, seat)

    def result(self, state: IwariState) -> Result | None:
        if state.phase != OVER:
            return None
        seats = range(state.seats)
        unused = [(state.tents_left[s] + state.totems_left[s],) for s in seats]
        end = state.end if state.end is not None else scoring.end_scoring(state)
        return Result.ranked(state.scores[:state.seats], unused, [scoring.breakdown(state, s, end) for s in seats])

    def clone(self, state: IwariState) -> IwariState:
        return state.copy()

    def to_json(self, state: IwariState) -> dict[str, Any]:
        return state.to_json()

    def from_json(self, data: Mapping[str, Any]) -> IwariState:
        return IwariState.from_json(data)

    def determinize(self, state: IwariState, seat: Seat, rng: Rng) -> IwariState:
        return views.determinize(state, seat, rng)

    def secrets(self, state: IwariState) -> dict[Seat | None, set[str]]:
        return views.secrets(state)

    def explain(self, state: IwariState, seat: Seat, move: Move) -> IllegalMove:
        return rules.explain(state, seat, move)

    def reveals(self, before: IwariState, after: IwariState, seat: Seat, move: Move,
                events: Sequence[Event]) -> bool:
        """A card left the deck (drawn, or refilling the display): hidden order became
        known, so the move can never be taken back."""
        return len(after.deck) != len(before.deck) or after.exhaustions != before.exhaustions

    def view_text(self, view: Mapping[str, Any]) -> str:
        return views.view_text(dict(view))

    def move_text(self, state: IwariState, seat: Seat, move: Move) -> str:
        return rules.move_text(state, move)


__all__ = ["IwariGame"]
