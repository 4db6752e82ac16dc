"""The match's random generator: small, seeded, serialisable, cheap to copy.

Python's ``random.Random`` carries 2.5 KB of state, which would dominate the cost of
cloning a game state thousands of times a second. SplitMix64 keeps one 64-bit integer,
passes BigCrush, and gives the same sequence on every platform and Python version.
"""

from __future__ import annotations

from collections.abc import MutableSequence, Sequence
from typing import TypeVar

T = TypeVar("T")

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


class Rng:
    """A deterministic generator whose whole state is one integer plus a draw count.

    ``draws`` counts every number produced; the undo policy uses it to tell whether a
    move consumed randomness (a shuffle, a draw), which can never be taken back.
    """

    __slots__ = ("draws", "state")

    def __init__(self, seed: int = 0, draws: int = 0) -> None:
        self.state = seed & _MASK
        self.draws = draws

    def next64(self) -> int:
        self.draws += 1
        self.state = z = (self.state + _GOLDEN) & _MASK
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in [0, n). The modulo bias is below 2**-40 for n < 2**24."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        # next64 inlined: bots and playouts draw on every decision (same numbers, fewer calls)
        self.draws += 1
        self.state = z = (self.state + _GOLDEN) & _MASK
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return (z ^ (z >> 31)) % n

    def randint(self, low: int, high: int) -> int:
        """A uniform integer in [low, high], both ends included."""
        return low + self.below(high - low + 1)

    def choice(self, items: Sequence[T]) -> T:
        n = len(items)
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        self.draws += 1
        self.state = z = (self.state + _GOLDEN) & _MASK
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return items[(z ^ (z >> 31)) % n]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher-Yates, in place."""
        z = self.state
        for i in range(len(items) - 1, 0, -1):
            z = (z + _GOLDEN) & _MASK
            x = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
            x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _MASK
            j = (x ^ (x >> 31)) % (i + 1)
            items[i], items[j] = items[j], items[i]
        self.draws += max(0, len(items) - 1)
        self.state = z

    def sample(self, items: Sequence[T], k: int) -> list[T]:
        pool = list(items)
        self.shuffle(pool)
        return pool[:k]

    def fork(self) -> Rng:
        """An independent generator seeded from this one (for bots' own randomness)."""
        return Rng(self.next64())

    def copy(self) -> Rng:
        return Rng(self.state, self.draws)

    def to_json(self) -> list[int]:
        return [self.state, self.draws]

    @classmethod
    def from_json(cls, data: Sequence[int]) -> Rng:
        return cls(int(data[0]), int(data[1]))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Rng) and (self.state, self.draws) == (other.state, other.draws)

    def __repr__(self) -> str:
        return f"Rng(state={self.state}, draws={self.draws})"
