"""A finished game's result as stored: the engine's, with the seats that resigned ranked
last."""

from __future__ import annotations

from typing import Any

from ludoteca.server.tables.snapshot import resigned_seats


def with_resignations(result: dict[str, Any], resigned: list[dict[str, int]] | None) -> dict[str, Any]:
    """The engine's result with the resigners ranked last: the others keep their order
    among themselves (ties shared), the first to resign ranks last of all."""
    order = resigned_seats(resigned)
    if not order:
        return result
    ranks = list(result["ranks"])
    others = [seat for seat in range(len(ranks)) if seat not in order]
    new = [0] * len(ranks)
    for seat in others:
        new[seat] = 1 + sum(1 for other in others if ranks[other] < ranks[seat])
    for place, seat in enumerate(reversed(order)):
        new[seat] = len(others) + 1 + place
    return {**result, "ranks": new, "winners": [seat for seat, rank in enumerate(new) if rank == 1],
            "resigned": order}


def ended_by_resignation(seats: int, resigned: list[dict[str, int]]) -> dict[str, Any]:
    """The result of a game that ended because one seat was left: no final scoring, the
    standing seat first, the resigners after it."""
    base = {"scores": [0] * seats, "ranks": [1] * seats, "winners": [], "tiebreak": [], "breakdown": [],
            "ended": "resigned"}
    return with_resignations(base, resigned)
