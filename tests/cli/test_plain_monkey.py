"""A monkey at the line game (issue 34): random lines, moves legal and not, every command,
numbers out of range, noise, Ctrl+C and Ctrl+D, for thousands of lines in solo and co-op,
a random dungeon and the dungeon of the day (seeded). Before every line the game checks:
nothing raised, the game in the store is the game this window shows, and every line
printed fits 80 columns (but ``record``'s JSON, printed whole to be copied)."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from scoundrel.cli.effort import Effort
from scoundrel.cli.keep import Keeper, KeptGame
from scoundrel.cli.plain import WIDTH, PlainGame
from scoundrel.cli.words import Words
from scoundrel.core import Rules

LINES = int(os.environ.get("SCOUNDREL_MONKEY_LINES", "1500"))
CHEAP = Effort(playouts=1, best_seconds=0.2, review=False, give_up=0.5)
COMMANDS = [
    "hint", "h", "undo", "u", "reload", "r", "record", "rules", "help", "?", "new",
    "analyse", "a", "save", "save x.json", "save no/such/folder/x.json", "save " + "y" * 300,
    "quit", "q", "exit", "", "   ", "７", "²", "ß", "\t", "F", "f", "KS/x", "ZZ", ">",
    ">KS/w", "10", "0", "-1", "99999999999999999999", "z" * 500, "save\x00x",
]  # fmt: skip
SUITS = "SCDH"
RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]


class Monkey:
    """The lines: a legal move most often, else anything; the checks before each."""

    def __init__(self, rng: random.Random, keeper: Keeper) -> None:
        self.rng = rng
        self.keeper = keeper
        self.session: PlainGame | None = None
        self.written: list[str] = []
        self.left = LINES
        self.recording = False

    def write(self, text: str) -> None:
        # a word longer than a line (a path typed, say) is printed whole, to be copied
        if not self.recording and max(map(len, text.split()), default=0) < WIDTH - 2:
            assert len(text) <= WIDTH, text
        self.written.append(text)

    def read(self, prompt: str) -> str:
        self.check()
        self.recording = False
        self.left -= 1
        if self.left <= 0:
            raise EOFError
        draw = self.rng.random()
        if draw < 0.01:
            raise KeyboardInterrupt
        if draw < 0.015:
            raise EOFError
        kept = self.session.kept if self.session else None
        if draw < 0.6 and kept is not None and not kept.state.is_over:
            legal = kept.state.legal_moves
            if self.rng.random() < 0.5:
                return str(self.rng.randint(1, len(legal)))
            return self.rng.choice(legal).token
        if draw < 0.75:
            card = self.rng.choice(RANKS) + self.rng.choice(SUITS)
            return self.rng.choice(["", ">"]) + card + self.rng.choice(["", "/w", "/b", "/W"])
        line = self.rng.choice(COMMANDS)
        self.recording = line == "record"
        return line

    def check(self) -> None:
        kept = self.session.kept if self.session else None
        if kept is None:
            return
        stored = self.keeper.store.load(kept.id)
        assert stored.moves == tuple(move.token for move in kept.game.moves)
        assert stored.undo_count == kept.stored.undo_count


@pytest.mark.parametrize(
    ("mode", "ruleset", "seed"),
    [("random", "solo", 1), ("random", "coop", 2), ("daily", "solo", 3), ("daily", "coop", 4)],
)
def test_random_lines(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, mode: str, ruleset: str, seed: int
) -> None:
    monkeypatch.chdir(tmp_path)  # what ``save`` writes stays in here
    keeper = Keeper(f"sqlite:///{tmp_path / 'store.sqlite3'}")
    rules = Rules.from_options(ruleset)
    rng = random.Random(seed)
    monkey = Monkey(rng, keeper)
    starts = 0
    kept: KeptGame | None = keeper.start(mode, rules, seed=seed if mode == "random" else None)
    while monkey.left > 0:
        starts += 1
        session = PlainGame(
            keeper,
            Words(rng.choice(["en", "ru", "fr"]), ascii_only=rng.random() < 0.2),
            kept,
            read=monkey.read,
            write=monkey.write,
            new_game=lambda: keeper.start("random", rules),
            effort=CHEAP,
        )
        monkey.session = session
        assert session.run() in (0, 130)
        monkey.check()
        kept = None  # started again: the game in play is offered
    assert starts > 1
