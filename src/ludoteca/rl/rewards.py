"""Terminal rewards shared by the PettingZoo and OpenSpiel adapters.

With N >= 2 seats, the final ranking is mapped linearly to [-1, 1]: the place p (0 for
first .. N-1 for last) is worth ``1 - 2p / (N - 1)``; seats tied for a rank share the
mean value of the places they occupy, so the rewards always sum to 0.

A one-seat game has no ranking: the score is scaled by the game's ``SOLO_SCALE`` (in its
research module, the score worth +1) to ``2 * score / SOLO_SCALE - 1``, clipped to
[-1, 1]. Solo Hadrian's Wall declares the threshold of its best solo rank (70 points,
Legatus Legionis): 0 points is -1, 35 points is 0, 70 points or more is +1.
"""

from __future__ import annotations

from ludoteca.engine import Result

from .vocab import game_module


def solo_scale(game_id: str) -> float:
    """The score worth +1 when one seat plays the game: its research module's ``SOLO_SCALE``."""
    scale = getattr(game_module(game_id), "SOLO_SCALE", None)
    if scale is None:
        # No neutral default exists: a scale that is wrong for the game's scores would
        # teach an agent on rewards stuck at one end of the range.
        raise ValueError(f"{game_id}: its research module declares no SOLO_SCALE (the score worth +1 solo)")
    return float(scale)


def rank_rewards(result: Result, game_id: str) -> list[float]:
    """Per seat, the reward of a finished game of ``game_id`` (see the module's doc)."""
    n = len(result.ranks)
    if n == 1:
        scaled = 2 * result.scores[0] / solo_scale(game_id) - 1
        return [max(-1.0, min(1.0, scaled))]
    out = []
    for rank in result.ranks:
        tied = sum(1 for other in result.ranks if other == rank)
        # a tie at rank r fills places r-1 .. r+tied-2; the mean value is that of the middle place
        middle = rank - 1 + (tied - 1) / 2
        out.append(1 - 2 * middle / (n - 1))
    return out
