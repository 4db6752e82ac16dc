"""The bounds every part holds client input to, wherever it arrives (an HTTP body, a
WebSocket message, a query): the largest integer, the deepest JSON, no NUL character."""

from __future__ import annotations

import re
from typing import Any

from ludoteca.server.kernel.errors import ApiError

# The largest integer any query or body field takes: PostgreSQL's INTEGER (SQLite's
# INTEGER goes to 2^63 - 1, the smaller bound serves both).
MAX_INT = 2**31 - 1
# No message of the API nests deeper than a handful of levels (a move is an object of
# lists); 32 leaves room for any game's move while keeping every recursive walk of a
# decoded value (the JSON parser's, ``has_nul``'s, the engine's copies) far from Python's
# recursion limit, where a body nested 3,000 deep was a RecursionError and a 500.
MAX_JSON_DEPTH = 32
# One token at a time: a whole string (its escapes one by one, so an unclosed string
# cannot make the engine try several ways to split it) or one bracket. Brackets inside
# strings do not nest; everything between tokens is skipped by the search itself.
_JSON_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"?|[\[\]{}]', re.DOTALL)


def has_nul(value: Any) -> bool:
    """Whether a decoded JSON value holds a NUL character in any string or key."""
    if isinstance(value, str):
        return "\x00" in value
    if isinstance(value, dict):
        return any(has_nul(k) or has_nul(v) for k, v in value.items())
    if isinstance(value, list):
        return any(has_nul(v) for v in value)
    return False


def json_too_deep(text: str, limit: int = MAX_JSON_DEPTH) -> bool:
    """Whether ``text`` opens more than ``limit`` arrays or objects inside one another,
    found by a linear scan before anything parses it recursively. Text that is not JSON
    is scanned all the same: the parser says what is wrong with it afterwards."""
    if text.count("[") + text.count("{") <= limit:
        return False  # not enough brackets to go deeper, whatever the strings hold
    depth = 0
    for token in _JSON_TOKEN.finditer(text):
        bracket = token.group()
        if bracket in ("[", "{"):
            depth += 1
            if depth > limit:
                return True
        elif bracket in ("]", "}"):
            depth = max(depth - 1, 0)
    return False


def refuse_too_deep(text: str) -> None:
    """For a WebSocket message: ApiError 422 ``too_deep`` before it is parsed."""
    if json_too_deep(text):
        raise ApiError(422, "too_deep", f"a message nests deeper than {MAX_JSON_DEPTH} levels")
