"""The board and the clans, read and changed: figures and where they stand, room in the
provinces, STR, invasion costs, glory, rage and stats, pillage rewards.

Plain functions of the state with no timing in them: nothing here fires a card's effect
(that is effects.py) or queues a task, so every other module may use them.
"""

from __future__ import annotations

from itertools import compress, product

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
    RESERVE,
    SHIP_KINDS,
    STATS,
    SUPPORT,
    TRACKS,
    VILLAGES,
    YGG,
)
from .state import BRState

_ORDERS = {n: tuple([(seat + k) % n for k in range(n)] for seat in range(n)) for n in range(1, 9)}
"""seats -> first seat -> the seats in turn order from it (copied: callers get their own)."""


def order_from(state: BRState, seat: int) -> list[int]:
    orders = _ORDERS.get(state.n)
    if orders is None or not 0 <= seat < state.n:
        return [(seat + k) % state.n for k in range(state.n)]
    return orders[seat][:]


_NAME = {cid: c.name for cid, c in CARDS.items()}
_NAME[""] = ""


NAMES_OF = _UPGRADE_NAMES = {}  # type: dict[tuple[str, ...], frozenset[str]]
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
_NPROV = len(PROVINCES)
_CAP = (*VILLAGES, *(1 << 30,) * len(FJORD_LOCS))
"""Board place -> how many figures fill it (fjords never fill)."""
_CAP1 = tuple(c - 1 for c in _CAP)

# Per-seat summaries (``state.figs[seat]``), kept with the occupancy: a list of
# [figures on the board, bits of the places where a figure that is not a ship stands, bits of
# the places where a ship (or a sea serpent) stands, bits of the figures (by index) in the
# reserve], then how many figures that are not ships stand on each place, then how many ships.
F_BOARD, F_LANDED, F_SHIPS, F_RESERVE = 0, 1, 2, 3
_L = F_LANDED_AT = 4
_S = _L + _NLOC
_FIGS_LEN = _S + _NLOC


def occupancy(state: BRState) -> list[int]:
    """How many figures (every seat's) stand on each board place. Kept up to date by
    ``set_loc``, with ``state.figs`` and ``state.full``; checked against the copy of ``locs``
    they were counted for (one list comparison), and counted afresh when they differ. Callers
    must not change it."""
    locs = state.locs
    if state.occ_of == locs:
        return state.occ  # type: ignore[return-value]
    occ = [0] * _NLOC
    figs = []
    for kinds, row in zip(state.kinds, locs, strict=True):
        f = [0] * _FIGS_LEN
        for i, (kind, at) in enumerate(zip(kinds, row, strict=True)):
            if at >= 0:
                occ[at] += 1
                f[F_BOARD] += 1
                if kind in SHIP_KINDS:
                    f[_S + at] += 1
                    f[F_SHIPS] |= 1 << at
                else:
                    f[_L + at] += 1
                    f[F_LANDED] |= 1 << at
            elif at == RESERVE:
                f[F_RESERVE] |= 1 << i
        figs.append(f)
    full = 0
    for at, n in enumerate(occ):
        if n >= _CAP[at]:
            full |= 1 << at
    state.occ = occ
    state.figs = figs
    state.full = full
    state.occ_of = [row[:] for row in locs]
    return occ


def figs(state: BRState, seat: int) -> list[int]:
    """The summary of ``seat``'s figures (see F_BOARD ...), checked as ``occupancy`` is, on
    the seat's own row only: a seat's summary does not depend on the others'."""
    of = state.occ_of
    if of is None or of[seat] != state.locs[seat]:
        occupancy(state)
    return state.figs[seat]  # type: ignore[index]


def full_places(state: BRState) -> int:
    """Bits of the board places with no room left (a province's villages all taken)."""
    if state.occ_of != state.locs:
        occupancy(state)
    return state.full


def set_loc(state: BRState, seat: int, i: int, to: int) -> None:
    """Move figure ``i`` of ``seat`` to ``to``, keeping ``occupancy``, the seat's summary and
    the full places up to date."""
    row = state.locs[seat]
    old = row[i]
    row[i] = to
    of = state.occ_of
    if of is None:
        return
    snap = of[seat]
    try:
        if snap[i] != old:  # counted for another layout: occupancy recounts
            return
    except IndexError:  # a figure added by hand: the same
        return
    snap[i] = to
    occ: list[int] = state.occ  # type: ignore[assignment]
    f = state.figs[seat]  # type: ignore[index]
    if old >= 0 or to >= 0:
        if state.kinds[seat][i] in SHIP_KINDS:
            base, bits = _S, F_SHIPS
        else:
            base, bits = _L, F_LANDED
        if old >= 0:
            n = occ[old] - 1
            occ[old] = n
            if n == _CAP1[old]:
                state.full &= ~(1 << old)
            f[F_BOARD] -= 1
            k = base + old
            n = f[k] - 1
            f[k] = n
            if not n:
                f[bits] &= ~(1 << old)
        if to >= 0:
            n = occ[to] + 1
            occ[to] = n
            if n == _CAP[to]:
                state.full |= 1 << to
            f[F_BOARD] += 1
            k = base + to
            n = f[k] + 1
            f[k] = n
            if n == 1:
                f[bits] |= 1 << to
    if old == RESERVE:
        f[F_RESERVE] &= ~(1 << i)
    if to == RESERVE:
        f[F_RESERVE] |= 1 << i


def add_figure(state: BRState, seat: int, kind: str) -> None:
    """Give ``seat`` a new figure of ``kind`` in its reserve (a monster), keeping the
    occupancy and the seat's summary in step rather than left to a recount."""
    row = state.locs[seat]
    i = len(row)
    state.kinds[seat] = (*state.kinds[seat], kind)
    row.append(RESERVE)
    of = state.occ_of
    if of is not None and len(of[seat]) == i:
        of[seat].append(RESERVE)
        state.figs[seat][F_RESERVE] |= 1 << i  # type: ignore[index]


MASK_OF = _MASK_OF = {bits[::-1]: m for m, bits in enumerate(product((False, True), repeat=_NPROV))}
"""A row of province flags (destroyed, pillaged) -> the same as bits."""


def flag_bits(flags: list[bool]) -> int:
    """A row of province flags (``destroyed``, ``pillaged``) as bits."""
    return _MASK_OF[tuple(flags)]


PROVS_OF = tuple(tuple(compress(range(_NPROV), bits[::-1])) for bits in product((False, True), repeat=_NPROV))
"""Bits -> the provinces, ascending."""
OUTER_BITS = sum(1 << p for p in OUTER)
BASE_KINDS = _BASE_KINDS = ("leader", "ship", *("warrior",) * 8)
"""A clan's figures before any monster; monsters are appended after them. rules.new_state gives
every seat this very tuple, so that most tests for it are one identity test."""
WARRIOR_BITS = sum(1 << i for i, kind in enumerate(BASE_KINDS) if kind == "warrior")
"""Bits (by figure index) of a clan's eight warriors."""
ONE_WARRIOR = WARRIOR_BITS & -WARRIOR_BITS
NOT_WARRIORS = ~WARRIOR_BITS
_EIGHT_WARRIORS = BASE_KINDS[2:]
_RESERVE_KINDS: dict[tuple[tuple[str, ...], int], tuple[str, ...]] = {}
"""(a seat's figure kinds, bits of its figures in the reserve with the warriors' bits folded into
one, as ``reserve_key`` does) -> the distinct kinds in the reserve, in figure order."""


def reserve_key(kinds: tuple[str, ...], res: int) -> int:
    """``res`` with the bits of warriors 2-9 folded into the first: which warriors wait in the
    reserve does not change the kinds found there, and the memos keyed by it see many fewer
    keys. Sound only when figures 2-9 are warriors (``foldable``)."""
    return res & NOT_WARRIORS | ONE_WARRIOR if res & WARRIOR_BITS else res


def foldable(kinds: tuple[str, ...]) -> bool:
    """Whether figures 2-9 are the eight warriors (always, but for a state built by hand)."""
    return kinds[2:10] == _EIGHT_WARRIORS


MEMO_BOUND = 8192
"""Entries a memo keyed by ``reserve_key`` holds before it starts again: a long-lived server
sees many rows."""


def remember(memo: dict, kinds: tuple[str, ...], key: int, value: object) -> None:
    """Keeps ``value`` in ``memo`` under (kinds, key) when the key is sound for ``kinds``
    (``foldable``); a row built by hand is figured afresh every time."""
    if foldable(kinds):
        if len(memo) > MEMO_BOUND:
            memo.clear()
        memo[(kinds, key)] = value


def reserve_kinds(kinds: tuple[str, ...], res: int) -> tuple[str, ...]:
    """The distinct kinds of the figures whose bits are set in ``res``, in figure order."""
    key = res & NOT_WARRIORS | ONE_WARRIOR if res & WARRIOR_BITS else res  # reserve_key, inlined
    found = _RESERVE_KINDS.get((kinds, key))
    if found is None:
        seen: list[str] = []
        for i, kind in enumerate(kinds):
            if res >> i & 1 and kind not in seen:
                seen.append(kind)
        found = tuple(seen)
        remember(_RESERVE_KINDS, kinds, key, found)
    return found


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


_BATTLE_LOCS: tuple[tuple[int, ...], ...] = tuple((p, *SUPPORT[p]) for p in range(len(PROVINCES)))


def battle_locs(p: int) -> tuple[int, ...]:
    return _BATTLE_LOCS[p]


def on_board(state: BRState, seat: int) -> int:
    return figs(state, seat)[F_BOARD]


def horns(state: BRState, seat: int) -> int:
    return TRACKS[2][state.stats[seat][2]]


def present(state: BRState, seat: int, p: int) -> bool:
    mine = state.locs[seat]
    for at in _BATTLE_LOCS[p]:  # noqa: SIM110  (two or three C membership tests)
        if at in mine:
            return True
    return False


def first_at(state: BRState, seat: int, at: int, kind: str) -> int:
    """The index of ``seat``'s first figure of ``kind`` at ``at``, or -1: found with the C
    ``list.index`` rather than a Python loop over every figure."""
    locs = state.locs[seat]
    kinds = state.kinds[seat]
    i = -1
    try:
        while True:
            i = locs.index(at, i + 1)
            if kinds[i] == kind:
                return i
    except ValueError:
        return -1


def kinds_at(state: BRState, seat: int, at: int) -> list[str]:
    """The distinct figure kinds ``seat`` has at ``at``, in figure order."""
    seen: list[str] = []
    locs = state.locs[seat]
    if at not in locs:
        return seen
    kinds = state.kinds[seat]
    # no monster: the leader, the ship, then the warriors
    if (kinds is _BASE_KINDS or kinds == _BASE_KINDS) and at >= 0:
        if locs[0] == at:
            seen.append("leader")
        if locs[1] == at:
            seen.append("ship")
        if figs(state, seat)[_L + at] > (locs[0] == at):  # landed figures there besides the leader
            seen.append("warrior")
        return seen
    for kind, loc in zip(kinds, locs, strict=True):
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
    kinds = state.kinds[seat]
    if kinds is _BASE_KINDS or kinds == _BASE_KINDS:  # no monster: the leader, the ship and the rest from the summary
        row = state.locs[seat]
        f = figs(state, seat)
        landed = 0
        for at in locs:
            landed += f[_L + at]
        total = 0
        if row[0] in locs:
            total = 3
            landed -= 1
        if row[1] in locs:
            total += 2
        if not landed or not state.upgrades[seat][0]:  # no warrior, or no warrior upgrade: 1 each
            return total + landed
        return total + warriors_str(state, seat, landed)
    return str_among(state, seat, locs)


def str_among(state: BRState, seat: int, locs: tuple[int, ...]) -> int:
    """The STR of ``seat``'s figures standing in ``locs``, counted figure by figure."""
    warriors = total = 0
    for kind, at in zip(state.kinds[seat], state.locs[seat], strict=True):
        if at in locs:
            if kind == "warrior":
                warriors += 1
            else:
                total += figure_str(kind, at)
    return total + warriors_str(state, seat, warriors) if warriors else total


def figures_in(state: BRState, seat: int, p: int) -> list[int]:
    """The indices of ``seat``'s figures in province ``p`` and its supporting fjords."""
    return figures_at(state, seat, _BATTLE_LOCS[p])


def figures_at(state: BRState, seat: int, locs: tuple[int, ...]) -> list[int]:
    """The indices of ``seat``'s figures at any of ``locs``, in figure order."""
    out: list[int] = []
    row = state.locs[seat]
    for at in locs:  # a few C membership tests first: most clans have none there
        if at in row:
            break
    else:
        return out
    for i, at in enumerate(row):  # a plain loop: a comprehension costs a function and a frame
        if at in locs:
            out.append(i)
    return out


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
    targets = list(PROVS_OF[OUTER_BITS & ~(flag_bits(state.destroyed) | full_places(state))])
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

