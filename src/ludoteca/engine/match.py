"""A match: one game played from a seed, its move log, and its records.

The move log is the source of truth. ``MatchRecord`` (the setup and the moves) is the
replay format and the unit of storage; ``Match.to_json`` adds the full state so a match
can be resumed without replaying.
"""

from __future__ import annotations

import json
from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .errors import IllegalMove, RecordError, UndoError
from .game import Event, Game, Move, Result, Seat, canonical
from .options import OptionValue

RECORD_FORMAT = "ludoteca.record/1"
MATCH_FORMAT = "ludoteca.match/1"


@dataclass(frozen=True)
class PlayedMove:
    """One entry of the move log. ``undoable`` is fixed when it is played: false if
    the move drew randomness or revealed hidden information."""

    seat: Seat
    move: Move
    undoable: bool = True

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "move": self.move, "undoable": self.undoable}


@dataclass
class MatchRecord:
    """Everything needed to replay a match: setup, seed and moves."""

    game: str
    seats: int
    options: dict[str, OptionValue]
    seed: int
    moves: list[PlayedMove] = field(default_factory=list)
    players: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "format": RECORD_FORMAT,
            "game": self.game,
            "seats": self.seats,
            "options": dict(self.options),
            "seed": self.seed,
            "players": list(self.players),
            "moves": [[m.seat, m.move] for m in self.moves],
        }

    def dumps(self) -> str:
        return json.dumps(self.to_json(), sort_keys=True, ensure_ascii=False)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> MatchRecord:
        try:
            if data.get("format") != RECORD_FORMAT:
                raise RecordError("record_format", f"not a {RECORD_FORMAT} record")
            moves = [PlayedMove(int(seat), dict(move)) for seat, move in data["moves"]]
            return cls(str(data["game"]), int(data["seats"]), dict(data.get("options", {})), int(data["seed"]),
                       moves, list(data.get("players", [])))
        except RecordError:
            raise
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            raise RecordError("record_malformed", f"malformed record: {error}") from None

    @classmethod
    def loads(cls, text: str) -> MatchRecord:
        try:
            return cls.from_json(json.loads(text))
        except json.JSONDecodeError as error:
            raise RecordError("record_malformed", f"a record is JSON: {error}") from None

    def replay(self, game: Game[Any] | None = None) -> Match:
        """Play the record's moves again from its seed; an illegal move is a RecordError."""
        match = Match.new(self.game, self.seats, self.options, self.seed, game=game)
        for number, played in enumerate(self.moves, 1):
            try:
                match.play(played.seat, played.move)
            except IllegalMove as error:
                raise RecordError("record_illegal", f"move {number} does not replay: {error.message}") from None
        return match


class Match:
    """A game in progress: the state, the version (moves applied), the log and events."""

    def __init__(self, game: Game[Any], seats: int, options: Mapping[str, OptionValue], seed: int,
                 state: Any) -> None:
        self.game = game
        self.seats = seats
        self.options = dict(options)
        self.seed = seed
        self.state = state
        self.moves: list[PlayedMove] = []
        self.events: list[tuple[int, Event]] = []
        """Each event with the version that produced it (0: the setup)."""
        self._before: Any = None  # the state before the last move, kept for a cheap undo
        self.rounds: list[Hashable | None] = [game.simultaneous(state)]
        """``Game.simultaneous`` after each number of moves (index 0: the setup)."""

    @classmethod
    def new(cls, game_id: str, seats: int, options: Mapping[str, object] | None = None, seed: int = 0,
            game: Game[Any] | None = None) -> Match:
        if game is None:
            from ludoteca.games import load

            game = load(game_id)
        state = game.setup(seats, options, seed)
        from .options import validate_options

        return cls(game, seats, validate_options(game.options, seats, options), seed, state)

    # -- reading ------------------------------------------------------------------

    @property
    def version(self) -> int:
        return len(self.moves)

    @property
    def over(self) -> bool:
        return self.game.result(self.state) is not None

    def result(self) -> Result | None:
        return self.game.result(self.state)

    def pending(self) -> list[Seat]:
        return self.game.seats_to_move(self.state)

    def legal(self, seat: Seat) -> list[Move]:
        return self.game.legal(self.state, seat)

    def view(self, seat: Seat | None) -> dict[str, Any]:
        return self.game.view(self.state, seat)

    def independent_since(self, number: int, seat: Seat) -> bool:
        """Whether a move ``seat`` chose when ``number`` moves had been played means the
        same now: every move since was another seat's, all within one simultaneous
        decision of independent choices that is still pending (``Game.simultaneous``).
        Whether the move is still legal is ``play``'s to check."""
        if not 0 <= number < self.version:
            return number == self.version
        key = self.rounds[number]
        return (key is not None and all(later == key for later in self.rounds[number + 1:])
                and all(played.seat != seat for played in self.moves[number:]))

    def events_for(self, seat: Seat | None, since: int = 0) -> list[tuple[int, Event]]:
        """The events ``seat`` may read, produced after version ``since``."""
        return [(v, e) for v, e in self.events if v > since and e.visible_to(seat)]

    # -- playing ------------------------------------------------------------------

    def play(self, seat: Seat, move: Move) -> list[Event]:
        """Check and play one move. On IllegalMove nothing changes."""
        game = self.game
        game.check(self.state, seat, move)
        before = game.clone(self.state)
        draws = self.state.rng.draws
        events = game.perform(self.state, seat, move)
        undoable = self.state.rng.draws == draws and not game.reveals(before, self.state, seat, move, events)
        self._before = before
        self.moves.append(PlayedMove(seat, json.loads(canonical(move)), undoable))
        self.rounds.append(game.simultaneous(self.state))
        self.events.extend((self.version, event) for event in events)
        return events

    def can_undo(self, seat: Seat) -> bool:
        """BGA's policy: only one's own last move, and only if no other seat has moved
        since, no random draw happened and nothing hidden was revealed."""
        return bool(self.moves) and self.moves[-1].seat == seat and self.moves[-1].undoable

    def undo(self, seat: Seat) -> None:
        if not self.can_undo(seat):
            raise UndoError("undo_forbidden", "this move cannot be taken back")
        if self._before is not None:
            state = self._before
        else:
            earlier = MatchRecord(self.game.id, self.seats, self.options, self.seed, self.moves[:-1])
            state = earlier.replay(self.game).state
        version = self.version
        self.state = state
        self._before = None
        self.moves.pop()
        self.rounds.pop()
        self.events = [(v, e) for v, e in self.events if v < version]

    # -- saving -------------------------------------------------------------------

    def record(self, players: Iterable[str] = ()) -> MatchRecord:
        return MatchRecord(self.game.id, self.seats, dict(self.options), self.seed, list(self.moves), list(players))

    def to_json(self) -> dict[str, Any]:
        return {
            "format": MATCH_FORMAT,
            "game": self.game.id,
            "seats": self.seats,
            "options": dict(self.options),
            "seed": self.seed,
            "version": self.version,
            "moves": [m.to_json() for m in self.moves],
            "events": [[v, e.to_json()] for v, e in self.events],
            "state": self.game.to_json(self.state),
        }

    def state_json(self) -> str:
        """The state as canonical JSON text: equal texts mean equal states."""
        return canonical(self.game.to_json(self.state))

    @classmethod
    def from_json(cls, data: Mapping[str, Any], game: Game[Any] | None = None) -> Match:
        try:
            if data.get("format") != MATCH_FORMAT:
                raise RecordError("match_format", f"not a {MATCH_FORMAT} match")
            if game is None:
                from ludoteca.games import load

                game = load(data["game"])
            match = cls(game, int(data["seats"]), dict(data["options"]), int(data["seed"]),
                        game.from_json(data["state"]))
            match.moves = [PlayedMove(int(m["seat"]), dict(m["move"]), bool(m["undoable"])) for m in data["moves"]]
            match.events = [(int(v), Event.from_json(e)) for v, e in data["events"]]
            # The decisions before the saved state are not known: none counts as independent.
            match.rounds = [None] * len(match.moves) + match.rounds
            if match.version != data["version"]:
                raise RecordError("match_malformed", "the version does not match the move log")
            return match
        except RecordError:
            raise
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            raise RecordError("match_malformed", f"malformed match: {error}") from None
