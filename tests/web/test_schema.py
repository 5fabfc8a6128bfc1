"""Schemathesis over the server's own OpenAPI schema: generated requests, well formed and
not, to every endpoint; none may answer a server error (5xx). Runs on SQLite and
PostgreSQL through the ``app`` fixture's database."""

from __future__ import annotations

from typing import Any

import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis.checks import not_a_server_error


def test_no_request_makes_a_server_error(app: Any) -> None:
    schema = schemathesis.openapi.from_asgi("/openapi.json", app)
    tried = []
    for result in schema.get_all_operations():
        operation = result.ok()
        if operation.path.endswith("/analysis"):
            continue  # they start worker processes: covered by their own tests

        @given(case=operation.as_strategy())
        @settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
        def check(case: Any) -> None:
            case.call_and_validate(checks=[not_a_server_error])

        check()
        tried.append(f"{operation.method.upper()} {operation.path}")
    assert len(tried) >= 15, tried
