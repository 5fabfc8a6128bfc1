"""Fixtures for the web tests: a fresh database per test (SQLite, and PostgreSQL where one
is set up: see ``tests/databases.py``), a fixed date, one client per player (a TestClient
keeps its cookies, so one client is one anonymous player)."""

from __future__ import annotations

import datetime
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from databases import KINDS, database_url
from fastapi import FastAPI
from fastapi.testclient import TestClient

from scoundrel.web.app import create_app
from scoundrel.web.limits import Limits

TODAY = datetime.date(2026, 11, 29)


@pytest.fixture(params=KINDS)
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh, empty database: every store and API test runs on each kind."""
    yield from database_url(request.param, tmp_path)


class Clock:
    """The server's date, which a test may move on (a daily game's deck is shown the day
    after, M2)."""

    def __init__(self) -> None:
        self.today = TODAY

    def __call__(self) -> datetime.date:
        return self.today


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def app(db_url: str, clock: Clock) -> Iterator[FastAPI]:
    # no rate limits: these tests play far faster than people (test_integrity.py has them);
    # no par worked out for each day they look at (test_pars.py has them)
    application = create_app(db_url, today=clock, limits=Limits.unlimited(), daily_par=False)
    yield application
    application.state.analyses.close()  # no analysis or hint process outlives its test
    application.state.hints.close()


@pytest.fixture
def new_client(app: FastAPI) -> Iterator[Callable[..., TestClient]]:
    """Make more players on the same app: ``new_client()`` is a new anonymous player."""
    clients: list[TestClient] = []

    def make(**options: object) -> TestClient:
        client = TestClient(app, **options)  # type: ignore[arg-type]
        clients.append(client)
        return client

    yield make
    for client in clients:
        client.close()


@pytest.fixture
def client(new_client: Callable[..., TestClient]) -> TestClient:
    """The first player."""
    return new_client()


@pytest.fixture
def other(new_client: Callable[..., TestClient]) -> TestClient:
    """A second player on the same server."""
    return new_client()


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    """A headless Chromium for the browser tests (their modules skip where there is none)."""
    from browsers import launched

    yield from launched()


@pytest.fixture
def dealt(monkeypatch: pytest.MonkeyPatch) -> Callable[[int], None]:
    """``dealt(seed)``: the next random dungeons of a server running in this process (the
    browser tests' servers) are this known deal."""
    import scoundrel.store.games as games_module
    from scoundrel.core import random_deal

    def deal(seed: int) -> None:
        monkeypatch.setattr(games_module, "random_deal", lambda rules, *_: random_deal(rules, seed))

    return deal
