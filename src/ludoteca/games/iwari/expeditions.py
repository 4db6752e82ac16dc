"""IW-20, the expeditions option: missions that score for the first two to complete them.

The published missions are not public; data/expeditions.json holds the rebuilt deck.
Missions are checked after each piece a player (not the third tribe) places.
"""

from __future__ import annotations

from ludoteca.engine import Event

from .components import expeditions, pieces
from .state import IwariState


def mission_met(state: IwariState, seat: int, card: int, settlement: int) -> bool:
    """Whether ``seat`` has now completed expedition ``card``; ``settlement`` is the size
    of the settlement its last tent joined (0 after a totem: settlements did not change)."""
    e = expeditions().cards[card]
    territories = state.board.territories
    tribes = state.tribes
    mission = e.mission
    if mission == "settlement":
        return settlement >= e.count
    if mission == "totems":
        return pieces().totems - state.totems_left[seat] >= e.count
    if mission == "totem_territories":
        return sum(1 for t in territories if state.totem_count[t.index * tribes + seat]) >= e.count
    tents = state.tent_count
    with_tents = [t for t in territories if tents[t.index * tribes + seat]]
    if mission == "territories":
        return len(with_tents) >= e.count
    if mission == "biomes":
        return len({t.biome for t in with_tents}) >= e.count
    if mission == "biome_tents":
        return sum(tents[t.index * tribes + seat] for t in with_tents if t.biome == e.biome) >= e.count
    # "majorities": territories where the seat has the most tents (ties count)
    held = 0
    for t in with_tents:
        base = t.index * tribes
        held += tents[base + seat] == max(tents[base:base + tribes])
    return held >= e.count


def check(state: IwariState, seat: int, settlement: int, events: list[Event]) -> None:
    """Score the face-up expeditions ``seat`` has just completed (first value, then second)."""
    deck = expeditions().cards
    for i, card in enumerate(state.expedition_cards):
        done = state.expedition_done[i]
        if len(done) >= 2 or seat in done or not mission_met(state, seat, card, settlement):
            continue
        points = deck[card].values[len(done)]
        done.append(seat)
        state.scores[seat] += points
        state.expedition_points[seat] += points
        events.append(Event("iwari.expedition", {"seat": seat, "expedition": deck[card].id, "points": points,
                                                 "rank": len(done)}))
