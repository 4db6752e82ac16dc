"""The Game protocol: what every game gives the engine, the platform and the bots.

A game is a pure state machine over its own state class. It never does I/O, never
reads the clock and draws randomness only from the ``Rng`` kept in its state (as the
attribute ``rng``). Subclasses implement the abstract methods; the base class turns
them into the checked operations the platform relies on (``apply`` rejects anything
that ``legal`` does not list and leaves the state untouched).
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from .errors import IllegalMove, SetupError
from .options import Option, OptionValue, validate_options
from .rng import Rng

Move = dict[str, Any]
"""A move: a small JSON object such as ``{"type": "place", "space": "t3"}``."""

Seat = int
"""Seats are numbered from 0. ``None`` stands for a spectator, or for nobody."""



class GameState(Protocol):
    """What the engine needs of every game's state: its random generator, the only
    source of randomness a game may use (the engine detects draws by comparing it)."""

    rng: Rng


S = TypeVar("S", bound=GameState)


@dataclass(frozen=True)
class Prompt:
    """What a pending seat is asked: an i18n key and its arguments."""

    key: str
    args: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"key": self.key, "args": dict(self.args)}


@dataclass(frozen=True)
class Decision:
    """A seat that must decide now, and what it is asked."""

    seat: Seat
    prompt: Prompt

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "prompt": self.prompt.to_json()}


class Event:
    """A log line. ``to`` is None for everyone, or the one seat allowed to read it.

    A plain slotted class rather than a frozen dataclass: games emit hundreds per
    playout, and a frozen dataclass costs several times more to build.
    """

    __slots__ = ("args", "key", "to")

    def __init__(self, key: str, args: Mapping[str, Any] | None = None, to: Seat | None = None) -> None:
        self.key = key
        self.args = args if args is not None else {}
        self.to = to

    def visible_to(self, seat: Seat | None) -> bool:
        return self.to is None or self.to == seat

    def to_json(self) -> dict[str, Any]:
        return {"key": self.key, "args": dict(self.args), "to": self.to}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Event:
        return cls(data["key"], dict(data.get("args", {})), data.get("to"))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Event) and (self.key, dict(self.args), self.to) == (
            other.key, dict(other.args), other.to)

    def __hash__(self) -> int:
        return hash((self.key, self.to))

    def __repr__(self) -> str:
        return f"Event({self.key!r}, {dict(self.args)!r}, to={self.to!r})"


@dataclass(frozen=True)
class Result:
    """A finished game: scores, ranks (1 is best, ties share a rank), and why.

    ``tiebreak`` holds, per seat, the values compared after the score (higher is
    better); ``breakdown`` holds, per seat, the scoring detail players see.
    """

    scores: tuple[int, ...]
    ranks: tuple[int, ...]
    tiebreak: tuple[tuple[int, ...], ...] = ()
    breakdown: tuple[Mapping[str, Any], ...] = ()

    @property
    def winners(self) -> tuple[Seat, ...]:
        return tuple(seat for seat, rank in enumerate(self.ranks) if rank == 1)

    def to_json(self) -> dict[str, Any]:
        return {
            "scores": list(self.scores),
            "ranks": list(self.ranks),
            "winners": list(self.winners),
            "tiebreak": [list(t) for t in self.tiebreak],
            "breakdown": [dict(b) for b in self.breakdown],
        }

    @classmethod
    def ranked(
        cls,
        scores: Sequence[int],
        tiebreak: Sequence[Sequence[int]] | None = None,
        breakdown: Sequence[Mapping[str, Any]] = (),
    ) -> Result:
        """Rank seats by score, then by each tie-break value in turn; equal keys share a rank."""
        keys = [(score, *(tiebreak[i] if tiebreak else ())) for i, score in enumerate(scores)]
        ranks = tuple(1 + sum(1 for other in keys if other > key) for key in keys)
        return cls(
            tuple(scores),
            ranks,
            tuple(tuple(t) for t in tiebreak) if tiebreak else (),
            tuple(breakdown),
        )


def canonical(value: Any) -> str:
    """The canonical JSON text of a move: key order and whitespace do not matter, types do."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _is_json(value: Any, depth: int = 0) -> bool:
    if depth > 8:
        return False
    if value is None or isinstance(value, bool | int | str):
        return True
    if isinstance(value, float):
        return value == value and value not in (float("inf"), float("-inf"))
    if isinstance(value, list):
        return all(_is_json(item, depth + 1) for item in value)
    if isinstance(value, dict):
        return all(isinstance(k, str) and _is_json(v, depth + 1) for k, v in value.items())
    return False


class Game(ABC, Generic[S]):
    """A game definition. One instance serves every match of that game.

    Subclasses set the class attributes and implement the abstract methods. ``perform``
    may trust its move: ``apply`` checks it first. Bots and benchmarks call ``perform``
    directly on moves taken from ``legal``.
    """

    id: ClassVar[str]
    name: ClassVar[str]
    min_seats: ClassVar[int]
    max_seats: ClassVar[int]
    options: ClassVar[tuple[Option, ...]] = ()
    description: ClassVar[str] = ""
    max_moves: ClassVar[int] = 100_000
    """An upper bound on the moves of any game; the conformance suite holds games to it."""
    static_view_keys: ClassVar[tuple[str, ...]] = ()
    """Top-level keys of ``view`` whose values never change during a match and are the
    same for every seat (a board's geometry, a sheet's layout). Optional: the server
    sends each of them once per client instead of in every update; the conformance
    suite holds games to the promise."""

    # -- to implement -------------------------------------------------------------

    @abstractmethod
    def new_state(self, seats: int, options: Mapping[str, OptionValue], rng: Rng) -> S:
        """The initial state. ``options`` are already validated and complete."""

    @abstractmethod
    def pending(self, state: S) -> list[Decision]:
        """The seats that must decide now (several at once for simultaneous choices)."""

    @abstractmethod
    def legal(self, state: S, seat: Seat) -> list[Move]:
        """Every move ``seat`` may play now; empty when it has nothing to decide."""

    @abstractmethod
    def perform(self, state: S, seat: Seat, move: Move) -> list[Event]:
        """Play a legal move in place and return the events it caused."""

    @abstractmethod
    def view(self, state: S, seat: Seat | None) -> dict[str, Any]:
        """What ``seat`` may see (``None``: a spectator), as JSON."""

    @abstractmethod
    def result(self, state: S) -> Result | None:
        """The result once the game is over, else None."""

    @abstractmethod
    def clone(self, state: S) -> S:
        """An independent copy, written by hand: search bots call it constantly."""

    @abstractmethod
    def to_json(self, state: S) -> dict[str, Any]:
        """The full state, hidden parts included, as JSON."""

    @abstractmethod
    def from_json(self, data: Mapping[str, Any]) -> S:
        """The inverse of ``to_json``: ``to_json(from_json(d)) == d``."""

    @abstractmethod
    def determinize(self, state: S, seat: Seat, rng: Rng) -> S:
        """A copy whose hidden parts (for ``seat``) are resampled, consistently with
        everything ``seat`` can see; ``view(copy, seat) == view(state, seat)``."""

    # -- may override ---------------------------------------------------------------

    def secrets(self, state: S) -> dict[Seat | None, set[str]]:
        """Where the secrets live, for the hidden-information checks: per seat, the
        strings only that seat may see (its hand's card ids, say); under ``None``, the
        strings nobody may see (the deck's order, face-down tokens). No view or event
        that another seat may read may contain one of them as a JSON string.

        Optional: a game with no hidden information need not define it. The default
        says "no secrets", and the conformance suite holds a game that keeps the default
        to that claim: every seat and the spectator must get the same view, and no event
        may be addressed to one seat. A game that hides anything must override this."""
        return {}

    def explain(self, state: S, seat: Seat, move: Move) -> IllegalMove:
        """Why ``move`` is not legal; games refine this for clearer messages."""
        kind = move.get("type")
        kinds = sorted({m.get("type", "") for m in self.legal(state, seat)})
        if kind not in kinds:
            return IllegalMove("bad_move_type", f"a {kind!r} move is not possible now; possible: {', '.join(kinds)}")
        return IllegalMove("illegal_move", f"this {kind!r} move is not legal now")

    def move_text(self, state: S, seat: Seat, move: Move) -> str:
        """A short human label for a move (the terminal lists moves with it)."""
        return canonical(move)

    def view_text(self, view: Mapping[str, Any]) -> str:
        """A readable rendering of a view for the terminal."""
        return json.dumps(view, indent=1, ensure_ascii=False)

    def simultaneous(self, state: S) -> Hashable | None:
        """Names the simultaneous decision now pending, if its seats choose independently
        of each other (Blood Rage's draft, Hadrian's Wall's year): the same value for as
        long as that decision lasts, a different one for any later decision (count rounds
        in it). Within such a decision another seat's move never changes what a move of
        this seat means, so the platform takes a move chosen before other seats' moves of
        the same decision landed, if it is still legal (``Match.independent_since``).
        None, the default, is always safe: every move is a new decision for every seat,
        and a move chosen before another one landed is refused as stale."""
        return None

    def reveals(self, before: S, after: S, seat: Seat, move: Move, events: Sequence[Event]) -> bool:
        """Whether the move showed hidden information (then it can never be undone).
        Randomness is detected by the engine; games report other reveals here."""
        return False

    def hidden_choice(self, state: S, seat: Seat, move: Move) -> bool:
        """Whether ``move``, played by ``seat`` on ``state``, is a move whose content stays
        its seat's own until the rules reveal it (a secret order chosen by every seat):
        the server then shows the other seats that it was made, not which it was. For
        choices ``secrets`` cannot name (their strings are public ids). Default: none."""
        return False

    # -- provided ---------------------------------------------------------------------

    def setup(self, seats: int, options: Mapping[str, object] | None = None, seed: int = 0) -> S:
        """Start a game: the seat count and options are checked, the seed fixes every draw."""
        if isinstance(seats, bool) or not isinstance(seats, int) or not self.min_seats <= seats <= self.max_seats:
            raise SetupError(
                "seats", f"{self.name} is for {self.min_seats} to {self.max_seats} players, not {seats!r}"
            )
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise SetupError("seed", f"the seed must be an integer, not {seed!r}")
        return self.new_state(seats, validate_options(self.options, seats, options), Rng(seed))

    def seats_to_move(self, state: S) -> list[Seat]:
        return [decision.seat for decision in self.pending(state)]

    def check(self, state: S, seat: object, move: object) -> Move:
        """Return ``move`` if ``seat`` may play it now, else raise IllegalMove."""
        if not isinstance(move, dict) or not _is_json(move):
            raise IllegalMove("malformed", "a move must be a JSON object")
        if isinstance(seat, bool) or not isinstance(seat, int):
            raise IllegalMove("bad_seat", f"no such seat: {seat!r}")
        if self.result(state) is not None:
            raise IllegalMove("game_over", "the game is over")
        if seat not in self.seats_to_move(state):
            raise IllegalMove("not_your_turn", f"seat {seat} has nothing to decide now")
        wanted = canonical(move)
        for legal in self.legal(state, seat):
            if canonical(legal) == wanted:
                return move
        raise self.explain(state, seat, move)

    def apply(self, state: S, seat: Seat, move: Move) -> list[Event]:
        """Check and play a move in place; on IllegalMove the state is untouched."""
        self.check(state, seat, move)
        return self.perform(state, seat, move)

    def info(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "description": self.description,
            "min_seats": self.min_seats,
            "max_seats": self.max_seats,
            "options": [option.to_json() for option in self.options],
        }
