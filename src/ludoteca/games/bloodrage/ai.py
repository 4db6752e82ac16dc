"""Blood Rage knowledge for the search bots (see ludoteca.bots.hooks).

The rollout policy keeps playouts closer to real games than uniform random play: it
rarely passes while other actions remain, plays its strongest battle card, and tries
pillages more often. It reads only what the deciding seat may see.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ludoteca.engine import Game, Move, Rng

from .components import CARDS


def rollout_policy(game: Game[Any], state: Any, seat: int, legal: Sequence[Move], rng: Rng) -> Move:
    if len(legal) == 1:
        return legal[0]
    kind = legal[0].get("type")
    if kind == "play":
        best = max(legal, key=lambda m: CARDS[m["card"]].str if CARDS[m["card"]].type == "battle" else -1)
        return best if rng.below(4) else rng.choice(legal)
    if legal[-1].get("type") == "pass" and rng.below(10):
        pillages = [m for m in legal if m["type"] == "pillage"]
        if pillages and rng.below(3) == 0:
            return rng.choice(pillages)
        return legal[rng.below(len(legal) - 1)]
    return rng.choice(legal)
