"""Refusals a player can read in their language (issue 11): every error the server sends
has a stable ``code``, a ``reason`` where the code is shared by several refusals, and the
``params`` its message needs; the browser's catalog has a message for each, in all six
languages (``tests/test_i18n.py`` checks that every language has every key)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from scoundrel.i18n import catalog
from scoundrel.store import StoreError
from scoundrel.store import identity as _identity  # noqa: F401  (its errors are subclasses)
from scoundrel.store import tables as _tables  # noqa: F401
from scoundrel.web.guard import _CODES
from scoundrel.web.limits import RateLimited

SOURCE = Path(__file__).resolve().parents[2] / "src" / "scoundrel"
#: Where a refusal's name is written in the server's source.
NAMED = (
    re.compile(r'reason="(\w+)"'),
    re.compile(r'Refused\(\s*\d+,\s*"(\w+)"'),
    re.compile(r'(?:\b|_)error\(\s*\d+,\s*"(\w+)"'),
    re.compile(r'\bcode = "(\w+)"'),
    re.compile(r'\bcode="(\w+)"'),
)


def _subclasses(cls: type) -> set[type]:
    found = set()
    for sub in cls.__subclasses__():
        found |= {sub} | _subclasses(sub)
    return found


def server_names() -> set[str]:
    """Every code and reason the server can send."""
    names = set(_CODES.values()) | {"internal"}
    for folder in ("web", "store"):
        for path in (SOURCE / folder).glob("*.py"):
            text = path.read_text(encoding="utf-8")
            for pattern in NAMED:
                names.update(pattern.findall(text))
    names |= {error.code for error in _subclasses(StoreError) | {StoreError}}
    names |= {error.code for error in _subclasses(RateLimited) | {RateLimited}}
    return names


def test_every_refusal_has_a_message_in_the_catalog() -> None:
    names = server_names()
    assert len(names) >= 40, sorted(names)  # the scan is not blind
    assert {"stale_position", "no_undo_daily", "table_full", "rate_limited"} <= names
    english = catalog("en")
    missing = sorted(name for name in names if f"error.{name}" not in english)
    assert not missing, missing


def test_the_messages_ask_only_for_the_params_the_server_sends() -> None:
    english = catalog("en")
    asked = {
        key: set(re.findall(r"\{(\w+)\}", text))
        for key, text in english.items()
        if key.startswith("error.") and isinstance(text, str)
    }
    assert asked["error.rate_limited"] == {"wait"}
    assert asked["error.too_many_daily_attempts"] == {"count"}
    assert asked["error.unknown"] == {"message"}
    assert asked["error.offline_illegal"] == {"number", "move"}
    waits = {"error.hints_busy", "error.hint_timeout", "error.hint_failed"}
    assert all(asked[key] == {"wait"} for key in waits)
    others = (
        {key for key, names in asked.items() if names}
        - waits
        - {
            "error.rate_limited",
            "error.too_many_daily_attempts",
            "error.unknown",
            "error.offline_illegal",
        }
    )
    assert not others, others


def refusal(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.text
    error: dict[str, Any] = response.json()["error"]
    assert error["code"] == code, error
    assert isinstance(error["params"], dict)
    assert f"error.{error.get('reason') or code}" in catalog("en")
    return error


def test_refusals_name_the_situation(client: TestClient) -> None:
    daily = client.post("/api/games", json={"mode": "daily"}).json()
    undo = client.post(f"/api/games/{daily['id']}/undo")
    assert refusal(undo, 403, "forbidden")["reason"] == "no_undo_daily"
    game = client.post("/api/games", json={}).json()
    first = game["legal"][0]["move"]
    assert client.post(f"/api/games/{game['id']}/moves", json={"move": first}).status_code == 200
    stale = client.post(f"/api/games/{game['id']}/moves", json={"move": "F", "after": 0})
    assert refusal(stale, 409, "conflict")["reason"] == "stale_position"
    # a move the rules refuse carries the rule's own code and parameters
    flee = client.post(f"/api/games/{game['id']}/moves", json={"move": "F"})
    error = refusal(flee, 409, "illegal_move")
    assert error["params"] == {"move": "F"}
    assert error["refusal"]["code"] in ("flee_after_taking", "flee_twice")
    assert error["refusal"]["rule"].startswith("S")
    unknown = client.get("/api/games/" + "A" * 16)
    assert refusal(unknown, 404, "not_found")["reason"] == "no_such_game"
    route = client.get("/api/nothing/here")
    assert "reason" not in refusal(route, 404, "not_found")
