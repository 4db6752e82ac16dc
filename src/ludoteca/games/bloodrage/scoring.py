"""Final scoring (BR-80..BR-82): legendary stat bonuses and Thor's Conquest, with the breakdown."""

from __future__ import annotations

from typing import Any

from ludoteca.engine import Event

from .board import has_upgrade, on_board
from .components import LEGENDARY, STATS
from .state import BRState


def legendary_bonus(state: BRState, seat: int) -> dict[str, int]:
    return {STATS[k]: LEGENDARY[state.stats[seat][k]] for k in range(3)}


def final_scoring(state: BRState, ev: list) -> None:
    for s in range(state.n):
        bonus = legendary_bonus(state, s)
        conquest = 3 * on_board(state, s) if has_upgrade(state, s, "thors_conquest") else 0
        total = sum(bonus.values()) + conquest
        state.glory[s] += total
        ev.append(Event("br.final_bonus", {"seat": s, **bonus, "thors_conquest": conquest, "glory": state.glory[s]}))


def breakdown(state: BRState) -> list[dict[str, Any]]:
    out = []
    for s in range(state.n):
        bonus = legendary_bonus(state, s)
        conquest = 3 * on_board(state, s) if has_upgrade(state, s, "thors_conquest") else 0
        out.append({"glory": state.glory[s], "before_bonus": state.glory[s] - sum(bonus.values()) - conquest,
                    "legendary": bonus, "thors_conquest": conquest})
    return out
