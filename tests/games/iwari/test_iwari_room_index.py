"""The room masks kept up to date on each placement (tent_room, totem_room, which spare the
legal moves a pass over every territory) against a territory-by-territory reference, the
placement events and pay tables against a direct build, and the moves handed out fresh on
every call."""

from __future__ import annotations

from tests.games.iwari.iwari_helpers import GAME, deal, new, put_tents, tindex

from ludoteca.engine import Rng
from ludoteca.games.iwari import rules
from ludoteca.games.iwari.components import BIOMES
from ludoteca.games.iwari.rules import CARD_BIOME, CARD_IDS
from ludoteca.games.iwari.state import PAY, START, IwariState

# The rules read territory by territory, off the counts, as they were before the masks and
# tables: the reference the fast paths are held to.


def biome_counts(hand: list[int]) -> list[int]:
    counts = [0, 0, 0, 0, 0]
    for card in hand:
        counts[CARD_BIOME[card]] += 1
    return counts


def can_pay(counts: list[int], biome: int) -> bool:
    """IW-8: one card of the territory's biome, or a pair of one other biome (past the first
    test the territory's biome has no card, so any pair is of another)."""
    return counts[biome] > 0 or max(counts) >= 2


def can_tent(state: IwariState, territory: int, tribe: int) -> bool:
    return state.free[territory] > 0 and state.tents_left[tribe] > 0


def can_totem(state: IwariState, territory: int, tribe: int) -> bool:
    """IW-7: a territory holds at most as many totems (any colours) as its tent majority;
    IW-24: none at all where the map forbids them (Floating Lands: tundra)."""
    base = territory * state.tribes
    totems = sum(state.totem_count[base:base + state.tribes])
    return (state.totems_left[tribe] > 0 and state.board.totem_allowed[territory]
            and totems < max(state.tent_count[base:base + state.tribes]))


def payments(hand: list[int], biome: int) -> list[list[int]]:
    """Every way to pay one piece in a territory of ``biome`` (IW-8), in the rules' order."""
    out = [[card] for card in hand if CARD_BIOME[card] == biome]
    for i, a in enumerate(hand):
        if CARD_BIOME[a] == biome:
            continue
        for b in hand[i + 1:]:
            if CARD_BIOME[b] == CARD_BIOME[a]:
                out.append([a, b])
    return out


def reference_open(state: IwariState, tribe: int, hand: list[int]) -> list[int]:
    """IW-5 .. IW-8 read off the counts, territory by territory."""
    counts = biome_counts(hand)
    out = []
    for t, biome in enumerate(state.board.territory_biome):
        if not can_pay(counts, biome):
            continue
        if can_tent(state, t, tribe) or (state.pieces_in[t] and can_totem(state, t, tribe)):
            out.append(t)
    return out


def masks_from_counts(state: IwariState) -> tuple[int, int]:
    copy = state.copy()
    copy.room_for = None
    rules.room(copy)
    return copy.tent_room, copy.totem_room


def test_room_masks_match_the_counts_at_every_decision() -> None:
    checked = 0
    for seats, options, seed in ((2, {}, 4), (3, {"map": "floating-lands"}, 5), (4, {"feats": True}, 6),
                                 (5, {"map": "long-road", "expeditions": True}, 7)):
        state = GAME.setup(seats, options, seed)
        rng = Rng(seed)
        moves = 0
        while GAME.result(state) is None:
            seat = GAME.pending(state)[0].seat
            if state.room_for == state.pieces_in:  # kept up to date: it must equal a rebuild
                assert (state.tent_room, state.totem_room) == masks_from_counts(state)
            for tribe in range(state.tribes):
                assert rules.open_territories(state, tribe, state.hands[seat]) == reference_open(
                    state, tribe, state.hands[seat])
            legal = GAME.legal(state, seat)
            if state.phase == PAY:
                pays = payments(state.hands[seat], state.board.territory_biome[state.territory])
                assert legal == [{"type": "pay", "cards": [CARD_IDS[c] for c in pay]} for pay in pays]
            events = GAME.perform(state, seat, legal[rng.below(len(legal))])
            for event in events:
                if event.key in ("iwari.placed_tent", "iwari.placed_totem"):
                    assert all(biome in BIOMES for biome in event.args["paid"])
            moves += 1
            checked += 1
            if moves % 31 == 0:
                state = GAME.from_json(GAME.to_json(state))  # the masks are rebuilt when read back
                assert state.room_for is None
    assert checked > 500


def test_pieces_put_by_hand_are_seen() -> None:
    state = new(3)
    deal(state, 0, "tundra-01", "tundra-02", "glacier-01")
    t = tindex(state, "tundra-1")
    assert t in rules.open_territories(state, 0, state.hands[0])
    spaces = [state.board.space_ids[s] for s in state.board.territories[t].spaces]
    put_tents(state, 1, *spaces)  # full, and tribe 1's majority: room for a totem only
    assert state.phase == START and state.room_for != state.pieces_in  # stale until used
    assert t in rules.open_territories(state, 0, state.hands[0])
    assert (state.tent_room >> t & 1, state.totem_room >> t & 1) == (0, 1)
    assert state.room_for == state.pieces_in
    state.totems_left[0] = 0
    assert t not in rules.open_territories(state, 0, state.hands[0])


def test_callers_get_fresh_moves() -> None:
    state = new(3, seed=3)
    first = GAME.legal(state, 0)
    first[0]["type"] = "changed"
    first.clear()
    again = GAME.legal(state, 0)
    assert again and all(move["type"] in ("territory", "discard") for move in again)
    assert all(a is not b for a, b in zip(again, GAME.legal(state, 0), strict=True))
    move = next(m for m in again if m["type"] == "territory")
    GAME.perform(state, 0, move)
    pieces = GAME.legal(state, 0)
    pieces[0]["space"] = "nowhere"
    assert all(m.get("space") != "nowhere" for m in GAME.legal(state, 0))
    tent = GAME.legal(state, 0)[0]
    GAME.perform(state, 0, tent)
    pays = GAME.legal(state, 0)
    pays[0]["cards"].append("x")
    assert all("x" not in m["cards"] for m in GAME.legal(state, 0))
    hand_biomes = {CARD_BIOME[c] for c in state.hands[0]}
    assert hand_biomes
