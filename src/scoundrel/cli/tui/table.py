"""The table: the dungeon, the heroes, the room and what each move would do.

Keys as in the browser: 1-4 choose a card, W fight it with the weapon, B bare-handed, Enter
take it (equip, drink, or the only way), G give it to the partner (co-op, then W, B or
Enter), F flee, U undo, H a hint, L the moves so far, ? the keys; R the rules, S the
records, N a new game, Q quit. Cards can be clicked, and so can the moves listed under the
room. A key that does nothing here says why.

The layout follows the terminal's size: beside the room from 80 columns (the dungeon and
the heroes on the left, the move log on the right from 120), above it when narrower (the
heroes side by side), with smaller cards when rows are few; below the smallest size it can
show (:meth:`TableScreen.smallest`) the app asks for a larger terminal.

Another window may play the same game (a second terminal on the same data folder, say):
the table looks at the store every second and shows the game as it stands, and the store
refuses a move, an undo or a hint made on a position it has left (``stale_position``).
"""

from __future__ import annotations

import contextlib
from typing import Any, ClassVar

from rich.text import Text
from textual import events, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option
from textual.worker import get_current_worker

from scoundrel.core import Card, Hero, IllegalMoveError, Kind, Move, Observation, State
from scoundrel.core.label import preview_label
from scoundrel.store.games import StoreError

from ..keep import MOVED_ON, KeptGame
from ..words import Words
from .app import ListDialog, Page, app_of, words_of

#: Refusals of the store that mean another window changed the game: show it as it stands.
#: How often the table looks whether another window changed its game (seconds).
LOOK_EVERY = 1.0
#: The smallest terminals the table fits in whole (see tests/cli/fitting.py): alone, and
#: with two heroes (beside the room from 80 columns, or above it in more rows).
SMALLEST_SOLO = [(56, 22)]
SMALLEST_COOP = [(80, 24), (56, 32)]
#: From this many columns the dungeon and heroes stand beside the room; from the second,
#: the move log too.
BESIDE = 80
WIDE = 120


def health_bar(health: int, most: int, width: int, ascii_only: bool) -> Text:
    """``██████████░░░░ 9/14``, out of the most health the rules allow (S2, V2): green,
    then yellow, then red as health falls."""
    shown = max(0, min(health, most))
    filled = round(width * shown / most)
    full, empty = ("#", "-") if ascii_only else ("█", "░")
    colour = "green" if health * 5 > most * 3 else "yellow" if health * 10 > most * 3 else "red"
    bar = Text()
    bar.append(full * filled, style=colour)
    bar.append(empty * (width - filled), style="dim")
    bar.append(f" {health}/{most}", style="bold")
    return bar


def card_face(card: Card, words: Words, number: int | None, width: int = 9, rows: int = 4) -> Text:
    """A card's face in ``width`` columns and ``rows`` lines: its rank and suit, what it
    is and its value, its key. Where the kind does not fit, its short form (``Trank`` for
    ``Heiltrank``); neither is ever cut, and where even the short form does not fit the
    kind is left out (the suit says it too)."""
    rank = card.rank if card.suit else "★"
    suit = (card.suit or "*") if words.ascii_only else card.symbol[-1]
    if words.ascii_only and not card.suit:
        rank = "*"
    kind = next(
        (
            kind
            for kind in (words("kind." + card.kind.value), words("kind_short." + card.kind.value))
            if len(kind) <= width
        ),
        "",
    )
    key = f"[{number}]" if number is not None else ""
    value = str(card.value)
    face = Text(no_wrap=True, overflow="crop")
    if rows >= 4:
        face.append(f"{rank}{suit}\n", style="bold")
        face.append(f"{suit:^{width}}\n")
        face.append(f"{kind:^{width}}\n", style="italic")
        face.append(f"{key}{value:>{max(0, width - len(key))}}")
    else:
        top = f"{rank}{suit}"
        face.append(top, style="bold")
        face.append(f"{key:>{max(0, width - len(top))}}\n")
        face.append(f"{kind:^{width}}\n", style="italic")
        face.append(f"{value:>{width}}")
    return face


class RoomCard(Static):
    """One card of the room, drawn to the size it is given; a click chooses it."""

    class Chosen(Message):
        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    def __init__(self, index: int) -> None:
        super().__init__("", id=f"card-{index + 1}")
        self.index = index
        self.card: Card | None = None

    def show(self, card: Card | None) -> None:
        if card != self.card:
            self.card = card
            self.refresh(layout=False)

    def render(self) -> Text:
        if self.card is None:
            return Text()
        width, rows = self.content_size
        return card_face(self.card, words_of(self), self.index + 1, max(1, width), rows)

    def on_click(self) -> None:
        self.post_message(self.Chosen(self.index))


class HeroPanel(Static):
    """A hero: health bar (as wide as the panel allows), weapon and its stack, how far
    the weapon still reaches, and the potion of this room."""

    def __init__(self, number: int) -> None:
        super().__init__("", id=f"hero-{number}", classes="panel")
        self.number = number
        self.hero: Hero | None = None
        self.seen: Observation | None = None

    def show(self, hero: Hero, seen: Observation) -> None:
        if (hero, seen.rules) != (self.hero, self.seen and self.seen.rules):
            self.refresh(layout=True)
        self.hero, self.seen = hero, seen

    def render(self) -> Text:
        hero, seen = self.hero, self.seen
        if hero is None or seen is None:
            return Text()
        w = words_of(self)
        width = self.content_size.width or 24
        text = health_bar(hero.health, seen.rules.health, max(4, min(16, width - 6)), w.ascii_only)
        if hero.health <= 0:
            text.append(f"  ☠ {w('hero.fallen')}" if not w.ascii_only else f"  {w('hero.fallen')}")
        text.append("\n")
        if hero.weapon is not None:  # the weapon, the monsters it slew, how far it reaches
            text.append(w.card(hero.weapon), style="bold")
            if hero.stack:
                text.append(" ← " if not w.ascii_only else " < ")
                text.append(w.cards(hero.stack), style="dim")
            text.append(w.sep)
        text.append(w.weapon(hero, seen.rules), style="dim")
        text.append("\n")
        text.append(w("hero.potion_used" if hero.potion_used else "hero.potion_ready"), style="dim")
        return text


def put(widget: Static, content: Text | str) -> None:
    """Show ``content`` in ``widget``, unless it shows it already (a table redrawn after
    every key redraws only what changed)."""
    if getattr(widget, "put_content", None) != content:
        widget.put_content = content  # type: ignore[attr-defined]
        widget.update(content)


class Actions(OptionList, can_focus=False):
    """The moves of the chosen card, each with what it would do; clicked, never focused
    (the keys are the table's)."""

    offered: list[tuple[str | None, str]] | None = None
    """What it lists (each option's id and label), to list it anew only when it changes."""

    def get_content_height(self, container: Any, viewport: Any, width: int) -> int:
        if width <= 2:  # nothing to wrap the labels into (a terminal shrinking)
            return self.option_count
        return super().get_content_height(container, viewport, width)

    def offer(self, options: list[Option]) -> None:
        """List ``options`` (each a label and an id), unless they are listed already."""
        wanted = [(option.id, str(option.prompt)) for option in options]
        if wanted != self.offered:
            self.offered = wanted
            self.clear_options()
            self.add_options(options)


class Pane(VerticalScroll, can_focus=False):
    """A part of the table that scrolls (the advice, the move log) by the table's keys."""


class TableScreen(Page):
    """One game at the table."""

    AUTO_FOCUS = None  # every key is the table's: nothing on it takes the focus

    BINDINGS: ClassVar[list[BindingType]] = [
        *(Binding(str(n), f"choose({n - 1})", show=False) for n in range(1, 5)),
        Binding("w", "act('w')", show=False),
        Binding("b", "act('b')", show=False),
        Binding("enter", "act('take')", show=False, priority=True),
        Binding("g", "give", show=False),
        Binding("f", "flee", show=False),
        Binding("u", "undo", show=False),
        Binding("h", "hint", show=False),
        Binding("l", "log", show=False),
        Binding("a", "analyse", show=False),
        Binding("e", "export", show=False),
        Binding("question_mark", "keys", show=False),
        Binding("r", "rules", show=False),
        Binding("s", "records", show=False),
        Binding("n", "new", show=False),
        Binding("escape", "drop", show=False),
        Binding("pageup", "scroll_advice(-1)", show=False),
        Binding("pagedown", "scroll_advice(1)", show=False),
        Binding("q", "quit", show=False),
    ]

    def __init__(self, kept: KeptGame) -> None:
        super().__init__()
        self.kept = kept
        self.chosen: int | None = None
        self.giving = False
        self.advice: list[Text] = []
        self.advised_at: tuple[int, int] | None = None  # the position the advice is for
        self.thinking_at: tuple[int, int] | None = None  # a hint being worked out, for where
        self.message: Text | None = None
        self.move_log: list[tuple[Move, str]] = []  # the move log: each move, what it did

    # ------------------------------------------------------------------ drawing

    def compose(self) -> ComposeResult:
        with Vertical(id="frame"):
            yield Static(id="title")
            with Horizontal(id="body"):
                with Vertical(id="side"):
                    yield Static(id="dungeon", classes="panel")
                    with Horizontal(id="heroes"):
                        yield HeroPanel(1)
                        yield HeroPanel(2)
                with Vertical(id="main"):
                    with Horizontal(id="room"):
                        for index in range(4):
                            yield RoomCard(index)
                    yield Static(id="status")
                    yield Static(id="prompt")
                    yield Actions(id="actions")
                    yield Pane(Static(id="advice-text"), id="advice")
                with Pane(id="log", classes="panel"):
                    yield Static(id="log-text")
            yield Static(id="keys")

    def on_mount(self) -> None:
        if not self.drawn:  # closed before it was shown
            return
        self.query_one("#log", Pane).border_title = self.words("log.title")
        self.set_class(len(self.kept.state.heroes) > 1, "-coop")
        self.fit_layout(self.app.size.width, self.app.size.height)
        self.redraw()
        self.looking = self.set_interval(LOOK_EVERY, self.look)
        """The timer of :meth:`look` (a test may pause it)."""

    def smallest(self) -> list[tuple[int, int]]:
        return SMALLEST_COOP if len(self.kept.state.heroes) > 1 else SMALLEST_SOLO

    def on_resize(self, event: events.Resize) -> None:
        self.fit_layout(event.size.width, event.size.height)
        self.draw_keys()

    def fit_layout(self, width: int, height: int) -> None:
        """The layout for a terminal of ``width`` × ``height``: see the module's text."""
        coop = len(self.kept.state.heroes) > 1
        narrow = width < BESIDE
        self.set_class(narrow, "-narrow")
        self.set_class(width >= WIDE, "-wide")
        # the cards lose their empty lines where the rows are few
        short = height < ((36 if coop else 28) if narrow else 28 if coop else 24)
        if short != self.has_class("-short"):
            self.set_class(short, "-short")
            if self.is_mounted and self.kept.state.is_over:
                self.redraw()

    def title_text(self) -> str:
        w = self.words
        where = w.dungeon(self.kept.mode, self.kept.date)
        if self.kept.stored.loaded:
            where += f" ({w('records.loaded')})"
        return f"{where}{w.sep}{w.rules_line(self.kept.state.rules)}"

    @property
    def drawn(self) -> bool:
        """Whether the table's widgets are there to draw on (not while it opens, nor once
        it is being closed: a key can come in between)."""
        return self.is_attached and bool(self.query("#title"))

    def redraw(self) -> None:
        if not self.drawn:
            return
        state = self.kept.state
        seen = state.observation(state.leader)
        w = self.words
        put(self.query_one("#title", Static), self.title_text())
        put(self.query_one("#dungeon", Static), self.dungeon_text(seen))
        for number in (1, 2):
            panel = self.query_one(f"#hero-{number}", HeroPanel)
            if number > len(seen.heroes):
                panel.display = False
                continue
            hero = seen.heroes[number - 1]
            panel.display = True
            panel.set_class(len(seen.heroes) > 1 and number == seen.leader, "leader")
            panel.set_class(hero.health <= 0, "fallen")
            panel.border_title = w.hero(number, len(seen.heroes)) + (
                f" · {w('hero.leader')}"
                if len(seen.heroes) > 1 and number == seen.leader and not state.is_over
                else ""
            )
            panel.show(hero, seen)
        if self.chosen is not None and self.chosen >= len(seen.room):
            self.chosen = None
        # once the game is over, its last room is shown where there are rows to spare
        self.query_one("#room").display = bool(seen.room) and not (
            state.is_over and self.has_class("-short")
        )
        for index in range(4):
            card_widget = self.query_one(f"#card-{index + 1}", RoomCard)
            card = seen.room[index] if index < len(seen.room) else None
            card_widget.show(card)
            card_widget.set_class(card is not None and card.suit in ("D", "H", "R"), "red")
            card_widget.set_class(card is not None and self.chosen == index, "chosen")
            card_widget.set_class(card is None, "empty")
        status = self.status_text(seen)
        put(self.query_one("#status", Static), status)
        self.query_one("#status", Static).display = bool(status.plain)
        self.draw_actions(seen)
        self.draw_advice()
        self.draw_log()
        self.draw_keys()

    def dungeon_text(self, seen: Observation) -> Text:
        w = self.words
        text = Text(w("table.dungeon_pile", n=seen.dungeon_count), style="bold")
        if self.kept.state.is_over:  # what was left matters no more
            return text
        counts = seen.unseen_counts
        unseen = [
            w(f"count.{kind.value}", n=sum(counts[kind].values())) for kind in Kind if counts[kind]
        ]
        if unseen:
            text.append("\n" + w("table.left_list", kinds=", ".join(unseen)), style="dim")
        if seen.known_bottom:
            text.append("\n" + w("table.bottom", cards=w.cards(seen.known_bottom)), style="dim")
        return text

    def status_text(self, seen: Observation) -> Text:
        """What the room allows: fleeing (or why not), the final room, the help card."""
        w = self.words
        state = self.kept.state
        text = Text()
        if state.is_over:
            return text
        lines = []
        if seen.final_room:
            lines.append(Text(w("table.final_note"), style="yellow"))
        else:  # where the room may be fled, the prompt says so (F)
            refusal = state.explain("F")
            if refusal is not None:
                lines.append(Text(w.refusal(refusal), style="yellow"))
        if len(seen.heroes) > 1:  # the help card (C5): one per room, to the partner
            help_card = w("refusal.help_used") if seen.help_used else w("term.help_open")
            lines.append(Text(help_card, style="dim" if seen.help_used else "green"))
        return Text("\n").join(lines)

    def moves_for(self, index: int) -> list[Move]:
        state = self.kept.state
        card = state.observation(state.leader).room[index]
        return [move for move in state.legal_moves if move.card == card]

    def draw_actions(self, seen: Observation) -> None:
        w = self.words
        state = self.kept.state
        prompt = self.query_one("#prompt", Static)
        actions = self.query_one("#actions", Actions)
        prompt.display = True
        flee = [Option(Text(f"[F] {w('act.flee')}"), id="F")] if seen.can_flee else []
        lines = Text()
        if self.message is not None:
            lines.append_text(self.message)
            lines.append("\n")
        if self.kept.over:
            if self.kept.closed:  # its day ended before it did: no result, no analysis
                lines.append_text(Text(w("over.closed"), style="bold"))
            else:
                lines.append_text(self.outcome_text())
            put(prompt, lines)
            analyse = [Option(Text(f"[A] {w('analysis.start')}"), id="analyse")]
            actions.offer(
                [
                    *(analyse if state.is_over else []),
                    Option(Text(f"[N] {w('setup.title')}"), id="new"),
                    Option(Text(f"[E] {w('term.export')}"), id="export"),
                    Option(Text(f"[S] {w('nav.records')}"), id="records"),
                    Option(Text(f"[Q] {w('term.quit')}"), id="quit"),
                ]
            )
            return
        if self.chosen is None:
            lines.append(w.choose(seen))
            put(prompt, lines)
            actions.offer(flee)
            return
        if self.giving:
            lines.append(w("toast.giving"), style="bold")
        elif not self.has_class("-short"):  # the card's name (it stands out on the table)
            card = seen.room[self.chosen]
            lines.append(w.card_name(card), style="bold")
        lines.rstrip()
        put(prompt, lines)
        prompt.display = bool(lines.plain)
        previews = state.previews()
        options = []
        for move in self.moves_for(self.chosen):
            if self.giving and not move.help:
                continue
            key = self.key_of(move)
            named = preview_label(previews[move], seen.leader, seen.heroes)  # the core's
            label = Text(f"[{key}] ", style="bold")
            label.append(w.label_text(named))
            if named.deadly:
                label.stylize("red")
            options.append(Option(label, id=move.token))
        actions.offer(options + flee)

    def key_of(self, move: Move) -> str:
        """The keys that play ``move`` once its card is chosen."""
        key = "W" if move.weapon else "B" if move.card and move.card.is_monster else "Enter"
        return f"G {key}" if move.help and not self.giving else key

    def outcome_text(self) -> Text:
        w = self.words
        state = self.kept.state
        text = Text(w("over.won" if state.status == "won" else "over.lost"), style="bold")
        breakdown = state.score_breakdown()
        if breakdown is not None:
            for label, points in w.score_lines(breakdown):
                text.append("\n  " + w.labelled(label, str(points)))
        return text

    def draw_advice(self) -> None:
        box = self.query_one("#advice-text", Static)
        if self.advised_at != self.kept.position:
            self.advice = []
        text = Text()
        for line in self.advice:
            text.append_text(line)
            text.append("\n")
        put(box, text)
        if self.advice:  # whether it scrolls (PgUp/PgDn) is known once it is drawn
            self.call_after_refresh(self.draw_keys)

    def draw_log(self) -> None:
        """The move log: one line a move, what it did (lines of moves still played kept,
        those undone, here or in another window, dropped)."""
        game = self.kept.game
        moves, states = game.moves, game.states
        same = 0
        while same < min(len(moves), len(self.move_log)) and self.move_log[same][0] == moves[same]:
            same += 1
        del self.move_log[same:]
        for index in range(same, len(moves)):
            self.move_log.append((moves[index], self.words.played(states[index], moves[index])))
        log = self.query_one("#log", Pane)
        put(self.query_one("#log-text", Static), self.log_text())
        if self.has_class("-wide"):  # shown: its newest line in view
            log.call_after_refresh(log.scroll_end, animate=False)

    def log_text(self) -> Text:
        if not self.move_log:
            return Text(self.words("log.empty"), style="dim")
        return Text("\n".join(f"{n:>2}. {line}" for n, (_, line) in enumerate(self.move_log, 1)))

    def draw_keys(self) -> None:
        """The keys that do something now, in one line as wide as the terminal; ? lists
        them all with their meaning."""
        if not self.is_mounted:
            return
        w = self.words
        state = self.kept.state
        seen = state.observation(state.leader)
        keys: list[str] = []
        if self.kept.over:
            keys += ["A", "N", "E"] if state.is_over else ["N", "E"]
        elif self.chosen is None:
            keys.append("1" if len(seen.room) == 1 else f"1-{len(seen.room)}")
            if seen.can_flee:
                keys.append("F")
            keys.append("H")
        else:
            ways = {self.key_of(move).split()[-1] for move in self.moves_for(self.chosen)}
            keys += [key for key in ("W", "B", "Enter") if key in ways]
            if any(move.help for move in self.moves_for(self.chosen)):
                keys.append("G")
            keys.append("Esc")
            if seen.can_flee:
                keys.append("F")
            keys.append("H")
        if self.kept.can_undo:
            keys.append("U")
        keys.append("L")
        advice = self.query_one("#advice", Pane)
        if self.advice and advice.max_scroll_y > 0:
            keys.append("PgUp/PgDn")
        last = [f"? {w('act.keys')}", f"Q {w('term.quit')}"]
        width = max(0, self.app.size.width - 2)
        while keys and len(w.sep.join([*keys, *last])) > width:
            keys.pop()
        put(self.query_one("#keys", Static), Text(w.sep.join([*keys, *last])))

    # ------------------------------------------------------------------ another window

    def look(self) -> None:
        """Another window changed the game: show it as it stands (every second)."""
        try:
            changed = self.kept.refresh()
        except StoreError:  # the store is busy a moment: look again next time
            return
        if changed:
            self.moved_on("error.daily_closed" if self.kept.closed else "term.changed_elsewhere")

    def moved_on(self, key: str = "term.changed_elsewhere") -> None:
        """The game is not where this window showed it: show it as it stands, and say so."""
        self.chosen = None
        self.giving = False
        self.message = Text(self.words(key), style="yellow")
        self.redraw()

    def refused(self, error: StoreError) -> None:
        """A refusal of the store: if another window moved, the game as it stands now."""
        if error.reason in MOVED_ON:
            with contextlib.suppress(StoreError):  # busy a moment: shown as it was
                self.kept.refresh()
            self.moved_on()
            return
        if error.reason == "daily_closed":
            with contextlib.suppress(StoreError):
                self.kept.refresh()
        self.say(self.words(f"error.{error.reason}"))

    # ------------------------------------------------------------------ moves

    def on_room_card_chosen(self, event: RoomCard.Chosen) -> None:
        self.action_choose(event.index)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        token = event.option.id or ""
        if token in ("analyse", "new", "export", "records", "quit"):
            getattr(self, f"action_{token}")()
        elif token:
            self.play(token)

    def action_choose(self, index: int) -> None:
        state = self.kept.state
        if self.kept.over:
            self.say(self.over_keys())
            return
        room = state.observation(state.leader).room
        if index >= len(room):
            self.say(self.words("term.no_such_card", n=index + 1, keys=self.card_keys(room)))
            return
        self.chosen = None if self.chosen == index else index
        self.giving = False
        self.message = None
        self.redraw()

    @staticmethod
    def card_keys(room: tuple[Card, ...]) -> str:
        return "1" if len(room) == 1 else f"1–{len(room)}"

    def action_drop(self) -> None:
        self.chosen = None
        self.giving = False
        self.message = None
        self.redraw()

    def action_give(self) -> None:
        w = self.words
        state = self.kept.state
        if self.kept.over:
            self.say(self.over_keys())
            return
        if len(state.heroes) == 1:
            self.say(w("term.give_solo"))
            return
        if self.chosen is None:
            self.say(w("term.choose_first", keys=self.card_keys(state.observation(1).room)))
            return
        if not any(move.help for move in self.moves_for(self.chosen)):
            card = state.observation(state.leader).room[self.chosen]
            # the core's reason, asked of a way of giving the card that is written fully
            token = ">" + card.code + ("/b" if card.is_monster else "")
            refusal = state.explain(token)
            self.say(w.refusal(refusal) if refusal else w("toast.no_such_move"))
            return
        self.giving = not self.giving
        self.message = None
        self.redraw()

    def action_act(self, how: str) -> None:
        """W, B or Enter on the chosen card (after G: the partner's way)."""
        w = self.words
        state = self.kept.state
        if self.kept.over:
            if how == "take":  # Enter on the end menu: its highlighted entry
                self.query_one("#actions", Actions).action_select()
            else:
                self.say(self.over_keys())
            return
        if self.chosen is None:
            if how == "take" and len(state.legal_moves) == 1:  # Enter: the one move there is
                self.play(state.legal_moves[0].token)
                return
            self.say(w("term.choose_first", keys=self.card_keys(state.observation(1).room)))
            return
        card = state.observation(state.leader).room[self.chosen]
        token = (">" if self.giving else "") + card.code
        if card.is_monster:
            if how == "take":
                fights = [m for m in self.moves_for(self.chosen) if m.help == self.giving]
                if len(fights) != 1:  # both ways are open (or none): the key says which
                    self.say(w("term.which_way") if fights else self.refusal_of(token + "/b"))
                    return
                token = fights[0].token
            else:
                token += "/" + how
        elif how != "take":
            self.say(w("term.not_a_monster", card=w.card(card)))
            return
        self.play(token)

    def refusal_of(self, token: str) -> str:
        refusal = self.kept.state.explain(token)
        return self.words.refusal(refusal) if refusal else self.words("toast.no_such_move")

    def over_keys(self) -> str:
        """What the keys of a game that is over do (an attempt its day closed: no analysis)."""
        return self.words("error.daily_closed" if self.kept.closed else "term.game_over_keys")

    def action_flee(self) -> None:
        if self.kept.over:
            self.say(self.over_keys())
            return
        self.play("F")

    def play(self, token: str) -> None:
        state = self.kept.state
        refusal = state.explain(token)
        if refusal is not None:
            self.say(self.words.refusal(refusal))
            return
        try:
            self.kept.play(token)
        except IllegalMoveError as error:  # pragma: no cover - explain() said it was legal
            self.say(str(error))
            return
        except StoreError as error:
            self.refused(error)
            return
        self.chosen = None
        self.giving = False
        self.message = None
        self.redraw()
        for code in self.kept.earned:  # the store decided them from the game's record
            self.app.notify(self.words("ach.toast", name=self.words(f"ach.{code}")))
        self.kept.earned = []

    def action_undo(self) -> None:
        if not self.kept.can_undo:
            reason = (
                "no_undo_daily"
                if self.kept.mode == "daily"
                else "no_undo_over"
                if self.kept.state.is_over
                else "nothing_to_undo"
            )
            self.say(self.words(f"error.{reason}"))
            return
        try:
            self.kept.undo()
        except StoreError as error:
            self.refused(error)
            return
        self.chosen = None
        self.giving = False
        self.message = Text(self.words("toast.undone"), style="green")
        self.redraw()

    def say(self, text: str) -> None:
        self.message = Text(text, style="yellow")
        self.redraw()

    # ------------------------------------------------------------------ hints

    def action_hint(self) -> None:
        if self.kept.over:
            self.say(self.words("error.daily_closed" if self.kept.closed else "error.hints_over"))
            return
        here = self.kept.position
        if self.thinking_at == here or self.advised_at == here:
            self.query_one("#advice", VerticalScroll).scroll_home(animate=False)
            return  # asked already: it is shown, or on its way
        self.advice = [Text(self.words("hint.thinking"), style="italic")]
        self.advised_at = here
        self.thinking_at = here
        self.draw_advice()
        self.think(here, self.kept.state)

    @work(thread=True, exclusive=True, group="hint")
    def think(self, here: tuple[int, int], state: State) -> None:
        """The hint for ``state``, the position it was asked at: the thread may start after
        the next move (which may end the game), and the answer is dropped then."""
        from scoundrel.solver import Cancelled, hint

        worker = get_current_worker()
        bot = app_of(self).effort.bot()

        def stop() -> bool:  # a newer hint was asked for, or the table was left
            return worker.is_cancelled

        try:
            advice = hint(state.observation(state.leader), bot=bot, cancel=stop)
        except Cancelled:
            return
        if not worker.is_cancelled:
            self.app.call_from_thread(self.show_hint, advice, here)

    def show_hint(self, advice: Any, here: tuple[int, int]) -> None:
        if self.thinking_at == here:
            self.thinking_at = None
        if here != self.kept.position:
            return  # the game moved on while the bot was thinking
        try:
            self.kept.count_hint(here)
        except StoreError as error:
            self.advice = []
            self.refused(error)
            return
        w = self.words
        heroes = len(self.kept.state.heroes)
        lines = [Text(w("hint.title"), style="bold")]
        lines += [Text(line) for line in w.advice(advice, heroes)]
        if advice.chances:
            lines.append(Text(w("hint.chances"), style="bold"))
            for name, chance, margin, advised in w.chances(advice):
                line = Text(f"  {chance:>5} {margin:>6}  {name}")
                if advised:
                    line.append(f"  ← {w('hint.suggested')}" if not w.ascii_only else " <")
                    line.stylize("bold green")
                lines.append(line)
            note = w.chances_note(advice)
            if note is not None:
                lines.append(Text(note, style="dim"))
        lines.append(Text(w("hint.counted"), style="dim"))
        self.advice = lines
        self.advised_at = here
        self.draw_advice()

    def action_scroll_advice(self, pages: int) -> None:
        advice = self.query_one("#advice", VerticalScroll)
        if pages < 0:
            advice.scroll_page_up(animate=False)
        else:
            advice.scroll_page_down(animate=False)

    # ------------------------------------------------------------------ other screens

    def action_analyse(self) -> None:
        if not self.kept.state.is_over:
            self.say(self.words("error.game_not_over"))
            return
        from .analysis import AnalysisScreen

        self.app.push_screen(AnalysisScreen(self.kept))

    def action_export(self) -> None:
        from .menus import ExportScreen

        self.app.push_screen(ExportScreen(self.kept), self.exported)

    def exported(self, path: str | None) -> None:
        """The record was saved (or not): say where, in full, under the table."""
        if path is not None:
            self.message = Text(self.words("term.saved", path=path), style="green")
            self.redraw()

    def action_log(self) -> None:
        self.app.push_screen(LogScreen(self.words("log.title"), self.log_text(), at_end=True))

    def action_keys(self) -> None:
        from .menus import KeysScreen

        self.app.push_screen(KeysScreen(self.words))

    def action_rules(self) -> None:
        from .rules import RulesScreen

        self.app.push_screen(RulesScreen())

    def action_records(self) -> None:
        from .records import RecordsScreen

        self.app.push_screen(RecordsScreen())

    def action_new(self) -> None:
        from .menus import NewGameScreen

        self.app.push_screen(NewGameScreen(app_of(self).setup))

    def action_quit(self) -> None:
        self.app.exit(0)


class LogScreen(ListDialog):
    """Every move of the game so far, with what it did (L; Esc closes)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("l,q,enter", "close", show=False)]
