"""Hadrian's Wall scoring (HW-48..HW-51): attribute boxes, guideline cards, disdain."""

from __future__ import annotations

from typing import Any

from ludoteca.engine import Result

from .components import ATTRIBUTES, CITIZENS, COHORTS, components

C = components()
SEC = C.section_index


def final_disdain(p: Any) -> int:
    """Disdain gained less the bribes that cancelled it (HW-34)."""
    return max(0, p.disdain - p.count[SEC["bribes"]])


def disdain_penalty(disdain: int) -> int:
    table = C.disdain_penalty
    return table[min(disdain, len(table) - 1)]


def measure(p: Any, goal: str) -> int:
    """The quantity a guideline card counts (HW-50)."""
    count = p.count
    if goal == "landmarks":
        return sum(count[SEC[s]] for s in ("archway", "monolith", "column", "statue"))
    if goal == "final_disdain":
        return final_disdain(p)
    if goal == "wall_sections":
        return count[SEC["wall"]] // 7
    if goal == "large_buildings":
        return sum(1 for b in C.large_boxes if p.boxes[b])
    if goal == "full_cohorts":
        return sum(1 for s in COHORTS if count[SEC[s]] >= 6)
    if goal == "production":
        return count[SEC["production"]]
    if goal == "goods":
        return count[SEC["goods"]]
    if goal == "citizen_tracks":
        return sum(1 for s in CITIZENS if count[SEC[s]] >= 9)
    if goal == "temples":
        return sum(1 for s, n in (("small_temple", 1), ("medium_temple", 3), ("large_temple", 3)) if count[SEC[s]] >= n)
    if goal == "scout_columns":
        cols = C.map_cols
        full = 0
        for c in range(cols):
            if all(p.map >> (r * cols + c) & 1 for r in range(C.map_rows)):
                full += 1
        return full
    if goal == "gladiator_strength":
        return count[SEC["gladiator_1"]] + count[SEC["gladiator_2"]]
    if goal == "wall_guard_sections":
        return count[SEC["wall_guard"]] // 6
    raise ValueError(goal)


_CARDS: dict[str, Any] = {}
"""Guideline cards by their dealt id ("<n>-<card>"), looked up once."""
_ATTRIBUTE_SECTIONS = tuple(SEC[a] for a in ATTRIBUTES)


def card_points(p: Any, card_id: str) -> int:
    card = _CARDS.get(card_id)
    if card is None:
        card = _CARDS[card_id] = C.card_index[card_id.split("-", 1)[1]]
    value = measure(p, card.goal)
    if card.goal == "final_disdain":
        return sum(1 for t in card.thresholds if value <= t)
    return sum(1 for t in card.thresholds if value >= t)


def score(state: Any, seat: int) -> dict[str, Any]:
    p = state.players[seat]
    attributes = {a: p.count[SEC[a]] for a in ATTRIBUTES}
    guidelines = {card: card_points(p, card) for card in p.guidelines}
    disdain = final_disdain(p)
    penalty = disdain_penalty(disdain)
    total = sum(attributes.values()) + sum(guidelines.values()) - penalty
    return {"total": total, "attributes": attributes, "guidelines": guidelines, "disdain": disdain,
            "disdain_penalty": penalty}


def total(state: Any, seat: int) -> int:
    """``score(state, seat)["total"]`` without the breakdown: the bots ask it very often."""
    p = state.players[seat]
    count = p.count
    points = sum(count[s] for s in _ATTRIBUTE_SECTIONS)
    for card in p.guidelines:
        points += card_points(p, card)
    return points - disdain_penalty(final_disdain(p))


def solo_rank(points: int) -> str:
    name = C.solo_ranks[0][1]
    for least, title in C.solo_ranks:
        if points >= least:
            name = title
    return name


def result(state: Any) -> Result:
    """HW-51: most points; ties: least disdain, then most guideline points."""
    details = [score(state, s) for s in range(state.seats)]
    scores = [d["total"] for d in details]
    tiebreak = [(-d["disdain"], sum(d["guidelines"].values())) for d in details]
    breakdown = []
    for d in details:
        entry = dict(d)
        if state.seats == 1:
            entry["solo_rank"] = solo_rank(d["total"])
        breakdown.append(entry)
    return Result.ranked(scores, tiebreak, breakdown)
