"""The conformance suite: every registered game, every seat count, each option set.

Nothing here names a game: a game gets all of this by registering. One random
trajectory per (game, seats, options) is played once and shared by the checks.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sealedbids import SealedBids  # the toy game; tests/conftest.py puts it on the path

from ludoteca.bots import RandomBot
from ludoteca.bots.playout import play_match
from ludoteca.engine import Game, IllegalMove, Match, MatchRecord, Rng, canonical, option_sets
from ludoteca.engine.fields import clone_problems, problems
from ludoteca.games import available, load, registered
from tests.engine.open_information import hiding_problems

PLAYOUT_SEEDS = (11, 12)
SAMPLED_STATES = 6


def _installed() -> list[str]:
    """The games installed through the entry point, and the toy game packaged outside the
    tree (tests/toygame: tests/conftest.py registers it when it is not installed). Games
    that a test registers in-process for its own ends (the server tests' Draw and Bid,
    whose ``stall`` option hangs on purpose) are left out, so the suite is the same
    whatever order the test modules were collected in."""
    in_process = {game.id for game in registered()} - {SealedBids.id}
    return [game_id for game_id in available() if game_id not in in_process]


def _cases() -> list[Any]:
    cases = []
    for game_id in _installed():
        game = load(game_id)
        for seats in range(game.min_seats, game.max_seats + 1):
            for options in option_sets(game.options, seats):
                changed = {o.name: options[o.name] for o in game.options if options[o.name] != o.default}
                label = ",".join(f"{k}={v}" for k, v in changed.items()) or "default"
                cases.append(pytest.param(game_id, seats, json.dumps(options, sort_keys=True),
                                          id=f"{game_id}-{seats}p-{label}"))
    return cases


def _default_cases() -> list[Any]:
    return [pytest.param(game_id, seats, id=f"{game_id}-{seats}p")
            for game_id in _installed()
            for seats in range(load(game_id).min_seats, load(game_id).max_seats + 1)]


CASES = _cases()


@cache
def _match(game_id: str, seats: int, options_json: str, seed: int) -> Match:
    game = load(game_id)
    return play_match(game, seats, json.loads(options_json), seed, [RandomBot()] * seats)


@cache
def _states(game_id: str, seats: int, options_json: str) -> list[tuple[Any, list[Any]]]:
    """States sampled along the first playout, with the events of the move that led there.
    Shared by the checks: they clone before playing on them."""
    match = _match(game_id, seats, options_json, PLAYOUT_SEEDS[0])
    game = match.game
    replay = Match.new(game_id, seats, json.loads(options_json), match.seed, game=game)
    total = match.version
    wanted = {round(i * total / SAMPLED_STATES) for i in range(SAMPLED_STATES)}
    sampled = [(game.clone(replay.state), [])]
    for number, played in enumerate(match.moves):
        events = replay.play(played.seat, played.move)
        if number in wanted:
            sampled.append((game.clone(replay.state), events))
    return sampled


@pytest.mark.parametrize(("game_id", "seats", "options_json"), CASES)
def test_random_playouts_end_with_a_result(game_id: str, seats: int, options_json: str) -> None:
    game = load(game_id)
    for seed in PLAYOUT_SEEDS:
        match = _match(game_id, seats, options_json, seed)
        result = match.result()
        assert result is not None
        assert match.version <= game.max_moves
        assert len(result.scores) == len(result.ranks) == seats
        assert min(result.ranks) == 1
        assert all(1 <= rank <= seats for rank in result.ranks)
        assert match.pending() == []
        assert all(match.legal(seat) == [] for seat in range(seats))


@pytest.mark.parametrize(("game_id", "seats", "options_json"), CASES)
def test_determinism_and_record_replay(game_id: str, seats: int, options_json: str) -> None:
    game = load(game_id)
    options = json.loads(options_json)
    first = game.to_json(game.setup(seats, options, 5))
    assert canonical(first) == canonical(game.to_json(game.setup(seats, options, 5)))
    match = _match(game_id, seats, options_json, PLAYOUT_SEEDS[0])
    record = MatchRecord.loads(match.record().dumps())
    replayed = record.replay(game)
    assert replayed.state_json() == match.state_json()
    assert [(v, e.to_json()) for v, e in replayed.events] == [(v, e.to_json()) for v, e in match.events]
    assert replayed.result() == match.result()


@pytest.mark.parametrize(("game_id", "seats", "options_json"), CASES)
def test_full_state_json_round_trip(game_id: str, seats: int, options_json: str) -> None:
    game = load(game_id)
    for state, _ in _states(game_id, seats, options_json):
        data = json.loads(canonical(game.to_json(state)))
        restored = game.from_json(data)
        assert canonical(game.to_json(restored)) == canonical(data)
        # The restored state must behave identically, hidden parts and generator included.
        rng_a, rng_b = Rng(3), Rng(3)
        a, b = game.clone(state), restored
        for _ in range(30):
            if game.result(a) is not None:
                break
            seat = game.pending(a)[0].seat
            legal_a, legal_b = game.legal(a, seat), game.legal(b, seat)
            assert legal_a == legal_b
            move = rng_a.choice(legal_a)
            rng_b.choice(legal_b)
            assert [e.to_json() for e in game.perform(a, seat, move)] == [
                e.to_json() for e in game.perform(b, seat, move)]
        assert canonical(game.to_json(a)) == canonical(game.to_json(b))


@pytest.mark.parametrize(("game_id", "seats", "options_json"), CASES)
def test_match_json_round_trip(game_id: str, seats: int, options_json: str) -> None:
    match = _match(game_id, seats, options_json, PLAYOUT_SEEDS[1])
    text = json.dumps(match.to_json(), sort_keys=True)
    restored = Match.from_json(json.loads(text))
    assert json.dumps(restored.to_json(), sort_keys=True) == text


@pytest.mark.parametrize(("game_id", "seats", "options_json"), CASES)
def test_every_listed_legal_move_is_accepted(game_id: str, seats: int, options_json: str) -> None:
    game = load(game_id)
    for state, _ in _states(game_id, seats, options_json):
        for seat in game.seats_to_move(state):
            legal = game.legal(state, seat)
            assert legal, f"seat {seat} is pending but has no legal move"
            for move in legal[:40]:
                copy = game.clone(state)
                game.apply(copy, seat, json.loads(json.dumps(move)))


@pytest.mark.parametrize(("game_id", "seats", "options_json"), CASES)
def test_clone_is_independent(game_id: str, seats: int, options_json: str) -> None:
    game = load(game_id)
    for state, _ in _states(game_id, seats, options_json):
        if game.result(state) is not None:
            continue
        before = canonical(game.to_json(state))
        copy = game.clone(state)
        assert canonical(game.to_json(copy)) == before
        seat = game.pending(copy)[0].seat
        game.perform(copy, seat, game.legal(copy, seat)[-1])
        assert canonical(game.to_json(state)) == before


@pytest.mark.parametrize(("game_id", "seats", "options_json"), CASES)
def test_state_fields_are_declared(game_id: str, seats: int, options_json: str) -> None:
    """The state class names every field once (``FIELDS``, engine/fields.py): every
    attribute is declared, every declared field is set, and the JSON reads back the same."""
    for state, _ in _states(game_id, seats, options_json):
        assert problems(state) == []


@pytest.mark.parametrize(("game_id", "seats", "options_json"), CASES)
def test_clone_copies_every_declared_field(game_id: str, seats: int, options_json: str) -> None:
    """A hand-written clone sets every declared field to an equal value and shares no
    mutable part with the original, except the fields declared ``clone="share"``."""
    game = load(game_id)
    for state, _ in _states(game_id, seats, options_json):
        assert clone_problems(state, game.clone(state)) == []


def _mutations(move: dict[str, Any]) -> list[Any]:
    """Moves one step away from a legal one: wrong types, unknown keys, odd values."""
    out: list[Any] = [[move], json.dumps(move), None, 7, {}, {**move, "unexpected": 1}]
    for key, value in move.items():
        out.append({k: v for k, v in move.items() if k != key})
        for other in (None, True, -1, 10**9, "", "nowhere", [value], {"x": value}, 2.5):
            if type(other) is not type(value) or other != value:
                out.append({**move, key: other})
        if isinstance(value, int) and not isinstance(value, bool):
            out.extend([{**move, key: value + 1000}, {**move, key: -value - 1}, {**move, key: str(value)}])
        if isinstance(value, str):
            out.extend([{**move, key: value + "x"}, {**move, key: value.upper() + "!"}])
        if isinstance(value, list):
            out.extend([{**move, key: [*value, value[0] if value else 0]}, {**move, key: value[:-1]}])
    return out


def _assert_rejected(game: Game[Any], state: Any, seat: Any, move: Any, legal: set[str] | None = None) -> None:
    """``move`` from ``seat`` is refused with a coded IllegalMove and changes nothing.
    ``legal`` (the canonical legal moves of ``seat``) may be given to save recomputing it."""
    before = canonical(game.to_json(state))
    if legal is None and isinstance(seat, int) and not isinstance(seat, bool) and seat in game.seats_to_move(state):
        legal = {canonical(m) for m in game.legal(state, seat)}
    if legal and isinstance(move, dict) and canonical(move) in legal:
        return  # a mutation that happens to be legal
    with pytest.raises(IllegalMove) as raised:
        game.apply(state, seat, move)
    assert raised.value.code and raised.value.message
    assert canonical(game.to_json(state)) == before


@pytest.mark.parametrize(("game_id", "seats", "options_json"), CASES)
def test_mutated_moves_and_wrong_seats_are_rejected(game_id: str, seats: int, options_json: str) -> None:
    game = load(game_id)
    for state, _ in _states(game_id, seats, options_json):
        pending = game.seats_to_move(state)
        idle = [seat for seat in range(seats) if seat not in pending]
        # Simultaneous games can have six seats pending with the same kind of choice:
        # three of them cover the seat-dependent paths.
        for seat in pending[:3]:
            legal = game.legal(state, seat)
            legal_set = {canonical(m) for m in legal}
            # The first and last moves of the list, and a few between, in every shape.
            picked = {canonical(m): m for m in [*legal[:4], *legal[-2:], *legal[4:-2:max(1, len(legal) // 4)]]}
            for move in picked.values():
                for mutated in _mutations(move):
                    _assert_rejected(game, state, seat, mutated, legal_set)
            for wrong in [*idle, seats, -1, "0", None, True]:
                _assert_rejected(game, state, wrong, legal[0], set())


_json = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)


@pytest.mark.parametrize(("game_id", "seats"), _default_cases())
def test_garbage_moves_are_rejected(game_id: str, seats: int) -> None:
    game = load(game_id)
    states = [s for s, _ in _states(game_id, seats, canonical(
        {o.name: o.default for o in game.options}))]
    types = sorted({m["type"] for s in states for seat in game.seats_to_move(s) for m in game.legal(s, seat)}) or ["x"]

    @settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
    @given(index=st.integers(0, len(states) - 1), seat=st.integers(-1, seats), kind=st.sampled_from(types),
           rest=st.dictionaries(st.text(max_size=10), _json, max_size=4), raw=_json)
    def check(index: int, seat: int, kind: str, rest: dict[str, Any], raw: Any) -> None:
        state = states[index]
        _assert_rejected(game, state, seat, {**rest, "type": kind})
        _assert_rejected(game, state, seat, raw)

    check()


def _secret_leaks(text: str, secrets: set[str]) -> list[str]:
    return [s for s in secrets if json.dumps(s, ensure_ascii=False) in text]


@pytest.mark.parametrize(("game_id", "seats", "options_json"), CASES)
def test_views_and_events_hide_other_seats_secrets(game_id: str, seats: int, options_json: str) -> None:
    game = load(game_id)
    match = _match(game_id, seats, options_json, PLAYOUT_SEEDS[0])
    replay = Match.new(game_id, seats, json.loads(options_json), match.seed, game=game)
    step = max(1, match.version // 40)
    for number, played in enumerate(match.moves):
        events = replay.play(played.seat, played.move)
        if number % step and number != match.version - 1:
            continue
        secrets = game.secrets(replay.state)
        for reader in [*range(seats), None]:
            hidden = set().union(*(v for k, v in secrets.items() if k != reader or k is None))
            view = json.dumps(game.view(replay.state, reader), ensure_ascii=False)
            assert not _secret_leaks(view, hidden), f"view of seat {reader} shows {_secret_leaks(view, hidden)}"
            for event in events:
                if event.visible_to(reader):
                    text = json.dumps(event.to_json(), ensure_ascii=False)
                    assert not _secret_leaks(text, hidden), f"event {event.key} to {reader} leaks"
            if reader is not None:
                for decision in game.pending(replay.state):
                    if decision.seat != reader:
                        continue
                    text = json.dumps(decision.prompt.to_json(), ensure_ascii=False)
                    assert not _secret_leaks(text, hidden)


def _keeps_the_default_secrets(game: Game[Any]) -> bool:
    return type(game).secrets is Game.secrets


@pytest.mark.parametrize(("game_id", "seats", "options_json"),
                         [case for case in CASES if _keeps_the_default_secrets(load(case.values[0]))])
def test_a_game_without_secrets_hides_nothing(game_id: str, seats: int, options_json: str) -> None:
    """``secrets`` is optional: a game that keeps the default claims it hides nothing
    (tests/engine/open_information.py says what that means; test_secrets_hook.py tests it)."""
    game = load(game_id)
    assert hiding_problems(game, seats, _states(game_id, seats, options_json)) == []


@pytest.mark.parametrize(("game_id", "seats", "options_json"), CASES)
def test_determinize_keeps_what_the_seat_sees(game_id: str, seats: int, options_json: str) -> None:
    game = load(game_id)
    rng = Rng(99)
    for state, _ in _states(game_id, seats, options_json):
        before = canonical(game.to_json(state))
        for seat in range(seats):
            sampled = game.determinize(state, seat, rng)
            assert game.view(sampled, seat) == game.view(state, seat)
            assert game.legal(sampled, seat) == game.legal(state, seat)
            assert game.seats_to_move(sampled) == game.seats_to_move(state)
            # A determinized state is a real state: play it to the end.
            from ludoteca.bots.playout import random_playout

            random_playout(game, sampled, Rng(seat))
        assert canonical(game.to_json(state)) == before


@pytest.mark.parametrize(("game_id", "seats", "options_json"),
                         [case for case in CASES if load(case.values[0]).static_view_keys])
def test_static_view_parts_never_change(game_id: str, seats: int, options_json: str) -> None:
    """A game's ``static_view_keys`` name parts of the view that are the same for every
    seat all match long: the server sends them once per client on that promise."""
    game = load(game_id)
    first = game.view(_states(game_id, seats, options_json)[0][0], None)
    expected = {key: canonical(first[key]) for key in game.static_view_keys}
    for state, _events in _states(game_id, seats, options_json):
        for reader in [*range(seats), None]:
            view = game.view(state, reader)
            for key, text in expected.items():
                assert canonical(view[key]) == text, f"{key} changed (seat {reader})"
