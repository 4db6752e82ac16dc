"""Hadrian's Wall: the cards a seat may use beyond its sheets.

The fate deck (turned up for the year, the attacks, trades and fights, reshuffled when it
runs out), and whose cards a seat may follow for a trade good or a scout's pattern: its own
prospect, its neighbours', the neutral cards; paying for one (HW-3, HW-10, HW-28, HW-37,
HW-39, HW-54, HW-55).
"""

from __future__ import annotations

from typing import Any

from ludoteca.engine import Event, Move

from .components import STOCK, components
from .state import HadriansWallState

C = components()


def neighbours(state: HadriansWallState, seat: int) -> list[int]:
    """HW-39: the seats on either side (one seat with two players, none solo)."""
    n = state.seats
    if n == 1:
        return []
    if n == 2:
        return [1 - seat]
    return [(seat - 1) % n, (seat + 1) % n]


def flip_fate(state: HadriansWallState, attacking: bool = False) -> str:
    """Turn the top fate card face up onto the discard (HW-3). When the deck runs out the
    discard is shuffled into a new deck, except the year's card and, during an attack,
    the Pict cards already flipped; the other cards on show leave the table."""
    if not state.fate_deck:
        keep = {state.year_card}
        if attacking:
            keep |= set(state.attack_cards)
        else:
            state.attack_cards = []
        state.flips = []
        pile = [c for c in state.fate_discard if c not in keep]
        state.fate_discard = [c for c in state.fate_discard if c in keep]
        state.rng.shuffle(pile)
        state.fate_deck = pile
    card = state.fate_deck.pop()
    state.fate_discard.append(card)
    state.reveal_count += 1
    return card


def scout_sources(state: HadriansWallState, seat: int) -> list[Move]:
    """HW-37: whose pattern a scout may follow, where one still fits the map."""
    out: list[Move] = []
    p = state.players[seat]
    if p.prospect and fits(p.map, C.card_index[card_name(p.prospect)].pattern):
        out.append({"type": "scout", "from": "own"})
    for n in neighbours(state, seat):
        q = state.players[n]
        if q.prospect and fits(p.map, C.card_index[card_name(q.prospect)].pattern):
            out.append({"type": "scout", "from": "seat", "seat": n})
    for card in state.neutral_open:
        if fits(p.map, C.card_index[card_name(card)].pattern):
            out.append({"type": "scout", "from": "neutral", "card": card})
    return out


def fits(grid: int, pattern: str) -> bool:
    return any(not grid & mask for mask in C.placements[pattern])


def trade_sources(state: HadriansWallState, seat: int) -> list[Move]:
    """HW-28: buy a trade good from the fate deck, a neighbour's prospect or a neutral card."""
    out: list[Move] = [{"type": "trade", "from": "fate"}]
    for n in neighbours(state, seat):
        if state.players[n].prospect:
            out.append({"type": "trade", "from": "seat", "seat": n})
    for card in state.neutral_open:
        out.append({"type": "trade", "from": "neutral", "card": card})
    return out


def card_name(card_id: str) -> str:
    return card_id.split("-", 1)[1]


def pay_source(state: HadriansWallState, seat: int, move: Move, what: int, field: str,
                later: list[Event]) -> Any:
    """Pay one resource (trade) or soldier (scout) to the supply, a neighbour or a
    neutral card (HW-10, HW-28, HW-37, HW-54, HW-55) and return the good or the pattern."""
    p = state.players[seat]
    p.stock[what] -= 1
    source = move["from"]
    if source == "fate":
        card = flip_fate(state)
        state.flips.append(card)
        return C.fate_index[card].good
    if source == "seat":
        n = move["seat"]
        other = state.players[n]
        if state.passing:
            other.stock[what] += 1
            if other.ended:
                # HW-54: the year ends only when everyone has finished, so a seat that had
                # ended gets its year back to use what it received (and ends it again).
                other.ended = False
                later.append(Event("hw.reopen", {"seat": n, "from_seat": seat, "gain": STOCK[what]}))
        else:
            p.extra_picts += 1  # HW-55: without resource passing, a Pict card instead
        card_id = other.prospect
    elif source == "neutral":
        p.extra_picts += 1
        card_id = move["card"]
    else:
        card_id = p.prospect
    assert card_id is not None
    followed = C.card_index[card_name(card_id)]
    return followed.good if field == "good" else followed.pattern


def source_args(move: Move) -> dict[str, Any]:
    out: dict[str, Any] = {"from": move["from"]}
    if "seat" in move:
        out["from_seat"] = move["seat"]
    if "card" in move:
        out["card"] = move["card"]
    return out
