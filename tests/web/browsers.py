"""What the browser tests share: Playwright driving Debian's Chromium (a test module that
imports this is skipped, saying why, where there is none: ``apt-get install chromium``;
CI installs it), an application served from a thread, and the browser the ``browser``
fixture hands out."""

from __future__ import annotations

import contextlib
import datetime as dt
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
playwright_api = pytest.importorskip("playwright.sync_api")

if not CHROMIUM.exists():
    pytest.skip(
        "no Chromium at /usr/bin/chromium (apt-get install chromium): browser tests skipped",
        allow_module_level=True,
    )


def served(tmp_path_factory: Any, name: str) -> Iterator[str]:
    """A module's server for browser tests: a fresh SQLite database named ``name`` and the
    tests' fixed date (2026-11-29); yields its address (use with ``yield from``)."""
    from scoundrel.web.app import create_app

    db = tmp_path_factory.mktemp("web") / f"{name}.sqlite3"
    app = create_app(f"sqlite:///{db}", today=lambda: dt.date(2026, 11, 29))
    with running(app) as base:
        yield base


@contextlib.contextmanager
def running(app: Any) -> Iterator[str]:
    """Serve ``app`` on a free loopback port from a thread; yields its address."""
    import uvicorn

    from scoundrel.cli.main import UVICORN_OPTIONS, listen

    sock = listen("127.0.0.1", 0)
    instance = uvicorn.Server(uvicorn.Config(app, **UVICORN_OPTIONS))
    thread = threading.Thread(target=instance.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not instance.started and time.monotonic() < deadline:
        time.sleep(0.05)
    assert instance.started, "the server did not start"
    try:
        yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    finally:
        instance.should_exit = True
        thread.join(10)
        sock.close()


def launched() -> Iterator[Any]:
    """A headless Chromium for the ``browser`` fixture (in conftest.py), closed after."""
    with playwright_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=str(CHROMIUM),
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
        yield chromium
        chromium.close()


def take_first_offered(
    page: Any, use_keys: bool, choices: str = ".choice:not(.blocked):not(.give)"
) -> bool:
    """Choose the room's cards in turn (by key or click) until one offers an action, then
    take the first one offered; False if no card offers any."""
    for index in range(page.locator(".room-cards .card").count()):
        if use_keys:
            page.keyboard.press(str(index + 1))
        else:
            page.locator(".room-cards .card").nth(index).click()
        offered = page.locator(choices)
        if offered.count():
            if use_keys:
                label = offered.first.locator("kbd").inner_text()
                page.keyboard.press("Enter" if label == "⏎" else label)
            else:
                offered.first.click()
            return True
    return False


#: Room cards being dealt (faded in from the dungeon) right now, in a page.
DEALING = """() => document.getAnimations().filter((a) => a.effect?.target?.closest?.(".room-cards")
  && a.effect.getKeyframes().some((frame) => "opacity" in frame)).length"""


def dealing(page: Any) -> int:
    """How many room cards are being dealt in ``page`` right now."""
    count: int = page.evaluate(DEALING)
    return count


def slow_motion(page: Any, rate: float = 0.05) -> None:
    """Play the page's animations at ``rate`` of their speed (Chromium's debugging
    protocol), so that a test can look at one while it runs."""
    session = page.context.new_cdp_session(page)
    session.send("Animation.enable")
    session.send("Animation.setPlaybackRate", {"playbackRate": rate})
