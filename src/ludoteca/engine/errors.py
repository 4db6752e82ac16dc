"""The errors the engine raises. Each carries a machine-readable code."""

from __future__ import annotations


class LudotecaError(Exception):
    """Base of every error Ludoteca raises on purpose."""

    code = "error"

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def to_json(self) -> dict[str, str]:
        return {"code": self.code, "message": self.message}


class IllegalMove(LudotecaError):
    """A move that may not be played now. The state is left as it was."""


class OptionError(LudotecaError):
    """An option that the game does not declare, or a value it does not accept."""


class SetupError(LudotecaError):
    """A seat count or a seed that a game cannot start with."""


class RecordError(LudotecaError):
    """A match record or a saved match that cannot be read or does not replay."""


class UndoError(LudotecaError):
    """A take-back that the undo policy forbids."""
