"""The database: players, games (each game is its record) and the schema's migrations.

SQLAlchemy Core over SQLite by default (a file in the user's data directory); any
SQLAlchemy URL works, PostgreSQL included. The schema is created or migrated at start.
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Callable
from pathlib import Path
from typing import Any

from sqlalchemy import (
    Column,
    DateTime,
    Engine,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    event,
    inspect,
    select,
    text,
)
from sqlalchemy.engine import Connection

metadata = MetaData()

players = Table(
    "players",
    metadata,
    Column("id", String(36), primary_key=True),
    Column("nickname", String(40), nullable=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
)

games = Table(
    "games",
    metadata,
    Column("id", String(24), primary_key=True),
    Column("player_id", String(36), ForeignKey("players.id"), nullable=False, index=True),
    Column("mode", String(8), nullable=False),  # random | daily (M1, M2)
    Column("daily_date", String(10), nullable=True),
    Column("ruleset", String(8), nullable=False),
    Column("options", Text, nullable=False),  # JSON object, N3
    Column("deck", Text, nullable=False),  # N3: the whole initial dungeon
    Column("moves", Text, nullable=False),  # N3: move tokens
    Column("move_count", Integer, nullable=False),
    Column("status", String(8), nullable=False),
    Column("score", Integer, nullable=True),
    Column("undo_count", Integer, nullable=False),
    Column("hint_count", Integer, nullable=False, server_default="0"),  # hints asked for
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
    Column("finished_at", DateTime(timezone=True), nullable=True),
    Index(
        "one_daily_attempt",
        "player_id",
        "daily_date",
        "ruleset",
        unique=True,
        sqlite_where=text("mode = 'daily'"),
        postgresql_where=text("mode = 'daily'"),
    ),
    Index("daily_board", "daily_date", "ruleset", "status"),
)

settings = Table(
    "settings",
    metadata,
    Column("key", String(40), primary_key=True),
    Column("value", Text, nullable=False),
)

schema_info = Table("schema_info", metadata, Column("version", Integer, nullable=False))


def _migration_1(connection: Connection) -> None:
    """The first schema: created by ``create_all``."""


def _migration_2(connection: Connection) -> None:
    """Hints: every game counts the hints its player asked for (0 for older games)."""
    columns = {column["name"] for column in inspect(connection).get_columns("games")}
    if "hint_count" not in columns:
        connection.execute(
            text("ALTER TABLE games ADD COLUMN hint_count INTEGER NOT NULL DEFAULT 0")
        )


#: Migrations in order; migration N brings the schema from version N-1 to N.
MIGRATIONS: list[Callable[[Connection], None]] = [_migration_1, _migration_2]
SCHEMA_VERSION = len(MIGRATIONS)


def default_url() -> str:
    """A SQLite file in the user's data directory."""
    from platformdirs import user_data_dir

    folder = Path(user_data_dir("scoundrel", appauthor=False))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'scoundrel.sqlite3'}"


def connect(url: str | None = None) -> Engine:
    """An engine for ``url`` (default: :func:`default_url`) with the schema up to date."""
    url = url or default_url()
    options: dict[str, Any] = {"future": True}
    if url.startswith("sqlite"):
        options["connect_args"] = {"check_same_thread": False, "timeout": 30}
    engine = create_engine(url, **options)
    if engine.dialect.name == "sqlite":

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA foreign_keys=ON")
            if ":memory:" not in url:
                cursor.execute("PRAGMA journal_mode=WAL")
                cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.close()

    migrate(engine)
    return engine


def migrate(engine: Engine) -> int:
    """Create the schema or bring it up to :data:`SCHEMA_VERSION`; returns the version."""
    with engine.begin() as connection:
        fresh = not inspect(connection).has_table("schema_info")
        metadata.create_all(connection)
        if fresh:
            connection.execute(schema_info.insert().values(version=SCHEMA_VERSION))
            return SCHEMA_VERSION
        version = connection.execute(select(schema_info.c.version)).scalar_one_or_none() or 0
        if version > SCHEMA_VERSION:
            raise RuntimeError(
                f"the database has schema version {version}, newer than this program's "
                f"{SCHEMA_VERSION}: upgrade scoundrel"
            )
        for number in range(version, SCHEMA_VERSION):
            MIGRATIONS[number](connection)
        connection.execute(schema_info.delete())
        connection.execute(schema_info.insert().values(version=SCHEMA_VERSION))
        return SCHEMA_VERSION


def now() -> _dt.datetime:
    return _dt.datetime.now(_dt.UTC)
