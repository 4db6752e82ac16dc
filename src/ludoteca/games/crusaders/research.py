"""Crusaders: action vocabulary and observation layout.

Actions, in this order (R regions of the board for this seat count, in board order):
``order`` x the 10 knight orders, ``arrange`` x the 6 wedges (a wheel arranged by its
player), ``place_knight`` x R, ``remove_token``, ``add_token``,
``setup_upgrade``, ``resolve``, ``upgrade`` x 6 wheel positions each, ``skip``,
``split`` x primary 0..most tokens a wedge can hold x the 5 actions, ``stop``,
``step`` x knight (0..most knights) x R, ``crusade`` x R, ``pass``, ``saracen`` x
(troop, building, influence), ``build`` x 4 buildings x R, ``sow_wedge`` x 6, ``no_sow``,
``sow`` x from (next, same) x dir (cw, ccw) x skip (-1, 0..5) x double (-1, 0..5).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import numpy as np

from ludoteca.engine import Move, OptionValue
from ludoteca.games.crusaders.components import BUILDINGS, ENEMIES, components
from ludoteca.rl.observation import Encoder

UNORDERED: frozenset[str] = frozenset()
C = components()
ACTIONS = ("move", "muster", "crusade", "influence", "build")
"""The five actions, in a fixed order (not the wheel data's, which may be rearranged)."""
if not {a for w in C.wedges for a in (w.action, w.upgrade)} <= set(ACTIONS):
    raise ValueError("crusaders: a wedge names an action the RL adapter does not know")
ENEMY_KINDS = tuple(dict.fromkeys(C.enemy_tokens))
TILES = tuple(C.tile_index)
ORDERS = tuple(C.order_index)
WEDGES = tuple(w.id for w in C.wedges)
PHASES = ("order", "setup", "turn", "split", "move", "crusade", "saracen", "build", "after_upgrade", "skip", "sow",
          "over")
TASKS = ("remove", "extra", "upgrade", "place")
SARACEN = ("troop", "building", "influence")


def max_tokens() -> int:
    """The most tokens one wedge can ever hold: every token of the wheel on it, with the
    knight order that adds the most."""
    move_wedges = sum(1 for w in C.wedges if w.action == "move")
    most = max([6 * C.tokens_per_wedge] + [6 * o.tokens_per_wedge + o.extra_tokens + o.extra_move_tokens * move_wedges
                                           for o in C.orders])
    return most


def max_knights() -> int:
    return C.knights + (1 if any(o.extra_knight for o in C.orders) else 0)


def actions(seats: int, options: Mapping[str, OptionValue]) -> Iterator[Move]:
    regions = [r.id for r in C.board_for(seats).regions]
    for order in ORDERS:
        yield {"type": "order", "order": order}
    for wedge in WEDGES:
        yield {"type": "arrange", "wedge": wedge}
    for r in regions:
        yield {"type": "place_knight", "region": r}
    for kind in ("remove_token", "add_token", "setup_upgrade", "resolve", "upgrade"):
        for pos in range(6):
            yield {"type": kind, "wedge": pos}
    yield {"type": "skip"}
    for k in range(max_tokens() + 1):
        for action in ACTIONS:
            yield {"type": "split", "primary": k, "first": action}
    yield {"type": "stop"}
    for knight in range(max_knights()):
        for r in regions:
            yield {"type": "step", "knight": knight, "to": r}
    for r in regions:
        yield {"type": "crusade", "region": r}
    yield {"type": "pass"}
    for take in SARACEN:
        yield {"type": "saracen", "take": take}
    for name in BUILDINGS:
        for r in regions:
            yield {"type": "build", "building": name, "region": r}
    for pos in range(6):
        yield {"type": "sow_wedge", "wedge": pos}
    yield {"type": "no_sow"}
    for start in ("next", "same"):
        for direction in ("cw", "ccw"):
            for skip in range(-1, 6):
                for double in range(-1, 6):
                    yield {"type": "sow", "from": start, "dir": direction, "skip": skip, "double": double}


class Observation(Encoder):
    def build(self) -> None:
        seats = self.seats
        board = C.board_for(seats)
        self.regions = {r.id: i for i, r in enumerate(board.regions)}
        nr = len(self.regions)
        self.tokens = max_tokens()
        self.supply = C.supply_base + C.supply_per_player * seats
        self.per_region = len(ENEMY_KINDS) + seats * len(BUILDINGS) + len(TILES) + seats
        self.per_player = 6 * (len(WEDGES) + 2) + 1 + len(BUILDINGS) + 2 + len(ENEMIES) + len(ACTIONS) + len(ORDERS) + 1
        add = self.layout.add
        self.o_seat = add("seat", seats, "one-hot: the observing seat")
        self.o_game = add("game", 3, "round / 60, influence supply / its start, 1 if the end is triggered")
        self.o_tracks = add("tracks", 4, "Prussian step / 10, strength / 10, Slav step / 10, strength / 10")
        self.o_regions = add("regions", nr * self.per_region,
                             f"per region (board order): one-hot enemy token ({', '.join(ENEMY_KINDS)}); "
                             f"per seat, per building ({', '.join(BUILDINGS)}): buildings there / 2; "
                             "one-hot bonus tile (the bonus tiles in data order); per seat: knights / 3")
        self.o_players = add("players", seats * self.per_player,
                             f"per seat: per wheel position, one-hot wedge "
                             f"({', '.join(WEDGES)}), upgraded, tokens / {self.tokens}; knights off the board / 4; "
                             "buildings per type / 4; troops / 5; influence / 100; enemies defeated per kind / 10; "
                             f"bonuses per action ({', '.join(ACTIONS)}) / 5; one-hot knight order (once revealed "
                             "or own); 1 if it has chosen its order")
        self.o_offers = add("offers", 2 * len(ORDERS),
                            "multi-hot: the observing seat's offered orders, then its rejected one")
        self.o_phase = add("phase", len(PHASES), f"one-hot: the phase ({', '.join(PHASES)})")
        self.o_current = add("current", seats, "one-hot: the seat to act")
        self.o_wedge = add("wedge", len(WEDGES), "one-hot: the wedge being resolved")
        self.o_actions = add("actions", 2 * len(ACTIONS),
                             f"per action ({', '.join(ACTIONS)}): tokens split to it / {self.tokens}, its value / 20")
        self.o_turn = add("turn", 2, "action points left / 20, Saracen reward / 10")
        self.o_region = add("saracen_region", nr, "one-hot: the Saracen's region being resolved")
        self.o_task = add("task", len(TASKS), f"one-hot: the set-up task ({', '.join(TASKS)})")

    def fill(self, view: Mapping[str, Any], out: np.ndarray) -> None:
        seats = self.seats
        self.one_hot(out, self.o_seat, view.get("seat"))
        self.counts(out, self.o_game, (view["round"],), 60)
        self.counts(out, self.o_game + 1, (view["supply"],), self.supply)
        out[self.o_game + 2] = float(bool(view["ending"]))
        tracks = view["tracks"]
        self.counts(out, self.o_tracks, (tracks["prussian"]["step"], tracks["prussian"]["strength"],
                                         tracks["slav"]["step"], tracks["slav"]["strength"]), 10)
        nb = len(BUILDINGS)
        for region in view["regions"]:
            at = self.o_regions + self.regions[region["id"]] * self.per_region
            if region["enemy"]:
                out[at + ENEMY_KINDS.index(region["enemy"])] = 1.0
            at += len(ENEMY_KINDS)
            for b in region["buildings"]:
                out[at + b["seat"] * nb + BUILDINGS.index(b["building"])] += 0.5
            at += seats * nb
            if region["tile"]:
                out[at + TILES.index(region["tile"]["id"])] = 1.0
            at += len(TILES)
            for s in region["knights"]:
                out[at + s] += 1 / 3
        for s, p in enumerate(view["players"]):
            at = self.o_players + s * self.per_player
            for pos, wedge in enumerate(p["wheel"]):
                base = at + pos * (len(WEDGES) + 2)
                out[base + WEDGES.index(wedge["wedge"])] = 1.0
                out[base + len(WEDGES)] = float(bool(wedge["upgraded"]))
                self.counts(out, base + len(WEDGES) + 1, (wedge["tokens"],), self.tokens)
            at += 6 * (len(WEDGES) + 2)
            self.counts(out, at, (sum(1 for k in p["knights"] if k is None),), 4)
            at += 1
            self.counts(out, at, [p["buildings"][b] for b in BUILDINGS], 4)
            at += nb
            self.counts(out, at, (p["troops"],), 5)
            self.counts(out, at + 1, (p["influence"],), 100)
            at += 2
            self.counts(out, at, [p["defeated"][e] for e in ENEMIES], 10)
            at += len(ENEMIES)
            self.counts(out, at, [p["bonuses"].get(a, 0) for a in ACTIONS], 5)
            at += len(ACTIONS)
            if p["order"]:
                out[at + ORDERS.index(p["order"])] = 1.0
            at += len(ORDERS)
            out[at] = float(bool(p["order_chosen"]))
            if "offers" in p:
                for order in p["offers"]:
                    out[self.o_offers + ORDERS.index(order)] = 1.0
                if p.get("rejected"):
                    out[self.o_offers + len(ORDERS) + ORDERS.index(p["rejected"])] = 1.0
        turn = view["turn"]
        self.one_hot(out, self.o_phase, PHASES.index(turn["phase"]))
        self.one_hot(out, self.o_current, turn["current"])
        if "wedge" in turn:
            self.one_hot(out, self.o_wedge, WEDGES.index(turn["wedge"]))
        for entry in turn.get("actions", []):
            k = ACTIONS.index(entry["action"])
            self.counts(out, self.o_actions + 2 * k, (entry["tokens"],), self.tokens)
            self.counts(out, self.o_actions + 2 * k + 1, (entry["value"],), 20)
        self.counts(out, self.o_turn, (turn.get("value", 0),), 20)
        reward = turn.get("reward", 0)
        self.counts(out, self.o_turn + 1, (reward if isinstance(reward, int | float) else 0,), 10)
        if "region" in turn:
            self.one_hot(out, self.o_region, self.regions[turn["region"]])
        if "task" in turn:
            self.one_hot(out, self.o_task, TASKS.index(turn["task"]))


def setup_of(view: Mapping[str, Any]) -> tuple[int, dict[str, OptionValue]]:
    """The seat count and options of a match, from any of its views."""
    return view["seats"], dict(view["options"])
