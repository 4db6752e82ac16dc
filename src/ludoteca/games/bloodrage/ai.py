"""Blood Rage knowledge for the search bots (see ludoteca.bots.hooks).

The rollout policy keeps playouts closer to real games than uniform random play: it
rarely passes while other actions remain, plays its strongest battle card, and pillages
where its clan is the strongest (uncontested or winning on figures) far more often than
elsewhere. It reads only what the deciding seat may see (its own hand, the board).

The evaluation estimates each seat's final glory from public facts only (glory, stats,
upgrades in play, the board, rage left, how many quests lie face down, Valhalla) and
turns the estimates into win expectations. It reads no hand, no pack, no face-down quest
or battle card and no deck: it returns values for every seat, so any hidden card it read
would be one some seat may not see.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ludoteca.bots.hooks import estimate_from_points
from ludoteca.engine import Game, Move, Rng

from .components import (
    CARDS,
    LEGENDARY,
    LOCATIONS,
    MAX_STEP,
    MONSTER_STR,
    PROVINCES,
    RAGNAROK_GLORY,
    REALM_PROVINCES,
    SUPPORT,
    TRACKS,
    VALHALLA,
    YGG,
    deck_for,
)
from .state import BRState

ROLLOUT_DEPTH = 20
"""Playouts stop after this many decisions and evaluate scores the state (a 2-seat game
is ~150 decisions, ~50 per age; a pillage with its call to arms and battle cards takes
~4-10). Measured with bench/bots_strength.py, 2 seats against greedy (which uses this
evaluate), 60 iterations, 2 x 8 seat-rotated games (seeds 0 and 1) per row:

- depth 20: 16 of 16 won, 107-32 and 112-31 glory, 386 iter/s (133 ms/decision);
- depth 8: 14 of 16, 108-39 and 117-29, 712 iter/s (73 ms/decision);
- depth 40: 8 of 8 (seed 0 only), 109-46, ~1.4x the CPU of depth 20;
- no hooks at all (uniform random playouts to the end): 3 of 16, 42-80 and 23-86,
  338 iter/s (156 ms/decision).

20 lost no game and led by as much as 8; 8 is cheaper but often stops in mid-battle,
where the evaluation cannot see the face-down cards; 40 costs more for a smaller lead."""

REVIEW_ITERATIONS = (300, 80)
"""The post-game review's iterations per decision (search, then each compared move): fewer
than Iwari's, since an iteration costs more here (long rounds of battles); measured with
bench/review_cost.py."""
REVIEW_POINTS = (4.0, 8.0, 15.0)
"""Expected final glory lost from which a move is an inaccuracy, a mistake, a blunder:
final scores run from about 60 to 150."""


# -- board arithmetic (public: figures, upgrades) ------------------------------------------

_NPROV = len(PROVINCES)
_NLOC = len(LOCATIONS)
_BATTLE_LOCS = tuple((p, *SUPPORT[p]) for p in range(_NPROV))
_CARD_NAME = {cid: c.name for cid, c in CARDS.items()}
_CARD_NAME[""] = ""
_FIGURE_STR = {"leader": 3, "ship": 2, "warrior": 1, **MONSTER_STR}


def _warriors_str(card: str, count: int) -> int:
    """As board.warriors_str, from the warrior upgrade's name (inlined for speed)."""
    if card == "brothers_in_arms":
        return 3 * (count // 2) + count % 2
    if card == "masters_in_arms":
        return 6 * (count // 2) + 2 * (count % 2)
    if card == "experts_in_arms":
        return 2 * count
    return count


def province_str(state: BRState) -> list[list[int]]:
    """Per seat, its STR in every province with the supporting fjords (as board.str_at)."""
    out = []
    for s in range(state.n):
        warriors = [0] * _NLOC
        other = [0] * _NLOC
        for kind, at in zip(state.kinds[s], state.locs[s], strict=True):
            if at < 0:
                continue
            if kind == "warrior":
                warriors[at] += 1
            elif kind == "dark_elf" and at == YGG:
                other[at] += 3
            else:
                other[at] += _FIGURE_STR.get(kind, 1)
        card = _CARD_NAME[state.upgrades[s][0]]
        row = []
        for p in range(_NPROV):
            w = o = 0
            for loc in _BATTLE_LOCS[p]:
                w += warriors[loc]
                o += other[loc]
            row.append(o + (_warriors_str(card, w) if w else 0))
        out.append(row)
    return out


# -- the rollout policy ----------------------------------------------------------------------

_PROVINCE_INDEX = {name: i for i, name in enumerate(PROVINCES)}


def rollout_policy(game: Game[Any], state: Any, seat: int, legal: Sequence[Move], rng: Rng) -> Move:
    """The move ``seat`` plays in a playout: a cheap heuristic, random one time in four
    or so. Reads the board and ``seat``'s own hand only."""
    if len(legal) == 1:
        return legal[0]
    kind = legal[0].get("type")
    if kind == "play":
        best = max(legal, key=lambda m: CARDS[m["card"]].str if CARDS[m["card"]].type == "battle" else -1)
        return best if rng.below(4) else rng.choice(legal)
    if legal[-1].get("type") == "pass" and rng.below(10):
        pillages = [m for m in legal if m["type"] == "pillage"]
        if pillages:
            # A pillage where the clan is strongest usually succeeds: reward plus Axes
            # glory. Random play tries one only by chance, so its playouts undervalue the
            # board presence that makes pillaging possible.
            strength = province_str(state)
            winning = []
            for m in pillages:
                p = _PROVINCE_INDEX[m["province"]]
                mine = strength[seat][p]
                if all(strength[o][p] < mine for o in range(state.n) if o != seat):
                    winning.append(m)
            if winning and rng.below(2) == 0:
                return winning[rng.below(len(winning))]
            if rng.below(6) == 0:
                return pillages[rng.below(len(pillages))]
        return legal[rng.below(len(legal) - 1)]
    return rng.choice(legal)


# -- the evaluation --------------------------------------------------------------------------

_TOKEN_STEPS = {"rage": 1, "axes": 1, "horns": 1, "all": 3, "glory": 0}


def _quest_table(age: int, seats: int) -> tuple[dict[str, float], float]:
    """(share of each goal, mean glory) among the quests of an age's deck at ``seats``."""
    quests = [CARDS[c] for c in deck_for(age, seats) if CARDS[c].type == "quest"]
    shares: dict[str, float] = {}
    for q in quests:
        shares[q.goal] = shares.get(q.goal, 0.0) + 1.0 / len(quests)
    return shares, sum(q.glory for q in quests) / len(quests)


_QUESTS = {(age, seats): _quest_table(age, seats) for age in (1, 2, 3) for seats in (2, 3, 4)}

_STEP_GLORY = 3.0
"""Glory a stat step is taken to be worth inside a reward (a pillage token, a quest's
raise): Axes, Rage and Horns pay in later battles and actions and lead to the legendary
bonus (BR-51). The fitted weights below scale it."""

FEATURES = ("near", "steps", "pillage", "rage", "doom", "quests", "board", "upgrades")
"""What estimate_points weighs, per seat, on top of glory and the legendary bonus now:
stats one step short of a legendary bonus; stat steps taken; winnable pillages this age
(reward + Axes glory); rage left in the action phase; Ragnarok glory of the figures in
the doomed province; face-down quests times the chance the board fulfils one now times
its reward; STR on the board; upgrades in play."""

WEIGHTS: dict[int, tuple[float, ...]] = {
    1: (1.2, 5.0, 0.7, 0.8, 0.0, 0.9, 0.9, 1.7),
    2: (3.7, 2.4, 0.55, 0.8, 0.25, 1.2, 0.9, 1.8),
    3: (3.2, 0.45, 0.5, 0.45, 0.55, 0.9, 0.45, 0.6),
}
"""Per age, the glory one unit of each feature was worth on average at the end: ridge
least squares on the differences between seats, 67k positions of 1500 policy-against-
policy playouts (2 and 3 seats). Two fits were overridden on purpose:

- rage left fitted 3.5 / 2.0 / 0.9, far more than the ~0.9 a point of board STR (what a
  rage point buys: a warrior) was worth; with it, the search's prior would rank every
  invasion below a free action. Kept at about the board's worth, so spending rage on a
  figure is neutral and what the figure promises (pillages, quests) decides.
- doom glory fitted -0.6 in age 1 (doomed figures leave the board, which the board
  weight already counts): floored at 0, since the glory itself is certain."""


def features(state: BRState) -> list[tuple[float, list[float]]]:
    """Per seat: (glory now + legendary bonus now, the FEATURES' values). Public facts only."""
    n = state.n
    a = state.age - 1
    strength = province_str(state)
    phase = state.phase
    action = phase in ("draft", "action")  # pillages are still to come this age
    doom = state.ragnarok[a]
    doom_alive = not state.destroyed[doom]
    doom_locs = _BATTLE_LOCS[doom]
    shares, quest_glory = _QUESTS[(state.age, n)]
    out = []
    for s in range(n):
        stats = state.stats[s]
        base = float(state.glory[s])
        near = 0
        for k in range(3):
            step = stats[k]
            base += LEGENDARY[step]
            if step < MAX_STEP and LEGENDARY[step + 1] > LEGENDARY[step]:
                near += 1
        mine = strength[s]
        # Pillages still possible this age: provinces where the seat is strongest. A seat
        # that passed (or has no rage) has none: passing forfeits them, and must look so.
        prospect = 0.0
        rage = 0.0
        if action and not (phase == "action" and (state.passed[s] or state.rage[s] <= 0)):
            axes = TRACKS[1][stats[1]]
            for p in range(_NPROV):
                if state.destroyed[p] or state.pillaged[p] or not mine[p]:
                    continue
                rival = 0
                for o in range(n):
                    if o != s and strength[o][p] > rival:
                        rival = strength[o][p]
                if rival >= mine[p]:
                    continue
                token = state.tokens[p]
                reward = 5.0 if token == "glory" else _TOKEN_STEPS[token] * _STEP_GLORY
                prospect += reward + (axes if rival else 0.0)
            if phase == "action":
                rage = float(state.rage[s])
        # Ragnarok at the end of this age: each figure there dies for glory.
        doom_glory = 0.0
        if doom_alive:
            dying = sum(1 for at in state.locs[s] if at in doom_locs)
            if dying:
                each = RAGNAROK_GLORY[a] * (2 if "odins_inspiration" in _names(state, s) else 1)
                doom_glory = float(each * dying)
        # Face-down quests (only their number is public): the chance that a quest of the
        # age's deck is fulfilled by the board as it stands.
        quests = 0.0
        if state.quests[s]:
            done = 0.0
            for goal, share in shares.items():
                if _goal_met(state, s, goal, strength):
                    done += share
            quests = len(state.quests[s]) * done * (quest_glory + _STEP_GLORY)
        out.append((base, [float(near), float(sum(stats)), prospect, rage, doom_glory, quests, float(sum(mine)),
                           float(sum(1 for c in state.upgrades[s] if c))]))
    return out


def estimate_points(state: BRState) -> list[float]:
    """Each seat's expected final glory, from public facts only: glory and legendary
    bonus now, plus the weighted FEATURES (what this age's position promises, and the
    worth of stats, board STR and upgrades for the rest of the game)."""
    if state.over:
        return [float(g) for g in state.glory]
    weights = WEIGHTS[state.age]
    return [base + sum(w * x for w, x in zip(weights, xs, strict=True)) for base, xs in features(state)]


def _names(state: BRState, seat: int) -> list[str]:
    return [_CARD_NAME[c] for c in state.upgrades[seat]]


def _goal_met(state: BRState, seat: int, goal: str, strength: list[list[int]]) -> bool:
    """As rules.quest_done, on the precomputed STR table."""
    if goal == "valhalla":
        return sum(1 for at in state.locs[seat] if at == VALHALLA) >= 4
    provinces = (YGG,) if goal == "yggdrasil" else REALM_PROVINCES[goal]
    for p in provinces:
        if state.destroyed[p]:
            continue
        mine = strength[seat][p]
        if mine > 0 and all(strength[o][p] < mine for o in range(state.n) if o != seat):
            return True
    return False


_SPREAD = (18.0, 16.0, 12.0)
"""Points of lead that make a win e times likelier, per age: the log-loss optimum on the
2-seat positions of the weights' fit (loss 0.665 / 0.545 / 0.379 in ages 1 / 2 / 3,
against 0.682 / 0.607 / 0.426 for glory and legendary bonus alone; the estimate's error
had a standard deviation of ~39 / 32 / 22 glory). Only the age moves it, so no single
move (a pass, say) changes it."""


def evaluate(game: Game[Any], state: BRState) -> list[float]:
    """Win expectations from the glory estimates (public facts only)."""
    return estimate_from_points(estimate_points(state), _SPREAD[state.age - 1])
