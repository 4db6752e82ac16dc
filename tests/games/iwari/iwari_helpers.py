"""Building Iwari positions by hand for the rule tests.

The helpers put pieces straight on the board (keeping every count consistent) and deal
chosen cards, so a test states its position in a few lines and then plays real moves
through the checked path (``GAME.apply``).
"""

from __future__ import annotations

from typing import Any

from ludoteca.engine import Event, Move
from ludoteca.games.iwari import IwariGame
from ludoteca.games.iwari.components import game_map
from ludoteca.games.iwari.rules import CARD_INDEX
from ludoteca.games.iwari.state import IwariState

GAME = IwariGame()


def new(seats: int = 3, seed: int = 1, **options: Any) -> IwariState:
    return GAME.setup(seats, options, seed)


def board(state: IwariState):  # type: ignore[no-untyped-def]
    return game_map(state.map_id)


def tindex(state: IwariState, territory: str) -> int:
    return board(state).territory_index[territory]


def put_tent(state: IwariState, space: str, tribe: int) -> None:
    b = board(state)
    s = b.space_index[space]
    assert state.tents[s] < 0, f"{space} is taken"
    t = b.space_territory[s]
    state.tents[s] = tribe
    state.tent_count[t * state.tribes + tribe] += 1
    state.pieces_in[t] += 1
    state.free[t] -= 1
    state.tents_left[tribe] -= 1


def put_tents(state: IwariState, tribe: int, *spaces: str) -> None:
    for space in spaces:
        put_tent(state, space, tribe)


def put_totems(state: IwariState, territory: str, tribe: int, n: int = 1) -> None:
    t = tindex(state, territory)
    state.totem_count[t * state.tribes + tribe] += n
    state.pieces_in[t] += n
    state.totems_left[tribe] -= n


def deal(state: IwariState, seat: int, *cards: str) -> None:
    """Give ``seat`` exactly these cards (taken from wherever they are); its old hand goes
    to the bottom of the deck, so no card is lost or doubled."""
    wanted = [CARD_INDEX[c] for c in cards]
    for pile in (state.deck, state.display, state.discard, *state.hands):
        for card in wanted:
            if card in pile:
                pile.remove(card)
    state.deck[:0] = state.hands[seat]
    state.hands[seat] = sorted(wanted)
    while len(state.display) < 4:  # a card taken from the display is replaced, as in play
        state.display.append(state.deck.pop())


def play(state: IwariState, seat: int, move: Move) -> list[Event]:
    return GAME.apply(state, seat, move)


def legal_types(state: IwariState, seat: int) -> set[str]:
    return {m["type"] for m in GAME.legal(state, seat)}


def all_cards(state: IwariState) -> list[int]:
    return sorted([*state.deck, *state.display, *state.discard, *(c for h in state.hands for c in h)])
