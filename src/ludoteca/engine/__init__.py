"""The game-agnostic core: the Game protocol, matches, records, errors. The turn-flow
helpers (``engine.flow``) and declared state fields (``engine.fields``) are imported
from their modules."""

from .errors import IllegalMove, LudotecaError, OptionError, RecordError, SetupError, UndoError
from .game import Decision, Event, Game, GameState, Move, Prompt, Result, Seat, canonical
from .match import Match, MatchRecord, PlayedMove
from .options import Option, OptionValue, option_sets, validate_options
from .rng import Rng

__all__ = [
    "Decision", "Event", "Game", "GameState", "IllegalMove", "LudotecaError", "Match", "MatchRecord", "Move", "Option",
    "OptionError", "OptionValue", "PlayedMove", "Prompt", "RecordError", "Result", "Rng", "Seat", "SetupError",
    "UndoError", "canonical", "option_sets", "validate_options",
]
