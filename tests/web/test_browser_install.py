"""Issue 39, installable: a web app manifest with icons, a service worker that keeps the
pages and this version's files (never an answer of the API), and pages that open without a
network and say so. Chromium itself is asked whether the page can be installed."""

from __future__ import annotations

import json
import struct
from collections.abc import Iterator
from typing import Any

import pytest
from browsers import served
from test_browser import _page, _play_one, _start


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    yield from served(tmp_path_factory, "install")


def _png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_the_manifest_names_the_game_and_its_icons(browser: Any, server: str) -> None:
    context, page, _ = _page(browser, server, locale="fr-FR")
    answer = page.request.get(server + "/manifest.webmanifest", headers={"accept-language": "fr"})
    assert answer.ok and answer.headers["content-type"].startswith("application/manifest+json")
    manifest = json.loads(answer.text())
    assert manifest["name"] == "Scoundrel" and manifest["lang"] == "fr"
    assert (manifest["start_url"], manifest["scope"], manifest["display"]) == (
        "/",
        "/",
        "standalone",
    )
    sizes: list[tuple[str, int]] = []
    for icon in manifest["icons"]:
        fetched = page.request.get(server + icon["src"])
        assert fetched.ok, icon
        if icon["type"] == "image/png":
            width, height = _png_size(fetched.body())
            assert f"{width}x{height}" == icon["sizes"]
            sizes.append((icon.get("purpose", "any"), width))
    assert sorted(sizes) == [("any", 192), ("any", 512), ("maskable", 512)]
    context.close()


def test_chromium_finds_the_page_installable(browser: Any, server: str) -> None:
    context, page, _ = _page(browser, server)
    page.wait_for_selector("body[data-ready]")
    page.evaluate("() => navigator.serviceWorker.ready.then(() => true)")
    session = context.new_cdp_session(page)
    errors = session.send("Page.getInstallabilityErrors")["installabilityErrors"]
    # a test's browser context is a private one, which Chromium never installs from:
    # every other criterion (manifest, icons, service worker) is met
    assert [error["errorId"] for error in errors] == ["in-incognito"], errors
    page.goto(server + "/api/docs")  # a page without the manifest is not installable
    refused = session.send("Page.getInstallabilityErrors")["installabilityErrors"]
    assert "no-manifest" in [error["errorId"] for error in refused], refused
    page.goto(server + "/")
    manifest = session.send("Page.getAppManifest")
    assert not manifest.get("errors"), manifest["errors"]
    context.close()


def test_without_a_network_the_pages_open_and_say_so(browser: Any, server: str) -> None:
    context, page, _ = _page(browser, server)
    _start(page)
    _play_one(page, use_keys=False)
    page.evaluate("() => navigator.serviceWorker.ready.then(() => true)")
    page.reload()  # now under the service worker
    page.wait_for_selector(".room-cards .card")
    assert page.evaluate("() => !!navigator.serviceWorker.controller")
    context.set_offline(True)
    page.goto(server + "/rules")
    page.wait_for_selector(".example")  # the rules, with their worked examples
    for path in ("/rules", "/daily", "/records", "/"):
        page.goto(server + path)
        page.wait_for_selector("header.top")
        note = page.locator(".offline-banner")
        assert note.is_visible() and "offline" in note.inner_text()
    context.set_offline(False)
    page.goto(server + "/")
    page.wait_for_selector(".room-cards .card")  # the game in play, as the server has it
    assert not page.locator(".offline-banner").count()
    # the copies kept are the pages, this version's files and the rules' examples: never a
    # game's position
    kept = page.evaluate(
        "async () => { const urls = []; for (const name of await caches.keys()) {"
        " const cache = await caches.open(name);"
        " for (const request of await cache.keys()) urls.push(request.url); } return urls; }"
    )
    api = [url for url in kept if "/api/" in url]
    assert api == [server + "/api/examples"], api
    assert {server + "/", server + "/rules"} <= set(kept)
    context.close()
