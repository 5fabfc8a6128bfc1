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
    files.push({ name: file.name, type: file.type, size: file.size, head: Array.from(bytes.slice(0, 24)) });
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
