"""Crusaders views: almost everything is open; the knight-order offers (and, until all have
chosen, the choices) are each seat's own, and the undealt orders are nobody's."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from functools import cache
from typing import Any

from ludoteca.engine import Rng

from .actions import action_value
from .components import BUILDINGS, ENEMIES, components
from .economy import bonus, enemy_strength
from .scoring import breakdown
from .state import CrusadersState

ORDER_IDS = tuple(o.id for o in components().orders)


def _player_view(state: CrusadersState, seat: int, viewer: int | None) -> dict[str, Any]:
    c = components()
    board = c.board_for(state.seats)
    p = state.players[seat]
    own = viewer == seat
    # Knight's Tournament: a wheel being arranged is its player's own until everyone has chosen (CR-42)
    hidden_wheel = state.wheel_option == "tournament" and not state.revealed and not own
    wheel = []
    for pos, wid in enumerate(() if hidden_wheel else p.wheel):
        wedge = c.wedges[c.wedge_index[wid]]
        wheel.append({"wedge": wid, "action": wedge.action, "upgrade": wedge.upgrade,
                      "upgraded": p.upgraded[pos], "tokens": p.tokens[pos]})
    data: dict[str, Any] = {
        "wheel": wheel,
        "wheel_done": len(p.wheel) == 6,
        "knights": [board.regions[k].id if k >= 0 else None for k in p.knights],
        "buildings": {name: p.built[i] for i, name in enumerate(BUILDINGS)},
        "next_costs": {name: (c.buildings[name].costs[p.built[i]] if p.built[i] < 4 else None)
                       for i, name in enumerate(BUILDINGS)},
        "troops": p.troops,
        "next_troop_cost": c.troops[p.troops].cost if p.troops < len(c.troops) else None,
        "influence": p.influence,
        "defeated": {name: p.defeated[i] for i, name in enumerate(ENEMIES)},
        "bonuses": {kind: bonus(p, kind) for kind in ("move", "muster", "crusade", "influence", "build")},
        "order": p.order if (state.revealed or own) else None,
        "order_chosen": bool(p.order),
    }
    if own:
        data["offers"] = list(p.offers)
        data["rejected"] = p.rejected or None
    return data


def _tile(tile_id: str) -> dict[str, Any] | None:
    if not tile_id:
        return None
    tile = components().tile_index[tile_id]
    return {"id": tile.id, "building": tile.building, "discount": tile.discount, "influence": tile.influence}


@cache
def _catalogue() -> dict[str, Any]:
    """The printed player boards (building rows, troops), so a client can draw what is still to
    come without its own copy of the data; the same for every game, so cached."""
    c = components()
    return {
        "buildings": {name: {"costs": list(b.costs), "uncovers": [dict(u) for u in b.uncovers], "end": dict(b.end)}
                      for name, b in c.buildings.items()},
        "troops": [{"cost": t.cost, "influence": t.influence, "crusade": t.crusade} for t in c.troops],
        "wedges": {w.id: {"action": w.action, "upgrade": w.upgrade} for w in c.wedges},
    }


def view(state: CrusadersState, seat: int | None) -> dict[str, Any]:
    c = components()
    board = c.board_for(state.seats)
    regions = []
    for r, reg in enumerate(board.regions):
        regions.append({
            "id": reg.id,
            "name": reg.name,
            "q": reg.q,
            "r": reg.r,
            "start": reg.start,
            "flag": reg.flag,
            "discount": dict(reg.discount),
            "influence": dict(reg.influence),
            "enemy": state.enemy[r] or None,
            "buildings": [{"seat": b[0], "building": b[1], "level": b[2]} for b in state.buildings[r]],
            "tile": _tile(state.tiles[r]),
            "knights": [s for s, p in enumerate(state.players) for k in p.knights if k == r],
        })
    turn: dict[str, Any] = {"phase": state.phase, "current": state.current}
    if state.phase not in ("order", "setup", "over"):
        cur = state.players[state.current]
        if state.wedge >= 0:
            turn["wedge"] = cur.wheel[state.wedge]
        turn["actions"] = [{"action": a, "tokens": x, "value": action_value(state, state.current, a, x)}
                           for a, x in state.actions]
        if state.phase in ("move", "crusade", "build"):
            turn["value"] = state.points
        if state.phase == "saracen":
            turn["reward"] = state.reward
            turn["region"] = board.regions[state.sara_region].id
    if state.phase == "setup":
        turn["task"] = state.setup_tasks[0][1]
    out: dict[str, Any] = {
        "game": "crusaders",
        "seat": seat,
        "seats": state.seats,
        "board": state.side,
        "options": {"knight_orders": state.knight_orders, "wheel": state.wheel_option},
        "round": state.round,
        "supply": state.supply,
        "ending": state.ending,
        "tracks": {name: {"step": state.track[i], "strength": enemy_strength(state, name),
                          "values": list(c.tracks[name])}
                   for i, name in enumerate(("prussian", "slav"))},
        "saracen_strength": c.saracen_strength,
        "catalogue": copy.deepcopy(_catalogue()),  # a copy: views may be changed by their readers
        "regions": regions,
        "players": [_player_view(state, s, seat) for s in range(state.seats)],
        "turn": turn,
    }
    if state.phase == "over":
        out["scores"] = breakdown(state)
    return out


def secrets(state: CrusadersState) -> dict[int | None, set[str]]:
    if state.wheel_option == "tournament":
        # Every order and wedge id is open to every seat (the same order may be chosen twice), so
        # no id is one seat's alone: the hidden choices are moves, named by opening.hidden_choice (CR-42).
        return {None: set()}
    out: dict[int | None, set[str]] = {None: set(state.box)}
    for seat, p in enumerate(state.players):
        if not state.revealed:
            out[seat] = set(p.offers)
        elif p.rejected:
            out[seat] = {p.rejected}
    return out


def determinize(state: CrusadersState, seat: int, rng: Rng) -> CrusadersState:
    """Resample the knight orders ``seat`` has not seen: others' offers and choices before the
    reveal, the tiles they sent back after it, and the box."""
    s = state.clone()
    others = [q for q in range(s.seats) if q != seat]
    if s.wheel_option == "tournament":
        if not s.revealed:
            ids = [w.id for w in components().wedges]
            for q in others:
                p = s.players[q]
                if p.wheel:
                    pool = ids[:]
                    rng.shuffle(pool)
                    p.wheel = tuple(pool[:len(p.wheel)])
                if p.order:
                    p.order = ORDER_IDS[rng.below(len(ORDER_IDS))]
        return s
    if not s.knight_orders:
        return s
    if not s.revealed:
        pool = list(s.box)
        for q in others:
            pool += s.players[q].offers
        pool.sort()
        rng.shuffle(pool)
        for q in others:
            p = s.players[q]
            p.offers = sorted(pool[:2])
            pool = pool[2:]
            if p.order:
                p.order = p.offers[rng.below(2)]
                p.rejected = next(o for o in p.offers if o != p.order)
        s.box = sorted(pool)
    else:
        pool = list(s.box) + [s.players[q].rejected for q in others]
        pool.sort()
        rng.shuffle(pool)
        for q in others:
            p = s.players[q]
            p.rejected = pool.pop()
            p.offers = sorted([p.order, p.rejected])
        s.box = sorted(pool)
    return s


def view_text(v: Mapping[str, Any]) -> str:
    lines = [f"Crusaders, round {v['round']}, supply {v['supply']}{' (ending)' if v['ending'] else ''}, "
             f"phase {v['turn']['phase']}, seat {v['turn']['current']} to act",
             "tracks: " + ", ".join(f"{k} {t['strength']}" for k, t in v["tracks"].items())]
    for s, p in enumerate(v["players"]):
        wheel = " ".join(f"{w['action']}{'+' + w['upgrade'] if w['upgraded'] else ''}:{w['tokens']}"
                         for w in p["wheel"])
        lines.append(f"seat {s}: influence {p['influence']} order {p['order']} knights {p['knights']} "
                     f"buildings {p['buildings']} troops {p['troops']} defeated {p['defeated']}")
        lines.append(f"   wheel {wheel}   bonuses {p['bonuses']}")
    for r in v["regions"]:
        if r["enemy"] or r["buildings"] or r["knights"] or r["tile"]:
            tile = r["tile"]["id"] if r["tile"] else None
            lines.append(f"  {r['id']} ({r['name']}): enemy={r['enemy']} knights={r['knights']} tile={tile} "
                         f"buildings={[(b['seat'], b['building'], b['level']) for b in r['buildings']]}")
    return "\n".join(lines)
