"""The par of each dungeon of the day: worked out once in a worker process, kept in the
database, claimed by one server of several, shown only where it tells nothing away, and
each player's standing among the day's."""

from __future__ import annotations

import datetime
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from test_api import View, first_move, flee_first, new_game, play_to_end

from conftest import TODAY, Clock
from scoundrel.core import Rules, State
from scoundrel.solver.par import par
from scoundrel.store import GameStore, connect
from scoundrel.store.pars import RETRY_FAILED, STALE_CLAIM, DailyPars, ParState
from scoundrel.web.app import create_app
from scoundrel.web.limits import Limits

YESTERDAY = (TODAY - datetime.timedelta(days=1)).isoformat()
NOON = datetime.datetime.combine(TODAY, datetime.time(12), tzinfo=datetime.UTC)


def pars_of(db_url: str, secret: str | None = "one secret") -> DailyPars:
    return DailyPars(GameStore(connect(db_url), daily_secret=secret))


def test_a_par_is_claimed_by_one_process_and_kept(db_url: str) -> None:
    first, second = pars_of(db_url), pars_of(db_url)
    assert first.get(YESTERDAY, "solo") is None
    assert first.claim(YESTERDAY, "solo", NOON)
    # another server process over the same database: the work is in hand
    assert not second.claim(YESTERDAY, "solo", NOON)
    assert not first.claim(YESTERDAY, "solo", NOON + datetime.timedelta(minutes=1))
    working = second.get(YESTERDAY, "solo")
    assert working is not None and working.to_dict() == {"state": "working"}
    first.keep(YESTERDAY, "solo", {"score": -12, "won": False, "winnable": True})
    kept = second.get(YESTERDAY, "solo")
    assert kept is not None
    assert kept.to_dict() == {"state": "done", "score": -12, "won": False, "winnable": True}
    # done is done: nobody works it out again, however late
    assert not second.claim(YESTERDAY, "solo", NOON + datetime.timedelta(days=3))
    # each ruleset has its own
    assert second.get(YESTERDAY, "coop") is None
    assert second.claim(YESTERDAY, "coop", NOON)


def test_a_claim_left_by_a_stopped_process_is_taken_over(db_url: str) -> None:
    first, second = pars_of(db_url), pars_of(db_url)
    assert first.claim(YESTERDAY, "solo", NOON)
    assert not second.claim(YESTERDAY, "solo", NOON + STALE_CLAIM / 2)
    assert second.claim(YESTERDAY, "solo", NOON + STALE_CLAIM + datetime.timedelta(seconds=1))
    # the taken-over claim is the second's now: the first cannot take it back at once
    assert not first.claim(YESTERDAY, "solo", NOON + STALE_CLAIM + datetime.timedelta(seconds=2))


def test_a_released_claim_is_free_at_once_and_a_failed_one_later(db_url: str) -> None:
    first, second = pars_of(db_url), pars_of(db_url)
    assert first.claim(YESTERDAY, "solo", NOON)
    first.release(YESTERDAY, "solo")  # the server stops
    assert second.claim(YESTERDAY, "solo", NOON)
    second.fail(YESTERDAY, "solo")
    failed = first.get(YESTERDAY, "solo")
    assert failed is not None and failed.state is ParState.FAILED
    soon = failed.claimed_at + RETRY_FAILED / 2
    assert not first.claim(YESTERDAY, "solo", soon)
    assert first.claim(YESTERDAY, "solo", failed.claimed_at + RETRY_FAILED * 1.01)


def test_a_par_is_of_the_deal_it_was_worked_out_for(db_url: str) -> None:
    """A server whose daily secret changed deals another dungeon: the old par is not its."""
    old = pars_of(db_url, "old secret")
    assert old.claim(YESTERDAY, "solo", NOON)
    old.keep(YESTERDAY, "solo", {"score": 5, "won": True, "winnable": True})
    new = pars_of(db_url, "new secret")
    assert new.get(YESTERDAY, "solo") is None
    assert new.claim(YESTERDAY, "solo", NOON)
    new.keep(YESTERDAY, "solo", {"score": -30, "won": False, "winnable": None})
    kept = new.get(YESTERDAY, "solo")
    assert kept is not None and kept.to_dict()["winnable"] is None
    assert old.get(YESTERDAY, "solo") is None


def lowest_first(view: View) -> str:
    """A policy that plays differently from the others: the last legal move."""
    token: str = view["legal"][-1]["move"]
    return token


def test_each_player_sees_where_their_score_stands(
    new_client: Callable[..., TestClient],
) -> None:
    players = [new_client() for _ in range(4)]
    policies = [first_move, flee_first, lowest_first, first_move]
    scores = []
    for player, policy in zip(players, policies, strict=True):
        assert player.get("/api/daily").json()["yours"] is None
        scores.append(play_to_end(player, new_game(player, mode="daily"), policy)["score"])
        # the score the view shows is the leaderboard's (the server's own)
    board = sorted(entry["score"] for entry in players[0].get("/api/daily").json()["leaderboard"])
    assert board == sorted(scores)
    for mine, player in zip(scores, players, strict=True):
        others = list(scores)
        others.remove(mine)
        below = sum(score < mine for score in others)
        ties = sum(score == mine for score in others)
        yours = player.get("/api/daily").json()["yours"]
        assert yours["players"] == 4
        assert yours["percentile"] == round(100 * (below + ties / 2) / 3)
    # an attempt still in play has no standing; nor has somebody who did not play
    late = new_client()
    new_game(late, mode="daily")
    assert set(late.get("/api/daily").json()["yours"]) == {"id", "status", "score"}
    assert new_client().get("/api/daily").json()["yours"] is None


@pytest.fixture
def par_app(db_url: str) -> Iterator[tuple[FastAPI, Clock]]:
    if "postgresql" in db_url:
        pytest.skip("the par's worker is the same on every database: once is enough")
    clock = Clock()
    app = create_app(
        db_url, today=clock, limits=Limits.unlimited(), daily_par=True, daily_secret="par"
    )
    yield app, clock
    app.state.analyses.close()
    app.state.hints.close()


def wait_for_par(client: TestClient, query: str, seconds: float = 240.0) -> dict[str, Any]:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        data: dict[str, Any] = client.get(f"/api/daily{query}").json()
        if data["par"] is not None and data["par"]["state"] == "done":
            return data
        time.sleep(0.5)
    raise AssertionError(f"no par for {query} in {seconds} s")


def test_todays_par_is_worked_out_at_once_and_shown_when_the_attempt_is_over(
    par_app: tuple[FastAPI, Clock],
) -> None:
    app, _clock = par_app
    with TestClient(app) as client:
        first = client.get("/api/daily").json()
        assert first["par"] is None  # not before the player's own attempt is over
        key = f"par:{TODAY.isoformat()}:solo:"
        started = [job for job in app.state.analyses._jobs if job.startswith(key)]
        assert len(started) == 1, "today's par starts with the day's first look at it"
        game = new_game(client, mode="daily")
        assert client.get("/api/daily").json()["par"] is None  # still playing
        play_to_end(client, game)
        data = wait_for_par(client, "")
        rules = Rules.solo()
        deal = DailyPars(app.state.store).deal(TODAY.isoformat(), "solo")
        expected = par(State.new(rules, deal))
        assert data["par"] == {"state": "done", **expected.to_dict()}
        # worked out once: one job, and the row in the database says the same
        assert [job for job in app.state.analyses._jobs if job.startswith("par:")] == started
        kept = DailyPars(app.state.store).get(TODAY.isoformat(), "solo")
        assert kept is not None and kept.score == expected.score


def test_a_past_days_par_is_shown_to_everybody_within_a_year(
    par_app: tuple[FastAPI, Clock],
) -> None:
    app, _clock = par_app
    with TestClient(app) as client:
        answer = client.get(f"/api/daily?date={YESTERDAY}").json()
        assert answer["par"] == {"state": "working"}
        assert wait_for_par(client, f"?date={YESTERDAY}")["par"]["state"] == "done"
        for day in (TODAY + datetime.timedelta(days=1), TODAY - datetime.timedelta(days=400)):
            assert client.get(f"/api/daily?date={day.isoformat()}").json()["par"] is None
        assert not [job for job in app.state.analyses._jobs if "2025-" in job or "-30:" in job]


def test_two_servers_work_out_a_par_once(db_url: str) -> None:
    if "postgresql" in db_url:
        pytest.skip("the claim is tested on both databases above")
    made = [
        create_app(db_url, today=Clock(), limits=Limits.unlimited(), daily_par=True)
        for _ in range(2)
    ]
    try:
        with TestClient(made[0]) as one, TestClient(made[1]) as two:
            assert one.get(f"/api/daily?date={YESTERDAY}").json()["par"]["state"] == "working"
            assert two.get(f"/api/daily?date={YESTERDAY}").json()["par"]["state"] == "working"
            done = wait_for_par(two, f"?date={YESTERDAY}")
            assert one.get(f"/api/daily?date={YESTERDAY}").json()["par"] == done["par"]
        jobs = [[job for job in app.state.analyses._jobs if job.startswith("par:")] for app in made]
        assert [len(found) for found in jobs] == [1, 0]
    finally:
        for app in made:
            app.state.analyses.close()
            app.state.hints.close()


def test_a_server_that_stops_gives_its_par_up(db_url: str) -> None:
    if "postgresql" in db_url:
        pytest.skip("the release is tested on both databases above")
    first = create_app(db_url, today=Clock(), limits=Limits.unlimited(), daily_par=True)
    with TestClient(first) as client:
        assert client.get(f"/api/daily?date={YESTERDAY}").json()["par"]["state"] == "working"
    first.state.analyses.close()  # the server stops while its worker works the par out
    kept = DailyPars(first.state.store).get(YESTERDAY, "solo")
    assert kept is not None and kept.state is ParState.WORKING
    # the next server takes the work over at once, not after the stale claim's wait
    assert DailyPars(first.state.store).claim(YESTERDAY, "solo")
