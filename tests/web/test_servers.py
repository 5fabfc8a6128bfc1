"""Reliability with real server processes: a server killed mid-game (SIGKILL) and started
again loses no move, solo and co-op, on SQLite and PostgreSQL; partners connected to two
different server processes follow each other through Redis; with Redis down play goes on
and live updates fall back to polling, then resume; a PostgreSQL restart under load is
survived without restarting the server."""

from __future__ import annotations

import gc
import os
import shutil
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from databases import KINDS, database_url
from servers import (
    Player,
    PostgresCluster,
    Redis,
    Server,
    healthiest,
    next_view,
    wait_for,
)
from sqlalchemy import create_engine, text


@pytest.fixture(params=KINDS)
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    yield from database_url(request.param, tmp_path)


@pytest.fixture
def redis() -> Iterator[Redis]:
    server = Redis().start()
    yield server
    server.stop()


@pytest.fixture
def pg_db(tmp_path: Path) -> Iterator[str]:
    yield from database_url("postgresql", tmp_path)


def table_for_two(host: Player, guest: Player) -> dict[str, Any]:
    table = host.call("POST", "/api/tables", ruleset="coop")
    return guest.call("POST", "/api/tables/join", invite=table["invite"])


def act(players: dict[int, Player], view: dict[str, Any]) -> dict[str, Any]:
    """The player whose turn it is plays the healthiest move (a give is answered by the
    partner's next call)."""
    who = players[view["to_act"]]
    return who.call(
        "POST",
        f"/api/tables/{view['id']}/moves",
        move=healthiest(view),
        after=len(view["moves"]),
    )


def table_in_play_after(players: dict[int, Player], moves: int) -> dict[str, Any]:
    """A table still in play after ``moves`` moves (a bad deal can kill the heroes early
    whatever they do: then the two players open another)."""
    for _ in range(20):
        view = table_for_two(players[1], players[2])
        for _ in range(moves):
            view = act(players, view)
            if view["status"] != "playing":
                break
        else:
            return view
    raise AssertionError(f"no table lived {moves} moves in 20 deals")


def solo_move(player: Player, view: dict[str, Any]) -> dict[str, Any]:
    return player.call(
        "POST", f"/api/games/{view['id']}/moves", move=healthiest(view), after=len(view["moves"])
    )


@pytest.mark.parametrize("ruleset", ["solo", "coop"])
def test_a_game_continues_after_the_server_is_killed(db: str, ruleset: str) -> None:
    server = Server(db).start()
    players: dict[int, Player] = {1: Player(server), 2: Player(server)}
    try:
        if ruleset == "solo":
            for _ in range(20):
                view = players[1].call("POST", "/api/games", mode="random", ruleset="solo")
                for _ in range(6):
                    view = solo_move(players[1], view)
                    if view["status"] != "playing":
                        break
                if view["status"] == "playing":
                    break
        else:
            view = table_in_play_after(players, 8)
        played = list(view["moves"])
        assert view["status"] == "playing" and played

        server.kill()  # SIGKILL: no shutdown at all
        with pytest.raises(httpx.HTTPError):
            players[1].http.get("/api/health")
        server.start()

        path = f"/api/games/{view['id']}" if ruleset == "solo" else f"/api/tables/{view['id']}"
        back = players[1].call("GET", path)
        assert back["moves"] == played  # no move lost
        view = back
        for _ in range(300):
            if view["status"] != "playing":
                break
            view = solo_move(players[1], view) if ruleset == "solo" else act(players, view)
        assert view["status"] in ("won", "lost")
        assert view["moves"][: len(played)] == played
    finally:
        for player in players.values():
            player.close()
        server.kill()


def test_partners_on_two_server_processes_follow_each_other(pg_db: str, redis: Redis) -> None:
    """Hero 1 plays through one server process, hero 2 through another: each move
    reaches the other's socket through Redis."""
    first = Server(pg_db, redis=redis.url).start()
    second = Server(pg_db, redis=redis.url).start()
    one, two = Player(first), Player(second)
    try:
        players = {1: one, 2: two}
        view = table_in_play_after(players, 0)
        with one.socket(view["id"]) as socket_one, two.socket(view["id"]) as socket_two:
            next_view(socket_one, 5)
            next_view(socket_two, 5)
            for _ in range(6):
                if view["status"] != "playing":
                    break
                mover = view["to_act"]
                view = act(players, view)
                watcher = socket_two if mover == 1 else socket_one
                pushed = next_view(watcher, 5, moves=len(view["moves"]))
                assert pushed["game"]["moves"] == view["moves"]
                assert pushed["live"] is True
    finally:
        one.close()
        two.close()
        first.kill()
        second.kill()


def test_with_redis_down_play_goes_on_and_updates_fall_back_to_polling(
    pg_db: str, redis: Redis
) -> None:
    first = Server(pg_db, redis=redis.url).start()
    second = Server(pg_db, redis=redis.url).start()
    one, two = Player(first), Player(second)
    players = {1: one, 2: two}
    try:
        view = table_in_play_after(players, 0)
        with two.socket(view["id"]) as watching:
            assert next_view(watching, 5)["live"] is True
            redis.stop()
            # play goes on: the move is kept, and the partner's screen catches up by polling
            view = act(players, view)
            pushed = next_view(watching, 6, moves=len(view["moves"]))
            assert pushed["game"]["moves"] == view["moves"]
            redis.start()  # the same port: the servers reconnect by themselves

            # both servers notice by themselves that Redis is back
            wait_for(
                lambda: all(
                    httpx.get(f"{server.base}/api/health", timeout=2).json()["live"]
                    for server in (first, second)
                ),
                20,
                "both servers to follow Redis again",
            )
            view = act(players, view)
            pushed = next_view(watching, 5, moves=len(view["moves"]))
            assert pushed["live"] is True  # sent by a server that follows Redis again
    finally:
        one.close()
        two.close()
        first.kill()
        second.kill()


def test_two_people_finish_a_dungeon_through_a_killed_and_restarted_two_worker_server(
    pg_db: str, redis: Redis
) -> None:
    """The whole story: two players, a server of two workers on PostgreSQL and Redis,
    killed and started again halfway; the table goes on to its end over WebSockets."""
    server = Server(pg_db, redis=redis.url, workers=2).start()
    one, two = Player(server), Player(server)
    players = {1: one, 2: two}
    try:
        view = table_in_play_after(players, 10)
        halfway = list(view["moves"])
        server.kill()
        server.start()
        with one.socket(view["id"]) as socket_one, two.socket(view["id"]) as socket_two:
            assert next_view(socket_one, 5)["game"]["moves"] == halfway
            assert next_view(socket_two, 5)["game"]["moves"] == halfway
            for _ in range(300):
                if view["status"] != "playing":
                    break
                view = act(players, view)
            final = next_view(socket_two, 10, moves=len(view["moves"]))["game"]
            assert final["status"] == view["status"] != "playing"
        record = one.call("GET", f"/api/games/{view['id']}/record")
        assert record["moves"].split()[: len(halfway)] == halfway
    finally:
        one.close()
        two.close()
        server.kill()


def test_a_postgres_restart_under_load_is_survived(tmp_path: Path) -> None:
    """Players keep moving while PostgreSQL restarts: requests during the restart may be
    refused (503, nothing written), and afterwards the same server process serves again;
    every move it acknowledged is kept."""
    cluster = PostgresCluster().create()
    server = Server(cluster.url).start()
    acknowledged: dict[str, list[str]] = {}
    failures: list[int] = []
    stop = threading.Event()

    def play(number: int) -> None:
        player = Player(server)
        try:
            view = player.call("POST", "/api/games", mode="random", ruleset="solo")
            while not stop.is_set():
                if view["status"] != "playing":  # a new game may be refused mid-restart too
                    created = player.http.post(
                        "/api/games", json={"mode": "random", "ruleset": "solo"}
                    )
                    if created.status_code >= 300:
                        failures.append(created.status_code)
                        time.sleep(0.1)
                        continue
                    view = created.json()
                response = player.http.post(
                    f"/api/games/{view['id']}/moves",
                    json={"move": healthiest(view), "after": len(view["moves"])},
                )
                if response.status_code == 200:
                    view = response.json()
                    acknowledged[view["id"]] = list(view["moves"])
                else:
                    failures.append(response.status_code)
                    time.sleep(0.1)
                    reload = player.http.get(f"/api/games/{view['id']}")
                    if reload.status_code == 200:
                        view = reload.json()
        except httpx.HTTPError:
            failures.append(0)
        finally:
            player.close()

    threads = [threading.Thread(target=play, args=(n,)) for n in range(4)]
    try:
        for thread in threads:
            thread.start()
        time.sleep(1.0)
        cluster.restart()
        time.sleep(2.0)
        stop.set()
        for thread in threads:
            thread.join(30)
        assert set(failures) <= {503, 409}, failures
        # the same process serves again
        assert httpx.get(f"{server.base}/api/health", timeout=5).status_code == 200
        assert acknowledged
        engine = create_engine(cluster.url)
        with engine.connect() as connection:
            for game_id, moves in acknowledged.items():
                kept = connection.execute(
                    text("SELECT moves FROM games WHERE id = :id"), {"id": game_id}
                ).scalar_one()
                assert kept.split()[: len(moves)] == moves
        engine.dispose()
    finally:
        stop.set()
        server.kill()
        cluster.drop()


def test_a_server_s_start_up_is_kept_out_of_the_collector() -> None:
    """What a server process made before serving is frozen out of the cyclic collector's
    passes, and the youngest objects are collected less often (``settle_collector``, as
    ``serve`` calls it in each process)."""
    from scoundrel.web.app import SERVER_COLLECTOR, settle_collector

    threshold = gc.get_threshold()
    try:
        settle_collector()
        assert gc.get_threshold() == SERVER_COLLECTOR
        assert SERVER_COLLECTOR[0] > threshold[0]
        assert gc.get_freeze_count() > 10_000  # the imports, the application
    finally:
        gc.unfreeze()
        gc.set_threshold(*threshold)


def test_the_served_game_socket_closes_on_a_message_over_4_kib(tmp_path: Path) -> None:
    """``scoundrel serve`` answers the game socket with its own WebSocket settings: a
    message of a few dozen bytes is answered, one past 4 KiB closes that socket (1009,
    message too big) and nothing else; a new socket plays on."""
    import json

    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    server = Server(f"sqlite:///{tmp_path / 'limit.sqlite3'}").start()
    player = Player(server)
    try:
        player.call("GET", "/api/games/current")  # the cookie
        cookie = "; ".join(f"{name}={value}" for name, value in player.http.cookies.items())
        url = f"ws://127.0.0.1:{server.port}/api/play"

        def ask(socket: Any, **message: Any) -> dict[str, Any]:
            socket.send(json.dumps({"id": 1, **message}))
            answer: dict[str, Any] = json.loads(socket.recv(timeout=10))
            return answer

        with connect(url, additional_headers={"Cookie": cookie}, open_timeout=10) as socket:
            assert ask(socket, op="new", mode="random")["game"]["status"] == "playing"
            socket.send(json.dumps({"id": 2, "op": "new", "pad": "x" * 4100}))
            with pytest.raises(ConnectionClosed) as closed:
                socket.recv(timeout=10)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
        with connect(url, additional_headers={"Cookie": cookie}, open_timeout=10) as socket:
            game = player.call("GET", "/api/games/current")["game"]
            view = ask(socket, op="move", game=game["id"], move=healthiest(game), after=0)
            assert view["game"]["moves"] == [healthiest(game)]
    finally:
        player.close()
        server.kill()


def test_the_served_daily_closes_at_midnight_on_the_process_s_own_clock(tmp_path: Path) -> None:
    """The real server under libfaketime, its clock started at 23:58 UTC and running six
    times fast: an attempt at the day's dungeon started before midnight is refused a move
    after it (``daily_closed``), is no longer the player's current game, and its record,
    with the deck, is open now that its day is over (test_midnight.py has the cases)."""
    faketime = shutil.which("faketime")
    if faketime is None:
        if os.environ.get("CI"):
            pytest.fail("CI installs faketime (libfaketime): it is missing")
        pytest.skip("no faketime here (apt-get install faketime)")
    speed = 6
    clock = ("env", "TZ=UTC", faketime, "-f", f"@2026-11-29 23:58:00 x{speed}")
    server = Server(f"sqlite:///{tmp_path / 'midnight.sqlite3'}", prefix=clock).start()
    player = Player(server)
    try:
        view = player.call("POST", "/api/games", mode="daily")
        assert view["daily_date"] == "2026-11-29"
        for _ in range(2):
            view = player.call("POST", f"/api/games/{view['id']}/moves", move=healthiest(view))
        day = player.call("GET", "/api/daily")
        assert day["today"] == "2026-11-29", "the server started too slowly for its fake clock"
        time.sleep((day["next_in"] + 2) / speed)
        late = {"move": healthiest(view)}
        refused = player.http.post(f"/api/games/{view['id']}/moves", json=late)
        assert refused.status_code == 409, refused.text
        assert refused.json()["error"]["reason"] == "daily_closed"
        assert player.call("GET", "/api/daily")["today"] == "2026-11-30"
        assert player.call("GET", "/api/games/current")["game"] is None
        assert player.call("GET", f"/api/games/{view['id']}")["status"] == "closed"
        assert player.http.get(f"/api/games/{view['id']}/record").status_code == 200
    finally:
        player.close()
        server.stop()


def live_workers(server: Server, workers: int) -> set[int]:
    """The worker processes found live by /api/health asked on new connections (each is
    handed to whichever worker accepts it); all ``workers`` of them, or an error."""
    seen: dict[int, bool] = {}
    for _ in range(200):
        answer = httpx.get(f"{server.base}/api/health", timeout=2).json()
        seen[answer["process"]] = answer["live"]
        if len(seen) == workers:
            break
    assert len(seen) == workers, f"only workers {sorted(seen)} answered"
    return {process for process, live in seen.items() if live}


class Partners:
    """Two players at a table, each following it on a socket; a new table whenever the
    last one ends (a bad deal can kill the heroes in a few moves)."""

    def __init__(self, players: dict[int, Player]) -> None:
        self.players = players
        self.view: dict[str, Any] = {"status": "over"}
        self.sockets: dict[int, Any] = {}

    def close(self) -> None:
        for socket in self.sockets.values():
            socket.close()
        self.sockets = {}

    def move(self) -> tuple[dict[str, Any], float]:
        """One move by whoever is to act: what the partner's socket pushed, and how long
        after the move was sent."""
        if self.view["status"] != "playing":
            self.close()
            self.view = table_for_two(self.players[1], self.players[2])
            self.sockets = {hero: self.players[hero].socket(self.view["id"]) for hero in (1, 2)}
            for socket in self.sockets.values():
                next_view(socket, 10)
        mover = self.view["to_act"]
        started = time.monotonic()
        self.view = act(self.players, self.view)
        pushed = next_view(self.sockets[3 - mover], 10, moves=len(self.view["moves"]))
        assert pushed["game"]["moves"] == self.view["moves"]
        return pushed, time.monotonic() - started


def test_live_co_op_across_workers_heals_after_redis_and_postgres_restart(
    tmp_path: Path,
) -> None:
    """Two workers on a private PostgreSQL with a private Redis; partners play a table
    through whichever worker their connections reach. Redis is killed: moves go on and the
    partner's screen follows by polling. Redis is back: within 5 s every worker is live
    again and updates are pushed again (``live``). The same after PostgreSQL restarts. The
    partner's update times are printed (run with -s), never asserted."""
    cluster = PostgresCluster().create()
    redis = Redis().start()
    server = Server(cluster.url, redis=redis.url, workers=2).start()
    one, two = Player(server), Player(server)
    partners = Partners({1: one, 2: two})
    times: dict[str, list[float]] = {}

    def phase(name: str, live: bool | None, moves: int = 3) -> None:
        for _ in range(moves):
            pushed, took = partners.move()
            if live is not None:
                assert pushed["live"] is live, name
            times.setdefault(name, []).append(took)

    try:
        wait_for(lambda: len(live_workers(server, 2)) == 2, 10, "both workers live")
        phase("before", True)
        redis.stop()
        phase("redis down", None)  # polled: the view comes within a second or so
        redis.start()
        wait_for(lambda: len(live_workers(server, 2)) == 2, 5, "both workers live again")
        phase("redis back", True)
        cluster.restart()
        wait_for(lambda: len(live_workers(server, 2)) == 2, 5, "both workers after PG")
        phase("postgres back", True)
    finally:
        for name, taken in times.items():
            print(f"{name}: the partner saw each move in {[round(t * 1000) for t in taken]} ms")
        partners.close()
        one.close()
        two.close()
        server.kill()
        redis.stop()
        cluster.drop()


@pytest.mark.parametrize("proxy", [False, True])
def test_forwarded_addresses_are_trusted_only_behind_a_proxy(tmp_path: Path, proxy: bool) -> None:
    """One scored daily attempt per address (SCOUNDREL_DAILY_PER_ADDRESS=1). Two players
    on this machine whose requests name different clients in X-Forwarded-For: with
    ``--proxy`` they are two addresses, each with its attempt; without it the header is
    not believed and they are one address (loopback), so the second is refused."""
    server = Server(
        f"sqlite:///{tmp_path / 'proxy.sqlite3'}",
        options=("--proxy",) if proxy else (),
        env={"SCOUNDREL_DAILY_PER_ADDRESS": "1"},
    ).start()
    try:
        answers = []
        for client in ("203.0.113.7", "198.51.100.9"):
            with httpx.Client(base_url=server.base, timeout=10) as player:
                headers = {"X-Forwarded-For": client}
                player.get("/api/games/current", headers=headers)
                answers.append(player.post("/api/games", json={"mode": "daily"}, headers=headers))
        statuses = [answer.status_code for answer in answers]
        assert statuses == ([201, 201] if proxy else [201, 429]), [a.text for a in answers]
    finally:
        server.stop()
