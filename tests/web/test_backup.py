"""Backups of the game store: ``scoundrel db backup FILE`` while a real server takes moves,
``scoundrel db restore FILE`` into a fresh store, and every game of the restored store
replayed by the core; on SQLite always, on PostgreSQL where ``SCOUNDREL_TEST_POSTGRES``
names a server. Then the refusals: each is one line, exit status 2, and changes nothing."""

from __future__ import annotations

import contextlib
import gc
import json
import os
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from databases import KINDS, database_url
from servers import Player, Server, healthiest, wait_for
from sqlalchemy import create_engine, inspect, text

from scoundrel.cli.main import main
from scoundrel.core import Rules, State, parse_cards
from scoundrel.store import SCHEMA_VERSION, GameStore, connect
from scoundrel.store import backup as backups

SUFFIX = {"sqlite": "sqlite3", "postgresql": "dump"}


def scoundrel(*args: str) -> subprocess.CompletedProcess[str]:
    """The command, in a process of its own (as an operator runs it beside the server)."""
    return subprocess.run(
        [sys.executable, "-m", "scoundrel", *args],
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.fixture(params=KINDS)
def new_store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Callable[[str], str]]:
    """Make a new, empty store of the test's kind: ``new_store(name)`` is its URL."""
    kind = request.param
    with contextlib.ExitStack() as stack:

        def make(name: str) -> str:
            if kind == "sqlite":
                return f"sqlite:///{tmp_path / name}.sqlite3"
            made = contextlib.contextmanager(database_url)(kind, tmp_path)
            return stack.enter_context(made)

        yield make


@dataclass
class Kept:
    """A game as its store keeps it."""

    moves: list[str]
    status: str
    score: int | None


def kept_games(url: str) -> dict[str, Kept]:
    """Every game of the store at ``url``, each checked against the core: its record's
    moves, replayed from its deck under its rules, end where the store says (status and
    score), and its move count is theirs."""
    engine = create_engine(url)
    found: dict[str, Kept] = {}
    try:
        with engine.connect() as connection:
            assert connection.execute(text("SELECT version_num FROM alembic_version")).scalar() == (
                SCHEMA_VERSION
            )
            rows = connection.execute(text("SELECT * FROM games")).mappings().all()
    finally:
        engine.dispose()
    for row in rows:
        rules = Rules.from_options(row["ruleset"], json.loads(row["options"]))
        moves = row["moves"].split()
        state = State.new(rules, parse_cards(row["deck"])).replay(moves)[-1]
        assert row["move_count"] == len(moves), row["id"]
        if row["status"] == "playing":
            assert not state.is_over, row["id"]
        else:
            assert state.status.value == row["status"], row["id"]
            assert state.score == row["score"], row["id"]
        found[row["id"]] = Kept(moves, row["status"], row["score"])
    return found


class Load:
    """Players making moves through the HTTP API, game after game, until told to stop:
    solo players, and two friends at an online co-op table."""

    def __init__(self, server: Server, solo: int = 3) -> None:
        self.server = server
        self.lock = threading.Lock()
        self.acknowledged: dict[str, list[str]] = {}
        """Every game's moves the server has acknowledged so far."""
        self.finished: dict[str, Kept] = {}
        self.errors: list[BaseException] = []
        self.stop = threading.Event()
        self.players: list[Player] = []
        self.threads = [threading.Thread(target=self._solo) for _ in range(solo)]
        self.threads.append(threading.Thread(target=self._coop))

    def start(self) -> Load:
        for thread in self.threads:
            thread.start()
        return self

    def finish(self) -> None:
        self.stop.set()
        for thread in self.threads:
            thread.join(30)
        for player in self.players:
            player.close()
        assert not self.errors, self.errors

    def moves(self) -> int:
        with self.lock:
            return sum(len(moves) for moves in self.acknowledged.values())

    def seen(self) -> tuple[dict[str, list[str]], dict[str, Kept]]:
        """What was acknowledged and finished up to now."""
        with self.lock:
            return {key: list(value) for key, value in self.acknowledged.items()}, dict(
                self.finished
            )

    def _player(self) -> Player:
        player = Player(self.server)
        self.players.append(player)
        return player

    def _note(self, view: dict[str, Any]) -> None:
        with self.lock:
            self.acknowledged[view["id"]] = list(view["moves"])
            if view["status"] != "playing":
                self.finished[view["id"]] = Kept(list(view["moves"]), view["status"], view["score"])

    def _solo(self) -> None:
        player = self._player()
        try:
            while not self.stop.is_set():
                view = player.call("POST", "/api/games", mode="random", ruleset="solo")
                while view["status"] == "playing" and not self.stop.is_set():
                    view = player.call(
                        "POST",
                        f"/api/games/{view['id']}/moves",
                        move=healthiest(view),
                        after=len(view["moves"]),
                    )
                    self._note(view)
        except BaseException as error:  # reported by finish()
            self.errors.append(error)

    def _coop(self) -> None:
        host, guest = self._player(), self._player()
        seats = {1: host, 2: guest}
        try:
            while not self.stop.is_set():
                table = host.call("POST", "/api/tables", ruleset="coop")
                view = guest.call("POST", "/api/tables/join", invite=table["invite"])
                while view["status"] == "playing" and not self.stop.is_set():
                    view = seats[view["to_act"]].call(
                        "POST",
                        f"/api/tables/{view['id']}/moves",
                        move=healthiest(view),
                        after=len(view["moves"]),
                    )
                    self._note(view)
        except BaseException as error:
            self.errors.append(error)


def test_a_backup_taken_under_load_restores_every_game(
    new_store: Callable[[str], str], tmp_path: Path
) -> None:
    """Three backups are taken while players move; each, restored into a fresh store,
    holds every move acknowledged before it began (every game finished by then, whole),
    and every game in it replays. A server started on a restored store knows its players
    (the cookie secret came back with the games) and lets them play on."""
    source = new_store("live")
    kind = "sqlite" if source.startswith("sqlite") else "postgresql"
    server = Server(source).start()
    load = Load(server).start()
    taken: list[tuple[Path, dict[str, list[str]], dict[str, Kept]]] = []
    try:
        wait_for(lambda: len(load.seen()[1]) >= 2, 60, "two finished games")
        for number in range(3):
            before = load.moves()
            acknowledged, finished = load.seen()
            file = tmp_path / f"backup-{number}.{SUFFIX[kind]}"
            done = scoundrel("db", "backup", str(file), "--db", source)
            assert done.returncode == 0, done.stderr
            assert done.stdout.startswith("Backed up ") and str(file) in done.stdout
            taken.append((file, acknowledged, finished))
            wait_for(lambda before=before: load.moves() >= before + 30, 60, "more moves")
        load.finish()
        last = load.seen()[0]
    finally:
        load.stop.set()
        server.stop()
    assert not load.errors, load.errors

    restored, games = "", {}
    for file, acknowledged, finished in taken:
        restored = new_store(f"restored-{file.stem}")
        done = scoundrel("db", "restore", str(file), "--db", restored)
        assert done.returncode == 0, done.stderr
        assert done.stdout.startswith("Restored ")
        games = kept_games(restored)  # every game replays
        for game_id, moves in acknowledged.items():
            assert games[game_id].moves[: len(moves)] == moves, game_id
        for game_id, ended in finished.items():
            assert games[game_id] == ended, game_id
        for game_id, kept in games.items():  # and no move it holds was made up
            assert last[game_id][: len(kept.moves)] == kept.moves, game_id
        assert f"Restored {len(games):,} games" in done.stdout

    again = Server(restored).start()
    try:
        player = load.players[0]
        player.use(again)
        history = player.call("GET", "/api/me")["history"]
        assert history and {game["id"] for game in history} <= games.keys()
    finally:
        again.stop()


# ---------------------------------------------------------------------- refusals


def fill(url: str, games: int = 2) -> list[str]:
    """Make the store at ``url`` and play ``games`` games a few moves into it; returns
    their ids. The store is closed afterwards, as a stopped server's is."""
    engine = connect(url)
    store = GameStore(engine)
    player = store.ensure_player(None)
    made = []
    for _ in range(games):
        stored = store.start(player, "random", Rules.from_options("solo"))
        for _ in range(3):
            state = store.state(stored)
            if state.is_over:
                break
            stored, _state = store.play(stored.id, player, state.legal_moves[0])
        made.append(stored.id)
    engine.dispose()
    del store
    gc.collect()  # the store's own SQLite connections, in reference cycles with it
    return made


def ids(url: str) -> list[str]:
    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            return sorted(connection.execute(text("SELECT id FROM games")).scalars())
    finally:
        engine.dispose()


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """``scoundrel ARGS`` in this process: its exit status, output and error output."""
    status = main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


def refused(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    """``scoundrel ARGS`` refuses with one line and exit status 2: the line."""
    status, out, err = run(capsys, *args)
    assert status == 2, (out, err)
    assert out == "" and err.count("\n") == 1 and "Traceback" not in err, err
    assert err.startswith(f"scoundrel db: {args[1]}: "), err
    return err


@pytest.fixture
def store(tmp_path: Path) -> str:
    """A SQLite store with two games."""
    url = f"sqlite:///{tmp_path / 'store.sqlite3'}"
    fill(url)
    return url


def test_a_backup_is_not_written_over_a_file_without_force(
    capsys: pytest.CaptureFixture[str], store: str, tmp_path: Path
) -> None:
    file = tmp_path / "there"
    file.write_text("keep me")
    assert "there exists: choose another name, or --force" in refused(
        capsys, "db", "backup", str(file), "--db", store
    )
    assert file.read_text() == "keep me"
    status, out, _ = run(capsys, "db", "backup", str(file), "--db", store, "--force")
    assert status == 0 and "Backed up 2 games" in out and "1 player" in out
    assert file.read_bytes().startswith(backups.SQLITE_MAGIC)
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []  # no leftovers


def test_a_restore_over_games_needs_force(
    capsys: pytest.CaptureFixture[str], store: str, tmp_path: Path
) -> None:
    other = f"sqlite:///{tmp_path / 'other.sqlite3'}"
    theirs = fill(other, games=3)
    file = tmp_path / "store.backup"
    assert run(capsys, "db", "backup", str(file), "--db", store)[0] == 0
    before = (tmp_path / "other.sqlite3").read_bytes()
    err = refused(capsys, "db", "restore", str(file), "--db", other)
    assert "has 3 games: --force replaces them" in err
    assert (tmp_path / "other.sqlite3").read_bytes() == before and ids(other) == sorted(theirs)
    status, out, _ = run(capsys, "db", "restore", str(file), "--db", other, "--force")
    assert status == 0 and out.startswith("Restored 2 games")
    assert ids(other) == ids(store)
    kept_games(other)


def test_a_store_in_use_is_not_restored_over(
    capsys: pytest.CaptureFixture[str], store: str, tmp_path: Path
) -> None:
    file = tmp_path / "store.backup"
    assert run(capsys, "db", "backup", str(file), "--db", store)[0] == 0
    target = f"sqlite:///{tmp_path / 'busy.sqlite3'}"
    fill(target, games=1)
    engine = connect(target)  # as a server holds the store open
    try:
        with engine.connect():
            err = refused(capsys, "db", "restore", str(file), "--db", target, "--force")
        assert "is open in another process (a running server?): stop the server" in err
        assert len(ids(target)) == 1
    finally:
        engine.dispose()
    assert run(capsys, "db", "restore", str(file), "--db", target, "--force")[0] == 0
    assert ids(target) == ids(store)


def test_what_is_not_a_backup_is_refused(
    capsys: pytest.CaptureFixture[str], store: str, tmp_path: Path
) -> None:
    target = tmp_path / "new.sqlite3"
    url = f"sqlite:///{target}"
    words = tmp_path / "words.txt"
    words.write_text("not a backup\n")
    assert "is not a Scoundrel backup" in refused(capsys, "db", "restore", str(words), "--db", url)
    foreign = tmp_path / "foreign.sqlite3"
    with contextlib.closing(backups.sqlite3.connect(foreign)) as connection:
        connection.execute("CREATE TABLE notes (line TEXT)")
        connection.commit()
    err = refused(capsys, "db", "restore", str(foreign), "--db", url)
    assert "is a SQLite file but not a Scoundrel backup" in err
    missing = tmp_path / "missing.sqlite3"
    assert "missing.sqlite3: no such file" in refused(
        capsys, "db", "restore", str(missing), "--db", url
    )
    assert "is a folder" in refused(capsys, "db", "restore", str(tmp_path), "--db", url)
    # a pg_dump archive is for a PostgreSQL store, a SQLite backup for a SQLite one
    archive = tmp_path / "store.dump"
    archive.write_bytes(backups.PG_DUMP_MAGIC + b"\x01\x0e\x00")
    err = refused(capsys, "db", "restore", str(archive), "--db", url)
    assert "is a PostgreSQL backup and" in err and "a SQLite store" in err
    file = tmp_path / "store.backup"
    assert run(capsys, "db", "backup", str(file), "--db", store)[0] == 0
    err = refused(capsys, "db", "restore", str(file), "--db", "postgresql://nobody@localhost/x")
    assert "is a SQLite backup and" in err
    assert not target.exists()
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []


def test_a_backup_from_a_newer_program_is_refused(
    capsys: pytest.CaptureFixture[str], store: str, tmp_path: Path
) -> None:
    file = tmp_path / "store.backup"
    assert run(capsys, "db", "backup", str(file), "--db", store)[0] == 0
    with contextlib.closing(backups.sqlite3.connect(file)) as connection:
        connection.execute("UPDATE alembic_version SET version_num = '9999'")
        connection.commit()
    target = tmp_path / "new.sqlite3"
    err = refused(capsys, "db", "restore", str(file), "--db", f"sqlite:///{target}")
    assert "schema revision 9999, newer than this program's" in err
    assert not target.exists()


def test_bad_paths_and_urls_are_refused(
    capsys: pytest.CaptureFixture[str], store: str, tmp_path: Path
) -> None:
    nowhere = tmp_path / "no" / "such" / "folder" / "b.sqlite3"
    err = refused(capsys, "db", "backup", str(nowhere), "--db", store)
    assert "there is no folder" in err
    assert "is a folder" in refused(capsys, "db", "backup", str(tmp_path), "--db", store)
    itself = str(tmp_path / "store.sqlite3")
    err = refused(capsys, "db", "backup", itself, "--db", store, "--force")
    assert "is the store itself" in err
    err = refused(capsys, "db", "restore", itself, "--db", store, "--force")
    assert "is the store itself" in err
    assert len(ids(store)) == 2
    file = str(tmp_path / "b.sqlite3")
    absent = f"sqlite:///{tmp_path / 'absent.sqlite3'}"
    assert "there is no store at" in refused(capsys, "db", "backup", file, "--db", absent)
    assert not (tmp_path / "absent.sqlite3").exists()
    assert "not foo" in refused(capsys, "db", "backup", file, "--db", "foo://somewhere/x")
    assert "is not a database URL" in refused(capsys, "db", "backup", file, "--db", "a b")
    assert "in memory" in refused(capsys, "db", "backup", file, "--db", "sqlite://")
    words = tmp_path / "words.sqlite3"
    words.write_text("no database here\n" * 100)
    assert "not" in refused(capsys, "db", "backup", file, "--db", f"sqlite:///{words}")
    assert not Path(file).exists()
    err = refused(capsys, "db", "backup", file, "--db", "postgresql://nobody@127.0.0.1:1/x")
    assert "cannot back up" in err or "pg_dump" in err
    assert not Path(file).exists()


def test_without_pg_dump_the_backup_says_what_is_missing(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setattr(backups, "PG_BIN_GLOBS", ())
    file = tmp_path / "b.dump"
    err = refused(capsys, "db", "backup", str(file), "--db", "postgresql://u@localhost/x")
    assert "pg_dump is not installed" in err and "postgresql-client" in err
    assert not file.exists()


def test_the_default_store_is_the_data_folder_s(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    from scoundrel.store import default_url

    fill(default_url(), games=1)
    file = tmp_path / "b.sqlite3"
    status, out, _ = run(capsys, "db", "backup", str(file))
    assert status == 0 and out.startswith("Backed up 1 game ") and "1 player" in out
    assert str(tmp_path / "data" / "scoundrel" / "scoundrel.sqlite3") in out


def test_a_restore_migrates_an_older_backup(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A backup of a store at an older schema is restored, then migrated like a store
    a server starts on."""
    from alembic import command
    from alembic.config import Config

    from scoundrel.store.database import MIGRATIONS

    old = tmp_path / "old.sqlite3"
    engine = create_engine(f"sqlite:///{old}")
    with engine.begin() as connection:
        config = Config()
        config.set_main_option("script_location", str(MIGRATIONS))
        config.attributes["connection"] = connection
        command.upgrade(config, "0004")
        connection.execute(
            text("INSERT INTO players (id, created_at) VALUES ('p', '2026-01-01 00:00:00')")
        )
    engine.dispose()
    file = tmp_path / "old.backup"
    status, out, _ = run(capsys, "db", "backup", str(file), "--db", f"sqlite:///{old}")
    assert status == 0 and "schema 0004" in out
    target = f"sqlite:///{tmp_path / 'new.sqlite3'}"
    status, out, _ = run(capsys, "db", "restore", str(file), "--db", target)
    assert status == 0 and f"migrated from schema 0004 to {SCHEMA_VERSION}" in out
    kept_games(target)


@pytest.fixture
def pg_store(tmp_path: Path) -> Iterator[str]:
    yield from database_url("postgresql", tmp_path)


def test_postgres_refusals(
    capsys: pytest.CaptureFixture[str],
    pg_store: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A PostgreSQL store with games is only restored over with --force, never while a
    server is connected; a restore that fails changes nothing."""
    fill(pg_store)
    file = tmp_path / "store.dump"
    status, out, _ = run(capsys, "db", "backup", str(file), "--db", pg_store)
    assert status == 0 and "Backed up 2 games" in out and "a pg_dump archive" in out
    assert file.read_bytes().startswith(backups.PG_DUMP_MAGIC)
    assert "exists" in refused(capsys, "db", "backup", str(file), "--db", pg_store)
    err = refused(capsys, "db", "restore", str(file), "--db", pg_store)
    assert "has 2 games: --force replaces them" in err
    engine = create_engine(pg_store)
    try:
        with engine.connect():
            err = refused(capsys, "db", "restore", str(file), "--db", pg_store, "--force")
        assert "1 other connection to" in err and "stop the server" in err
    finally:
        engine.dispose()
    fill(pg_store, games=1)
    before = ids(pg_store)
    assert len(before) == 3
    broken = tmp_path / "broken.dump"
    broken.write_bytes(file.read_bytes()[: file.stat().st_size // 2])
    err = refused(capsys, "db", "restore", str(broken), "--db", pg_store, "--force")
    assert "is not a readable pg_dump archive" in err
    assert ids(pg_store) == before
    # pg_restore dies halfway through the script: what psql ran of it is rolled back
    real = backups.pg_program("pg_restore")
    halfway = tmp_path / "pg_restore"
    halfway.write_text(
        "#!/bin/sh\n"
        'if [ "$1" = --no-owner ]; then\n'
        f'  "{real}" "$@" | head -c 3000\n'
        "  exit 1\n"
        "fi\n"
        f'exec "{real}" "$@"\n'
    )
    halfway.chmod(0o755)
    monkeypatch.setenv("PATH", f"{tmp_path}:{os.environ['PATH']}")
    err = refused(capsys, "db", "restore", str(file), "--db", pg_store, "--force")
    assert "pg_restore failed, nothing changed" in err, err
    assert ids(pg_store) == before
    monkeypatch.undo()
    status, out, _ = run(capsys, "db", "restore", str(file), "--db", pg_store, "--force")
    assert status == 0 and out.startswith("Restored 2 games")
    assert len(ids(pg_store)) == 2 and set(ids(pg_store)) < set(before)
    kept_games(pg_store)


def test_a_restore_replaces_every_table_of_the_schema(tmp_path: Path) -> None:
    """A PostgreSQL restore drops the tables it knows before pg_restore makes them again: a
    table a new revision adds, missing from that list, would make every restore fail."""
    url = f"sqlite:///{tmp_path / 'fresh.sqlite3'}"
    engine = connect(url)
    try:
        made = set(inspect(engine).get_table_names())
    finally:
        engine.dispose()
    assert made <= set(backups.ALL_TABLES)
    assert set(backups.STORE_TABLES) <= made
