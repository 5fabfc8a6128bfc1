"""Every page under the server's Content-Security-Policy, in a real browser: no console
error and no policy violation anywhere (Playwright driving Debian's Chromium; skipped,
saying why, where there is no Chromium)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from typing import Any

import pytest
from browsers import running

#: Recorded in the page before any of its scripts run.
WATCH = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.__violations.push(
    `${event.violatedDirective} blocked ${event.blockedURI || "inline"} at ` +
    `${event.sourceFile}:${event.lineNumber}`);
});
"""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    """A server, and the id of a finished game on it (for the replay page)."""
    from scoundrel.core import Rules
    from scoundrel.web.app import create_app
    from scoundrel.web.limits import Limits

    db = tmp_path_factory.mktemp("web") / "security.sqlite3"
    app = create_app(
        f"sqlite:///{db}", today=lambda: dt.date(2026, 11, 29), limits=Limits.unlimited()
    )
    store = app.state.store
    owner = store.ensure_player(None)
    game = store.start(owner, "random", Rules.solo())
    for _ in range(300):
        state = store.state(store.load(game.id))
        if state.is_over:
            break
        store.play(game.id, owner, state.legal_moves[0])
    with running(app) as base:
        yield base, game.id
    app.state.analyses.close()
    app.state.hints.close()


class Watched:
    """A page whose console errors, uncaught exceptions and policy violations are kept."""

    def __init__(self, browser: Any, locale: str = "en-US") -> None:
        self.context = browser.new_context(locale=locale, viewport={"width": 1000, "height": 800})
        self.context.add_init_script(WATCH)
        self.page = self.context.new_page()
        self.problems: list[str] = []
        self.page.on(
            "console",
            lambda message: (
                self.problems.append(f"console: {message.text}")
                if message.type == "error"
                else None
            ),
        )
        self.page.on("pageerror", lambda error: self.problems.append(f"exception: {error}"))

    def visit(self, url: str, ready: str) -> None:
        self.page.goto(url)
        self.page.wait_for_selector(ready)
        self.check(url)

    def check(self, where: str) -> None:
        self.page.wait_for_timeout(150)  # let late violations and errors arrive
        violations = self.page.evaluate("() => window.__violations")
        found = self.problems + [f"CSP: {v}" for v in violations]
        self.problems.clear()
        assert not found, f"{where}: {found}"


def test_every_page_runs_under_the_policy(browser: Any, site: tuple[str, str]) -> None:
    base, finished = site
    watched = Watched(browser)
    page = watched.page
    try:
        watched.visit(base + "/", "form.setup")
        # a game on the table: the health bars, the cards, the dealing animation
        page.locator("details.new-game").evaluate("d => d.open = true")
        page.check("input[name=ruleset][value=coop]")
        page.check("input[name=mode][value=random]")
        page.click("form.setup button[type=submit]")
        page.wait_for_selector(".room-cards .card")
        assert page.locator(".health .fill").count() == 2
        width = page.locator(".health .fill").first.evaluate("n => n.style.width")
        assert width == "100%"  # set through the CSSOM, which the policy allows
        page.locator(".room-cards .card").first.click()
        page.locator(".choice:not(.blocked)").first.click()
        page.wait_for_selector(".table[data-moves='1']")
        watched.check("the table")
        watched.visit(base + "/rules", "main h1")
        watched.visit(base + "/daily", "main h1")
        watched.visit(base + "/records", "section.transfer")
        page.click("button.make-code")
        page.wait_for_selector(".transfer output.code")
        watched.check("the records page with a transfer code")
        watched.visit(f"{base}/replay/{finished}", ".replay-stage .board")
        page.click(".replay-controls .primary")
        watched.check("the replay")
        watched.visit(base + "/?lang=ru", ".room-cards .card")  # the game in play
    finally:
        watched.context.close()


def test_the_watch_catches_a_violation(browser: Any, site: tuple[str, str]) -> None:
    """The checks above would see a blocked inline style or script."""
    base, _ = site
    watched = Watched(browser)
    try:
        watched.visit(base + "/rules", "main h1")
        watched.page.evaluate(
            """() => {
              document.body.setAttribute("style", "color: red");
              const script = document.createElement("script");
              script.textContent = "window.ran = true";
              document.body.append(script);
            }"""
        )
        with pytest.raises(AssertionError, match="CSP"):
            watched.check("a page that breaks the policy")
        assert watched.page.evaluate("() => window.ran") is None
    finally:
        watched.context.close()
