"""Schemathesis over the server's own OpenAPI schema: generated requests, well formed and
not, to every endpoint, each answer checked by every check schemathesis has (``--checks
all``): no server error, every status and header documented, every body of its documented
shape, schema-invalid requests refused and schema-valid ones not refused for their form.
Runs on SQLite and PostgreSQL through the ``app`` fixture's database.

A request the schema allows may still be refused by the game (an unknown option, a move
in bad notation, a day that is not a date, a game that is not there): such refusals are
documented (400, 403, 404, 409) and count as accepting the request's form."""

from __future__ import annotations

from typing import Any

import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis.config import SchemathesisConfig

#: What answers a well-formed request: done, or refused by the game as it stands.
ACCEPTED = ["2xx", "400", "403", "404", "409", "429", "503"]


def test_every_answer_is_as_the_schema_says(app: Any) -> None:
    config = SchemathesisConfig.from_dict(
        {"checks": {"positive_data_acceptance": {"expected-statuses": ACCEPTED}}}
    )
    schema = schemathesis.openapi.from_asgi("/openapi.json", app, config=config)
    tried = []
    for result in schema.get_all_operations():
        operation = result.ok()

        @given(case=operation.as_strategy())
        @settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
        def check(case: Any) -> None:
            case.call_and_validate()  # every check

        check()
        tried.append(f"{operation.method.upper()} {operation.path}")
    assert len(tried) >= 20, tried


def test_every_refusal_is_documented_with_the_error_shape(app: Any) -> None:
    from fastapi.testclient import TestClient

    with TestClient(app) as client:
        paths = client.get("/openapi.json").json()["paths"]
    for path, methods in paths.items():
        for method, operation in methods.items():
            documented = set(operation["responses"])
            assert {"400", "404", "409", "422", "429", "503"} <= documented, (method, path)
            body = operation["responses"]["409"]["content"]["application/json"]["schema"]
            assert body == {"$ref": "#/components/schemas/ErrorBody"}, (method, path)
            assert "Retry-After" in operation["responses"]["429"]["headers"]
