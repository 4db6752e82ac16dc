"""Every pattern the server applies to what a client sends runs in linear time. Each
gets 64 KB of the inputs that make backtracking patterns explode (one letter repeated, a
pattern's own keyword repeated, separators, unclosed strings, brackets), under a bound
far above what a linear pass takes: a correctness bound, not a benchmark. The access-log
redaction took ~100 s for 20,000 letters before.

The patterns: logs.redact (request lines), auth.USERNAME (check_credentials),
usernames.username_key, bounds.json_too_deep (HTTP bodies, socket messages) and the
NUL checks, the lobby's ``status`` pattern (pydantic, linear by construction), the
token and Origin parsing of auth, and the help-file name pattern of the game packages.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from typing import Annotated, Any

import pytest
from pydantic import Field, TypeAdapter

from ludoteca.server.accounts.usernames import username_key
from ludoteca.server.http import inputs
from ludoteca.server.kernel import bounds, logs
from ludoteca.server.kernel import identity as auth
from ludoteca.server.kernel.errors import ApiError

SIZE = 64 * 1024
BOUND = 0.5


def adversarial() -> dict[str, str]:
    def fill(unit: str) -> str:
        return (unit * (SIZE // len(unit) + 1))[:SIZE]

    return {
        "letters": fill("a"),
        "digits then a letter": fill("1")[:-1] + "x",
        "keyword": fill("token"),
        "keyword and equals": fill("token="),
        "keyword, equals, stop": fill("password=&"),
        "dashes": fill("-"),
        "words and dashes": fill("a-"),
        "dots and letters": fill(".a") + "!",
        "word characters then space": fill("x_") + " ",
        "quotes and backslashes": fill('"\\'),
        "unclosed string": '"' + fill("\\a"),
        "open brackets": fill("["),
        "open objects": fill('{"a":'),
        "escaped u0000": fill("\\u0000"),
        "mixed": fill("ToKeN=a&csrf b;session\t[{\"\\"),
    }


def within_bound(function: Callable[[str], Any]) -> None:
    for name, text in adversarial().items():
        start = time.perf_counter()
        # Refusing is fine (pydantic's ValidationError is a ValueError): what counts is the time.
        with contextlib.suppress(ApiError, ValueError):
            function(text)
        took = time.perf_counter() - start
        assert took < BOUND, f"{name}: {took:.2f} s"


def test_log_redaction_is_linear():
    within_bound(logs.redact)
    within_bound(lambda text: logs.redact(f'127.0.0.1:5 - "GET /api/tables/{text} HTTP/1.1" 404'))
    # And it still redacts.
    assert logs.redact("GET /x?token=abc&x-csrf-token=def") == "GET /x?token=[redacted]&x-csrf-token=[redacted]"


def test_the_redaction_of_a_20000_letter_path_is_instant():
    start = time.perf_counter()
    logs.redact("GET /api/tables/" + "a" * 20_000)
    assert time.perf_counter() - start < 0.05


def test_username_and_password_checks_are_linear():
    within_bound(lambda text: auth.check_credentials(text, "a fine passphrase"))
    within_bound(lambda text: auth.check_credentials("someone", text))
    within_bound(username_key)


def test_json_checks_are_linear():
    within_bound(bounds.json_too_deep)
    within_bound(bounds.refuse_too_deep)
    within_bound(inputs._nul_in_json_text)
    within_bound(lambda text: inputs.nul_in_target({"path": "/" + text, "query_string": text.encode()}))


def test_header_parsing_is_linear():
    within_bound(lambda text: auth.token_from({"authorization": "Bearer " + text}, {}, {"token": text}))
    within_bound(lambda text: auth.refuse_cross_site({"origin": "https://" + text, "host": text}))
    within_bound(lambda text: auth.refuse_cross_site({"origin": text, "host": "x"}))


def test_help_file_names_are_linear():
    package = pytest.importorskip("ludoteca.games.package")
    within_bound(lambda text: package.help_file("iwari", text))


def test_the_lobby_status_pattern_is_linear(client):
    """Checked by pydantic (a regex engine without backtracking); taken from the API's
    own description, so it is the pattern the route applies. An HTTP client would not
    even send so long a query, and the server would answer 431 to it."""
    parameters = client.app.openapi()["paths"]["/api/tables"]["get"]["parameters"]
    pattern = next(p for p in parameters if p["name"] == "status")["schema"]["anyOf"][0]["pattern"]
    status = TypeAdapter(Annotated[str, Field(pattern=pattern)])
    assert status.validate_python("open") == "open"
    within_bound(status.validate_python)


def test_a_socket_message_is_checked_in_linear_time():
    """The socket's depth check runs before json.loads (which recurses)."""
    deep = "[" * 5000 + "]" * 5000
    with pytest.raises(ApiError) as refused:
        bounds.refuse_too_deep(deep)
    assert refused.value.code == "too_deep"
