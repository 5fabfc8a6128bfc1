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


def test_the_views_of_whole_games_are_as_the_schema_says(app: Any) -> None:
    """Every answer of a solo and a co-op game played to the end, a table of two, the
    current game, a hint, the day, the player's records, a record, a replay, an analysis,
    the worked examples, a nickname and a transfer code validate against the models the
    schema documents (``web/schemas.py``)."""
    from fastapi.testclient import TestClient

    from scoundrel.web.schemas import (
        AnalysisView,
        CurrentGame,
        DailyView,
        ExamplesView,
        GameView,
        HintView,
        MeView,
        NicknameView,
        RecordView,
        ReplayView,
        TransferCode,
        Transferred,
    )

    with TestClient(app) as client, TestClient(app) as friend, TestClient(app) as device:
        for ruleset in ("solo", "coop"):
            view = GameView.model_validate(
                client.post("/api/games", json={"ruleset": ruleset}).json()
            )
            if ruleset == "solo":
                HintView.model_validate(client.get(f"/api/games/{view.id}/hint").json())
            CurrentGame.model_validate(client.get("/api/games/current").json())
            while view.status == "playing":
                move = view.legal[0].move
                answer = client.post(f"/api/games/{view.id}/moves", json={"move": move})
                assert answer.status_code == 200, answer.text
                view = GameView.model_validate(answer.json())
        table = client.post("/api/tables", json={"ruleset": "coop"}).json()
        GameView.model_validate(table)
        joined = friend.post("/api/tables/join", json={"invite": table["invite"]}).json()
        assert GameView.model_validate(joined).you == 2
        DailyView.model_validate(client.get("/api/daily").json())
        MeView.model_validate(client.get("/api/me").json())
        RecordView.model_validate(client.get(f"/api/games/{view.id}/record").json())
        ReplayView.model_validate(client.get(f"/api/games/{view.id}/replay").json())
        AnalysisView.model_validate(client.get(f"/api/games/{view.id}/analysis").json())
        ExamplesView.model_validate(client.get("/api/examples").json())
        named = client.put("/api/me/nickname", json={"nickname": "Anna"}).json()
        NicknameView.model_validate(named)
        code = TransferCode.model_validate(client.post("/api/me/transfer").json()).code
        device.get("/api/games/current")
        claimed = device.post("/api/me/transfer/claim", json={"code": code}).json()
        Transferred.model_validate(claimed)
        schema = client.get("/openapi.json").json()
    assert schema["components"]["schemas"]["GameView"]["properties"]["status"]["enum"] == [
        "playing",
        "won",
        "lost",
        "closed",
    ]
