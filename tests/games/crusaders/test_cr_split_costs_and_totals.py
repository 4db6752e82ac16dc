"""The tables of the fifth speed round against the code they replace.

Rules: the split, whose first action now starts inline, against the old split, and
``region_costs`` against ``build_cost``. Bot hooks: the building worths against the old formula, and the
evaluation's totals against ``scoring.breakdown``, at every decision of random games."""

from __future__ import annotations

from typing import Any

import pytest

from ludoteca.engine import Event, Rng
from ludoteca.games.crusaders import actions, ai, economy
from ludoteca.games.crusaders.components import BUILDINGS
from ludoteca.games.crusaders.scoring import breakdown
from ludoteca.games.crusaders.state import CrusadersState

from .helpers import GAME, started

WHEELS = ("shared", "individual", "first_game", "learning", "tournament")


def _random_states(games: int) -> Any:
    """Every decision's state of random games at 2-5 seats over the option sets."""
    rng = Rng(5)
    for g in range(games):
        options = {"knight_orders": g % 2 == 0, "wheel": WHEELS[g % len(WHEELS)]}
        state = GAME.setup(2 + g % 4, options, g)
        while GAME.result(state) is None:
            seat = GAME.pending(state)[0].seat
            yield state, seat
            GAME.perform(state, seat, rng.choice(GAME.legal(state, seat)))
        yield state, state.current


def _old_build_worth(state: CrusadersState, seat: int, b: int, region: int) -> float:
    """ai._build_worth as it was before its table, kept here as the reference."""
    p = state.players[seat]
    name = BUILDINGS[b]
    level = p.built[b]
    worth = level + 1.0 + ai._UNCOVER_WORTH[name][level]
    if state.seats < 5 or not state.buildings[region]:
        worth += economy.BOARDS[state.seats].regions[region].influence_for(name)
        tile = state.tiles[region]
        if tile:
            t = economy.C.tile_index[tile]
            if t.applies(name):
                worth += t.influence
    if level == 3:
        worth += 4.0
    return worth


def _old_play_split(state: CrusadersState, seat: int, move: dict[str, Any], events: list[Event]) -> None:
    """actions._play_split before its first action was started inline, kept here as the reference."""
    first, first_tokens, second, second_tokens = actions.split_tokens(state, seat, move)
    queued = []
    if first_tokens > 0:
        queued.append((first, first_tokens))
    if second_tokens > 0:
        queued.append((second, second_tokens))
    state.actions = queued
    events.append(Event("cr.split", {"seat": seat, "first": first, "tokens": first_tokens, "second": second,
                                     "second_tokens": second_tokens}))
    actions._next_action(state, events)


@pytest.mark.parametrize("wedge", [w.id for w in economy.C.wedges])
def test_split_matches_the_old_split(wedge: str) -> None:
    """Every split of up to 17 tokens (every primary count, either action first, and a primary count past
    the tokens) leaves the same state and events as before."""
    action, upgrade = actions.WEDGES[wedge].action, actions.WEDGES[wedge].upgrade
    checked = 0
    for n in range(1, 18):
        for k in range(n + 2):
            for first in (action, upgrade):
                results = []
                for play in (actions._play_split, _old_play_split):
                    state = started(3)
                    p = state.players[state.current]
                    p.wheel = (wedge, *(w for w in p.wheel if w != wedge))
                    p.tokens[0] = n
                    p.knights[0] = 0
                    state.wedge, state.phase = 0, "split"
                    events: list[Event] = []
                    play(state, state.current, {"type": "split", "primary": k, "first": first}, events)
                    results.append((GAME.to_json(state), [(e.key, e.args, e.to) for e in events]))
                assert results[0] == results[1], (n, k, first)
                checked += 1
    assert checked == sum(2 * (n + 2) for n in range(1, 18))


def test_region_costs_and_worths_match_at_every_decision() -> None:
    """``region_costs`` is ``build_cost`` and ``ai._worths`` the old worth, for every seat, building type
    and region where a building may stand, at every decision of random games (5 seats included, where a
    second building loses the region's bonuses)."""
    checked = 0
    for state, _ in _random_states(8):
        if state.phase in ("order", "setup") or state.turns % 3:
            continue
        for region in range(len(state.enemy)):
            costs = economy.region_costs(state, region)
            worths = ai._worths(state, region)
            for seat, p in enumerate(state.players):
                for b, name in enumerate(BUILDINGS):
                    if p.built[b] < 4:
                        assert costs[b][p.built[b]] == economy.build_cost(state, seat, name, region)
                        assert worths[b][p.built[b]] == _old_build_worth(state, seat, b, region)
                        checked += 1
    assert checked > 10_000


def test_totals_match_the_breakdown_at_every_decision() -> None:
    """The evaluation's totals are the final scoring's, majorities and level-4 buildings included."""
    seen_awards = seen_level4 = 0
    for state, _ in _random_states(12):
        rows = breakdown(state)
        assert ai._totals(state) == [row["total"] for row in rows]
        seen_awards += any(sum(row["majorities"].values()) for row in rows)
        seen_level4 += any(row["buildings"] for row in rows)
    assert seen_awards > 100
    assert seen_level4 > 0


def test_shared_tables_hand_out_the_same_content() -> None:
    """The bonus sums shared by the bot hooks equal a fresh sum, and are the same object per board."""
    for state, seat in _random_states(2):
        p = state.players[seat]
        fresh = {"move": 0, "muster": 0, "crusade": 0, "influence": 0, "build": 0}
        for i, name in enumerate(BUILDINGS):
            for kind, n in economy.CUM[name][p.built[i]].items():
                if kind in fresh:
                    fresh[kind] += n
        assert ai._bonuses(p) == fresh
        assert ai._bonuses(p) is ai._bonuses(p.clone())
