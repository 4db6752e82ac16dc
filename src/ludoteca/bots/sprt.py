"""A sequential probability ratio test on a bot's win share, as chess-engine testing
frameworks run them: play until the evidence decides between two hypotheses, then stop.

H0: the share is ``p0``; H1: the share is ``p1`` (usually p0 < p1). With error rates
``alpha`` (accepting H1 when H0 holds) and ``beta`` (accepting H0 when H1 holds), Wald's
bounds are ``lower = log(beta / (1 - alpha))`` and ``upper = log((1 - beta) / alpha)``.

Shares are fractional (a tie shares the win) and a series deals each seed to every
seat in turn, so the games of one deal are not independent. The unit of the test is
therefore one deal: the entry's mean share over the N seat-rotated games of a seed (as
fishtest scores game pairs). The log-likelihood ratio is the generalised SPRT's normal
approximation, ``(p1 - p0) * (sum(x) - n * (p0 + p1) / 2) / var``, with the variance
estimated from the deals played so far, which is what makes it sound for fractional,
correlated outcomes (Van den Bergh, "A generalised SPRT", 2016).

``ScoreSprt`` is the same test on a mean score, for solo games, which have no win share.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

ACCEPT_H0 = "H0"
ACCEPT_H1 = "H1"
UNDECIDED = "undecided"

# A variance needs two deals.
_MIN_DEALS = 2
# A score's variance from fewer games is too often far too small (every game alike so far).
_MIN_SCORES = 10


def wald_bounds(alpha: float, beta: float) -> tuple[float, float]:
    """Wald's (lower, upper) bounds on the log-likelihood ratio for error rates alpha, beta."""
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


def _normal_llr(values: Sequence[float], h0: float, h1: float, variance: float) -> float:
    """The generalised SPRT's ratio for the mean of ``values``: H1 (mean h1) against H0."""
    return (h1 - h0) * (math.fsum(values) - len(values) * (h0 + h1) / 2) / variance


class _Wald:
    """Bounds and verdict shared by the two tests (their fields hold ``alpha`` and ``beta``)."""

    alpha: float
    beta: float

    def _check(self, h0: float, h1: float, names: str) -> None:
        if h0 == h1:
            raise ValueError(f"{names} must differ")
        for name, value in (("alpha", self.alpha), ("beta", self.beta)):
            if not 0.0 < value < 0.5:
                raise ValueError(f"{name} must lie strictly between 0 and 0.5, not {value}")

    @property
    def lower(self) -> float:
        return wald_bounds(self.alpha, self.beta)[0]

    @property
    def upper(self) -> float:
        return wald_bounds(self.alpha, self.beta)[1]

    def decide(self, ratio: float) -> str:
        """ACCEPT_H1 at or above the upper bound, ACCEPT_H0 at or below the lower, else UNDECIDED."""
        if ratio >= self.upper:
            return ACCEPT_H1
        if ratio <= self.lower:
            return ACCEPT_H0
        return UNDECIDED


@dataclass(frozen=True)
class Sprt(_Wald):
    """The test's settings. ``p0`` and ``p1`` are win shares in (0, 1), distinct."""

    p0: float
    p1: float
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        for name in ("p0", "p1"):
            value = getattr(self, name)
            if not 0.0 < value < 1.0:
                raise ValueError(f"{name} must lie strictly between 0 and 1, not {value}")
        self._check(self.p0, self.p1, "p0 and p1")

    def llr(self, deals: Sequence[float], games_per_deal: int = 1) -> float:
        """The log-likelihood ratio of H1 against H0 after ``deals`` (mean shares of
        ``games_per_deal`` games each)."""
        if len(deals) < _MIN_DEALS:
            return 0.0
        # Before any spread shows (every deal alike so far) the ratio would be infinite: the
        # variance is at least that of independent games at the hypotheses' midpoint.
        mid = (self.p0 + self.p1) / 2
        variance = max(statistics.variance(deals), mid * (1 - mid) / games_per_deal)
        return _normal_llr(deals, self.p0, self.p1, variance)

    def verdict(self, deals: Sequence[float], games_per_deal: int = 1) -> str:
        """ACCEPT_H1, ACCEPT_H0, or UNDECIDED while the ratio lies between the bounds."""
        return self.decide(self.llr(deals, games_per_deal))

    def describe(self) -> str:
        return f"H0: share = {self.p0:.3g}, H1: share = {self.p1:.3g}, alpha = {self.alpha:g}, beta = {self.beta:g}"


@dataclass(frozen=True)
class ScoreSprt(_Wald):
    """The test on a mean score (solo games): H0 says the mean is ``m0``, H1 says ``m1``.
    Games are the unit (a solo game is its own deal); the variance is the sample's, at
    least one point squared, and nothing is decided before ten games."""

    m0: float
    m1: float
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        self._check(self.m0, self.m1, "m0 and m1")

    def llr(self, scores: Sequence[float]) -> float:
        if len(scores) < _MIN_SCORES:
            return 0.0
        return _normal_llr(scores, self.m0, self.m1, max(statistics.variance(scores), 1.0))

    def verdict(self, scores: Sequence[float]) -> str:
        return self.decide(self.llr(scores))

    def describe(self) -> str:
        return f"H0: mean = {self.m0:g}, H1: mean = {self.m1:g}, alpha = {self.alpha:g}, beta = {self.beta:g}"


def deal_means(shares: Sequence[float], players: int) -> list[float]:
    """The entry's mean share per complete deal (a block of ``players`` rotated games)."""
    complete = len(shares) - len(shares) % players
    return [statistics.fmean(shares[i:i + players]) for i in range(0, complete, players)]


def parse_hypotheses(text: str) -> tuple[float, float]:
    """``"0.55,0.65"`` -> (0.55, 0.65); ValueError names what is wrong."""
    parts = [part.strip() for part in text.split(",")]
    if len(parts) != 2:
        raise ValueError(f"--sprt takes P0,P1 (two win shares), not {text!r}")
    try:
        return float(parts[0]), float(parts[1])
    except ValueError:
        raise ValueError(f"--sprt takes P0,P1 (two numbers), not {text!r}") from None
