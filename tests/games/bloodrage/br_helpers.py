"""Helpers for the Blood Rage rule tests: states built by hand, moves played through apply."""

from __future__ import annotations

from typing import Any

from ludoteca.engine import Rng
from ludoteca.games.bloodrage import BloodRageGame
from ludoteca.games.bloodrage.components import CARDS, LOC_INDEX, PROVINCES, RESERVE, SLOTS
from ludoteca.games.bloodrage.state import BRState

GAME = BloodRageGame()


def P(name: str) -> int:
    return LOC_INDEX[name]


def new_game(seats: int = 3, seed: int = 1, **options: Any) -> BRState:
    """A new match past the clan choice (BR-104): each seat, from the first player, takes the
    first clan still free."""
    s = GAME.setup(seats, options or None, seed)
    while s.stack and s.stack[-1][0] == "clan":
        seat = pending(s)[0]
        play(s, seat, GAME.legal(s, seat)[0])
    return s


def action_state(seats: int = 3, seed: int = 1, rage: int = 6) -> BRState:
    """Age 1, action phase, seat 0 to act, empty hands, every province standing."""
    s = GAME.setup(seats, None, seed)
    s.packs = [[] for _ in range(seats)]
    s.hands = [[] for _ in range(seats)]
    s.taken = [6] * seats
    s.stack = []
    s.destroyed = [False] * len(PROVINCES)
    s.phase = "action"
    s.rage = [rage] * seats
    s.passed = [False] * seats
    s.turn = 0
    s.first = 0
    return s


def card(name: str, age: int | None = None, used: set[str] | None = None) -> str:
    for cid, c in CARDS.items():
        if c.name == name and (age is None or c.age == age) and (used is None or cid not in used):
            return cid
    raise KeyError(name)


def _used(s: BRState) -> set[str]:
    used: set[str] = set()
    for lists in (s.hands, s.quests, s.upgrades, s.packs):
        for x in lists:
            used |= set(x)
    if s.battle is not None:
        for x in s.battle.played:
            used |= set(x)
    return used


def give(s: BRState, seat: int, name: str) -> str:
    cid = card(name, used=_used(s))
    s.hands[seat].append(cid)
    return cid


def equip(s: BRState, seat: int, name: str, slot: str | None = None) -> str:
    """Put an upgrade on a clan sheet directly (monsters get their figure in the reserve)."""
    cid = card(name, used=_used(s))
    c = CARDS[cid]
    if slot is None:
        slot = {"monster": "monster1", "clan": "clan1"}.get(c.slot, c.slot)
        while s.upgrades[seat][SLOTS.index(slot)] and slot[:-1] in ("monster", "clan"):
            slot = slot[:-1] + str(int(slot[-1]) + 1)
    ups = list(s.upgrades[seat])
    ups[SLOTS.index(slot)] = cid
    s.upgrades[seat] = tuple(ups)
    if c.slot == "monster":
        s.kinds[seat] = (*s.kinds[seat], c.name)
        s.locs[seat].append(RESERVE)
    return cid


def put(s: BRState, seat: int, kind: str, where: str, count: int = 1) -> None:
    """Move ``count`` reserve figures of ``kind`` to ``where``."""
    for i, (k, at) in enumerate(zip(s.kinds[seat], s.locs[seat], strict=True)):
        if count and k == kind and at == RESERVE:
            s.locs[seat][i] = P(where)
            count -= 1
    assert count == 0, f"not enough {kind} in reserve"


def at(s: BRState, seat: int, where: str) -> list[str]:
    return sorted(k for k, loc in zip(s.kinds[seat], s.locs[seat], strict=True) if loc == P(where))


def count_at(s: BRState, seat: int, loc: int) -> int:
    return sum(1 for x in s.locs[seat] if x == loc)


def play(s: BRState, seat: int, move: dict[str, Any]) -> list[Any]:
    return GAME.apply(s, seat, move)


def pending(s: BRState) -> list[int]:
    return GAME.seats_to_move(s)


def prompt(s: BRState) -> str:
    d = GAME.pending(s)
    return d[0].prompt.key if d else ""


def settle(s: BRState, cards: dict[int, str] | None = None, choose: Any = None) -> list[Any]:
    """Play on until nobody but the action turn is left: the call to arms is declined, each
    seat plays the battle card named in ``cards`` (else its first card), after-reveal windows
    are passed; other decisions use ``choose(state, seat, legal)`` or the first legal move."""
    events: list[Any] = []
    cards = cards or {}
    guard = 0
    while s.stack and not s.over:
        guard += 1
        assert guard < 500
        seats = pending(s)
        if not seats:
            break
        seat = seats[0]
        legal = GAME.legal(s, seat)
        key = prompt(s)
        move = None
        if choose is not None:
            move = choose(s, seat, legal)
        if move is None:
            if key == "br.prompt.battle_card" and seat in cards:
                move = next((m for m in legal if CARDS[m["card"]].name == cards[seat]), legal[0])
            elif {"type": "decline"} in legal and key in ("br.prompt.call", "br.prompt.extra_card",
                                                          "br.prompt.protect", "br.prompt.prowess"):
                move = {"type": "decline"}
            else:
                move = legal[0]
        events.extend(play(s, seat, move))
    return events


def keys(events: list[Any]) -> list[str]:
    return [e.key for e in events]


def battle_state(seats: int = 3) -> BRState:
    """Seat 0 (2 warriors) and seat 1 (1 warrior) in Gimle; seat 0 to pillage."""
    s = action_state(seats)
    put(s, 0, "warrior", "gimle", 2)
    put(s, 1, "warrior", "gimle", 1)
    return s


def random_action_turn(seed: int) -> tuple[BRState, int]:
    """A 4-seat game played at random from ``seed`` up to an Action-phase turn with figures
    on the board: the state and the seat to act."""
    rng = Rng(seed)
    state = GAME.setup(4, None, seed)
    while GAME.result(state) is None:
        seat = GAME.pending(state)[0].seat
        if not state.stack and state.phase == "action" and any(at >= 0 for row in state.locs for at in row):
            return state, seat
        GAME.perform(state, seat, rng.choice(GAME.legal(state, seat)))
    raise AssertionError("no action turn with figures on the board")
