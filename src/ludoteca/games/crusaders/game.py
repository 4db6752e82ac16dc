"""The Crusaders Game: the engine's contract bound to the modules that implement it (the
rules are numbered CR-1 ... in rules.md).

    components.py  data/ loaded and validated          state.py    the state, clone, JSON
    rules.py       who decides, legal moves, perform   scoring.py  majorities, level-4 buildings,
    opening.py     the set-up, up to the first turn                the final ranking
    actions.py     resolving a wedge, the five actions economy.py  bonuses, enemies, influence,
    sowing.py      the mancala sowing, the turn's end              building costs
    options.py     the options (knight orders, wheel)
    views.py       views, secrets, determinize         ai.py       bot hooks
    research.py    the encoding for the RL adapters
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ludoteca.engine import Event, Game, IllegalMove, Move, OptionValue, Result, Rng, Seat

from . import opening, rules, views
from .options import OPTIONS
from .scoring import final_result
from .state import CrusadersState


class CrusadersGame(Game[CrusadersState]):
    id = "crusaders"
    name = "Crusaders: Thy Will Be Done"
    min_seats = 2
    max_seats = 5
    description = ("Seth Jaffee's Crusaders (Tasty Minstrel Games, 2018): a mancala action wheel drives knights "
                   "who crusade, build and gather influence for their order.")
    options = OPTIONS
    max_moves = rules.MAX_MOVES
    # The hot trio of every playout: the rules functions themselves, as static methods,
    # so a call costs no extra layer.
    pending = staticmethod(rules.pending)
    legal = staticmethod(rules.legal)
    perform = staticmethod(rules.perform)

    def new_state(self, seats: int, options: Mapping[str, OptionValue], rng: Rng) -> CrusadersState:
        return opening.new_state(seats, options, rng)

    def explain(self, state: CrusadersState, seat: Seat, move: Move) -> IllegalMove:
        return rules.explain(state, seat, move) or super().explain(state, seat, move)

    def result(self, state: CrusadersState) -> Result | None:
        return final_result(state) if state.phase == "over" else None

    def clone(self, state: CrusadersState) -> CrusadersState:
        return state.clone()

    def to_json(self, state: CrusadersState) -> dict[str, Any]:
        return state.to_json()

    def from_json(self, data: Mapping[str, Any]) -> CrusadersState:
        return CrusadersState.from_json(data)

    def view(self, state: CrusadersState, seat: Seat | None) -> dict[str, Any]:
        return views.view(state, seat)

    def determinize(self, state: CrusadersState, seat: Seat, rng: Rng) -> CrusadersState:
        return views.determinize(state, seat, rng)

    def secrets(self, state: CrusadersState) -> dict[Seat | None, set[str]]:
        return views.secrets(state)

    def reveals(self, before: CrusadersState, after: CrusadersState, seat: Seat, move: Move,
                events: Sequence[Event]) -> bool:
        """The last knight-order choice shows every order: it cannot be taken back."""
        return not before.revealed and after.revealed

    def hidden_choice(self, state: CrusadersState, seat: Seat, move: Move) -> bool:
        """Whether ``move`` is a choice the other seats may not see until the rules reveal it
        (a replay shows them that it was made, not which it was): see opening.hidden_choice."""
        return opening.hidden_choice(state, seat, move)

    def move_text(self, state: CrusadersState, seat: Seat, move: Move) -> str:
        parts = [str(move.get("type"))]
        parts += [f"{k}={v}" for k, v in sorted(move.items()) if k != "type"]
        return " ".join(parts)

    def view_text(self, view: Mapping[str, Any]) -> str:
        return views.view_text(view)
