"""Flat float32 observations built from a seat's view.

An ``Encoder`` turns ``view(state, seat)`` (never the full state) into a vector whose
layout is fixed for a (game, seats, options) and documented slice by slice: each game
module declares its slices in a ``Layout`` (name, size, meaning), and docs/rl.md lists
them. Every entry lies in [0, 1]: one-hots, multi-hots, and counts divided by a stated
cap (clipped at 1 where a count could in theory exceed it).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np

from ludoteca.engine import OptionValue, canonical

from .vocab import full_options, game_module


@dataclass(frozen=True)
class Part:
    name: str
    start: int
    size: int
    doc: str

    @property
    def slice(self) -> slice:
        return slice(self.start, self.start + self.size)


class Layout:
    """The named slices of an observation vector, in order."""

    def __init__(self) -> None:
        self.parts: list[Part] = []
        self.size = 0

    def add(self, name: str, size: int, doc: str) -> int:
        """Append a slice; returns its start offset."""
        start = self.size
        self.parts.append(Part(name, start, size, doc))
        self.size += size
        return start

    def part(self, name: str) -> Part:
        for part in self.parts:
            if part.name == name:
                return part
        raise KeyError(name)

    def describe(self) -> list[dict[str, Any]]:
        return [{"name": p.name, "start": p.start, "size": p.size, "doc": p.doc} for p in self.parts]

    def markdown(self) -> str:
        """The layout as a Markdown table (docs/rl.md is made from it)."""
        lines = ["| slice | size | meaning |", "|---|---|---|"]
        lines += [f"| `{p.name}` [{p.start}:{p.start + p.size}] | {p.size} | {p.doc} |" for p in self.parts]
        return "\n".join(lines)


def scaled(value: float, cap: float) -> float:
    """``value / cap`` clipped to [0, 1]."""
    x = value / cap
    return 0.0 if x < 0 else 1.0 if x > 1 else x


class Encoder(ABC):
    """Encodes one game's views at one seat count and option set."""

    def __init__(self, seats: int, options: Mapping[str, OptionValue]) -> None:
        self.seats = seats
        self.options = dict(options)
        self.layout = Layout()
        self.build()

    @abstractmethod
    def build(self) -> None:
        """Declare the slices (``self.layout.add``) and any lookup tables."""

    @abstractmethod
    def fill(self, view: Mapping[str, Any], out: np.ndarray) -> None:
        """Write the view into ``out`` (zeros, ``layout.size`` long)."""

    @property
    def size(self) -> int:
        return self.layout.size

    def encode(self, view: Mapping[str, Any]) -> np.ndarray:
        out = np.zeros(self.layout.size, dtype=np.float32)
        self.fill(view, out)
        # counts accumulated with += (figures, knights) could pass a cap in theory
        np.clip(out, 0.0, 1.0, out=out)
        return out

    # helpers for fill()
    @staticmethod
    def one_hot(out: np.ndarray, start: int, index: int | None) -> None:
        if index is not None and index >= 0:
            out[start + index] = 1.0

    @staticmethod
    def counts(out: np.ndarray, start: int, values: Sequence[float], cap: float) -> None:
        for i, value in enumerate(values):
            out[start + i] = scaled(value, cap)


@cache
def _encoder(game_id: str, seats: int, options_key: str) -> Encoder:
    import json

    encoder_class: type[Encoder] = game_module(game_id).Observation
    return encoder_class(seats, json.loads(options_key))


def encoder(game_id: str, seats: int, options: Mapping[str, object] | None = None) -> Encoder:
    """The observation encoder of a game at a seat count with options (defaults filled in)."""
    game_module(game_id)
    return _encoder(game_id, seats, canonical(full_options(game_id, seats, options)))
