"""The dungeon of the day across midnight (UTC), on a clock the test moves: an attempt of
day D is closed when D ends. A move, a hint or the end of the game after that is refused
(409 ``daily_closed``), the attempt is kept as ``closed`` with no score, and D's leaderboard
ranks only what was finished on D, so that nobody can read D's deck from a finished game
(or its archive) after midnight and then finish D's attempt knowing it.

Every test runs on SQLite and on PostgreSQL (the ``db_url`` fixture). The real server
across a real midnight (libfaketime) is in ``test_servers.py``."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from test_integrity import new_game, safest

from scoundrel.core import Record, Rules, State
from scoundrel.store import Conflict, GameStore, connect
from scoundrel.web.app import create_app
from scoundrel.web.limits import Limits

View = dict[str, Any]
DAY = dt.date(2026, 11, 29)
BEFORE_MIDNIGHT = dt.datetime(2026, 11, 29, 23, 55, tzinfo=dt.UTC)
AFTER_MIDNIGHT = dt.datetime(2026, 11, 30, 0, 0, 1, tzinfo=dt.UTC)


class Moment:
    """The server's clock: a moment the test sets."""

    def __init__(self) -> None:
        self.now = BEFORE_MIDNIGHT

    def __call__(self) -> dt.datetime:
        return self.now


@pytest.fixture
def moment() -> Moment:
    return Moment()


@pytest.fixture
def app(db_url: str, moment: Moment) -> Iterator[FastAPI]:
    application = create_app(
        db_url, daily_secret="midnight", clock=moment, limits=Limits.unlimited()
    )
    yield application
    application.state.analyses.close()
    application.state.hints.close()


def move(client: TestClient, view: View, token: str | None = None) -> Any:
    token = token or safest(view)
    return client.post(f"/api/games/{view['id']}/moves", json={"move": token})


def play_to_end(client: TestClient, view: View) -> View:
    while view["status"] == "playing":
        response = move(client, view)
        assert response.status_code == 200, response.text
        view = response.json()
    return view


def closed(response: Any) -> None:
    assert response.status_code == 409, response.text
    error = response.json()["error"]
    assert (error["code"], error["reason"]) == ("conflict", "daily_closed"), error


def board(client: TestClient, ruleset: str = "solo") -> list[View]:
    answer = client.get(f"/api/daily?ruleset={ruleset}&date={DAY.isoformat()}").json()
    entries: list[View] = answer["leaderboard"]
    return entries


@pytest.mark.parametrize("ruleset", ["solo", "coop"])
def test_an_attempt_started_before_midnight_is_closed_after_it(
    ruleset: str, client: TestClient, moment: Moment
) -> None:
    """M2 (the server's promise): started at 23:55, two moves, then the day turns. The
    next move, a hint and an undo are refused; the attempt is shown closed, without a
    score or legal moves, and with its record now that its day is over."""
    view = new_game(client, mode="daily", ruleset=ruleset)
    for _ in range(2):
        response = move(client, view)
        assert response.status_code == 200, response.text
        view = response.json()
    moment.now = AFTER_MIDNIGHT
    closed(move(client, view))
    closed(client.get(f"/api/games/{view['id']}/hint"))
    assert client.post(f"/api/games/{view['id']}/undo").status_code in (403, 409)
    shown = client.get(f"/api/games/{view['id']}").json()
    assert shown["status"] == "closed"
    assert shown["score"] is None and shown["legal"] == [] and shown["blocked"] == {}
    assert shown["moves"] == view["moves"]  # kept as it stood: nothing taken back
    assert shown["record"] is not None  # the day is over: the deck may be shown
    assert client.get(f"/api/games/{view['id']}/record").status_code == 200
    assert client.post(f"/api/games/{view['id']}/analysis").status_code == 409  # never ended
    assert client.get("/api/games/current").json()["game"] is None
    history = client.get("/api/me").json()["history"]
    assert [(game["id"], game["status"]) for game in history] == [(view["id"], "closed")]
    assert board(client, ruleset) == []
    # the new day's dungeon is a new attempt
    today = new_game(client, mode="daily", ruleset=ruleset)
    assert today["daily_date"] == "2026-11-30" and today["id"] != view["id"]


def test_a_deck_read_after_midnight_cannot_finish_the_day(
    client: TestClient, other: TestClient, moment: Moment
) -> None:
    """The issue's case: C finishes D's daily on D; A starts it and moves twice; the day
    turns. C's record (the whole deck) is open now, but A cannot play the solver's line
    from it: every move is refused, and D's leaderboard ranks C alone."""
    theirs = play_to_end(other, new_game(other, mode="daily"))
    assert other.get(f"/api/games/{theirs['id']}/record").status_code == 403  # still day D
    mine = new_game(client, mode="daily")
    for _ in range(2):
        mine = move(client, mine).json()
    moment.now = AFTER_MIDNIGHT
    record = Record.from_dict(client.get(f"/api/games/{theirs['id']}/record").json())
    knowing = State.new(record.rules, record.deck).replay(mine["moves"])[-1]
    assert knowing.legal_moves, "A's attempt is still in play"
    closed(move(client, mine, knowing.legal_moves[0].token))  # chosen knowing the deck
    assert client.get(f"/api/games/{mine['id']}").json()["status"] == "closed"
    assert [entry["you"] for entry in board(client)] == [False]  # C alone
    assert [entry["you"] for entry in board(other)] == [True]


def test_the_archive_of_a_day_opens_after_it_and_never_reopens_its_attempt(
    client: TestClient, moment: Moment
) -> None:
    """On day D its archive is refused; after midnight it is open (unranked), and playing
    it through does nothing to the player's closed attempt or to D's leaderboard."""
    attempt = move(client, new_game(client, mode="daily")).json()
    refused = client.post("/api/games", json={"mode": "archive", "date": DAY.isoformat()})
    assert refused.status_code == 400, refused.text
    moment.now = AFTER_MIDNIGHT
    archive = play_to_end(client, new_game(client, mode="archive", date=DAY.isoformat()))
    assert archive["mode"] == "archive" and archive["record"] is not None
    closed(move(client, attempt))
    assert board(client) == []


def test_a_closed_day_is_not_a_day_played(client: TestClient, moment: Moment) -> None:
    """The streak counts the days whose dungeon the player finished: a closed attempt
    breaks the run, and the records count no closed game."""
    finished = play_to_end(client, new_game(client, mode="daily"))
    assert finished["status"] in ("won", "lost")
    moment.now = AFTER_MIDNIGHT
    move(client, new_game(client, mode="daily"))  # day D+1: started, never finished
    moment.now = AFTER_MIDNIGHT + dt.timedelta(days=1)
    play_to_end(client, new_game(client, mode="daily"))
    streak = client.get("/api/daily").json()["streak"]
    assert (streak["streak"], streak["best_streak"], streak["played"]) == (1, 1, 2)
    stats = client.get("/api/me").json()["stats"]
    assert [(group["mode"], group["played"]) for group in stats] == [("daily", 2)]


def test_the_countdown_and_the_day_follow_the_clock(client: TestClient, moment: Moment) -> None:
    moment.now = dt.datetime(2026, 11, 29, 23, 59, 30, tzinfo=dt.UTC)
    before = client.get("/api/daily").json()
    assert (before["today"], before["next_in"]) == ("2026-11-29", 30)
    moment.now = AFTER_MIDNIGHT
    after = client.get("/api/daily").json()
    assert (after["today"], after["next_in"]) == ("2026-11-30", 24 * 3600 - 1)


def test_a_move_over_the_socket_after_midnight_is_refused(
    client: TestClient, moment: Moment
) -> None:
    assert client.get("/api/games/current").status_code == 200  # the cookie
    with client.websocket_connect("/api/play") as connection:
        connection.send_text(json.dumps({"id": 1, "op": "new", "mode": "daily"}))
        view = connection.receive_json()["game"]
        moment.now = AFTER_MIDNIGHT
        token = view["legal"][0]["move"]
        connection.send_text(json.dumps({"id": 2, "op": "move", "game": view["id"], "move": token}))
        answer = connection.receive_json()
    assert answer["status"] == 409 and answer["error"]["reason"] == "daily_closed", answer


def test_a_process_whose_clock_lags_cannot_write_to_a_closed_attempt(db_url: str) -> None:
    """Two server processes on one database: one is past midnight and closes the attempt;
    the other, whose clock still says day D, holds the attempt from before and tries a
    move. The write is refused (the attempt is no longer in play), as ``daily_closed``."""
    days = {"early": DAY, "late": DAY + dt.timedelta(days=1)}
    late = GameStore(connect(db_url), daily_secret="s", today=lambda: days["late"])
    early = GameStore(late.engine, daily_secret="s", today=lambda: days["early"])
    player = early.ensure_player(None)
    game = early.start(player, "daily", Rules.solo(), today=DAY)
    first = early.state(game).legal_moves[0]
    _, state = early.play(game.id, player, first)  # early keeps the game in its cache
    assert late.load(game.id).closed  # the late process closes it by reading it
    with pytest.raises(Conflict, match="day of this dungeon is over") as refused:
        early.play(game.id, player, state.legal_moves[0])
    assert refused.value.reason == "daily_closed"
    assert early.load(game.id).moves == (first.token,)
