"""The menus: a new game, the game in play waiting, the keys, exporting a record."""

from __future__ import annotations

import datetime as _dt
from pathlib import Path
from typing import ClassVar

from rich.table import Table
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import (
    Button,
    Checkbox,
    Input,
    Label,
    RadioButton,
    RadioSet,
    Select,
    Static,
)

from scoundrel.core import OptionError, Rules
from scoundrel.core.rules import VARIANT_VALUES

from ..keep import KeptGame
from ..plain import default_record_path, save_record
from ..words import Words
from .app import ListDialog, Setup, app_of, words_of


class NewGameScreen(Screen[None]):
    """Choose the dungeon (random, today's, a past day) and the rules, then enter."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", show=False),
        Binding("ctrl+s", "start", show=False),
        Binding("r", "rules", show=False),
        Binding("s", "records", show=False),
    ]

    def __init__(self, setup: Setup) -> None:
        super().__init__()
        self.setup = setup
        self.coop_shown = setup.rules.coop_game

    def compose(self) -> ComposeResult:
        w = words_of(self)
        rules = self.setup.rules
        daily = self.setup.mode == "daily"
        with VerticalScroll(classes="page"):
            yield Static(w("setup.title"), classes="page-title")
            with Horizontal(classes="choice-row"):
                yield Label(w("setup.mode"))
                with RadioSet(id="mode"):
                    yield RadioButton(w("mode.random"), value=not daily, id="random")
                    yield RadioButton(w("mode.daily"), value=daily, id="daily")
            with Horizontal(classes="choice-row"):
                yield Label(w("setup.ruleset"))
                with RadioSet(id="ruleset"):
                    yield RadioButton(w("ruleset.solo"), value=not rules.coop_game, id="solo")
                    yield RadioButton(w("ruleset.coop"), value=rules.coop_game, id="coop")
            with Vertical(id="options"):
                yield Static(w("setup.options"), classes="page-title")
                yield Checkbox(w("option.lenient"), value=rules.weapon == "lenient", id="lenient")
                yield Checkbox(
                    w("option.dungeon_only"),
                    value=rules.death_score == "dungeon-only",
                    id="dungeon_only",
                )
                yield Checkbox(w("option.easier"), value=rules.easier, id="easier")
                yield Checkbox(w("option.harder"), value=rules.harder, id="harder")
                yield Checkbox(
                    w("option.silent_leader"), value=rules.silent_leader, id="silent_leader"
                )
                yield Checkbox(
                    w.labelled(w("option.first_leader"), w("hero.name", n=2)),
                    value=rules.first_leader == 2,
                    id="first_leader",
                )
                # the variants (V1, V2), for either ruleset, with every value the core lists
                yield Static(w("setup.variants"), classes="page-title", id="variants-title")
                for name, values in VARIANT_VALUES.items():
                    with Horizontal(classes="choice-row"):
                        yield Label(w(f"option.{name}"))
                        yield Select(
                            [(w.variant_value(name, value), value) for value in values],
                            value=getattr(rules, name),
                            allow_blank=False,
                            id=f"variant-{name}",
                        )
            yield Static(w("setup.daily_note"), id="daily-note")
            with Horizontal(id="day-row", classes="choice-row"):
                yield Label(w("term.day"))
                day = self.setup.day or app_of(self).today()
                yield Input(day.isoformat(), id="day", max_length=10)
            yield Static("", id="refusal")
            yield Button(w("setup.start"), id="start", variant="primary")
        yield Static(f"Ctrl+S {w('setup.start')} · Esc {w('term.back')}", id="keys")

    def on_mount(self) -> None:
        self.show_choices()

    def on_radio_set_changed(self, _event: RadioSet.Changed) -> None:
        self.show_choices()

    def on_input_changed(self, event: Input.Changed) -> None:
        if event.input.id == "day":
            self.show_day_note()

    def show_day_note(self) -> None:
        """Today's dungeon is the day's one scored attempt, without undo; a past day's
        is played again, unranked, with undo (the store's rules for each, M2)."""
        w = words_of(self)
        text = self.query_one("#day", Input).value.strip()
        try:
            past = _dt.date.fromisoformat(text) < app_of(self).today()
        except ValueError:
            past = False
        self.query_one("#daily-note", Static).update(
            w("setup.archive_note" if past else "setup.daily_note")
        )

    def on_checkbox_changed(self, event: Checkbox.Changed) -> None:
        # the two co-op variants exclude each other (harder adds jokers, easier drops aces)
        if event.value and event.checkbox.id in ("easier", "harder"):
            other = "harder" if event.checkbox.id == "easier" else "easier"
            self.query_one(f"#{other}", Checkbox).value = False

    def chosen(self, group: str) -> str:
        pressed = self.query_one(f"#{group}", RadioSet).pressed_button
        return (pressed.id if pressed else None) or ""

    def show_choices(self) -> None:
        """Options for the ruleset chosen; the daily is played with the standard rules."""
        daily = self.chosen("mode") == "daily"
        coop = self.chosen("ruleset") == "coop"
        self.query_one("#options").display = not daily
        self.query_one("#daily-note").display = daily
        self.query_one("#day-row").display = daily
        self.show_day_note()
        self.query_one("#dungeon_only").display = not coop
        for name in ("easier", "harder", "silent_leader", "first_leader"):
            self.query_one(f"#{name}").display = coop
        if coop != self.coop_shown:  # each ruleset's own weapon rule by default
            self.coop_shown = coop
            default = Rules.from_options("coop" if coop else "solo").weapon
            self.query_one("#lenient", Checkbox).value = default == "lenient"

    def rules(self) -> Rules:
        ruleset = self.chosen("ruleset") or "solo"
        if self.chosen("mode") == "daily":
            return Rules.from_options(ruleset)
        options: dict[str, object] = {}

        def ticked(name: str) -> bool:
            return self.query_one(f"#{name}", Checkbox).value

        options["weapon"] = "lenient" if ticked("lenient") else "strict"
        if ruleset == "solo":
            options["death_score"] = "dungeon-only" if ticked("dungeon_only") else "standard"
        else:
            for name in ("easier", "harder", "silent_leader"):
                options[name] = ticked(name)
            options["first_leader"] = 2 if ticked("first_leader") else 1
        for name in VARIANT_VALUES:
            options[name] = self.query_one(f"#variant-{name}", Select).value
        return Rules.from_options(ruleset, options)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "start":
            self.action_start()

    def action_start(self) -> None:
        w = words_of(self)
        refusal = self.query_one("#refusal", Static)
        try:
            rules = self.rules()
        except OptionError as error:  # pragma: no cover - the form offers known options only
            refusal.update(str(error))
            return
        mode = self.chosen("mode") or "random"
        day = None
        if mode == "daily":
            text = self.query_one("#day", Input).value.strip()
            try:
                day = _dt.date.fromisoformat(text)
            except ValueError:
                refusal.update(w("error.bad_date"))
                return
            if day > app_of(self).today():
                refusal.update(w("daily.not_yet"))
                return
        app_of(self).new_game(Setup(mode, rules, day))

    def action_back(self) -> None:
        if len(self.app.screen_stack) > 2:  # a table is underneath
            self.app.pop_screen()

    def action_rules(self) -> None:
        from .rules import RulesScreen

        if not isinstance(self.focused, Input):
            self.app.push_screen(RulesScreen())

    def action_records(self) -> None:
        from .records import RecordsScreen

        if not isinstance(self.focused, Input):
            self.app.push_screen(RecordsScreen())


def game_summary(words: Words, kept: KeptGame) -> str:
    return words.summary(kept.mode, kept.date, kept.state.rules, len(kept.game.moves))


class ResumeScreen(Screen[None]):
    """A game is in play: continue it (Enter) or start another (N)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("c", "resume", show=False),
        Binding("n", "new", show=False),
        Binding("q", "quit", show=False),
    ]

    def __init__(self, kept: KeptGame) -> None:
        super().__init__()
        self.kept = kept

    def compose(self) -> ComposeResult:
        w = words_of(self)
        with Vertical(classes="page"):
            yield Static(w("term.waiting_title"), classes="page-title")
            yield Static(game_summary(w, self.kept))
            yield Static(w("term.kept_note"), classes="dim")
            with Horizontal(classes="choice-row"):
                yield Button(w("records.continue") + " (C)", id="resume", variant="primary")
                yield Button(w("setup.title") + " (N)", id="new")
        yield Static(
            f"C {w('records.continue')} · N {w('setup.title')} · Q {w('term.quit')}", id="keys"
        )

    def on_mount(self) -> None:
        self.query_one("#resume", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "resume":
            self.action_resume()
        else:
            self.action_new()

    def action_resume(self) -> None:
        app_of(self).open_game(self.kept)

    def action_new(self) -> None:
        self.app.switch_screen(NewGameScreen(app_of(self).setup))

    def action_quit(self) -> None:
        self.app.exit(0)


KEYS = (
    ("1-4", "keys.select"),
    ("W", "keys.weapon"),
    ("B", "keys.bare"),
    ("Enter", "keys.take"),
    ("G", "keys.give"),
    ("F", "keys.flee"),
    ("U", "keys.undo"),
    ("H", "keys.hint"),
    ("L", "term.keys_log"),
    ("A", "term.keys_analyse"),
    ("E", "term.export"),
    ("R", "nav.rules"),
    ("S", "nav.records"),
    ("N", "setup.title"),
    ("Esc", "keys.close"),
    ("?", "keys.help"),
    ("Q", "term.keys_quit"),
)


class KeysScreen(ListDialog):
    """The keys, as in the browser's list (each meaning wraps beside its key)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("question_mark,q,enter", "close", show=False)]

    def __init__(self, words: Words) -> None:
        table = Table.grid(padding=(0, 2))
        table.add_column(justify="right", style="bold", no_wrap=True)
        table.add_column()
        for key, name in KEYS:
            table.add_row(key, words(name))
        super().__init__(words("keys.title"), table)


class ExportScreen(ModalScreen[str | None]):
    """Save the game's record to a file (asking before replacing another file); it gives
    back the path written, which the table shows whole, or None."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "close", show=False)]

    def __init__(self, kept: KeptGame) -> None:
        super().__init__()
        self.kept = kept
        self.confirming: Path | None = None
        self.made = str(default_record_path())
        """The path the game offers (its folder is made if need be; no other is)."""

    def compose(self) -> ComposeResult:
        w = words_of(self)
        with Vertical(classes="dialog"):
            yield Static(w("term.export"), classes="page-title")
            yield Static(w("term.export_where"))
            yield Input(self.made, id="path")
            yield Static("", id="export-note")
            with Horizontal(classes="choice-row"):
                yield Button(w("term.save"), id="save", variant="primary")
                yield Button(w("keys.close_button"), id="close")

    def on_input_submitted(self, _event: Input.Submitted) -> None:
        self.save()

    def on_input_changed(self, _event: Input.Changed) -> None:
        self.confirming = None

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "save":
            self.save()
        else:
            self.dismiss(None)

    def action_close(self) -> None:
        self.dismiss(None)

    def save(self) -> None:
        w = words_of(self)
        note = self.query_one("#export-note", Static)
        path = Path(self.query_one("#path", Input).value.strip()).expanduser()
        if not path.name:
            note.update(w("term.export_where"))
            return
        if path.exists() and self.confirming != path:
            self.confirming = path  # a second Save replaces it
            note.update(w("term.replace_file", path=str(path)))
            return
        try:
            save_record(self.kept, path, made=str(path) == self.made)
        except (OSError, ValueError) as error:  # unwritable, no such folder, a NUL in it
            why = getattr(error, "strerror", None) or str(error)
            note.update(w("term.save_failed", path=str(path), error=why))
            return
        self.dismiss(str(path))
