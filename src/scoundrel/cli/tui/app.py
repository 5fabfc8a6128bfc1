"""The full-screen game's application: its language, its store and its screens."""

from __future__ import annotations

import asyncio
import contextlib
import datetime as _dt
import signal
from dataclasses import dataclass, field
from typing import Any, ClassVar

from textual.app import App
from textual.binding import Binding, BindingType
from textual.dom import DOMNode
from textual.screen import Screen

from scoundrel.core import Rules
from scoundrel.store.games import StoreError

from ..keep import Keeper, KeptGame
from ..words import Words


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

    def action_close(self) -> None:
        self.app.pop_screen()


class ScoundrelApp(App[int]):
    """Scoundrel, full screen. ``start`` opens a game at once (``--seed``, ``--daily``,
    ``--load``); otherwise a game in play is offered, else the new-game screen."""

    TITLE = "Scoundrel"
    CSS_PATH = "scoundrel.tcss"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+c", "interrupt", show=False, priority=True)
    ]

    def __init__(
        self,
        keeper: Keeper,
        words: Words,
        start: Setup | KeptGame | None = None,
        setup: Setup | None = None,
    ) -> None:
        super().__init__()
        self.keeper = keeper
        self.words = words
        self.start = start
        self.setup = setup or Setup()
        """The choices of the new-game screen (from the command line's options)."""

    def on_mount(self) -> None:
        from .menus import NewGameScreen, ResumeScreen

        self.title = self.words("app.name")
        if self.words.ascii_only:  # borders drawn with + - | where lines cannot be shown
            self.add_class("ascii")
        # a closed terminal or a kill: leave cleanly (every move is already kept)
        loop = asyncio.get_running_loop()
        for name in ("SIGTERM", "SIGHUP"):
            number = getattr(signal, name, None)
            if number is not None:
                with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                    loop.add_signal_handler(number, self.action_interrupt)
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

        # one table at a time: whatever was open (menus, an old table) closes
        while len(self.screen_stack) > 1:
            self.pop_screen()
        self.push_screen(TableScreen(kept))

    def action_quit(self) -> Any:  # every move is already kept: leaving loses nothing
        self.exit(0)

    def action_interrupt(self) -> None:
        """Ctrl+C leaves too, with the exit status of an interruption (130)."""
        from ..main import EXIT_INTERRUPTED

        self.exit(EXIT_INTERRUPTED)
