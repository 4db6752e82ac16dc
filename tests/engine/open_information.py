"""What a game that keeps the default ``secrets`` (nothing hidden) is held to."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ludoteca.engine import Event, Game, canonical


def hiding_problems(game: Game[Any], seats: int, states: Sequence[tuple[Any, Sequence[Event]]]) -> list[str]:
    """Where a game that claims to hide nothing does hide something: a seat whose view
    differs from the spectator's, or an event addressed to one seat. ``states`` pairs
    states with the events of the move that led to each."""
    out = []
    for number, (state, events) in enumerate(states):
        public = canonical(game.view(state, None))
        out += [f"state {number}: seat {reader} sees another view than the spectator; define secrets()"
                for reader in range(seats) if canonical(game.view(state, reader)) != public]
        out += [f"state {number}: event {event.key} is for seat {event.to} only; define secrets()"
                for event in events if event.to is not None]
    return out
