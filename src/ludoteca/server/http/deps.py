"""What every feature's routes share: the errors any API route may answer, who calls
(``Me``, ``MaybeMe``), the services they use (``provided``), and the path and query parameters bounded as
storage holds them."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import Annotated, Any, TypeVar

from fastapi import Depends, Path, Query
from starlette.requests import HTTPConnection

from ludoteca.server.kernel.bounds import MAX_INT
from ludoteca.server.kernel.errors import ERROR_SCHEMA
from ludoteca.server.kernel.identity import Actor, optional_actor, require_actor

ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"description": text, "content": {"application/json": {"schema": ERROR_SCHEMA}}}
    for code, text in ((401, "not signed in"), (403, "forbidden"), (404, "not found"), (409, "conflict"),
                       (413, "the body is over the limit (too_large)"), (422, "invalid or illegal"),
                       (429, "too many requests"), (503, "the table's game did not answer in time"))
}
"""The refusals any route may answer, each ``{code, message}`` (every router's ``responses``)."""

T = TypeVar("T")

Me = Annotated[Actor, Depends(require_actor)]
MaybeMe = Annotated[Actor | None, Depends(optional_actor)]


def provided(kind: type[T]) -> Callable[[HTTPConnection], Awaitable[T]]:
    """The dependency that gives a route this process's one service of ``kind``, as the
    composition root (server/server.py) registered it in ``app.state.services``: a route
    names the services it uses, typed, and reaches nothing else of the server (a
    WebSocket route too). Async, so that no request takes a thread-pool thread for it."""

    async def dependency(connection: HTTPConnection) -> T:
        services: Mapping[type, object] = connection.app.state.services
        found = services.get(kind)
        if found is None:  # a base class (Runtime): the one service that is one
            found = next((s for s in services.values() if isinstance(s, kind)), None)
        if not isinstance(found, kind):
            raise LookupError(f"no {kind.__name__} is registered")
        return found

    dependency.__name__ = f"provided_{kind.__name__}"
    return dependency


Username = Annotated[str, Path(min_length=1, max_length=40)]
TableId = Annotated[str, Path(min_length=1, max_length=16)]
RowId = Annotated[int, Path(ge=1, le=MAX_INT)]
# A seat number in a query: within what storage holds (a larger one was a 500).
Seat = Annotated[int | None, Query(ge=0, le=MAX_INT)]
