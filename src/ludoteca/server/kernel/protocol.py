"""The wire protocol, in one place: what a client sends over its table's WebSocket, what
it receives (over the socket, and as the bodies of the table's HTTP answers that share
these shapes), and the notices that cross the hub between processes.

What clients send is parsed into frozen dataclasses, checked once here. What the server
sends, and what crosses the hub, is JSON: typed dictionaries, so that the move path
builds and encodes plain dicts (orjson, no conversion step) while the type checker
knows every field. Each message is built by one function below, nowhere else.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any, Literal, NotRequired, TypedDict, cast

from ludoteca.server.kernel.bounds import MAX_INT, has_nul, json_too_deep, refuse_too_deep
from ludoteca.server.kernel.errors import ApiError

# -- what a client sends -----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Hello:
    """Catch up from ``version`` (None: send everything)."""

    version: int | None


@dataclass(frozen=True, slots=True)
class Ping:
    pass


@dataclass(frozen=True, slots=True)
class MoveRequest:
    version: int
    move: dict[str, Any]
    id: str | None
    seat: int | None


@dataclass(frozen=True, slots=True)
class UndoRequest:
    version: int
    id: str | None


@dataclass(frozen=True, slots=True)
class ChatRequest:
    text: str
    id: str | None


ClientMessage = Hello | Ping | MoveRequest | UndoRequest | ChatRequest


def is_int(value: Any) -> bool:
    """An integer storage can hold (not a bool)."""
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= MAX_INT


def message_id(text: str) -> Any:
    """The ``id`` of a client message as sent, if it parses (to answer an error with)."""
    if json_too_deep(text):
        return None  # json.loads would recurse past the limit
    try:
        message = json.loads(text)
    except ValueError:
        return None
    return message.get("id") if isinstance(message, dict) else None


def parse_client(text: str, signed_in: bool) -> ClientMessage:
    """A client's message. Raises ValueError when it is not a JSON object, ApiError when
    it is not one the protocol knows; only ``hello`` and ``ping`` are for signed-out
    clients (401 for the others, before their fields are checked)."""
    refuse_too_deep(text)  # before json.loads, which recurses: 422 too_deep
    message = json.loads(text)
    if not isinstance(message, dict):
        raise ValueError
    if has_nul(message):
        raise ApiError(422, "invalid_request", "a message may not hold a NUL character")
    kind = message.get("type")
    ref = message.get("id") if isinstance(message.get("id"), str) else None
    if kind == "ping":
        return Ping()
    if kind == "hello":
        version = message.get("version")
        return Hello(version if is_int(version) else None)
    if not signed_in:
        raise ApiError(401, "not_signed_in", "sign in to play or chat")
    if kind == "move":
        if not is_int(message.get("version")) or not isinstance(message.get("move"), dict):
            raise ApiError(422, "invalid_request", "a move message has an integer version and a move object")
        if ref is not None and len(ref) > 64:
            raise ApiError(422, "invalid_request", "a move id has at most 64 characters")
        seat = message.get("seat")
        return MoveRequest(message["version"], message["move"], ref, seat if is_int(seat) else None)
    if kind == "undo":
        if not is_int(message.get("version")):
            raise ApiError(422, "invalid_request", "an undo message has an integer version")
        return UndoRequest(message["version"], ref)
    if kind == "chat":
        if not isinstance(message.get("text"), str):
            raise ApiError(422, "invalid_request", "a chat message has a text")
        return ChatRequest(message["text"], ref)
    raise ApiError(422, "unknown_message", "message types: hello, move, undo, chat, ping")


# -- what a client receives ----------------------------------------------------------------


class MoveReceipt(TypedDict):
    """A move's answer once committed (the body of ``POST .../moves``, and of its ack)."""

    version: int
    number: int
    seat: int
    duplicate: bool
    """The same move was made before under this id: nothing was played now."""
    events: list[dict[str, Any]]
    """The move's events the mover may read."""
    over: bool


class UndoReceipt(TypedDict):
    version: int
    moves: int


class Ack(MoveReceipt):
    type: Literal["ack"]
    id: str | None


class UndoAck(UndoReceipt):
    type: Literal["ack"]
    id: str | None


class ErrorMessage(TypedDict):
    type: Literal["error"]
    code: str
    message: str
    status: NotRequired[int]
    id: NotRequired[Any]
    close: NotRequired[bool]
    """The server closes the socket after this message."""
    version: NotRequired[int | None]


class ChatLine(TypedDict):
    type: Literal["chat"]
    table: str
    id: int
    username: str
    text: str
    at: str


class ChatRemoved(TypedDict):
    """A moderator removed a chat line: every reader drops it."""

    type: Literal["chat_removed"]
    table: str
    id: int


class Pong(TypedDict):
    type: Literal["pong"]


class Bye(TypedDict):
    type: Literal["bye"]


class TournamentMessage(TypedDict):
    """The tournament socket's one message: the tournament, as GET answers it, at once
    and after every change."""

    type: Literal["tournament"]
    tournament: dict[str, Any]


class TableState(TypedDict, total=False):
    """What a seat (None: a spectator) sees of a started match."""

    version: int
    moves: int
    pending: list[int]
    prompts: list[dict[str, Any]]
    view: dict[str, Any]
    legal: list[Any]
    can_undo: bool
    events: list[dict[str, Any]]
    events_reset: bool
    """The events start afresh (an undo, or a reader too far behind): drop the log kept."""
    result: dict[str, Any] | None


class Update(TableState):
    """Sent after every change: the table as the lobby sees it, the reader's seat, the
    clocks, and (once started) that seat's state."""

    type: Literal["update"]
    table: dict[str, Any]
    seat: int | None
    clocks: dict[str, Any] | None


def ack(ref: str | None, receipt: MoveReceipt) -> Ack:
    return {"type": "ack", "id": ref, **receipt}


def undo_ack(ref: str | None, receipt: UndoReceipt) -> UndoAck:
    return {"type": "ack", "id": ref, **receipt}


def error(error: ApiError, ref: Any = None) -> ErrorMessage:
    """An API error as a message, with the HTTP status it would have had and the ``id``
    of the message it answers."""
    return cast(ErrorMessage, {"type": "error", "status": error.status, "id": ref, **error.to_json()})


def plain_error(code: str, message: str, status: int | None = None, close: bool = False) -> ErrorMessage:
    """An error that is no API error (``status``: the HTTP status it stands for)."""
    out: ErrorMessage = ({"type": "error", "code": code, "message": message} if status is None
                         else {"type": "error", "status": status, "code": code, "message": message})
    if close:
        out["close"] = True
    return out


def closing_error(error: ApiError) -> ErrorMessage:
    """Why the server closes a socket it had accepted (an ended session, a ban), sent
    last."""
    return cast(ErrorMessage, {"type": "error", "status": error.status, **error.to_json(), "close": True})


def private_table() -> ErrorMessage:
    """What a live reader gets, once, when a private table is no longer theirs to see."""
    return plain_error("private_table", "this table is private to its players", close=True)


def chat_line(table_id: str, message_id: int, username: str, text: str, at: str) -> ChatLine:
    return {"type": "chat", "table": table_id, "id": message_id, "username": username, "text": text, "at": at}


def pong() -> Pong:
    return {"type": "pong"}


def bye() -> Bye:
    return {"type": "bye"}


def tournament(detail: dict[str, Any]) -> TournamentMessage:
    return {"type": "tournament", "tournament": detail}


def update(summary: dict[str, Any], seat: int | None, clocks: dict[str, Any] | None,
           state: TableState) -> Update:
    return {"type": "update", "table": summary, "seat": seat, "clocks": clocks, **state}


# -- what crosses the hub ------------------------------------------------------------------


class Changed(TypedDict):
    """A move or an undo brought the table to ``version``. ``origin``: the process that
    made it, which has updated its own clients already."""

    kind: Literal["changed"]
    table: str
    version: int
    origin: NotRequired[str]


class TableChanged(TypedDict):
    """The seats, the status or the clocks changed without a move."""

    kind: Literal["table"]
    table: str


class ChatNotice(TypedDict):
    kind: Literal["chat"]
    table: str
    message: ChatLine


class ChatRemovedNotice(TypedDict):
    kind: Literal["chat_removed"]
    table: str
    message: ChatRemoved


class PresenceNotice(TypedDict):
    """A process's open sockets per table (``ask``: the others answer with theirs)."""

    kind: Literal["presence"]
    process: str
    ask: bool
    tables: dict[str, list[int | None]]


class Resync(TypedDict):
    """Made by a hub that lost messages (never sent): every table is sent again."""

    kind: Literal["resync"]


class Ended(TypedDict):
    """Sessions ended (a log-out, the account page's log-out everywhere or of one
    session, a password change: ``sessions``, their digests) or every session of a user
    (a ban, a password reset, a deletion: ``user``): every process closes the matching
    sockets at once, with ``error`` (server/live/sessions.py)."""

    kind: Literal["ended"]
    sessions: NotRequired[list[str]]
    user: NotRequired[int]
    error: dict[str, Any]


class TournamentChanged(TypedDict):
    """A tournament's players, rounds, standings or status changed: every process sends
    it again to its sockets of it (server/live/tournaments.py)."""

    kind: Literal["tournament"]
    tournament: str


HubNotice = (Changed | TableChanged | ChatNotice | ChatRemovedNotice | PresenceNotice | Resync | Ended
             | TournamentChanged)


def changed(table_id: str, version: int, origin: str | None = None) -> Changed:
    if origin is None:
        return {"kind": "changed", "table": table_id, "version": version}
    return {"kind": "changed", "table": table_id, "version": version, "origin": origin}


def table_changed(table_id: str) -> TableChanged:
    return {"kind": "table", "table": table_id}


def chat_notice(line: ChatLine) -> ChatNotice:
    return {"kind": "chat", "table": line["table"], "message": line}


def chat_removed(table_id: str, chat_id: int) -> ChatRemovedNotice:
    return {"kind": "chat_removed", "table": table_id,
            "message": {"type": "chat_removed", "table": table_id, "id": chat_id}}


def presence(process: str, tables: dict[str, tuple[int | None, ...]], ask: bool = False) -> PresenceNotice:
    return {"kind": "presence", "process": process, "ask": ask,
            "tables": {t: list(users) for t, users in tables.items()}}


def resync() -> Resync:
    return {"kind": "resync"}


def session_digest(stored: str) -> str:
    """What crosses the hub of a session: a digest of the hash it is stored under
    (``identity.token_hash``), neither the token nor the database's key."""
    return hashlib.sha256(stored.encode()).hexdigest()


def ended_sessions(digests: list[str], error: dict[str, Any]) -> Ended:
    return {"kind": "ended", "sessions": digests, "error": error}


def ended_user(user_id: int, error: dict[str, Any]) -> Ended:
    return {"kind": "ended", "user": user_id, "error": error}


def tournament_changed(tournament_id: str) -> TournamentChanged:
    return {"kind": "tournament", "tournament": tournament_id}
