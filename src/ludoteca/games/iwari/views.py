"""What each seat may see (IW-18), the secrets, and determinization for search bots.

Hidden: the hands (each seen only by its owner) and the deck's order and contents.
Public: the board, the display, the discards (as biomes: their ids are of no use to
anyone and would only make secrets easier to leak), every count and score.
"""

from __future__ import annotations

from typing import Any

from ludoteca.engine import Rng

from .components import BIOMES, FEATS, cards, expeditions, game_map
from .rules import legal
from .state import OVER, PHASES, TOTEM, IwariState

CARD_IDS = cards().ids
CARD_BIOME = cards().biome


def view(state: IwariState, seat: int | None) -> dict[str, Any]:
    board = state.board
    tribes = state.tribes
    tids = [t.id for t in board.territories]
    piece: str | None = None
    if state.piece == TOTEM:
        piece = "totem"
    elif state.piece >= 0:
        piece = board.space_ids[state.piece]
    out: dict[str, Any] = {
        "map": state.map_id,
        "board": board.drawing,  # static: the geometry and structure the browser draws
        "seats": state.seats,
        "tribes": tribes,
        "options": {"feats": state.feats_on, "expeditions": state.expeditions_on},
        "phase": PHASES[state.phase],
        "current": state.current,
        "tribe": state.tribe,
        "territory": tids[state.territory] if state.territory >= 0 else None,
        "placed": state.placed,
        "limit": state.limit,
        "piece": piece,
        "turns": state.turns,
        "tents": {board.space_ids[s]: tribe for s, tribe in enumerate(state.tents) if tribe >= 0},
        "totems": {tids[t]: state.totem_count[t * tribes:(t + 1) * tribes] for t in range(len(tids))
                   if any(state.totem_count[t * tribes:(t + 1) * tribes])},
        "mountains": [c.number for c in board.connections if state.covered[c.index]],
        "territory_factors": {tids[t]: f for t, f in enumerate(state.territory_factor) if f != 1},
        "connection_factors": {str(board.connections[c].number): f
                               for c, f in enumerate(state.connection_factor) if f != 1},
        "display": [CARD_IDS[c] for c in state.display],
        "discard": [BIOMES[CARD_BIOME[c]] for c in state.discard],
        "deck": len(state.deck),
        "hand_sizes": [len(hand) for hand in state.hands],
        "tents_left": state.tents_left[:],
        "totems_left": state.totems_left[:],
        "scores": state.scores[:],
        "exhaustions": state.exhaustions,
        "end_triggered": state.end_triggered,
        "half_journey": None if state.half is None else {tids[t]: row for t, row in enumerate(state.half)},
    }
    if state.feats_on:
        out["feats"] = {FEATS[k]: seats[:] for k, seats in enumerate(state.feats)}
        out["feat_queue"] = [{"feat": FEATS[k], "seat": s} for k, s, _ in state.feat_queue]
    if state.expeditions_on:
        out["expeditions"] = [_expedition(c, done)
                              for c, done in zip(state.expedition_cards, state.expedition_done, strict=True)]
    if seat is not None and 0 <= seat < state.seats:
        out["seat"] = seat
        out["hand"] = [CARD_IDS[c] for c in state.hands[seat]]
    return out


def _expedition(card: int, done: list[int]) -> dict[str, Any]:
    """A face-up expedition card as a player reads it (IW-20): its mission (what, how many,
    which biome), the points for the first and second to complete it, and who did, with
    the points each scored (the first completer the first value, the second the second)."""
    e = expeditions().cards[card]
    return {"id": e.id, "mission": e.mission, "count": e.count, "biome": BIOMES[e.biome] if e.biome >= 0 else None,
            "values": list(e.values), "done": done[:],
            "completed": [{"seat": seat, "points": e.values[rank]} for rank, seat in enumerate(done)]}


def secrets(state: IwariState) -> dict[int | None, set[str]]:
    out: dict[int | None, set[str]] = {seat: {CARD_IDS[c] for c in hand} for seat, hand in enumerate(state.hands)}
    out[None] = {CARD_IDS[c] for c in state.deck}
    return out


def determinize(state: IwariState, seat: int, rng: Rng) -> IwariState:
    """Resample the cards ``seat`` cannot see: the other hands and the deck (sizes kept).

    Mid-move, the seat playing is committed to a territory or a piece its hand can pay
    for; a resampled hand must still allow that, so a draw that leaves the mover without
    a legal move is redrawn (a few times, then that hand is kept as it is).
    """
    for _ in range(_TRIES):
        copy = _resample(state, seat, rng)
        if copy.phase == OVER or legal(copy, copy.current):
            return copy
    copy = _resample(state, seat, rng, keep=copy.current)
    return copy


_TRIES = 20


def _resample(state: IwariState, seat: int, rng: Rng, keep: int = -1) -> IwariState:
    copy = state.copy()
    hidden = [other for other in range(copy.seats) if other not in (seat, keep)]
    pool = list(copy.deck)
    for other in hidden:
        pool.extend(copy.hands[other])
    rng.shuffle(pool)
    for other in hidden:
        size = len(copy.hands[other])
        copy.hands[other] = sorted(pool[:size])
        del pool[:size]
    copy.deck = pool
    return copy


def view_text(data: dict[str, Any]) -> str:
    """A compact terminal rendering of a view: one line per territory, then cards and scores."""
    board = game_map(data["map"])
    tribes = data["tribes"]
    lines = [f"map {board.name}; phase {data['phase']}; seat {data['current']} to play (tribe {data['tribe']})"]
    for t in board.territories:
        tents = [0] * tribes
        free = 0
        for s in t.spaces:
            owner = data["tents"].get(board.space_ids[s])
            if owner is None:
                free += 1
            else:
                tents[owner] += 1
        totems = data["totems"].get(t.id, [0] * tribes)
        factor = data["territory_factors"].get(t.id, 1)
        lines.append(f"  {t.id:<10} tents {'/'.join(map(str, tents))} ({free} free)  "
                     f"totems {'/'.join(map(str, totems))}" + (f"  x{factor}" if factor != 1 else ""))
    lines.append(f"mountains on {', '.join(map(str, data['mountains'])) or 'none'}")
    lines.append(f"display: {', '.join(data['display'])}; deck {data['deck']}; discards {len(data['discard'])}")
    for e in data.get("expeditions", []):
        what = f"{e['mission']} {e['count']}" + (f" {e['biome']}" if e["biome"] else "")
        by = ", ".join(f"seat {c['seat']} +{c['points']}" for c in e["completed"]) or "nobody yet"
        lines.append(f"expedition {e['id']} ({what}; {e['values'][0]}/{e['values'][1]}): {by}")
    if "hand" in data:
        lines.append(f"your hand: {', '.join(data['hand']) or 'empty'}")
    lines.append(f"scores {data['scores']}; tents left {data['tents_left']}; totems left {data['totems_left']}")
    return "\n".join(lines)
