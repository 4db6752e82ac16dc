"""Hadrian's Wall: the years (HW-3 .. HW-6, HW-11, HW-40 .. HW-46).

Each year: the fate card and production, the player cards chosen and revealed, then after the
actions the Pict attack: the cards flipped, the favours spent against a breach, the
cohorts' blocks, valour and disdain; after the sixth attack, the end.
"""

from __future__ import annotations

from ludoteca.engine import Event, Move

from . import scoring
from .cards import card_name, flip_fate
from .components import ATTRIBUTES, BUILDERS, CIVILIANS, DIRECTIONS, RESOURCES
from .follow_ups import settle
from .sheets import S_COHORTS, S_INN, S_PRODUCTION, S_ROAD, S_WORKSHOP, SECTIONS, C, gain
from .state import PHASE_ATTACK, PHASE_CHOOSE, PHASE_MAIN, PHASE_OVER, HadriansWallState, Player


def start_year(state: HadriansWallState, events: list[Event]) -> None:
    """HW-3..HW-6: fate card, production, player cards."""
    state.year += 1
    state.phase = PHASE_CHOOSE
    state.flips = []
    state.year_card = None  # nothing is on show yet: a reshuffle takes last year's card too (HW-3)
    card = flip_fate(state)
    state.year_card = card
    fate = C.fate_index[card]
    events.append(Event("hw.year", {"year": state.year, "card": card}))
    for seat, p in enumerate(state.players):
        p.year_fills = [0] * len(SECTIONS)
        p.ended = False
        p.chosen = False
        for i in range(5):
            p.stock[i] += fate.gain[i]
        p.stock[RESOURCES] += p.count[S_PRODUCTION]
        p.stock[CIVILIANS] += p.count[S_INN]
        p.stock[BUILDERS] += p.count[S_WORKSHOP]
        for _ in range(p.count[S_ROAD]):
            p.todo.append(["attribute", *ATTRIBUTES])
        p.hand = [p.deck.pop(), p.deck.pop()]
        p.pending_guideline = None
        p.pending_prospect = None
        settle(state, seat)


def reveal(state: HadriansWallState, events: list[Event]) -> None:
    """HW-5: all have chosen: prospects turn face up and give their gifts."""
    state.reveal_count += 1
    for p in state.players:
        assert p.pending_guideline is not None and p.pending_prospect is not None
        p.guidelines.append(p.pending_guideline)
        p.prospect = p.pending_prospect
        p.pending_guideline = None
        p.pending_prospect = None
        gift = C.card_index[card_name(p.prospect)].gift
        for i in range(5):
            p.stock[i] += gift[i]
    state.neutral_open = []
    for _ in range(C.neutral_cards.get(state.seats, 0)):
        if state.neutral_deck:
            state.neutral_open.append(state.neutral_deck.pop())
    state.phase = PHASE_MAIN
    events.append(Event("hw.reveal", {"prospects": [p.prospect for p in state.players],
                                      "neutral": state.neutral_open[:]}))
    for seat in range(state.seats):
        settle(state, seat)


def attack(state: HadriansWallState, events: list[Event]) -> None:
    """HW-11, HW-40, HW-46: workers go back and the Pict cards are flipped; seats that
    can spend a favour decide (HW-42), then the attack is resolved."""
    row = C.years[state.year - 1]
    for p in state.players:
        p.stock = [0, 0, 0, 0, 0]
    state.attack_cards = []
    for _ in range(row[state.difficulty]):
        state.attack_cards.append(flip_fate(state, attacking=True))
    common = [0, 0, 0]
    for card in state.attack_cards:
        common[DIRECTIONS.index(C.fate_index[card].attack)] += 1
    for p in state.players:
        hits = common[:]
        for _ in range(p.extra_picts):
            card = flip_fate(state, attacking=True)
            state.attack_cards.append(card)
            hits[DIRECTIONS.index(C.fate_index[card].attack)] += 1
        p.hits = hits
        p.favours_used = 0
        p.defended = not favour_options(p)
    state.phase = PHASE_ATTACK
    events.append(Event("hw.picts", {"year": state.year, "cards": state.attack_cards[:]}))
    if all(p.defended for p in state.players):
        finish_attack(state, events)


def favour_options(p: Player) -> list[Move]:
    """HW-42: favours that would cancel a card that breaches."""
    out: list[Move] = []
    for d, direction in enumerate(DIRECTIONS):
        if p.hits[d] > p.count[S_COHORTS[d]]:
            if p.dir_favours[d]:
                out.append({"type": "favour", "direction": direction, "favour": "diplomat"})
            if p.temple_favours:
                out.append({"type": "favour", "direction": direction, "favour": "temple"})
    if out:
        out.append({"type": "hold"})
    return out


def finish_attack(state: HadriansWallState, events: list[Event]) -> None:
    """HW-41, HW-43, HW-44: cohorts block, valour and disdain, then the next year."""
    potential = C.years[state.year - 1]["valour"]
    state.last_attack = []
    for seat, p in enumerate(state.players):
        outcome = resolve_attack(p, p.hits, potential)
        outcome["favours"] = p.favours_used
        outcome["extra"] = p.extra_picts
        state.last_attack.append(outcome)
        p.disdain = min(15, p.disdain + outcome["disdain"])
        for _ in range(outcome["valour"]):
            gain(state, seat, "valour")
        p.extra_picts = 0
        p.defended = True
        events.append(Event("hw.attack", {"seat": seat, **outcome}))
    state.neutral_open = []
    if state.year >= 6:
        state.phase = PHASE_OVER
        for p in state.players:
            p.todo = []
            p.stock = [0, 0, 0, 0, 0]  # HW-53: workers won in the last attack are worthless
        scores = [scoring.score(state, s)["total"] for s in range(state.seats)]
        if state.seats == 1:  # HW-47: the log names the solo rank too
            events.append(Event("hw.over_solo", {"scores": scores, "solo_rank": scoring.solo_rank(scores[0])}))
        else:
            events.append(Event("hw.over", {"scores": scores}))
    else:
        start_year(state, events)


def resolve_attack(p: Player, hits: list[int], potential: int) -> dict[str, int]:
    """HW-41, HW-43 for one seat: cohorts block, the rest breaches."""
    breaches = 0
    for d in range(3):
        breaches += max(0, hits[d] - p.count[S_COHORTS[d]])
    if breaches == 0:
        disdain, valour = 0, potential
    else:
        disdain = min(breaches, potential)
        valour = max(0, potential - breaches)
    return {"left": hits[0], "centre": hits[1], "right": hits[2], "breaches": breaches, "disdain": disdain,
            "valour": valour}
