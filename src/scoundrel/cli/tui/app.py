"""The full-screen game's application: its language, its store and its screens.

It never ends a game by accident. Below the smallest size a screen can show, a notice asks
for a larger terminal and gives the screen back when it grows (every screen is laid out at
its smallest size at least, so that no widget is ever asked to fit in nothing). An
unexpected error is written to a log file in the data folder and ends the program with
status 70 (:mod:`scoundrel.cli.crash`), never 130, the status of Ctrl+C. SIGTERM and SIGHUP
leave as Ctrl+C does, and at once if the program cannot leave in its own time.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as _dt
import os
import sys
import textwrap
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from rich.console import RenderableType
from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.app import App
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.dom import DOMNode
from textual.screen import ModalScreen, Screen
from textual.scrollbar import ScrollBar, ScrollBarRender
from textual.strip import Strip
from textual.widget import Widget
from textual.widgets import Static

from scoundrel.core import Rules
from scoundrel.store.games import StoreError

from ..effort import Effort
from ..keep import Keeper, KeptGame
from ..leaving import EXIT_INTERRUPTED, on_leaving_signals
from ..words import Words

#: The smallest terminal any screen is laid out in (the table asks for more, see
#: :meth:`Page.smallest`); below it, :class:`TooSmallScreen` asks for a larger one.
SMALLEST = (40, 12)
Size = tuple[int, int]
#: How long SIGTERM or SIGHUP wait for the program to leave in its own time before it
#: leaves at once (every move is in the store already: nothing is lost either way).
LEAVE_SECONDS = 2.0


@dataclass(frozen=True)
class Setup:
    """What the next game is: a random dungeon or the dungeon of a day, and its rules."""

    mode: str = "random"
    rules: Rules = field(default_factory=Rules.solo)
    day: _dt.date | None = None
    seed: int | None = None


def words_of(node: DOMNode) -> Words:
    """The words of the app a screen or widget belongs to."""
    app = node.app
    assert isinstance(app, ScoundrelApp)
    return app.words


def app_of(node: DOMNode) -> ScoundrelApp:
    app = node.app
    assert isinstance(app, ScoundrelApp)
    return app


class Page(Screen[None]):
    """A screen of the game: it speaks the app's language; Esc (where bound) closes it."""

    @property
    def words(self) -> Words:
        return words_of(self)

    def smallest(self) -> list[Size]:
        """The smallest terminals (columns, rows) this screen can be shown in whole: any
        terminal at least as wide and as tall as one of them."""
        return [SMALLEST]

    def on_screen_resume(self) -> None:
        app_of(self).fit()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """No key acts on a screen before it is drawn, or once it is closed (a key
        pressed while a screen opens or closes goes nowhere)."""
        return self.is_mounted and self.is_attached

    def action_close(self) -> None:
        self.app.pop_screen()


#: The keys that scroll a page or a list longer than the terminal (``action_scroll``).
SCROLLING: list[BindingType] = [
    Binding(key, f"scroll('{how}')", show=False)
    for key, how in (
        ("up", "up"),
        ("down", "down"),
        ("pageup", "page_up"),
        ("pagedown", "page_down"),
        ("home", "home"),
        ("end", "end"),
    )
]


def scroll_keys(words: Words) -> str:
    """The scrolling keys, for a keys line."""
    return "↑↓ PgUp/PgDn" if not words.ascii_only else "Up/Down PgUp/PgDn"


class ScrollingPage(Page):
    """A page longer than the terminal may be: the arrows, PgUp, PgDn, Home and End
    scroll it (its keys line says so)."""

    SCROLLER: ClassVar[str] = ".page"
    BINDINGS: ClassVar[list[BindingType]] = SCROLLING

    def scroll_keys(self) -> str:
        return scroll_keys(self.words)

    def action_scroll(self, how: str) -> None:
        scroller = self.query_one(self.SCROLLER)
        getattr(scroller, f"scroll_{how}")(animate=False)


class ListDialog(ModalScreen[None]):
    """A list over the table (the keys, the moves so far): a title, the list, which the
    arrows, PgUp and PgDn scroll where it is longer than the terminal, and the keys line;
    Esc closes it (and the keys a list adds to its bindings)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        *SCROLLING,
        Binding("escape", "close", show=False),
    ]

    def __init__(self, title: str, body: RenderableType, at_end: bool = False) -> None:
        super().__init__()
        self.title_text = title
        self.body = body
        self.at_end = at_end

    def compose(self) -> Any:
        w = words_of(self)
        with Vertical(classes="dialog list-dialog"):
            yield Static(self.title_text, classes="page-title")
            with VerticalScroll(classes="list-body"):
                yield Static(self.body)
            yield Static(f"{scroll_keys(w)} · Esc {w('keys.close_button')}", classes="dim")

    def on_mount(self) -> None:
        if self.at_end:
            body = self.query_one(".list-body", VerticalScroll)
            body.call_after_refresh(body.scroll_end, animate=False)

    def action_scroll(self, how: str) -> None:
        getattr(self.query_one(".list-body", VerticalScroll), f"scroll_{how}")(animate=False)

    def action_close(self) -> None:
        self.dismiss(None)


class Notice(Widget):
    """A few lines, centred and cut to whatever room there is (down to none at all)."""

    def __init__(self, lines: list[str], **options: Any) -> None:
        super().__init__(**options)
        self.notice_lines = lines

    def render_line(self, y: int) -> Strip:
        width, height = self.size
        lines = [  # each line wrapped to the width there is, the first one bold
            (part, number == 0)
            for number, line in enumerate(self.notice_lines)
            for part in textwrap.wrap(line, max(1, width)) or [""]
        ]
        top = max(0, (height - len(lines)) // 2)
        text, bold = lines[y - top] if 0 <= y - top < len(lines) else ("", False)
        line = text[:width].center(width)
        return Strip([Segment(line, Style(bold=bold))], width)


class TooSmallScreen(Screen[None]):
    """The terminal is smaller than the screen under this one can show: say how large it
    must be; the app takes this away when it grows. Only quitting works meanwhile."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("q", "quit", show=False)]

    def __init__(self, needed: Size, now: Size) -> None:
        super().__init__()
        self.needed = needed
        self.now = now

    def compose(self) -> Any:
        yield Notice(self.text(), id="too-small")

    def text(self) -> list[str]:
        w = words_of(self)
        width, height = self.needed
        return [
            w("term.too_small", width=width, height=height),
            w("term.too_small_now", width=self.now[0], height=self.now[1]),
            w("term.too_small_quit"),
        ]

    def redraw(self) -> None:
        notice = self.query_one(Notice)
        notice.notice_lines = self.text()
        notice.refresh()

    def action_quit(self) -> None:
        self.app.exit(0)


class AsciiScrollBars(ScrollBarRender):
    """Scroll bars drawn with spaces and colour alone, for a terminal without block
    characters (which it would show as ``?``)."""

    VERTICAL_BARS: ClassVar[list[str]] = [" "] * 8
    HORIZONTAL_BARS: ClassVar[list[str]] = [" "] * 8


class ScoundrelApp(App[int]):
    """Scoundrel, full screen. ``start`` opens a game at once (``--seed``, ``--daily``,
    ``--load``); otherwise a game in play is offered, else the new-game screen."""

    TITLE = "Scoundrel"
    CSS_PATH = "scoundrel.tcss"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+c", "interrupt", show=False, priority=True),
        Binding("ctrl+d", "quit", show=False),
    ]

    def __init__(
        self,
        keeper: Keeper,
        words: Words,
        start: Setup | KeptGame | None = None,
        setup: Setup | None = None,
        effort: Effort | None = None,
        today: Any = _dt.date.today,
        watch_signals: bool = False,
    ) -> None:
        super().__init__()
        self.keeper = keeper
        self.words = words
        self.start = start
        self.setup = setup or Setup()
        """The choices of the new-game screen (from the command line's options)."""
        self.effort = effort or Effort()
        self.today = today
        """Today's date (injectable: a test's clock)."""
        self.crash_log: Path | None = None
        """Where the traceback of an unexpected error went (the app then exits with 70)."""
        self.crashed: str | None = None
        """The name of the unexpected error that ended the app, if one did."""
        self._leaving: threading.Timer | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self.watch_signals = watch_signals
        """Leave on SIGTERM and SIGHUP (the command's app; a test's app leaves them be)."""

    def on_mount(self) -> None:
        from .menus import NewGameScreen, ResumeScreen

        self.title = self.words("app.name")
        if self.words.ascii_only:  # borders drawn with + - | where lines cannot be shown
            self.add_class("ascii")
            ScrollBar.renderer = AsciiScrollBars
        # a closed terminal or a kill: leave cleanly (every move is already kept), from a
        # thread of its own, so that a main thread stuck in an error cannot hold it up
        if self.watch_signals:
            self._loop = asyncio.get_running_loop()
            with contextlib.suppress(ValueError):  # not the main thread (a test's app)
                on_leaving_signals(self.leave_on_signal, quiet=True)
        if isinstance(self.start, KeptGame):
            self.open_game(self.start)
        elif isinstance(self.start, Setup):
            self.new_game(self.start)
        else:
            waiting = self.keeper.unfinished()
            if waiting is not None:
                self.push_screen(ResumeScreen(waiting))
            else:
                self.push_screen(NewGameScreen(self.setup))

    # ------------------------------------------------------------------ size

    def on_resize(self, event: events.Resize) -> None:
        self.fit(event.size)  # before the app's own handler keeps the size: the event's

    def fit(self, size: tuple[int, int] | None = None) -> None:
        """Show :class:`TooSmallScreen` while the terminal (``size``, by default the
        app's) is smaller than the screen under it can show, and take it away when it is
        large enough again."""
        if not self.screen_stack:
            return
        width, height = size or self.size
        top = self.screen
        if isinstance(top, TooSmallScreen):
            below = self.screen_stack[-2] if len(self.screen_stack) > 1 else None
            needed = self.needed(below, width, height)
            if needed is None:
                self.pop_screen()
            else:
                top.needed, top.now = needed, (width, height)
                top.redraw()
            return
        needed = self.needed(top, width, height)
        if needed is not None:
            self.push_screen(TooSmallScreen(needed, (width, height)))

    @staticmethod
    def needed(screen: Screen[Any] | None, width: int, height: int) -> Size | None:
        """None if a terminal of ``width`` × ``height`` is large enough for ``screen``;
        else the smallest size it can be shown in that is nearest to the terminal's."""
        options = screen.smallest() if isinstance(screen, Page) else [SMALLEST]
        if any(width >= w and height >= h for w, h in options):
            return None
        return min(options, key=lambda o: max(0, o[0] - width) + max(0, o[1] - height))

    # ------------------------------------------------------------------ games

    def new_game(self, setup: Setup) -> None:
        """Deal a game and open its table (a refusal, such as a day not yet come, says why)."""
        try:
            kept = self.keeper.start(setup.mode, setup.rules, day=setup.day, seed=setup.seed)
        except StoreError as error:
            self.notify(self.words(f"error.{error.reason}"), severity="error")
            return
        self.setup = setup
        self.open_game(kept)

    def open_game(self, kept: KeptGame) -> None:
        from .table import TableScreen

        top = self.screen_stack[-1] if self.screen_stack else None
        if isinstance(top, TableScreen) and top.kept.id == kept.id:
            return  # open already (a second Enter on the same choice)
        # one table at a time: whatever was open (menus, an old table) closes
        while len(self.screen_stack) > 1:
            self.pop_screen()
        self.push_screen(TableScreen(kept))

    # ------------------------------------------------------------------ leaving

    def action_quit(self) -> Any:  # every move is already kept: leaving loses nothing
        self.exit(0)

    def action_interrupt(self) -> None:
        """Ctrl+C leaves too, with the exit status of an interruption (130)."""
        self.exit(EXIT_INTERRUPTED)

    def leave_on_signal(self) -> None:
        """SIGTERM or SIGHUP (called from the signal watcher's thread): leave as Ctrl+C
        does; if the program has not left within :data:`LEAVE_SECONDS` (the terminal is
        gone, or the app is in the middle of an error), it leaves at once. A second signal
        leaves at once too."""
        if self._leaving is not None:
            leave_now(EXIT_INTERRUPTED)
        self._leaving = threading.Timer(LEAVE_SECONDS, leave_now, (EXIT_INTERRUPTED,))
        self._leaving.daemon = True
        self._leaving.start()
        try:
            assert self._loop is not None
            self._loop.call_soon_threadsafe(self.action_interrupt)
        except (AssertionError, RuntimeError):  # the app's loop is closed already
            leave_now(EXIT_INTERRUPTED)

    def _handle_exception(self, error: Exception) -> None:
        """An unexpected error: its traceback goes to a log file (the game is in the store
        already), the app leaves with status 70, and the command says where the log is,
        in one line, instead of a screenful of traceback."""
        from ..crash import write_log

        if self.crashed is None:
            self.crashed = type(error).__name__
            self.crash_log = write_log(error, "play")
        super()._handle_exception(error)
        if self.crash_log is not None and not self.is_headless:
            self._exit_renderables.clear()  # the log has it; the command says where


def leave_now(code: int) -> None:
    """Leave the process at once: the terminal put back as it was (where there is one),
    nothing else done. Every move is in the store already."""
    with contextlib.suppress(Exception):
        out = sys.__stderr__  # where Textual draws
        if out is not None and out.isatty():
            # the main screen back, the cursor shown, no more mouse or focus reports
            out.write("\x1b[?1049l\x1b[?25h\x1b[?1000l\x1b[?1003l\x1b[?1015l\x1b[?1006l")
            out.write("\x1b[?1004l\x1b[?2004l\x1b[?7h\x1b[<u\r\n")
            out.flush()
    with contextlib.suppress(Exception):
        import termios

        fd = sys.__stdin__.fileno() if sys.__stdin__ is not None else -1
        if fd >= 0 and os.isatty(fd) and TERMINAL_MODE:
            termios.tcsetattr(fd, termios.TCSANOW, TERMINAL_MODE[0])
    os._exit(code)


TERMINAL_MODE: list[Any] = []
"""The terminal's settings before the game took it over, to put back on leaving at once."""


def remember_terminal() -> None:
    """Keep the terminal's settings (see :func:`leave_now`)."""
    with contextlib.suppress(Exception):
        import termios

        if sys.__stdin__ is not None and sys.__stdin__.isatty():
            TERMINAL_MODE[:] = [termios.tcgetattr(sys.__stdin__.fileno())]
