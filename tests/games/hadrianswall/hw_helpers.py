"""Shared helpers for the Hadrian's Wall rule tests."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ludoteca.engine import IllegalMove, Rng
from ludoteca.games.hadrianswall import HadriansWallGame, sheets
from ludoteca.games.hadrianswall.components import STOCK, components
from ludoteca.games.hadrianswall.state import HadriansWallState

G = HadriansWallGame()
C = components()


def new(seats: int = 1, seed: int = 0, **options: Any) -> HadriansWallState:
    return G.setup(seats, options, seed)


def choose_all(state: HadriansWallState) -> None:
    while state.phase == "choose":
        decision = G.pending(state)[0]
        G.apply(state, decision.seat, G.legal(state, decision.seat)[0])


def main(seats: int = 1, seed: int = 0, **options: Any) -> HadriansWallState:
    """A state in the first year's action phase, follow-ups (roads) settled, stock emptied."""
    state = new(seats, seed, **options)
    choose_all(state)
    for seat in range(seats):
        state.players[seat].todo = []
        state.players[seat].stock = [0, 0, 0, 0, 0]
    return state


def give(state: HadriansWallState, seat: int = 0, **amounts: int) -> None:
    for name, n in amounts.items():
        state.players[seat].stock[STOCK.index(name)] = n


def sec(name: str) -> int:
    return C.section_index[name]


def box(name: str) -> int:
    return C.box_index[name]


def set_count(state: HadriansWallState, seat: int, name: str, n: int, year: int = 1) -> None:
    """Fill the first n boxes of a section silently (no rewards)."""
    p = state.players[seat]
    s = sec(name)
    for i, b in enumerate(C.sections[s].boxes):
        p.boxes[b] = year if i < n else 0
    p.count[s] = n


def count(state: HadriansWallState, seat: int, name: str) -> int:
    return state.players[seat].count[sec(name)]


def fill_ids(state: HadriansWallState, seat: int = 0) -> list[str]:
    return [m["box"] for m in G.legal(state, seat) if m["type"] == "fill"]


def fill(state: HadriansWallState, seat: int, box_id: str, pay: str | None = None) -> list[Any]:
    move: dict[str, Any] = {"type": "fill", "box": box_id}
    if pay is not None:
        move["pay"] = pay
    return G.apply(state, seat, move)


def why(state: HadriansWallState, seat: int, box_id: str) -> str | None:
    return sheets.block(state, seat, box(box_id))


def stock(state: HadriansWallState, seat: int = 0) -> dict[str, int]:
    return dict(zip(STOCK, state.players[seat].stock, strict=True))


def end_year_all(state: HadriansWallState, spend: bool = False) -> None:
    """Every seat ends its year; at the attack, favours are kept (or spent, with ``spend``)."""
    for seat in range(state.seats):
        p = state.players[seat]
        while not p.ended and state.phase == "main":
            legal = G.legal(state, seat)
            G.apply(state, seat, {"type": "end_year"} if {"type": "end_year"} in legal else legal[0])
    while state.phase == "attack":
        decision = G.pending(state)[0]
        legal = G.legal(state, decision.seat)
        G.apply(state, decision.seat, legal[0] if spend else {"type": "hold"})


def rejected(state: HadriansWallState, seat: int, move: dict[str, Any]) -> str:
    try:
        G.apply(state, seat, move)
    except IllegalMove as error:
        return error.code
    raise AssertionError(f"{move} was accepted")


def sampled_positions(seed: int, every: int, games: int = 3, seats: int = 3) -> Iterator[HadriansWallState]:
    """Positions of ``games`` uniformly random games, about one move in ``every``, at every
    stage; each is the live state, to inspect before the next is asked for."""
    rng = Rng(seed)
    for deal in range(games):
        state = G.setup(seats, {}, deal)
        while G.result(state) is None:
            seat = G.pending(state)[0].seat
            G.perform(state, seat, rng.choice(G.legal(state, seat)))
            if rng.below(every) == 0:
                yield state
