"""The table: the dungeon, the heroes, the room and what each move would do.

Keys as in the browser: 1-4 choose a card, W fight it with the weapon, B bare-handed, Enter
take it (equip, drink, or the only way), G give it to the partner (co-op, then W, B or
Enter), F flee, U undo, H a hint, ? the keys; R the rules, S the records, N a new game, Q
quit. Cards can be clicked, and so can the moves listed under the room.
"""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option
from textual.worker import get_current_worker

from scoundrel.core import Card, Hero, IllegalMoveError, Kind, Move, Observation
from scoundrel.core.kernel import MAX_HEALTH
from scoundrel.store.games import StoreError

from ..keep import KeptGame
from ..words import Words
from .app import Page, app_of

SUITS_ASCII = {"C": "c", "D": "d", "H": "h", "S": "s"}


def health_bar(health: int, width: int, ascii_only: bool) -> Text:
    """``██████████░░░░ 14/20``, green, then yellow, then red as health falls."""
    shown = max(0, min(health, MAX_HEALTH))
    filled = round(width * shown / MAX_HEALTH)
    full, empty = ("#", "-") if ascii_only else ("█", "░")
    colour = "green" if health > 12 else "yellow" if health > 6 else "red"
    bar = Text()
    bar.append(full * filled, style=colour)
    bar.append(empty * (width - filled), style="dim")
    bar.append(f" {health}/{MAX_HEALTH}", style="bold")
    return bar


def card_face(card: Card, words: Words, number: int | None) -> Text:
    """A card's face: its rank and suit, what it is and its value, its key."""
    rank = words.rank(card.value) if card.suit else "★"
    suit = (SUITS_ASCII.get(card.suit or "", "*") if words.ascii_only else card.symbol[-1]) or ""
    face = Text(f"{rank}{suit}\n", style="bold")
    face.append(f"{suit:^7}\n")
    face.append(f"{words('kind.' + card.kind.value)[:7]}\n", style="italic")
    value = str(card.value)
    key = f"[{number}]" if number is not None else ""
    face.append(f"{key}{value:>{7 - len(key)}}")
    return face


class RoomCard(Static):
    """One card of the room; a click chooses it."""

    class Chosen(Message):
        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    def __init__(self, index: int) -> None:
        super().__init__("", id=f"card-{index + 1}")
        self.index = index

    def on_click(self) -> None:
        self.post_message(self.Chosen(self.index))


class TableScreen(Page):
    """One game at the table."""

    BINDINGS: ClassVar[list[BindingType]] = [
        *(Binding(str(n), f"choose({n - 1})", show=False) for n in range(1, 5)),
        Binding("w", "act('w')", show=False),
        Binding("b", "act('b')", show=False),
        Binding("enter", "act('take')", show=False, priority=True),
        Binding("g", "give", show=False),
        Binding("f", "flee", show=False),
        Binding("u", "undo", show=False),
        Binding("h", "hint", show=False),
        Binding("a", "analyse", show=False),
        Binding("e", "export", show=False),
        Binding("question_mark", "keys", show=False),
        Binding("r", "rules", show=False),
        Binding("s", "records", show=False),
        Binding("n", "new", show=False),
        Binding("escape", "drop", show=False),
        Binding("q", "quit", show=False),
    ]

    def __init__(self, kept: KeptGame) -> None:
        super().__init__()
        self.kept = kept
        self.chosen: int | None = None
        self.giving = False
        self.advice: list[Text] = []
        self.advised_at: int | None = None  # the move count the advice is for
        self.message: Text | None = None

    # ------------------------------------------------------------------ drawing

    def compose(self) -> ComposeResult:
        yield Static(id="title")
        with Horizontal(id="body"):
            with VerticalScroll(id="side"):
                yield Static(id="dungeon", classes="panel")
                yield Static(id="hero-1", classes="panel")
                yield Static(id="hero-2", classes="panel")
            with Vertical(id="main"):
                with Horizontal(id="room"):
                    for index in range(4):
                        yield RoomCard(index)
                yield Static(id="prompt")
                yield OptionList(id="actions")
                yield VerticalScroll(Static(id="advice-text"), id="advice")
        yield Static(id="keys")

    def on_mount(self) -> None:
        actions = self.query_one("#actions", OptionList)
        actions.can_focus = False  # the keys are the screen's; the list is clicked
        self.redraw()

    def title_text(self) -> str:
        w = self.words
        where = w.dungeon(self.kept.mode, self.kept.date)
        return f"{w('app.name')} · {where} · {w.rules_line(self.kept.state.rules)}"

    def redraw(self) -> None:
        state = self.kept.state
        seen = state.observation(state.leader)
        w = self.words
        self.query_one("#title", Static).update(self.title_text())
        self.query_one("#dungeon", Static).update(self.dungeon_text(seen))
        for number in (1, 2):
            panel = self.query_one(f"#hero-{number}", Static)
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
            panel.update(self.hero_text(hero, seen))
        if self.chosen is not None and self.chosen >= len(seen.room):
            self.chosen = None
        for index in range(4):
            card_widget = self.query_one(f"#card-{index + 1}", RoomCard)
            if index < len(seen.room):
                card = seen.room[index]
                card_widget.update(card_face(card, w, index + 1))
                card_widget.set_class(card.suit in ("D", "H", "R"), "red")
                card_widget.set_class(self.chosen == index, "chosen")
                card_widget.set_class(False, "empty")
            else:
                card_widget.update("")
                card_widget.set_classes("empty")
        self.draw_actions(seen)
        self.draw_advice()
        self.query_one("#keys", Static).update(self.keys_text())

    def dungeon_text(self, seen: Observation) -> Text:
        w = self.words
        text = Text(w("table.dungeon_pile", n=seen.dungeon_count), style="bold")
        counts = seen.unseen_counts
        unseen = [
            w(f"count.{kind.value}", n=sum(counts[kind].values())) for kind in Kind if counts[kind]
        ]
        if unseen:
            text.append("\n" + w("table.left") + ": " + ", ".join(unseen), style="dim")
        if seen.known_bottom:
            text.append("\n" + w("table.bottom", cards=w.cards(seen.known_bottom)), style="dim")
        state = self.kept.state
        if state.is_over:
            return text
        if seen.final_room:
            text.append("\n" + w("table.final_note"), style="yellow")
        else:
            refusal = state.explain("F")
            flee = w("term.flee_open") if refusal is None else w.refusal(refusal)
            text.append("\n" + flee, style="green" if refusal is None else "yellow")
        if len(seen.heroes) > 1:  # the help card (C5): one per room, to the partner
            help_card = w("refusal.help_used") if seen.help_used else w("term.help_open")
            text.append("\n" + help_card, style="dim" if seen.help_used else "green")
        return text

    def hero_text(self, hero: Hero, seen: Observation) -> Text:
        w = self.words
        text = health_bar(hero.health, 16, w.ascii_only)
        if hero.health <= 0:
            text.append(f"  ☠ {w('hero.fallen')}" if not w.ascii_only else f"  {w('hero.fallen')}")
        text.append("\n")
        if hero.weapon is not None:
            text.append(w.card(hero.weapon), style="bold")
            if hero.stack:
                text.append(" ← " if not w.ascii_only else " < ")
                text.append(w.cards(hero.stack), style="dim")
            text.append("\n")
        text.append(w.weapon(hero, seen.rules), style="dim")
        text.append("\n")
        text.append(w("hero.potion_used" if hero.potion_used else "hero.potion_ready"), style="dim")
        return text

    def moves_for(self, index: int) -> list[Move]:
        state = self.kept.state
        card = state.observation(state.leader).room[index]
        return [move for move in state.legal_moves if move.card == card]

    def draw_actions(self, seen: Observation) -> None:
        w = self.words
        state = self.kept.state
        prompt = self.query_one("#prompt", Static)
        actions = self.query_one("#actions", OptionList)
        actions.clear_options()
        if state.is_over:
            prompt.update(self.outcome_text())
            actions.add_options(
                [
                    Option(Text(f"[A] {w('analysis.start')}"), id="analyse"),
                    Option(Text(f"[N] {w('setup.title')}"), id="new"),
                    Option(Text(f"[E] {w('term.export')}"), id="export"),
                    Option(Text(f"[S] {w('nav.records')}"), id="records"),
                    Option(Text(f"[Q] {w('term.quit')}"), id="quit"),
                ]
            )
            return
        lines = Text()
        if self.message is not None:
            lines.append_text(self.message)
            lines.append("\n")
        if self.chosen is None:
            many = len(seen.heroes) > 1
            lines.append(w("table.choose_coop" if many else "table.choose", n=seen.leader))
            prompt.update(lines)
            if seen.can_flee:
                actions.add_option(Option(Text(f"[F] {w('act.flee')}"), id="F"))
            return
        if self.giving:
            lines.append(w("toast.giving"), style="bold")
        else:
            card = seen.room[self.chosen]
            lines.append(w.card_name(card), style="bold")
        prompt.update(lines)
        previews = state.previews()
        for move in self.moves_for(self.chosen):
            if self.giving and not move.help:
                continue
            key = self.key_of(move)
            label = Text(f"[{key}] ", style="bold")
            label.append(w.action(move, previews[move], seen))
            if previews[move].heroes[self.target(move, seen) - 1].health <= 0:
                label.stylize("red")
            actions.add_option(Option(label, id=move.token))
        if seen.can_flee:
            actions.add_option(Option(Text(f"[F] {w('act.flee')}"), id="F"))

    @staticmethod
    def target(move: Move, seen: Observation) -> int:
        return 3 - seen.leader if move.help else seen.leader

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
                text.append(f"\n  {label}: {points}")
        return text

    def draw_advice(self) -> None:
        box = self.query_one("#advice-text", Static)
        if self.advised_at != len(self.kept.game.moves):
            self.advice = []
        text = Text()
        for line in self.advice:
            text.append_text(line)
            text.append("\n")
        box.update(text)

    def keys_text(self) -> Text:
        """The keys in one line that fits 80 columns; ? lists them with their meaning."""
        w = self.words
        keys = ["1-4", "W", "B", "Enter", "G", "F", "H"] if not self.kept.state.is_over else []
        if self.kept.can_undo:
            keys.append("U")
        if self.kept.state.is_over:
            keys += ["A", "N", "E"]
        keys += [f"? {w('act.keys')}", "R", "S", f"Q {w('term.quit')}"]
        return Text(" · ".join(keys))

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
        if state.is_over or index >= len(state.observation(state.leader).room):
            return
        self.chosen = None if self.chosen == index else index
        self.giving = False
        self.message = None
        self.redraw()

    def action_drop(self) -> None:
        self.chosen = None
        self.giving = False
        self.message = None
        self.redraw()

    def action_give(self) -> None:
        if self.chosen is None or self.kept.state.is_over:
            return
        if not any(move.help for move in self.moves_for(self.chosen)):
            state = self.kept.state
            card = state.observation(state.leader).room[self.chosen]
            refusal = state.explain(">" + card.code)
            self.say(self.words.refusal(refusal) if refusal else self.words("toast.no_such_move"))
            return
        self.giving = not self.giving
        self.redraw()

    def action_act(self, how: str) -> None:
        """W, B or Enter on the chosen card (after G: the partner's way)."""
        state = self.kept.state
        if state.is_over:
            return
        if self.chosen is None:
            if how == "take" and len(state.legal_moves) == 1:  # Enter: the one move there is
                self.play(state.legal_moves[0].token)
            return
        card = state.observation(state.leader).room[self.chosen]
        token = (">" if self.giving else "") + card.code
        if card.is_monster:
            if how == "take":
                fights = [m for m in self.moves_for(self.chosen) if m.help == self.giving]
                if len(fights) != 1:  # both ways are open: the key says which
                    self.say(self.words("term.which_way"))
                    return
                token = fights[0].token
            else:
                token += "/" + how
        elif how != "take":
            self.say(self.words("toast.no_such_move"))
            return
        self.play(token)

    def action_flee(self) -> None:
        if not self.kept.state.is_over:
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
            self.say(self.words(f"error.{error.reason}"))
            return
        self.chosen = None
        self.giving = False
        self.message = None
        self.redraw()

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
            self.say(self.words(f"error.{error.reason}"))
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
        if self.kept.state.is_over:
            self.say(self.words("error.hints_over"))
            return
        self.advice = [Text(self.words("hint.thinking"), style="italic")]
        self.advised_at = len(self.kept.game.moves)
        self.draw_advice()
        self.think()

    @work(thread=True, exclusive=True, group="hint")
    def think(self) -> None:
        from scoundrel.solver import hint

        state = self.kept.state
        moves = len(self.kept.game.moves)
        advice = hint(state.observation(state.leader))
        if not get_current_worker().is_cancelled:
            self.app.call_from_thread(self.show_hint, advice, moves)

    def show_hint(self, advice: Any, moves: int) -> None:
        if moves != len(self.kept.game.moves):
            return  # the game moved on while the bot was thinking
        self.kept.count_hint()
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
        lines.append(Text(w("hint.counted"), style="dim"))
        self.advice = lines
        self.advised_at = moves
        self.draw_advice()

    # ------------------------------------------------------------------ other screens

    def action_analyse(self) -> None:
        if not self.kept.state.is_over:
            self.say(self.words("error.game_not_over"))
            return
        from .analysis import AnalysisScreen

        self.app.push_screen(AnalysisScreen(self.kept))

    def action_export(self) -> None:
        from .menus import ExportScreen

        self.app.push_screen(ExportScreen(self.kept))

    def action_keys(self) -> None:
        from .menus import KeysScreen

        self.app.push_screen(KeysScreen())

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
