"""The database: players, games (each game is its record) and the schema's migrations.

SQLAlchemy Core over SQLite by default (a file in the user's data directory); any
SQLAlchemy URL works, PostgreSQL included. The schema is created or migrated at start by
the Alembic revisions in ``migrations/``.
"""

from __future__ import annotations

import datetime as _dt
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from alembic.script import ScriptDirectory
from sqlalchemy import (
    Boolean,
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
    false,
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


def _partial(name: str, *columns: str, where: str, unique: bool = False) -> Index:
    """An index of the rows that ``where`` holds, on SQLite and PostgreSQL alike."""
    condition = text(where)
    return Index(name, *columns, unique=unique, sqlite_where=condition, postgresql_where=condition)


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
    # online co-op: the invite link's secret while a seat is free; the monster given as
    # the help card (C5) while the partner chooses weapon or bare hands
    Column("invite", String(32), nullable=True),
    Column("pending", String(8), nullable=True),
    # a scored daily attempt: a keyed hash of the client's address (never the address)
    Column("client", String(64), nullable=True),
    # brought from a record file (the terminal's --load): listed, never in the records
    Column("loaded", Boolean, nullable=False, server_default=false()),
    # played offline in the browser and sent once over: the key its page made for it (one
    # game kept once however often it is sent); never ranked (revision 0008)
    Column("offline_key", String(32), nullable=True),
    # partial: most games have no invite, day or client, and no search would find them
    # there (revision 0004)
    _partial("game_invite", "invite", where="invite IS NOT NULL", unique=True),
    _partial("daily_client", "daily_date", "client", where="client IS NOT NULL"),
    _partial(
        "one_daily_attempt",
        "player_id",
        "daily_date",
        "ruleset",
        where="mode = 'daily'",
        unique=True,
    ),
    _partial(
        "offline_game", "player_id", "offline_key", where="offline_key IS NOT NULL", unique=True
    ),
    _partial("daily_board", "daily_date", "ruleset", "status", where="daily_date IS NOT NULL"),
)

settings = Table(
    "settings",
    metadata,
    Column("key", String(40), primary_key=True),
    Column("value", Text, nullable=False),
)

seats = Table(
    "seats",
    metadata,
    Column("game_id", String(24), ForeignKey("games.id"), primary_key=True),
    Column("hero", Integer, primary_key=True),  # 1 or 2
    Column("player_id", String(36), ForeignKey("players.id"), nullable=False),
    Column("joined_at", DateTime(timezone=True), nullable=False),
    Index("seat_player", "player_id"),
)

transfers = Table(
    "transfers",
    metadata,
    Column("code_hash", String(64), primary_key=True),
    Column("player_id", String(36), ForeignKey("players.id"), nullable=False),
    Column("expires_at", DateTime(timezone=True), nullable=False),
    Index("transfer_player", "player_id"),
)

daily_pars = Table(
    "daily_pars",
    metadata,
    Column("daily_date", String(10), primary_key=True),
    Column("ruleset", String(8), primary_key=True),
    Column("deck", Text, nullable=False),  # the deal the par is of (N3)
    Column("state", String(8), nullable=False),  # working | done | failed
    Column("score", Integer, nullable=True),  # the fair searching bot's score: the par
    Column("won", Boolean, nullable=True),
    Column("winnable", Boolean, nullable=True),  # null: the solver did not decide in time
    Column("claimed_at", DateTime(timezone=True), nullable=False),
    Column("finished_at", DateTime(timezone=True), nullable=True),
)

achievements = Table(
    "achievements",
    metadata,
    Column("player_id", String(36), ForeignKey("players.id"), primary_key=True),
    Column("code", String(24), primary_key=True),  # store/achievements.py
    # the game that earned it (for a streak or ten wins: the game that completed it)
    Column("game_id", String(24), ForeignKey("games.id"), nullable=True),
    Column("earned_at", DateTime(timezone=True), nullable=False),
)

MIGRATIONS = Path(__file__).with_name("migrations")
#: Schemas 1 and 2 kept their version in a table of their own; their Alembic revisions.
_BEFORE_ALEMBIC = {1: "0001", 2: "0002"}
_LOCK = 0x5C0D  # PostgreSQL advisory lock: one migration at a time across servers


def _scripts() -> ScriptDirectory:
    return ScriptDirectory(str(MIGRATIONS))


#: The revision this program's schema is at (``migrate`` brings a database there).
SCHEMA_VERSION: str = _scripts().get_current_head() or ""


def data_folder() -> Path:
    """The user's data folder for this program (it may not exist yet)."""
    from platformdirs import user_data_dir

    return Path(user_data_dir("scoundrel", appauthor=False))


def default_url() -> str:
    """A SQLite file in the user's data directory."""
    folder = data_folder()
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'scoundrel.sqlite3'}"


def with_driver(url: str) -> str:
    """``url`` with the PostgreSQL driver this package installs named, where a plain
    ``postgresql://`` or ``postgres://`` leaves it to SQLAlchemy's default."""
    for plain in ("postgresql://", "postgres://"):
        if url.startswith(plain):
            return "postgresql+psycopg://" + url[len(plain) :]
    return url


def connect(url: str | None = None) -> Engine:
    """An engine for ``url`` (default: :func:`default_url`) with the schema up to date."""
    url = with_driver(url or default_url())
    options: dict[str, Any] = {"future": True}
    if url.startswith("sqlite"):
        options["connect_args"] = {"check_same_thread": False, "timeout": 30}
        options["pool_use_lifo"] = True
    else:
        # A database server may restart: the first statement that meets a dropped
        # connection fails (the API answers 503) and the whole pool is renewed, so the next
        # requests reconnect. (Testing every connection before use, pre-ping, would cost a
        # round trip on every query of every move.)
        options.update(pool_size=10, max_overflow=20, pool_timeout=10)
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


def warm(engine: Engine) -> int:
    """Open the pool's connections now and read through each once, so that the first
    players after a (re)start do not wait while the database server starts a session
    for each of them; returns how many were opened."""
    size = getattr(engine.pool, "size", lambda: 1)()
    opened: list[Connection] = []
    try:
        for _ in range(size):
            connection = engine.connect()
            opened.append(connection)
            connection.execute(select(games.c.id).limit(1)).first()
    finally:
        for connection in opened:
            connection.close()
    return len(opened)


def migrate(engine: Engine) -> str:
    """Create the schema or bring it up to :data:`SCHEMA_VERSION` with Alembic; returns the
    revision. A database of schema 1 or 2 (from before Alembic) is upgraded in place; one
    newer than this program is refused. Servers that start together take turns (an
    advisory lock on PostgreSQL, the write lock on SQLite)."""
    with engine.begin() as connection:
        if connection.dialect.name == "postgresql":
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _LOCK})
        elif connection.dialect.name == "sqlite":
            # pysqlite opens no transaction before DDL: take the write lock now, so that a
            # second server waits here and then finds the schema made
            connection.exec_driver_sql("BEGIN IMMEDIATE")
        scripts = _scripts()
        current = _revision(connection)
        if current is not None and current not in {
            rev.revision for rev in scripts.walk_revisions()
        }:
            raise RuntimeError(
                f"the database has schema revision {current}, newer than this program's "
                f"{SCHEMA_VERSION}: upgrade scoundrel"
            )
        config = Config()
        config.set_main_option("script_location", str(MIGRATIONS))
        config.attributes["connection"] = connection
        if current is None and inspect(connection).has_table("schema_info"):
            old = connection.execute(text("SELECT max(version) FROM schema_info")).scalar()
            if old not in _BEFORE_ALEMBIC:
                raise RuntimeError(
                    f"the database has schema version {old}, which this program does not "
                    "know: upgrade scoundrel"
                )
            command.stamp(config, _BEFORE_ALEMBIC[old])
        command.upgrade(config, "head")
    return SCHEMA_VERSION


def _revision(connection: Connection) -> str | None:
    if not inspect(connection).has_table("alembic_version"):
        return None
    value = connection.execute(text("SELECT version_num FROM alembic_version")).scalar()
    return None if value is None else str(value)


def now() -> _dt.datetime:
    return _dt.datetime.now(_dt.UTC)


def aware(moment: _dt.datetime) -> _dt.datetime:
    """A time read back from the database, with its zone: SQLite gives back naive
    datetimes, written in UTC."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=_dt.UTC)
