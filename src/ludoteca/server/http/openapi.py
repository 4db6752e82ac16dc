"""The OpenAPI description made exact: what each answer holds (routes return plain
dicts, so FastAPI alone would say "an object"), who may call what (a bearer token, or
the session cookie with its CSRF header on unsafe methods), and the 405 with ``Allow``.
The schemas describe, they do not validate at run time: schemathesis checks every
answer against them in the tests (tests/server/test_schemathesis.py)."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi
from fastapi.routing import APIRoute

from ludoteca.server.kernel.errors import flat_routes
from ludoteca.server.kernel.identity import COOKIE, CSRF_HEADER, UNSAFE_METHODS, optional_actor, require_actor

STR: dict[str, Any] = {"type": "string"}
INT: dict[str, Any] = {"type": "integer"}
NUM: dict[str, Any] = {"type": "number"}
BOOL: dict[str, Any] = {"type": "boolean"}
ANY_OBJECT: dict[str, Any] = {"type": "object"}


def _nullable(schema: dict[str, Any]) -> dict[str, Any]:
    return {"anyOf": [schema, {"type": "null"}]}


def _obj(properties: dict[str, Any], optional: tuple[str, ...] = ()) -> dict[str, Any]:
    return {"type": "object", "properties": properties,
            "required": [name for name in properties if name not in optional]}


def _ref(name: str) -> dict[str, Any]:
    return {"$ref": f"#/components/schemas/{name}"}


def _list(schema: dict[str, Any]) -> dict[str, Any]:
    return {"type": "array", "items": schema}


RESULT = _obj({"scores": _list(NUM), "ranks": _list(INT), "winners": _list(INT), "tiebreak": _list(_list(NUM)),
               "breakdown": _list(ANY_OBJECT), "resigned": _list(INT),
               "ended": {"type": "string", "enum": ["resigned"]}}, optional=("resigned", "ended", "tiebreak",
                                                                                 "breakdown"))
EVENT = _obj({"key": STR, "args": ANY_OBJECT, "to": _nullable(INT), "number": INT}, optional=("to", "number", "args"))
PLAYER = _obj({"seat": INT, "username": _nullable(STR), "bot": _nullable(STR), "zombie": BOOL, "connected": BOOL,
               "timed_out": _nullable(INT)}, optional=("timed_out",))
RESIGNATION = _obj({"seat": INT, "after": INT})
# A finished post-game review kept with the record: ludoteca.review/1 (docs/bots.md).
REVIEW = _obj({"format": STR, "game": STR, "seats": INT, "seat": INT, "seed": INT,
               "budget": _obj({"search": INT, "evaluate": INT}), "thresholds": ANY_OBJECT, "summary": ANY_OBJECT,
               "decisions": _list(ANY_OBJECT)}, optional=("thresholds",))

SCHEMAS: dict[str, dict[str, Any]] = {
    "Health": _obj({"status": {"type": "string", "enum": ["ok"]}, "version": STR, "storage": STR, "hub": STR,
                    "guests": BOOL}),
    "User": _obj({"id": INT, "username": STR, "guest": BOOL}),
    "Account": _obj({"id": INT, "username": STR}),
    "Session": _obj({"token": STR, "csrf": STR, "user": _ref("User")}),
    "Me": _obj({"user": _ref("User"), "csrf": STR,
                "role": _nullable({"type": "string", "enum": ["moderator", "admin"]})}),
    "MaybeMe": _obj({"user": _nullable(_ref("User")), "csrf": _nullable(STR),
                     "role": _nullable({"type": "string", "enum": ["moderator", "admin"]})}),
    "Ok": _obj({"ok": BOOL}),
    "GameInfo": _obj({"id": STR, "name": STR, "description": STR, "min_seats": INT, "max_seats": INT,
                      "options": _list(ANY_OBJECT)}),
    "LeaderboardRow": _obj({"rank": INT, "username": STR, "rating": INT, "provisional": BOOL, "mu": NUM, "sigma": NUM,
                            "played": INT}),
    "Profile": _obj({"username": STR, "guest": BOOL, "joined": STR, "games_played": INT,
                     "played_by_game": ANY_OBJECT, "ratings": ANY_OBJECT, "recent": _list(ANY_OBJECT)}),
    "Result": RESULT,
    "Table": _obj({"id": STR, "game": STR, "seats": INT, "options": ANY_OBJECT, "mode": STR, "clock": ANY_OBJECT,
                   "rated": BOOL, "private": BOOL, "record_public": BOOL,
                   "status": {"type": "string", "enum": ["open", "playing", "over", "aborted", "suspended"]},
                   "version": INT, "moves": INT, "pending": _list(INT), "players": _list(PLAYER),
                   "result": _nullable(_ref("Result")), "creator": _nullable(STR), "rematch": _nullable(STR),
                   "resigned": _list(INT), "spectators": INT, "created_at": STR}),
    "Snapshot": _obj({"table": _ref("Table"), "seat": _nullable(INT), "your_seats": _list(INT), "version": INT,
                      "moves": INT, "pending": _list(INT), "prompts": _list(ANY_OBJECT), "view": {},
                      "legal": _list(ANY_OBJECT), "can_undo": BOOL, "events": _list(EVENT), "events_reset": BOOL,
                      "result": _nullable(_ref("Result")), "clocks": _nullable(ANY_OBJECT)},
                     optional=("view", "your_seats", "prompts", "legal", "can_undo", "events", "events_reset",
                               "moves", "pending", "result", "clocks")),
    "MoveAck": _obj({"version": INT, "number": INT, "seat": INT, "duplicate": BOOL, "events": _list(EVENT),
                     "over": BOOL}),
    "UndoAck": _obj({"version": INT, "moves": INT}),
    "Record": _obj({"game": STR, "seats": INT, "options": ANY_OBJECT, "seed": INT, "moves": _list({}),
                    "players": _list(STR), "result": _nullable(_ref("Result")), "resigned": _list(RESIGNATION),
                    "reviews": _list(REVIEW)},
                   optional=("players", "reviews")),
    "Replay": _obj({"table": STR, "game": STR, "seat": _nullable(INT), "result": _nullable(_ref("Result")),
                    "frames": _list(_obj({"version": INT, "seat": _nullable(INT), "move": {}, "hidden": BOOL,
                                          "view": {}, "changes": ANY_OBJECT, "pending": _list(INT),
                                          "prompts": _list(ANY_OBJECT), "events": _list(EVENT)},
                                         optional=("view", "changes"))),
                    "resigned": _list(RESIGNATION)}),
    "Log": _obj({"version": INT, "seat": _nullable(INT), "events": _list(EVENT)}),
    "ChatLine": _obj({"type": {"type": "string", "enum": ["chat"]}, "table": STR, "id": INT, "username": STR,
                      "text": STR, "at": STR}),
    "Resigned": _obj({"table": _ref("Table"), "seat": INT, "over": BOOL}),
    # Moderation (routes_moderation.py).
    "Blocks": _obj({"blocked": _list(STR), "role": _nullable({"type": "string", "enum": ["moderator", "admin"]})}),
    "Blocked": _obj({"blocked": STR}),
    "Unblocked": _obj({"unblocked": STR}),
    "ReportFiled": _obj({"id": INT, "status": STR}),
    "Report": _obj({"id": INT, "kind": {"type": "string", "enum": ["player", "chat", "table"]},
                    "status": {"type": "string", "enum": ["open", "resolved"]}, "reason": STR,
                    "reporter": _nullable(STR), "user": _nullable(STR), "table": _nullable(STR),
                    "chat": _nullable(INT), "chat_text": _nullable(STR), "note": _nullable(STR),
                    "resolved_by": _nullable(STR), "created_at": STR, "resolved_at": _nullable(STR)}),
    "ModeratedUser": _obj({"id": INT, "username": STR, "guest": BOOL, "role": _nullable(STR), "created_at": STR,
                           "banned_until": _nullable(STR), "muted_until": _nullable(STR), "reports": INT,
                           "chat": _list(_obj({"id": INT, "table": STR, "text": STR, "hidden": BOOL, "at": STR}))}),
    "Ban": _obj({"username": STR, "banned_until": _nullable(STR)}),
    "Mute": _obj({"username": STR, "muted_until": _nullable(STR)}),
    "Aborted": _obj({"id": STR, "status": {"type": "string", "enum": ["aborted"]}}),
    "ChatRemoved": _obj({"id": INT, "hidden": BOOL}),
    "AuditEntry": _obj({"id": INT, "actor": STR, "action": STR, "target": STR, "detail": ANY_OBJECT, "at": STR}),
}

# What each operation answers on success: (method, path) -> schema.
ANSWERS: dict[tuple[str, str], dict[str, Any]] = {
    ("get", "/api/health"): _ref("Health"),
    ("post", "/api/accounts"): _ref("Account"),
    ("post", "/api/sessions"): _ref("Session"),
    ("post", "/api/sessions/guest"): _ref("Session"),
    ("get", "/api/sessions"): _ref("Me"),
    ("get", "/api/sessions/current"): _ref("MaybeMe"),
    ("delete", "/api/sessions"): _ref("Ok"),
    ("get", "/api/games"): _list(_ref("GameInfo")),
    ("get", "/api/games/{game}/leaderboard"): _list(_ref("LeaderboardRow")),
    ("get", "/api/players/{username}"): _ref("Profile"),
    ("post", "/api/tables"): _ref("Table"),
    ("get", "/api/tables"): _list(_ref("Table")),
    ("get", "/api/tables/{table_id}"): _ref("Snapshot"),
    ("post", "/api/tables/{table_id}/join"): _ref("Table"),
    ("post", "/api/tables/{table_id}/leave"): _ref("Table"),
    ("post", "/api/tables/{table_id}/resign"): _ref("Resigned"),
    ("post", "/api/tables/{table_id}/bots"): _ref("Table"),
    ("post", "/api/tables/{table_id}/kick"): _ref("Table"),
    ("post", "/api/tables/{table_id}/start"): _ref("Table"),
    ("post", "/api/tables/{table_id}/rematch"): _ref("Table"),
    ("post", "/api/tables/{table_id}/moves"): _ref("MoveAck"),
    ("post", "/api/tables/{table_id}/undo"): _ref("UndoAck"),
    ("get", "/api/tables/{table_id}/record"): _ref("Record"),
    ("get", "/api/tables/{table_id}/replay"): _ref("Replay"),
    ("get", "/api/tables/{table_id}/log"): _ref("Log"),
    ("get", "/api/tables/{table_id}/chat"): _list(_ref("ChatLine")),
    ("post", "/api/tables/{table_id}/chat"): _ref("ChatLine"),
    ("get", "/api/blocks"): _ref("Blocks"),
    ("put", "/api/blocks/{username}"): _ref("Blocked"),
    ("delete", "/api/blocks/{username}"): _ref("Unblocked"),
    ("post", "/api/reports"): _ref("ReportFiled"),
    ("get", "/api/moderation/reports"): _list(_ref("Report")),
    ("post", "/api/moderation/reports/{report_id}/resolve"): _ref("ReportFiled"),
    ("get", "/api/moderation/users/{username}"): _ref("ModeratedUser"),
    ("post", "/api/moderation/users/{username}/ban"): _ref("Ban"),
    ("post", "/api/moderation/users/{username}/unban"): _ref("Ban"),
    ("post", "/api/moderation/users/{username}/mute"): _ref("Mute"),
    ("post", "/api/moderation/users/{username}/unmute"): _ref("Mute"),
    ("post", "/api/moderation/tables/{table_id}/abort"): _ref("Aborted"),
    ("post", "/api/moderation/chat/{chat_id}/remove"): _ref("ChatRemoved"),
    ("get", "/api/moderation/audit"): _list(_ref("AuditEntry")),
}

SECURITY_SCHEMES = {
    "bearer": {"type": "http", "scheme": "bearer",
               "description": "The session token from POST /api/sessions (or /api/sessions/guest)."},
    "cookie": {"type": "apiKey", "in": "cookie", "name": COOKIE,
               "description": "The HttpOnly session cookie those calls set, for browsers."},
    "csrf": {"type": "apiKey", "in": "header", "name": "X-CSRF-Token",
             "description": "With the cookie on POST, PUT, PATCH and DELETE: the session's CSRF token."},
}
assert CSRF_HEADER == "x-csrf-token"


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
    """The app's OpenAPI document, exact (made once per app, then kept)."""
    if app.openapi_schema:
        return app.openapi_schema
    doc = get_openapi(title=app.title, version=app.version, description=app.description, routes=app.routes)
    components = doc.setdefault("components", {})
    components.setdefault("schemas", {}).update(SCHEMAS)
    components["securitySchemes"] = SECURITY_SCHEMES
    routes = {(method.lower(), route.path): route for route in flat_routes(app.routes) if isinstance(route, APIRoute)
              for method in route.methods or ()}
    for path, operations in doc.get("paths", {}).items():
        for method, operation in operations.items():
            route = routes.get((method, path))
            answers = operation.get("responses", {})
            schema = ANSWERS.get((method, path))
            if schema is not None:
                for status in ("200", "201"):
                    if status in answers:
                        answers[status]["content"] = {"application/json": {"schema": schema}}
            answers["405"] = {"description": "method not allowed (the allowed ones in Allow)",
                              "headers": {"Allow": {"schema": STR, "description": "the methods this path takes"}},
                              "content": {"application/json": {"schema": _ref("Error")}}}
            if route is not None:
                security = _security(route, method)
                if security is not None:
                    operation["security"] = security
    components["schemas"]["Error"] = {"type": "object", "properties": {"code": STR, "message": STR},
                                      "required": ["code", "message"]}
    app.openapi_schema = doc
    return doc
