"""The game-agnostic core: the Game protocol, matches, records, errors."""

from .errors import IllegalMove, LudotecaError, OptionError, RecordError, SetupError, UndoError
from .game import Decision, Event, Game, Move, Prompt, Result, Seat, canonical
from .match import Match, MatchRecord, PlayedMove
from .options import Option, OptionValue, option_sets, validate_options
from .rng import Rng

__all__ = [
    "Decision", "Event", "Game", "IllegalMove", "LudotecaError", "Match", "MatchRecord", "Move", "Option",
    "OptionError", "OptionValue", "PlayedMove", "Prompt", "RecordError", "Result", "Rng", "Seat", "SetupError",
    "UndoError", "canonical", "option_sets", "validate_options",
]
