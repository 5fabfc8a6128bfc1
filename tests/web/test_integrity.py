"""The server's integrity: what it tells whom, how much it reads, who a player is, how a
player moves to another device, the one shape of its errors, rate limits, security headers,
static files with hashed names, and scored daily attempts per address.

Every test that touches the database runs on SQLite and PostgreSQL (the ``db_url``
fixture, through ``app`` and the clients).
"""

from __future__ import annotations

import asyncio
import datetime
import hashlib
import json
import re
import threading
import uuid
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import func, insert, select, update

import scoundrel.store.games as games_module
from scoundrel.core import Rules, random_deal
from scoundrel.store.database import games, players, transfers
from scoundrel.web.app import STATIC, create_app
from scoundrel.web.assets import tree_hash
from scoundrel.web.guard import BodyLimit, excerpt, shorten_quotes, too_deep
from scoundrel.web.limits import Limits, Rate

View = dict[str, Any]
CODE = re.compile(r"^[0-9A-HJKMNP-TV-Z]{5}-[0-9A-HJKMNP-TV-Z]{5}$")


# ---------------------------------------------------------------------- helpers


def error_of(response: httpx.Response, status: int, code: str) -> str:
    assert response.status_code == status, response.text
    error = response.json()["error"]
    assert set(error) >= {"code", "message"}, error
    assert error["code"] == code, error
    message: str = error["message"]
    return message


def new_game(client: TestClient, **body: Any) -> View:
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.text
    view: View = response.json()
    return view


def safest(view: View) -> str:
    """The legal move that keeps the lowest health highest (so that a game lasts)."""
    best = max(view["legal"], key=lambda entry: (entry["status"] != "lost", min(entry["health"])))
    token: str = best["move"]
    return token


def play_to_end(client: TestClient, view: View) -> View:
    for _ in range(300):
        if view["status"] != "playing":
            return view
        response = client.post(
            f"/api/games/{view['id']}/moves", json={"move": view["legal"][0]["move"]}
        )
        assert response.status_code == 200, response.text
        view = response.json()
    raise AssertionError("the game did not end")


def count(app: FastAPI, table: Any, *where: Any) -> int:
    with app.state.store.engine.connect() as connection:
        query = select(func.count()).select_from(table)
        for condition in where:
            query = query.where(condition)
        return int(connection.execute(query).scalar_one())


def cookie_of(client: TestClient) -> str:
    """A client's player cookie: the one the server set, if the client had one before."""
    cookies = [cookie for cookie in client.cookies.jar if cookie.name == "scoundrel_player"]
    served = [cookie for cookie in cookies if cookie.domain] or cookies
    assert served and served[-1].value, "no player cookie"
    return str(served[-1].value)


def player_of(client: TestClient) -> str:
    """The player id in a client's cookie (the id, then its signature)."""
    return cookie_of(client).partition(".")[0]


@pytest.fixture
def make_app(db_url: str, clock: Any) -> Iterator[Callable[..., FastAPI]]:
    """``make_app(**options)``: another server on the test's database, closed afterwards."""
    made: list[FastAPI] = []

    def make(**options: Any) -> FastAPI:
        options.setdefault("limits", Limits.unlimited())
        application = create_app(db_url, today=clock, **options)
        made.append(application)
        return application

    yield make
    for application in made:
        application.state.analyses.close()
        application.state.hints.close()


@pytest.fixture
def dealt(monkeypatch: pytest.MonkeyPatch) -> None:
    """Random dungeons are one known deal, whose first rooms the safest play survives."""
    monkeypatch.setattr(games_module, "random_deal", lambda rules, *_: random_deal(rules, 1))


# ---------------------------------------------------------------------- 1. the dungeon of the day


def test_another_players_finished_daily_attempt_shows_nothing_before_the_day_is_over(
    client: TestClient, other: TestClient, clock: Any, app: FastAPI
) -> None:
    end = play_to_end(client, new_game(client, mode="daily"))
    game_id = end["id"]
    # the owner sees their own finished attempt (without its deck)
    mine = client.get(f"/api/games/{game_id}")
    assert mine.status_code == 200 and mine.json()["record"] is None
    # nobody else learns anything of it: not its moves, record, replay or analysis
    for response in (
        other.get(f"/api/games/{game_id}"),
        other.get(f"/api/games/{game_id}/record"),
        other.get(f"/api/games/{game_id}/replay"),
    ):
        assert "once the day is over" in error_of(response, 403, "forbidden")
        assert set(response.json()) == {"error"} and len(response.text) < 300
    for response in (
        other.get(f"/api/games/{game_id}/analysis"),
        other.post(f"/api/games/{game_id}/analysis"),
        other.delete(f"/api/games/{game_id}/analysis"),
    ):
        assert "once the day is over" in error_of(response, 403, "daily_not_over")
    error_of(other.get(f"/api/games/{game_id}/hint"), 404, "not_found")
    # the leaderboard names a score and a move count, never the moves or the game
    board = other.get("/api/daily").json()
    (entry,) = board["leaderboard"]
    assert set(entry) == {"rank", "nickname", "score", "won", "moves", "hints", "you"}
    assert entry["moves"] == len(end["moves"]) and entry["you"] is False
    assert game_id not in json.dumps(board)
    assert board["yours"] is None
    assert app.state.analyses.get(game_id) is None
    # the next day, it is a finished game like any other
    clock.today += datetime.timedelta(days=1)
    seen = other.get(f"/api/games/{game_id}")
    assert seen.status_code == 200
    assert seen.json()["moves"] == end["moves"] and seen.json()["owner"] is False
    assert other.get(f"/api/games/{game_id}/record").status_code == 200


# ---------------------------------------------------------------------- 2. sizes


def test_a_huge_body_is_refused_before_it_is_read(client: TestClient, app: FastAPI) -> None:
    body = b'{"options": {"weapon": "' + b"x" * (60 * 1024 * 1024) + b'"}}'
    response = client.post("/api/games", content=body, headers={"content-type": "application/json"})
    message = error_of(response, 413, "too_large")
    assert "16 KiB" in message and len(response.content) < 300
    assert count(app, games) == 0


def test_a_body_without_a_length_is_counted_as_it_arrives(client: TestClient, app: FastAPI) -> None:
    chunks = (b"[" + b" " * 4095 for _ in range(10))  # no Content-Length: chunked
    response = client.post(
        "/api/games", content=chunks, headers={"content-type": "application/json"}
    )
    error_of(response, 413, "too_large")
    assert count(app, games) == 0


def test_the_body_limit_reads_no_more_than_the_limit() -> None:
    """At the ASGI level: a client that never stops sending is cut off after the limit,
    and one that declares too long a body is not read at all."""

    async def run(headers: list[tuple[bytes, bytes]]) -> tuple[int, list[Any], bool]:
        reads = 0
        sent: list[Any] = []
        reached = False

        async def receive() -> dict[str, Any]:
            nonlocal reads
            reads += 1
            return {"type": "http.request", "body": b"x" * 1024, "more_body": True}

        async def send(message: Any) -> None:
            sent.append(message)

        async def application(scope: Any, receive: Any, send: Any) -> None:
            nonlocal reached
            reached = True

        scope = {"type": "http", "method": "POST", "path": "/api/games", "headers": headers}
        await BodyLimit(application, limit=16 * 1024)(scope, receive, send)
        return reads, sent, reached

    reads, sent, reached = asyncio.run(run([]))
    assert reads == 17 and not reached  # 17 KiB read: one chunk past 16 KiB, then stop
    assert sent[0]["status"] == 413
    assert json.loads(sent[1]["body"])["error"]["code"] == "too_large"
    reads, sent, reached = asyncio.run(run([(b"content-length", b"62914560")]))
    assert reads == 0 and not reached and sent[0]["status"] == 413


def test_options_are_few_and_short(client: TestClient, app: FastAPI) -> None:
    long_value = "v" * 5000
    response = client.post("/api/games", json={"options": {"weapon": long_value}})
    message = error_of(response, 422, "invalid_request")
    assert "vvvvvvvvvvvvvvvvvvvvvvvvvv" not in response.text and len(message) < 400
    long_name = "k" * 5000
    response = client.post("/api/games", json={"options": {long_name: "x"}})
    error_of(response, 422, "invalid_request")
    assert "k" * 30 not in response.text and len(response.text) < 600
    many = {f"o{i}": True for i in range(11)}
    assert "10" in error_of(
        client.post("/api/games", json={"options": many}), 422, "invalid_request"
    )
    # within the limits, the core's own message quotes the value, short
    response = client.post("/api/games", json={"options": {"weapon": "w" * 24}})
    message = error_of(response, 400, "option")
    assert "weapon must be strict or lenient" in message and len(message) < 100
    assert count(app, games) == 0


def test_messages_quote_only_a_short_excerpt() -> None:
    assert excerpt("short") == "short"
    assert excerpt("x" * 1000) == "x" * 23 + "…"
    assert len(excerpt("y" * 1000, 10)) == 10
    message = "unknown solo option '" + "z" * 10_000 + "': the options are weapon, death_score"
    shortened = shorten_quotes(message)
    assert len(shortened) < 120
    assert shortened.startswith("unknown solo option 'zzzz") and "z" * 30 not in shortened
    assert shortened.endswith("the options are weapon, death_score")
    assert shorten_quotes("weapon must be strict or lenient, not 'blunt'") == (
        "weapon must be strict or lenient, not 'blunt'"
    )


def test_a_game_id_that_cannot_be_one_is_simply_not_found(client: TestClient) -> None:
    new_game(client)
    for game_id in ("x" * 10_000, "x" * 25, "ü", "a b", "<script>"):
        for method, suffix in (
            ("GET", ""),
            ("POST", "/moves"),
            ("POST", "/undo"),
            ("GET", "/record"),
            ("GET", "/replay"),
            ("GET", "/hint"),
            ("POST", "/analysis"),
            ("GET", "/analysis"),
            ("DELETE", "/analysis"),
        ):
            response = client.request(method, f"/api/games/{game_id}{suffix}", json={"move": "F"})
            assert error_of(response, 404, "not_found") == "there is no such game"
            assert game_id not in response.text and len(response.text) < 200
    # an id of the server's own shape is still named, as before
    assert "'nope'" in error_of(client.get("/api/games/nope"), 404, "not_found")


# ---------------------------------------------------------------------- 3. who a player is


def test_a_visitor_who_only_reads_makes_no_player(client: TestClient, app: FastAPI) -> None:
    for path in ("/", "/rules", "/daily", "/records", "/replay/x", "/api/examples"):
        assert client.get(path).status_code == 200
    for path in ("/api/me", "/api/games/current", "/api/daily", "/api/games/nope"):
        assert client.get(path).status_code in (200, 404)
    assert count(app, players) == 0
    # but the visitor has a signed id already, which stays the same
    first = player_of(client)
    client.get("/api/me")
    assert player_of(client) == first
    assert app.state.identity.verify(client.cookies["scoundrel_player"]) == first
    # the first write makes the row
    new_game(client)
    assert count(app, players) == 1
    assert count(app, players, players.c.id == first) == 1


@pytest.mark.parametrize("path", ["/", "/rules", "/daily", "/records", "/replay/x", "/join/x"])
def test_every_page_brings_a_new_visitor_their_id(
    path: str, new_client: Callable[..., TestClient], app: FastAPI
) -> None:
    """The page's own first requests go out side by side; were the id given only by them,
    each would get a different one and the answer that came last would take the browser
    away from a game started in between. The page itself gives it, once."""
    visitor = new_client()
    answer = visitor.get(path)
    assert answer.status_code == 200
    first = app.state.identity.verify(visitor.cookies["scoundrel_player"])
    assert first is not None
    assert "set-cookie" not in visitor.get(path).headers  # a known visitor is not re-issued
    assert player_of(visitor) == first
    assert count(app, players) == 0  # and reading still makes no row


@pytest.mark.parametrize(
    "write",
    [
        lambda c: c.put("/api/me/nickname", json={"nickname": "Anna"}),
        lambda c: c.post("/api/me/transfer"),
        lambda c: c.post("/api/games", json={"mode": "daily"}),
    ],
    ids=["nickname", "transfer", "daily"],
)
def test_each_kind_of_write_makes_the_player(
    write: Callable[[TestClient], httpx.Response], client: TestClient, app: FastAPI
) -> None:
    assert write(client).status_code in (200, 201)
    assert count(app, players, players.c.id == player_of(client)) == 1


def test_players_made_per_address_are_limited(make_app: Callable[..., FastAPI]) -> None:
    """Writing without a cookie makes a player each time: one address may make only so
    many; a refused write makes nobody, and players who exist write on."""
    app = make_app(limits=replace(Limits.unlimited(), new_players=Rate(3, 0.001)))
    with TestClient(app) as known:
        assert known.put("/api/me/nickname", json={"nickname": "Known"}).status_code == 200
        statuses = []
        for _ in range(4):
            with TestClient(app) as fresh:
                statuses.append(fresh.put("/api/me/nickname", json={"nickname": "X"}).status_code)
        assert statuses == [200, 200, 429, 429]
        assert count(app, players) == 3
        assert known.put("/api/me/nickname", json={"nickname": "Still"}).status_code == 200
        with TestClient(app) as reader:  # reading needs no row, so it is not limited
            assert reader.get("/api/me").status_code == 200


def test_a_forged_or_unsigned_cookie_is_ignored(
    client: TestClient, new_client: Callable[..., TestClient], app: FastAPI
) -> None:
    view = new_game(client)
    victim = player_of(client)
    signature = client.cookies["scoundrel_player"].partition(".")[2]
    for forged in (
        victim,  # the bare id of a player made after signing began
        f"{victim}.{'A' * len(signature)}",
        f"{victim}.",
        f"{uuid.uuid4()}.{signature}",
        str(uuid.uuid4()),
        "x" * 200,
    ):
        intruder = new_client(cookies={"scoundrel_player": forged})
        assert intruder.get("/api/games/current").json() == {"game": None}
        assert intruder.get("/api/me").json()["history"] == []
        error_of(
            intruder.post(f"/api/games/{view['id']}/moves", json={"move": "F"}), 404, "not_found"
        )
        issued = player_of(intruder)
        assert issued != victim and issued != forged.partition(".")[0]
        assert app.state.identity.verify(cookie_of(intruder)) == issued
    assert app.state.store.load(view["id"]).moves == ()


def test_the_cookie_is_signed_with_the_servers_secret(
    client: TestClient, make_app: Callable[..., FastAPI], app: FastAPI
) -> None:
    view = new_game(client)
    cookies = dict(client.cookies)
    # another process of the same server (the secret is kept in the database) knows it
    with TestClient(make_app(), cookies=cookies) as same:
        assert same.get("/api/games/current").json()["game"]["id"] == view["id"]
    # a server with another secret does not
    with TestClient(make_app(cookie_secret="another secret"), cookies=cookies) as elsewhere:
        assert elsewhere.get("/api/games/current").json() == {"game": None}
        assert player_of(elsewhere) != player_of(client)


def test_the_secret_may_come_from_the_environment(
    make_app: Callable[..., FastAPI], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SCOUNDREL_COOKIE_SECRET", "from the environment")
    first, second = make_app(), make_app(cookie_secret="from the environment")
    player_id = str(uuid.uuid4())
    assert first.state.identity.sign(player_id) == second.state.identity.sign(player_id)
    monkeypatch.delenv("SCOUNDREL_COOKIE_SECRET")
    assert make_app().state.identity.sign(player_id) != first.state.identity.sign(player_id)


def test_the_cookie_flags(new_client: Callable[..., TestClient]) -> None:
    plain = new_client()
    header = plain.get("/api/me").headers["set-cookie"].lower()
    assert "httponly" in header and "samesite=lax" in header
    assert f"max-age={10 * 365 * 24 * 3600}" in header
    assert "secure" not in header
    secure = new_client(base_url="https://testserver")
    assert "; secure" in secure.get("/api/me").headers["set-cookie"].lower()


def test_a_player_from_before_signed_cookies_keeps_their_records(
    new_client: Callable[..., TestClient], app: FastAPI
) -> None:
    """A bare UUID cookie naming a player made before signing began is honoured, and the
    answer carries the same id, signed."""
    old = str(uuid.uuid4())
    store = app.state.store
    with store.engine.begin() as connection:
        connection.execute(
            insert(players).values(
                id=old,
                nickname="Veteran",
                created_at=app.state.identity.signed_since - datetime.timedelta(days=30),
            )
        )
    game = store.start(old, "random", Rules.solo())
    veteran = new_client(cookies={"scoundrel_player": old})
    me = veteran.get("/api/me").json()
    assert me["nickname"] == "Veteran"
    assert [entry["id"] for entry in me["history"]] == [game.id]
    cookie = cookie_of(veteran)
    assert cookie.startswith(old + ".")
    assert app.state.identity.verify(cookie) == old
    assert veteran.get("/api/games/current").json()["game"]["id"] == game.id
    # an unknown bare UUID is a new player, not that id
    stranger = new_client(cookies={"scoundrel_player": str(uuid.uuid4())})
    assert stranger.get("/api/me").json()["history"] == []


# ---------------------------------------------------------------------- 4. transfer codes


def make_code(client: TestClient) -> View:
    response = client.post("/api/me/transfer")
    assert response.status_code == 201, response.text
    made: View = response.json()
    return made


def test_a_transfer_code_carries_the_player_to_another_device(
    client: TestClient, new_client: Callable[..., TestClient], app: FastAPI
) -> None:
    assert client.put("/api/me/nickname", json={"nickname": "Anna"}).status_code == 200
    finished = play_to_end(client, new_game(client))
    daily = new_game(client, mode="daily")
    anna = player_of(client)
    made = make_code(client)
    assert CODE.match(made["code"]), made
    expires = datetime.datetime.fromisoformat(made["expires_at"])
    left = expires - datetime.datetime.now(datetime.UTC)
    assert datetime.timedelta(minutes=14) < left <= datetime.timedelta(minutes=15)
    # only the code's hash is kept
    with app.state.store.engine.connect() as connection:
        (kept,) = connection.execute(select(transfers)).all()
    plain = made["code"].replace("-", "")
    assert kept.code_hash == hashlib.sha256(plain.encode()).hexdigest()
    assert kept.player_id == anna and plain not in kept.code_hash

    # the other device has played too: a game in play and today's daily attempt
    phone = new_client()
    elsewhere = new_game(phone, ruleset="coop")
    phone_daily = new_game(phone, mode="daily")
    phone_coop_daily = new_game(phone, mode="daily", ruleset="coop")
    old_phone = player_of(phone)
    response = phone.post("/api/me/transfer/claim", json={"code": plain.lower()})
    assert response.status_code == 200, response.text
    # the game and the co-op daily move; the solo daily would clash with Anna's: it stays
    assert response.json() == {"moved": 2, "kept": 1}
    assert player_of(phone) == anna
    me = phone.get("/api/me").json()
    assert me["nickname"] == "Anna"
    assert {entry["id"] for entry in me["history"]} == {
        finished["id"],
        daily["id"],
        elsewhere["id"],
        phone_coop_daily["id"],
    }
    store = app.state.store
    assert store.load(phone_daily["id"]).player_id == old_phone  # nothing lost
    # the moved game in play goes on on the phone (and no cached copy says otherwise)
    moved = phone.post(f"/api/games/{elsewhere['id']}/moves", json={"move": safest(elsewhere)})
    assert moved.status_code == 200, moved.text
    # the first device is the same player still
    assert client.get("/api/me").json() == phone.get("/api/me").json()
    # a code works once
    assert count(app, transfers) == 0
    again = new_client().post("/api/me/transfer/claim", json={"code": made["code"]})
    assert "no such transfer code" in error_of(again, 404, "unknown_code")


def test_a_code_is_read_as_typed(client: TestClient, new_client: Callable[..., TestClient]) -> None:
    """Any case, with or without its dash or spaces, O for 0 and I or L for 1."""
    for _ in range(4):
        made = make_code(client)
        typed = " " + made["code"].lower().replace("0", "o").replace("1", "l") + " "
        device = new_client()
        response = device.post("/api/me/transfer/claim", json={"code": typed})
        assert response.status_code == 200, response.text
        assert player_of(device) == player_of(client)


def test_a_new_code_replaces_the_old(client: TestClient, other: TestClient, app: FastAPI) -> None:
    first = make_code(client)
    second = make_code(client)
    assert first["code"] != second["code"]
    assert count(app, transfers) == 1
    error_of(
        other.post("/api/me/transfer/claim", json={"code": first["code"]}), 404, "unknown_code"
    )
    assert other.post("/api/me/transfer/claim", json={"code": second["code"]}).status_code == 200


def test_an_expired_code_is_refused_and_forgotten(
    client: TestClient, other: TestClient, app: FastAPI
) -> None:
    new_game(client)
    made = make_code(client)
    with app.state.store.engine.begin() as connection:
        connection.execute(
            update(transfers).values(
                expires_at=datetime.datetime.now(datetime.UTC) - datetime.timedelta(seconds=1)
            )
        )
    assert other.get("/api/me").status_code == 200
    theirs = player_of(other)
    response = other.post("/api/me/transfer/claim", json={"code": made["code"]})
    assert "expired" in error_of(response, 400, "expired_code")
    assert player_of(other) == theirs  # nothing changed
    assert count(app, transfers) == 0
    error_of(other.post("/api/me/transfer/claim", json={"code": made["code"]}), 404, "unknown_code")


@pytest.mark.parametrize(
    ("code", "status", "error"),
    [
        ("hello", 400, "bad_code"),
        ("ABCDE-FGHIU", 400, "bad_code"),  # U is not in Crockford's alphabet
        ("ABCDE-FGHJK-M", 400, "bad_code"),
        ("ABCDE-FGHJK", 404, "unknown_code"),
        ("", 422, "invalid_request"),
        ("A" * 1000, 422, "invalid_request"),
    ],
)
def test_a_code_that_is_not_one(
    code: str, status: int, error: str, client: TestClient, app: FastAPI
) -> None:
    response = client.post("/api/me/transfer/claim", json={"code": code})
    error_of(response, status, error)
    assert "A" * 30 not in response.text
    assert count(app, players) == 0  # a claim makes no row for the claiming device


def test_claims_are_rate_limited(make_app: Callable[..., FastAPI]) -> None:
    app = make_app(limits=replace(Limits.unlimited(), claims=Rate(5, 5 / 600)))
    with TestClient(app) as owner, TestClient(app) as guesser:
        made = make_code(owner)
        for _ in range(5):
            wrong = guesser.post("/api/me/transfer/claim", json={"code": "ABCDE-FGHJK"})
            error_of(wrong, 404, "unknown_code")
        # the sixth try is refused, even with the right code, and changes nothing
        refused = guesser.post("/api/me/transfer/claim", json={"code": made["code"]})
        assert "too many" in error_of(refused, 429, "rate_limited")
        assert 1 <= int(refused.headers["retry-after"]) <= 120
        assert player_of(guesser) != player_of(owner)
        # another device is not held back by this one
        with TestClient(app, client=("192.0.2.7", 5000)) as honest:
            assert (
                honest.post("/api/me/transfer/claim", json={"code": made["code"]}).status_code
                == 200
            )


# ---------------------------------------------------------------------- 5. one shape of errors


def test_every_error_has_the_one_shape(client: TestClient) -> None:
    view = new_game(client)
    error_of(client.get("/api/nothing"), 404, "not_found")
    error_of(client.get("/api/games/x/y/z"), 404, "not_found")
    response = client.delete("/api/games")
    assert "DELETE" in error_of(response, 405, "method_not_allowed")
    assert response.headers["allow"] == "POST"
    error_of(client.put(f"/api/games/{view['id']}"), 405, "method_not_allowed")
    deep = b'{"move": ' + b"[" * 33 + b"]" * 33 + b"}"
    response = client.post(
        f"/api/games/{view['id']}/moves", content=deep, headers={"content-type": "application/json"}
    )
    assert "32 levels" in error_of(response, 400, "invalid_json")
    for content in (b"[" * 10_000, b'{"a":' * 3000):  # within 16 KiB, far too deep
        response = client.post(
            "/api/games", content=content, headers={"content-type": "application/json"}
        )
        error_of(response, 400, "invalid_json")
    # 32 levels are fine (and then not a move), and brackets in strings do not count
    shallow = b'{"move": ' + b"[" * 31 + b"]" * 31 + b"}"
    response = client.post(
        f"/api/games/{view['id']}/moves",
        content=shallow,
        headers={"content-type": "application/json"},
    )
    error_of(response, 422, "invalid_request")
    response = client.post(f"/api/games/{view['id']}/moves", json={"move": "[" * 100})
    error_of(response, 422, "invalid_request")
    error_of(
        client.post("/api/games", content=b"{", headers={"content-type": "application/json"}),
        422,
        "invalid_request",
    )
    # pages that are not found are a small page
    page = client.get("/no/such/page")
    assert page.status_code == 404 and page.headers["content-type"].startswith("text/html")
    assert client.get("/static/nope.js").status_code == 404


def test_too_deep_counts_only_brackets_outside_strings() -> None:
    assert not too_deep(b"[" * 32 + b"]" * 32)
    assert too_deep(b"[" * 33 + b"]" * 33)
    assert too_deep(b"[" * 100_000)
    assert not too_deep(b'["' + b"[" * 100 + b'"]')
    assert not too_deep(b'["\\"' + b"[" * 100 + b'"]')
    assert not too_deep(b"[" + b"[]," * 100 + b"[]]")


def test_an_unexpected_failure_is_a_500_in_the_one_shape(
    new_client: Callable[..., TestClient], app: FastAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken() -> int:
        raise RuntimeError("the secret inner workings of the server")

    monkeypatch.setattr(app.state.store, "count_games", broken)
    client = new_client(raise_server_exceptions=False)
    response = client.get("/api/health")
    message = error_of(response, 500, "internal")
    assert "secret" not in response.text and "Traceback" not in response.text
    assert "failed" in message
    assert "script-src 'self'" in response.headers["content-security-policy"]
    assert response.headers["x-content-type-options"] == "nosniff"


# ---------------------------------------------------------------------- 7. rate limits


def test_a_flood_of_moves_is_limited_and_the_neighbour_does_not_notice(
    make_app: Callable[..., FastAPI], dealt: None
) -> None:
    app = make_app(limits=replace(Limits.unlimited(), moves=Rate(5, 0.1)))
    with TestClient(app) as flooder, TestClient(app) as neighbour:
        mine = new_game(flooder)
        theirs = new_game(neighbour)
        refused = 0
        for turn in range(12):
            before = flooder.get(f"/api/games/{mine['id']}").json()
            response = flooder.post(f"/api/games/{mine['id']}/moves", json={"move": safest(before)})
            if turn < 5:
                assert response.status_code == 200, response.text
                mine = response.json()
            else:
                assert "too many moves" in error_of(response, 429, "rate_limited")
                assert 1 <= int(response.headers["retry-after"]) <= 10
                # the wait, for a translation of the message (issue 11)
                wait = response.json()["error"]["params"]["wait"]
                assert wait == int(response.headers["retry-after"])
                # the refused move changed nothing
                assert flooder.get(f"/api/games/{mine['id']}").json() == before
                assert app.state.store.load(mine["id"]).moves == tuple(before["moves"])
                refused += 1
            # the other player, at the same address, plays on
            if turn < 5:
                answer = neighbour.post(
                    f"/api/games/{theirs['id']}/moves", json={"move": safest(theirs)}
                )
                assert answer.status_code == 200, answer.text
                theirs = answer.json()
        assert refused == 7
        assert len(theirs["moves"]) == 5


@pytest.mark.parametrize("kind", ["new_games", "hints", "analyses"])
def test_new_games_hints_and_analyses_are_limited(
    kind: str, make_app: Callable[..., FastAPI]
) -> None:
    rate, none = Rate(2, 0.001), Limits.unlimited()
    limits = {
        "new_games": replace(none, new_games=rate),
        "hints": replace(none, hints=rate),
        "analyses": replace(none, analyses=rate),
    }[kind]
    app = make_app(limits=limits)
    with TestClient(app) as client:
        game_id = "" if kind == "new_games" else new_game(client)["id"]
        asked: list[httpx.Response] = []
        for _ in range(4):
            if kind == "new_games":
                asked.append(client.post("/api/games", json={}))
            elif kind == "hints":
                asked.append(client.get(f"/api/games/{game_id}/hint"))
            else:  # a game in play is not analysed, but asking counts
                asked.append(client.post(f"/api/games/{game_id}/analysis"))
        statuses = [response.status_code for response in asked]
        assert statuses[2:] == [429, 429], statuses
        assert 429 not in statuses[:2]
        assert all("retry-after" in response.headers for response in asked[2:])
        if kind == "new_games":
            assert count(app, games) == 2
        elif kind == "hints":
            assert app.state.store.load(game_id).hint_count == 2


def test_an_address_is_limited_across_its_players(make_app: Callable[..., FastAPI]) -> None:
    """Fresh cookies do not escape the limit: one address has a bucket too (here twice a
    player's), while another address is not held back. Loopback is an address like any
    other, unless the server is behind a proxy (then it is the proxy: no bucket)."""
    limits = replace(Limits.unlimited(), new_games=Rate(2, 0.001), address_factor=2)
    app = make_app(limits=limits)
    statuses = []
    for _ in range(6):
        with TestClient(app) as fresh:
            statuses.append(fresh.post("/api/games", json={}).status_code)
    assert statuses == [201, 201, 201, 201, 429, 429]
    with TestClient(app) as fresh:
        response = fresh.post("/api/games", json={})
        assert "from your network" in error_of(response, 429, "rate_limited")
    with TestClient(app, client=("198.51.100.4", 4000)) as elsewhere:
        assert elsewhere.post("/api/games", json={}).status_code == 201
    local = []
    for _ in range(6):
        with TestClient(app, client=("127.0.0.1", 4000)) as fresh:
            local.append(fresh.post("/api/games", json={}).status_code)
    assert local == [201, 201, 201, 201, 429, 429]
    proxied = make_app(limits=limits, behind_proxy=True)
    for _ in range(6):
        with TestClient(proxied, client=("127.0.0.1", 4000)) as fresh:
            assert fresh.post("/api/games", json={}).status_code == 201


def test_the_default_limits_let_a_fast_human_play(
    make_app: Callable[..., FastAPI], dealt: None
) -> None:
    app = make_app(limits=Limits())
    with TestClient(app) as client:
        for _ in range(3):
            view = new_game(client)
            for _ in range(30):  # a burst of 30 moves without a pause
                if view["status"] != "playing":
                    break
                response = client.post(
                    f"/api/games/{view['id']}/moves", json={"move": safest(view)}
                )
                assert response.status_code == 200, response.text
                view = response.json()


# ---------------------------------------------------------------------- 8. security headers


@pytest.mark.parametrize(
    "path", ["/", "/records", "/api/me", "/api/nothing", "/no/page", "/static/style.css"]
)
def test_security_headers_on_every_answer(path: str, client: TestClient) -> None:
    response = client.get(path)
    policy = response.headers["content-security-policy"]
    for part in (
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self' ws://testserver",
        "frame-ancestors 'none'",
        "base-uri 'none'",
        "object-src 'none'",
    ):
        assert part in policy, policy
    assert "unsafe-inline" not in policy
    assert response.headers["x-content-type-options"] == "nosniff"
    assert response.headers["referrer-policy"] == "same-origin"
    assert response.headers["x-frame-options"] == "DENY"


def test_security_headers_on_refusals_and_over_https(
    client: TestClient, new_client: Callable[..., TestClient]
) -> None:
    too_big = client.post("/api/games", content=b"x" * 20_000)
    assert too_big.status_code == 413 and "content-security-policy" in too_big.headers
    secure = new_client(base_url="https://example.org")
    assert (
        "connect-src 'self' wss://example.org;"
        in secure.get("/").headers["content-security-policy"]
    )
    # a made-up Host cannot write into the policy
    odd = client.get("/", headers={"host": "evil.org; script-src *"})
    policy = odd.headers["content-security-policy"]
    assert "evil" not in policy and "connect-src 'self';" in policy


def test_the_page_has_no_inline_script_or_style(client: TestClient) -> None:
    html = client.get("/").text
    for tag in re.findall(r"<script\b[^>]*>", html):
        assert 'type="application/json"' in tag or " src=" in tag, tag
    assert " style=" not in html and "<style" not in html
    for path in STATIC.joinpath("js").glob("*.js"):
        source = path.read_text("utf-8")
        # an element's style attribute, never Intl.NumberFormat's {style: "percent"}
        inline = r"""\bstyle:\s(?!"(percent|decimal)")|setAttribute\(\s*["']style|style="""
        assert not re.search(inline, source), path.name


# ---------------------------------------------------------------------- 9. static files


def test_static_files_have_hashed_names_and_are_cached_for_good(client: TestClient) -> None:
    digest = tree_hash(STATIC)
    html = client.get("/").text
    referenced = re.findall(r'(?:href|src)="(/static/[^"]+)"', html)
    assert referenced and all(path.startswith(f"/static/{digest}/") for path in referenced)
    assert "?v=" not in html
    for path in [*referenced, f"/static/{digest}/js/table.js", f"/static/{digest}/js/records.js"]:
        response = client.get(path)
        assert response.status_code == 200, path
        assert response.headers["cache-control"] == "public, max-age=31536000, immutable"
    # a module's relative imports resolve inside the hashed folder
    main = client.get(f"/static/{digest}/js/main.js").text
    for name in re.findall(r'from "\./([\w.]+)"', main):
        assert client.get(f"/static/{digest}/js/{name}").status_code == 200
    # an unknown hash is not found; the old addresses still answer, checked every time
    assert client.get("/static/0123456789abcdef/js/main.js").status_code == 404
    old = client.get("/static/js/main.js")
    assert old.status_code == 200 and old.headers["cache-control"] == "no-cache"


def test_the_hash_follows_the_files(tmp_path: Any) -> None:
    (tmp_path / "js").mkdir()
    (tmp_path / "js" / "a.js").write_text("one")
    first = tree_hash(tmp_path)
    assert tree_hash(tmp_path) == first
    (tmp_path / "js" / "a.js").write_text("two")
    assert tree_hash(tmp_path) != first


# ---------------------------------------------------------------------- 10. daily attempts


def test_one_scored_daily_attempt_per_player(client: TestClient, app: FastAPI) -> None:
    """Asked for at once and again later, the dungeon of the day is one attempt."""
    answers: list[httpx.Response] = []
    client.get("/api/me")  # the player's id: a cookie (and no row yet)

    def start() -> None:
        answers.append(client.post("/api/games", json={"mode": "daily"}))

    threads = [threading.Thread(target=start) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert {response.status_code for response in answers} == {201}
    (game_id,) = {response.json()["id"] for response in answers}
    end = play_to_end(client, client.get(f"/api/games/{game_id}").json())
    again = new_game(client, mode="daily")
    assert again["id"] == game_id and again["status"] == end["status"]
    assert count(app, games, games.c.mode == "daily") == 1
    board = client.get("/api/daily").json()["leaderboard"]
    assert [entry["you"] for entry in board] == [True]


def test_scored_daily_attempts_per_address(
    make_app: Callable[..., FastAPI], clock: Any, db_url: str
) -> None:
    app = make_app(daily_per_address=2)
    clients = [TestClient(app) for _ in range(4)]
    try:
        first, second, third, fourth = clients
        mine = new_game(first, mode="daily")
        new_game(second, mode="daily")
        response = third.post("/api/games", json={"mode": "daily"})
        message = error_of(response, 429, "too_many_daily_attempts")
        assert "random dungeon is still open" in message
        assert response.json()["error"]["params"] == {"count": 2}
        assert int(response.headers["retry-after"]) >= 1
        assert count(app, games) == 2
        # the refused player may play a random dungeon, and the co-op dungeon of the day
        new_game(third)
        new_game(third, mode="daily", ruleset="coop")
        # players who already have an attempt get it back
        assert new_game(first, mode="daily")["id"] == mine["id"]
        # from another address, and the next day, there is room again
        with TestClient(app, client=("203.0.113.9", 1234)) as away:
            new_game(away, mode="daily")
        clock.today += datetime.timedelta(days=1)
        new_game(fourth, mode="daily")
        # the address is kept only as a keyed hash
        with app.state.store.engine.connect() as connection:
            kept = connection.execute(
                select(games.c.mode, games.c.client).order_by(games.c.created_at)
            ).all()
        hashes = {row.client for row in kept if row.mode == "daily"}
        assert all(re.fullmatch(r"[0-9a-f]{64}", value) for value in hashes)
        assert {row.client for row in kept if row.mode == "random"} == {None}
        assert len(hashes) == 2  # testclient's and 203.0.113.9's
        assert app.state.identity.client_key("testclient") in hashes
        assert not any("testclient" in value or "203.0" in value for value in hashes)
    finally:
        for each in clients:
            each.close()


def test_five_daily_attempts_per_address_by_default(
    new_client: Callable[..., TestClient], make_app: Callable[..., FastAPI],
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    statuses = [
        new_client().post("/api/games", json={"mode": "daily"}).status_code for _ in range(6)
    ]
    assert statuses == [201] * 5 + [429]
    monkeypatch.setenv("SCOUNDREL_DAILY_PER_ADDRESS", "0")  # no limit
    unlimited = make_app()
    with TestClient(unlimited) as more:
        assert more.post("/api/games", json={"mode": "daily"}).status_code == 201
