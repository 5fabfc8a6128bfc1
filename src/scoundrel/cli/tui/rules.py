"""The rules, in the player's language, with the worked examples played step by step.

Tab moves from one example to the next; → (or Space) plays its next step, ← takes it back.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.widgets import Static

from scoundrel.core import State
from scoundrel.core.examples import EXAMPLES, SECTIONS, Example, played

from .app import ScrollingPage, words_of


class ExampleBox(Static, can_focus=True):
    """One worked example: its text, the table at the current step, and the step's move."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("right,space,n", "step(1)", show=False),
        Binding("left,p", "step(-1)", show=False),
    ]

    def __init__(self, example: Example) -> None:
        super().__init__(id=f"example-{example.name}", classes="panel example")
        self.example = example
        self.states, self.refusal = played(example)
        self.step = 0

    def on_mount(self) -> None:
        self.border_title = words_of(self)(f"rules.example.{self.example.name}.title")
        self.draw()

    def on_click(self) -> None:
        self.action_step(1)

    def action_step(self, by: int) -> None:
        self.step = max(0, min(len(self.example.steps), self.step + by))
        self.draw()

    def position(self, state: State) -> Text:
        w = words_of(self)
        seen = state.observation(state.leader)
        text = Text()
        for number, hero in enumerate(seen.heroes, start=1):
            name = w.hero(number, len(seen.heroes))
            weapon = w.card(hero.weapon) if hero.weapon else "-"
            stack = (" ← " + w.cards(hero.stack)) if hero.stack else ""
            health = f"{hero.health}/{state.rules.health}"
            text.append(w.labelled(name, f"{health} · {weapon}{stack}") + "\n")
        text.append(w.label(w("table.room")), style="bold")
        for card in seen.room:
            colour = "red" if card.suit in ("D", "H") else ""
            text.append(w.card(card) + " ", style=f"bold {colour}")
        return text

    def draw(self) -> None:
        w = words_of(self)
        name = self.example.name
        steps = self.example.steps
        text = Text(w(f"rules.example.{name}.text") + "\n\n", style="italic")
        text.append_text(self.position(self.states[self.step]))
        text.append("\n")
        if self.step == 0:
            text.append(w("rules.example_start"))
        else:
            token = steps[self.step - 1]
            text.append(w.label(w("rules.step", n=self.step, total=len(steps))), style="bold")
            text.append(w.move(token))
        if self.step == len(steps) and self.refusal is not None and self.example.refused:
            text.append("\n✕ " + w("rules.refused", move=w.move(self.example.refused)) + " ")
            text.append(w.refusal(self.refusal), style="yellow")
        if self.step < len(steps):
            text.append(f"\n→ {w('rules.next_step')}", style="dim")
        self.update(text)


class RulesScreen(ScrollingPage):
    """How to play: every section, and its examples."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q,r", "close", show=False)]
    SCROLLER = "#rules"

    def compose(self) -> ComposeResult:
        w = words_of(self)
        examples = {example.name: example for example in EXAMPLES}
        with VerticalScroll(classes="page", id="rules"):
            yield Static(w("rules.title"), classes="page-title")
            yield Static(w("rules.intro"))
            for number, (section, names) in enumerate(SECTIONS, start=1):
                yield Static(f"\n{number}. {w(f'rules.s.{section}.h')}", classes="page-title")
                yield Static(w(f"rules.s.{section}.p"))
                for name in names:
                    yield ExampleBox(examples[name])
        yield Static(
            f"Tab {w('term.next_example')} · → {w('rules.next_step')} · ← "
            f"{w('replay.previous')} · {self.scroll_keys()} · Esc {w('keys.close_button')}",
            id="keys",
        )
