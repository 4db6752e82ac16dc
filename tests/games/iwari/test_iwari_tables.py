"""The hot paths' shortcuts (the sixth speed round) against a plain build: the
unrolled start and draw lists, the shared piece and pay decisions, the placement events
built from the paid biomes' code, the count tables, and the settlements and board points
found with a working copy of the tents. Each is checked at every decision of a few random
games, and the short-hand and short-display paths on states built for them."""

from __future__ import annotations

from itertools import product

from tests.games.iwari.iwari_helpers import GAME, new

from ludoteca.engine import Decision, Move, Prompt, Rng
from ludoteca.games.iwari import ai, rules, scoring
from ludoteca.games.iwari.components import BIOMES
from ludoteca.games.iwari.rules import CARD_BIOME, CARD_IDS
from ludoteca.games.iwari.state import DRAW, PAY, PIECE, START, IwariState
from ludoteca.games.iwari.tables import ALL_BIOMES, BIT_COUNT, CARD_BIT, PAID_NAMES, payable

GAMES: tuple[tuple[int, dict[str, object], int], ...] = (
    (2, {}, 4), (3, {"map": "glacial-mass"}, 5), (4, {"feats": True}, 6),
    (5, {"map": "long-road", "expeditions": True}, 7))


def reference_start(state: IwariState, seat: int) -> list[Move]:
    """IW-5 .. IW-11: the open territories in order, then a discard per card, or a pass."""
    hand = state.hands[seat]
    moves: list[Move] = [{"type": "territory", "territory": state.board.territories[t].id}
                         for t in rules.open_territories(state, seat, hand)]
    moves += [{"type": "discard", "card": CARD_IDS[card]} for card in hand]
    return moves or [{"type": "pass"}]


def reference_draw(state: IwariState) -> list[Move]:
    moves: list[Move] = [{"type": "draw", "from": "deck"}] if state.deck else []
    return moves + [{"type": "draw", "from": "display", "card": CARD_IDS[card]} for card in state.display]


def reference_settlements(state: IwariState) -> list[list[list[int]]]:
    """Per tribe, its groups of 4+ joined tents (scoring.component from each tent, in space order)."""
    out: list[list[list[int]]] = [[] for _ in range(state.tribes)]
    done: set[int] = set()
    for space, tribe in enumerate(state.tents):
        if tribe >= 0 and space not in done:
            group = scoring.component(state.board, state.tents, space)
            done.update(group)
            if len(group) >= 4:
                out[tribe].append(group)
    return out


def reference_group_points(state: IwariState) -> list[float]:
    """The settlement part of ai._board_points: a group of 4+ scores its size, of 3 one and a half."""
    points = [0.0] * state.tribes
    for tribe, group in ((state.tents[g[0]], g) for g in map(sorted, _groups(state))):
        if len(group) >= 4:
            points[tribe] += len(group)
        elif len(group) == 3:
            points[tribe] += 1.5
    return points


def _groups(state: IwariState) -> list[list[int]]:
    done: set[int] = set()
    groups = []
    for space, tribe in enumerate(state.tents):
        if tribe >= 0 and space not in done:
            group = scoring.component(state.board, state.tents, space)
            done.update(group)
            groups.append(group)
    return groups


def reference_totem_points(state: IwariState) -> list[float]:
    """The totem part of ai._board_points, from scoring.totem_scoring (factors included)."""
    return [float(sum(column)) for column in zip(*scoring.totem_scoring(state), strict=True)]


def test_the_tables_match_their_definitions() -> None:
    assert all(BIT_COUNT[mask] == sum(mask >> b & 1 for b in range(len(BIOMES))) for mask in range(ALL_BIOMES + 1))
    for b in range(len(BIOMES)):
        assert PAID_NAMES[b + 1] == (BIOMES[b],)
        for a in range(len(BIOMES)):
            assert PAID_NAMES[(a + 1) * 6 + b + 1] == (BIOMES[a], BIOMES[b])
    # the unrolled start: the OR of three cards' biomes, all of them if two share one, is payable()
    first = [CARD_BIOME.index(b) for b in range(len(BIOMES))]
    for hand in product(first, repeat=3):
        biomes = CARD_BIT[hand[0]] | CARD_BIT[hand[1]] | CARD_BIT[hand[2]]
        assert (biomes if BIT_COUNT[biomes] == 3 else ALL_BIOMES) == payable(list(hand))


def test_every_decision_matches_a_plain_build() -> None:
    checked = 0
    for seats, options, seed in GAMES:
        state = GAME.setup(seats, options, seed)
        rng = Rng(seed)
        moves = 0
        while GAME.result(state) is None:
            decisions = GAME.pending(state)
            seat = decisions[0].seat
            legal = GAME.legal(state, seat)
            if state.phase == START:
                assert legal == reference_start(state, seat)
            elif state.phase == DRAW:
                assert legal == reference_draw(state)
            elif state.phase in (PIECE, PAY):
                tribe, territory = state.tribe, state.board.territories[state.territory].id
                key = ("iwari.prompt.pay" if state.phase == PAY else "iwari.prompt.piece" if tribe == seat
                       else "iwari.prompt.third_piece")
                assert decisions == [Decision(seat, Prompt(key, {"seat": seat, "tribe": tribe,
                                                                 "territory": territory}))]
            move = legal[rng.below(len(legal))]
            paid = [CARD_BIOME[rules.CARD_INDEX[c]] for c in move["cards"]] if move["type"] == "pay" else []
            space, tribe, territory = state.piece, state.tribe, state.board.territories[state.territory].id \
                if state.territory >= 0 else ""
            events = GAME.perform(state, seat, move)
            for event in events:
                if event.key in ("iwari.placed_tent", "iwari.placed_totem"):
                    args = {"tribe": tribe, "territory": territory, "paid": [BIOMES[b] for b in paid]}
                    if event.key == "iwari.placed_tent":
                        args["space"] = state.board.space_ids[space]
                    assert dict(event.args) == args
            moves += 1
            checked += 1
            if moves % 11 == 0:
                assert scoring.settlements(state) == reference_settlements(state)
                tents_pts, other = ai._board_points(state)
                expected = [a + b for a, b in zip(reference_totem_points(state), reference_group_points(state),
                                                  strict=True)]
                assert other == expected
                assert tents_pts == [float(sum(col)) for col in zip(*scoring.tent_scoring(state), strict=True)]
            if moves % 37 == 0:
                state = GAME.from_json(GAME.to_json(state))
        assert scoring.settlements(state) == reference_settlements(state)
    assert checked > 500


def test_short_hands_and_displays_take_the_general_path() -> None:
    state = new(3, seed=8)
    assert state.phase == START and len(state.hands[0]) == 3
    for keep in (2, 1, 0):  # the end of the deck: fewer cards, down to a pass
        state.discard.extend(state.hands[0][keep:])
        del state.hands[0][keep:]
        assert GAME.legal(state, 0) == reference_start(state, 0)
    assert GAME.legal(state, 0) == [{"type": "pass"}]
    state = new(3, seed=9)
    GAME.perform(state, 0, next(m for m in GAME.legal(state, 0) if m["type"] == "discard"))
    assert state.phase == DRAW
    assert GAME.legal(state, 0) == reference_draw(state)
    state.discard.extend(state.deck)
    state.deck.clear()  # no deck: the display only
    assert GAME.legal(state, 0) == reference_draw(state)
    state.discard.append(state.display.pop())  # a short display
    assert GAME.legal(state, 0) == reference_draw(state) and len(GAME.legal(state, 0)) == 3


def test_per_territory_is_the_slices() -> None:
    counts = list(range(60))
    for tribes in (3, 4):
        assert list(scoring.per_territory(counts[:12 * tribes], tribes)) == [
            tuple(counts[t * tribes:(t + 1) * tribes]) for t in range(12)]
