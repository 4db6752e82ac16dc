"""Iwari knowledge for the search bots (see ludoteca.bots.hooks).

Uniform random play wastes most of an Iwari turn: it discards about one turn in four
while it could place, ends moves early with "done", pays with pairs where one card
would do, scatters tents with no eye on majorities or settlements, and moves the third
tribe (2 seats) wherever. The rollout policy places where a tent wins, ties or extends a
majority (the deciding seat's gain minus its rivals', counted twice before the
half-journey scoring), builds tents next to its own (settlements), pays with one card
when it can, draws display cards that pair with its hand, and moves the third tribe
where it hurts the rivals most. It keeps one move in four random so playouts still
explore.

The evaluation scores what the board would give if the journey ended now (tent
majorities, once more if the half-journey scoring is still to come; totem
connections; settlements, and half of every 3-tent group), adds the points already
scored, and turns the estimates into win expectations with a spread that shrinks as
the deck runs down.

Both read only what the deciding seat may see: the board, the counts, the scores, the
sizes of piles and hands, and the acting seat's own hand (never another hand, never the
deck's contents or order).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ludoteca.bots.hooks import estimate_from_points
from ludoteca.engine import Game, Move, Rng

from .components import DISCOVERY, UNION, cards
from .rules import CARD_INDEX
from .scoring import HOLDERS, MAJORITY, holders_of, majority_of, per_territory
from .state import DRAW, FEAT, PAY, PIECE, START, THIRD, IwariState

ROLLOUT_DEPTH = 40
"""Playouts stop after this many decisions (about five turns at 2 seats, where a turn is
7-9 decisions) and evaluate scores the state. Measured with bench/bots_strength.py, 2
seats against greedy, 100 iterations, 8 seat-rotated games per row (small samples):
depth 8 won 1 of 8, 16 won 9 of 16 (two seeds), 40 won 11 of 16, 100 won 1 of 8; no
hooks at all won 2 of 16. Deeper playouts add noise and cost (240 iter/s at 100, 580 at
40, 900 at 16); very short ones leave too much to the evaluation's guess."""

REVIEW_ITERATIONS = (800, 200)
"""The post-game review's iterations per decision (search, then each compared move),
measured with bench/review_cost.py: a 3-seat game's review of one seat then takes about a
minute of one core, within the two minutes a player should wait at most."""
REVIEW_POINTS = (2.0, 4.0, 7.0)
"""Expected final points lost from which a move is an inaccuracy, a mistake, a blunder:
final scores run from about 40 to 70."""

_CARD_BIOME = cards().biome
_RANDOM_ONE_IN = 4
"""One move in this many is uniform random: playouts must still explore, and a fully
greedy policy would make every playout of a sample the same."""


# -- shared arithmetic -----------------------------------------------------------------


def _majority(counts: list[int]) -> tuple[int, ...]:
    """IW-13 tent points per tribe (scoring.majority_points), from the shared table: every
    tribe present scores the tent count of the rank above it, the leaders all tents."""
    key = tuple(counts)
    return MAJORITY.get(key) or majority_of(key)


def _tent_gain(state: IwariState, territory: int, tribe: int, seat: int) -> float:
    """How much one more tent of ``tribe`` in ``territory`` improves ``seat``'s tent points
    against the average rival seat's, per scoring (times the territory's factor)."""
    tribes = state.tribes
    base = territory * tribes
    counts = tuple(state.tent_count[base:base + tribes])
    gain = _GAINS.get((counts, tribe, seat, state.seats))
    if gain is None:
        gain = _gain(counts, tribe, seat, state.seats)
    return gain * state.territory_factor[territory]


def _gain(counts: tuple[int, ...], tribe: int, seat: int, seats: int) -> float:
    """_tent_gain before the territory's factor, from the tent ``counts`` there (kept in _GAINS)."""
    before = _majority(list(counts))
    raised = list(counts)
    raised[tribe] += 1
    after = _majority(raised)
    mine = after[seat] - before[seat]
    others = sum(after[s] - before[s] for s in range(seats) if s != seat) / (seats - 1)
    gain = _GAINS[counts, tribe, seat, seats] = mine - others
    return gain


_GAINS: dict[tuple[tuple[int, ...], int, int, int], float] = {}
"""_tent_gain before the territory's factor, per (tent counts, tribe, seat, seats): the
playouts ask for it for every open territory at every placement, and few distinct keys
occur (a territory has a few tent spaces)."""


# -- the rollout policy ----------------------------------------------------------------


def rollout_policy(game: Game[Any], state: IwariState, seat: int, legal: Sequence[Move], rng: Rng) -> Move:
    """The move ``seat`` plays in a playout: a cheap phase-by-phase heuristic, random one
    move in four. Reads the board, the counts and ``seat``'s own hand only."""
    if len(legal) == 1:
        return legal[0]
    if rng.below(_RANDOM_ONE_IN) == 0:
        # Still never a discard while a placement is possible: it only throws a turn away.
        if state.phase == START and legal[0]["type"] == "territory":
            return legal[rng.below(_territories(legal))]
        return rng.choice(legal)
    phase = state.phase
    if phase == PAY:
        # The payments list the single cards of the biome first: one card is cheaper than a
        # pair and leaves more of the hand for a second piece or the third tribe.
        return legal[0]
    if phase in (START, THIRD):
        return _territory(state, seat, legal, rng)
    if phase == PIECE:
        return _piece(state, seat, legal, rng)
    if phase == DRAW:
        return _draw(state, seat, legal, rng)
    if phase == FEAT:
        return _feat(state, seat, legal)
    return rng.choice(legal)


def _territories(legal: Sequence[Move]) -> int:
    """How many of the first moves are territory moves (they come before discards)."""
    n = 0
    for move in legal:
        if move["type"] != "territory":
            break
        n += 1
    return n


def _territory(state: IwariState, seat: int, legal: Sequence[Move], rng: Rng) -> Move:
    """Where to place (own move or the third tribe's): the best tent gain for ``seat``."""
    n = _territories(legal)
    if n == 0:
        # Nothing to place: discard a card of the biome the hand holds fewest of (a pair
        # pays anywhere, so pairs are worth keeping).
        if legal[0]["type"] != "discard":
            return legal[0]
        hand = state.hands[seat]
        counts = [0, 0, 0, 0, 0]
        for card in hand:
            counts[_CARD_BIOME[card]] += 1
        return min(legal, key=lambda m: counts[_CARD_BIOME[CARD_INDEX[m["card"]]]])
    board = state.board
    index = board.territory_index
    biome_of = board.territory_biome
    tribe = state.tribe
    twice = 2.0 if state.half is None else 1.0  # the half-journey scoring counts the board once more
    own = tribe == seat
    have = [0, 0, 0, 0, 0]
    if own:
        for card in state.hands[seat]:
            have[_CARD_BIOME[card]] += 1
    # _tent_gain, inlined: every territory's counts at once (in C), the gains from _GAINS
    rows = list(per_territory(state.tent_count, state.tribes))
    factor = state.territory_factor
    free = state.free
    seats = state.seats
    gains = _GAINS
    best: list[int] = []
    best_value = -1e9
    for i in range(n):
        t = index[legal[i]["territory"]]
        if free[t]:
            gain = gains.get((rows[t], tribe, seat, seats))
            if gain is None:
                gain = _gain(rows[t], tribe, seat, seats)
            value = twice * (gain * factor[t])
        else:
            value = 0.0
        if own:
            if state.pieces_in[t]:
                value += 0.5  # an explored territory takes two pieces
            if have[biome_of[t]]:
                value += 0.5  # paid with one card, not a pair
        if value > best_value + 1e-9:
            best, best_value = [i], value
        elif value > best_value - 1e-9:
            best.append(i)
    return legal[best[rng.below(len(best))] if len(best) > 1 else best[0]]


def _piece(state: IwariState, seat: int, legal: Sequence[Move], rng: Rng) -> Move:
    """Which piece: a totem where ``seat``'s tribe does not lead the territory's totems yet
    (the totem ties, takes or closes in on the majority a connection needs), else a tent
    next to the tribe's own tents (settlements); "done" only when the third tribe would
    only help the rivals."""
    tribe = state.tribe
    t = state.territory
    tribes = state.tribes
    last = legal[-1]["type"]
    if tribe != seat and last == "done" and _tent_gain(state, t, tribe, seat) < 0:
        # The third tribe's second piece: only if a tent there still helps ``seat``.
        return legal[-1]
    if last == "totem" or (len(legal) > 1 and legal[-2]["type"] == "totem"):
        base = t * tribes
        totems = state.totem_count[base:base + tribes]
        mine = totems[tribe]
        other = max(c for i, c in enumerate(totems) if i != tribe)
        if tribe == seat and mine <= other and state.board.territory_connections[t]:
            return legal[-1] if last == "totem" else legal[-2]
    board = state.board
    space_index = board.space_index
    neighbours = board.neighbours
    tents = state.tents
    best: list[int] = []
    best_value = -1
    for i, move in enumerate(legal):
        if move["type"] != "tent":
            continue
        value = 0
        for n in neighbours[space_index[move["space"]]]:
            if tents[n] == tribe:
                value += 1
        if value > best_value:
            best, best_value = [i], value
        elif value == best_value:
            best.append(i)
    if not best:
        return legal[0]
    return legal[best[rng.below(len(best))] if len(best) > 1 else best[0]]


def _draw(state: IwariState, seat: int, legal: Sequence[Move], rng: Rng) -> Move:
    """A display card that pairs with the hand (a pair pays anywhere), else the deck."""
    have = [0, 0, 0, 0, 0]
    for card in state.hands[seat]:
        have[_CARD_BIOME[card]] += 1
    pairing = [m for m in legal if m["from"] == "display" and have[_CARD_BIOME[CARD_INDEX[m["card"]]]] == 1]
    if pairing:
        return pairing[rng.below(len(pairing))] if len(pairing) > 1 else pairing[0]
    return legal[0] if legal[0]["from"] == "deck" else rng.choice(legal)


def _feat(state: IwariState, seat: int, legal: Sequence[Move]) -> Move:
    """A territory feat where ``seat``'s tribe holds the most tents; a connection feat on
    the first listed (every target offered is one ``seat`` holds)."""
    kind = state.feat_queue[0][0]
    if kind not in (UNION, DISCOVERY):
        return legal[0]
    index = state.board.territory_index
    tribes = state.tribes

    def lead(move: Move) -> int:
        t = index[move["territory"]]
        return _majority(state.tent_count[t * tribes:(t + 1) * tribes])[seat]

    return max(legal, key=lead)


# -- the evaluation --------------------------------------------------------------------

_SECOND_PASS = {seats: len(cards().for_seats(seats)) - cards().display - cards().hand * seats
                for seats in range(2, 6)}
"""Per seat count, about how many cards the reshuffled deck holds (the cards in play
but the display and the hands)."""
_TOTAL_DRAWS = 80.0
"""About how many cards leave the deck in a game at 2 seats (two passes of ~37-40): the
unit of the game's progress, for the spread of the estimate."""


def _board_points(state: IwariState) -> tuple[list[float], list[float]]:
    """Per tribe: (tent majority points, totem + settlement points) if scored now."""
    tribes = state.tribes
    tent_count = state.tent_count
    factor = state.territory_factor
    tents_pts = [0.0] * tribes
    known = MAJORITY
    for counts, f in zip(per_territory(tent_count, tribes), factor, strict=True):
        if not any(counts):
            continue
        for tribe, p in enumerate(known.get(counts) or majority_of(counts)):
            tents_pts[tribe] += p * f
    other = [0.0] * tribes
    totem_count = state.totem_count
    covered = state.covered
    cfactor = state.connection_factor
    # per territory: (the totem majority holders as bits of tribes, the totems there)
    held = HOLDERS
    holders = [held.get(key) or holders_of(key) for key in per_territory(totem_count, tribes)]
    for c in state.board.connections:
        if covered[c.index]:
            continue
        a, totals_a = holders[c.a]
        if not a:
            continue
        b, totals_b = holders[c.b]
        both = a & b
        if not both:
            continue
        points = (totals_a + totals_b) * cfactor[c.index]
        for tribe in range(tribes):
            if both >> tribe & 1:
                other[tribe] += points
    # Settlements: groups of 4+ joined tents score their size; a group of 3 is one tent
    # from it, so it counts half.
    neighbours = state.board.neighbours
    # a working copy of the tents: a space counted in a group is emptied (-1), so one test
    # finds the unvisited tents of the group's tribe (enumerate reads the copy as it changes)
    left = state.tents[:]
    for start, tribe in enumerate(left):
        if tribe < 0:
            continue
        left[start] = -1
        stack = [start]
        size = 0
        while stack:
            s = stack.pop()
            size += 1
            for n in neighbours[s]:
                if left[n] == tribe:
                    left[n] = -1
                    stack.append(n)
        if size >= 4:
            other[tribe] += size
        elif size == 3:
            other[tribe] += 1.5
    return tents_pts, other


def _remaining(state: IwariState) -> float:
    """The share of the game's card draws still to come (1 at the start, 0 at the end).

    Only draws from the deck move it: a discard must not look like progress (or its
    opposite), since the search spreads its priors over whatever small differences the
    evaluation shows among sibling moves."""
    if state.exhaustions >= 2 or state.end_triggered:
        return 0.0
    left = len(state.deck)
    if state.exhaustions == 0:
        # The second pass goes through about every card not in a hand or the display.
        left += _SECOND_PASS[state.seats]
    return min(1.0, left / _TOTAL_DRAWS)


def estimate_points(state: IwariState) -> list[float]:
    """Each seat's expected final points: scored points, plus the board as it stands scored
    at the end (and tents once more if the half journey is to come).

    No tie-break sliver for unused pieces (IW-17): the search spreads its priors over the
    differences among sibling moves, and a sliver would make "done" look better than a
    totem that wins nothing yet."""
    tents_pts, other = _board_points(state)
    half = 1.0 if state.half is None else 0.0
    return [state.scores[s] + (1.0 + half) * tents_pts[s] + other[s] for s in range(state.seats)]


def evaluate(game: Game[Any], state: IwariState) -> list[float]:
    """Win expectations from the point estimates. The spread (points of lead that make a
    win e times likelier) narrows from ~8 at the start to 2.5 at the last round: fitted
    on 150 policy-against-policy games (2 seats), where the estimate's error had a
    standard deviation of ~10 points at the start, ~5 in the last fifth of the deck."""
    return estimate_from_points(estimate_points(state), 2.5 + 6.0 * _remaining(state))
