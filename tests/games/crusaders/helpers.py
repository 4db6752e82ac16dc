"""Shared helpers for the Crusaders rule tests: started games and hand-set positions."""

from __future__ import annotations

from typing import Any

from ludoteca.engine import Event
from ludoteca.games.crusaders import CrusadersGame
from ludoteca.games.crusaders.components import components
from ludoteca.games.crusaders.state import CrusadersState

GAME = CrusadersGame()
C = components()
# The tests' own wheel (set by setup() unless a wheel option is given): positions 0..5 hold these wedges
MOVE_A, MOVE_B, MUSTER, INFLUENCE, BUILD, CRUSADE = range(6)
TEST_WHEEL = ("move_a", "move_b", "muster", "influence", "build", "crusade")


def setup(seats: int = 3, seed: int = 1, **options: Any) -> CrusadersState:
    options.setdefault("knight_orders", False)
    fixed = "wheel" not in options
    options.setdefault("wheel", "first_game")
    state = GAME.setup(seats, options, seed)
    if fixed:
        for p in state.players:
            p.wheel = TEST_WHEEL
    return state


def finish_setup(state: CrusadersState) -> CrusadersState:
    while state.phase in ("order", "setup"):
        seat = GAME.pending(state)[0].seat
        GAME.apply(state, seat, GAME.legal(state, seat)[0])
    return state


def started(seats: int = 3, seed: int = 1, **options: Any) -> CrusadersState:
    return finish_setup(setup(seats, seed, **options))


def rid(state: CrusadersState, region: int) -> str:
    return C.board_for(state.seats).regions[region].id


def idx(state: CrusadersState, region_id: str) -> int:
    return C.board_for(state.seats).index[region_id]


def neighbours(state: CrusadersState, region: int) -> tuple[int, ...]:
    return C.board_for(state.seats).neighbours[region]


def quiet_region(state: CrusadersState, avoid: tuple[int, ...] = ()) -> int:
    """A region with no printed or tile bonus, no enemy and no building, with a quiet neighbour too."""
    board = C.board_for(state.seats)
    for r, reg in enumerate(board.regions):
        if r in avoid or reg.discount or reg.influence or state.tiles[r] or state.enemy[r] or state.buildings[r]:
            continue
        return r
    raise AssertionError("no quiet region")


def clear_map(state: CrusadersState) -> None:
    n = len(state.enemy)
    state.enemy = [""] * n
    state.tiles = [""] * n
    state.buildings = [()] * n


def play(state: CrusadersState, seat: int, move: dict[str, Any]) -> list[Event]:
    return GAME.apply(state, seat, move)


def keys(events: list[Event]) -> list[str]:
    return [e.key for e in events]


def legal_types(state: CrusadersState, seat: int) -> set[str]:
    return {m["type"] for m in GAME.legal(state, seat)}
