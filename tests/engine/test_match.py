import json

import pytest

from ludoteca.engine import (
    IllegalMove,
    Match,
    MatchRecord,
    RecordError,
    Result,
    SetupError,
    UndoError,
)
from ludoteca.games import UnknownGame, available, load


def test_result_ranks_share_ties_and_apply_the_tie_break() -> None:
    assert Result.ranked([5, 7, 5]).ranks == (2, 1, 2)
    assert Result.ranked([5, 7, 5], [[1], [0], [2]]).ranks == (3, 1, 2)
    assert Result.ranked([5, 5], [[1], [1]]).winners == (0, 1)


def test_setup_checks_seats_and_seed() -> None:
    game = load("sealedbids")
    with pytest.raises(SetupError):
        game.setup(5)
    with pytest.raises(SetupError):
        game.setup(2, seed="1")  # type: ignore[arg-type]


def test_registry_names_what_is_available() -> None:
    assert "sealedbids" in available()
    with pytest.raises(UnknownGame) as raised:
        load("chess")
    assert "sealedbids" in raised.value.message


def _match() -> Match:
    return Match.new("sealedbids", 3, {"rounds": 2}, seed=4)


def test_play_checks_seat_and_move_and_changes_nothing_on_error() -> None:
    match = _match()
    before = match.state_json()
    hand = match.view(0)["hands"][0]
    for seat, move, code in [
        (0, {"type": "bid", "card": "c1-1"}, "not_in_hand"),
        (0, {"type": "steal"}, "bad_move_type"),
        (0, "bid", "malformed"),
        (7, {"type": "pass"}, "not_your_turn"),
        ("0", {"type": "pass"}, "bad_seat"),
    ]:
        with pytest.raises(IllegalMove) as raised:
            match.play(seat, move)  # type: ignore[arg-type]
        assert raised.value.code == code
    assert match.state_json() == before and match.version == 0
    match.play(0, {"card": hand[0], "type": "bid"})  # key order does not matter
    assert match.version == 1


def test_undo_policy_own_last_move_only_and_never_after_a_draw() -> None:
    match = _match()
    start = match.state_json()
    match.play(0, {"type": "pass"})
    assert match.can_undo(0) and not match.can_undo(1)
    match.undo(0)
    assert match.state_json() == start and match.version == 0 and match.events == []
    match.play(0, {"type": "pass"})
    match.play(1, {"type": "pass"})
    assert not match.can_undo(0)  # another seat moved since
    with pytest.raises(UndoError):
        match.undo(0)
    assert match.can_undo(1)
    hand = match.view(2)["hands"][2]
    match.play(2, {"type": "bid", "card": hand[0]})  # completes the round: reveal + next prize
    assert match.moves[-1].undoable is False
    assert not match.can_undo(2)


def test_undo_after_reload_replays_the_log() -> None:
    match = _match()
    match.play(0, {"type": "pass"})
    reloaded = Match.from_json(json.loads(json.dumps(match.to_json())))
    reloaded.undo(0)
    assert reloaded.state_json() == _match().state_json()


def test_record_round_trip_and_tampering_is_detected() -> None:
    match = _match()
    match.play(0, {"type": "pass"})
    match.play(1, {"type": "pass"})
    record = MatchRecord.loads(match.record(["ann", "bob", "cy"]).dumps())
    assert record.players == ["ann", "bob", "cy"]
    assert record.replay().state_json() == match.state_json()
    data = record.to_json()
    data["moves"].append([1, {"type": "pass"}])  # seat 1 already passed this game
    with pytest.raises(RecordError) as raised:
        MatchRecord.from_json(data).replay()
    assert raised.value.code == "record_illegal"
    for bad in ["{", "[]", json.dumps({"format": "other"}), json.dumps({**data, "moves": 3})]:
        with pytest.raises(RecordError):
            MatchRecord.loads(bad)


def test_events_are_addressed_and_filtered_by_reader() -> None:
    match = _match()
    hand = match.view(0)["hands"][0]
    match.play(0, {"type": "bid", "card": hand[0]})
    private = [e for _, e in match.events if e.to == 0]
    assert private and private[0].args["card"] == hand[0]
    assert all(e.to is None for _, e in match.events_for(1))
    assert all(e.to is None for _, e in match.events_for(None))
