"""The board and the clans, read and changed: figures and where they stand, room in the
provinces, STR, invasion costs, glory, rage and stats, pillage rewards.

Plain functions of the state with no timing in them: nothing here fires a card's effect
(that is effects.py) or queues a task, so every other module may use them.
"""

from __future__ import annotations

from ludoteca.engine import Event

from .components import (
    ADJACENT,
    BOX,
    CARDS,
    FJORD_LOCS,
    FJORD_SUPPORTS,
    MAX_STEP,
    MONSTER_COST,
    MONSTER_STR,
    OUTER,
    PILLAGE_GLORY,
    PROVINCES,
    SHIP_KINDS,
    STATS,
    SUPPORT,
    TRACKS,
    VILLAGES,
    YGG,
)
from .state import BRState


def order_from(state: BRState, seat: int) -> list[int]:
    return [(seat + k) % state.n for k in range(state.n)]


_NAME = {cid: c.name for cid, c in CARDS.items()}
_NAME[""] = ""


_UPGRADE_NAMES: dict[tuple[str, ...], frozenset[str]] = {}
"""A seat's upgrade row -> the names of its cards. Rows are tuples, replaced and never changed
in place, and only a few distinct rows occur, so asking an upgrade is one look-up and one
set test instead of a walk over the eight slots."""


def upgrade_names(ups: tuple[str, ...]) -> frozenset[str]:
    names = _UPGRADE_NAMES.get(ups)
    if names is None:
        if len(_UPGRADE_NAMES) > 4096:  # bounded: a long-lived server sees many rows
            _UPGRADE_NAMES.clear()
        names = _UPGRADE_NAMES[ups] = frozenset(_NAME[c] for c in ups if c)
    return names


def has_upgrade(state: BRState, seat: int, name: str) -> bool:
    ups = state.upgrades[seat]
    names = _UPGRADE_NAMES.get(ups)
    if names is None:
        names = upgrade_names(ups)
    return name in names


_NLOC = len(PROVINCES) + len(FJORD_LOCS)


def occupancy(state: BRState) -> list[int]:
    """How many figures (every seat's) stand on each board place. Kept up to date by
    ``set_loc``; checked against the copy of ``locs`` it was counted for (one list
    comparison), and counted afresh when they differ. Callers must not change it."""
    locs = state.locs
    if state.occ_of == locs:
        return state.occ  # type: ignore[return-value]
    occ = [0] * _NLOC
    for row in locs:
        for at in row:
            if at >= 0:
                occ[at] += 1
    state.occ = occ
    state.occ_of = [row[:] for row in locs]
    return occ


def set_loc(state: BRState, seat: int, i: int, to: int) -> None:
    """Move figure ``i`` of ``seat`` to ``to``, keeping ``occupancy`` up to date."""
    row = state.locs[seat]
    old = row[i]
    row[i] = to
    of = state.occ_of
    if of is not None:
        snap = of[seat]
        if i < len(snap) and snap[i] == old:  # the index was right for this figure
            snap[i] = to
            occ = state.occ
            assert occ is not None
            if old >= 0:
                occ[old] -= 1
            if to >= 0:
                occ[to] += 1


# -- board --------------------------------------------------------------------------------

def standing(state: BRState, loc: int) -> bool:
    if loc >= YGG + 1:  # a fjord stands while one of its provinces does
        a, b = FJORD_SUPPORTS[loc - YGG - 1]
        return not (state.destroyed[a] and state.destroyed[b])
    return not state.destroyed[loc]


def occupants(state: BRState, loc: int) -> int:
    if loc >= 0:
        return occupancy(state)[loc]
    count = 0
    for locs in state.locs:
        count += locs.count(loc)
    return count


def room(state: BRState, p: int) -> int:
    if p == YGG:
        return 999
    return VILLAGES[p] - occupants(state, p)


def rooms(state: BRState) -> list[int]:
    """``room`` of every province, from one pass over the figures (not one per province)."""
    occ = occupancy(state)
    out = [villages - n for villages, n in zip(VILLAGES, occ, strict=False)]
    out[YGG] = 999
    return out


_BATTLE_LOCS: tuple[tuple[int, ...], ...] = tuple((p, *SUPPORT[p]) for p in range(len(PROVINCES)))


def battle_locs(p: int) -> tuple[int, ...]:
    return _BATTLE_LOCS[p]


def on_board(state: BRState, seat: int) -> int:
    return sum(1 for at in state.locs[seat] if at >= 0)


def horns(state: BRState, seat: int) -> int:
    return TRACKS[2][state.stats[seat][2]]


def present(state: BRState, seat: int, p: int) -> bool:
    mine = state.locs[seat]
    for at in _BATTLE_LOCS[p]:  # noqa: SIM110  (two or three C membership tests)
        if at in mine:
            return True
    return False


def kinds_at(state: BRState, seat: int, at: int) -> list[str]:
    """The distinct figure kinds ``seat`` has at ``at``, in figure order."""
    seen: list[str] = []
    locs = state.locs[seat]
    if at not in locs:
        return seen
    for kind, loc in zip(state.kinds[seat], locs, strict=True):
        if loc == at and kind not in seen:
            seen.append(kind)
    return seen


# -- STR ----------------------------------------------------------------------------------

def warrior_card(state: BRState, seat: int) -> str:
    cid = state.upgrades[seat][0]
    return CARDS[cid].name if cid else ""


def warriors_str(state: BRState, seat: int, count: int) -> int:
    name = warrior_card(state, seat)
    if name == "brothers_in_arms":
        return 3 * (count // 2) + count % 2
    if name == "masters_in_arms":
        return 6 * (count // 2) + 2 * (count % 2)
    if name == "experts_in_arms":
        return 2 * count
    return count


def figure_str(kind: str, loc: int) -> int:
    if kind == "leader":
        return 3
    if kind == "ship":
        return 2
    if kind == "dark_elf" and loc == YGG:
        return 3
    return MONSTER_STR.get(kind, 1)


def str_at(state: BRState, seat: int, p: int) -> int:
    """The STR ``seat`` has in province ``p`` with its supporting fjords."""
    locs = _BATTLE_LOCS[p]
    warriors = total = 0
    for kind, at in zip(state.kinds[seat], state.locs[seat], strict=True):
        if at in locs:
            if kind == "warrior":
                warriors += 1
            else:
                total += figure_str(kind, at)
    return total + warriors_str(state, seat, warriors) if warriors else total


def figures_in(state: BRState, seat: int, p: int) -> list[int]:
    locs = _BATTLE_LOCS[p]
    return [i for i, at in enumerate(state.locs[seat]) if at in locs]


def invade_cost(state: BRState, seat: int, kind: str) -> int:
    if kind == "leader":
        return 0
    if kind == "warrior":
        cid = state.upgrades[seat][0]
        return CARDS[cid].str if cid else 1
    if kind == "ship":
        return 2
    return MONSTER_COST[kind]


def invade_targets(state: BRState, kind: str) -> list[int]:
    if kind in SHIP_KINDS:
        return [f for f in FJORD_LOCS if standing(state, f)]
    free = rooms(state)
    targets = [p for p in OUTER if not state.destroyed[p] and free[p] > 0]
    if kind == "dark_elf" and not state.destroyed[YGG]:
        targets.append(YGG)
    return targets


def adjacent(p: int) -> tuple[int, ...]:
    return ADJACENT[p]


# -- glory, rage, stats -------------------------------------------------------------------

def gain_glory(state: BRState, seat: int, amount: int, reason: str, ev: list) -> None:
    if amount <= 0:
        return
    state.glory[seat] += amount
    ev.append(Event("br.glory", {"seat": seat, "amount": amount, "reason": reason}))


def raise_stat(state: BRState, seat: int, stat: int, reason: str, ev: list) -> None:
    steps = state.stats[seat]
    if steps[stat] >= MAX_STEP:
        return
    steps[stat] += 1
    ev.append(Event("br.stat_up", {"seat": seat, "stat": STATS[stat], "value": TRACKS[stat][steps[stat]],
                                   "reason": reason}))


def can_raise(state: BRState, seat: int, exclude: tuple = ()) -> list[int]:
    return [k for k in range(3) if k not in exclude and state.stats[seat][k] < MAX_STEP]


def pillage_reward(state: BRState, seat: int, p: int, reason: str, ev: list) -> tuple:
    """The reward token of province ``p`` for ``seat``; the stats it raised."""
    token = state.tokens[p]
    if token == "all":
        for k in range(3):
            raise_stat(state, seat, k, reason, ev)
        return (0, 1, 2)
    if token == "glory":
        gain_glory(state, seat, PILLAGE_GLORY, reason, ev)
        return ()
    k = STATS.index(token)
    raise_stat(state, seat, k, reason, ev)
    return (k,)


def to_box(state: BRState, seat: int, kind: str) -> None:
    kinds = state.kinds[seat]
    for i, k in enumerate(kinds):
        if k == kind and state.locs[seat][i] != BOX:
            set_loc(state, seat, i, BOX)

