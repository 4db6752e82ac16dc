"""The OpenAPI description says what the server does: each route's answer model names
every field of its answers (nothing is "an object" but what a game itself defines), and
real answers hold to the published schemas, extra keys refused (schemathesis checks it
in depth: tests/server/http/test_schemathesis_live_server.py)."""

from __future__ import annotations

from typing import Any

import pytest

from ludoteca.bots.base import seatable_bot_names
from tests.server.conftest import Api

jsonschema_rs = pytest.importorskip("jsonschema_rs")

AS_THE_GAME_HOLDS_IT = ("/api/games/{game}/i18n/{lang}", "/api/tables/{table_id}/static/{key}")
"""Answers that are a game package's own data, passed on as it is."""
GAME_DEFINED = {"options", "clock", "args", "breakdown", "view", "legal", "move", "moves", "changes", "thresholds",
                "summary", "decisions", "detail", "review"}
"""The fields whose objects the games (or the bots' reviews) define: free-form there only."""


def _resolve(doc: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in schema:
        schema = doc["components"]["schemas"][schema["$ref"].rsplit("/", 1)[1]]
    return schema


def _loose_parts(doc: dict[str, Any], schema: dict[str, Any], where: str, field: str = "",
                 seen: frozenset[str] = frozenset()) -> list[str]:
    """Where ``schema`` allows an object whose keys it does not name (outside the game's fields)."""
    ref = schema.get("$ref", "")
    if ref in seen:
        return []
    seen = seen | {ref} if ref else seen
    schema = _resolve(doc, schema)
    out = []
    for key in ("anyOf", "oneOf", "allOf", "prefixItems"):
        for part in schema.get(key, []):
            out += _loose_parts(doc, part, where, field, seen)
    if "items" in schema:
        out += _loose_parts(doc, schema["items"], where, field, seen)
    extra = schema.get("additionalProperties")
    if isinstance(extra, dict):  # a map: {name: value}, its values described
        out += _loose_parts(doc, extra, f"{where}.{field}{{}}", field, seen)
    if schema.get("type") == "object" and extra is not False and not isinstance(extra, dict) \
            and field not in GAME_DEFINED:
        out.append(f"{where}.{field or '<answer>'}")
    for name, part in schema.get("properties", {}).items():
        out += _loose_parts(doc, part, f"{where}.{name}", name, seen)
    return out


def test_openapi_describes_the_server(client):
    doc = client.get("/openapi.json").json()
    schemas = doc["components"]["schemas"]
    username = schemas["Credentials"]["properties"]["username"]
    assert (username["minLength"], username["maxLength"], username["pattern"]) == (3, 32, r"^[A-Za-z0-9_.-]{3,32}$")
    # The bots a seat takes, whatever else the process imported (OpenSpiel's register only
    # for the tournament).
    assert schemas["AddBot"]["properties"]["bot"]["enum"] == seatable_bot_names()
    import ludoteca.rl.bots  # noqa: F401

    assert "openspiel-ismcts" not in seatable_bot_names()
    schemes = doc["components"]["securitySchemes"]
    assert schemes["bearer"] == {**schemes["bearer"], "type": "http", "scheme": "bearer"}
    assert schemes["cookie"]["in"] == "cookie" and schemes["csrf"]["name"] == "X-CSRF-Token"
    move = doc["paths"]["/api/tables/{table_id}/moves"]["post"]
    assert {"bearer": []} in move["security"] and {"cookie": [], "csrf": []} in move["security"]
    assert {} in doc["paths"]["/api/tables/{table_id}"]["get"]["security"]  # anyone may look
    assert "security" not in doc["paths"]["/api/health"]["get"]
    # Every JSON success answer has a schema naming its fields, and no key beyond them.
    loose, answers = [], 0
    for path, operations in doc["paths"].items():
        for method, operation in operations.items():
            assert "Allow" in operation["responses"]["405"]["headers"], (method, path)
            for status, response in operation["responses"].items():
                content = response.get("content", {}).get("application/json")
                if not status.startswith("2") or content is None or path in AS_THE_GAME_HOLDS_IT:
                    continue
                answers += 1
                loose += _loose_parts(doc, content["schema"], f"{method.upper()} {path} {status}")
    assert answers > 70 and not loose, loose


def test_405_says_which_methods_are_allowed(client):
    for method, path, allowed in (("PUT", "/api/sessions", "DELETE, GET, POST"), ("DELETE", "/api/health", "GET"),
                                  ("GET", "/api/accounts", "POST"), ("PATCH", "/api/tables", "GET, POST")):
        r = client.request(method, path)
        assert r.status_code == 405, (method, path, r.text)
        assert r.headers["allow"] == allowed and r.json()["code"] == "method_not_allowed"


class Checked:
    """Calls the API as ``api`` (or signed out) and keeps each JSON answer with the path
    template it answers, to check against the description."""

    def __init__(self, client: Any) -> None:
        self.client = client
        self.answers: list[tuple[str, str, int, Any]] = []

    def __call__(self, method: str, template: str, api: Api | None = None, body: Any = None, expect: int = 200,
                 **path: Any) -> Any:
        headers = api.headers if api else {}
        r = self.client.request(method, template.format(**path), json=body, headers=headers)
        assert r.status_code == expect, (method, template, r.status_code, r.text)
        self.answers.append((method.lower(), template, r.status_code, r.json()))
        return r.json()


def _play_until(call: Checked, players: dict[int, Api], table_id: str, moves: int) -> None:
    """``moves`` moves, each the first legal move of a pending seat, by the seat's player."""
    for _ in range(moves):
        for seat, api in players.items():
            snapshot = call("GET", "/api/tables/{table_id}", api, table_id=table_id)
            if seat in snapshot["pending"] and snapshot["legal"]:
                call("POST", "/api/tables/{table_id}/moves", api, {"version": snapshot["version"],
                                                                   "move": snapshot["legal"][0]}, table_id=table_id)
                break


def test_real_answers_hold_to_the_description(client):
    call = Checked(client)
    server = client.app.state.server
    a, b, c = Api(client), Api(client), Api(client)
    server.moderation.set_role(c.name, "moderator")
    call("POST", "/api/accounts", body={"username": "exact-1", "password": "correct horse"}, expect=201)
    call("POST", "/api/sessions", body={"username": "exact-1", "password": "correct horse"})
    guest = call("POST", "/api/sessions/guest")
    client.cookies.clear()
    for template in ("/api/health", "/api/games", "/api/sessions/current", "/api/tables", "/api/tournaments"):
        call("GET", template)
    for template in ("/api/sessions", "/api/sessions/current", "/api/account", "/api/alerts/preferences",
                     "/api/account/sessions", "/api/me/tables", "/api/follows", "/api/invitations", "/api/blocks",
                     "/api/playnow", "/api/push/key"):
        call("GET", template, a)
    call("PUT", "/api/account/language", a, {"language": "ja"})
    call("PUT", "/api/alerts/preferences", a, {"set": [{"kind": "your_turn", "channel": "email", "enabled": False}],
                                               "turn_email_minutes": 15})
    # A table from the start to a resignation, with a bot seated and kicked, a move
    # taken back, the log, the chat, the record, the replay and a rematch.
    table_id = call("POST", "/api/tables", a, {"game": "drawbid", "seats": 2}, expect=201)["id"]
    call("POST", "/api/tables/{table_id}/bots", a, {"bot": "random"}, table_id=table_id)
    call("POST", "/api/tables/{table_id}/kick", a, {"seat": 1}, table_id=table_id)
    call("GET", "/api/tables/{table_id}", a, table_id=table_id)
    call("POST", "/api/tables/{table_id}/join", b, table_id=table_id)
    call("POST", "/api/tables/{table_id}/start", a, table_id=table_id)
    players = {0: a, 1: b}
    snapshot = call("GET", "/api/tables/{table_id}", a, table_id=table_id)
    if {"type": "pass"} in snapshot["legal"]:
        call("POST", "/api/tables/{table_id}/moves", a, {"version": snapshot["version"], "move": {"type": "pass"},
                                                         "id": "m1"}, table_id=table_id)
        call("POST", "/api/tables/{table_id}/moves", a, {"version": snapshot["version"], "move": {"type": "pass"},
                                                         "id": "m1"}, table_id=table_id)  # the same move again
        version = call("GET", "/api/tables/{table_id}", a, table_id=table_id)["version"]
        call("POST", "/api/tables/{table_id}/undo", a, {"version": version}, table_id=table_id)
    _play_until(call, players, table_id, 4)
    call("GET", "/api/tables/{table_id}", table_id=table_id)  # a spectator
    call("GET", "/api/tables/{table_id}/log", b, table_id=table_id)
    call("POST", "/api/tables/{table_id}/chat", a, {"text": "gg"}, table_id=table_id)
    chat_id = call("GET", "/api/tables/{table_id}/chat", b, table_id=table_id)[0]["id"]
    call("POST", "/api/tables/{table_id}/resign", b, table_id=table_id)
    for api in (a, None):
        call("GET", "/api/tables/{table_id}/record", api, table_id=table_id)
        call("GET", "/api/tables/{table_id}/replay", api, table_id=table_id)
        call("GET", "/api/tables/{table_id}/replay?changes=true", api, table_id=table_id)
    call("GET", "/api/tables/{table_id}/reviews", a, table_id=table_id)
    rematch = call("POST", "/api/tables/{table_id}/rematch", a, table_id=table_id, expect=201)["id"]
    call("POST", "/api/tables/{table_id}/rematch", b, table_id=table_id)
    call("POST", "/api/tables/{table_id}/join", b, table_id=rematch)
    call("POST", "/api/tables/{table_id}/leave", b, table_id=rematch)
    for template in ("/api/players/{username}", "/api/players/{username}/stats", "/api/players/{username}/tournaments",
                     "/api/players/{username}/ratings/{game}"):
        call("GET", template, username=a.name, game="drawbid")
    call("GET", "/api/games/{game}/leaderboard", game="drawbid")
    # A turn-based table with a bot: its clock is a deadline.
    timed = call("POST", "/api/tables", a, {"game": "drawbid", "seats": 2, "mode": "turn-based"}, expect=201)["id"]
    call("POST", "/api/tables/{table_id}/bots", a, table_id=timed)
    call("POST", "/api/tables/{table_id}/start", a, table_id=timed)
    call("GET", "/api/tables/{table_id}", a, table_id=timed)
    call("GET", "/api/me/tables", a)
    # Invitations, follows, Play now.
    invited = call("POST", "/api/tables", a, {"game": "drawbid", "seats": 3}, expect=201)["id"]
    call("POST", "/api/tables/{table_id}/invitations", a, {"username": b.name}, table_id=invited, expect=201)
    invitation = call("GET", "/api/invitations", b)["received"][0]["id"]
    call("POST", "/api/invitations/{invitation_id}/accept", b, invitation_id=invitation)
    call("POST", "/api/tables/{table_id}/invitations", a, {"username": c.name}, table_id=invited, expect=201)
    invitation = call("GET", "/api/invitations", c)["received"][0]["id"]
    call("DELETE", "/api/invitations/{invitation_id}", a, invitation_id=invitation)
    call("PUT", "/api/follows/{username}", a, username=b.name)
    call("PUT", "/api/follows/{username}", b, username=a.name)
    call("GET", "/api/follows", a)
    call("DELETE", "/api/follows/{username}", a, username=b.name)
    call("POST", "/api/playnow", c, {"game": "drawbid", "seats": 2}, expect=201)
    call("GET", "/api/playnow", c)
    call("DELETE", "/api/playnow", c)
    # Blocks, reports and the moderators' side.
    call("PUT", "/api/blocks/{username}", a, username=c.name)
    call("DELETE", "/api/blocks/{username}", a, username=c.name)
    report = call("POST", "/api/reports", a, {"kind": "chat", "reason": "rude", "chat": chat_id}, expect=201)["id"]
    call("GET", "/api/moderation/reports", c)
    call("POST", "/api/moderation/reports/{report_id}/resolve", c, {"note": "seen"}, report_id=report)
    call("GET", "/api/moderation/reports?status=resolved", c)
    call("GET", "/api/moderation/users/{username}", c, username=b.name)
    for action, body in (("ban", {"minutes": 5}), ("unban", None), ("mute", None), ("unmute", None)):
        call("POST", f"/api/moderation/users/{{username}}/{action}", c, body, username=guest["user"]["username"])
    call("POST", "/api/moderation/chat/{chat_id}/remove", c, chat_id=chat_id)
    call("POST", "/api/moderation/tables/{table_id}/abort", c, table_id=invited)
    call("GET", "/api/moderation/audit", c)
    call("GET", "/api/tables/{table_id}", a, table_id=invited)  # an aborted table
    call("DELETE", "/api/sessions", b)

    doc = client.get("/openapi.json").json()
    wrong = []
    for method, template, status, answer in call.answers:
        template = template.split("?")[0]
        schema = doc["paths"][template][method]["responses"][str(status)]["content"]["application/json"]["schema"]
        validator = jsonschema_rs.validator_for({**schema, "components": doc["components"]})
        wrong += [f"{method.upper()} {template} {status}: {error}" for error in validator.iter_errors(answer)]
    assert len({(m, t) for m, t, _s, _a in call.answers}) > 55
    assert not wrong, "\n".join(wrong[:10])
