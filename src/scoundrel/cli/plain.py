"""``scoundrel play --plain``: a line-based game for any terminal and for screen readers.

After every move it prints the position and the legal moves, numbered. A line is a move
(its number or its notation) or a command: ``hint``, ``undo``, ``save [FILE]``, ``record``,
``analyse`` (once the game is over), ``help``, ``new``, ``quit``.
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import textwrap
import time
from collections.abc import Callable
from pathlib import Path

from scoundrel.core import Game, IllegalMoveError, NotationError

from .main import EXIT_INTERRUPTED
from .render import analysis_text, moves_text, outcome_text, position_text

HELP = """\
Type the number of a move, or its notation:
  7D      take a weapon or drink a potion (the card's rank and suit)
  KS/w    fight a monster with your weapon     KS/b  fight it bare-handed
  >7D     co-op: give the card to your partner (one help card per room)
  F       flee the room (not twice in a row, not once a card is taken)
Commands:
  hint, h   the bot's move, and why          undo, u      take back the last move
  save [FILE]  save the game's record        record       print the record (JSON)
  analyse, a   once the game is over: could it be won, where did it slip?
  new       start a new game                 help, ?      this text
  rules     the rules of this game           quit, q      leave (asks to save first)"""

CARDS = """\
Cards are worth their rank, J=11, Q=12, K=13, A=14: clubs and spades are monsters,
diamonds weapons, hearts potions{coop}."""

SOLO_RULES = """\
The rules (solo, 20 health): each room is four cards; take three of them, one at a time,
and the fourth stays for the next room. You may flee a room before taking a card, but not
two rooms in a row: its cards go under the dungeon. A monster hurts you by its value; with
a weapon, by what its value exceeds the weapon's. Once a weapon has slain a monster it
only fights {weapon} ones. A potion heals its value, up to 20, and only the first one in
a room heals. The last room holds what is left and cannot be fled. Win by clearing the
dungeon alive: your score is your health (plus the last card's value if it is a potion
and you end at 20). Dead, it is your health minus {left}."""

COOP_RULES = """\
The rules (co-op for two, 20 health each): the leader of a room takes three of its four
cards, one at a time, and may give one of them to the partner (the help card: a weapon
to equip, a potion to drink, a monster to fight). Leadership passes after each room
faced, not after a flee; no two flees in a row. Monsters hurt by their value, or by what
it exceeds the weapon's; once a weapon has slain a monster it only fights {weapon} ones.
Each hero is healed by one potion a room at most. Both heroes must clear the dungeon
alive: the score is their health added together; if one dies, minus the monsters left in
the dungeon and the room."""


class PlainGame:
    """The line-based game loop, with its input and output injectable for tests."""

    def __init__(
        self,
        game: Game,
        read: Callable[[str], str] = input,
        write: Callable[[str], None] = print,
        ascii_only: bool = False,
        new_game: Callable[[], Game] | None = None,
        today: Callable[[], _dt.datetime] = _dt.datetime.now,
        title: str | None = None,
    ) -> None:
        self.game = game
        self.title = title
        """What this dungeon is, said when the game starts (the dungeon of the day, dated)."""
        self.read = read
        self.write = write
        self.ascii_only = ascii_only
        self.new_game = new_game
        self.today = today
        self.saved_moves: int | None = None  # moves in the last saved record
        self.hints = 0

    # ------------------------------------------------------------------ showing

    def show(self) -> None:
        state = self.game.state
        self.write("")
        self.write(position_text(state.observation(state.leader), self.ascii_only))
        if state.is_over:
            self.write(outcome_text(state))
            self.write(
                "Type analyse to see where it could have gone better, save FILE to keep the "
                "record, undo, new or quit."
            )
            return
        if len(state.heroes) > 1:
            self.write(f"Hero {state.leader} chooses:")
        else:
            self.write("Your moves:")
        for line in moves_text(state, self.ascii_only):
            self.write(line)

    # ------------------------------------------------------------------ the loop

    def run(self) -> int:
        if self.read is input:
            with contextlib.suppress(ImportError):  # line editing and history, where there is one
                import readline  # noqa: F401
        self.write("Scoundrel. Type help for the commands, rules for the rules, quit to leave.")
        if self.title:
            self.write(self.title)
        self.show()
        while True:
            try:
                line = self.read("> ")
            except EOFError:  # Ctrl+D: leaving, with the game kept
                self.write("")
                self.offer_save_on_exit(can_ask=False)
                return 0
            except KeyboardInterrupt:  # Ctrl+C: kept too, and the exit status says so
                self.write("")
                self.offer_save_on_exit(can_ask=False)
                return EXIT_INTERRUPTED
            command, _, argument = line.strip().partition(" ")
            word = command.lower()
            if not word:
                continue
            if word in ("quit", "q", "exit"):
                self.offer_save_on_exit(can_ask=True)
                return 0
            if word in ("help", "?"):
                self.write(HELP)
            elif word == "rules":
                self.write(self.rules())
            elif word in ("hint", "h"):
                self.hint()
            elif word in ("analyse", "analyze", "a"):
                self.analyse()
            elif word in ("undo", "u"):
                self.undo()
            elif word == "save":
                self.save(argument.strip() or None)
            elif word == "record":
                self.write(self.game.record.to_json())
            elif word == "new":
                self.start_new()
            else:
                self.play(line.strip())

    def rules(self) -> str:
        """The rules of this game's ruleset and options, in short."""
        rules = self.game.rules
        weaker = "weaker or equal" if rules.weapon == "lenient" else "strictly weaker"
        if rules.coop_game:
            cards = CARDS.format(coop=", but the red J, Q, K and A are monsters too")
            text = COOP_RULES.format(weapon=weaker)
        else:
            cards = CARDS.format(coop="")
            left = (
                "the monsters left in the dungeon (only those: your health does not count)"
                if rules.death_score == "dungeon-only"
                else "the monsters left in the dungeon and the room"
            )
            text = SOLO_RULES.format(weapon=weaker, left=left)
        # each paragraph filled to 79 columns: an 80-column terminal shows it unbroken
        return "\n".join(textwrap.fill(" ".join(part.split()), 79) for part in (cards, text))

    def play(self, text: str) -> None:
        if self.game.is_over:
            self.write("The game is over: type analyse, undo, save FILE, new or quit.")
            return
        try:
            move = self.game.parse(text)
            self.game.play(move)
        except NotationError as error:
            self.write(f"Not understood: {error}. Type help for the notation.")
            return
        except IllegalMoveError as error:
            self.write(f"Not allowed: {error}.")
            return
        self.show()

    def hint(self) -> None:
        from scoundrel.solver import hint

        state = self.game.state
        if state.is_over:
            self.write("The game is over: no more hints. Type analyse to see where it slipped.")
            return
        self.hints += 1
        self.write(hint(state.observation(state.leader)).text())

    def analyse(self) -> None:
        from scoundrel.solver import Cancelled, analyse

        game = self.game
        if not game.is_over:
            self.write(
                "Analysis is for finished games: it sees the whole dungeon. "
                "Type hint for advice that does not."
            )
            return
        self.write("Analysing (Ctrl+C stops)...")
        shown = [time.monotonic()]

        def progress(stage: str, count: int) -> None:
            if time.monotonic() - shown[0] >= 2:
                shown[0] = time.monotonic()
                if stage == "review":
                    self.write(f"  ... fair review: {count} of {len(game.moves)} moves judged")
                else:
                    self.write(f"  ... {count:,} positions searched")

        try:
            result = analyse(game.start, game.moves, progress=progress)
        except (Cancelled, KeyboardInterrupt):
            self.write("Analysis stopped.")
            return
        self.write(analysis_text(result))

    def undo(self) -> None:
        try:
            move = self.game.undo()
        except IndexError:
            self.write("Nothing to undo.")
            return
        self.write(f"Took back {move.token}.")
        self.show()

    def start_new(self) -> None:
        if self.new_game is None:
            self.write("Start the program again for a new game.")
            return
        if self.unsaved():
            self.write("The game so far is not saved; type save FILE first to keep it.")
            answer = self.ask("Start a new game anyway? (yes/no) ")
            if answer is None or answer.lower() not in ("y", "yes"):
                return
        self.game = self.new_game()
        self.saved_moves = None
        self.write("A new dungeon.")
        self.show()

    # ------------------------------------------------------------------ saving

    def unsaved(self) -> bool:
        return bool(self.game.moves) and self.saved_moves != len(self.game.moves)

    def default_name(self) -> str:
        return self.today().strftime("scoundrel-%Y%m%d-%H%M%S.json")

    def save(self, name: str | None) -> bool:
        path = Path(name or self.default_name()).expanduser()
        try:
            self.game.record.save(path)
        except OSError as error:
            self.write(f"Could not save to {path}: {error.strerror or error}")
            return False
        self.saved_moves = len(self.game.moves)
        self.write(f"Saved the record to {path}. Replay it with: scoundrel replay {path}")
        return True

    def ask(self, prompt: str) -> str | None:
        try:
            return self.read(prompt).strip()
        except (EOFError, KeyboardInterrupt):
            return None

    def offer_save_on_exit(self, can_ask: bool) -> None:
        if not self.unsaved():
            self.write("Goodbye.")
            return
        if not can_ask:
            # Input is gone: keep the game rather than lose it.
            self.save(None)
            return
        answer = self.ask(
            "Save the game before leaving? Type a file name, or press Enter to leave: "
        )
        if answer is None:  # Ctrl+C or Ctrl+D at the question: keep the game, not lose it
            self.write("")
            self.save(None)
            return
        if answer:
            self.save(answer)
        self.write("Goodbye.")
