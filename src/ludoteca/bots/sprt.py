"""A sequential probability ratio test on a bot's win share, as chess-engine testing
frameworks run them: play until the evidence decides between two hypotheses, then stop.

H0: the share is ``p0``; H1: the share is ``p1`` (usually p0 < p1). With error rates
``alpha`` (accepting H1 when H0 holds) and ``beta`` (accepting H0 when H1 holds), Wald's
bounds are ``lower = log(beta / (1 - alpha))`` and ``upper = log((1 - beta) / alpha)``.

Shares are fractional (a tie shares the win) and a tournament deals each seed to every
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


def _verdict(ratio: float, lower: float, upper: float) -> str:
    if ratio >= upper:
        return ACCEPT_H1
    if ratio <= lower:
        return ACCEPT_H0
    return UNDECIDED


def _check_rates(alpha: float, beta: float) -> None:
    for name, value in (("alpha", alpha), ("beta", beta)):
        if not 0.0 < value < 0.5:
            raise ValueError(f"{name} must lie strictly between 0 and 0.5, not {value}")


@dataclass(frozen=True)
class Sprt:
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
        if self.p0 == self.p1:
            raise ValueError("p0 and p1 must differ")
        _check_rates(self.alpha, self.beta)

    @property
    def lower(self) -> float:
        return wald_bounds(self.alpha, self.beta)[0]

    @property
    def upper(self) -> float:
        return wald_bounds(self.alpha, self.beta)[1]

    def llr(self, deals: Sequence[float], games_per_deal: int = 1) -> float:
        """The log-likelihood ratio of H1 against H0 after ``deals`` (mean shares of
        ``games_per_deal`` games each)."""
        n = len(deals)
        if n < _MIN_DEALS:
            return 0.0
        # Before any spread shows (every deal alike so far) the ratio would be infinite: the
        # variance is at least that of independent games at the hypotheses' midpoint.
        mid = (self.p0 + self.p1) / 2
        variance = max(statistics.variance(deals), mid * (1 - mid) / games_per_deal)
        return (self.p1 - self.p0) * (math.fsum(deals) - n * (self.p0 + self.p1) / 2) / variance

    def verdict(self, deals: Sequence[float], games_per_deal: int = 1) -> str:
        """ACCEPT_H1, ACCEPT_H0, or UNDECIDED while the ratio lies between the bounds."""
        return _verdict(self.llr(deals, games_per_deal), self.lower, self.upper)

    def describe(self) -> str:
        return f"H0: share = {self.p0:.3g}, H1: share = {self.p1:.3g}, alpha = {self.alpha:g}, beta = {self.beta:g}"


@dataclass(frozen=True)
class ScoreSprt:
    """The test on a mean score (solo games): H0 says the mean is ``m0``, H1 says ``m1``.
    Games are the unit (a solo game is its own deal); the variance is the sample's, at
    least one point squared, and nothing is decided before ten games."""

    m0: float
    m1: float
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        if self.m0 == self.m1:
            raise ValueError("m0 and m1 must differ")
        _check_rates(self.alpha, self.beta)

    @property
    def lower(self) -> float:
        return wald_bounds(self.alpha, self.beta)[0]

    @property
    def upper(self) -> float:
        return wald_bounds(self.alpha, self.beta)[1]

    def llr(self, scores: Sequence[float]) -> float:
        n = len(scores)
        if n < _MIN_SCORES:
            return 0.0
        variance = max(statistics.variance(scores), 1.0)
        return (self.m1 - self.m0) * (math.fsum(scores) - n * (self.m0 + self.m1) / 2) / variance

    def verdict(self, scores: Sequence[float]) -> str:
        return _verdict(self.llr(scores), self.lower, self.upper)

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
