"""Before the first age (BR-11, BR-104 .. BR-106): who holds the first-player token and which clan
each seat plays.

The seed and the rulebook: each player chooses a clan, and the first-player token goes to
any player. At an online table the token is drawn by the match's seed unless the table
names a seat (option ``first_player``); the clans are chosen in turn from the first player,
clockwise (option ``clans`` = ``choose``, the default), or dealt at random (``random``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ludoteca.engine import Event, Rng
from ludoteca.engine.flow import Step, TaskFlow

from .board import order_from
from .components import CLANS
from .state import BRState

FLOW: TaskFlow[BRState] = TaskFlow("bloodrage opening")
"""The clans chosen in turn."""


def set_up(state: BRState, options: Mapping[str, Any], rng: Rng) -> None:
    """Draw the first player and deal the clans if the options say so (drawn after the
    board and the decks, so the same seed lays out the same board whatever the options)."""
    chosen = options["first_player"]
    state.first = rng.below(state.n) if chosen == "random" else int(chosen) - 1
    state.turn = state.first
    if options["clans"] == "random":
        deal = list(CLANS)
        rng.shuffle(deal)
        state.clans = deal[:state.n]
    else:
        state.clans = [""] * state.n
        state.phase = "clans"
        state.stack.append(("clan",))
    state.told = False


def announce(state: BRState) -> list[Event]:
    """The set-up the log shows, with the first move of the match (set-up itself has no
    events): the first player, and the clans when they were dealt."""
    state.told = True
    events = [Event("br.first_player", {"seat": state.first})]
    if all(state.clans):
        events.extend(Event("br.clan_dealt", {"seat": s, "clan": state.clans[s]}) for s in order_from(state, 0))
    return events


def _clan_seats(state: BRState, task: tuple) -> list[int]:
    for s in order_from(state, state.first):
        if not state.clans[s]:
            return [s]
    return []


def _clan_legal(state: BRState, task: tuple, seat: int) -> list[dict[str, Any]]:
    return [{"type": "clan", "clan": c} for c in CLANS if c not in state.clans]


def _clan_perform(state: BRState, task: tuple, seat: int, move: dict[str, Any], q: list, ev: list) -> None:
    state.clans[seat] = move["clan"]
    ev.append(Event("br.clan_chosen", {"seat": seat, "clan": move["clan"]}))


FLOW.decision("clan", Step("br.prompt.clan", _clan_seats, _clan_legal, _clan_perform))
