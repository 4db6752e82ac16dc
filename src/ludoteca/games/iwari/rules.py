"""Iwari's rules: set-up, whose decision it is, legal moves in small steps, and playing them.

A turn is a sequence of small decisions (IW-5 .. IW-11), so every legal list stays short:

    start  -> {"type": "territory", "territory": "tundra-1"}   (or discard one card, or pass)
    piece  -> {"type": "tent", "space": "tundra-1.3"} | {"type": "totem"} | {"type": "done"}
    pay    -> {"type": "pay", "cards": ["tundra-07"]} | {"type": "pay", "cards": ["coast-02", "coast-05"]}
    ...      (piece / pay again, up to the move's limit)
    feat   -> {"type": "feat", "feat": "union", "territory": "forest-2"}     (feats option)
    third  -> the third tribe's move with the rest of the hand                (2 seats)
    draw   -> {"type": "draw", "from": "deck"} | {"type": "draw", "from": "display", "card": "coast-04"}

Only moves that can be completed are offered: a territory is listed only if a piece
can be placed there and paid for, a piece only if the hand can pay for it.
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Callable, Mapping

from ludoteca.engine import Decision, Event, IllegalMove, Move, OptionValue, Prompt, Rng
from ludoteca.engine.flow import Dispatch

from . import expeditions, feats, scoring
from .components import (
    BIOMES,
    DISCOVERY,
    FEATS,
    UNION,
    cards,
    game_map,
    mountains_by_seats,
    pieces,
)
from .components import expeditions as expedition_deck
from .state import DRAW, FEAT, NO_PIECE, OVER, PAY, PIECE, START, THIRD, TOTEM, IwariState
from .tables import (
    ALL_BIOMES,
    BIT_COUNT,
    CARD_BIT,
    CARD_DIGIT,
    DECK_MOVE,
    DISCARD_MOVES,
    DISPLAY_MOVES,
    DONE_MOVE,
    PASS_MOVE,
    PAY_PATTERNS,
    SEATS,
    TOTEM_MOVE,
    kit,
    pay_pattern,
    payable,
)

CARDS = cards()
CARD_IDS = CARDS.ids
CARD_BIOME = CARDS.biome
CARD_INDEX = {card_id: i for i, card_id in enumerate(CARD_IDS)}
HAND = CARDS.hand
DISPLAY = CARDS.display
THIRD_TRIBE = 2
"""With 2 seats, tribe 2 is the third tribe both players play."""


# -- set-up (IW-1 .. IW-4) ------------------------------------------------------------


def new_state(seats: int, options: Mapping[str, OptionValue], rng: Rng) -> IwariState:
    board = game_map(str(options["map"]))
    stock = pieces()
    s = IwariState.__new__(IwariState)
    s.end = None
    s.rng = rng
    s.seats = seats
    s.tribes = 3 if seats == 2 else seats
    s.map_id = board.id
    s.board = board
    s.kit = kit(board.id)
    s.feats_on = bool(options["feats"])
    s.expeditions_on = bool(options["expeditions"])
    n_t = len(board.territories)
    s.tents = [-1] * len(board.space_ids)
    s.tent_count = [0] * (n_t * s.tribes)
    s.totem_count = [0] * (n_t * s.tribes)
    s.pieces_in = [0] * n_t
    s.free = [len(t.spaces) for t in board.territories]
    s.tents_left = [stock.tents_on_map] * s.tribes
    s.totems_left = [stock.totems] * s.tribes
    s.tent_room = sum(1 << t for t, free in enumerate(s.free) if free > 0)
    s.totem_room = 0  # no tents yet: no majority to hold a totem
    s.room_for = s.pieces_in[:]
    # IW-4: mountains cover one spot of a type; the types are drawn at random.
    s.covered = [0] * len(board.connections)
    types = rng.sample(range(4), mountains_by_seats()[seats])
    for peak in sorted(types):
        s.covered[rng.choice(board.peak_spots[peak])] = 1
    # IW-2: the deck without the boxed cards, shuffled; a display of 4; hands of 3.
    s.deck = CARDS.for_seats(seats)
    rng.shuffle(s.deck)
    s.display = [s.deck.pop() for _ in range(CARDS.display)]
    s.hands = [[s.deck.pop() for _ in range(HAND)] for _ in range(seats)]
    for hand in s.hands:
        hand.sort()
    s.discard = []
    s.phase = START
    s.current = 0
    s.tribe = 0
    s.territory = -1
    s.limit = 0
    s.placed = 0
    s.piece = NO_PIECE
    s.played = 0
    s.exhaustions = 0
    s.end_triggered = False
    s.turns = 0
    s.scores = [0] * s.tribes
    s.half = None
    s.territory_factor = [1] * n_t
    s.connection_factor = [1] * len(board.connections)
    s.feats = [[] for _ in FEATS]
    s.feat_places = []
    s.feat_queue = []
    if s.expeditions_on:
        deck = expedition_deck()
        s.expedition_cards = sorted(rng.sample(range(len(deck.cards)), deck.face_up))
    else:
        s.expedition_cards = []
    s.expedition_done = [[] for _ in s.expedition_cards]
    s.expedition_points = [0] * seats
    return s


# -- small helpers ---------------------------------------------------------------------


def _totem_room_at(state: IwariState, t: int) -> bool:
    """Whether a totem may go in territory ``t``, whoever's stock pays it: IW-7, a territory
    holds at most as many totems (any colours) as its tent majority; IW-24, none at all
    where the map forbids them (Floating Lands: tundra)."""
    base = t * state.tribes
    end = base + state.tribes
    return (state.kit.totem_allowed[t] and state.pieces_in[t] > 0
            and sum(state.totem_count[base:end]) < max(state.tent_count[base:end]))


def room(state: IwariState) -> None:
    """Bring ``tent_room`` and ``totem_room`` up to date if they were not computed for
    the pieces on the board now (a state read back from JSON, pieces put by hand)."""
    if state.room_for == state.pieces_in:
        return
    tent = totem = 0
    for t, free in enumerate(state.free):
        if free > 0:
            tent |= 1 << t
        if _totem_room_at(state, t):
            totem |= 1 << t
    state.tent_room = tent
    state.totem_room = totem
    state.room_for = state.pieces_in[:]


def open_mask(state: IwariState, tribe: int, hand: list[int]) -> int:
    """The territories (bits) where ``tribe`` can place a piece paid from ``hand`` (IW-5, IW-6)."""
    if state.room_for != state.pieces_in:
        room(state)
    mask = state.tent_room if state.tents_left[tribe] > 0 else 0
    if state.totems_left[tribe] > 0:
        mask |= state.totem_room
    return mask & state.kit.biome_territories[payable(hand)]


def open_territories(state: IwariState, tribe: int, hand: list[int]) -> list[int]:
    """The territories where ``tribe`` can place a piece paid from ``hand`` (IW-5, IW-6)."""
    mask = open_mask(state, tribe, hand)
    return [t for t in range(len(state.free)) if mask >> t & 1]


def piece_possible(state: IwariState) -> bool:
    t = state.territory
    kit = state.kit
    if not payable(state.hands[state.current]) & kit.territory_bit[t]:
        return False
    tribe = state.tribe
    if state.free[t] > 0 and state.tents_left[tribe] > 0:
        return True
    return state.limit == 2 and state.totems_left[tribe] > 0 and bool(_totem_room(state) >> t & 1)


# -- who decides -----------------------------------------------------------------------

PROMPTS = {START: "iwari.prompt.start", PIECE: "iwari.prompt.piece", PAY: "iwari.prompt.pay",
           DRAW: "iwari.prompt.draw", FEAT: "iwari.prompt.feat", THIRD: "iwari.prompt.third"}

# Decisions are immutable and few: built once per (phase, seat, ...) and shared; the
# caller gets a fresh list. Per phase * SEATS + seat: the plain phases' decision lists,
# [] when the game is over, None where the rest of the state decides (piece, pay, feat).
_PLAIN: tuple[list[Decision] | None, ...] = tuple(
    [Decision(seat, Prompt(PROMPTS[phase], {"seat": seat}))] if phase in (START, DRAW, THIRD)
    else [] if phase == OVER else None
    for phase in range(OVER + 1) for seat in range(SEATS))
_FEAT_DECISIONS: dict[tuple[int, int], list[Decision]] = {}


def pending(state: IwariState) -> list[Decision]:
    plain = _PLAIN[state.phase * SEATS + state.current]
    if plain is not None:
        return plain[:]
    phase = state.phase
    if phase == FEAT:
        seat, kind = state.current, state.feat_queue[0][0]
        cached = _FEAT_DECISIONS.get((seat, kind))
        if cached is None:
            cached = _FEAT_DECISIONS[seat, kind] = [
                Decision(seat, Prompt(PROMPTS[FEAT], {"seat": seat, "feat": FEATS[kind]}))]
        return cached[:]
    # a piece or a pay decision, shared per (phase, seat, tribe, territory)
    seat, tribe, territory = state.current, state.tribe, state.territory
    cached = state.kit.decisions[phase - PIECE][seat][tribe][territory]
    return (cached or state.kit.decision(phase == PAY, seat, tribe, territory))[:]


# -- legal moves, per phase ----------------------------------------------------------------

Legal = Callable[[IwariState, int], list[Move]]
LEGAL: Dispatch[int, Legal] = Dispatch("iwari: legal moves by phase")
_copy = dict.copy


def legal(state: IwariState, seat: int) -> list[Move]:
    """The moves of ``seat``. The move shapes are built once (tables.py) and copied, since
    callers may keep or change the moves they get. The four phases of almost every
    decision are written out here, the others dispatched: a call costs more than most of
    what these phases do."""
    phase = state.phase
    if seat != state.current or phase == OVER:
        return []
    moves: list[Move]
    if phase == DRAW:
        display = state.display
        if len(display) == DISPLAY and state.deck:
            # the usual draw, unrolled: the deck, then the display's cards in order
            a, b, c, d = display
            return [DECK_MOVE.copy(), DISPLAY_MOVES[a].copy(), DISPLAY_MOVES[b].copy(),
                    DISPLAY_MOVES[c].copy(), DISPLAY_MOVES[d].copy()]
        moves = [DECK_MOVE.copy()] if state.deck else []
        for card in display:
            moves.append(DISPLAY_MOVES[card].copy())
        return moves
    if phase == START:
        hand = state.hands[seat]
        # open_mask, inlined
        if state.room_for != state.pieces_in:
            room(state)
        mask = state.tent_room if state.tents_left[seat] > 0 else 0
        if state.totems_left[seat] > 0:
            mask |= state.totem_room
        if len(hand) != HAND:
            return _legal_start(state, hand, mask)
        # a full hand, unrolled: payable() is the cards' biomes, or all of them if two
        # cards share one (a pair pays anywhere)
        a, b, c = hand
        biomes = CARD_BIT[a] | CARD_BIT[b] | CARD_BIT[c]
        if BIT_COUNT[biomes] < HAND:
            biomes = ALL_BIOMES
        kit = state.kit
        mask &= kit.biome_territories[biomes]
        if mask:
            # the open territories' moves, then IW-11: discard one card and draw one instead
            return [*map(_copy, kit.territory_moves.get(mask) or kit.territory_shapes(mask)),
                    DISCARD_MOVES[a].copy(), DISCARD_MOVES[b].copy(), DISCARD_MOVES[c].copy()]
        return [DISCARD_MOVES[a].copy(), DISCARD_MOVES[b].copy(), DISCARD_MOVES[c].copy()]
    if phase == PIECE:
        t = state.territory
        kit = state.kit
        moves = []
        tribe = state.tribe
        if state.placed < state.limit:
            # payable(), inlined: a card of the territory's biome, or a pair
            need = kit.territory_bit[t]
            biomes = 0
            for card in state.hands[seat]:
                bit = CARD_BIT[card]
                if bit == need or biomes & bit:
                    biomes = ALL_BIOMES
                    break
                biomes |= bit
            if biomes == ALL_BIOMES:
                if state.free[t] > 0 and state.tents_left[tribe] > 0:
                    tents = state.tents
                    shapes = kit.tent_moves
                    for space in kit.spaces[t]:
                        if tents[space] < 0:
                            moves.append(shapes[space].copy())
                if state.limit == 2 and state.totems_left[tribe] > 0:
                    if state.room_for != state.pieces_in:
                        room(state)
                    if state.totem_room >> t & 1:
                        moves.append(TOTEM_MOVE.copy())
        if state.placed and tribe == seat:
            # IW-9: the third tribe's move uses the rest of the hand; it stops only when
            # no further piece can be placed and paid for (the move then ends by itself).
            moves.append(DONE_MOVE.copy())
        return moves
    if phase == PAY:
        # every way to pay (IW-8), as moves: the positions in the hand of each payment, per
        # territory biome and biomes of the hand (as digits 1-5 in base 6), come from a table
        hand = state.hands[seat]
        biome = state.board.territory_biome[state.territory]
        code = biome + 1
        for card in hand:
            code = code * 6 + CARD_DIGIT[card]
        moves = []
        for i, j in PAY_PATTERNS.get(code) or pay_pattern(biome, hand):
            if j < 0:
                moves.append({"type": "pay", "cards": [CARD_IDS[hand[i]]]})
            else:
                moves.append({"type": "pay", "cards": [CARD_IDS[hand[i]], CARD_IDS[hand[j]]]})
        return moves
    return LEGAL[phase](state, seat)


def _legal_start(state: IwariState, hand: list[int], mask: int) -> list[Move]:
    """The start of a turn with fewer than three cards (the deck and display run out):
    the open territories (``mask``: room for the tribe's pieces), the discards, or a pass."""
    moves: list[Move] = []
    mask &= state.kit.biome_territories[payable(hand)]
    if mask:
        moves = list(map(_copy, state.kit.territory_shapes(mask)))
    for card in hand:
        moves.append(DISCARD_MOVES[card].copy())
    return moves or [PASS_MOVE.copy()]


@LEGAL.on(THIRD)
def _legal_third(state: IwariState, seat: int) -> list[Move]:
    mask = open_mask(state, state.tribe, state.hands[seat])
    return list(map(_copy, state.kit.territory_shapes(mask))) if mask else []


@LEGAL.on(FEAT)
def _legal_feat(state: IwariState, seat: int) -> list[Move]:
    board = state.board
    kind, _, targets = state.feat_queue[0]
    if kind in (UNION, DISCOVERY):
        return [{"type": "feat", "feat": FEATS[kind], "territory": board.territories[t].id} for t in targets]
    return [{"type": "feat", "feat": FEATS[kind], "connection": board.connections[c].number} for c in targets]


# -- playing a move, per kind ----------------------------------------------------------------

Play = Callable[[IwariState, int, Move, list[Event]], None]
PLAY: Dispatch[str, Play] = Dispatch("iwari: moves by kind")


def perform(state: IwariState, seat: int, move: Move) -> list[Event]:
    """Play ``move``. The four kinds of almost every move (draw, pay, territory, tent) are
    written out here, the others dispatched (PLAY)."""
    events: list[Event] = []
    kind = move["type"]
    if kind == "draw":
        hand = state.hands[seat]
        deck = state.deck
        if move["from"] == "deck":
            card = deck.pop()
            events.append(_DREW_DECK[seat])
            events.append(_YOU_DREW[seat][card])
            if not deck:
                _deck_exhausted(state, events)
        else:
            card = CARD_INDEX[move["card"]]
            display = state.display
            display.remove(card)
            events.append(_DREW_DISPLAY[seat][CARD_BIOME[card]])
            if deck:
                # The display is refilled from the deck at once (Decisions: IW-10).
                new = deck.pop()
                display.append(new)
                events.append(_REFILLED[new])
                if not deck:
                    _deck_exhausted(state, events)
        insort(hand, card)
        if len(hand) >= HAND or not (state.deck or state.display):
            _end_turn(state, events)
    elif kind == "pay":
        _pay_and_place(state, seat, move["cards"], events)
    elif kind == "territory":
        t = state.board.territory_index[move["territory"]]
        state.territory = t
        state.placed = 0
        # IW-6: an unexplored territory takes exactly one tent; otherwise up to two pieces.
        state.limit = 2 if state.pieces_in[t] else 1
        state.phase = PIECE
    elif kind == "tent":
        state.piece = state.board.space_index[move["space"]]
        state.phase = PAY
    else:
        PLAY[kind](state, seat, move, events)
    return events


@PLAY.on("totem")
def _play_totem(state: IwariState, seat: int, move: Move, events: list[Event]) -> None:
    state.piece = TOTEM
    state.phase = PAY


@PLAY.on("done")
def _play_done(state: IwariState, seat: int, move: Move, events: list[Event]) -> None:
    _finish_move(state, events)


@PLAY.on("discard")
def _play_discard(state: IwariState, seat: int, move: Move, events: list[Event]) -> None:
    card = CARD_INDEX[move["card"]]
    state.hands[seat].remove(card)
    state.discard.append(card)
    events.append(_DISCARDED[seat][CARD_BIOME[card]])
    _enter_draw(state, events)


@PLAY.on("pass")
def _play_pass(state: IwariState, seat: int, move: Move, events: list[Event]) -> None:
    events.append(_PASSED[seat])
    _enter_draw(state, events)


@PLAY.on("feat")
def _play_feat(state: IwariState, seat: int, move: Move, events: list[Event]) -> None:
    feats.place(state, move, events)
    _after_piece(state, events)


def _pay_and_place(state: IwariState, seat: int, cards: list[str], events: list[Event]) -> None:
    """Pay ``cards`` (ids) and place the chosen piece (IW-7, IW-8), then go on with the move."""
    hand = state.hands[seat]
    discard = state.discard
    paid = 0  # the biomes paid, as digits 1-5 in base 6: part of the shared event's key (tables.py)
    for card_id in cards:
        card = CARD_INDEX[card_id]
        hand.remove(card)
        discard.append(card)
        paid = paid * 6 + CARD_DIGIT[card]
    tribe = state.tribe
    if tribe == seat:
        state.played += len(cards)
    t = state.territory
    at = t * state.tribes + tribe
    state.pieces_in[t] += 1
    state.placed += 1
    space = state.piece
    state.piece = NO_PIECE
    kit = state.kit
    room_for = state.room_for
    if space == TOTEM:
        state.totem_count[at] += 1
        state.totems_left[tribe] -= 1
        event = kit.placed_events.get(((tribe * kit.n_pieces + kit.n_spaces + t) << 16) + paid)
        events.append(event or kit.placed_event(tribe, -1, t, paid))
        if room_for is not None:
            # more totems: room for one more can only close (stale masks stay stale)
            room_for[t] += 1
            if state.totem_room >> t & 1:
                base = t * state.tribes
                totems = state.totem_count[base:base + state.tribes]
                if sum(totems) >= max(state.tent_count[base:base + state.tribes]):
                    state.totem_room &= ~(1 << t)
    else:
        state.tents[space] = tribe
        state.tent_count[at] += 1
        state.free[t] -= 1
        state.tents_left[tribe] -= 1
        event = kit.placed_events.get(((tribe * kit.n_pieces + space) << 16) + paid)
        events.append(event or kit.placed_event(tribe, space, t, paid))
        if state.tents_left[tribe] == 0 and not state.end_triggered:
            # IW-14: a tribe without tents ends the journey (after this round).
            state.end_triggered = True
            events.append(Event("iwari.end_triggered", {"reason": "tents", "tribe": tribe}))
        if room_for is not None:
            # a tent fills a space, and a higher majority can only open room for a totem
            room_for[t] += 1
            if not state.free[t]:
                state.tent_room &= ~(1 << t)
            if not state.totem_room >> t & 1 and kit.totem_allowed[t]:
                base = t * state.tribes
                totems = state.totem_count[base:base + state.tribes]
                if sum(totems) < max(state.tent_count[base:base + state.tribes]):
                    state.totem_room |= 1 << t
    if tribe < state.seats and (state.feats_on or state.expeditions_on):
        # the third tribe earns neither feats nor expeditions
        group = scoring.component(state.board, state.tents, space) if space != TOTEM else []
        if state.feats_on:
            feats.check(state, tribe, space, group)
        if state.expeditions_on:
            expeditions.check(state, tribe, len(group), events)
    # _after_piece and piece_possible, inlined: a pay is a fifth of all decisions (0.7% of a
    # playout's instructions, measured against calling _after_piece)
    if state.feat_queue:
        state.phase = FEAT
        return
    if state.placed < state.limit:
        # another piece here if the hand pays for it (a card of the biome, or a pair) ...
        need = kit.territory_bit[t]
        seen = 0
        for card in hand:
            bit = CARD_BIT[card]
            if bit == need or seen & bit:
                # ... and a tent or a totem may go
                if (state.free[t] > 0 and state.tents_left[tribe] > 0) or (
                        state.limit == 2 and state.totems_left[tribe] > 0 and _totem_room(state) >> t & 1):
                    state.phase = PIECE
                    return
                break
            seen |= bit
    _finish_move(state, events)


def _totem_room(state: IwariState) -> int:
    """``totem_room``, rebuilt first if it is stale."""
    if state.room_for != state.pieces_in:
        room(state)
    return state.totem_room


def _after_piece(state: IwariState, events: list[Event]) -> None:
    if state.feat_queue:
        state.phase = FEAT
    elif state.placed < state.limit and piece_possible(state):
        state.phase = PIECE
    else:
        _finish_move(state, events)


def _finish_move(state: IwariState, events: list[Event]) -> None:
    seat = state.current
    hand = state.hands[seat]
    if state.tribe != seat:
        # IW-9: the rest of the hand was the third tribe's: it is spent.
        _spend_rest(state, events)
    elif state.tribes > state.seats and 1 <= state.played <= 2 and hand:
        # IW-9: played 1 or 2 cards: the rest of the hand moves the third tribe.
        state.tribe = THIRD_TRIBE
        state.territory = -1
        state.placed = 0
        events.append(_THIRD_TRIBE[seat])
        if open_mask(state, THIRD_TRIBE, hand):
            state.phase = THIRD
            return
        _spend_rest(state, events)
    _enter_draw(state, events)


def _spend_rest(state: IwariState, events: list[Event]) -> None:
    hand = state.hands[state.current]
    if hand:
        events.append(Event("iwari.spent", {"seat": state.current,
                                            "biomes": [BIOMES[CARD_BIOME[c]] for c in hand]}))
        state.discard.extend(hand)
        hand.clear()


def _enter_draw(state: IwariState, events: list[Event]) -> None:
    """IW-10: refill the hand to 3 from the deck and/or the display."""
    state.tribe = state.current
    state.territory = -1
    if len(state.hands[state.current]) >= HAND or not (state.deck or state.display):
        _end_turn(state, events)
    else:
        state.phase = DRAW


# The draw's events, built once and shared (like the Decisions above): a third of a
# playout's decisions are draws, and nothing reads or changes an event's fields after
# perform returns it (to_json and the log copy its args).
_SEATS = range(5)
_DREW_DECK = tuple(Event("iwari.drew_deck", {"seat": s}) for s in _SEATS)
_YOU_DREW = tuple(tuple(Event("iwari.you_drew", {"card": c}, to=s) for c in CARD_IDS) for s in _SEATS)
_DREW_DISPLAY = tuple(tuple(Event("iwari.drew_display", {"seat": s, "biome": b}) for b in BIOMES) for s in _SEATS)
_REFILLED = tuple(Event("iwari.display_refilled", {"card": c}) for c in CARD_IDS)
_DISCARDED = tuple(tuple(Event("iwari.discarded", {"seat": s, "biome": b}) for b in BIOMES) for s in _SEATS)
_PASSED = tuple(Event("iwari.passed", {"seat": s}) for s in _SEATS)
_THIRD_TRIBE = tuple(Event("iwari.third_tribe", {"seat": s}) for s in _SEATS)


def _deck_exhausted(state: IwariState, events: list[Event]) -> None:
    state.exhaustions += 1
    if state.exhaustions == 1:
        # IW-12: half-journey scoring, then the discards become the new deck.
        half = scoring.tent_scoring(state)
        state.half = half
        points = [sum(column) for column in zip(*half, strict=True)]
        scores = state.scores
        for tribe, gained in enumerate(points):
            scores[tribe] += gained
        events.append(Event("iwari.half_journey", {"points": points, "scores": scores[:]}))
        state.deck = state.discard
        state.discard = []
        state.rng.shuffle(state.deck)
        events.append(Event("iwari.reshuffled", {"cards": len(state.deck)}))
        if state.deck:
            return
        state.exhaustions = 2  # nothing to reshuffle: the deck is out for good
    if not state.end_triggered:
        state.end_triggered = True
        events.append(Event("iwari.end_triggered", {"reason": "deck"}))


def _end_turn(state: IwariState, events: list[Event]) -> None:
    state.turns += 1
    following = state.current + 1
    if following == state.seats:
        following = 0
    if state.end_triggered and following == 0:
        # IW-14: the round is over, every seat has played as often: the journey ends.
        final = state.end = scoring.end_scoring(state)  # result() reads it again
        for tribe, points in enumerate(final["totals"]):
            state.scores[tribe] += points
        state.phase = OVER
        events.append(Event("iwari.end_journey", {"points": final["totals"][:state.seats],
                                                  "scores": state.scores[:state.seats]}))
        return
    state.current = following
    state.tribe = following
    state.territory = -1
    state.placed = 0
    state.played = 0
    state.phase = START


# -- explaining illegal moves -------------------------------------------------------------


def explain(state: IwariState, seat: int, move: Move) -> IllegalMove:
    """Clear codes for the usual mistakes; the engine has already ruled out wrong seats."""
    board = state.board
    kind = move.get("type")
    kinds = sorted({m["type"] for m in legal(state, seat)})
    if kind == "totem" and state.territory >= 0 and not board.totem_allowed[state.territory]:
        biome = BIOMES[board.territory_biome[state.territory]]
        return IllegalMove("no_totems_here", f"totems cannot be placed in {biome} territories on this map")
    if kind not in kinds:
        return IllegalMove("bad_move_type", f"a {kind!r} move is not possible now; possible: {', '.join(kinds)}")
    if kind == "territory":
        name = move.get("territory")
        if not isinstance(name, str) or name not in board.territory_index:
            return IllegalMove("unknown_territory", "there is no such territory on this map")
        return IllegalMove("territory_closed", "you cannot place and pay for a piece there now")
    if kind == "tent":
        name = move.get("space")
        s = board.space_index.get(name, -1) if isinstance(name, str) else -1
        if s < 0 or board.space_territory[s] != state.territory:
            return IllegalMove("wrong_territory", "all pieces of a move go in the territory chosen")
        if state.tents[s] >= 0:
            return IllegalMove("space_taken", "that tent space is taken")
    if kind in ("pay", "discard"):
        return IllegalMove("cannot_pay", "those cards are not in your hand, or do not pay for this piece")
    if kind == "draw":
        return IllegalMove("cannot_draw", "draw from the deck, or name a card of the display")
    return IllegalMove("illegal_move", f"this {kind!r} move is not legal now")


def move_text(state: IwariState, move: Move) -> str:
    kind = move.get("type")
    if kind == "territory":
        return f"go to {move['territory']}"
    if kind == "tent":
        return f"tent on {move['space']}"
    if kind == "pay":
        return "pay " + " + ".join(move["cards"])
    if kind == "draw":
        return "draw from the deck" if move["from"] == "deck" else f"take {move['card']} from the display"
    if kind == "discard":
        return f"discard {move['card']} and draw one"
    if kind == "feat":
        return f"place {move['feat']} on {move.get('territory', move.get('connection'))}"
    return str(kind)
