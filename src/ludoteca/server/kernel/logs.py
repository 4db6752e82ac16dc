"""Credentials kept out of the logs. Browsers cannot set headers on a WebSocket, so a
script may pass its bearer token as ``?token=`` there; uvicorn writes the path with its
query string into the access log ("WebSocket /api/tables/x/live?token=..."), where
anyone who reads the logs could take the session. Every record that goes through
uvicorn's or our loggers has such values replaced before it is written."""

from __future__ import annotations

import logging
import re

# Query parameters and headers that carry a credential, in a URL or a quoted header line:
# any name ending in one of these words ("token", "x-csrf-token", "session"), then "=".
# Only the word and the value are matched, never the start of the name: a pattern that
# also matched the name (``[\w-]*token=``) backtracked over every letter of a long word
# from every position, and one request path of 20,000 letters held the event loop for
# seconds to minutes. Here each position tries a few fixed words and the value is taken
# greedily with nothing after it to backtrack for: linear in the line's length.
_SECRET = re.compile(r"(?i)(token|csrf|password|session|authorization)=[^&\s\"';]+")
REDACTED = "[redacted]"
LOGGERS = ("uvicorn", "uvicorn.error", "uvicorn.access", "ludoteca")


def redact(text: str) -> str:
    return _SECRET.sub(lambda m: f"{m.group(1)}={REDACTED}", text)


class Redact(logging.Filter):
    """Rewrites a record's message with credentials replaced (the arguments formatted in:
    uvicorn passes the path as one of them)."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        cleaned = redact(message)
        if cleaned != message:
            record.msg, record.args = cleaned, ()
        return True


_FILTER = Redact()


def install() -> None:
    """On the loggers themselves and on their handlers, so records propagated from a
    child logger are cleaned too. Called when the app is made: uvicorn has configured its
    logging by then (``--factory``), and adding the filter twice is harmless."""
    for name in LOGGERS:
        logger = logging.getLogger(name)
        if _FILTER not in logger.filters:
            logger.addFilter(_FILTER)
        for handler in logger.handlers:
            if _FILTER not in handler.filters:
                handler.addFilter(_FILTER)
    for handler in logging.getLogger().handlers:
        if _FILTER not in handler.filters:
            handler.addFilter(_FILTER)
