"""The table page plays over the game socket (``/api/play``), in Chromium: new games and
moves travel as socket messages, and when the socket is missing or drops a move's answer,
the game goes on over HTTP with no move lost and none played twice."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from browsers import served, take_first_offered


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    yield from served(tmp_path_factory, "socket")


class Traffic:
    """What a page sends: HTTP requests to the API, and game socket messages."""

    def __init__(self, page: Any) -> None:
        self.posts: list[str] = []
        self.messages: list[dict[str, Any]] = []
        page.on("request", self.request)
        page.on("websocket", self.socket)

    def request(self, request: Any) -> None:
        if request.method == "POST" and "/api/" in request.url:
            self.posts.append(request.url.split("/api/", 1)[1])

    def socket(self, socket: Any) -> None:
        if socket.url.endswith("/api/play"):
            socket.on("framesent", lambda payload: self.messages.append(json.loads(payload)))


def moves_shown(page: Any) -> int:
    return int(page.locator(".table").get_attribute("data-moves") or 0)


def start(page: Any) -> None:
    page.locator("details.new-game").evaluate("d => d.open = true")
    page.check("input[name=ruleset][value=solo]")
    page.check("input[name=mode][value=random]")
    page.click("form.setup button[type=submit]")
    page.wait_for_selector(".room-cards .card")


def play(page: Any, moves: int) -> None:
    for _ in range(moves):
        before = moves_shown(page)
        assert take_first_offered(page, use_keys=False)
        page.wait_for_selector(f".table[data-moves='{before + 1}']")


#: A deal whose first room (2♣ 6♣ 5♦ 6♦) no three moves can lose: every test plays three.
SAFE_DEAL = 10


def test_new_games_and_moves_go_over_the_socket(browser: Any, server: str, dealt: Any) -> None:
    dealt(SAFE_DEAL)
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    page = context.new_page()
    traffic = Traffic(page)
    page.goto(server + "/")
    page.wait_for_function("() => document.querySelector('form.setup')")
    page.wait_for_selector("html[data-socket=open]", state="attached")
    start(page)
    play(page, 3)
    assert moves_shown(page) == 3
    assert [m["op"] for m in traffic.messages][:1] == ["new"]
    assert sum(m["op"] == "move" for m in traffic.messages) == moves_shown(page) > 0
    assert not [url for url in traffic.posts if url.endswith("/moves") or url == "games"]
    context.close()


def test_without_the_socket_the_game_plays_over_http(browser: Any, server: str, dealt: Any) -> None:
    dealt(SAFE_DEAL)
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    context.route_web_socket("**/api/play", lambda socket: socket.close())  # a proxy drops it
    page = context.new_page()
    traffic = Traffic(page)
    page.goto(server + "/")
    start(page)
    play(page, 3)
    assert traffic.posts.count("games") == 1
    assert sum(url.endswith("/moves") for url in traffic.posts) == moves_shown(page) == 3
    assert not page.locator("#toast.error").count()
    context.close()


def test_a_move_whose_answer_the_socket_lost_is_played_once(
    browser: Any, server: str, dealt: Any
) -> None:
    dealt(SAFE_DEAL)
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    moves_forwarded: list[str] = []

    def route(socket: Any) -> None:
        # pass everything on, but drop the connection just after the second move reached
        # the server, before its answer comes back
        upstream = socket.connect_to_server()

        def to_server(message: str | bytes) -> None:
            upstream.send(message)
            if json.loads(message).get("op") == "move":
                moves_forwarded.append(str(message))
                if len(moves_forwarded) == 2:
                    socket.close()

        socket.on_message(to_server)

    context.route_web_socket("**/api/play", route)
    page = context.new_page()
    traffic = Traffic(page)
    page.goto(server + "/")
    page.wait_for_selector("html[data-socket=open]", state="attached")
    start(page)
    play(page, 3)
    assert moves_shown(page) == 3
    gid = page.evaluate("() => new URL(location.href).searchParams.get('game')")
    game = page.evaluate(f"() => fetch('/api/games/{gid}').then((r) => r.json())")
    assert len(game["moves"]) == 3  # the lost answer's move was played once, not twice
    assert len(moves_forwarded) >= 2
    assert not page.locator("#toast.show.error").count()
    assert traffic.messages  # the socket carried the first moves
    context.close()
