"""IW-19, the feats option: Union, Discovery, Honour and Respect.

A feat is earned by a placement and placed at once, as a step of the same move (the
rules module puts the state in the FEAT phase while ``state.feat_queue`` is not empty).
Each feat raises the scoring factor of a territory or a connection by 1.
"""

from __future__ import annotations

from ludoteca.engine import Event, Move

from .components import DISCOVERY, FEATS, HONOUR, LAND, RESPECT, SEA, UNION, feat_counts
from .scoring import totem_majority_holders
from .state import TOTEM, IwariState


def check(state: IwariState, seat: int, space: int, group: list[int]) -> None:
    """Queue the feats ``seat`` just earned by placing a piece in ``state.territory``.

    ``space`` is the tent space (or TOTEM); ``group`` the settlement the tent joined.
    A player earns each kind once; Union and Discovery go to the first two, Honour and
    Respect to the first only.
    """
    board = state.board
    counts = feat_counts()
    feats = state.feats
    t = state.territory
    if space != TOTEM:
        if len(group) >= 4 and seat not in feats[UNION] and len(feats[UNION]) < counts[UNION]:
            feats[UNION].append(seat)
            where = tuple(sorted({board.space_territory[s] for s in group}))  # a territory of the settlement
            state.feat_queue.append((UNION, seat, where))
        if state.free[t] == 0 and seat not in feats[DISCOVERY] and len(feats[DISCOVERY]) < counts[DISCOVERY]:
            feats[DISCOVERY].append(seat)
            others = tuple(i for i in range(len(board.territories)) if i != t)  # any other territory
            state.feat_queue.append((DISCOVERY, seat, others))
        return
    # A totem can only win a majority on the connections of its own territory.
    for kind, feat in ((LAND, HONOUR), (SEA, RESPECT)):
        if seat in feats[feat] or len(feats[feat]) >= counts[feat]:
            continue
        held = tuple(c for c in board.territory_connections[t]
                     if board.connections[c].kind == kind and not state.covered[c]
                     and seat in totem_majority_holders(state, c))
        if held:
            feats[feat].append(seat)
            state.feat_queue.append((feat, seat, held))


def place(state: IwariState, move: Move, events: list[Event]) -> None:
    """Place the first queued feat where ``move`` says (a listed target)."""
    board = state.board
    kind, seat, _ = state.feat_queue.pop(0)
    if kind in (UNION, DISCOVERY):
        target = board.territory_index[move["territory"]]
        state.territory_factor[target] += 1
        where = {"territory": move["territory"]}
    else:
        target = board.connection_by_number[move["connection"]]
        state.connection_factor[target] += 1
        where = {"connection": move["connection"]}
    state.feat_places.append((kind, seat, target))
    events.append(Event("iwari.feat", {"seat": seat, "feat": FEATS[kind], **where}))
