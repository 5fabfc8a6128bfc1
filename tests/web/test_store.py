"""The game store on its own: schema migrations, the daily secret (M2), players, and
concurrent moves on one game (compare-and-set on the move count)."""

from __future__ import annotations

import datetime
import json
import re
import threading
import uuid
from collections.abc import Callable
from typing import Any

import pytest
from sqlalchemy import Engine, String, create_engine, func, inspect, select, text

from scoundrel.core import (
    Game,
    IllegalMoveError,
    Record,
    Rules,
    State,
    daily_deal,
    format_cards,
    parse_cards,
    random_deal,
)
from scoundrel.store import (
    SCHEMA_VERSION,
    Conflict,
    Forbidden,
    GameStore,
    NotFound,
    StoreError,
    connect,
    migrate,
    warm,
)
from scoundrel.store.database import games, players, settings
from scoundrel.web.app import create_app

TODAY = datetime.date(2026, 11, 29)


def store_at(engine: Engine, daily_secret: str | None = None, day: Any = None) -> GameStore:
    """A store whose day is ``day`` (TODAY unless given: a daily attempt of a day that is
    over does not go on)."""
    return GameStore(engine, daily_secret=daily_secret, today=day or (lambda: TODAY))


def versions(engine: Engine) -> list[str]:
    """The schema revisions the database says it is at (Alembic keeps exactly one)."""
    with engine.connect() as connection:
        return list(connection.execute(text("SELECT version_num FROM alembic_version")).scalars())


def count(engine: Engine, table: Any) -> int:
    with engine.connect() as connection:
        return int(connection.execute(select(func.count()).select_from(table)).scalar_one())


def first_legal(store: GameStore, game_id: str) -> str:
    return store.state(store.load(game_id)).legal_moves[0].token


def safest(store: GameStore, game_id: str) -> str:
    """The legal move that keeps the heroes healthiest (so a short test game stays alive)."""
    state = store.state(store.load(game_id))
    return max(
        state.legal_moves,
        key=lambda move: sum(hero.health for hero in state.preview(move).heroes),
    ).token


# ---------------------------------------------------------------------- the schema


def test_migrate_twice_is_harmless(db_url: str) -> None:
    engine = connect(db_url)  # creates the schema
    assert versions(engine) == [SCHEMA_VERSION]
    store = store_at(engine)
    player = store.ensure_player(None)
    game = store.start(player, "random", Rules.solo())
    store.play(game.id, player, first_legal(store, game.id))

    assert migrate(engine) == SCHEMA_VERSION
    assert migrate(engine) == SCHEMA_VERSION
    assert versions(engine) == [SCHEMA_VERSION]
    again = connect(db_url)  # a second start on the same database
    assert versions(again) == [SCHEMA_VERSION]
    kept = store_at(again).load(game.id)
    assert kept.moves == store.load(game.id).moves
    assert len(kept.moves) == 1
    assert count(again, games) == 1


def test_a_started_server_has_its_connections_open(db_url: str) -> None:
    """The pool is filled before the first player comes (a database server starts a
    session per connection, which the first players would otherwise wait for)."""
    engine = connect(db_url)
    engine.dispose()
    assert engine.pool.checkedin() == 0
    opened = warm(engine)
    assert opened == engine.pool.size() > 1
    assert engine.pool.checkedin() == opened  # open, and back in the pool
    assert engine.pool.checkedout() == 0


def test_a_newer_schema_is_refused(db_url: str) -> None:
    engine = connect(db_url)
    with engine.begin() as connection:
        connection.execute(text("UPDATE alembic_version SET version_num = '9999'"))
    with pytest.raises(RuntimeError, match="upgrade scoundrel"):
        migrate(engine)
    assert versions(engine) == ["9999"]


def test_an_unknown_hand_made_schema_version_is_refused(db_url: str) -> None:
    engine = create_engine(db_url)
    with engine.begin() as connection:
        connection.execute(text("CREATE TABLE schema_info (version INTEGER NOT NULL)"))
        connection.execute(text("INSERT INTO schema_info (version) VALUES (3)"))
    with pytest.raises(RuntimeError, match=r"schema version 3.*upgrade scoundrel"):
        migrate(engine)


def test_servers_starting_together_migrate_once(db_url: str) -> None:
    """Two servers open a fresh database at the same moment: one makes the schema, the
    other waits for it and finds it made."""
    engines = [create_engine(db_url) for _ in range(3)]
    results: list[object] = []

    def run(engine: Engine) -> None:
        try:
            results.append(migrate(engine))
        except Exception as error:  # collected for the assertion below
            results.append(error)

    threads = [threading.Thread(target=run, args=(engine,)) for engine in engines]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert results == [SCHEMA_VERSION] * 3
    assert versions(engines[0]) == [SCHEMA_VERSION]


# The schema as version 1 made it (before hints were counted), as SQLite has it
# (PostgreSQL spells DATETIME as TIMESTAMP WITH TIME ZONE).
SCHEMA_1 = [
    """CREATE TABLE players (id VARCHAR(36) NOT NULL PRIMARY KEY, nickname VARCHAR(40),
    created_at DATETIME NOT NULL)""",
    """CREATE TABLE games (id VARCHAR(24) NOT NULL PRIMARY KEY,
    player_id VARCHAR(36) NOT NULL REFERENCES players (id), mode VARCHAR(8) NOT NULL,
    daily_date VARCHAR(10), ruleset VARCHAR(8) NOT NULL, options TEXT NOT NULL,
    deck TEXT NOT NULL, moves TEXT NOT NULL, move_count INTEGER NOT NULL,
    status VARCHAR(8) NOT NULL, score INTEGER, undo_count INTEGER NOT NULL,
    created_at DATETIME NOT NULL, updated_at DATETIME NOT NULL, finished_at DATETIME)""",
    "CREATE INDEX ix_games_player_id ON games (player_id)",
    """CREATE UNIQUE INDEX one_daily_attempt ON games (player_id, daily_date, ruleset)
    WHERE mode = 'daily'""",
    "CREATE INDEX daily_board ON games (daily_date, ruleset, status)",
    "CREATE TABLE settings (key VARCHAR(40) NOT NULL PRIMARY KEY, value TEXT NOT NULL)",
    "CREATE TABLE schema_info (version INTEGER NOT NULL)",
    "INSERT INTO schema_info (version) VALUES (1)",
]


@pytest.mark.parametrize("old_version", [1, 2])
def test_an_old_database_is_upgraded_in_place(db_url: str, old_version: int) -> None:
    """A database made by schema 1 (before hints were counted) or schema 2 (hand-made
    migrations, before Alembic) is brought to the newest revision: its games keep their
    moves and scores, count 0 hints (schema 1), and go on being played and hinted."""
    rules = Rules.solo()
    finished = Game(rules, seed=1)
    while not finished.is_over:
        finished.play(finished.state.legal_moves[0])
    playing = Game(rules, seed=2)
    playing.play(playing.state.legal_moves[0])
    old = create_engine(db_url)
    stamp = "2026-11-28 10:00:00.000000"
    with old.begin() as connection:
        for statement in SCHEMA_1:
            if old.dialect.name == "postgresql":
                statement = statement.replace("DATETIME", "TIMESTAMP WITH TIME ZONE")
            connection.execute(text(statement))
        connection.execute(
            text("INSERT INTO players (id, created_at) VALUES (:id, :stamp)"),
            {"id": "8a0c7e3e-35d5-4bb4-9f3c-0a4c6ff7a001", "stamp": stamp},
        )
        for game_id, game in (("old-finished", finished), ("old-playing", playing)):
            record = game.record
            connection.execute(
                text(
                    "INSERT INTO games VALUES (:id, :player, 'random', NULL, 'solo', :options, "
                    ":deck, :moves, :count, :status, :score, 1, :stamp, :stamp, :finished)"
                ),
                {
                    "id": game_id,
                    "player": "8a0c7e3e-35d5-4bb4-9f3c-0a4c6ff7a001",
                    "options": json.dumps(rules.options),
                    "deck": format_cards(record.deck),
                    "moves": " ".join(move.token for move in record.moves),
                    "count": len(record.moves),
                    "status": game.state.status.value,
                    "score": game.state.score,
                    "stamp": stamp,
                    "finished": stamp if game.is_over else None,
                },
            )
        if old_version == 2:  # what schema 2's hand-made migration did
            connection.execute(
                text("ALTER TABLE games ADD COLUMN hint_count INTEGER NOT NULL DEFAULT 0")
            )
            connection.execute(text("UPDATE schema_info SET version = 2"))
    old.dispose()
    before = inspect(create_engine(db_url)).get_columns("games")
    assert ("hint_count" in {column["name"] for column in before}) == (old_version == 2)

    engine = connect(db_url)  # migrates
    assert versions(engine) == [SCHEMA_VERSION]
    inspector = inspect(engine)
    assert "hint_count" in {column["name"] for column in inspector.get_columns("games")}
    assert not inspector.has_table("schema_info")
    assert {"seats", "transfers"} <= set(inspector.get_table_names())
    store = store_at(engine)
    player = "8a0c7e3e-35d5-4bb4-9f3c-0a4c6ff7a001"
    done = store.load("old-finished")
    assert (done.hint_count, done.undo_count, done.score) == (0, 1, finished.state.score)
    assert store.state(done).score == finished.state.score
    (stats,) = store.stats(player)
    assert stats["best"] == finished.state.score
    assert stats["best_without_help"] is None  # it had an undo
    # the game in play goes on and counts its hints
    assert store.count_hint("old-playing", player).hint_count == 1
    stored, _ = store.play("old-playing", player, first_legal(store, "old-playing"))
    assert (len(stored.moves), stored.hint_count) == (2, 1)
    with pytest.raises(Conflict, match="over"):
        store.count_hint("old-finished", player)
    assert migrate(engine) == SCHEMA_VERSION  # and again: nothing to do
    assert store.load("old-playing").hint_count == 1
    assert partial_indexes(engine) == PARTIAL


#: The indexes of games searched only by a value of their first column, and the column a
#: game must have set to be in each (revision 0004; 0008 the games sent from offline).
PARTIAL = {
    "game_invite": "invite",
    "daily_client": "client",
    "daily_board": "daily_date",
    "offline_game": "offline_key",
}


def partial_indexes(engine: Engine) -> dict[str, str]:
    """Each partial index of ``games`` with the column its condition asks to be set."""
    found = {}
    for index in inspect(engine).get_indexes("games"):
        options = index.get("dialect_options", {})
        where = options.get("sqlite_where", options.get("postgresql_where"))
        if where is not None:
            condition = " ".join(str(where).replace("(", " ").replace(")", " ").split())
            if condition.endswith(" IS NOT NULL"):
                found[index["name"]] = condition.removesuffix(" IS NOT NULL")
    return found


def test_a_random_dungeon_adds_nothing_to_the_indexes_of_days_and_invites(db_url: str) -> None:
    """The indexes searched by an invite, a day's attempts from a client and a day's
    board hold only the games with that column set: a random dungeon played alone has
    none of them, a scored daily attempt has its day and client."""
    engine = connect(db_url)
    assert partial_indexes(engine) == PARTIAL
    store = store_at(engine)
    player = store.ensure_player(None)
    store.start(player, "random", Rules.solo())
    day = datetime.date(2026, 12, 2)
    daily = store.start(player, "daily", Rules.solo(), today=day, client="c" * 64)
    with engine.connect() as connection:
        for name, column in PARTIAL.items():
            rows = connection.execute(
                select(games.c.id).where(getattr(games.c, column).is_not(None))
            ).all()
            expected = [] if name in ("game_invite", "offline_game") else [daily.id]
            assert [row.id for row in rows] == expected, name


# ---------------------------------------------------------------------- the daily secret


def test_the_daily_secret_is_made_once_and_kept(db_url: str) -> None:
    """M2: the server's secret is stored the first time, so the day's dungeon survives a
    restart."""
    first = store_at(connect(db_url))
    second = store_at(connect(db_url))  # a "restart" on the same database
    assert first.daily_secret == second.daily_secret
    assert len(first.daily_secret) == 32
    assert count(second.engine, settings) == 1

    anna = first.ensure_player(None)
    ben = second.ensure_player(None)
    mine = first.start(anna, "daily", Rules.solo(), today=TODAY)
    theirs = second.start(ben, "daily", Rules.solo(), today=TODAY)
    assert mine.deck == theirs.deck
    expected = daily_deal(Rules.solo(), TODAY, first.daily_secret)
    assert parse_cards(mine.deck) == expected
    # without the secret nobody can compute the day's deck in advance
    assert expected != daily_deal(Rules.solo(), TODAY)
    # the same player asking again, on either server, gets the same attempt
    assert second.start(anna, "daily", Rules.solo(), today=TODAY).id == mine.id


def test_the_daily_deal_survives_a_restart_of_the_app(db_url: str) -> None:
    from fastapi.testclient import TestClient

    def first_room() -> list[str]:
        app = create_app(db_url, today=lambda: TODAY)
        with TestClient(app) as client:  # a new player each time
            response = client.post("/api/games", json={"mode": "daily"})
            assert response.status_code == 201
            room: list[str] = response.json()["room"]
            return room

    assert first_room() == first_room()


def test_a_given_daily_secret_is_used_but_not_stored(db_url: str) -> None:
    stored = store_at(connect(db_url)).daily_secret
    given = store_at(connect(db_url), daily_secret="s3cret")
    assert given.daily_secret == "s3cret"
    assert store_at(connect(db_url)).daily_secret == stored
    player = given.ensure_player(None)
    game = given.start(player, "daily", Rules.coop(), today=TODAY)
    assert parse_cards(game.deck) == daily_deal(Rules.coop(), TODAY, "s3cret")


def test_a_daily_dealt_with_another_secret_is_kept_but_not_ranked(db_url: str) -> None:
    """M2: the terminal deals the public dungeon of the day (no secret) into the same store
    as a server with its own secret: the game is kept in the player's records, the server's
    leaderboard ranks only its own deal, and a player's day stays one deal."""
    store = store_at(connect(db_url), daily_secret="server")
    terminal = store.ensure_player(None)
    browser = store.ensure_player(None)
    public = store.start(terminal, "daily", Rules.solo(), today=TODAY, secret=None)
    assert parse_cards(public.deck) == daily_deal(Rules.solo(), TODAY)
    own = store.start(browser, "daily", Rules.solo(), today=TODAY)
    assert parse_cards(own.deck) == daily_deal(Rules.solo(), TODAY, "server")
    for player, game in ((terminal, public), (browser, own)):
        while not store.load(game.id).is_over:
            store.play(game.id, player, first_legal(store, game.id))
    board = store.leaderboard(TODAY.isoformat(), "solo", viewer=browser)
    assert [entry["you"] for entry in board] == [True]  # the public deal is not ranked here
    assert [game.id for game in store.history(terminal)] == [public.id]
    # the same player's day is one deal: asking with the other secret is refused
    with pytest.raises(Conflict, match="another secret"):
        store.start(terminal, "daily", Rules.solo(), today=TODAY)
    assert store.start(terminal, "daily", Rules.solo(), today=TODAY, secret=None).id == public.id


def test_a_random_dungeon_from_a_given_deck(db_url: str) -> None:
    """The terminal's --seed and --load: a random dungeon dealt from a deck it brings."""
    store = store_at(connect(db_url))
    player = store.ensure_player(None)
    deck = daily_deal(Rules.coop(), TODAY)
    game = store.start(player, "random", Rules.coop(), deck=deck)
    assert parse_cards(game.deck) == deck
    with pytest.raises(StoreError, match="random dungeon"):
        store.start(player, "daily", Rules.solo(), today=TODAY, deck=deck)


def test_daily_games_are_played_with_the_standard_options(db_url: str) -> None:
    store = store_at(connect(db_url))
    player = store.ensure_player(None)
    with pytest.raises(StoreError, match="standard options"):
        store.start(player, "daily", Rules.solo(weapon="lenient"), today=TODAY)
    with pytest.raises(StoreError, match="mode"):
        store.start(player, "weekly", Rules.solo())
    assert store.count_games() == 0


# ---------------------------------------------------------------------- players


def test_players(db_url: str) -> None:
    store = store_at(connect(db_url))
    made = store.ensure_player(None)
    assert str(uuid.UUID(made)) == made
    assert store.ensure_player(made) == made
    assert store.ensure_player(made.upper()) == made  # the same id, written otherwise
    assert store.ensure_player("not-a-uuid") not in (made, "not-a-uuid")
    chosen = str(uuid.uuid4())
    assert store.ensure_player(chosen) == chosen  # an unknown id (a new database)
    assert store.nickname(made) is None
    assert store.set_nickname(made, " Anna\t Maria ") == "Anna Maria"
    assert store.nickname(made) == "Anna Maria"
    with pytest.raises(StoreError):
        store.set_nickname(made, "<b>")
    assert store.nickname(made) == "Anna Maria"


def test_times_are_kept_alike_however_a_row_is_written(db_url: str) -> None:
    """A new game and a move are written straight through the SQLite driver, a player
    through SQLAlchemy: every time is kept in the same form (SQLAlchemy's), so they sort
    and read back alike (the driver's own conversion added the time zone, and is
    deprecated)."""
    engine = connect(db_url)
    store = store_at(engine)
    player = store.ensure_player(None)
    game = store.start(player, "random", Rules.solo())
    store.play(game.id, player, first_legal(store, game.id))
    columns = (games.c.created_at, games.c.updated_at)
    with engine.connect() as connection:
        row = connection.execute(select(*columns).where(games.c.id == game.id)).one()
        kept = connection.execute(
            select(
                func.cast(games.c.created_at, String), func.cast(games.c.updated_at, String)
            ).where(games.c.id == game.id)
        ).one()
        made = connection.execute(
            select(func.cast(players.c.created_at, String)).where(players.c.id == player)
        ).scalar_one()
    if engine.dialect.name == "sqlite":  # text: one form for all
        form = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{6}$")
        assert all(form.match(text) for text in (*kept, made)), (kept, made)
    assert row.created_at <= row.updated_at


def test_the_stores_own_time_text_is_sqlalchemys() -> None:
    """A move's write makes the text of a time itself on SQLite (faster): for every kind of
    value it is exactly what SQLAlchemy would have written."""
    from sqlalchemy.dialects import sqlite

    from scoundrel.store.games import _processor

    dialect = sqlite.dialect()
    kind = games.c.updated_at.type.dialect_impl(dialect)
    ours, theirs = _processor(kind, dialect), kind.bind_processor(dialect)
    assert ours is not theirs
    utc, east = datetime.UTC, datetime.timezone(datetime.timedelta(hours=5, minutes=30))
    values = [
        datetime.datetime(2026, 12, 3, 5, 0, 25, 123456, tzinfo=utc),
        datetime.datetime(2026, 12, 3, 5, 0, 25, tzinfo=utc),  # no microseconds
        datetime.datetime(2026, 1, 2, 3, 4, 5, 6),  # no zone
        datetime.datetime(999, 3, 4, 5, 6, 7, 8, tzinfo=east),
        datetime.datetime(9999, 12, 31, 23, 59, 59, 999999, tzinfo=east),
        datetime.date(2026, 12, 3),
        None,
    ]
    for value in values:
        assert ours(value) == theirs(value), value


def test_games_belong_to_their_player(db_url: str) -> None:
    store = store_at(connect(db_url))
    anna, ben = store.ensure_player(None), store.ensure_player(None)
    game = store.start(anna, "random", Rules.solo())
    with pytest.raises(NotFound):
        store.play(game.id, ben, first_legal(store, game.id))
    with pytest.raises(NotFound):
        store.undo(game.id, ben)
    with pytest.raises(NotFound):
        store.load("nope")
    assert store.load(game.id).moves == ()


def test_undo(db_url: str) -> None:
    store = store_at(connect(db_url))
    player = store.ensure_player(None)
    game = store.start(player, "random", Rules.coop())
    with pytest.raises(Conflict):
        store.undo(game.id, player)
    token = first_legal(store, game.id)
    stored, state = store.play(game.id, player, token)
    assert stored.moves == (token,)
    stored, state = store.undo(game.id, player)
    assert (stored.moves, stored.undo_count) == ((), 1)
    assert state == State.new(Rules.coop(), parse_cards(game.deck))
    daily = store.start(player, "daily", Rules.solo(), today=TODAY)
    store.play(daily.id, player, first_legal(store, daily.id))
    with pytest.raises(Forbidden):
        store.undo(daily.id, player)


def test_a_whole_game_in_the_store(db_url: str) -> None:
    store = store_at(connect(db_url))
    player = store.ensure_player(None)
    game = store.start(player, "random", Rules.solo())
    while not store.load(game.id).is_over:
        store.play(game.id, player, first_legal(store, game.id))
    stored = store.load(game.id)
    replayed = Record.from_dict(stored.record.to_dict()).replay()
    assert (stored.status, stored.score) == (replayed.status.value, replayed.score)
    assert stored.finished_at is not None
    (stats,) = store.stats(player)
    assert (stats["played"], stats["best"]) == (1, stored.score)
    assert stats["won"] == (stored.status == "won")


# ---------------------------------------------------------------------- concurrency


def race(stores: list[GameStore], actions: list[Callable[[], Any]]) -> list[Any]:
    """Run each action in its own thread. Every action reads the game, then all of them
    write at once: a barrier stands in front of the stores' writes. Returns each action's
    result or exception, in order."""
    barrier = threading.Barrier(len(actions), timeout=10)
    results: list[Any] = [None] * len(actions)
    distinct = list({id(store): store for store in stores}.values())

    def patch(store: GameStore) -> None:
        write = store._write

        def write_after_everybody_read(*args: Any) -> None:
            barrier.wait()
            write(*args)

        store._write = write_after_everybody_read  # type: ignore[method-assign]

    def run(index: int) -> None:
        try:
            results[index] = actions[index]()
        except Exception as error:
            results[index] = error

    for store in distinct:
        patch(store)
    try:
        threads = [threading.Thread(target=run, args=(i,)) for i in range(len(actions))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=30)
    finally:
        for store in distinct:
            del store._write
    return results


@pytest.mark.parametrize(
    "servers", ["two-servers", "two-threads-of-one-server", "one-store-each-thread"]
)
def test_two_moves_at_the_same_move_count(db_url: str, servers: str) -> None:
    """Two writers move the same game at the same move count: exactly one wins, the other
    gets Conflict, and the game holds the winner's move and nothing else."""
    first = store_at(connect(db_url))
    if servers == "two-servers":
        second = store_at(connect(db_url))
    elif servers == "two-threads-of-one-server":
        second = first
    else:
        second = store_at(first.engine)
    stores = [first, second]
    player = first.ensure_player(None)
    game = first.start(player, "random", Rules.solo())
    legal = [move.token for move in first.state(game).legal_moves]
    tokens = [legal[0], legal[-1]]  # two different moves: the last one is the flee
    assert tokens[0] != tokens[1] == "F"
    results = race(
        stores,
        [
            lambda: first.play(game.id, player, tokens[0]),
            lambda: second.play(game.id, player, tokens[1]),
        ],
    )

    conflicts = [r for r in results if isinstance(r, Conflict)]
    wins = [i for i, r in enumerate(results) if isinstance(r, tuple)]
    assert len(conflicts) == 1, results
    assert len(wins) == 1, results
    assert "changed meanwhile" in conflicts[0].message
    winner = tokens[wins[0]]
    start = State.new(Rules.solo(), parse_cards(game.deck))
    for store in stores:
        stored = store.load(game.id)
        assert stored.moves == (winner,)
        assert store.state(stored) == start.apply(winner)
    assert results[wins[0]][1] == start.apply(winner)
    # the loser reloads and plays on: nothing was lost, nothing is doubled
    loser = stores[1 - wins[0]]
    token = first_legal(loser, game.id)
    stored, _ = loser.play(game.id, player, token)
    assert stored.moves == (winner, token)
    assert stores[wins[0]].load(game.id).moves == (winner, token)


def test_a_move_and_an_undo_at_the_same_time(db_url: str) -> None:
    store = store_at(connect(db_url))
    player = store.ensure_player(None)
    game = store.start(player, "random", Rules.solo())
    token = first_legal(store, game.id)
    store.play(game.id, player, token)
    nxt = first_legal(store, game.id)
    results = race(
        [store],
        [lambda: store.play(game.id, player, nxt), lambda: store.undo(game.id, player)],
    )
    assert sum(isinstance(r, Conflict) for r in results) == 1, results
    stored = store.load(game.id)
    if isinstance(results[0], Conflict):  # the undo won
        assert (stored.moves, stored.undo_count) == ((), 1)
    else:
        assert (stored.moves, stored.undo_count) == ((token, nxt), 0)


def test_many_players_at_once_lose_nothing(db_url: str) -> None:
    """Eight threads, each a store on the same database, push moves into one game, retrying
    on Conflict: every accepted move is kept exactly once and the record replays."""
    engine = connect(db_url)
    owner = store_at(engine)
    player = owner.ensure_player(None)
    game = owner.start(player, "random", Rules.coop())
    accepted: list[str] = []
    lock = threading.Lock()
    errors: list[BaseException] = []

    def push(store: GameStore) -> None:
        try:
            for _ in range(200):
                stored = store.load(game.id)
                if stored.is_over:
                    return
                token = store.state(stored).legal_moves[0].token
                try:
                    store.play(game.id, player, token)
                except (Conflict, IllegalMoveError):
                    continue  # somebody else moved first: read again
                with lock:
                    accepted.append(token)
        except BaseException as error:  # pragma: no cover - reported below
            errors.append(error)

    threads = [threading.Thread(target=push, args=(store_at(engine),)) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not errors, errors
    stored = owner.load(game.id)
    assert stored.is_over
    assert len(stored.moves) == len(accepted)
    assert sorted(stored.moves) == sorted(accepted)
    replayed = Game.from_record(stored.record)
    assert (replayed.status.value, replayed.score) == (stored.status, stored.score)


def test_two_first_visits_to_the_daily_dungeon_at_once(db_url: str) -> None:
    """One attempt per player and day, even when two requests race to create it."""
    engine = connect(db_url)
    stores = [store_at(engine), store_at(engine)]
    player = stores[0].ensure_player(None)
    barrier = threading.Barrier(2, timeout=10)
    for store in stores:
        attempt = store.daily_attempt
        calls = [0]

        def first_call_waits(*args: Any, attempt: Any = attempt, calls: list[int] = calls) -> Any:
            found = attempt(*args)
            calls[0] += 1
            if calls[0] == 1:
                barrier.wait()  # both have looked and found nothing
            return found

        store.daily_attempt = first_call_waits  # type: ignore[method-assign]
    results: list[Any] = [None, None]

    def start(index: int) -> None:
        try:
            results[index] = stores[index].start(player, "daily", Rules.solo(), today=TODAY)
        except Exception as error:  # pragma: no cover - reported below
            results[index] = error

    threads = [threading.Thread(target=start, args=(i,)) for i in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert all(not isinstance(r, Exception) for r in results), results
    assert results[0].id == results[1].id
    assert stores[0].count_games() == 1


def test_a_second_server_process_sees_moves_made_by_the_first(db_url: str) -> None:
    """Each store keeps the games it last touched; a move made through another process is
    picked up when the player says how many moves they have seen (``after``)."""
    one, two = store_at(connect(db_url)), store_at(connect(db_url))
    player = one.ensure_player(None)
    game = one.start(player, "random", Rules.solo())
    two.load(game.id)  # the second process has the game at 0 moves
    first = safest(one, game.id)
    one.play(game.id, player, first)
    second = safest(one, game.id)
    stored, _ = two.play(game.id, player, second, after=1)
    assert stored.moves == (first, second)
    assert one.load(game.id).moves == (first, second)
    with pytest.raises(Conflict):
        one.play(game.id, player, safest(one, game.id), after=1)


def test_a_game_in_play_continues_after_a_restart(db_url: str) -> None:
    """Reload, close the browser or restart the server: the same game goes on (the player's
    cookie and the database are all it takes)."""
    from fastapi.testclient import TestClient

    with TestClient(create_app(db_url, today=lambda: TODAY)) as before:
        view = before.post("/api/games", json={"ruleset": "coop"}).json()
        for _ in range(2):  # the healthiest moves: no two of them can end the game
            move = max(view["legal"], key=lambda legal: sum(legal["health"]))["move"]
            view = before.post(f"/api/games/{view['id']}/moves", json={"move": move}).json()
        assert view["status"] == "playing"
        cookies = dict(before.cookies)
    with TestClient(create_app(db_url, today=lambda: TODAY), cookies=cookies) as after:
        current = after.get("/api/games/current").json()["game"]
        assert current == view
        move = current["legal"][0]["move"]
        moved = after.post(f"/api/games/{view['id']}/moves", json={"move": move})
        assert moved.status_code == 200
        assert moved.json()["moves"] == [*view["moves"], move]


# ---------------------------------------------------------------------- one state for every window


#: A deal whose first rooms the healthiest moves get through (eight of them at least).
SAFE_DECK = random_deal(Rules.solo(), 10)


def position(store: GameStore, game_id: str) -> tuple[tuple[str, ...], int, int, str]:
    """What a refused request must leave alone: the moves, undo count, hint count and
    status the database holds."""
    stored = store.load(game_id)
    return stored.moves, stored.undo_count, stored.hint_count, stored.status


def safe_game(store: GameStore, player: str, moves: int) -> str:
    """A random dungeon of the safe deal, ``moves`` healthiest moves into it."""
    game = store.start(player, "random", Rules.solo(), deck=SAFE_DECK)
    for _ in range(moves):
        store.play(game.id, player, safest(store, game.id))
    assert store.load(game.id).status == "playing"
    return game.id


def test_an_undo_from_a_position_the_game_has_left_is_refused(db_url: str) -> None:
    """Issue 34 (one state for every window): an undo names the position its window
    showed (``after`` moves, ``undos`` undos); once the game has left it (another window
    played or undid), the undo is refused as ``stale_position`` and takes nothing back."""
    store = store_at(connect(db_url))
    player = store.ensure_player(None)
    game_id = safe_game(store, player, 2)
    before = position(store, game_id)
    for after, undos in ((1, 0), (3, 0), (2, 1), (0, 0)):
        with pytest.raises(Conflict) as refused:
            store.undo(game_id, player, after=after, undos=undos)
        assert refused.value.reason == "stale_position", (after, undos)
        assert position(store, game_id) == before
    stored, _ = store.undo(game_id, player, after=2, undos=0)  # the position it stands at
    assert (stored.moves, stored.undo_count) == (before[0][:1], 1)
    with pytest.raises(Conflict) as again:  # the same window asking twice
        store.undo(game_id, player, after=2, undos=0)
    assert again.value.reason == "stale_position"
    assert store.load(game_id).moves == before[0][:1]


def test_a_hint_from_a_position_the_game_has_left_is_not_counted(db_url: str) -> None:
    """Issue 34 (one state for every window): a hint asked for on a position the game has
    left is refused (``stale_position``) and not counted; on the position the game stands
    at it is counted once. A second server whose copy of the game is older than the
    database refuses it too (the count is written only where the game still stands)."""
    one, two = store_at(connect(db_url)), store_at(connect(db_url))
    player = one.ensure_player(None)
    game_id = safe_game(one, player, 1)
    two.load(game_id)  # the second server's copy: one move, no undo
    for after, undos in ((0, 0), (2, 0), (1, 1), (None, 1), (0, None)):
        with pytest.raises(Conflict) as refused:
            one.count_hint(game_id, player, after=after, undos=undos)
        assert refused.value.reason == "stale_position", (after, undos)
    assert one.load(game_id).hint_count == 0
    assert one.count_hint(game_id, player, after=1, undos=0).hint_count == 1
    one.play(game_id, player, safest(one, game_id))  # the game moves on, the copy does not
    with pytest.raises(Conflict) as stale:
        two.count_hint(game_id, player, after=1, undos=0)
    assert stale.value.reason == "stale_position"
    assert position(two, game_id)[1:] == (0, 1, "playing")
    assert two.count_hint(game_id, player, after=2, undos=0).hint_count == 2


@pytest.mark.parametrize("action", ["play", "undo", "hint"])
def test_an_undo_and_another_move_do_not_pass_for_the_position_seen(
    db_url: str, action: str
) -> None:
    """Issue 34 (one state for every window): window X saw the game at 5 moves and no
    undo; another window undid the fifth move and played a different one, so the game has
    5 moves again (and 1 undo). X's move, undo or hint, sent with after=5 and undos=0, is
    refused (``stale_position``) although the move count matches, and changes nothing:
    the other window's move stays."""
    store = store_at(connect(db_url))
    player = store.ensure_player(None)
    game_id = safe_game(store, player, 5)
    fifth = store.load(game_id).moves[-1]
    store.undo(game_id, player, after=5, undos=0)
    other = next(
        move.token for move in store.state(store.load(game_id)).legal_moves if move.token != fifth
    )
    store.play(game_id, player, other, after=4, undos=1)
    now = position(store, game_id)
    assert (len(now[0]), now[1], now[0][-1]) == (5, 1, other)
    with pytest.raises(Conflict) as refused:
        if action == "play":
            store.play(game_id, player, safest(store, game_id), after=5, undos=0)
        elif action == "undo":
            store.undo(game_id, player, after=5, undos=0)
        else:
            store.count_hint(game_id, player, after=5, undos=0)
    assert refused.value.reason == "stale_position"
    assert position(store, game_id) == now


def test_another_server_s_undo_and_move_do_not_pass_for_the_position_seen(db_url: str) -> None:
    """Issue 34 (one state for every window), with two servers on one database: the
    second server's copy of the game is the position window X saw (5 moves, no undo);
    through the first server another window undoes the fifth move and plays another. X's
    move and undo through the second server, with after=5 and undos=0, are refused as a
    conflict and change nothing, though the second server's own copy matches them; the
    second server's next move, on the game as it stands, is played."""
    one, two = store_at(connect(db_url)), store_at(connect(db_url))
    player = one.ensure_player(None)
    game_id = safe_game(one, player, 5)
    seen_by_x = two.load(game_id)
    fifth = seen_by_x.moves[-1]
    one.undo(game_id, player, after=5, undos=0)
    other = next(m.token for m in one.state(one.load(game_id)).legal_moves if m.token != fifth)
    one.play(game_id, player, other, after=4, undos=1)
    now = position(one, game_id)
    # X plays what it was shown to be legal: the fifth move's position's healthiest move
    shown = two.state(seen_by_x)
    mine = max(
        shown.legal_moves, key=lambda move: sum(hero.health for hero in shown.preview(move).heroes)
    ).token
    with pytest.raises(Conflict) as played:
        two.play(game_id, player, mine, after=5, undos=0)
    # the second server's copy looks like the position seen, so it is the write's
    # compare-and-set (moves and undo count) that refuses the move
    assert played.value.reason in ("stale_position", "changed_meanwhile")
    assert position(one, game_id) == now
    with pytest.raises(Conflict) as undone:
        two.undo(game_id, player, after=5, undos=0)
    assert undone.value.reason == "stale_position"
    assert position(one, game_id) == now
    stored, _ = two.play(game_id, player, safest(two, game_id), after=5, undos=1)
    assert stored.moves[:5] == now[0] and stored.undo_count == 1


def test_moves_undos_and_hints_without_a_position_still_work(db_url: str) -> None:
    """Issue 34 (one state for every window): an older client sends no ``after`` or no
    ``undos`` (None): what it leaves out is not checked, what it sends still is."""
    store = store_at(connect(db_url))
    player = store.ensure_player(None)
    game_id = safe_game(store, player, 0)
    store.play(game_id, player, safest(store, game_id))  # neither
    store.play(game_id, player, safest(store, game_id), after=1)  # no undos
    store.play(game_id, player, safest(store, game_id), undos=0)  # no after
    assert store.count_hint(game_id, player).hint_count == 1
    assert store.count_hint(game_id, player, after=3).hint_count == 2
    assert store.count_hint(game_id, player, undos=0).hint_count == 3
    stored, _ = store.undo(game_id, player)
    assert (len(stored.moves), stored.undo_count) == (2, 1)
    stored, _ = store.undo(game_id, player, after=2)
    assert (len(stored.moves), stored.undo_count) == (1, 2)
    stored, _ = store.undo(game_id, player, undos=2)
    assert (len(stored.moves), stored.undo_count) == (0, 3)
    # one count given and wrong is still refused
    store.play(game_id, player, safest(store, game_id), undos=3)
    before = position(store, game_id)
    assert (len(before[0]), before[1], before[2]) == (1, 3, 3)
    for refused in (
        lambda: store.play(game_id, player, safest(store, game_id), undos=0),
        lambda: store.play(game_id, player, safest(store, game_id), after=0),
        lambda: store.undo(game_id, player, undos=2),
        lambda: store.undo(game_id, player, after=2),
        lambda: store.count_hint(game_id, player, undos=4),
    ):
        with pytest.raises(Conflict, match="moved on"):
            refused()
        assert position(store, game_id) == before


def test_a_loaded_game_is_listed_but_counts_in_no_record(db_url: str) -> None:
    """Issue 34 (one state for every window; the terminal's --load): a game brought from a
    record file is marked ``loaded``, listed in the player's history, and left out of
    every figure of their stats (games played, wins, best scores, streaks)."""
    store = store_at(connect(db_url))
    player = store.ensure_player(None)
    loaded = [
        store.start(player, "random", Rules.solo(), deck=SAFE_DECK, loaded=True),
        store.start(player, "random", Rules.coop(), loaded=True),
    ]
    assert [game.loaded for game in loaded] == [True, True]
    for game in loaded:
        while not store.load(game.id).is_over:
            store.play(game.id, player, safest(store, game.id))
    assert store.stats(player) == []  # only loaded games finished: no records at all
    dealt = store.start(player, "random", Rules.solo())
    assert not dealt.loaded
    while not store.load(dealt.id).is_over:
        store.play(dealt.id, player, first_legal(store, dealt.id))
    finished = store.load(dealt.id)
    (stats,) = store.stats(player)
    assert (stats["mode"], stats["ruleset"], stats["played"]) == ("random", "solo", 1)
    assert (stats["best"], stats["won"]) == (finished.score, int(finished.status == "won"))
    assert sum(bucket["games"] for bucket in stats["histogram"]) == 1
    listed = {game.id: game.loaded for game in store.history(player)}
    assert listed == {loaded[0].id: True, loaded[1].id: True, dealt.id: False}
    assert [store.load(game.id).loaded for game in loaded] == [True, True]
    assert store_at(store.engine).load(loaded[0].id).loaded  # read back, not the copy


def test_a_database_at_revision_0004_is_upgraded_with_its_games_dealt_here(db_url: str) -> None:
    """Issue 34 (one state for every window; revision 0005): a database at revision 0004
    with a finished game and one in play gains ``games.loaded``, false for both; they keep
    counting in the records and the game in play goes on."""
    from alembic import command
    from alembic.config import Config
    from sqlalchemy import MetaData, Table, insert

    from scoundrel.store.database import MIGRATIONS

    old = create_engine(db_url)
    with old.begin() as connection:
        config = Config()
        config.set_main_option("script_location", str(MIGRATIONS))
        config.attributes["connection"] = connection
        command.upgrade(config, "0004")
    assert versions(old) == ["0004"]
    old_games = Table("games", MetaData(), autoload_with=old)
    assert "loaded" not in old_games.c
    rules = Rules.solo()
    finished = Game(rules, seed=1)
    while not finished.is_over:
        finished.play(finished.state.legal_moves[0])
    playing = Game(rules, seed=10)
    playing.play(playing.state.legal_moves[0])
    player = "8a0c7e3e-35d5-4bb4-9f3c-0a4c6ff7a004"
    stamp = datetime.datetime(2026, 11, 28, 10, tzinfo=datetime.UTC)
    with old.begin() as connection:
        connection.execute(insert(players).values(id=player, created_at=stamp))
        for game_id, game in (("old-finished", finished), ("old-playing", playing)):
            record = game.record
            connection.execute(
                insert(old_games).values(
                    id=game_id,
                    player_id=player,
                    mode="random",
                    ruleset="solo",
                    options=json.dumps(rules.options),
                    deck=format_cards(record.deck),
                    moves=" ".join(move.token for move in record.moves),
                    move_count=len(record.moves),
                    status=game.state.status.value,
                    score=game.state.score,
                    undo_count=0,
                    hint_count=0,
                    created_at=stamp,
                    updated_at=stamp,
                    finished_at=stamp if game.is_over else None,
                )
            )
    old.dispose()

    engine = connect(db_url)  # migrates
    assert versions(engine) == [SCHEMA_VERSION]  # 0005 and every revision after it
    column = next(c for c in inspect(engine).get_columns("games") if c["name"] == "loaded")
    assert column["nullable"] is False
    with engine.connect() as connection:
        kept = dict(connection.execute(select(games.c.id, games.c.loaded)).all())
    assert {key: bool(value) for key, value in kept.items()} == {
        "old-finished": False,
        "old-playing": False,
    }
    store = store_at(engine)
    assert not store.load("old-finished").loaded and not store.load("old-playing").loaded
    (stats,) = store.stats(player)
    assert (stats["played"], stats["best"]) == (1, finished.state.score)
    stored, _ = store.play("old-playing", player, first_legal(store, "old-playing"), 1, undos=0)
    assert len(stored.moves) == 2 and not stored.loaded
    assert store.start(player, "random", rules, loaded=True).loaded


def test_the_migrations_make_the_schema_the_code_declares(db_url: str) -> None:
    """Every table, column and index of ``database.py`` is what the Alembic revisions make
    (a table declared but never migrated would exist in tests and not on a server)."""
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    from scoundrel.store.database import metadata

    engine = connect(db_url)
    with engine.connect() as connection:
        differences = compare_metadata(MigrationContext.configure(connection), metadata)
    assert differences == []
