"""The game socket (``/api/play``): new games, moves and undos over one WebSocket, each
answered exactly as the HTTP API answers it, refusals included.

Every test runs on SQLite and on PostgreSQL (the ``db_url`` fixture)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from pydantic import ValidationError
from sqlalchemy import create_engine
from sqlalchemy.exc import OperationalError
from starlette.websockets import WebSocketDisconnect

from conftest import Clock
from scoundrel.core import Rules
from scoundrel.store import GameStore, connect
from scoundrel.web.app import create_app
from scoundrel.web.errors import answer
from scoundrel.web.limits import Limits, Rate
from scoundrel.web.play import MoveIn, move_of

PLAYER = "0f4c6a3e-2b7d-4c1e-9a8b-0123456789ab"


class Socket:
    """A page's game socket: ``ask`` sends one request and returns its answer."""

    def __init__(self, connection: Any) -> None:
        self.connection = connection
        self.asked = 0

    def ask(self, op: str, **fields: Any) -> dict[str, Any]:
        self.asked += 1
        self.connection.send_text(json.dumps({"id": self.asked, "op": op, **fields}))
        answer: dict[str, Any] = self.connection.receive_json()
        assert answer["id"] == self.asked
        return answer

    def send_raw(self, text: str) -> dict[str, Any]:
        self.connection.send_text(text)
        answer: dict[str, Any] = self.connection.receive_json()
        return answer


def player(client: TestClient) -> TestClient:
    """A browser with its cookie, as the table page is once it has asked for anything."""
    assert client.get("/api/games/current").status_code == 200
    return client


def game_of(answer: dict[str, Any]) -> dict[str, Any]:
    assert "game" in answer, answer
    game: dict[str, Any] = answer["game"]
    return game


def test_a_whole_game_over_the_socket_is_the_game_the_api_shows(client: TestClient) -> None:
    with player(client).websocket_connect("/api/play") as connection:
        socket = Socket(connection)
        game = game_of(socket.ask("new", mode="random", ruleset="solo"))
        assert game["status"] == "playing" and game["moves"] == [] and game["owner"] is True
        while game["status"] == "playing":
            move = game["legal"][0]["move"]
            game = game_of(socket.ask("move", game=game["id"], move=move, after=len(game["moves"])))
            shown = client.get(f"/api/games/{game['id']}").json()
            assert shown == game  # the same view, field for field
    assert game["record"] is not None and game["run"]  # over: the record and the run


def test_an_undo_and_a_co_op_game_over_the_socket(client: TestClient) -> None:
    with player(client).websocket_connect("/api/play") as connection:
        socket = Socket(connection)
        game = game_of(socket.ask("new", ruleset="coop", options={"weapon": "lenient"}))
        assert len(game["heroes"]) == 2 and game["options"]["weapon"] == "lenient"
        moved = game_of(socket.ask("move", game=game["id"], move=game["legal"][0]["move"]))
        undone = game_of(socket.ask("undo", game=game["id"]))
        assert undone["moves"] == [] and undone["undo_count"] == 1
        assert undone["room"] == game["room"] and moved["moves"]


def test_refusals_come_in_the_api_s_error_shape_and_change_nothing(
    client: TestClient, other: TestClient
) -> None:
    with player(client).websocket_connect("/api/play") as connection:
        socket = Socket(connection)
        game = game_of(socket.ask("new"))
        while not game["blocked"]:  # a room with a monster: a weapon fight is refused
            game = game_of(socket.ask("new"))
        gid = game["id"]
        illegal = socket.ask("move", game=gid, move=next(iter(game["blocked"])), after=0)
        assert illegal["status"] == 409 and illegal["error"]["code"] == "illegal_move"
        assert illegal["error"]["refusal"]["code"]  # the rule, for the page to name
        notation = socket.ask("move", game=gid, move="ZZ")
        assert notation["status"] == 400 and notation["error"]["code"] == "notation"
        stale = socket.ask("move", game=gid, move=game["legal"][0]["move"], after=3)
        assert (stale["status"], stale["error"]["reason"]) == (409, "stale_position")
        long = socket.ask("move", game=gid, move="x" * 17)
        assert long["status"] == 422 and long["error"]["code"] == "invalid_request"
        assert "move" in long["error"]["message"]
        no_game = socket.ask("move", game="../" * 20, move="F")
        assert (no_game["status"], no_game["error"]["reason"]) == (404, "no_such_game")
        assert "../" not in no_game["error"]["message"]  # not quoted back
        unknown = socket.ask("shuffle", game=gid)
        assert (unknown["status"], unknown["error"]["reason"]) == (400, "unknown_op")
        option = socket.ask("new", options={"weapon": "sharp"})
        assert option["status"] == 400 and option["error"]["code"] == "option"
        nothing = socket.ask("undo", game=gid)
        assert (nothing["status"], nothing["error"]["reason"]) == (409, "nothing_to_undo")
        not_json = socket.send_raw("{not json")
        assert not_json["id"] is None and not_json["error"]["reason"] == "invalid_message"
        not_object = socket.send_raw("[1, 2]")
        assert not_object["status"] == 400 and not_object["error"]["reason"] == "invalid_message"
        long_id = socket.send_raw(json.dumps({"id": "i" * 500, "op": "undo", "game": gid}))
        assert long_id["id"] is None  # not echoed
        connection.send_bytes(b'{"id": 77, "op": "undo", "game": "%s"}' % gid.encode())
        assert connection.receive_json()["id"] == 77  # a binary frame is read the same
        # after all of that, the game is untouched and the socket still plays
        assert client.get(f"/api/games/{gid}").json() == game
        assert game_of(socket.ask("move", game=gid, move=game["legal"][0]["move"], after=0))
    with player(other).websocket_connect("/api/play") as connection:
        theirs = Socket(connection).ask("move", game=gid, move=game["legal"][0]["move"])
        assert (theirs["status"], theirs["error"]["reason"]) == (404, "no_such_game")


def test_the_dungeon_of_the_day_over_the_socket_has_no_undo(client: TestClient) -> None:
    with player(client).websocket_connect("/api/play") as connection:
        socket = Socket(connection)
        daily = game_of(socket.ask("new", mode="daily"))
        assert daily["mode"] == "daily" and daily["daily_date"] == "2026-11-29"
        again = game_of(socket.ask("new", mode="daily"))
        assert again["id"] == daily["id"]  # the day's attempt, resumed
        socket.ask("move", game=daily["id"], move=daily["legal"][0]["move"])
        undo = socket.ask("undo", game=daily["id"])
        assert (undo["status"], undo["error"]["reason"]) == (403, "no_undo_daily")


def test_an_online_table_is_played_through_the_table(client: TestClient) -> None:
    table = player(client).post("/api/tables", json={"ruleset": "coop"}).json()
    with client.websocket_connect("/api/play") as connection:
        refused = Socket(connection).ask("move", game=table["id"], move=table["legal"][0]["move"])
    assert (refused["status"], refused["error"]["reason"]) == (409, "at_a_table")


def test_a_socket_without_the_server_s_cookie_is_refused(
    new_client: Callable[..., TestClient],
) -> None:
    stranger = new_client()
    with pytest.raises(WebSocketDisconnect) as closed, stranger.websocket_connect("/api/play") as s:
        s.receive_text()
    assert closed.value.code == 4401
    forged = new_client(cookies={"scoundrel_player": "0f4c6a3e-2b7d-4c1e-9a8b-123456789abc.x"})
    with pytest.raises(WebSocketDisconnect) as closed, forged.websocket_connect("/api/play") as s:
        s.receive_text()
    assert closed.value.code == 4401


def test_another_site_s_page_may_not_play(client: TestClient) -> None:
    player(client)
    with (
        pytest.raises(WebSocketDisconnect) as closed,
        client.websocket_connect(
            "/api/play", headers={"origin": "https://elsewhere.example"}
        ) as connection,
    ):
        connection.receive_text()
    assert closed.value.code == 4403


def test_a_fault_is_answered_and_the_socket_plays_on(
    client: TestClient, app: FastAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = app.state.store
    with player(client).websocket_connect("/api/play") as connection:
        socket = Socket(connection)
        game = game_of(socket.ask("new"))
        with monkeypatch.context() as patch:
            patch.setattr(store, "undo", lambda *_: 1 / 0)
            fault = socket.ask("undo", game=game["id"])
        assert fault["status"] == 500 and fault["error"]["code"] == "internal"
        assert "ZeroDivision" not in json.dumps(fault)  # no traceback, no internals
        assert game_of(socket.ask("move", game=game["id"], move=game["legal"][0]["move"]))


def test_rate_limits_apply_as_over_http(db_url: str, clock: Clock) -> None:
    limits = Limits(moves=Rate(burst=3, per_second=0.01), new_games=Rate(2, 0.01))
    app = create_app(db_url, today=clock, limits=limits)
    try:
        with TestClient(app) as client, player(client).websocket_connect("/api/play") as c:
            socket = Socket(c)
            game = game_of(socket.ask("new"))
            game_of(socket.ask("new"))
            refused_new = socket.ask("new")
            assert refused_new["status"] == 429 and refused_new["error"]["params"]["wait"] >= 1
            for _ in range(3):  # played or refused, each move takes a token
                socket.ask("move", game=game["id"], move="F")
            before = client.get(f"/api/games/{game['id']}").json()["moves"]
            flood = socket.ask("move", game=game["id"], move="F")
            assert flood["status"] == 429 and flood["error"]["code"] == "rate_limited"
            assert client.get(f"/api/games/{game['id']}").json()["moves"] == before
    finally:
        app.state.analyses.close()
        app.state.hints.close()


def test_a_flood_of_messages_closes_the_socket(client: TestClient) -> None:
    with (
        player(client).websocket_connect("/api/play") as connection,
        pytest.raises(WebSocketDisconnect) as closed,
    ):
        for _ in range(200):
            connection.send_text("{}")
            connection.receive_text()
    assert closed.value.code == 1008


def test_a_move_sqlite_cannot_write_is_a_database_error_and_nothing_changes(
    tmp_path: Path,
) -> None:
    """A move's write goes straight to SQLite's driver: its failure (here, another
    connection holding the write lock past the wait) comes out as SQLAlchemy's error, which
    the API answers 503 ``database_unavailable``."""
    url = f"sqlite:///{tmp_path / 'locked.sqlite3'}"
    connect(url).dispose()  # the schema
    engine = create_engine(url, connect_args={"timeout": 0.05, "check_same_thread": False})
    store = GameStore(engine)
    store.make_player(PLAYER)
    game = store.start(PLAYER, "random", Rules.from_options("solo"))
    move = store.state(game).legal_moves[0]
    holder = sqlite3.connect(tmp_path / "locked.sqlite3")
    holder.execute("BEGIN IMMEDIATE")
    try:
        with pytest.raises(OperationalError) as failed:
            store.play(game.id, PLAYER, move)
    finally:
        holder.rollback()
        holder.close()
    known = answer(failed.value)
    assert known is not None and known[0] == 503
    assert known[1]["error"]["code"] == "database_unavailable"
    assert store.load(game.id).moves == ()
    assert store.play(game.id, PLAYER, move)[0].moves == (move.token,)  # and then it plays
    engine.dispose()


@pytest.mark.parametrize(
    "fields",
    [
        {"move": "KS/w", "after": 3},
        {"move": "F"},
        {"move": "F", "after": None},
        {"move": "x" * 16, "after": 10_000},
        {"move": "x" * 17},
        {"move": ""},
        {"move": "F", "after": -1},
        {"move": "F", "after": 10_001},
        {"move": "F", "after": "3"},
        {"move": "F", "after": 2.0},
        {"move": "F", "after": True},
        {"move": 7},
        {"after": 1},
        {"move": ["F"]},
        {"move": "F", "after": 3, "undos": 2},
        {"move": "F", "undos": 0},
        {"move": "F", "undos": None},
        {"move": "F", "undos": -1},
        {"move": "F", "undos": 10_001},
        {"move": "F", "after": 1, "undos": "2"},
        {"move": "F", "undos": True},
    ],
)
def test_a_move_message_is_read_as_the_model_reads_it(fields: dict[str, Any]) -> None:
    """The socket takes the usual move message as it is, without the model: whatever it
    takes, the model takes alike, and what it does not, the model answers."""
    try:
        body = MoveIn.model_validate(fields)
    except ValidationError:
        with pytest.raises(ValidationError):
            move_of(fields)
    else:
        assert move_of(fields) == (body.move, body.after, body.undos)


# ---------------------------------------------------------------------- one state for every window


def seen(game: dict[str, Any]) -> dict[str, int]:
    """The position a page showing ``game`` names: its moves and undos."""
    return {"after": len(game["moves"]), "undos": game["undo_count"]}


def healthiest(game: dict[str, Any]) -> str:
    """The legal move that leaves the heroes healthiest (a short test game stays alive)."""
    token: str = max(game["legal"], key=lambda legal: sum(legal["health"]))["move"]
    return token


def check_stale(answer: dict[str, Any]) -> None:
    """A refusal because the game has left the position the message named (issue 34)."""
    assert answer["status"] == 409, answer
    assert set(answer["error"]) == {"code", "message", "reason", "params"}, answer
    assert (answer["error"]["code"], answer["error"]["reason"]) == ("conflict", "stale_position")


def test_a_stale_undo_over_the_socket_is_refused_and_changes_nothing(
    client: TestClient, dealt: Callable[[int], None]
) -> None:
    """Issue 34 (one state for every window): ``{"op": "undo", "after", "undos"}`` of a
    position the game has left is answered 409 ``stale_position`` and takes nothing back;
    of the position it stands at, it undoes; a malformed count is 422."""
    dealt(10)  # a deal whose first rooms the healthiest moves get through
    with player(client).websocket_connect("/api/play") as connection:
        socket = Socket(connection)
        first = game_of(socket.ask("new"))
        gid = first["id"]
        first = game_of(socket.ask("move", game=gid, move=healthiest(first), **seen(first)))
        second = game_of(socket.ask("move", game=gid, move=healthiest(first), **seen(first)))
        for stale in (seen(first), {"after": 2, "undos": 1}, {"undos": 1}, {"after": 0}):
            check_stale(socket.ask("undo", game=gid, **stale))
            assert client.get(f"/api/games/{gid}").json() == second
        bad = socket.ask("undo", game=gid, after="two", undos=0)
        assert (bad["status"], bad["error"]["code"]) == (422, "invalid_request")
        assert client.get(f"/api/games/{gid}").json() == second
        undone = game_of(socket.ask("undo", game=gid, **seen(second)))
        assert (undone["moves"], undone["undo_count"]) == (first["moves"], 1)
        check_stale(socket.ask("undo", game=gid, **seen(second)))  # asked twice
        assert client.get(f"/api/games/{gid}").json() == undone


def test_an_undo_and_another_move_over_the_socket_do_not_pass_for_the_position_shown(
    client: TestClient, dealt: Callable[[int], None]
) -> None:
    """Issue 34 (one state for every window): page X shows 5 moves and no undo; page Y
    (its own socket) undoes the fifth move and plays another. X's move and undo over its
    socket, naming after=5 and undos=0, are refused (409 ``stale_position``) although the
    move count matches, and the game keeps Y's move; on the game as it stands X plays."""
    dealt(10)
    with (
        player(client).websocket_connect("/api/play") as x_connection,
        client.websocket_connect("/api/play") as y_connection,
    ):
        x, y = Socket(x_connection), Socket(y_connection)
        shown = game_of(x.ask("new"))
        gid = shown["id"]
        for _ in range(5):
            shown = game_of(x.ask("move", game=gid, move=healthiest(shown), **seen(shown)))
        undone = game_of(y.ask("undo", game=gid, **seen(shown)))
        other = next(m["move"] for m in undone["legal"] if m["move"] != shown["moves"][-1])
        now = game_of(y.ask("move", game=gid, move=other, **seen(undone)))
        assert (len(now["moves"]), now["undo_count"]) == (5, 1)
        check_stale(x.ask("move", game=gid, move=healthiest(shown), **seen(shown)))
        check_stale(x.ask("undo", game=gid, **seen(shown)))
        assert client.get(f"/api/games/{gid}").json() == now
        again = game_of(x.ask("move", game=gid, move=healthiest(now), **seen(now)))
        assert again["moves"][:5] == now["moves"] and again["undo_count"] == 1
