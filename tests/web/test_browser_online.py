"""Online co-op in real browsers: two players (two browser contexts, so two cookies) at one
table, each following it over the WebSocket; a watcher; a reload; a dropped connection;
the game played to its end through the interface. Playwright driving Debian's Chromium,
skipped (saying why) where there is none, like ``test_browser.py``.

The server decides whose turn it is and what is legal; these tests check that each page
shows it: only the player to act gets enabled buttons, the partner answers a given
monster, the leader sees where the partner points.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from typing import Any

import pytest
from browsers import dealing, served, take_first_offered

#: Buttons that act on the game: none may be enabled on a page whose turn it is not.
ACTIONS = "button.choice, button.flee, button.hint-button, button.undo, button.take-back"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    yield from served(tmp_path_factory, "online")


class Player:
    """One person's browser (its own cookies) and what its console said."""

    def __init__(self, browser: Any, server: str, locale: str = "en-US") -> None:
        self.server = server
        self.context = browser.new_context(locale=locale, viewport={"width": 1200, "height": 900})
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.posts: list[str] = []  # the API's POST addresses this page asked for
        self.page.on(
            "request",
            lambda request: (
                self.posts.append(request.url.split("/api/", 1)[-1])
                if request.method == "POST" and "/api/" in request.url
                else None
            ),
        )
        self.page.on("console", self._console)
        self.page.on("pageerror", lambda error: self.errors.append(f"page error: {error}"))

    def _console(self, message: Any) -> None:
        if message.type == "error":
            self.errors.append(message.text)

    def moves(self) -> int:
        return int(self.page.locator(".table").get_attribute("data-moves") or 0)

    def wait_moves(self, n: int, timeout: float = 5000) -> None:
        self.page.wait_for_selector(f".table[data-moves='{n}']", timeout=timeout)

    def banner(self, name: str) -> str:
        return str(self.page.locator(".online-banner").get_attribute(f"data-{name}") or "")

    def enabled_actions(self) -> int:
        return int(
            self.page.evaluate(
                "(css) => [...document.querySelectorAll(css)].filter((b) => !b.disabled).length",
                ACTIONS,
            )
        )

    def health(self, hero: int) -> str:
        return str(self.page.locator(f".hero[data-hero='{hero}'] .health .value").inner_text())

    def close(self) -> None:
        self.context.close()


def _open_table(player: Player, **checks: bool) -> str:
    """Player opens a table through the new-game form; answers the invite link shown."""
    page = player.page
    page.goto(player.server + "/")
    page.locator("details.new-game").evaluate("d => d.open = true")
    page.check("input[name=mode][value=random]")
    page.check("input[name=ruleset][value=online]")
    assert page.locator("input[name=mode][value=daily]").is_disabled()  # random dungeons only
    for name, on in checks.items():
        if on:
            page.check(f"input[name={name}]")
    page.click("form.setup button[type=submit]")
    page.wait_for_selector(".invite .invite-link")
    page.wait_for_selector(".room-cards .card")
    return str(page.locator(".invite-link").input_value())


def _join(player: Player, link: str) -> None:
    player.page.goto(link)
    player.page.wait_for_url(re.compile(r"/\?table="))
    player.page.wait_for_selector(".online-status .you-play")


def _table_id(player: Player) -> str:
    match = re.search(r"[?&]table=([^&]+)", player.page.url)
    assert match, player.page.url
    return match.group(1)


def _act(player: Player, use_keys: bool) -> None:
    """The player to act makes one move through the interface: answers a given monster, or
    chooses a card and the first of its actions that keeps it (not a give)."""
    page = player.page
    if page.locator(".pending.prompt").count():
        if use_keys:
            label = page.locator(".pending .answer kbd").first.inner_text()
            page.keyboard.press(label.lower())
        else:
            page.locator(".pending .answer").first.click()
        return
    offered = take_first_offered(page, use_keys, ".choice:not(.blocked):not(.give):enabled")
    assert offered, "no card offered a move to the player to act"


def test_two_players_play_a_table_to_the_end(browser: Any, server: str, dealt: Any) -> None:
    dealt(0)  # first room 6♠ 9♦ 9♥ Q♠
    one, two = Player(browser, server), Player(browser, server)
    a, b = one.page, two.page

    # hero 1 opens the table: a waiting panel with the invite and the watch link
    link = _open_table(one)
    table = _table_id(one)
    assert link.startswith(f"{server}/join/") and len(link) > len(f"{server}/join/") + 16
    invite = a.locator(".invite")
    assert "Waiting for your friend" in invite.inner_text()
    assert "Send them this link:" in invite.inner_text()
    assert "Anyone with the watch link" in invite.inner_text()
    assert a.locator(".invite .watch-link").input_value() == f"{server}/?table={table}"
    assert a.locator(".invite-link").get_attribute("readonly") is not None
    assert a.locator(".invite button.copy-invite").inner_text() == "Copy"
    assert a.locator(".you-play").inner_text() == "You play Hero 1"
    assert a.locator(".presence").get_attribute("data-presence") == "absent"

    # the friend follows the link: hero 2; the address becomes the table's
    _join(two, link)
    assert b.url == f"{server}/?table={table}"
    assert b.locator(".you-play").inner_text() == "You play Hero 2"
    a.wait_for_selector(".invite", state="detached")  # the seat is taken: no more invite
    a.wait_for_selector(".presence[data-presence='online']")
    b.wait_for_selector(".presence[data-presence='online']")
    assert a.locator(".presence").inner_text() == "Hero 2 is connected"
    assert one.banner("to-act") == "1" and two.banner("to-act") == "1"

    # hero 2 waits: the room and the leader's options, read-only; the help card is marked
    # only for the leader, who may give it
    assert "Hero 1 leads this room" in b.locator(".actions").inner_text()
    assert b.locator(".room-cards .give-mark").count() == 0
    assert a.locator(".room-cards .give-mark").count() > 0
    b.locator(".room-cards .card[data-card='9D']").click()
    assert dealing(b) == 0  # choosing deals nothing anew
    assert b.locator(".choice").count() >= 1
    assert two.enabled_actions() == 0
    b.keyboard.press("Enter")  # keys do nothing for the page whose turn it is not
    time.sleep(0.3)
    assert two.moves() == 0
    b.keyboard.press("Escape")

    # hero 1 chooses a card: hero 2 sees them thinking; a click plays; hero 2 sees it at once
    a.locator(".room-cards .card[data-card='9D']").click()
    b.wait_for_selector(".presence[data-presence='thinking']")
    assert b.locator(".presence").inner_text() == "Hero 1 is thinking…"
    a.locator(".choice[data-move='9D']").click()
    two.wait_moves(1)  # pushed (how fast is measured by benchmarks/tables.py, not here)
    assert (
        b.locator(".hero[data-hero='1'] .weapon-pile .card").first.get_attribute("data-card")
        == "9D"
    )
    assert b.locator(".presence").get_attribute("data-presence") == "online"  # thinking ended
    # the pushed view keeps the cards already dealt: no deal animation for them
    assert dealing(b) == 0

    # hero 1 gives Q♠: hero 2 chooses how to fight it
    a.locator(".room-cards .card[data-card='QS']").click()
    give = a.locator(".choice.give[data-move='>QS']")
    assert give.inner_text() == "G Give Q♠ to Hero 2 — they choose weapon or bare hands"
    give.click()
    prompt = b.locator(".pending.prompt")
    prompt.wait_for()
    assert prompt.locator("h2").inner_text() == "Hero 1 gave you Q♠: fight it"
    answer = prompt.locator(".answer[data-move='>QS/b']")
    assert answer.inner_text() == "B Fight Q♠ bare-handed: −12, health 8"
    a.wait_for_selector(".pending .take-back")
    assert "Waiting for Hero 2 to fight Q♠…" in a.locator(".pending").inner_text()
    assert one.enabled_actions() == 1  # "Take back" only
    assert a.locator(".room-cards .card.given").get_attribute("data-card") == "QS"
    # the leader may take it back, and give it again
    a.click(".pending .take-back")
    b.wait_for_selector(".pending.prompt", state="detached")
    a.locator(".room-cards .card[data-card='QS']").click()
    a.click(".choice.give[data-move='>QS']")
    b.locator(".pending.prompt .answer[data-move='>QS/b']").click()
    a.wait_for_function(
        "() => document.querySelector(\".hero[data-hero='2'] .health .value\")"
        "?.textContent === '8 / 20'"
    )
    assert one.health(1) == "20 / 20"
    one.wait_moves(2)

    # hero 2 points at a card: the leader sees a marker on it
    assert b.locator(".point-control").count() == 1
    b.locator(".room-cards .card[data-card='6S']").click()
    mark = a.locator(".room-cards .card[data-card='6S'] .point-mark")
    mark.wait_for(timeout=2000)
    assert "Hero 2 points here" in mark.inner_text()
    assert "Hero 2 points here" in str(
        a.locator(".room-cards .card[data-card='6S']").get_attribute("aria-label")
    )
    assert "Hero 1 sees that you point at 6♠." in b.locator(".point-control").inner_text()
    # a pointer is for one position: the next move ends it, on both pages
    a.locator(".room-cards .card[data-card='6S']").click()
    a.locator(".choice[data-move='6S/w']").click()
    two.wait_moves(3)
    assert a.locator(".point-mark").count() == 0
    assert b.locator(".room-cards .card.selected").count() == 0

    # a third person: the invite is taken, so they are offered to watch, read-only
    three = Player(browser, server)
    c = three.page
    c.goto(link)
    c.wait_for_selector(".online-notice")
    assert "Both seats at this table are taken" in c.locator(".online-notice").inner_text()
    c.click(".online-notice a.watch-table")
    c.wait_for_selector(".online-status .badge.watching")
    assert c.locator(".badge.watching").inner_text() == "Watching"
    assert c.url == f"{server}/?table={table}"
    assert three.moves() == 3
    c.locator(".room-cards .card").first.click()
    assert c.locator(".choice").count() >= 1 and three.enabled_actions() == 0
    assert c.locator(".point-control").count() == 0
    three.errors = [e for e in three.errors if "403" not in e]  # the refused seat, expected
    assert not three.errors, three.errors

    # hero 2 reloads mid-game: back in seat 2; the bare address brings them back too
    b.reload()
    b.wait_for_selector(".online-status .you-play")
    assert b.locator(".you-play").inner_text() == "You play Hero 2"
    assert two.moves() == 3 and two.health(2) == "8 / 20"
    b.goto(server + "/")
    b.wait_for_selector(".online-status .you-play")
    assert b.url == f"{server}/?table={table}"
    a.wait_for_selector(".presence[data-presence='online']")

    # and on to the end, keys and clicks by turns, whoever's turn it is
    for turn in range(200):
        if a.locator(".over").count():
            break
        moves = one.moves()
        acting = one if one.banner("to-act") == "1" else two
        waiting = two if acting is one else one
        assert waiting.enabled_actions() == 0
        _act(acting, use_keys=turn % 2 == 1)
        one.wait_moves(moves + 1)
        two.wait_moves(moves + 1)
        c.wait_for_selector(f".table[data-moves='{moves + 1}']")
    else:
        raise AssertionError("the game did not end")
    for player in (one, two, three):
        over = player.page.locator(".over")
        over.wait_for()
        assert over.locator("h2").inner_text() in (
            "The dungeon is cleared!",
            "The dungeon claims another hero.",
        )
    for player in (one, two):  # every move, give and take-back went over the table socket
        assert not [p for p in player.posts if p.endswith(("/moves", "/take-back"))], player.posts
    for player in (one, two):  # the players get the record, the replay and the analysis
        page = player.page
        assert page.locator(".over a.button[href='/replay/" + table + "']").count() == 1
        page.locator(".analysis button.analyse").wait_for()
        assert page.locator(".over button.primary").inner_text() == "Play again"
    assert c.locator(".over button.primary").count() == 0  # a watcher does not "play again"
    assert one.page.locator("dd.total").inner_text() == two.page.locator("dd.total").inner_text()

    # "Play again" on one page: the other is told, and joins the same new table as hero 2
    b.locator(".over button.primary").click()
    b.wait_for_selector(".invite")
    next_table = _table_id(two)
    assert next_table != table
    a.locator(".over button.join-again").click()
    # the finished table's "You play Hero 1" is still there until the new table shows
    a.wait_for_selector(".you-play:has-text('Hero 2')")
    assert a.locator(".you-play").inner_text() == "You play Hero 2"
    assert _table_id(one) == next_table
    b.wait_for_selector(".invite", state="detached")  # the seat is taken

    # the records show the partner
    a.goto(server + "/records")
    a.wait_for_selector("table.history")
    assert "with a friend" in a.locator("table.history").inner_text()

    assert not one.errors, one.errors
    assert not two.errors, two.errors
    assert not three.errors, three.errors
    for player in (one, two, three):
        player.close()


def test_a_silent_leader_table_has_no_pointing(browser: Any, server: str, dealt: Any) -> None:
    """C11: the partner of a silent leader cannot point; nothing is sent, nothing shown.
    The help card given and answered by keys: G, then B."""
    dealt(0)  # first room 6♠ 9♦ 9♥ Q♠
    one, two = Player(browser, server), Player(browser, server)
    sent: list[str] = []
    two.page.on(
        "websocket", lambda ws: ws.on("framesent", lambda payload: sent.append(str(payload)))
    )
    link = _open_table(one, silent_leader=True)
    assert "Silent leader" in one.page.locator(".rules-line").inner_text()
    _join(two, link)
    b = two.page
    assert "Hero 1 leads this room" in b.locator(".actions").inner_text()
    assert "Silent leader: no advice, no pointing." in b.locator(".actions").inner_text()
    b.locator(".room-cards .card").first.click()
    b.keyboard.press("2")
    assert b.locator(".point-control").count() == 0
    assert two.enabled_actions() == 0
    time.sleep(0.5)
    assert one.page.locator(".point-mark").count() == 0
    assert not [frame for frame in sent if '"point"' in frame], sent
    # keys at an online table: 1 then G gives 6♠; the partner answers with B
    a = one.page
    a.keyboard.press("1")
    a.keyboard.press("g")
    b.wait_for_selector(".pending.prompt")
    b.keyboard.press("b")
    one.wait_moves(1)
    assert one.health(2) == "14 / 20"
    # H: the leader's hint, counted, which the partner's page shows too
    a.keyboard.press("h")
    a.wait_for_selector(".advice")
    b.wait_for_selector(".hint-badge")
    assert b.locator(".hint-badge").inner_text() == "with 1 hint"
    assert not one.errors, one.errors
    assert not two.errors, two.errors
    one.close()
    two.close()


def test_a_dropped_connection_reconnects_and_catches_up(browser: Any, server: str) -> None:
    """The socket drops: "Reconnecting…" shows while the page tries again (backing off),
    in place of the partner's presence, which the page cannot know meanwhile; the view it
    gets once back catches up with the move made meanwhile, and the partner shows as
    connected again."""
    one, two = Player(browser, server), Player(browser, server)
    routes: list[Any] = []
    down = {"now": False}

    def route(ws: Any) -> None:
        if down["now"]:
            ws.close()  # the server cannot be reached
            return
        ws.connect_to_server()
        routes.append(ws)

    two.page.route_web_socket(re.compile(r"/api/tables/.*/live"), route)
    link = _open_table(one)
    _join(two, link)
    b = two.page
    b.wait_for_selector(".presence[data-presence='online']")
    down["now"] = True
    routes[-1].close()
    b.wait_for_selector(".online-status .connection")
    assert b.locator(".online-status .connection").inner_text() == "Reconnecting…"
    assert b.locator(".online-status .presence").count() == 0  # not "Hero 1 is connected"
    # hero 1 plays meanwhile; hero 2's page cannot hear of it
    a = one.page
    a.locator(".room-cards .card").first.click()
    a.locator(".choice:not(.give):enabled").first.click()
    one.wait_moves(1)
    time.sleep(0.8)
    assert two.moves() == 0
    down["now"] = False
    two.wait_moves(1, timeout=8000)  # back: the first view catches up
    b.wait_for_selector(".online-status .connection", state="detached")
    b.wait_for_selector(".presence[data-presence='online']")  # heard from hero 1 again
    assert not one.errors, one.errors
    assert not two.errors, two.errors
    one.close()
    two.close()


def test_an_invalid_invite_says_so_in_the_players_language(browser: Any, server: str) -> None:
    player = Player(browser, server, locale="de-DE")
    page = player.page
    page.goto(server + "/join/no-such-invitation-here")
    page.wait_for_selector(".online-notice")
    assert "Diese Einladung ist ungültig" in page.locator(".online-notice").inner_text()
    assert page.url == server + "/"  # a reload does not try again
    page.wait_for_selector("form.setup")
    assert [e for e in player.errors if "404" not in e] == []
    player.close()


def test_a_browser_hears_that_a_table_is_not_there(browser: Any, server: str) -> None:
    """The live socket of a table that does not exist closes with 4404 as a browser sees it
    (a socket refused before it opens would reach the page as a failed handshake, 1006,
    and the page would keep reconnecting to nothing)."""
    player = Player(browser, server)
    page = player.page
    page.goto(server + "/")
    code = page.evaluate(
        """() => new Promise((resolve) => {
            const ws = new WebSocket(`ws://${location.host}/api/tables/nothing/live`);
            ws.addEventListener("close", (event) => resolve(event.code));
        })"""
    )
    assert code == 4404
    player.close()
