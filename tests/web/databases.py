"""The databases the store and API tests run on: SQLite always, PostgreSQL where
``SCOUNDREL_TEST_POSTGRES`` names a server (``.ci/run`` installs and starts one).

Each test gets a database of its own: a SQLite file in its temporary folder, or a fresh
PostgreSQL database made for it and dropped after it.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

POSTGRES = os.environ.get("SCOUNDREL_TEST_POSTGRES", "")
"""A SQLAlchemy URL of a PostgreSQL server whose user may create databases, e.g.
``postgresql+psycopg:///postgres?host=/var/run/postgresql``."""

KINDS = ["sqlite", "postgresql"]


def postgres_database(name: str) -> Iterator[str]:
    """Make database ``name`` on the test server, yield its URL, drop it afterwards."""
    server = create_engine(POSTGRES, isolation_level="AUTOCOMMIT")
    try:
        with server.connect() as connection:
            connection.execute(text(f'CREATE DATABASE "{name}"'))
        yield make_url(POSTGRES).set(database=name).render_as_string(hide_password=False)
    finally:
        with server.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        server.dispose()


def database_url(kind: str, folder: Path) -> Iterator[str]:
    if kind == "sqlite":
        yield f"sqlite:///{folder}/t.sqlite3"
        return
    if not POSTGRES:
        if os.environ.get("CI"):
            pytest.fail("CI runs the store tests on PostgreSQL: set SCOUNDREL_TEST_POSTGRES")
        pytest.skip("no PostgreSQL server: set SCOUNDREL_TEST_POSTGRES to run this on one")
    yield from postgres_database(f"scoundrel_test_{uuid.uuid4().hex[:12]}")
