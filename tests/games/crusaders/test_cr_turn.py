"""CR-14 .. CR-19: the turn, splitting, the mancala sowing, upgrading, skipping."""

from __future__ import annotations

from .helpers import (
    CRUSADE,
    GAME,
    INFLUENCE,
    MOVE_A,
    MOVE_B,
    MUSTER,
    clear_map,
    keys,
    legal_types,
    play,
    started,
)


def test_cr_14_turns_in_seat_order_resolve_or_upgrade() -> None:
    state = started(3)
    seen = []
    for _ in range(4):
        seat = state.current
        seen.append(seat)
        assert legal_types(state, seat) == {"resolve", "upgrade"}
        assert GAME.legal(state, (seat + 1) % 3) == []
        wedge = INFLUENCE if state.players[seat].tokens[INFLUENCE] else MUSTER
        play(state, seat, {"type": "resolve", "wedge": wedge})
    assert seen == [0, 1, 2, 0]
    assert state.round == 1


def test_cr_15_resolving_needs_a_token_and_value_adds_bonuses() -> None:
    state = started(3)
    p = state.players[0]
    p.tokens[INFLUENCE] = 0
    p.tokens[MUSTER] = 4
    assert {"type": "resolve", "wedge": INFLUENCE} not in GAME.legal(state, 0)
    from ludoteca.engine import IllegalMove

    try:
        play(state, 0, {"type": "resolve", "wedge": INFLUENCE})
    except IllegalMove as error:
        assert error.code == "wedge_empty"
    else:
        raise AssertionError("an empty wedge was resolved")
    p.tokens[INFLUENCE] = 2
    p.built[1] = 1  # first church: +1 influence
    before = p.influence
    events = play(state, 0, {"type": "resolve", "wedge": INFLUENCE})
    action = next(e for e in events if e.key == "cr.action")
    assert action.args["tokens"] == 2 and action.args["value"] == 3
    assert p.influence == before + 3


def test_cr_16_upgraded_wedge_splits_tokens_in_either_order() -> None:
    state = started(3)
    clear_map(state)
    p = state.players[0]
    p.upgraded[MUSTER] = True  # Muster / Influence
    p.tokens[MUSTER] = 3
    play(state, 0, {"type": "resolve", "wedge": MUSTER})
    assert state.phase == "split"
    moves = GAME.legal(state, 0)
    assert {"type": "split", "primary": 0, "first": "influence"} in moves
    assert {"type": "split", "primary": 3, "first": "muster"} in moves
    assert {"type": "split", "primary": 1, "first": "influence"} in moves
    assert {"type": "split", "primary": 1, "first": "muster"} in moves
    assert len(moves) == 2 * 3
    events = play(state, 0, {"type": "split", "primary": 2, "first": "influence"})
    actions = [(e.args["action"], e.args["tokens"]) for e in events if e.key == "cr.action"]
    assert actions == [("influence", 1), ("muster", 2)]
    assert p.troops == 1 and p.influence == 1 + 1  # the Influence action, then the troop's influence
    assert state.current == 1
    # all tokens to one action: only that one is resolved
    q = state.players[1]
    q.upgraded[MUSTER] = True
    play(state, 1, {"type": "resolve", "wedge": MUSTER})
    events = play(state, 1, {"type": "split", "primary": 2, "first": "muster"})
    assert [e.args["action"] for e in events if e.key == "cr.action"] == ["muster"]


def test_cr_16_first_action_finished_before_the_second() -> None:
    state = started(3)
    clear_map(state)
    p = state.players[0]
    p.upgraded[MOVE_A] = True  # Move / Build
    p.tokens[MOVE_A] = 4
    play(state, 0, {"type": "resolve", "wedge": MOVE_A})
    play(state, 0, {"type": "split", "primary": 2, "first": "move"})
    assert state.phase == "move" and state.actions == [("build", 2)]
    play(state, 0, {"type": "stop"})
    assert state.phase == "build" and state.current == 0  # the build waits until the move is over
    play(state, 0, {"type": "pass"})
    assert state.current == 1


def test_cr_17_sowing_clockwise_from_the_next_wedge() -> None:
    state = started(3)
    p = state.players[0]
    p.tokens = [2, 2, 2, 3, 2, 2]
    play(state, 0, {"type": "resolve", "wedge": INFLUENCE})
    assert p.tokens == [3, 2, 2, 0, 3, 3]
    q = state.players[1]
    q.tokens = [1, 1, 1, 8, 1, 1]
    play(state, 1, {"type": "resolve", "wedge": INFLUENCE})
    assert q.tokens == [2, 2, 2, 1, 3, 3]  # eight tokens: around the wheel, the emptied wedge included
    assert sum(q.tokens) == 13


def test_cr_18_upgrade_flips_keeps_tokens_then_optional_sow() -> None:
    state = started(3)
    p = state.players[0]
    p.tokens[CRUSADE] = 3
    play(state, 0, {"type": "upgrade", "wedge": CRUSADE})
    assert p.upgraded[CRUSADE] and p.tokens[CRUSADE] == 3
    assert state.phase == "after_upgrade" and state.current == 0
    moves = GAME.legal(state, 0)
    assert {"type": "no_sow"} in moves and {"type": "sow_wedge", "wedge": MOVE_B} in moves
    play(state, 0, {"type": "sow_wedge", "wedge": MOVE_B})
    assert p.tokens == [2, 0, 3, 3, 2, 3] and p.influence == 0
    assert state.current == 1
    play(state, 1, {"type": "upgrade", "wedge": MUSTER})
    play(state, 1, {"type": "no_sow"})
    assert state.players[1].tokens == [2] * 6 and state.current == 2
    assert state.players[1].upgraded[MUSTER]


def test_cr_19_skip_only_when_every_wedge_is_upgraded() -> None:
    state = started(3)
    p = state.players[0]
    p.upgraded = [True] * 5 + [False]
    assert "skip" not in legal_types(state, 0)
    p.upgraded = [True] * 6
    assert "skip" in legal_types(state, 0) and "upgrade" not in legal_types(state, 0)
    events = play(state, 0, {"type": "skip"})
    assert "cr.skipped" in keys(events)
    play(state, 0, {"type": "sow_wedge", "wedge": MOVE_A})
    assert p.tokens == [0, 3, 3, 2, 2, 2] and p.influence == 0 and state.current == 1


def test_cr_19_skipping_always_sows_one_wedge() -> None:
    state = started(3)
    p = state.players[0]
    p.upgraded = [True] * 6
    p.tokens = [0, 3, 3, 2, 2, 2]
    play(state, 0, {"type": "skip"})
    moves = GAME.legal(state, 0)
    assert moves == [{"type": "sow_wedge", "wedge": w} for w in range(1, 6)]  # no "no_sow", no empty wedge
    assert state.current == 0 and state.phase == "skip"
