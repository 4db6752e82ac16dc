"""Hadrian's Wall knowledge for the search bots (see ludoteca.bots.hooks).

Uniform random play ends most years after a few boxes (ending the year is one of about
ten moves), so random playouts say little about a position. The rollout policy keeps
filling boxes while it can, prefers boxes whose reward scores (attributes, cohorts,
hammers), spends favours that stop a breach, and ends the year only when little is
left. The evaluation scores what a seat has now and what its sheets still promise. Both
read only the deciding seat's own sheets and what is public.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from ludoteca.engine import Game, Move, Rng

from . import scoring
from .components import ATTRIBUTES, COHORTS, components

C = components()
_GOOD = frozenset((*ATTRIBUTES, "cohort", "production", "favour", "sword"))
GOOD_BOXES = frozenset(box.id for box in C.boxes if _GOOD.intersection(box.reward))
ROLLOUT_DEPTH = 120
"""Playouts stop after this many decisions; evaluate scores the state."""


def rollout_policy(game: Game[Any], state: Any, seat: int, legal: Sequence[Move], rng: Rng) -> Move:
    if len(legal) == 1:
        return legal[0]
    kind = legal[0].get("type")
    if kind == "favour":
        return legal[0] if rng.below(4) else rng.choice(legal)
    if kind == "fill" or legal[-1].get("type") == "end_year":
        fills = [m for m in legal if m["type"] == "fill"]
        if not fills or rng.below(20) == 0:
            return legal[-1]
        good = [m for m in fills if m["box"] in GOOD_BOXES]
        if good and rng.below(3):
            return rng.choice(good)
        return rng.choice(fills)
    if kind == "cohort":
        p = state.players[seat]
        counts = [p.count[C.section_index[c]] for c in COHORTS]
        options = [m for m in legal if m["type"] == "cohort"]
        return min(options, key=lambda m: counts[("left", "centre", "right").index(m["cohort"])])
    return rng.choice(legal)


_EARNED = frozenset(s.index for s in C.sections if s.earned)
_SHEET_BOXES = tuple(b.index for b in C.boxes if b.section not in _EARNED)
_INCOME = tuple(C.section_index[s] for s in ("production", "inn", "workshop", "road"))


def _estimate(state: Any, seat: int) -> float:
    """Points now, plus what the sheets promise: filled boxes open the way to more, cohorts
    earn valour, income buys more boxes in the years left."""
    p = state.players[seat]
    now = scoring.score(state, seat)["total"]
    before_attack = state.phase in ("choose", "main")
    years_left = 6 - state.year + (1 if before_attack else 0)
    cohorts = [p.count[C.section_index[c]] + (p.dir_favours[i] + p.temple_favours / 3.0) * 0.5
               for i, c in enumerate(COHORTS)]
    threat = 0.0
    for year in range(state.year + (0 if before_attack else 1), 7):
        cards = C.years[year - 1][state.difficulty] + (p.neutral_items if year == state.year else 0)
        weight = 2.5 if year == state.year else 1.0
        threat += weight * sum(max(0.0, cards / 3.0 - c) for c in cohorts)
    progress = sum(1 for b in _SHEET_BOXES if p.boxes[b])
    income = sum(p.count[s] for s in _INCOME)
    return now + 0.3 * progress + years_left * (3.0 + 0.6 * income) - threat


def evaluate(game: Game[Any], state: Any) -> list[float]:
    """Solo: the expected final score. Otherwise a softmax of the estimates (win share)."""
    estimates = [_estimate(state, seat) for seat in range(state.seats)]
    if state.seats == 1:
        return estimates
    top = max(estimates)
    weights = [math.exp((e - top) / 4.0) for e in estimates]
    total = sum(weights)
    return [w / total for w in weights]
