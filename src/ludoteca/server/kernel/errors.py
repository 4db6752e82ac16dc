"""API errors: every refusal is JSON ``{"code", "message", ...}`` with a fitting status.
Unexpected exceptions become a bare 500 (logged, never echoed: no stack traces out)."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Route

log = logging.getLogger("ludoteca.server")


class ApiError(Exception):
    def __init__(self, status: int, code: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.extra = extra

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, **self.extra}


def not_found(what: str = "table") -> ApiError:
    return ApiError(404, f"no_{what}", f"no such {what}")


ERROR_SCHEMA = {
    "type": "object",
    "properties": {"code": {"type": "string"}, "message": {"type": "string"}},
    "required": ["code", "message"],
}


def install(app: FastAPI) -> None:
    @app.exception_handler(ApiError)
    async def _api_error(_request: Request, error: ApiError) -> JSONResponse:
        return JSONResponse(error.to_json(), status_code=error.status)

    @app.exception_handler(RequestValidationError)
    async def _invalid(_request: Request, error: RequestValidationError) -> JSONResponse:
        # Only the location and the reason: echoing the input could echo a password.
        details = [{"loc": list(e.get("loc", ())), "msg": e.get("msg", "")} for e in error.errors()]
        return JSONResponse({"code": "invalid_request", "message": "the request is not valid", "details": details},
                            status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, error: StarletteHTTPException) -> JSONResponse:
        status = error.status_code
        if status == 404 and request.url.path.startswith("/api/") and _allowed(request):
            status = 405  # the static files answered for a path the API takes with other methods
        code = {404: "not_found", 405: "method_not_allowed"}.get(status, "http_error")
        headers = dict(error.headers or {})
        if status == 405:
            # The static files mounted at / answer 405 for any path the API does not
            # take with this method: say which methods the API takes there.
            headers["Allow"] = _allowed(request) or headers.get("Allow", "GET, HEAD")
        message = "Method Not Allowed" if status != error.status_code else str(error.detail)
        return JSONResponse({"code": code, "message": message}, status_code=status, headers=headers or None)

    @app.exception_handler(Exception)
    async def _crash(request: Request, error: Exception) -> JSONResponse:
        log.exception("unexpected error on %s %s", request.method, request.url.path)
        return JSONResponse({"code": "internal", "message": "internal server error"}, status_code=500)


def _allowed(request: Request) -> str:
    """The methods the app's routes take at this request's path."""
    methods: set[str] = set()
    for route in flat_routes(request.app.routes):
        if isinstance(route, Route) and route.methods and route.path_regex.match(request.url.path):
            methods |= route.methods
    return ", ".join(sorted(methods))


def flat_routes(routes: Any) -> Iterator[Any]:
    """Every route, those of included routers too (FastAPI keeps those behind a wrapper)."""
    for route in routes:
        inner = getattr(route, "original_router", None)
        if inner is not None:
            yield from flat_routes(inner.routes)
        else:
            yield route
