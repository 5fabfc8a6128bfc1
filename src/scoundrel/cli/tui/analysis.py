"""A finished game's analysis, worked out in a thread: progress, and Esc cancels it."""

from __future__ import annotations

import threading
import time
from typing import ClassVar

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.widgets import Static

from scoundrel.solver import Analysis

from ..keep import KeptGame
from .app import ScrollingPage, app_of


class AnalysisScreen(ScrollingPage):
    """Could the deal be won, where it slipped, and the fair review with its chart."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q", "close", show=False),
    ]
    SCROLLER = "#analysis-page"

    def __init__(self, kept: KeptGame) -> None:
        super().__init__()
        self.kept = kept
        self.stop = threading.Event()
        self.result: Analysis | None = None

    def compose(self) -> ComposeResult:
        w = self.words
        with VerticalScroll(classes="page", id="analysis-page"):
            yield Static(w("analysis.title"), classes="page-title")
            yield Static(w("analysis.starting"), id="analysis")
        yield Static(f"{self.scroll_keys()} · Esc {w('analysis.cancel')}", id="keys")

    def on_mount(self) -> None:
        self.work()

    @work(thread=True, exclusive=True, group="analysis")
    def work(self) -> None:
        from scoundrel.solver import Cancelled, analyse

        game = self.kept.game
        last = [0.0]

        def progress(stage: str, count: int) -> None:
            if time.monotonic() - last[0] < 0.25:
                return
            last[0] = time.monotonic()
            w = self.words
            if stage == "review":
                text = w("analysis.review_stage", n=count, total=len(game.moves))
            else:
                text = w(f"analysis.{stage}_stage", nodes=w.number(count))
            self.app.call_from_thread(self.show, text)

        options = app_of(self).effort.analysis(cancel=self.stop.is_set)
        try:
            result = analyse(game.start, game.moves, progress=progress, **options)
        except Cancelled:
            return
        self.app.call_from_thread(self.done, result)

    def show(self, text: str) -> None:
        if not self.stop.is_set():
            self.query_one("#analysis", Static).update(text)

    def done(self, result: Analysis) -> None:
        self.result = result
        w = self.words
        self.query_one("#analysis", Static).update("\n".join(w.analysis(result)))
        self.query_one("#keys", Static).update(
            f"{self.scroll_keys()} · Esc {w('keys.close_button')}"
        )

    def action_close(self) -> None:
        self.stop.set()  # the search stops at its next check
        self.app.pop_screen()
