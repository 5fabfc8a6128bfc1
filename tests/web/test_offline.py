"""Offline play (issue 39): the table the browser runs without the server (the core in
Pyodide, ``scoundrel.web.offline_table``) gives the server's views, and a game it played is
kept by the server only once its record is replayed and checked (``store/offline.py``).

These tests run the offline table in CPython: Pyodide runs the same files
(``test_browser_offline.py`` plays it in Chromium)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from conftest import TODAY, Clock
from scoundrel.core import Record, Rules, daily_deal, random_deal
from scoundrel.store import GameStore, connect
from scoundrel.web import offline_table
from scoundrel.web.position import position_view


def ask(**request: Any) -> dict[str, Any]:
    """One request of the worker, through its JSON door."""
    answer: dict[str, Any] = json.loads(offline_table.answer(json.dumps(request)))
    return answer


def play_out(game: dict[str, Any], undo_at: int | None = None) -> dict[str, Any]:
    """``game`` played to its end by the first legal move each time (an undo after move
    ``undo_at``)."""
    while game["status"] == "playing":
        after = len(game["moves"])
        game = ask(op="move", game=game, move=game["legal"][0]["move"], after=after)["game"]
        if undo_at is not None and len(game["moves"]) == undo_at and game["status"] == "playing":
            game = ask(op="undo", game=game)["game"]
            undo_at = None
    return game


def sent(game: dict[str, Any]) -> dict[str, Any]:
    """What the page sends of a finished offline game."""
    return {
        key: game[key]
        for key in (
            "key",
            "mode",
            "seed",
            "daily_date",
            "record",
            "status",
            "score",
            "undo_count",
            "started_at",
            "finished_at",
        )
    }


def test_the_offline_table_shows_what_the_server_shows() -> None:
    """M1: a random dungeon from its seed; each view is the server's position view of the
    same record, and the deck is shown only once the game is over."""
    game = ask(op="deal", settings={"mode": "random", "ruleset": "solo"})["game"]
    assert game["offline"] and game["id"] == f"offline-{game['key']}"
    assert 0 <= game["seed"] < 2**53  # the page's JSON keeps it exactly
    assert game["record"] is None and "deck" not in json.dumps(game)
    rules = Rules.solo()
    deck = random_deal(rules, game["seed"])
    while game["status"] == "playing":
        record = Record(rules, deck, tuple(game["moves"]))
        expected = position_view(record.replay().state)
        assert {key: game[key] for key in expected} == json.loads(json.dumps(expected))
        assert game["record"] is None
        game = ask(op="move", game=game, move=game["legal"][-1]["move"])["game"]
    assert Record.from_dict(game["record"]).deck == deck
    assert game["run"] and game["finished_at"]


def test_the_public_dungeon_of_the_day_and_its_refusals() -> None:
    """M2: offline, the dungeon of the day is the public deal (no server's secret), with
    the standard options and no undo; an illegal move is refused with its rule."""
    game = ask(op="deal", settings={"mode": "daily", "ruleset": "coop", "today": "2026-12-06"})
    game = game["game"]
    assert game["daily_date"] == "2026-12-06" and game["seed"] is None
    room = [card.code for card in daily_deal(Rules.coop(), "2026-12-06")[:4]]
    assert game["room"] == room
    first = ask(op="move", game=game, move=game["legal"][0]["move"])["game"]
    refused = ask(op="undo", game=first)
    assert refused["status"] == 409 and refused["error"]["reason"] == "no_undo_daily"
    stale = ask(op="move", game=first, move=first["legal"][0]["move"], after=0)
    assert stale["error"]["reason"] == "stale_position"
    blocked = next(iter(first["blocked"]))
    illegal = ask(op="move", game=first, move=blocked)
    assert illegal["error"]["code"] == "illegal_move" and illegal["error"]["refusal"]["rule"]
    options = {"mode": "daily", "today": "2026-12-06", "options": {"weapon": "fresh"}}
    wrong = ask(op="deal", settings=options)
    assert wrong["status"] == 400
    for settings, reason in (({"mode": "archive"}, "offline_mode"), ({"online": True}, None)):
        refused = ask(op="deal", settings=settings)
        assert refused["status"] == 400 and refused["error"].get("reason") == reason
    assert ask(op="fly")["error"]["code"] == "invalid_request"
    assert ask(op="move", game=first, move="zz")["status"] == 400


def test_the_offline_table_imports_nothing_but_the_core() -> None:
    """The worker is given the core and the position views alone: the offline table
    imports nothing else of the package (the contract in pyproject.toml says the same)."""
    from scoundrel.web.offline_assets import code_files

    names = {path.as_posix() for path in code_files()}
    assert "scoundrel/web/offline_table.py" in names and "scoundrel/core/state.py" in names
    assert not any(name.startswith(("scoundrel/store", "scoundrel/solver")) for name in names)
    assert "scoundrel/web/app.py" not in names


def test_a_game_played_offline_joins_the_records(client: TestClient, app: FastAPI) -> None:
    """Sent once over, the game is replayed and kept, marked offline; sent again (an
    answer lost) it is the same game; it is in the history and the records."""
    game = play_out(ask(op="deal", settings={"mode": "random"})["game"], undo_at=1)
    assert game["undo_count"] == 1
    kept = client.post("/api/games/offline", json=sent(game))
    assert kept.status_code == 201, kept.text
    shown = kept.json()
    assert shown["offline"] and shown["moves"] == game["moves"]
    assert (shown["status"], shown["score"]) == (game["status"], game["score"])
    again = client.post("/api/games/offline", json=sent(game))
    assert again.status_code == 200 and again.json()["id"] == shown["id"]
    me = client.get("/api/me").json()
    assert [entry["offline"] for entry in me["history"]] == [True]
    assert me["stats"][0]["mode"] == "random" and me["stats"][0]["played"] == 1
    assert client.get(f"/api/games/{shown['id']}/replay").status_code == 200


def test_a_day_played_offline_is_never_ranked(
    client: TestClient, other: TestClient, app: FastAPI, clock: Clock
) -> None:
    """The public dungeon of the day, played offline, is kept as an unranked day's game:
    the leaderboard ranks only the server's own deal, and the day's attempt is still to
    play."""
    settings = {"mode": "daily", "ruleset": "solo", "today": TODAY.isoformat()}
    game = play_out(ask(op="deal", settings=settings)["game"])
    kept = client.post("/api/games/offline", json=sent(game)).json()
    assert kept["mode"] == "archive" and kept["daily_date"] == TODAY.isoformat()
    board = client.get("/api/daily").json()
    assert board["leaderboard"] == [] and board["yours"] is None
    started = client.post("/api/games", json={"mode": "daily"}).json()
    assert started["moves"] == [] and started["mode"] == "daily"


@pytest.mark.parametrize(
    "change, reason",
    [
        ("deck", "offline_not_dealt"),
        ("move", "offline_illegal"),
        ("score", "offline_result"),
        ("status", "offline_result"),
        ("short", "offline_not_over"),
        ("seed", "offline_not_dealt"),
        ("future", "offline_future_day"),
        ("no_seed", "offline_no_deal"),
        ("garbled", "offline_record"),
    ],
)
def test_a_record_changed_by_hand_is_refused(client: TestClient, change: str, reason: str) -> None:
    """Nothing the page sends is trusted: the deck must be the deal it names, every move
    legal, the game over, and its result the replay's. A refusal names what was wrong and
    keeps nothing."""
    daily = change == "future"
    settings = {"mode": "daily", "today": TODAY.isoformat()} if daily else {"mode": "random"}
    body = sent(play_out(ask(op="deal", settings=settings)["game"]))
    record = body["record"]
    if change == "deck":
        cards = record["deck"].split()
        cards[0], cards[-1] = cards[-1], cards[0]
        record["deck"] = " ".join(cards)
    elif change == "move":
        record["moves"] = " ".join(["F", "F", *record["moves"].split()[1:]])  # never two fled
    elif change == "score":
        body["score"] += 1
    elif change == "status":
        body["status"] = "won" if body["status"] == "lost" else "lost"
    elif change == "short":
        record["moves"] = " ".join(record["moves"].split()[:-1])  # one short of its end
    elif change == "seed":
        body["seed"] += 1
    elif change == "future":
        body["daily_date"] = "2027-01-05"
    elif change == "no_seed":
        body["seed"] = None
    elif change == "garbled":
        record["deck"] = "XX " + record["deck"]
    refused = client.post("/api/games/offline", json=body)
    assert refused.status_code == 400, refused.text
    error = refused.json()["error"]
    assert error["reason"] == reason
    if change == "move":  # the message names the move: it asks for these two
        assert set(error["params"]) == {"number", "move"} and error["params"]["move"] == "F"
    assert client.get("/api/me").json()["history"] == []


def test_a_key_is_one_game(client: TestClient, other: TestClient) -> None:
    """A second game sent with a key already used is refused; another player's key is
    theirs."""
    first = sent(play_out(ask(op="deal", settings={"mode": "random"})["game"]))
    second = sent(play_out(ask(op="deal", settings={"mode": "random"})["game"]))
    assert client.post("/api/games/offline", json=first).status_code == 201
    refused = client.post("/api/games/offline", json={**second, "key": first["key"]})
    assert refused.status_code == 409 and refused.json()["error"]["reason"] == "offline_key_used"
    assert other.post("/api/games/offline", json=first).status_code == 201


def test_an_offline_game_earns_only_what_help_allows(db_url: str) -> None:
    """The deck was on the player's device: an offline game is a game with help for the
    achievements (those that ask for a fair game are never earned by it)."""
    from scoundrel.store import offline
    from scoundrel.store.achievements import BY_CODE, earned

    store = GameStore(connect(db_url))
    wins = 0
    for _ in range(40):
        game = play_out(ask(op="deal", settings={"mode": "random"})["game"])
        record = Record.from_dict(game["record"])
        played = offline.OfflineGame(
            key=game["key"],
            mode="random",
            seed=game["seed"],
            date=None,
            record=record,
            status=game["status"],
            score=game["score"],
            undo_count=0,
        )
        kept, new = offline.keep(store, "p1", played)
        assert new and kept.offline and not kept.loaded
        wins += game["status"] == "won"
    codes = {entry["code"] for entry in earned(store, "p1")}
    assert not any(BY_CODE[code].fair for code in codes)
