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

from collections.abc import Callable, Mapping
from typing import Any

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

CARDS = cards()
CARD_IDS = CARDS.ids
CARD_BIOME = CARDS.biome
CARD_INDEX = {card_id: i for i, card_id in enumerate(CARD_IDS)}
HAND = CARDS.hand
THIRD_TRIBE = 2
"""With 2 seats, tribe 2 is the third tribe both players play."""


# -- set-up (IW-1 .. IW-4) ------------------------------------------------------------


def new_state(seats: int, options: Mapping[str, OptionValue], rng: Rng) -> IwariState:
    board = game_map(str(options["map"]))
    kit = pieces()
    s = IwariState.__new__(IwariState)
    s.end = None
    s.rng = rng
    s.seats = seats
    s.tribes = 3 if seats == 2 else seats
    s.map_id = board.id
    s.board = board
    s.feats_on = bool(options["feats"])
    s.expeditions_on = bool(options["expeditions"])
    n_t = len(board.territories)
    s.tents = [-1] * len(board.space_ids)
    s.tent_count = [0] * (n_t * s.tribes)
    s.totem_count = [0] * (n_t * s.tribes)
    s.pieces_in = [0] * n_t
    s.free = [len(t.spaces) for t in board.territories]
    s.tents_left = [kit.tents_on_map] * s.tribes
    s.totems_left = [kit.totems] * s.tribes
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


def biome_counts(hand: list[int]) -> list[int]:
    counts = [0, 0, 0, 0, 0]
    for card in hand:
        counts[CARD_BIOME[card]] += 1
    return counts


def can_pay(counts: list[int], biome: int) -> bool:
    """IW-8: one card of the territory's biome, or a pair of one other biome.

    (Past the first test the territory's biome has no card, so any pair is of another.)
    """
    return counts[biome] > 0 or max(counts) >= 2


def tent_majority(state: IwariState, territory: int) -> int:
    base = territory * state.tribes
    return max(state.tent_count[base:base + state.tribes])


def totems_in(state: IwariState, territory: int) -> int:
    base = territory * state.tribes
    return sum(state.totem_count[base:base + state.tribes])


def can_tent(state: IwariState, territory: int, tribe: int) -> bool:
    return state.free[territory] > 0 and state.tents_left[tribe] > 0


def can_totem(state: IwariState, territory: int, tribe: int) -> bool:
    """IW-7: a territory holds at most as many totems (any colours) as its tent majority;
    IW-24: none at all where the map forbids them (Floating Lands: tundra)."""
    return (state.totems_left[tribe] > 0 and state.board.totem_allowed[territory]
            and totems_in(state, territory) < tent_majority(state, territory))


def open_territories(state: IwariState, tribe: int, hand: list[int]) -> list[int]:
    """The territories where ``tribe`` can place a piece paid from ``hand`` (IW-5, IW-6)."""
    counts = biome_counts(hand)
    payable = [True] * 5 if max(counts) >= 2 else [n > 0 for n in counts]  # a pair pays anywhere
    has_tent = state.tents_left[tribe] > 0
    has_totem = state.totems_left[tribe] > 0
    free = state.free
    pieces_in = state.pieces_in
    allowed = state.board.totem_allowed
    tribes = state.tribes
    tent_count = state.tent_count
    totem_count = state.totem_count
    out = []
    for t, biome in enumerate(state.board.territory_biome):
        if not payable[biome]:
            continue
        if has_tent and free[t]:
            out.append(t)
        elif has_totem and pieces_in[t] and allowed[t]:  # can_totem, inlined
            base = t * tribes
            if sum(totem_count[base:base + tribes]) < max(tent_count[base:base + tribes]):
                out.append(t)
    return out


def piece_possible(state: IwariState) -> bool:
    t = state.territory
    hand = state.hands[state.current]
    if not can_pay(biome_counts(hand), state.board.territories[t].biome):
        return False
    return can_tent(state, t, state.tribe) or (state.limit == 2 and can_totem(state, t, state.tribe))


def payments(hand: list[int], biome: int) -> list[list[int]]:
    """Every way to pay one piece in a territory of ``biome`` (IW-8), in a fixed order."""
    out = [[card] for card in hand if CARD_BIOME[card] == biome]
    for i, a in enumerate(hand):
        if CARD_BIOME[a] == biome:
            continue
        for b in hand[i + 1:]:
            if CARD_BIOME[b] == CARD_BIOME[a]:
                out.append([a, b])
    return out


def draw_sources(state: IwariState) -> bool:
    return bool(state.deck or state.display)


# -- who decides -----------------------------------------------------------------------

PROMPTS = {START: "iwari.prompt.start", PIECE: "iwari.prompt.piece", PAY: "iwari.prompt.pay",
           DRAW: "iwari.prompt.draw", FEAT: "iwari.prompt.feat", THIRD: "iwari.prompt.third"}


_DECISIONS: dict[tuple[Any, ...], list[Decision]] = {}
"""Decisions are immutable and few: built once per (phase, seat, ...) and shared."""


def pending(state: IwariState) -> list[Decision]:
    phase = state.phase
    if phase == OVER:
        return []
    if phase in (PIECE, PAY):
        key: tuple[Any, ...] = (phase, state.current, state.tribe, state.board.territories[state.territory].id)
    elif phase == FEAT:
        key = (phase, state.current, FEATS[state.feat_queue[0][0]])
    else:
        key = (phase, state.current)
    cached = _DECISIONS.get(key)
    if cached is None:
        args: dict[str, Any] = {"seat": state.current}
        if phase in (PIECE, PAY):
            args["tribe"], args["territory"] = key[2], key[3]
        elif phase == FEAT:
            args["feat"] = key[2]
        # The third tribe's move cannot be ended early (IW-9): its prompt offers no "end".
        prompt = "iwari.prompt.third_piece" if phase == PIECE and state.tribe != state.current else PROMPTS[phase]
        cached = _DECISIONS[key] = [Decision(state.current, Prompt(prompt, args))]
    return cached[:]


# -- legal moves, per phase ----------------------------------------------------------------

Legal = Callable[[IwariState, int], list[Move]]
LEGAL: Dispatch[int, Legal] = Dispatch("iwari: legal moves by phase")


def legal(state: IwariState, seat: int) -> list[Move]:
    if state.phase == OVER or seat != state.current:
        return []
    return LEGAL[state.phase](state, seat)


@LEGAL.on(START, THIRD)
def _legal_territory(state: IwariState, seat: int) -> list[Move]:
    hand = state.hands[seat]
    territories = state.board.territories
    moves: list[Move] = [{"type": "territory", "territory": territories[t].id}
                         for t in open_territories(state, state.tribe, hand)]
    if state.phase == START:
        # IW-11: instead of a regular move, discard one card and draw one.
        moves += [{"type": "discard", "card": CARD_IDS[card]} for card in hand]  # a list: faster than a generator
        if not moves:
            moves.append({"type": "pass"})
    return moves


@LEGAL.on(PIECE)
def _legal_piece(state: IwariState, seat: int) -> list[Move]:
    board = state.board
    t = state.territory
    moves: list[Move] = []
    if state.placed < state.limit and can_pay(biome_counts(state.hands[seat]), board.territories[t].biome):
        if can_tent(state, t, state.tribe):
            tents = state.tents
            moves += [{"type": "tent", "space": board.space_ids[s]}
                      for s in board.territories[t].spaces if tents[s] < 0]
        if state.limit == 2 and can_totem(state, t, state.tribe):
            moves.append({"type": "totem"})
    if state.placed and state.tribe == seat:
        # IW-9: the third tribe's move uses the rest of the hand; it stops only when
        # no further piece can be placed and paid for (the move then ends by itself).
        moves.append({"type": "done"})
    return moves


@LEGAL.on(PAY)
def _legal_pay(state: IwariState, seat: int) -> list[Move]:
    return [{"type": "pay", "cards": [CARD_IDS[c] for c in pay]}
            for pay in payments(state.hands[seat], state.board.territories[state.territory].biome)]


@LEGAL.on(DRAW)
def _legal_draw(state: IwariState, seat: int) -> list[Move]:
    moves: list[Move] = [{"type": "draw", "from": "deck"}] if state.deck else []
    moves += [{"type": "draw", "from": "display", "card": CARD_IDS[c]} for c in state.display]
    return moves


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
    events: list[Event] = []
    PLAY[move["type"]](state, seat, move, events)
    return events


@PLAY.on("territory")
def _play_territory(state: IwariState, seat: int, move: Move, events: list[Event]) -> None:
    t = state.board.territory_index[move["territory"]]
    state.territory = t
    state.placed = 0
    # IW-6: an unexplored territory takes exactly one tent; otherwise up to two pieces.
    state.limit = 2 if state.pieces_in[t] else 1
    state.phase = PIECE


@PLAY.on("tent")
def _play_tent(state: IwariState, seat: int, move: Move, events: list[Event]) -> None:
    state.piece = state.board.space_index[move["space"]]
    state.phase = PAY


@PLAY.on("totem")
def _play_totem(state: IwariState, seat: int, move: Move, events: list[Event]) -> None:
    state.piece = TOTEM
    state.phase = PAY


@PLAY.on("pay")
def _play_pay(state: IwariState, seat: int, move: Move, events: list[Event]) -> None:
    _pay_and_place(state, seat, [CARD_INDEX[c] for c in move["cards"]], events)


@PLAY.on("done")
def _play_done(state: IwariState, seat: int, move: Move, events: list[Event]) -> None:
    _finish_move(state, events)


@PLAY.on("discard")
def _play_discard(state: IwariState, seat: int, move: Move, events: list[Event]) -> None:
    card = CARD_INDEX[move["card"]]
    state.hands[seat].remove(card)
    state.discard.append(card)
    events.append(Event("iwari.discarded", {"seat": seat, "biome": BIOMES[CARD_BIOME[card]]}))
    _enter_draw(state, events)


@PLAY.on("pass")
def _play_pass(state: IwariState, seat: int, move: Move, events: list[Event]) -> None:
    events.append(Event("iwari.passed", {"seat": seat}))
    _enter_draw(state, events)


@PLAY.on("feat")
def _play_feat(state: IwariState, seat: int, move: Move, events: list[Event]) -> None:
    feats.place(state, move, events)
    _after_piece(state, events)


def _pay_and_place(state: IwariState, seat: int, paid: list[int], events: list[Event]) -> None:
    board = state.board
    hand = state.hands[seat]
    for card in paid:
        hand.remove(card)
        state.discard.append(card)
    if state.tribe == seat:
        state.played += len(paid)
    t = state.territory
    tribe = state.tribe
    at = t * state.tribes + tribe
    biomes = [BIOMES[CARD_BIOME[c]] for c in paid]
    tid = board.territories[t].id
    state.pieces_in[t] += 1
    state.placed += 1
    space = state.piece
    state.piece = NO_PIECE
    if space == TOTEM:
        state.totem_count[at] += 1
        state.totems_left[tribe] -= 1
        events.append(Event("iwari.placed_totem", {"tribe": tribe, "territory": tid, "paid": biomes}))
    else:
        state.tents[space] = tribe
        state.tent_count[at] += 1
        state.free[t] -= 1
        state.tents_left[tribe] -= 1
        events.append(Event("iwari.placed_tent", {"tribe": tribe, "territory": tid,
                                                  "space": board.space_ids[space], "paid": biomes}))
        if state.tents_left[tribe] == 0 and not state.end_triggered:
            # IW-14: a tribe without tents ends the journey (after this round).
            state.end_triggered = True
            events.append(Event("iwari.end_triggered", {"reason": "tents", "tribe": tribe}))
    if tribe < state.seats and (state.feats_on or state.expeditions_on):
        # the third tribe earns neither feats nor expeditions
        group = scoring.component(board, state.tents, space) if space != TOTEM else []
        if state.feats_on:
            feats.check(state, tribe, space, group)
        if state.expeditions_on:
            expeditions.check(state, tribe, len(group), events)
    _after_piece(state, events)


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
        events.append(Event("iwari.third_tribe", {"seat": seat}))
        if open_territories(state, THIRD_TRIBE, hand):
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
    if len(state.hands[state.current]) >= HAND or not draw_sources(state):
        _end_turn(state, events)
    else:
        state.phase = DRAW


@PLAY.on("draw")
def _draw(state: IwariState, seat: int, move: Move, events: list[Event]) -> None:
    hand = state.hands[seat]
    if move["from"] == "deck":
        card = state.deck.pop()
        events.append(Event("iwari.drew_deck", {"seat": seat}))
        events.append(Event("iwari.you_drew", {"card": CARD_IDS[card]}, to=seat))
        if not state.deck:
            _deck_exhausted(state, events)
    else:
        card = CARD_INDEX[move["card"]]
        state.display.remove(card)
        events.append(Event("iwari.drew_display", {"seat": seat, "biome": BIOMES[CARD_BIOME[card]]}))
        if state.deck:
            # The display is refilled from the deck at once (Decisions: IW-10).
            new = state.deck.pop()
            state.display.append(new)
            events.append(Event("iwari.display_refilled", {"card": CARD_IDS[new]}))
            if not state.deck:
                _deck_exhausted(state, events)
    hand.append(card)
    hand.sort()
    if len(hand) >= HAND or not draw_sources(state):
        _end_turn(state, events)


def _deck_exhausted(state: IwariState, events: list[Event]) -> None:
    state.exhaustions += 1
    if state.exhaustions == 1:
        # IW-12: half-journey scoring, then the discards become the new deck.
        half = scoring.tent_scoring(state)
        state.half = half
        for row in half:
            for tribe, points in enumerate(row):
                state.scores[tribe] += points
        events.append(Event("iwari.half_journey", {
            "points": [sum(row[tribe] for row in half) for tribe in range(state.tribes)],
            "scores": state.scores[:]}))
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
    following = (state.current + 1) % state.seats
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
