"""``scoundrel play --plain``: a line-based game for any terminal and for screen readers.

After every move it prints the position and the legal moves, numbered, in the player's
language, in lines of at most 80 columns. A line is a move (its number or its notation) or
a command: ``hint``, ``undo``, ``save [FILE]``, ``record``, ``analyse`` (once the game is
over), ``reload``, ``rules``, ``help``, ``new``, ``quit``. Every move is kept in the store as it
is played (:mod:`scoundrel.cli.keep`): Ctrl+C, Ctrl+D or a closed terminal lose nothing, and
the next start offers the game in play.

Another window may play the same game (a second terminal, the full-screen game): before a
move, an undo or a hint the line game looks whether the game is still where it showed it,
and if not it shows the game as it stands and does nothing else (``reload`` shows it too).
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import errno
import os
import textwrap
import time
from collections.abc import Callable
from pathlib import Path

from scoundrel.core import IllegalMoveError, Kind, NotationError
from scoundrel.store.games import StoreError

from .effort import Effort
from .keep import MOVED_ON, Keeper, KeptGame
from .leaving import EXIT_INTERRUPTED
from .words import Words

WIDTH = 79  # an 80-column terminal shows every line unbroken

COMMANDS = {  # a command's words in every language map to its English name
    "quit": ("quit", "q", "exit"),
    "help": ("help", "?"),
    "rules": ("rules",),
    "hint": ("hint", "h"),
    "analyse": ("analyse", "analyze", "a"),
    "undo": ("undo", "u"),
    "save": ("save",),
    "record": ("record",),
    "new": ("new",),
    "reload": ("reload", "r"),
}
#: The commands that change the game, or are about the position shown: each is done only
#: on the game as this window showed it.
ON_THE_POSITION = ("hint", "undo", "save", "record", "analyse")
#: How many answers that are neither yes nor no the question of the game in play takes
#: before it keeps the game (its answer without one): piped input never waits forever.
UNCLEAR_ANSWERS = 3


def default_record_path(now: _dt.datetime | None = None) -> Path:
    """Where an exported record goes unless the player names a file: the records folder in
    the user's data folder (never the current folder), named to the microsecond."""
    from platformdirs import user_data_dir

    stamp = (now or _dt.datetime.now()).strftime("%Y%m%d-%H%M%S-%f")
    return Path(user_data_dir("scoundrel", appauthor=False)) / "records" / f"scoundrel-{stamp}.json"


def save_record(kept: KeptGame, path: Path, made: bool) -> None:
    """Write ``kept``'s record to ``path``. Only the records folder the game ``made``
    its name in is created; a folder the player named must exist (FileNotFoundError), so
    that a typing slip never leaves new folders behind."""
    folder = path.parent
    if made:
        folder.mkdir(parents=True, exist_ok=True)
    elif not folder.is_dir():
        code = errno.ENOTDIR if folder.exists() else errno.ENOENT
        raise OSError(code, os.strerror(code), str(folder))
    kept.game.record.save(path)


class PlainGame:
    """The line-based game loop, with its input and output injectable for tests."""

    def __init__(
        self,
        keeper: Keeper,
        words: Words,
        kept: KeptGame | None = None,
        read: Callable[[str], str] = input,
        write: Callable[[str], None] = print,
        new_game: Callable[[], KeptGame] | None = None,
        seed: int | None = None,
        today: Callable[[], _dt.datetime] = _dt.datetime.now,
        effort: Effort | None = None,
    ) -> None:
        self.keeper = keeper
        self.words = words
        self.kept = kept
        self.read = read
        self._write = write
        self.new_game = new_game
        self.seed = seed
        self.today = today
        self.effort = effort or Effort()
        """How hard a hint and an analysis think."""

    def write(self, text: str = "") -> None:
        """Print ``text``, each paragraph wrapped to 79 columns (indents kept)."""
        for line in text.split("\n"):
            if len(line) <= WIDTH:
                self._write(line)
                continue
            indent = " " * (len(line) - len(line.lstrip()))
            parts = textwrap.wrap(
                line,
                WIDTH,
                subsequent_indent=indent + "  ",
                break_long_words=False,  # a path or a command stays whole, to be copied
                break_on_hyphens=False,
            )
            for part in parts:
                self._write(part)

    # ------------------------------------------------------------------ showing

    def title(self) -> str:
        w = self.words
        kept = self.kept
        assert kept is not None
        if kept.mode == "daily":
            return w("term.daily_title", date=kept.date)
        if kept.mode == "archive":
            return w("mode.archive_on", date=kept.date)
        if kept.stored.loaded:
            return f"{w('mode.random')} ({w('records.loaded')})"
        if self.seed is not None and not kept.game.moves:
            return w("term.seed_title", seed=self.seed)
        return w("mode.random")

    def show(self) -> None:
        assert self.kept is not None
        w = self.words
        state = self.kept.state
        seen = state.observation(state.leader)
        self.write("")
        self.write(w.labelled(w("app.name"), w.rules_line(state.rules)))
        many = len(seen.heroes)
        for number, hero in enumerate(seen.heroes, start=1):
            name = w.hero(number, many)
            if many > 1 and number == seen.leader and not state.is_over:
                name += f" ({w('hero.leader')})"
            parts = [w("hero.health_value", health=hero.health, max=state.rules.health)]
            limit = w.weapon(hero, state.rules)  # the core's limit: none, fresh, below, up to
            if hero.weapon is None:
                parts.append(limit)
            else:
                weapon = w.card(hero.weapon)
                if hero.stack:
                    weapon += " [" + w.cards(hero.stack) + "]"
                parts.append(w.labelled(f"{w('kind.weapon')} {weapon}", limit))
            if hero.potion_used:
                parts.append(w("hero.potion_used"))
            self.write(w.labelled(name, w.sep.join(parts)))
        room = w.cards(seen.room)
        label = w("table.final_room") if seen.final_room else w("table.room")
        self.write(w.labelled(label, room).rstrip())
        dungeon = w("table.dungeon_pile", n=seen.dungeon_count)
        counts = seen.unseen_counts
        unseen = [
            w(f"count.{kind.value}", n=sum(counts[kind].values())) for kind in Kind if counts[kind]
        ]
        if unseen:
            dungeon += w.sep + w("table.left_list", kinds=", ".join(unseen))
        self.write(dungeon)
        if seen.known_bottom:
            self.write(w("table.bottom", cards=w.cards(seen.known_bottom)))
        if many > 1 and seen.help_used and not state.is_over:
            self.write(w("refusal.help_used"))
        if self.kept.closed:  # its day ended before it did: no score
            self.write(w("over.closed"))
            self.write(w("term.over_commands"))
            return
        if state.is_over:
            self.write(w("over.won" if state.status == "won" else "over.lost"))
            breakdown = state.score_breakdown()
            if breakdown is not None:
                for label, points in w.score_lines(breakdown):
                    self.write("  " + w.labelled(label, str(points)))
            self.write(w("term.over_commands"))
            return
        if many > 1:
            self.write(w("term.leader_chooses", hero=w("hero.name", n=seen.leader)))
        else:
            self.write(w("term.your_moves"))
        previews = state.previews()
        for number, move in enumerate(state.legal_moves, start=1):
            text = w.action(move, previews[move], seen)
            self.write(f"{number:>2}. {move.token:<7} {text}")

    # ------------------------------------------------------------------ the loop

    def run(self) -> int:
        w = self.words
        if self.read is input:
            with contextlib.suppress(ImportError):  # line editing and history, where there is one
                import readline  # noqa: F401
        try:
            self.write(w("term.welcome"))
            if self.kept is None and not self.open():
                return 0
            assert self.kept is not None
            self.write(self.title())
            self.write(w("term.kept_note"))
            self.show()
            return self.loop()
        except EOFError:  # Ctrl+D: leaving; the game is kept
            self.leave()
            return 0
        except KeyboardInterrupt:  # Ctrl+C, a closed terminal or a kill: kept too
            with contextlib.suppress(OSError):  # the terminal may be gone
                self.leave()
            return EXIT_INTERRUPTED

    def open(self) -> bool:
        """The game in play if the player wants it, else a new one (False: none at all)."""
        waiting = self.keeper.unfinished()
        if waiting is not None:
            w = self.words
            moves = len(waiting.game.moves)
            summary = w.summary(waiting.mode, waiting.date, waiting.state.rules, moves)
            self.write(w.labelled(w("term.waiting_title"), summary))
            question = w("term.continue_question") + " "
            for _ in range(UNCLEAR_ANSWERS):
                answer = self.read(question).strip().lower()
                if not answer or answer in self.yes_words():
                    self.kept = waiting
                    return True
                if answer in self.no_words():
                    break
                question = w("term.yes_or_no") + " "
            else:  # never a clear answer (input from a pipe, say): the game in play
                self.write(w("term.kept_going"))
                self.kept = waiting
                return True
        if self.new_game is None:
            return False
        self.kept = self.new_game()
        return True

    def yes_words(self) -> tuple[str, ...]:
        return ("y", "yes", *self.words("term.yes").lower().split("|"))

    def no_words(self) -> tuple[str, ...]:
        return ("n", "no", *self.words("term.no").lower().split("|"))

    def loop(self) -> int:
        while True:
            line = self.read("> ")
            command, _, argument = line.strip().partition(" ")
            word = command.lower()
            if not word:
                continue
            name = next((key for key, names in COMMANDS.items() if word in names), None)
            if name == "quit":
                self.leave()
                return 0
            if (name is None or name in ON_THE_POSITION) and self.moved_on():
                continue  # typed for a position the game has left: nothing is done
            if name is None:
                self.play(line.strip())
            elif name == "save":
                self.save(argument.strip() or None)
            else:
                getattr(self, name)()

    def moved_on(self) -> bool:
        """If another window changed the game since it was shown here: say so, show it as
        it stands, and True."""
        assert self.kept is not None
        try:
            changed = self.kept.refresh()
        except StoreError as error:
            self.write(self.words(f"error.{error.reason}"))
            return True
        if changed:
            closed = self.kept.closed  # midnight ended the day of this dungeon
            self.write(self.words("error.daily_closed" if closed else "term.changed_elsewhere"))
            self.show()
        return changed

    def reload(self) -> None:
        """The game as it stands in the store (another window may have moved)."""
        assert self.kept is not None
        if not self.moved_on():
            self.write(self.words("term.unchanged"))
            self.show()

    def refused(self, error: StoreError) -> None:
        """A refusal of the store; if another window moved meanwhile, the game as it
        stands."""
        assert self.kept is not None
        if error.reason in MOVED_ON:
            with contextlib.suppress(StoreError):
                self.kept.refresh()
            self.write(self.words("term.changed_elsewhere"))
            self.show()
            return
        if error.reason == "daily_closed":  # shown as closed from now on, as the table does
            with contextlib.suppress(StoreError):
                self.kept.refresh()
        self.write(self.words(f"error.{error.reason}"))

    def leave(self) -> None:
        self.write("")
        if self.kept is not None and not self.kept.over and self.kept.game.moves:
            self.write(self.words("term.kept_on_leaving"))
        self.write(self.words("term.goodbye"))

    # ------------------------------------------------------------------ commands

    def help(self) -> None:
        self.write(self.words("term.plain_help"))

    def rules(self) -> None:
        """The rules of this game's ruleset, in short, and how cards are worth."""
        w = self.words
        assert self.kept is not None
        rules = self.kept.state.rules
        sections = ["deck", "room", "flee", "weapons", "wear", "potions", "end", "score"]
        if rules.coop_game:  # the co-op part says how the deck, turns and score differ
            sections = ["deck", "coop", "help", *sections[1:7]]
        self.write(w.rules_line(rules))
        for section in sections:
            self.write("")
            self.write(w(f"rules.s.{section}.h").upper())
            for paragraph in w(f"rules.s.{section}.p").split("\n\n"):
                self.write(paragraph)

    def record(self) -> None:
        assert self.kept is not None
        self._write(self.kept.game.record.to_json())

    def play(self, text: str) -> None:
        w = self.words
        assert self.kept is not None
        game = self.kept.game
        if self.kept.over:
            self.write(w("term.over_commands"))
            return
        legal = game.legal_moves
        try:
            if text.isascii() and text.isdigit() and 1 <= int(text) <= len(legal):
                move = legal[int(text) - 1]
            else:
                move = game.parse(text)
        except NotationError as error:
            shown = text if len(text) <= 40 else text[:40] + "…"  # the line may be long
            why = str(error).replace(text, shown)
            self.write(w("term.not_understood", text=shown, why=why))
            return
        refusal = game.state.explain(move)
        if refusal is not None:
            self.write(w("term.not_allowed", why=w.refusal(refusal)))
            return
        before = game.state
        try:
            self.kept.play(move)
        except IllegalMoveError as error:  # pragma: no cover - explain() said it was legal
            self.write(w("term.not_allowed", why=str(error)))
            return
        except StoreError as error:
            self.refused(error)
            return
        self.write(w.played(before, move))
        self.show()
        for code in self.kept.earned:
            self.write(w("ach.toast", name=w(f"ach.{code}")))
        self.kept.earned = []

    def hint(self) -> None:
        from scoundrel.solver import hint

        w = self.words
        assert self.kept is not None
        state = self.kept.state
        if self.kept.over:
            self.write(w("error.daily_closed" if self.kept.closed else "error.hints_over"))
            return
        self.write(w("hint.thinking"))
        here = self.kept.position
        try:
            advice = hint(state.observation(state.leader), bot=self.effort.bot())
        except KeyboardInterrupt:  # Ctrl+C stops the hint, not the game
            self.write(w("term.hint_stopped"))
            return
        try:
            self.kept.count_hint(here)
        except StoreError as error:  # another window moved while the bot was thinking
            self.refused(error)
            return
        for line in w.advice(advice, len(state.heroes)):
            self.write(line)
        if advice.chances:
            self.write(w("hint.chances") + ":")
            for name, chance, margin, advised in w.chances(advice):
                mark = f" <- {w('hint.suggested')}" if advised else ""
                self.write(f"  {chance:>5} {margin:>6}  {name}{mark}")
            note = w.chances_note(advice)
            if note is not None:
                self.write(note)
        self.write(w("hint.counted"))

    def analyse(self) -> None:
        from scoundrel.solver import Cancelled, analyse

        w = self.words
        assert self.kept is not None
        game = self.kept.game
        if not game.is_over:
            self.write(w("error.daily_closed" if self.kept.closed else "term.analyse_later"))
            return
        self.write(w("term.analysing"))
        shown = [time.monotonic()]

        def progress(stage: str, count: int) -> None:
            if time.monotonic() - shown[0] >= 2:
                shown[0] = time.monotonic()
                if stage == "review":
                    self.write(w("analysis.review_stage", n=count, total=len(game.moves)))
                else:
                    self.write(w(f"analysis.{stage}_stage", nodes=w.number(count)))

        try:
            result = analyse(game.start, game.moves, progress=progress, **self.effort.analysis())
        except (Cancelled, KeyboardInterrupt):
            self.write(w("analysis.cancelled"))
            return
        for line in w.analysis(result):
            self.write(line)

    def undo(self) -> None:
        w = self.words
        assert self.kept is not None
        try:
            move = self.kept.undo()
        except StoreError as error:
            self.refused(error)
            return
        self.write(w("term.took_back", move=w.move(move)))
        self.show()

    def new(self) -> None:
        if self.new_game is None:
            return
        self.kept = self.new_game()
        self.seed = None
        self.write(self.words("toast.new_game"))
        self.show()

    def save(self, name: str | None) -> bool:
        """Export the record to ``name`` (default: the records folder); another file of
        that name is replaced only if the player says so."""
        w = self.words
        assert self.kept is not None
        path = Path(name).expanduser() if name else default_record_path(self.today())
        try:
            if path.exists():
                answer = self.ask(w("term.replace_question", path=str(path)) + " ")
                if answer is None or answer.lower() not in self.yes_words():
                    self.write(w("term.not_saved"))
                    return False
            save_record(self.kept, path, made=name is None)
        except (OSError, ValueError) as error:  # unwritable, too long, a NUL in the name
            why = getattr(error, "strerror", None) or str(error)
            self.write(w("term.save_failed", path=str(path), error=why))
            return False
        self.write(w("term.saved", path=str(path)))
        return True

    def ask(self, prompt: str) -> str | None:
        try:
            return self.read(prompt).strip()
        except (EOFError, KeyboardInterrupt):
            return None
