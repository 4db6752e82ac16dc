"""Schemathesis over the OpenAPI spec: no generated request, signed in or not, makes the
server fail (5xx). Driven through Hypothesis directly: schemathesis's pytest plugin does
not support pytest 9 yet."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ludoteca.server.app import create_app
from tests.server.conftest import Api, make_settings, new_table

schemathesis = pytest.importorskip("schemathesis")
GenerationMode = schemathesis.GenerationMode


@pytest.mark.slow
def test_no_generated_request_makes_a_server_error(tmp_path):
    with TestClient(create_app(make_settings(f"sqlite:///{tmp_path / 'x.db'}"))) as http:
        a, b = Api(http), Api(http)
        table_id = new_table(a, [b])
        schema = schemathesis.openapi.from_asgi("/openapi.json", http.app)
        failures: list[str] = []
        codes: list[int] = []
        operations = 0
        for result in schema.get_all_operations():
            operation = result.ok()
            operations += 1
            # Valid requests and invalid ones: with the description exact, valid data alone
            # seldom draws a refusal, and the refusals are what must never be a 500.
            strategy = st.one_of(operation.as_strategy(), operation.as_strategy(GenerationMode.NEGATIVE))

            @given(case=strategy)
            @settings(max_examples=8, deadline=None, suppress_health_check=list(HealthCheck), database=None)
            def check(case) -> None:
                if case.path_parameters and case.path_parameters.get("table_id") in ("", "0"):
                    case.path_parameters["table_id"] = table_id
                for headers in (a.headers, {}):
                    response = case.call(headers=headers)
                    codes.append(response.status_code)
                    if response.status_code >= 500:
                        failures.append(f"{case.method} {case.formatted_path}: {response.status_code}")

            check()
        assert operations >= 20
        assert not failures, failures
        assert {200, 201} & set(codes) and {401, 404, 422} <= set(codes)
