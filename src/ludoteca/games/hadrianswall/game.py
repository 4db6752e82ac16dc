"""The Hadrian's Wall game class: it only binds the engine's contract to the modules that
implement it (the rules are numbered HW-1 ... in rules.md):

    components.py  data/ loaded and validated       state.py    the state, clone, JSON
    rules.py       set-up, who decides, legal,       scoring.py  the scoring and breakdown
                   perform
    years.py       each year and its Pict attack     sheets.py   the boxes, their fills, rewards
    follow_ups.py  the decisions rewards leave owed  cards.py    the fate deck, cards followed
    options.py     the options                       ai.py       the search bots' hooks
    views.py       views, secrets, determinize
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ludoteca.engine import Event, Game, IllegalMove, Move, Result, Seat

from . import rules, scoring, views
from .options import OPTIONS
from .state import PHASE_OVER, HadriansWallState


class HadriansWallGame(Game[HadriansWallState]):
    id = "hadrianswall"
    name = "Hadrian's Wall"
    min_seats = 1
    max_seats = 6
    options = OPTIONS
    description = ("Build the wall, its forts and a Roman town over six years, all players at once, "
                   "while the Picts attack each winter. By Bobby Hill with Shem Phillips (Garphill Games, 2021).")
    max_moves = 1970
    """Per seat at most 216 fills (the boxes not filled by rewards), 18 cohort, 12 attribute, 4 forum,
    3 diplomat, 8 trade, 15 scout (source, orientation, place) and 12 fight decisions, 6 choices,
    6 year ends, 9 favours and 6 holds: 315; six seats. Each of the 13 payments a seat can make to a
    neighbour (8 trades, 5 scouts) may give that neighbour its year back and one more year end (HW-54): 78."""
    static_view_keys = ("layout",)

    # The rules functions themselves, as static methods: the hot ones cost no extra call.
    new_state = staticmethod(rules.new_state)
    pending = staticmethod(rules.pending)
    simultaneous = staticmethod(rules.simultaneous)
    legal = staticmethod(rules.legal)
    perform = staticmethod(rules.perform)
    view = staticmethod(views.view)
    determinize = staticmethod(views.determinize)
    secrets = staticmethod(views.secrets)

    def result(self, state: HadriansWallState) -> Result | None:
        if state.phase != PHASE_OVER:
            return None
        return scoring.result(state)

    def clone(self, state: HadriansWallState) -> HadriansWallState:
        return state.clone()

    def to_json(self, state: HadriansWallState) -> dict[str, Any]:
        return state.to_json()

    def from_json(self, data: Mapping[str, Any]) -> HadriansWallState:
        return HadriansWallState.from_json(data)

    def reveals(self, before: HadriansWallState, after: HadriansWallState, seat: Seat, move: Move,
                events: Sequence[Event]) -> bool:
        return rules.reveals(before, after)

    def explain(self, state: HadriansWallState, seat: Seat, move: Move) -> IllegalMove:
        return rules.explain(state, seat, move) or super().explain(state, seat, move)

    def view_text(self, view: Mapping[str, Any]) -> str:
        return views.text(dict(view))

    def move_text(self, state: HadriansWallState, seat: Seat, move: Move) -> str:
        return rules.move_text(move) or super().move_text(state, seat, move)


__all__ = ["HadriansWallGame"]
