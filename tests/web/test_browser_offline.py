"""Offline play in Chromium (issue 39): the same Python rules core in the page (Pyodide in
a web worker), games kept in IndexedDB as they are played, and sent back to the server,
which replays and checks them, once the network is back.

Pyodide comes from npm (``npm ci``, which CI runs); without it these tests skip, saying
why, except in CI."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from typing import Any

import pytest
from browsers import running, take_first_offered

from scoundrel.pyodide import find_pyodide

if find_pyodide(None, None) is None:
    if os.environ.get("CI"):
        pytest.fail("CI installs Pyodide with npm ci: node_modules/pyodide is missing")
    pytest.skip("no Pyodide (npm ci): offline play is not tested", allow_module_level=True)


@pytest.fixture(scope="module")
def database(tmp_path_factory: Any) -> str:
    return f"sqlite:///{tmp_path_factory.mktemp('web') / 'offline.sqlite3'}"


@pytest.fixture(scope="module")
def server(database: str) -> Iterator[str]:
    """A server on today's date (the other browser tests fix one): the page deals the
    public dungeon of its own day, which the server checks against its own."""
    from scoundrel.web.app import create_app

    with running(create_app(database, daily_par=False)) as base:
        yield base


def _every_game(database: str) -> list[dict[str, Any]]:
    """Every game the server keeps, whoever's: when the records miss a game, whether it
    was kept at all, and for which player."""
    from sqlalchemy import create_engine, select

    from scoundrel.store.database import games

    engine = create_engine(database)
    with engine.connect() as connection:
        rows = connection.execute(
            select(games.c.player_id, games.c.mode, games.c.offline_key, games.c.status)
        ).all()
    engine.dispose()
    return [row._asdict() for row in rows]


def _turn_offline_play_on(page: Any) -> None:
    page.evaluate("() => navigator.serviceWorker.ready.then(() => true)")
    page.click("button.settings-button")
    # The box's label is whole as the dialog opens (with the download's size), read in one
    # go by the page: no waiting on the offline module.
    label = page.evaluate("() => document.querySelector('.offline-play label').textContent")
    assert label.count("MB") == 1, label
    page.check("input[name=offline_play]")
    status = page.locator(".offline-status")
    page.wait_for_function(
        "() => !document.querySelector('input[name=offline_play]').disabled", timeout=120_000
    )
    assert "Ready" in status.inner_text(), status.inner_text()
    page.keyboard.press("Escape")


def _new_game(page: Any, mode: str) -> None:
    page.locator("details.new-game").evaluate("d => d.open = true")
    page.check(f"input[name=mode][value={mode}]")
    page.check("input[name=ruleset][value=solo]")
    page.click("form.setup button[type=submit]")
    page.wait_for_selector(".table[data-moves='0'] .room-cards .card", timeout=60_000)


def _play_to_the_end(page: Any, reload_at: int) -> None:
    """Play the first offered move until the game ends; reload the page (offline) once,
    after ``reload_at`` moves, and find the game as it was."""
    for _turn in range(200):
        if page.locator(".over").count():
            return
        moves = int(page.locator(".table").get_attribute("data-moves") or 0)
        if moves == reload_at:
            room = page.locator(".room-cards").inner_text()
            page.reload()
            page.wait_for_selector(f".table[data-moves='{moves}']")
            assert page.locator(".room-cards").inner_text() == room
            reload_at = -1
        assert take_first_offered(page, use_keys=False)
        page.wait_for_selector(f".table[data-moves='{moves + 1}']", timeout=30_000)
    raise AssertionError("the game did not end")


def _history(page: Any, server: str) -> list[dict[str, Any]]:
    answer = page.request.get(f"{server}/api/me")
    history: list[dict[str, Any]] = answer.json()["history"]
    return history


def test_a_whole_game_offline_reaches_the_records(browser: Any, server: str, database: str) -> None:
    """Offline play on → no network → a random dungeon and the public dungeon of the day
    played to the end (the page reloaded midway) → back online, both are in the records,
    marked offline; a game changed by hand on the device is refused and kept there."""
    context = browser.new_context()
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(server + "/")
    page.wait_for_selector("body[data-ready=true]")
    _turn_offline_play_on(page)
    context.set_offline(True)
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    banner = page.locator(".offline-banner")
    assert "played on this device" in banner.inner_text()
    _new_game(page, "random")
    assert page.locator(".offline-badge").count() == 1
    assert page.locator("button.hint-button").count() == 0  # hints need the server
    _play_to_the_end(page, reload_at=3)
    over = page.locator(".over")
    assert "joins your records" in over.locator(".offline-waiting").inner_text()
    random_score = int(over.locator("dd.total").inner_text())
    _new_game(page, "daily")
    assert page.locator("button.undo").count() == 0  # the day's dungeon has no undo
    _play_to_the_end(page, reload_at=1)
    kept = page.evaluate(
        """() => new Promise((done) => {
             const open = indexedDB.open("scoundrel-offline", 1);
             open.onsuccess = () => {
               const all = open.result.transaction("games").objectStore("games").getAll();
               all.onsuccess = () => done(all.result);
             };
           })"""
    )
    assert sorted(game["mode"] for game in kept) == ["daily", "random"]
    assert all(game["status"] != "playing" for game in kept)
    # a copy changed by hand: one more point than its record gives
    forged = dict(next(g for g in kept if g["mode"] == "random"))
    forged.update(key="forgedforgedforged", id="offline-forgedforgedforged")
    forged["score"] += 1
    page.evaluate(
        """(game) => new Promise((done) => {
             const open = indexedDB.open("scoundrel-offline", 1);
             open.onsuccess = () => {
               const put = open.result.transaction("games", "readwrite").objectStore("games")
                 .put(game);
               put.onsuccess = () => done(true);
             };
           })""",
        forged,
    )
    context.set_offline(False)
    page.wait_for_function(
        """() => new Promise((done) => {
             const open = indexedDB.open("scoundrel-offline", 1);
             open.onsuccess = () => {
               const all = open.result.transaction("games").objectStore("games").getAll();
               all.onsuccess = () => done(all.result.length === 1 && !!all.result[0].refused);
             };
           })""",
        timeout=30_000,
    )
    page.wait_for_selector(".over:not(:has(.offline-waiting))")  # shown as the server keeps it
    history = _history(page, server)
    # both are kept when the page is back online, often in the same second, so the history
    # (newest first, by the second it was kept) may list them either way round
    assert sorted((g["offline"], g["mode"]) for g in history) == [
        (True, "archive"),
        (True, "random"),
    ], json.dumps(
        {
            "history": history,
            "kept": _every_game(database),
            "cookies": [cookie["value"] for cookie in context.cookies()],
        },
        default=str,
    )
    assert random_score in [g["score"] for g in history]
    me = page.request.get(f"{server}/api/daily").json()
    assert me["leaderboard"] == []  # never ranked
    page.goto(server + "/records")
    page.wait_for_selector("table.history")
    assert page.locator("table.history").inner_text().count("offline") >= 2
    assert not errors, errors
    context.close()
