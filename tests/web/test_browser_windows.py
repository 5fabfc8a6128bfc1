"""Issue 34, one state for every window: the same game open in several windows of one
player, in Chromium.

Tabs of one browser follow each other's moves and undos (a BroadcastChannel named
``scoundrel-games``). Windows that cannot hear each other (two browser profiles sharing the
player's cookie, or a tab that slept) are stale-prone: whatever such a window asks on a
position the game has left, a move or an undo, the server refuses, and the window then
shows the game as it stands. No move is ever lost, or taken back, that the acting window
had not shown.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from browsers import playwright_api, served, take_first_offered

expect = playwright_api.expect

#: A deal whose first rooms are gentle: the runs below keep their game alive by never
#: choosing a move the page marks deadly.
SAFE_DEAL = 10
#: The English catalog, for the texts the page shows.
CATALOG = Path(__file__).parents[2] / "src/scoundrel/i18n/messages/en.json"

#: What a page shows of its game: the moves (the table's ``data-moves``), the undos (the
#: badge, "undo used once" / "undo used N times", absent before any) and the room.
SHOWN = """() => {
  const table = document.querySelector(".table");
  if (!table) return null;
  const badge = document.querySelector(".undo-badge");
  const room = [...document.querySelectorAll(".room-cards .card")].map((c) => c.dataset.card);
  return { moves: Number(table.dataset.moves), badge: badge ? badge.textContent : "", room };
}"""
#: True once a page shows another position than ``[moves, badge]``.
MOVED_ON = """([moves, badge]) => {
  const table = document.querySelector(".table");
  const shown = document.querySelector(".undo-badge");
  return !!table && (Number(table.dataset.moves) !== moves
    || (shown ? shown.textContent : "") !== badge);
}"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    yield from served(tmp_path_factory, "windows")


@pytest.fixture(scope="module")
def texts() -> dict[str, Any]:
    import json

    catalog: dict[str, Any] = json.loads(CATALOG.read_text("utf-8"))
    return catalog


def undos_of(badge: str) -> int:
    """The undo count the badge shows (English)."""
    if not badge:
        return 0
    if badge == "undo used once":
        return 1
    found = re.fullmatch(r"undo used (\d+) times", badge)
    assert found, badge
    return int(found.group(1))


def shown(page: Any) -> tuple[int, int, list[str]]:
    """The position ``page`` shows: its moves, its undos and its room's cards."""
    view = page.evaluate(SHOWN)
    assert view is not None, "no game shown"
    return view["moves"], undos_of(view["badge"]), view["room"]


def stands(context: Any, server: str, gid: str) -> dict[str, Any]:
    """The game as the server has it, asked with the player's cookie (the context's)."""
    response = context.request.get(f"{server}/api/games/{gid}")
    assert response.ok, response.text()
    game: dict[str, Any] = response.json()
    return game


def position(game: dict[str, Any]) -> tuple[int, int, list[str]]:
    return len(game["moves"]), game["undo_count"], game["room"]


def new_window(browser: Any) -> Any:
    return browser.new_context(locale="en-US", viewport={"width": 1200, "height": 900})


def start(page: Any, server: str) -> str:
    """A new random solo dungeon in ``page``; returns its id."""
    page.goto(server + "/")
    page.locator("details.new-game").evaluate("d => d.open = true")
    page.check("input[name=ruleset][value=solo]")
    page.check("input[name=mode][value=random]")
    page.click("form.setup button[type=submit]")
    page.wait_for_selector(".room-cards .card")
    page.wait_for_function("() => new URL(location.href).searchParams.has('game')")
    gid: str = page.evaluate("() => new URL(location.href).searchParams.get('game')")
    return gid


def open_game(page: Any, server: str, gid: str) -> None:
    page.goto(f"{server}/?game={gid}")
    page.wait_for_selector(".room-cards .card")


def play_one(page: Any) -> None:
    """One move through the keys, and wait until the page shows it."""
    moves = shown(page)[0]
    assert take_first_offered(page, use_keys=True), "no card offered a move"
    page.wait_for_selector(f".table[data-moves='{moves + 1}']")


def settled(page: Any, before: tuple[int, int, list[str]]) -> None:
    """Wait until ``page`` shows another position than ``before`` (its own request's
    answer, or the game as it stands after a refusal)."""
    moves, undos, _ = before
    badge = "" if not undos else "undo used once" if undos == 1 else f"undo used {undos} times"
    page.wait_for_function(MOVED_ON, arg=[moves, badge], timeout=10_000)


def test_a_tab_follows_another_tab_of_the_same_browser(
    browser: Any, server: str, dealt: Any, texts: dict[str, Any]
) -> None:
    """Issue 34 (one state for every window): two tabs of one browser (one context, one
    cookie) show the same game. A move, then an undo, made in tab A appear in tab B without
    any key pressed there (A says so on the BroadcastChannel), with a note that the game
    changed meanwhile; and B's next move, made on that position, is played and followed by
    A in turn."""
    dealt(SAFE_DEAL)
    context = new_window(browser)
    a = context.new_page()
    gid = start(a, server)
    b = context.new_page()
    open_game(b, server, gid)
    assert shown(b) == shown(a)
    play_one(a)
    expect(b.locator(".table")).to_have_attribute("data-moves", "1")
    expect(b.locator("#toast")).to_have_text(texts["error.changed_meanwhile"])
    assert shown(b) == shown(a) == position(stands(context, server, gid))
    a.keyboard.press("u")
    expect(a.locator(".undo-badge")).to_have_text("undo used once")
    expect(b.locator(".undo-badge")).to_have_text("undo used once")
    expect(b.locator(".table")).to_have_attribute("data-moves", "0")
    assert shown(b) == shown(a) == (0, 1, stands(context, server, gid)["room"])
    play_one(b)  # B is current: its move is played, and A follows
    expect(a.locator(".table")).to_have_attribute("data-moves", "1")
    game = stands(context, server, gid)
    assert (len(game["moves"]), game["undo_count"]) == (1, 1)
    assert shown(a) == shown(b) == position(game)
    assert not a.locator("#toast.show.error").count() and not b.locator("#toast.error").count()
    context.close()


def test_a_stale_window_takes_back_and_plays_nothing_it_did_not_show(
    browser: Any, server: str, dealt: Any, texts: dict[str, Any]
) -> None:
    """Issue 34 (one state for every window): two browser profiles (contexts) share the
    player's cookie, so nothing tells window B when window A plays. After A's move, B's
    undo (U) on its older view is refused: B says so and shows the game as it stands,
    with A's move still played. After A undoes and plays again (the same move count as B
    shows, one undo more), B's undo is refused the same way; and so is a move chosen on
    B's older view: nothing of it is played. A window coming back into view
    (``visibilitychange``) shows the game as it stands too. A hint asked on an older view
    is refused and not counted; asked on the game as it stands, it names that position
    (``?after=n&undos=u``) and is counted."""
    dealt(SAFE_DEAL)
    one = new_window(browser)
    a = one.new_page()
    gid = start(a, server)
    play_one(a)
    two = new_window(browser)
    two.add_cookies(one.cookies())  # the same player, another browser: no channel between
    b = two.new_page()
    open_game(b, server, gid)
    assert shown(b) == shown(a) == position(stands(two, server, gid))

    def refused(act: Any, toast: str = "error.stale_position") -> dict[str, Any]:
        """B acts on its older view: nothing changes, and B shows the game as it stands."""
        now = stands(one, server, gid)
        before = shown(b)
        act()
        settled(b, before)
        expect(b.locator("#toast.show.error")).to_have_text(texts[toast])
        assert stands(two, server, gid) == now  # A's moves are all still played
        assert shown(b) == position(now)
        return now

    # A plays; B, still showing one move, asks to undo it
    play_one(a)
    assert shown(b)[0] == 1
    refused(lambda: b.keyboard.press("u"))

    # A undoes and plays: two moves again, but not the position B shows
    a.keyboard.press("u")
    expect(a.locator(".table")).to_have_attribute("data-moves", "1")
    play_one(a)
    assert shown(b)[:2] == (2, 0)
    now = refused(lambda: b.keyboard.press("u"))
    assert (len(now["moves"]), now["undo_count"]) == (2, 1)

    # A plays again; B chooses a move on its older view: refused, not played
    play_one(a)
    refused(lambda: take_first_offered(b, use_keys=True))

    # A plays once more; B comes back into view and shows it at once
    play_one(a)
    now = stands(one, server, gid)
    before = shown(b)
    b.evaluate("() => document.dispatchEvent(new Event('visibilitychange'))")
    settled(b, before)
    expect(b.locator("#toast")).to_have_text(texts["error.changed_meanwhile"])
    assert shown(b) == position(now)

    # a hint (H) asked on B's older view is refused and not counted; on the game as it
    # stands it names that position and is given and counted
    play_one(a)
    now = refused(lambda: b.keyboard.press("h"))
    assert now["hint_count"] == 0
    with b.expect_response(lambda r: "/hint?" in r.url) as answered:
        b.keyboard.press("h")
    asked = parse_qs(urlsplit(answered.value.url).query)
    assert asked == {"after": [str(len(now["moves"]))], "undos": [str(now["undo_count"])]}
    assert answered.value.ok and answered.value.json()["hint_count"] == 1
    expect(b.locator(".hint-badge")).to_have_text("with 1 hint")
    one.close()
    two.close()


def act(page: Any, rng: random.Random, undo: bool) -> str | None:
    """One step in ``page``: an undo (U), or a move (a room card's key, then the key of
    one of the actions it offers, never one the page marks deadly). Returns the move's
    token (None for an undo, or when no card offered a safe action)."""
    if undo:
        page.keyboard.press("u")
        return None
    cards = page.locator(".room-cards .card").count()
    for index in rng.sample(range(cards), cards):
        page.keyboard.press(str(index + 1))
        offered = page.locator(".choice:not(.blocked):not(.give):not(.deadly)")
        if offered.count():
            choice = offered.nth(rng.randrange(offered.count()))
            token: str = choice.get_attribute("data-move")
            label = choice.locator("kbd").inner_text()
            page.keyboard.press("Enter" if label == "⏎" else label)
            return token
        page.keyboard.press(str(index + 1))  # chosen again: let go
    return None


def test_two_stale_prone_windows_in_turn_lose_nothing(
    browser: Any, server: str, dealt: Any, texts: dict[str, Any]
) -> None:
    """Issue 34 (one state for every window): two windows that cannot hear each other
    (two contexts, one cookie) take 30 steps in a seeded random order, each a move (a card
    key and an action key) or an undo (U). After each step the game the API returns is
    the model's: a window's move or undo is applied if and only if the position the window
    showed (moves and undos) was the game's; else nothing changes, the window says so and
    shows the game as it stands. Some of the refusals come where the window showed as many
    moves as the game had (an undo and another move meanwhile), which a move count alone
    would have let through."""
    dealt(SAFE_DEAL)
    rng = random.Random(34)
    one = new_window(browser)
    first = one.new_page()
    gid = start(first, server)
    two = new_window(browser)
    two.add_cookies(one.cookies())
    second = two.new_page()
    open_game(second, server, gid)
    windows = [first, second]
    model = stands(one, server, gid)
    applied = refused = counted_alike = 0
    for step in range(30):
        page = windows[rng.randrange(2)]
        before = shown(page)
        current = before[:2] == (len(model["moves"]), model["undo_count"])
        undo = before[0] > 0 and rng.random() < 0.4
        token = act(page, rng, undo)
        if not undo and token is None:
            continue  # no safe move in this room as the window shows it
        settled(page, before)
        game = stands(one, server, gid)
        if current:
            applied += 1
            expected = (
                (model["moves"][:-1], model["undo_count"] + 1)
                if undo
                else ([*model["moves"], token], model["undo_count"])
            )
        else:
            refused += 1
            counted_alike += before[0] == len(model["moves"])
            expected = (model["moves"], model["undo_count"])
            expect(page.locator("#toast.show.error")).to_have_text(texts["error.stale_position"])
        assert (game["moves"], game["undo_count"]) == expected, (step, page is first, undo)
        assert game["status"] == "playing"
        assert shown(page) == position(game), step  # the window shows it as it stands
        model = game
    assert applied >= 10 and refused >= 5, (applied, refused)
    assert counted_alike >= 1, "no refusal where the move counts matched"
    one.close()
    two.close()
