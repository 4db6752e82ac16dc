"""Hadrian's Wall knowledge for the search bots (see ludoteca.bots.hooks).

Uniform random play ends most years after a few boxes (ending the year is one of about
ten moves), so random playouts say little about a position. The rollout policy keeps
filling boxes while it can, prefers boxes whose reward scores (attributes, cohorts,
hammers), spends favours that stop a breach, and ends the year only when little is
left. The evaluation scores what a seat has now, what its sheets still promise and the
stock it has yet to spend this year (so a seat that has not played its year yet is not
judged behind), and at two or more seats turns that into win shares with a spread that
narrows as the years run out. Both read only sheets, stocks and revealed cards: public
information, never a hand, a deck or a choice not yet revealed.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from operator import itemgetter
from typing import Any

from ludoteca.engine import Game, Move, Rng

from . import scoring
from .components import ATTRIBUTES, COHORTS, components

C = components()
_GOOD = frozenset((*ATTRIBUTES, "cohort", "production", "favour", "sword"))
GOOD_BOXES = frozenset(box.id for box in C.boxes if _GOOD.intersection(box.reward))
ROLLOUT_DEPTH = 120
"""Playouts stop after this many decisions; evaluate scores the state. Measured with
bench/bots_strength.py, 40 iterations, 2 seats against greedy, 6 seat-rotated games, with
this evaluation: 120 won 4 of 6 (37.0 points against 31.7), 8 won 2 of 6 (28.0 against
34.7) at 2.4x the iterations per second. Solo at 100 iterations, 120 scored 54.0 and 8
scored 48.8 over 4 games. One depth serves every seat count (hooks reads a constant)."""
OTHERS_BY_POLICY = False
"""Tried on and measured off (docs/bots.md): playing the other seats' fills of a
year by the rollout policy makes the tree follow our own fills, but each iteration then
plays the other seats' years too (278 against 412 iterations per CPU second), and at 3
seats against greedy bots it did no better: at 150 iterations per decision, the same six
deals, it won 2 (mean 44.7) where the fully searched tree won 3 (mean 51.2)."""
STOCK_VALUE = 0.8
"""Points per unspent worker or resource of a seat still playing its year. Seats play a
year one after the other (the first pending seat goes first), so mid-year one seat has
turned its stock into boxes while the other still holds it; without this term the seat
that has played looks about 7 points better. Fitted on 400 two-seat rollout-policy games
(final score less the estimate against the stock: slope 1.4 in year 1, 0.7 in year 6;
likelihood of the winner best at 0.8-1.0). It also makes ending the year with stock left
look as wasteful as it is (the stock is lost at the attack). Two or more seats only."""
PRIOR = "greedy"
"""The search's moves start from the greedy bot's one-ply values: a fill is
judged after up to six more fills of the same seat chosen greedily, so a box that opens a
better one is seen, and the other seats' moves are ranked as the greedy bots that play
them rank them. The evaluation right after a single fill (the default prior) sees neither."""
PRIOR_DEPTH = 1
"""The greedy prior serves the root's moves only: its chain costs about a greedy decision
per node (3.49 -> 3.63 ms per iteration at depth 1, 4.59 at depth 2, 11.5 at depth 4, on
the same six mid-game decisions at 400 iterations); deeper nodes keep the evaluation after
the move."""
PRIOR_VISITS = 10.0
"""The greedy prior is worth this many playouts (the evaluation prior: 3). At the root,
400 iterations give each of some 25 moves about 16 visits, so a prior worth 3 barely
moves the choice (6 seat-rotated games at 400 iterations: 1 won, where the same deals
without it gave 3, and worth 10 gave 5); worth 10, the search starts from the greedy bot's
choice and leaves it where the playouts disagree."""
REVIEW_ITERATIONS = (200, 50)
"""The post-game review's iterations per decision (search, then each compared move): a
seat makes about 130 decisions a game and an iteration costs 1.3-2.4 ms, so fewer than in
the other games keep a review within a couple of minutes (bench/review_cost.py)."""
REVIEW_POINTS = (3.0, 6.0, 12.0)
"""Expected final points lost from which a move is an inaccuracy, a mistake, a blunder:
final scores run from about 30 to 80."""
SPREAD_END = 4.0
SPREAD_PER_YEAR = 1.5
"""The softmax's spread (points of lead that make a win e times likelier) is SPREAD_END +
SPREAD_PER_YEAR * the years left: best-likelihood spreads on the same 400 games were
about 4 at the last attack, 5-7 in years 5-6, 8-10 in years 3-4 and 12-20 in years 1-2.
The former fixed 4 called a 5-point lead in year 2 a 78% win (the fit: about 62%) and
saturated at 0.99 within a dozen points, mid-year bias included, which left the playouts'
values little to say."""


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


# A section's count rises exactly when one of its boxes is filled (sheets.fill), so the
# filled boxes are counted per section, not box by box (the greedy bot's hot loop).
_SHEET_SECTIONS = tuple(s.index for s in C.sections if not s.earned)
_sheet_counts = itemgetter(*_SHEET_SECTIONS)
_COHORT_SECTIONS = tuple(C.section_index[c] for c in COHORTS)
_INCOME = tuple(C.section_index[s] for s in ("production", "inn", "workshop", "road"))
_income_counts = itemgetter(*_INCOME)


def _estimate(state: Any, seat: int, stock_value: float = 0.0) -> float:
    """Points now, plus what the sheets promise: filled boxes open the way to more, cohorts
    earn valour, income buys more boxes in the years left; plus ``stock_value`` per unit
    of stock the seat may still spend this year."""
    p = state.players[seat]
    now = scoring.total(state, seat)
    before_attack = state.phase in ("choose", "main")
    years_left = _years_left(state)
    count = p.count
    favour = p.temple_favours / 3.0
    left, centre, right = (count[s] + (p.dir_favours[i] + favour) * 0.5 for i, s in enumerate(_COHORT_SECTIONS))
    threat = 0.0
    for year in range(state.year + (0 if before_attack else 1), 7):
        cards = C.years[year - 1][state.difficulty] + (p.extra_picts if year == state.year else 0)
        weight = 2.5 if year == state.year else 1.0
        share = cards / 3.0  # the Picts coming at each of the three cohorts
        threat += weight * ((share - left if share > left else 0.0) + (share - centre if share > centre else 0.0)
                            + (share - right if share > right else 0.0))
    progress = sum(_sheet_counts(count))
    income = sum(_income_counts(count))
    # Stock is public (every fill shows its cost); it is cleared at the attack, so it only
    # counts while the seat may still spend it.
    stock = sum(p.stock) if stock_value and state.phase == "main" and not p.ended else 0
    return now + 0.3 * progress + years_left * (3.0 + 0.6 * income) - threat + stock_value * stock


def _years_left(state: Any) -> int:
    """Years whose production and attack are still to come, this one included until its
    attack."""
    return 6 - state.year + (1 if state.phase in ("choose", "main") else 0)


def estimate_points(state: Any) -> list[float]:
    """Each seat's expected final points (the post-game review reads them)."""
    value = STOCK_VALUE if state.seats > 1 else 0.0
    return [_estimate(state, seat, value) for seat in range(state.seats)]


def evaluate(game: Game[Any], state: Any) -> list[float]:
    """Solo: the expected final score. Otherwise each seat's expected win share: a softmax
    of the estimates whose spread narrows as the game runs out (see SPREAD_END)."""
    if state.seats == 1:
        # Solo has no seats to compare, and STOCK_VALUE (which also reorders the priors of
        # sibling fills by their cost) scored 52.0 against 54.0 without it over the same
        # 4 deals at 100 iterations: no evidence it helps, so solo keeps the plain estimate.
        return [_estimate(state, 0)]
    estimates = [_estimate(state, seat, STOCK_VALUE) for seat in range(state.seats)]
    spread = SPREAD_END + SPREAD_PER_YEAR * _years_left(state)
    top = max(estimates)
    weights = [math.exp((e - top) / spread) for e in estimates]
    total = sum(weights)
    # The bare softmax, not hooks.estimate_from_points: its place term (0.1 of the value)
    # jumps from 0 to 1 as one estimate crosses another, and the search spreads sibling
    # priors over [0, 1], so a fraction of a point would look like the best against the
    # worst move. At two seats the expected place is the win share anyway.
    return [w / total for w in weights]
