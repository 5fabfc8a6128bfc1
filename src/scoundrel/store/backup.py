"""Backups of the game store: ``scoundrel db backup FILE`` and ``scoundrel db restore FILE``.

A SQLite store is copied with SQLite's online backup API: the copy is made in one step,
inside one read transaction, so it is the store as it stood at one moment even while a
server goes on writing (in WAL mode readers and the writer do not wait for each other). The
backup is itself a SQLite file, self-contained (no ``-wal`` beside it), which SQLite's own
tools open.

A PostgreSQL store is dumped by ``pg_dump --format=custom`` (PostgreSQL's client programs
must be installed), in a snapshot this module exports first, so that the number of games it
reports is the number the dump holds. Such a file is an ordinary ``pg_dump`` archive:
``pg_restore`` reads it too.

Nothing is ever left half-written. A backup is written to a hidden file beside ``FILE`` and
moved into place once it is complete and checked. A restore checks the backup first (its
kind, its tables, a schema revision this program knows), then replaces the store's contents
in one transaction, and finally migrates the store to this program's schema with Alembic, as
a server does at start. Every refusal is a :class:`BackupError` with one line to show, and
changes nothing; the one failure that comes after a change, a migration that fails once a
PostgreSQL store is restored, says so (the server tries the migration again at start).
"""

from __future__ import annotations

import contextlib
import glob
import os
import re
import shutil
import sqlite3
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any
from urllib.parse import unquote

from alembic.script import ScriptDirectory
from sqlalchemy import create_engine, inspect, text
from sqlalchemy.engine import URL, Connection, Engine, make_url
from sqlalchemy.exc import ArgumentError, SQLAlchemyError
from sqlalchemy.pool import NullPool

from .database import MIGRATIONS, SCHEMA_VERSION, connect, with_driver

SQLITE_MAGIC = b"SQLite format 3\x00"
PG_DUMP_MAGIC = b"PGDMP"
#: Where PostgreSQL's client programs are looked for when they are not on the PATH
#: (Debian and Ubuntu install every version's beside each other there).
PG_BIN_GLOBS = ("/usr/lib/postgresql/*/bin",)
#: The tables of a Scoundrel store, whatever its schema revision (``schema_info`` kept the
#: version of schemas 1 and 2, before Alembic).
STORE_TABLES = ("players", "games")
VERSION_TABLES = ("alembic_version", "schema_info")
#: Every table any revision of the schema has made: what a PostgreSQL restore replaces.
ALL_TABLES = (
    *("achievements", "daily_pars", "transfers", "seats", "games", "settings", "players"),
    *("alembic_version", "schema_info"),
)


class BackupError(Exception):
    """A backup or restore refused or failed: one line to show; nothing was changed."""


@dataclass(frozen=True)
class Summary:
    """What a backup holds, or what a restore brought back."""

    kind: str
    """``sqlite`` or ``postgresql``."""
    file: Path
    store: str
    """The store's URL, its password hidden."""
    games: int
    in_play: int
    players: int
    size: int
    """The backup file's size in bytes."""
    revision: str | None
    """The backup's schema revision (None for a schema from before Alembic)."""

    def line(self, restored: bool = False) -> str:
        """One line saying what was written (or restored)."""
        games = _plural(self.games, "game")
        playing = f" ({self.in_play:,} in play)" if self.in_play else ""
        players = _plural(self.players, "player")
        at = f"schema {self.revision}" if self.revision else "a schema from before Alembic"
        if not restored:
            return (
                f"Backed up {games}{playing} and {players} of {self.store} to {self.file} "
                f"({size_text(self.size)}, {_FORMATS[self.kind]}, {at})."
            )
        migrated = (
            f"migrated from schema {self.revision or '(before Alembic)'} to {SCHEMA_VERSION}"
            if self.revision != SCHEMA_VERSION
            else f"schema {SCHEMA_VERSION}"
        )
        return (
            f"Restored {games}{playing} and {players} from {self.file} "
            f"({size_text(self.size)}) into {self.store} ({migrated})."
        )


_FORMATS = {"sqlite": "a SQLite file", "postgresql": "a pg_dump archive"}


def _plural(count: int, word: str) -> str:
    return f"{count:,} {word}{'' if count == 1 else 's'}"


def size_text(size: int) -> str:
    """A file's size for people: ``812 bytes``, ``14.2 kB``, ``3.0 MB``."""
    if size < 1000:
        return f"{size} bytes"
    value = size / 1000
    unit = "kB"
    for larger in ("MB", "GB"):
        if value < 1000:
            break
        value, unit = value / 1000, larger
    return f"{value:.1f} {unit}"


# ---------------------------------------------------------------------- the two commands


def backup(url: str, file: str | Path, force: bool = False) -> Summary:
    """Write a backup of the store at ``url`` to ``file`` (refused if ``file`` exists,
    unless ``force``)."""
    store = _parse(url)
    target = _backup_target(Path(file), force)
    if store.get_backend_name() == "sqlite":
        return _backup_sqlite(store, target, force)
    return _backup_postgres(store, target, force)


def restore(file: str | Path, url: str, force: bool = False) -> Summary:
    """Replace the store at ``url`` with the backup in ``file``, then migrate it to this
    program's schema. A store that has games is only replaced with ``force``; one that
    another process has open (a running server) never is."""
    store = _parse(url)
    source = Path(file)
    kind = _backup_kind(source)
    wanted = store.get_backend_name()
    if kind != wanted:
        hint = (
            "--db sqlite:///PATH"
            if kind == "sqlite"
            else "--db postgresql+psycopg://USER@HOST/DATABASE"
        )
        raise BackupError(
            f"{source} is a {_KIND_NAMES[kind]} backup and {_shown(store)} a {_KIND_NAMES[wanted]} "
            f"store: restore it into a {_KIND_NAMES[kind]} store ({hint})"
        )
    if kind == "sqlite":
        return _restore_sqlite(source, store, force)
    return _restore_postgres(source, store, force)


_KIND_NAMES = {"sqlite": "SQLite", "postgresql": "PostgreSQL"}


# ---------------------------------------------------------------------- what both share


def _parse(url: str) -> URL:
    """The store's URL, checked: SQLite on a file, or PostgreSQL."""
    url = with_driver(url)  # as connect() reads it
    try:
        parsed = make_url(url)
    except ArgumentError:
        raise BackupError(
            f"{url!r} is not a database URL (sqlite:///PATH or postgresql://…)"
        ) from None
    backend = parsed.get_backend_name()
    if backend == "sqlite":
        if not parsed.database or parsed.database == ":memory:" or "mode=memory" in url:
            raise BackupError(f"{url}: a database in memory has nothing to back up or restore")
        return parsed
    if backend == "postgresql":
        return parsed
    raise BackupError(
        f"{_shown(parsed)}: backups are made of SQLite and PostgreSQL stores only, not {backend}"
    )


def _shown(url: URL) -> str:
    """The URL to show: its password hidden, its query as people write it."""
    return unquote(url.render_as_string(hide_password=True))


def _backup_target(file: Path, force: bool) -> Path:
    """Check that a backup may be written at ``file`` (before any work is done)."""
    if file.is_dir():
        raise BackupError(f"{file} is a folder: name the backup file to write")
    if file.exists() and not force:
        raise BackupError(f"{file} exists: choose another name, or --force to replace it")
    folder = file.parent
    if not folder.is_dir():
        raise BackupError(f"cannot write {file}: there is no folder {folder}")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise BackupError(f"cannot write {file}: the folder {folder} is not writable")
    return file


@contextlib.contextmanager
def _scratch(beside: Path, what: str) -> Iterator[Path]:
    """A new, empty hidden file beside ``beside`` (readable by its owner only), removed
    afterwards with whatever SQLite made next to it unless it was moved away."""
    try:
        handle, name = tempfile.mkstemp(
            dir=beside.parent, prefix=f".{beside.name}.", suffix=f".{what}"
        )
    except OSError as error:
        raise BackupError(f"cannot write in {beside.parent}: {_reason(error)}") from None
    os.close(handle)
    path = Path(name)
    try:
        yield path
    finally:
        for leftover in (path, *(Path(f"{path}{end}") for end in ("-wal", "-shm", "-journal"))):
            with contextlib.suppress(FileNotFoundError):
                leftover.unlink()


def _place(done: Path, file: Path, force: bool) -> None:
    """Move the finished ``done`` to ``file`` in one step: without ``force``, never over a
    file that appeared meanwhile."""
    try:
        if force:
            os.replace(done, file)
        else:
            try:
                os.link(done, file)
            except FileExistsError:
                raise BackupError(
                    f"{file} exists: choose another name, or --force to replace it"
                ) from None
            except OSError:  # a file system without hard links
                if file.exists():
                    raise BackupError(
                        f"{file} exists: choose another name, or --force to replace it"
                    ) from None
                os.replace(done, file)
            else:
                done.unlink()
    except OSError as error:
        raise BackupError(f"cannot write {file}: {_reason(error)}") from None
    _sync_folder(file.parent)


def _sync_folder(folder: Path) -> None:
    """Make a rename in ``folder`` durable (where the system can)."""
    with contextlib.suppress(OSError, AttributeError):
        descriptor = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(descriptor)
        finally:
            os.close(descriptor)


def _reason(error: BaseException) -> str:
    """An error's own words, on one line."""
    if isinstance(error, OSError) and error.strerror:
        return error.strerror.lower()
    original = getattr(error, "orig", None)
    if isinstance(error, SQLAlchemyError) and isinstance(original, BaseException):
        error = original
    lines = [line.strip() for line in str(error).splitlines() if line.strip()]
    return lines[0] if lines else type(error).__name__


def _known_revision(revision: str | None, what: str) -> None:
    if revision is None:
        return
    known = {script.revision for script in ScriptDirectory(str(MIGRATIONS)).walk_revisions()}
    if revision not in known:
        raise BackupError(
            f"{what} has schema revision {revision}, newer than this program's "
            f"{SCHEMA_VERSION}: upgrade scoundrel first"
        )


def _counts(connection: Any) -> tuple[int, int, int]:
    """Games, games in play and players, from a DB-API or SQLAlchemy connection."""

    def one(sql: str) -> int:
        if isinstance(connection, Connection):
            return int(connection.execute(text(sql)).scalar_one())
        return int(connection.execute(sql).fetchone()[0])

    return (
        one("SELECT count(*) FROM games"),
        one("SELECT count(*) FROM games WHERE status = 'playing'"),
        one("SELECT count(*) FROM players"),
    )


def _backup_kind(file: Path) -> str:
    """``sqlite`` or ``postgresql``: the kind of backup ``file`` looks like."""
    try:
        with file.open("rb") as handle:
            head = handle.read(len(SQLITE_MAGIC))
    except FileNotFoundError:
        raise BackupError(f"{file}: no such file") from None
    except IsADirectoryError:
        raise BackupError(f"{file} is a folder, not a backup") from None
    except OSError as error:
        raise BackupError(f"cannot read {file}: {_reason(error)}") from None
    if head.startswith(SQLITE_MAGIC):
        return "sqlite"
    if head.startswith(PG_DUMP_MAGIC):
        return "postgresql"
    raise BackupError(
        f"{file} is not a Scoundrel backup (neither a SQLite file nor a pg_dump archive)"
    )


# ---------------------------------------------------------------------- SQLite


def _sqlite_file(url: URL) -> Path:
    return Path(url.database or "")


def _same_file(one: Path, other: Path) -> bool:
    """Whether two paths name the same file (or a store and one of its -wal, -shm files)."""
    for each in (other, *(Path(f"{other}{end}") for end in ("-wal", "-shm", "-journal"))):
        with contextlib.suppress(OSError):
            if one.resolve() == each.resolve() or (one.exists() and one.samefile(each)):
                return True
    return False


def _sqlite_open(path: Path, timeout: float = 30.0) -> sqlite3.Connection:
    """A connection in autocommit to the existing SQLite file ``path`` (never made)."""
    uri = f"{path.resolve().as_uri()}?mode=rw"
    return sqlite3.connect(uri, uri=True, timeout=timeout, isolation_level=None)


def _sqlite_tables(connection: sqlite3.Connection) -> set[str]:
    rows = connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()
    return {str(row[0]) for row in rows}


def _sqlite_revision(connection: sqlite3.Connection, tables: set[str]) -> str | None:
    if "alembic_version" not in tables:
        return None
    row = connection.execute("SELECT version_num FROM alembic_version").fetchone()
    return None if row is None else str(row[0])


def _is_store(tables: set[str]) -> bool:
    return set(STORE_TABLES) <= tables and bool(tables & set(VERSION_TABLES))


def _backup_sqlite(url: URL, file: Path, force: bool) -> Summary:
    source_path = _sqlite_file(url)
    if not source_path.is_file():
        raise BackupError(f"there is no store at {source_path} (no such file)")
    if _same_file(file, source_path):
        raise BackupError(f"{file} is the store itself: write the backup to another file")
    try:
        source = _sqlite_open(source_path)
    except sqlite3.Error as error:
        raise BackupError(f"cannot open {source_path}: {_reason(error)}") from None
    with contextlib.closing(source), _scratch(file, "partial") as partial:
        try:
            if not _is_store(_sqlite_tables(source)):
                raise BackupError(f"{source_path} is not a Scoundrel store (it has no games table)")
            copy = sqlite3.connect(partial, isolation_level=None)
            with contextlib.closing(copy):
                # one step: every page read in one transaction, the store at one moment
                source.backup(copy)
                copy.execute("PRAGMA journal_mode=DELETE")  # one file, no -wal beside it
                check = copy.execute("PRAGMA quick_check").fetchone()
                if check is None or check[0] != "ok":
                    raise BackupError(f"the copy of {source_path} does not check out: {check}")
                tables = _sqlite_tables(copy)
                games, in_play, players = _counts(copy)
                revision = _sqlite_revision(copy, tables)
        except sqlite3.Error as error:
            raise BackupError(f"cannot back up {source_path}: {_reason(error)}") from None
        size = partial.stat().st_size
        _place(partial, file, force)
    return Summary("sqlite", file, _shown(url), games, in_play, players, size, revision)


def _restore_sqlite(file: Path, url: URL, force: bool) -> Summary:
    target = _sqlite_file(url)
    if not target.parent.is_dir():
        raise BackupError(f"cannot restore into {target}: there is no folder {target.parent}")
    if target.is_dir():
        raise BackupError(f"cannot restore into {target}: it is a folder")
    if _same_file(file, target):
        raise BackupError(f"{file} is the store itself, not a backup of it")
    with _scratch(target, "restoring") as staged:
        # a copy of the backup (and of a -wal beside it, if it is a store's own file) is
        # checked and migrated: the backup itself is only read
        try:
            shutil.copyfile(file, staged)
            if Path(f"{file}-wal").is_file():
                shutil.copyfile(f"{file}-wal", f"{staged}-wal")
        except OSError as error:
            raise BackupError(f"cannot copy {file} beside {target}: {_reason(error)}") from None
        size = file.stat().st_size
        try:
            copy = _sqlite_open(staged)
            with contextlib.closing(copy):
                check = copy.execute("PRAGMA quick_check").fetchone()
                tables = _sqlite_tables(copy)
                if check is None or check[0] != "ok":
                    raise BackupError(f"{file} is damaged: SQLite's check says {check}")
                if not _is_store(tables):
                    raise BackupError(f"{file} is a SQLite file but not a Scoundrel backup")
                revision = _sqlite_revision(copy, tables)
        except sqlite3.Error as error:
            raise BackupError(f"{file} is not a readable backup: {_reason(error)}") from None
        _known_revision(revision, str(file))
        fresh = _check_sqlite_target(target, force)
        try:
            connect(f"sqlite:///{staged}").dispose()  # Alembic, as a server does at start
        except Exception as error:
            raise BackupError(f"cannot migrate the backup of {file}: {_reason(error)}") from None
        try:
            if fresh:  # nothing there, an empty file, or one that is no database
                _place(staged, target, force=target.exists())
            else:
                # the backup API writes the whole store in one transaction of the target's
                into = _sqlite_open(target, timeout=5)
                with contextlib.closing(into):
                    _refuse_if_open(into, target)
                    with contextlib.closing(_sqlite_open(staged)) as ready:
                        ready.backup(into)
        except sqlite3.Error as error:
            raise BackupError(f"cannot restore into {target}: {_reason(error)}") from None
    try:
        done = _sqlite_open(target)
        with contextlib.closing(done):
            games, in_play, players = _counts(done)
    except sqlite3.Error as error:  # pragma: no cover - it was just written
        raise BackupError(f"cannot read {target} after the restore: {_reason(error)}") from None
    return Summary("sqlite", file, _shown(url), games, in_play, players, size, revision)


def _check_sqlite_target(target: Path, force: bool) -> bool:
    """Whether the restore puts a new file at ``target``: there is none, an empty one, or
    (with ``force``) a file that is no SQLite database. Otherwise the store there is written
    over; a store with games, or a database that is no store, only with ``force``."""
    if not target.exists() or target.stat().st_size == 0:
        return True
    try:
        existing = _sqlite_open(target, timeout=5)
        with contextlib.closing(existing):
            tables = _sqlite_tables(existing)
            games = _counts(existing)[0] if _is_store(tables) else None
    except sqlite3.Error as error:
        if not force:
            raise BackupError(
                f"{target} is not a Scoundrel store ({_reason(error)}): --force replaces it"
            ) from None
        return True
    if games is None and tables and not force:
        raise BackupError(
            f"{target} is a SQLite file but not a Scoundrel store: --force replaces it"
        )
    if games and not force:
        raise BackupError(
            f"the store {target} has {_plural(games, 'game')}: --force replaces them "
            "with the backup's"
        )
    return False


def _refuse_if_open(connection: sqlite3.Connection, target: Path) -> None:
    """Refuse a store that another process has open (a running server keeps connections):
    in WAL mode, leaving it needs the only connection, so a failed try tells."""
    mode = connection.execute("PRAGMA journal_mode").fetchone()
    if mode is None or str(mode[0]).lower() != "wal":
        return
    try:
        connection.execute("PRAGMA journal_mode=DELETE")
    except sqlite3.OperationalError:
        raise BackupError(
            f"{target} is open in another process (a running server?): stop the server, "
            "then restore"
        ) from None
    connection.execute("PRAGMA journal_mode=WAL")


# ---------------------------------------------------------------------- PostgreSQL


def pg_program(name: str) -> str:
    """The path of one of PostgreSQL's client programs: on the PATH, or in Debian's
    versioned folders (the newest); a clear error if it is not installed."""
    found = shutil.which(name)
    if found:
        return found
    for pattern in PG_BIN_GLOBS:
        folders = sorted(glob.glob(pattern), key=_version_key, reverse=True)
        for folder in folders:
            candidate = Path(folder) / name
            if os.access(candidate, os.X_OK):
                return str(candidate)
    raise BackupError(
        f"{name} is not installed (PostgreSQL's client programs): install them "
        "(Debian and Ubuntu: apt install postgresql-client) or put them on the PATH"
    )


def _version_key(folder: str) -> tuple[int, ...]:
    return tuple(int(part) for part in re.findall(r"\d+", folder)) or (0,)


def _libpq(url: URL) -> tuple[str, dict[str, str]]:
    """A libpq connection string for ``url`` (for pg_dump, pg_restore and psql) and the
    environment that carries its password (never on a command line)."""
    fields: dict[str, str] = {}
    if url.database:
        fields["dbname"] = url.database
    if url.host:
        fields["host"] = url.host
    if url.port:
        fields["port"] = str(url.port)
    if url.username:
        fields["user"] = url.username
    for key, value in url.query.items():
        fields[key] = value if isinstance(value, str) else value[-1]
    env = dict(os.environ)
    if url.password is not None:
        env["PGPASSWORD"] = str(url.password)
    words = []
    for key, value in fields.items():
        quoted = value.replace("\\", "\\\\").replace("'", "\\'")
        words.append(f"{key}='{quoted}'")
    return " ".join(words), env


def _pg_engine(url: URL) -> Engine:
    """An engine of one connection at a time, none kept (no schema check, no migration)."""
    return create_engine(url, poolclass=NullPool, connect_args={"connect_timeout": 10})


def _last_line(stream: IO[bytes] | bytes | None, otherwise: str = "no message") -> str:
    """The line of a program's error output that says what went wrong (the last error)."""
    data = stream if isinstance(stream, bytes) else (stream.read() if stream else b"")
    lines = [line.strip() for line in data.decode("utf-8", "replace").splitlines()]
    lines = [line for line in lines if line]
    errors = [line for line in lines if "error" in line.lower() or "fatal" in line.lower()]
    return (errors or lines or [otherwise])[-1]


def _backup_postgres(url: URL, file: Path, force: bool) -> Summary:
    pg_dump = pg_program("pg_dump")
    conninfo, env = _libpq(url)
    engine = _pg_engine(url)
    try:
        with engine.connect() as connection:
            # a snapshot of our own, shared with pg_dump: the counts are the dump's
            connection = connection.execution_options(isolation_level="REPEATABLE READ")
            tables = set(inspect(connection).get_table_names())
            if not _is_store(tables):
                raise BackupError(f"{_shown(url)} is not a Scoundrel store (it has no games table)")
            snapshot = str(connection.execute(text("SELECT pg_export_snapshot()")).scalar_one())
            games, in_play, players = _counts(connection)
            revision = None
            if "alembic_version" in tables:
                revision = connection.execute(
                    text("SELECT version_num FROM alembic_version")
                ).scalar()
            with _scratch(file, "partial") as partial:
                done = subprocess.run(
                    [
                        pg_dump,
                        "--format=custom",
                        f"--snapshot={snapshot}",
                        f"--file={partial}",
                        f"--dbname={conninfo}",
                    ],
                    env=env,
                    capture_output=True,
                    check=False,
                )
                if done.returncode != 0:
                    raise BackupError(f"pg_dump failed: {_last_line(done.stderr)}")
                _pg_tables(partial, file)  # pg_restore reads it back
                size = partial.stat().st_size
                _place(partial, file, force)
    except SQLAlchemyError as error:
        raise BackupError(f"cannot back up {_shown(url)}: {_reason(error)}") from None
    finally:
        engine.dispose()
    return Summary(
        "postgresql",
        file,
        _shown(url),
        games,
        in_play,
        players,
        size,
        None if revision is None else str(revision),
    )


#: A table's line in ``pg_restore --list``: ``215; 1259 16390 TABLE public games owner``.
_TOC_TABLE = re.compile(r"^\d+; \d+ \d+ TABLE (\S+) (\S+) ", re.MULTILINE)


def _pg_tables(archive: Path, shown: Path) -> set[str]:
    """The tables a pg_dump archive holds (``pg_restore --list``)."""
    listed = subprocess.run(
        [pg_program("pg_restore"), "--list", str(archive)], capture_output=True, check=False
    )
    if listed.returncode != 0:
        raise BackupError(f"{shown} is not a readable pg_dump archive: {_last_line(listed.stderr)}")
    toc = listed.stdout.decode("utf-8", "replace")
    return {name for schema, name in _TOC_TABLE.findall(toc) if schema == "public"}


def _pg_revision(archive: Path) -> str | None:
    """The schema revision an archive's ``alembic_version`` table holds."""
    listed = subprocess.run(
        [
            pg_program("pg_restore"),
            "--data-only",
            "--table=alembic_version",
            "--file=-",
            str(archive),
        ],
        capture_output=True,
        check=False,
    )
    if listed.returncode != 0:
        raise BackupError(
            f"{archive} is not a readable pg_dump archive: {_last_line(listed.stderr)}"
        )
    lines = listed.stdout.decode("utf-8", "replace").splitlines()
    for number, line in enumerate(lines):
        if line.startswith("COPY ") and "alembic_version" in line:
            value = lines[number + 1].strip() if number + 1 < len(lines) else "\\."
            return None if value == "\\." else value
    return None


def _restore_postgres(file: Path, url: URL, force: bool) -> Summary:
    pg_restore = pg_program("pg_restore")
    psql = pg_program("psql")
    tables = _pg_tables(file, file)
    if not _is_store(tables):
        raise BackupError(f"{file} is a pg_dump archive but not of a Scoundrel store")
    revision = _pg_revision(file) if "alembic_version" in tables else None
    _known_revision(revision, str(file))
    size = file.stat().st_size
    engine = _pg_engine(url)
    try:
        with engine.connect() as connection:
            here = set(inspect(connection).get_table_names())
            if here and not _is_store(here) and not force:
                raise BackupError(
                    f"{_shown(url)} holds tables that are not a Scoundrel store's: --force "
                    "restores beside them"
                )
            games = _counts(connection)[0] if _is_store(here) else 0
            if games and not force:
                raise BackupError(
                    f"the store {_shown(url)} has {_plural(games, 'game')}: --force replaces "
                    "them with the backup's"
                )
            others = connection.execute(
                text(
                    "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                    "AND pid <> pg_backend_pid()"
                )
            ).scalar_one()
            if others:
                raise BackupError(
                    f"{_plural(int(others), 'other connection')} to {_shown(url)} "
                    "(a running server?): stop the server, then restore"
                )
    except SQLAlchemyError as error:
        raise BackupError(f"cannot open {_shown(url)}: {_reason(error)}") from None
    finally:
        engine.dispose()
    _pg_replace(file, url, pg_restore, psql)
    try:
        migrated = connect(url.render_as_string(hide_password=False))
    except Exception as error:
        raise BackupError(
            f"restored {file}, but migrating {_shown(url)} failed ({_reason(error)}): "
            "the server tries again at start"
        ) from None
    try:
        with migrated.connect() as connection:
            games, in_play, players = _counts(connection)
    finally:
        migrated.dispose()
    return Summary("postgresql", file, _shown(url), games, in_play, players, size, revision)


def _pg_replace(file: Path, url: URL, pg_restore: str, psql: str) -> None:
    """Drop the store's tables and load the archive's, in one transaction: psql runs the
    script pg_restore writes, and commits only if pg_restore finished it."""
    conninfo, env = _libpq(url)
    drop = (
        "SET client_min_messages = warning;\n"
        f"DROP TABLE IF EXISTS {', '.join(ALL_TABLES)} CASCADE;\n"
    )
    with tempfile.TemporaryFile() as restore_errors, tempfile.TemporaryFile() as psql_errors:
        loader = subprocess.Popen(
            [
                psql,
                "--no-psqlrc",
                "--quiet",
                "--set=ON_ERROR_STOP=1",
                f"--dbname={conninfo}",
            ],
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            stderr=psql_errors,
            env=env,
        )
        assert loader.stdin is not None
        writer = subprocess.Popen(
            [pg_restore, "--no-owner", "--no-privileges", "--file=-", str(file)],
            stdout=subprocess.PIPE,
            stderr=restore_errors,
        )
        assert writer.stdout is not None
        written = stopped = False
        try:
            loader.stdin.write(b"BEGIN;\n" + drop.encode())
            shutil.copyfileobj(writer.stdout, loader.stdin)
            written = writer.wait() == 0
            if written:  # else psql leaves without a COMMIT: the transaction is rolled back
                loader.stdin.write(b"COMMIT;\n")
            loader.stdin.close()
        except BrokenPipeError:  # psql stopped at an error: nothing was committed
            stopped = True
        finally:
            if writer.poll() is None:  # psql stopped, or an interruption
                stopped = True
                writer.kill()
            with contextlib.suppress(OSError):
                loader.stdin.close()  # psql ends; without a COMMIT, nothing is kept
        loaded = loader.wait() == 0
        writer.wait()
        if not written and not stopped:  # pg_restore's own failure, the first cause
            restore_errors.seek(0)
            said = _last_line(restore_errors, f"exit status {writer.returncode}")
            raise BackupError(f"pg_restore failed, nothing changed: {said}")
        if not loaded or not written:
            psql_errors.seek(0)
            said = _last_line(psql_errors, f"psql's exit status {loader.returncode}")
            raise BackupError(f"the restore failed, nothing changed: {said}")
