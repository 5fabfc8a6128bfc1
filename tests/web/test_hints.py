"""Hints away from the requests (``web/hints.py``): worked out in worker processes, with a
share per player and in all, a deadline, and cancellation; refused with 429/503 and
Retry-After, in the player's language, when the shares are taken.

The figures (another player's moves and /api/health while hints are flooded) are measured
by ``benchmarks/hints.py``; here the same flood runs against a real server and every
answer is checked, never timed."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from servers import Player, Server, healthiest

from scoundrel.core import Observation, Rules, State, random_deal
from scoundrel.i18n import catalog
from scoundrel.web.hints import Hints, HintsBusy
from scoundrel.web.limits import RateLimited

#: A co-op position: its hint takes the bot seconds of CPU (the case of issue 35).
COOP = State.new(Rules.coop(), random_deal(Rules.coop(), 3))


def coop_observation() -> Observation:
    return COOP.observation(COOP.leader)


@pytest.fixture
def hints() -> Iterator[Hints]:
    made = Hints(workers=1, waiting=1, playouts=2)  # quick: the shares are what is tested
    yield made
    made.close()


def run(coroutine: Any) -> Any:
    return asyncio.run(coroutine)


def test_a_hint_is_the_bot_s_advice_from_a_worker(hints: Hints) -> None:
    advice = run(hints.ask("anna", coop_observation()))
    assert advice["move"] in {move.token for move in COOP.legal_moves}
    assert hints._all and all(worker.alive for worker in hints._all)


def test_one_player_one_hint_at_a_time_and_a_bounded_line(hints: Hints) -> None:
    """A second hint of the same player while the first is worked out: 429 hint_waiting.
    More hints than workers and waiting places: 503 hints_busy with a wait."""

    async def flood() -> list[Any]:
        asked = [hints.ask("anna", coop_observation()), hints.ask("anna", coop_observation())]
        asked += [hints.ask(f"player {n}", coop_observation()) for n in range(3)]
        return await asyncio.gather(*asked, return_exceptions=True)

    answers = run(flood())
    refused = [answer for answer in answers if isinstance(answer, Exception)]
    assert sum(isinstance(answer, dict) for answer in answers) == 2  # one working, one waiting
    codes = sorted((error.status, error.code) for error in refused)
    assert codes == [(429, "hint_waiting"), (503, "hints_busy"), (503, "hints_busy")]
    assert all(isinstance(error, RateLimited) and error.retry_after >= 1 for error in refused)
    assert hints._in_flight == 0 and not hints._players  # every share given back


def test_a_hint_whose_asker_went_away_stops_its_worker() -> None:
    """Cancellation: the bot stops within a look of the asker leaving, and the same worker
    serves the next hint (it was not replaced)."""
    slow = Hints(workers=1, waiting=0)  # the browser's playouts: seconds of co-op search
    solo = State.new(Rules.solo(), random_deal(Rules.solo(), 1)).observation(1)

    async def story() -> tuple[Any, Any, float, float]:
        await slow.ask("warm", solo)  # the worker is started
        worker = slow._all[0]
        leaving = time.monotonic() + 0.3

        async def gone() -> bool:
            return time.monotonic() > leaving

        asked = time.monotonic()
        try:
            await slow.ask("anna", coop_observation(), gone)
        except HintsBusy as error:
            stopped: Any = error
        answered = time.monotonic() - asked
        again = time.monotonic()
        await slow.ask("ben", solo)  # waits for the stopped search's last answer
        return stopped, worker, answered, time.monotonic() - again

    try:
        stopped, worker, answered, again = asyncio.run(story())
        assert stopped.code == "hint_stopped"
        assert slow._all == [worker] and worker.alive  # stopped, not replaced
        print(f"stopped {answered:.2f} s after asking (left at 0.3 s); next hint {again:.2f} s")
    finally:
        slow.close()


def test_a_hint_past_its_deadline_is_stopped() -> None:
    hurried = Hints(workers=1, seconds=0.2)  # a co-op hint needs seconds
    try:
        with pytest.raises(HintsBusy) as late:
            run(hurried.ask("anna", coop_observation()))
        assert (late.value.status, late.value.code) == (503, "hint_timeout")
    finally:
        hurried.close()


def test_a_worker_that_dies_is_replaced(hints: Hints) -> None:
    async def story() -> list[Any]:
        await hints.ask("anna", coop_observation())
        dead = hints._all[0]
        dead.process.kill()
        dead.process.join(5)
        answers: list[Any] = await asyncio.gather(
            hints.ask("anna", coop_observation()), return_exceptions=True
        )
        answers.append(await hints.ask("anna", coop_observation()))  # a new worker's
        return [dead, *answers]

    dead, first, second = asyncio.run(story())
    assert isinstance(first, HintsBusy) and first.code == "hint_failed"
    assert second["move"] and hints._all[0] is not dead and hints._all[0].alive


@pytest.mark.parametrize("lang", ["en", "it", "ru", "de", "es", "fr"])
def test_every_hint_refusal_is_translated(lang: str) -> None:
    messages = catalog(lang)
    for name in ("hints_busy", "hint_waiting", "hint_timeout", "hint_stopped", "hint_failed"):
        assert messages[f"error.{name}"] != catalog("en")[f"error.{name}"] or lang == "en"


# ---------------------------------------------------------------------- a real server


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    running = Server(f"sqlite:///{tmp_path / 'hints.sqlite3'}").start()
    yield running
    running.stop()


def co_op_game(player: Player) -> dict[str, Any]:
    return player.call("POST", "/api/games", mode="random", ruleset="coop")


def test_flooded_co_op_hints_leave_other_players_and_health_answered(server: Server) -> None:
    """Five players ask for co-op hints as fast as they are answered, two at a time each
    (the server's own limits are off: only the hint shares stand) while another plays:
    every move of the other player is answered 200, /api/health always answers, and each
    refused hint is a 429 or 503 with Retry-After. (The times are the benchmark's.)"""
    flooders = [Player(server) for _ in range(5)]
    games = [co_op_game(player) for player in flooders]
    stop = threading.Event()
    refused: list[tuple[int, str | None]] = []
    answered: list[int] = []

    def flood(player: Player, game: dict[str, Any]) -> None:
        while not stop.is_set():
            response = player.http.get(f"/api/games/{game['id']}/hint", timeout=60)
            if response.status_code == 200:
                answered.append(1)
            else:
                refused.append((response.status_code, response.headers.get("retry-after")))
                time.sleep(0.05)

    threads = [  # two at once from each player: one is always refused its share
        threading.Thread(target=flood, args=pair)
        for pair in zip(flooders * 2, games * 2, strict=True)
    ]
    mover = Player(server)
    try:
        for thread in threads:
            thread.start()
        view = mover.call("POST", "/api/games", mode="random", ruleset="solo")
        for _ in range(15):
            if view["status"] != "playing":
                view = mover.call("POST", "/api/games", mode="random", ruleset="solo")
            view = mover.call("POST", f"/api/games/{view['id']}/moves", move=healthiest(view))
            health = httpx.get(f"{server.base}/api/health", timeout=10)
            assert health.status_code == 200 and health.json()["ok"]
            time.sleep(0.1)
    finally:
        stop.set()
        for thread in threads:
            thread.join(90)
        for player in [*flooders, mover]:
            player.close()
    assert refused, "five players at once were never refused: the shares are not bounded"
    assert {status for status, _ in refused} <= {429, 503}, refused
    assert all(wait is not None and int(wait) >= 1 for _, wait in refused), refused
