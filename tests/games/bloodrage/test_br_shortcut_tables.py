"""The tables and short cuts of the sixth speed round against the plain computation they stand
for, at every decision of random games: the draft's seats (rules._draft_seats, a table keyed by
the taken counts), the reserve kinds and the invade plan (memos keyed with the warriors' bits
folded), kinds_at, str_at and the march's figures from the summary for a clan without
monsters, and battle._chain (automatic tasks run in place instead of queued)."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from ludoteca.engine import Rng
from ludoteca.games import load
from ludoteca.games.bloodrage import battle, rules
from ludoteca.games.bloodrage.board import (
    BASE_KINDS,
    foldable,
    invade_cost,
    kinds_at,
    reserve_key,
    reserve_kinds,
    str_among,
    str_at,
)
from ludoteca.games.bloodrage.components import FJORD_LOCS, PROVINCES, RESERVE, SHIP_KINDS, SUPPORT
from ludoteca.games.bloodrage.state import BRState

from .br_helpers import random_action_turn

GAME = load("bloodrage")


def _decisions(seats: int, seed: int) -> Iterator[BRState]:
    """Every decision of a random game, a random pending seat moving."""
    state = GAME.setup(seats, None, seed)
    rng = Rng(seed)
    while GAME.result(state) is None:
        yield state
        pending = GAME.pending(state)
        seat = pending[rng.below(len(pending))].seat
        GAME.perform(state, seat, rng.choice(GAME.legal(state, seat)))


def _games() -> Iterator[BRState]:
    for seats, seed in ((2, 3), (3, 4), (4, 5), (4, 6)):
        yield from _decisions(seats, seed)


def _plain_draft_seats(taken: list[int], n: int) -> list[int]:
    low = min(taken)
    if low >= 6:
        return []
    if n != 2:
        return [s for s in range(n) if taken[s] == low]
    return [s for s in range(n) if taken[s] < 2 * (low // 2 + 1)]


def _plain_reserve_kinds(kinds: tuple[str, ...], res: int) -> tuple[str, ...]:
    seen: list[str] = []
    for i, kind in enumerate(kinds):
        if res >> i & 1 and kind not in seen:
            seen.append(kind)
    return tuple(seen)


def _plain_kinds_at(state: BRState, seat: int, at: int) -> list[str]:
    seen: list[str] = []
    for kind, loc in zip(state.kinds[seat], state.locs[seat], strict=True):
        if loc == at and kind not in seen:
            seen.append(kind)
    return seen


def _plain_str_at(state: BRState, seat: int, p: int) -> int:
    return str_among(state, seat, (p, *SUPPORT[p]))


def _plain_march_adds(state: BRState, seat: int) -> list[dict[str, str]]:
    assert state.march is not None
    src, chosen = state.march
    moves, seen = [], []
    for i, (kind, at) in enumerate(zip(state.kinds[seat], state.locs[seat], strict=True)):
        if at == src and i not in chosen and kind not in SHIP_KINDS and kind not in seen:
            seen.append(kind)
            moves.append({"type": "march_add", "figure": kind})
    return moves


def test_tables_and_short_cuts_match_the_plain_computation_at_every_decision() -> None:
    checked = {"draft": 0, "plan": 0, "str": 0, "march": 0}
    for state in _games():
        top = state.stack[-1][0] if state.stack else ""
        if top == "draft":
            seats = rules._draft_seats(state, state.stack[-1])
            assert seats == _plain_draft_seats(state.taken, state.n)
            seats.append(99)  # a fresh list each time: the table is not changed
            assert rules._draft_seats(state, state.stack[-1]) == _plain_draft_seats(state.taken, state.n)
            checked["draft"] += 1
        for seat in range(state.n):
            kinds = state.kinds[seat]
            res = sum(1 << i for i, at in enumerate(state.locs[seat]) if at == RESERVE)
            assert reserve_kinds(kinds, res) == _plain_reserve_kinds(kinds, res)
            plan = rules._invade_plan(kinds, res)
            assert [cost for cost, _, _, _ in plan] == [
                -1 if kind == "warrior" else invade_cost(state, seat, kind) for kind in reserve_kinds(kinds, res)]
            assert [shapes[0]["figure"] for _, shapes, _, _ in plan] == list(reserve_kinds(kinds, res))
            checked["plan"] += 1
            for p in range(len(PROVINCES)):
                assert kinds_at(state, seat, p) == _plain_kinds_at(state, seat, p)
                assert str_at(state, seat, p) == _plain_str_at(state, seat, p)
                checked["str"] += 1
            for f in FJORD_LOCS:
                assert kinds_at(state, seat, f) == _plain_kinds_at(state, seat, f)
        if top == "march":
            seat = state.stack[-1][1]
            adds = [m for m in rules._march_legal(state, state.stack[-1], seat) if m["type"] == "march_add"]
            _, more = rules._march_room(state, state.march[0], len(state.march[1]))  # type: ignore[index]
            assert adds == (_plain_march_adds(state, seat) if more else [])
            checked["march"] += 1
    assert min(checked.values()) > 10, checked


def test_folded_reserve_keys_give_the_kinds_of_the_true_bits() -> None:
    rng = Rng(7)
    kinds = (*BASE_KINDS, "troll", "sea_serpent")
    assert foldable(kinds)
    for _ in range(500):
        res = rng.below(1 << len(kinds))
        assert reserve_kinds(kinds, res) == _plain_reserve_kinds(kinds, res)
        assert reserve_kinds(kinds, reserve_key(kinds, res)) == reserve_kinds(kinds, res)


def test_a_row_not_led_by_eight_warriors_is_never_folded() -> None:
    # built by hand: figure 3 is a troll, so which bits are set among 2-9 matters
    kinds = ("leader", "ship", "warrior", "troll", *("warrior",) * 6)
    assert not foldable(kinds)
    for res in (1 << 2, 1 << 3, 1 << 2 | 1 << 3, 1 << 4):
        assert reserve_kinds(kinds, res) == _plain_reserve_kinds(kinds, res)
        assert [shapes[0]["figure"] for _, shapes, _, _ in rules._invade_plan(kinds, res)] == list(
            _plain_reserve_kinds(kinds, res))


def test_chain_runs_automatic_tasks_in_place_only_while_nothing_is_queued() -> None:
    ran: list[str] = []
    saved = dict(battle._CHAINED)
    try:
        def auto(name: str, queues: tuple = ()) -> Callable[[BRState, tuple, list, list], None]:
            def run(state: BRState, task: tuple, q: list, ev: list) -> None:
                ran.append(name)
                q.extend(queues)
            return run
        battle._CHAINED.clear()
        battle._CHAINED.update({"a": auto("a"), "b": auto("b", (("x",),)), "c": auto("c")})
        state, _ = random_action_turn(3)
        q: list = []
        battle._chain(state, (("a",), ("b",), ("c",)), q, [])
        assert ran == ["a", "b"] and q == [("x",), ("c",)]  # c waits behind what b queued
        ran.clear()
        q = [("y",)]
        battle._chain(state, (("a",),), q, [])
        assert ran == [] and q == [("y",), ("a",)]  # something queued first: all queued
        q = []
        battle._chain(state, (("a",), ("prowess", 0), ("c",)), q, [])
        assert ran == ["a"] and q == [("prowess", 0), ("c",)]  # a decision: it and the rest queued
    finally:
        battle._CHAINED.clear()
        battle._CHAINED.update(saved)
