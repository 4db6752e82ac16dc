"""Crusaders knowledge for the search bots (see ludoteca.bots.hooks).

Uniform random play wastes most turns (half the turn moves are upgrades, knights wander,
crusades and builds are passed or fail), gains under one influence a turn and so nearly
always runs into the 60-round safety cap: random playouts score positions the real game
never reaches. The rollout policy resolves the wedge whose actions gain the most now
(influence, a troop it can afford, the strongest enemy it can beat, the best building it
can pay for), upgrades a few wedges early, walks knights towards enemies they can beat or
free building spaces, never passes a crusade or a build it can make, and takes the free
building or troop a Saracen offers. Such playouts empty the influence supply, so they end
the way real games do (CR-34): at two seats after about 28 rounds (23-33 over 20 seeds,
some 175 decisions) where uniform random games all stop at the cap (about 395 decisions).

The evaluation adds to each seat's score now (influence, majorities, level-4 buildings)
what its engine promises over the turns left, estimated from the supply still to empty.

Both read only public facts and the deciding seat's own board: the knight orders count
only once revealed (before that the sample's orders of other seats are guesses).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ludoteca.bots.hooks import estimate_from_points
from ludoteca.engine import Game, Move, Rng

from .components import BUILDINGS, ENEMIES, components
from .economy import BOARDS, CUM, building_limit, enemy_strength, region_costs
from .scoring import building_points, majority_awards
from .state import CrusadersState, Player

C = components()

ROLLOUT_DEPTH = 16
"""Playouts stop after this many decisions (policy turns take about three, so some five
turns, two or three rounds at two seats) and evaluate scores the state. Measured with
bench/bots_strength.py (2 seats, 100 iterations, 8 games against greedy): depth 6, 16 and
40 all won 8/8, by 17, 25 and 16 points on average; depth 100 won 6/8 and lost by 2 on
average at three times the cost per decision. Longer playouts add the noise of the
policy's crude play faster than they add realism."""

REVIEW_ITERATIONS = (800, 200)
"""The post-game review's iterations per decision (search, then each compared move), as
Iwari's: measured with bench/review_cost.py, a 3-seat review of one seat takes under two
minutes of one core."""
REVIEW_POINTS = (3.0, 5.0, 10.0)
"""Expected final points lost from which a move is an inaccuracy, a mistake, a blunder:
final scores run from about 50 to 90."""

UPGRADE_WORTH = 3.0
"""An upgrade's worth in influence-now, early in the game (less for each wedge upgraded)."""

EXPLORE = 8
"""One playout decision in EXPLORE is uniform random, so playouts still try everything."""

_BUILDING_RANGE = range(len(BUILDINGS))
_WEDGE_ACTIONS = {w.id: (w.action, w.upgrade) for w in C.wedges}
_TROOP_COST = (*(t.cost for t in C.troops), 99)  # 99: no troop left to muster
_TROOP_INFLUENCE = (*(t.influence for t in C.troops), 0)
_REGION_IDS = {seats: {reg.id: i for i, reg in enumerate(board.regions)} for seats, board in BOARDS.items()}

# What one unit of each uncovered bonus is worth in later turns (a rough count of the turns
# it will still serve); a knight opens a second front for crusades and builds. Influence
# bonuses weigh most: they feed every later Influence action, the engine that empties the
# supply (playouts end about a round sooner than with half these weights).
_BONUS_WORTH = {"knight": 3.0, "influence": 3.0, "build": 1.5, "muster": 0.8, "crusade": 1.0, "move": 0.5}
_UNCOVER_WORTH = {name: tuple(sum(_BONUS_WORTH[k] * n for k, n in level) for level in b.uncovers)
                  for name, b in C.buildings.items()}
# Knight orders by their balance-note strength: playouts pick the better one most of the time.
_ORDER_RANK = {"lazarus": 9, "montesa": 8, "alcantara": 7, "santiago": 6, "aviz": 5, "teutonic": 4,
               "hospitaller": 3, "templar": 3, "sepulchre": 2, "calatrava": 1}


def _distances(neighbours: tuple[tuple[int, ...], ...]) -> tuple[tuple[int, ...], ...]:
    """All-pairs step counts on a board (breadth-first from every region), computed once."""
    out = []
    for start in range(len(neighbours)):
        dist = [99] * len(neighbours)
        dist[start] = 0
        frontier = [start]
        while frontier:
            nxt = []
            for r in frontier:
                for nb in neighbours[r]:
                    if dist[nb] == 99:
                        dist[nb] = dist[r] + 1
                        nxt.append(nb)
            frontier = nxt
        out.append(tuple(dist))
    return tuple(out)


_DIST = {seats: _distances(board.neighbours) for seats, board in BOARDS.items()}
# A free space with a printed or tile bonus is worth a detour; a plain one is not.
_SPECIAL = {seats: tuple(bool(reg.discount or reg.influence or reg.bonus_slot) for reg in board.regions)
            for seats, board in BOARDS.items()}


_AI_BONUSES: dict[tuple[int, ...], dict[str, int]] = {}
"""``_bonuses`` per buildings-built tuple: summed once and shared (its readers never change it)."""


def _bonuses(p: Player) -> dict[str, int]:
    """Every uncovered bonus of a board in one pass (economy.bonus walks the buildings per kind)."""
    built = tuple(p.built)
    out = _AI_BONUSES.get(built)
    if out is None:
        out = _AI_BONUSES[built] = {"move": 0, "muster": 0, "crusade": 0, "influence": 0, "build": 0}
        for i, name in enumerate(BUILDINGS):
            for kind, n in CUM[name][built[i]].items():
                if kind in out:
                    out[kind] += n
    return out


def _enemy_gain(token: str, strength: int) -> float:
    """What beating an enemy is worth: its strength in influence (Prussians, Slavs) or a free
    building or troop (Saracens), plus a trophy towards the majorities."""
    if token.startswith("saracen"):
        return 5.0
    return strength + 1.0


def _build_worth(state: CrusadersState, seat: int, b: int, region: int) -> float:
    """Influence of a building placed now plus what its uncovered bonus or end scoring brings."""
    return _worths(state, region)[b][state.players[seat].built[b]]


def _worth(seats: int, region: int, tile: str | None, b: int, level: int) -> float:
    """``_build_worth`` of building type b at 0-based level in a region, with its bonuses (its tile, "" for
    none) or without (None): the sums in the order they were always added, so the floats are the same."""
    name = BUILDINGS[b]
    worth = level + 1.0 + _UNCOVER_WORTH[name][level]
    if tile is not None:
        worth += BOARDS[seats].regions[region].influence_for(name)
        if tile:
            t = C.tile_index[tile]
            if t.applies(name):
                worth += t.influence
    if level == 3:
        worth += 4.0  # level-4 end scoring (CR-37), a few points whatever the type
    return worth


def _worth_rows(seats: int, region: int, tile: str | None) -> tuple[tuple[float, ...], ...]:
    return tuple(tuple(_worth(seats, region, tile, b, level) for level in range(4)) for b in _BUILDING_RANGE)


_WORTHS: dict[int, list[dict[str, tuple[tuple[float, ...], ...]]]] = {
    seats: [{} for _ in board.regions] for seats, board in BOARDS.items()}
"""``_build_worth`` per seat count, region and tile there, per building type and level: filled as met."""
_PLAIN_WORTHS = _worth_rows(5, 0, None)
"""Where a region's bonuses do not apply (5 seats, a second building), neither region nor seats matter."""


def _worths(state: CrusadersState, region: int) -> tuple[tuple[float, ...], ...]:
    """Per building type and level, ``_build_worth`` in ``region`` now."""
    seats = state.seats
    if seats < 5 or not state.buildings[region]:  # the region's bonuses apply (CR-39)
        tile = state.tiles[region]
        by_tile = _WORTHS[seats][region]
        rows = by_tile.get(tile)
        if rows is None:
            rows = by_tile[tile] = _worth_rows(seats, region, tile)
        return rows
    return _PLAIN_WORTHS


_TROOP_CRUSADE = tuple(sum(t.crusade for t in C.troops[:n]) for n in range(len(C.troops) + 1))


class _Gains:
    """What each action would gain now for a seat, as a function of its token count.

    Built once per decision: the bonuses, the enemies its knights stand on and the
    buildings it could place are gathered once, then each (action, tokens) is a few
    comparisons (a turn asks for dozens of them when wedges are upgraded)."""

    __slots__ = ("base", "builds", "curves", "enemies", "idle", "troop_cost", "troop_gain")

    def __init__(self, state: CrusadersState, seat: int) -> None:
        p = state.players[seat]
        bonuses = _bonuses(p)
        order = C.order_index.get(p.order) if state.revealed else None
        extra = order.all_bonus if order else 0
        # The same sums as actions.action_value, without walking the buildings per call.
        self.base = {
            "move": bonuses["move"] + (order.move_bonus if order else 0) + extra,
            "muster": bonuses["muster"] + extra,
            "crusade": bonuses["crusade"] + _TROOP_CRUSADE[p.troops] + extra,
            "influence": bonuses["influence"] + extra,
            "build": bonuses["build"] + extra,
        }
        self.troop_cost = _TROOP_COST[p.troops]
        self.troop_gain = _TROOP_INFLUENCE[p.troops] + 1.5
        enemy = state.enemy
        buildings = state.buildings
        limit = building_limit(state)
        self.enemies: list[tuple[int, float]] = []
        self.builds: list[tuple[int, float]] = []
        self.idle = 0
        self.curves: dict[str, list[float]] = {}
        seen = set()
        for where in p.knights:
            if where < 0 or where in seen:
                continue
            seen.add(where)
            token = enemy[where]
            if token:
                strength = enemy_strength(state, token)
                self.enemies.append((strength, _enemy_gain(token, strength)))
            elif len(buildings[where]) < limit:
                costs = region_costs(state, where)  # build_cost of every type here, from the rules' table
                worths = _worths(state, where)
                for b in _BUILDING_RANGE:
                    level = p.built[b]
                    if level < 4:
                        self.builds.append((costs[b][level], worths[b][level]))
            else:
                self.idle += 1

    def __call__(self, action: str, tokens: int) -> float:
        """Rough influence-equivalent an action brings now with this many tokens."""
        if tokens <= 0:
            return 0.0
        value = tokens + self.base[action]
        if action == "influence":
            return float(max(0, value))
        if action == "muster":
            return self.troop_gain if value >= self.troop_cost else 0.0
        # plain loops rather than max() over a generator: every gain here is above 0
        best = 0.0
        if action == "crusade":
            for strength, g in self.enemies:
                if strength <= value and g > best:
                    best = g
            return best
        if action == "build":
            for cost, g in self.builds:
                if cost <= value and g > best:
                    best = g
            return best
        # Moving scores nothing now; it is worth something when a knight stands where it
        # can neither crusade nor build, and more with the points to get somewhere.
        if value <= 0:
            return 0.0
        return (1.5 + 0.3 * min(value, 4)) * self.idle if self.idle else 0.4

    def curve(self, action: str, n: int) -> list[float]:
        """``self(action, t)`` for t = 0..n at least, computed once per action and decision: a split
        weighs every division of a wedge, and a turn every upgraded wedge."""
        curve = self.curves.get(action)
        if curve is None:
            curve = self.curves[action] = []
        for t in range(len(curve), n + 1):
            curve.append(self(action, t))
        return curve


def _wedge_gain(state: CrusadersState, seat: int, pos: int, gain: _Gains) -> float:
    p = state.players[seat]
    n = p.tokens[pos]
    action, second = _WEDGE_ACTIONS[p.wheel[pos]]
    if not p.upgraded[pos]:
        return gain(action, n)
    # An upgraded wedge: the best split, scored action by action (the move's effect on a
    # later crusade or build is not simulated: that is what the search is for).
    first, other = gain.curve(action, n), gain.curve(second, n)
    best = first[0] + other[n]
    for k in range(1, n + 1):
        score = first[k] + other[n - k]
        if score > best:
            best = score
    return best


def _turn(state: CrusadersState, seat: int, legal: Sequence[Move], rng: Rng) -> Move:
    p = state.players[seat]
    upgraded = sum(p.upgraded)
    # Upgrades pay over the turns left: worth a turn early, not once the supply is low.
    early = min(1.0, state.supply / (40.0 * state.seats))
    upgrade_worth = 0.0 if state.ending else (UPGRADE_WORTH - 0.5 * upgraded) * early
    gain = _Gains(state, seat)
    wheel, tokens, upgraded_at = p.wheel, p.tokens, p.upgraded
    best: list[Move] = []
    best_score = -1.0
    for move in legal:
        kind = move["type"]
        if kind == "resolve":
            pos = move["wedge"]
            if upgraded_at[pos]:
                score = _wedge_gain(state, seat, pos, gain)
            else:  # _wedge_gain of a plain wedge, inline: one gain
                score = gain(_WEDGE_ACTIONS[wheel[pos]][0], tokens[pos])
        elif kind == "upgrade":
            # Upgrading a wedge sitting on many tokens wastes them this turn; prefer thin ones.
            score = upgrade_worth - 0.2 * p.tokens[move["wedge"]]
        else:
            score = 0.0
        if score > best_score + 1e-9:
            best, best_score = [move], score
        elif score > best_score - 1e-9:
            best.append(move)
    return best[rng.below(len(best))] if len(best) > 1 else best[0]


def _split(state: CrusadersState, seat: int, legal: Sequence[Move], rng: Rng) -> Move:
    p = state.players[seat]
    n = p.tokens[state.wedge]
    action, second = _WEDGE_ACTIONS[p.wheel[state.wedge]]
    gain = _Gains(state, seat)
    # gain(action, t) and gain(second, t) for every t, once: the moves below read them
    by_action, by_second = gain.curve(action, n), gain.curve(second, n)
    best: Move = legal[0]
    best_score = -1.0
    for move in legal:
        k = move["primary"]
        first = move["first"]
        score = by_action[k] + by_second[n - k]
        # Moving first helps the other action only when it has nothing to do here yet;
        # doing it first keeps a crusade or build that works where the knights stand.
        if first == "move":
            other_gain = by_second[n - k] if first == action else by_action[k]
            if other_gain > 0:  # an other action with no token gains 0
                score -= 0.5
        if score > best_score:
            best, best_score = move, score
    return best


def _knight_goal(state: CrusadersState, seat: int, where: int, reach: int, taken: set[int]) -> int:
    """Where a knight should head: itself if it can crusade or build there, else the nearest
    enemy it may beat, else the nearest free bonus space; -1 if nowhere better."""
    enemy = state.enemy
    limit = building_limit(state)
    if enemy[where]:
        if enemy_strength(state, enemy[where]) <= reach:
            return where
    elif len(state.buildings[where]) < limit:
        return where
    dist = _DIST[state.seats][where]
    goal, goal_d = -1, 99
    for r, token in enumerate(enemy):
        if token and r not in taken and dist[r] < goal_d and enemy_strength(state, token) <= reach:
            goal, goal_d = r, dist[r]
    if goal >= 0:
        return goal
    special = _SPECIAL[state.seats]
    buildings = state.buildings
    for r in range(len(enemy)):
        if special[r] and not enemy[r] and len(buildings[r]) < limit and dist[r] < goal_d and r not in taken:
            goal, goal_d = r, dist[r]
    if goal < 0:
        for r in range(len(enemy)):
            if not enemy[r] and len(buildings[r]) < limit and dist[r] < goal_d and r not in taken:
                goal, goal_d = r, dist[r]
    return goal


def _move(state: CrusadersState, seat: int, legal: Sequence[Move], rng: Rng) -> Move:
    p = state.players[seat]
    bonuses = _bonuses(p)
    # The crusade value a knight may count on soon: bonuses, troops and a typical wedge.
    reach = bonuses["crusade"] + p.troops + 4
    ids = _REGION_IDS[state.seats]
    dist = _DIST[state.seats]
    taken: set[int] = set()
    goals: dict[int, int] = {}
    for k, where in enumerate(p.knights):
        if where >= 0:
            goals[k] = _knight_goal(state, seat, where, reach, taken)
            taken.add(goals[k])
    best: list[Move] = []
    for move in legal:
        if move["type"] != "step":
            continue
        k = move["knight"]
        goal = goals.get(k, -1)
        where = p.knights[k]
        if goal < 0 or goal == where:
            continue
        if dist[ids[move["to"]]][goal] < dist[where][goal]:
            best.append(move)
    if not best:
        return legal[0]  # stop: every knight is where it wants to be
    return best[rng.below(len(best))] if len(best) > 1 else best[0]


def _crusade(state: CrusadersState, seat: int, legal: Sequence[Move], rng: Rng) -> Move:
    ids = _REGION_IDS[state.seats]
    best: Move = legal[-1]
    best_score = 0.0
    for move in legal:
        if move["type"] == "crusade":
            token = state.enemy[ids[move["region"]]]
            score = _enemy_gain(token, enemy_strength(state, token))
            if score > best_score:
                best, best_score = move, score
    return best


def _build(state: CrusadersState, seat: int, legal: Sequence[Move], rng: Rng) -> Move:
    ids = _REGION_IDS[state.seats]
    index = {name: b for b, name in enumerate(BUILDINGS)}
    best: Move = legal[-1]
    best_score = 0.0
    for move in legal:
        if move["type"] == "build":
            score = _build_worth(state, seat, index[move["building"]], ids[move["region"]])
            if score > best_score:
                best, best_score = move, score
    return best


def rollout_policy(game: Game[Any], state: CrusadersState, seat: int, legal: Sequence[Move], rng: Rng) -> Move:
    """The move ``seat`` plays in a playout: the best by the gains above, one time in
    EXPLORE a uniform random one."""
    if len(legal) == 1:
        return legal[0]
    if rng.below(EXPLORE) == 0:
        return legal[rng.below(len(legal))]
    phase = state.phase
    if phase == "turn":
        return _turn(state, seat, legal, rng)
    if phase == "move":
        return _move(state, seat, legal, rng)
    if phase == "split":
        return _split(state, seat, legal, rng)
    if phase == "crusade":
        return _crusade(state, seat, legal, rng)
    if phase == "build":
        return _build(state, seat, legal, rng)
    if phase == "saracen":
        return legal[0]  # the building or troop when offered: it scores and uncovers a bonus
    if phase == "order":
        if legal[0]["type"] == "arrange":
            # Knight's Tournament (CR-42): the designer's first-game wheel is a sound arrangement
            return next(m for w in C.first_game_order for m in legal if m["wedge"] == w)
        return max(legal, key=lambda m: _ORDER_RANK.get(m["order"], 0))
    if phase == "after_upgrade":
        return legal[-1]  # no_sow: keep the tokens where the wheel was planned
    return legal[rng.below(len(legal))]


# -- evaluation ---------------------------------------------------------------------

def _rate(state: CrusadersState, seat: int) -> float:
    """Influence a seat's engine gains per turn: a base, its uncovered bonuses, its
    upgraded wedges, its knights and troops (the policy's playouts gain about this)."""
    p = state.players[seat]
    bonuses = _bonuses(p)
    knights = 0
    for k in p.knights:  # a plain loop: a generator costs a frame per call on this Python
        if k >= 0:
            knights += 1
    rate = (2.5 + 0.6 * bonuses["influence"] + 0.3 * (bonuses["build"] + bonuses["muster"] + bonuses["crusade"])
            + 0.1 * bonuses["move"] + 0.25 * sum(p.upgraded) + 0.5 * (knights - 1) + 0.15 * p.troops)
    if state.revealed and p.order:
        rate += 0.5 * C.order_index[p.order].all_bonus
    return rate


def evaluate(game: Game[Any], state: CrusadersState) -> list[float]:
    """Each seat's score now plus its rate times the turns left, as win expectations."""
    points, spread = _points_and_spread(state)
    return estimate_from_points(points, spread)


def estimate_points(state: CrusadersState) -> list[float]:
    """Each seat's expected final points (the post-game review reads them)."""
    return _points_and_spread(state)[0]


_AWARDS: dict[tuple[int, ...], list[int]] = {}
"""``majority_awards`` per trophy counts: computed once and shared (read, never changed)."""


def _totals(state: CrusadersState) -> list[int]:
    """Each seat's ``breakdown`` total (influence, majorities, level-4 buildings) without its rows: the
    evaluation of every playout reads only these."""
    players = state.players
    totals = [p.influence for p in players]
    for e in range(len(ENEMIES)):
        counts = tuple([p.defeated[e] for p in players])
        if not any(counts):
            continue  # nobody has a trophy of this kind: no award
        awards = _AWARDS.get(counts)
        if awards is None:
            awards = _AWARDS[counts] = majority_awards(list(counts))
        for seat, award in enumerate(awards):
            totals[seat] += award
    for seat, p in enumerate(players):
        if max(p.built) >= 4:
            totals[seat] += sum(building_points(state, seat).values())
    return totals


def _points_and_spread(state: CrusadersState) -> tuple[list[float], float]:
    seats = state.seats
    now = [float(total) for total in _totals(state)]
    if state.phase == "over":
        future = [0.0] * seats
    elif state.ending:
        # The round finishes (CR-34): seats after the current one still play a turn, the
        # current one half of it if it is already under way.
        future = [0.0] * seats
        for s in range(state.current, seats):
            future[s] = _rate(state, s) * (0.5 if s == state.current and state.phase != "turn" else 1.0)
    else:
        rates = [_rate(state, s) for s in range(seats)]
        rounds = state.supply / sum(rates) + 0.5
        rounds = min(rounds, float(C.round_limit - state.round))
        future = [r * rounds for r in rates]
    points = [n + f for n, f in zip(now, future, strict=True)]
    spread = 2.0 + sum(future) / seats / 3.0
    return points, spread
