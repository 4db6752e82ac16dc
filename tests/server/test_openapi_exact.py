"""Issue 15, item 5: the OpenAPI description says what the server does (schemathesis
checks it in depth: tests/server/test_schemathesis.py)."""

from __future__ import annotations

from ludoteca.bots.base import seatable_bot_names


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
    # Every JSON success answer has a schema with its fields, not "an object".
    for path, operations in doc["paths"].items():
        for method, operation in operations.items():
            for status in ("200", "201"):
                content = operation["responses"].get(status, {}).get("content", {}).get("application/json")
                if content is None or path.endswith(("/i18n/{lang}", "/static/{key}")):
                    continue
                schema = content["schema"]
                assert "$ref" in schema or "$ref" in schema.get("items", {}), (method, path, schema)
            assert "Allow" in operation["responses"]["405"]["headers"], (method, path)


def test_405_says_which_methods_are_allowed(client):
    for method, path, allowed in (("PUT", "/api/sessions", "DELETE, GET, POST"), ("DELETE", "/api/health", "GET"),
                                  ("GET", "/api/accounts", "POST"), ("PATCH", "/api/tables", "GET, POST")):
        r = client.request(method, path)
        assert r.status_code == 405, (method, path, r.text)
        assert r.headers["allow"] == allowed and r.json()["code"] == "method_not_allowed"
