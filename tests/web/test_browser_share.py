"""Issue 39: the dungeon of the day's result as an image, and the phone's share sheet.

The result card is drawn by the page (SVG, then a PNG for sharing): the date, the score,
the health, one square per room; never a card. Where the browser has ``navigator.share``
the result goes to the share sheet, with the image where it takes files; elsewhere the
text is copied, as before."""

from __future__ import annotations

import re
import struct
import urllib.parse
from collections.abc import Iterator
from typing import Any

import pytest
from browsers import served
from test_browser import _finish, _page

CARD = re.compile(r"(?<![\w/])(?:10|[2-9JQKA])[CDHS♣♦♥♠](?!\w)")

#: A share sheet that takes files, as a phone's: it keeps what it was given.
SHARE_SHEET = """
navigator.canShare = (data) => true;
navigator.share = async (data) => {
  const files = [];
  for (const file of data.files ?? []) {
    const bytes = new Uint8Array(await file.arrayBuffer());
    const head = Array.from(bytes.slice(0, 24));
    files.push({ name: file.name, type: file.type, size: file.size, head });
  }
  window.shared = { text: data.text, files };
};
"""
#: A browser with no share sheet (Chromium on Linux has none; said here, not assumed).
NO_SHARE_SHEET = "delete Navigator.prototype.share; delete Navigator.prototype.canShare;"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    yield from served(tmp_path_factory, "share")


def _daily(browser: Any, server: str, script: str) -> tuple[Any, Any, dict[str, Any]]:
    context, page, watcher = _page(browser, server)
    context.add_init_script(script)
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.goto(server + "/daily")
    page.locator("main button.primary").click()
    page.wait_for_selector(".room-cards .card")
    _finish(page)
    return context, page, watcher.views[-1]


def _card_svg(page: Any) -> str:
    source: str = page.locator(".over img.share-card").get_attribute("src")
    assert source.startswith("data:image/svg+xml")
    return urllib.parse.unquote(source.partition(",")[2])


def test_the_result_card_shows_the_day_and_never_a_card(browser: Any, server: str) -> None:
    context, page, end = _daily(browser, server, NO_SHARE_SHEET)
    svg = _card_svg(page)
    text = " ".join(re.findall(r">([^<>]+)<", svg))
    assert "November 29, 2026" in text and "Solo" in text
    assert f"Score {str(end['score']).replace('-', chr(0x2212))}" in text
    assert f"Health {max(0, end['heroes'][0]['health'])}/20" in text
    rooms = re.findall(r'class="room (\w+)"', svg)
    assert len(rooms) == len(end["run"])  # one square per room
    assert not CARD.search(text), text
    # the image is drawn (decoded at its size), and read as nothing: the spoken form says it
    image = page.locator(".over img.share-card")
    assert image.evaluate("(img) => img.complete && img.naturalWidth") == 600
    assert image.get_attribute("alt") == ""
    context.close()


def test_the_share_sheet_gets_the_text_and_the_image(browser: Any, server: str) -> None:
    context, page, _ = _daily(browser, server, SHARE_SHEET)
    page.locator(".over button.share").click()
    page.wait_for_function("() => window.shared !== undefined")
    shared = page.evaluate("() => window.shared")
    assert shared["text"] == page.locator(".over .share-preview").inner_text()
    (file,) = shared["files"]
    assert file["name"] == "scoundrel-2026-11-29-solo.png"
    assert file["type"] == "image/png" and file["size"] > 1000
    head = bytes(file["head"])
    assert head[:8] == b"\x89PNG\r\n\x1a\n"
    assert struct.unpack(">II", head[16:24]) == (1200, 630)  # twice the card's size
    context.close()


def test_without_a_share_sheet_the_text_is_copied(browser: Any, server: str) -> None:
    context, page, _ = _daily(browser, server, NO_SHARE_SHEET)
    assert page.evaluate("() => typeof navigator.share") == "undefined"
    page.locator(".over button.share").click()
    page.wait_for_selector("#toast:has-text('copied')")
    copied = page.evaluate("() => navigator.clipboard.readText()")
    assert copied == page.locator(".over .share-preview").inner_text()
    with page.expect_download() as download:
        page.locator(".over button.save-card").click()
    saved = download.value
    assert saved.suggested_filename == "scoundrel-2026-11-29-solo.png"
    with open(saved.path(), "rb") as png:
        assert png.read(8) == b"\x89PNG\r\n\x1a\n"
    context.close()


def test_achievements_are_toasted_when_earned_and_listed_in_the_records(
    browser: Any, server: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 39: the game's last move, played on the page, earns what the server decides
    from its record; each is toasted once, and the records list every achievement."""
    import scoundrel.store.games as games_module
    from scoundrel.core import Rules, State, random_deal
    from scoundrel.solver import solve

    rules = Rules.solo()
    monkeypatch.setattr(games_module, "random_deal", lambda r, *_: random_deal(r, 7))
    line = solve(State.new(rules, random_deal(rules, 7)), best=True).line
    context, page, _ = _page(browser, server)
    game = page.request.post(server + "/api/games", data={"ruleset": "solo"}).json()
    for n, move in enumerate(line[:-1]):
        for _ in range(20):  # as fast as the server's rate limit allows
            answer = page.request.post(
                f"{server}/api/games/{game['id']}/moves", data={"move": move.token, "after": n}
            )
            if answer.status != 429:
                break
            page.wait_for_timeout(1000 * answer.json()["error"]["params"]["wait"])
        assert answer.ok, answer.text()
    page.goto(f"{server}/?game={game['id']}")
    last = line[-1]
    assert last.card is not None
    toasts: list[str] = []
    page.expose_function("sawToast", lambda text: toasts.append(text))
    page.evaluate(
        "() => new MutationObserver(() => window.sawToast(document.getElementById('toast')"
        ".textContent)).observe(document.getElementById('toast'), {childList: true})"
    )
    page.locator(f".room-cards .card[data-card='{last.card.code}']").click()
    page.locator(f".choices button[data-move='{last.token}']").click()
    page.wait_for_selector(".over")
    page.wait_for_function(
        "() => document.getElementById('toast').textContent.startsWith('Achievement')"
    )
    page.wait_for_timeout(6000)  # one toast after another
    names = {"First light", "Clean hands", "Untouched", "High score", "Escape artist"}
    assert names <= {text.removeprefix("Achievement earned: ") for text in toasts}
    page.goto(server + "/records")
    page.wait_for_selector(".achievement-list")
    earned = page.locator(".achievement-list li.earned")
    assert earned.count() == 5
    assert re.search(r"earned [A-Z][a-z]{2} \d{1,2}, \d{4}", earned.first.inner_text())
    assert page.locator(".achievement-list li").count() == 22
    context.close()
