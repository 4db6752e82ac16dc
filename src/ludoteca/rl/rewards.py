"""Terminal rewards shared by the PettingZoo and OpenSpiel adapters.

With N >= 2 seats, the final ranking is mapped linearly to [-1, 1]: the place p (0 for
first .. N-1 for last) is worth ``1 - 2p / (N - 1)``; seats tied for a rank share the
mean value of the places they occupy, so the rewards always sum to 0.

Solo Hadrian's Wall has no ranking: the score is scaled by the threshold of the best
solo rank (70 points, Legatus Legionis, in the game's data) to ``2 * score / 70 - 1``,
clipped to [-1, 1]: 0 points is -1, 35 points is 0, 70 points or more is +1.
"""

from __future__ import annotations

from ludoteca.engine import Result


def solo_scale() -> int:
    """The score worth +1 in solo Hadrian's Wall: the best solo rank's threshold."""
    from ludoteca.games.hadrianswall.components import components

    return max(points for points, _ in components().solo_ranks)


def rank_rewards(result: Result) -> list[float]:
    """Per seat, the reward of a finished game (see the module's doc)."""
    n = len(result.ranks)
    if n == 1:
        scaled = 2 * result.scores[0] / solo_scale() - 1
        return [max(-1.0, min(1.0, scaled))]
    out = []
    for rank in result.ranks:
        tied = sum(1 for other in result.ranks if other == rank)
        # a tie at rank r fills places r-1 .. r+tied-2; the mean value is that of the middle place
        middle = rank - 1 + (tied - 1) / 2
        out.append(1 - 2 * middle / (n - 1))
    return out
