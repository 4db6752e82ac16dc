"""The OpenAPI description: FastAPI's, from each route's request and answer models (every
feature's ``schemas.py``), with what it cannot say by itself: who may call what (a bearer
token, or the session cookie with its CSRF header on unsafe methods) and the 405 with
``Allow`` that every path answers to a method it does not take."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi
from fastapi.routing import APIRoute

from ludoteca.server.kernel.errors import ERROR_SCHEMA, flat_routes
from ludoteca.server.kernel.identity import COOKIE, CSRF_HEADER, UNSAFE_METHODS, optional_actor, require_actor

SECURITY_SCHEMES = {
    "bearer": {"type": "http", "scheme": "bearer",
               "description": "The session token from POST /api/sessions (or /api/sessions/guest)."},
    "cookie": {"type": "apiKey", "in": "cookie", "name": COOKIE,
               "description": "The HttpOnly session cookie those calls set, for browsers."},
    "csrf": {"type": "apiKey", "in": "header", "name": "X-CSRF-Token",
             "description": "With the cookie on POST, PUT, PATCH and DELETE: the session's CSRF token."},
}
assert CSRF_HEADER == "x-csrf-token"

METHOD_NOT_ALLOWED = {
    "description": "method not allowed (the allowed ones in Allow)",
    "headers": {"Allow": {"schema": {"type": "string"}, "description": "the methods this path takes"}},
    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
}


def _uses(route: APIRoute, call: Any) -> bool:
    stack = [route.dependant]
    while stack:
        dependant = stack.pop()
        if dependant.call is call:
            return True
        stack.extend(dependant.dependencies)
    return False


def _security(route: APIRoute, method: str) -> list[dict[str, list[str]]] | None:
    cookie: dict[str, list[str]] = {"cookie": [], "csrf": []} if method.upper() in UNSAFE_METHODS else {"cookie": []}
    if _uses(route, require_actor):
        return [{"bearer": []}, cookie]
    if _uses(route, optional_actor):
        return [{}, {"bearer": []}, cookie]  # anyone; a signed-in caller may see more
    return None


def build(app: FastAPI) -> dict[str, Any]:
    """The app's OpenAPI document (made once per app, then kept)."""
    if app.openapi_schema:
        return app.openapi_schema
    doc = get_openapi(title=app.title, version=app.version, description=app.description, routes=app.routes)
    components = doc.setdefault("components", {})
    components["securitySchemes"] = SECURITY_SCHEMES
    components.setdefault("schemas", {})["Error"] = ERROR_SCHEMA
    routes = {(method.lower(), route.path): route for route in flat_routes(app.routes) if isinstance(route, APIRoute)
              for method in route.methods or ()}
    for path, operations in doc.get("paths", {}).items():
        for method, operation in operations.items():
            operation.setdefault("responses", {})["405"] = METHOD_NOT_ALLOWED
            route = routes.get((method, path))
            security = _security(route, method) if route is not None else None
            if security is not None:
                operation["security"] = security
    app.openapi_schema = doc
    return doc
