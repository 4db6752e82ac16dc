"""Blood Rage (Eric M. Lang, CMON, 2015): Viking clans draft the gods' gifts, invade,
pillage and die gloriously before Ragnarok. Game id ``bloodrage``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ludoteca.engine import Rng

from .rules import BloodRageGameBase
from .state import BRState
from .views import determinize, move_text, secrets, view, view_text


class BloodRageGame(BloodRageGameBase):
    def view(self, state: BRState, seat: int | None) -> dict[str, Any]:
        return view(state, seat)

    def secrets(self, state: BRState) -> dict[int | None, set[str]]:
        return secrets(state)

    def determinize(self, state: BRState, seat: int, rng: Rng) -> BRState:
        return determinize(state, seat, rng)

    def move_text(self, state: BRState, seat: int, move: dict[str, Any]) -> str:
        return move_text(state, seat, move)

    def view_text(self, view: Mapping[str, Any]) -> str:
        return view_text(dict(view))


__all__ = ["BRState", "BloodRageGame"]
