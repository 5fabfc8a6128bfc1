"""``scoundrel play --plain``: whole games, commands and bad input."""

from __future__ import annotations

import datetime as dt
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from scoundrel import Game, Record, Rules, random_deal
from scoundrel.cli.plain import PlainGame


class Console:
    """Scripted input and captured output for :class:`PlainGame`."""

    def __init__(self, lines: list[str]) -> None:
        self.lines: Iterator[str] = iter(lines)
        self.out: list[str] = []

    def read(self, prompt: str) -> str:
        self.out.append(prompt)
        try:
            line = next(self.lines)
        except StopIteration:
            raise EOFError from None
        self.out.append(line)
        return line

    def write(self, text: str) -> None:
        self.out.append(text)

    @property
    def text(self) -> str:
        return "\n".join(self.out)


def plain(game: Game, lines: list[str], **kwargs: object) -> tuple[PlainGame, Console]:
    console = Console(lines)
    session = PlainGame(
        game,
        read=console.read,
        write=console.write,
        today=lambda: dt.datetime(2026, 11, 29, 12, 0, 0),
        **kwargs,  # type: ignore[arg-type]
    )
    return session, console


def _moves_to_finish(game: Game) -> list[str]:
    """A whole game's input lines: always the first listed move, by number."""
    copy = Game(game.rules, game.deck)
    lines = []
    while not copy.is_over:
        copy.play(copy.legal_moves[0])
        lines.append("1")
    return lines


def test_whole_solo_game_by_numbers_then_save(tmp_path: Path) -> None:
    game = Game(Rules.solo(), random_deal(Rules.solo(), 44))
    lines = _moves_to_finish(game)
    target = tmp_path / "solo.json"
    session, console = plain(game, [*lines, f"save {target}", "quit"])
    assert session.run() == 0
    assert session.game.is_over
    assert "score:" in console.text
    assert f"Saved the record to {target}" in console.text
    replayed = Record.load(target).replay()
    assert replayed.state == session.game.state
    assert console.text.rstrip().endswith("Goodbye.")


def test_whole_coop_game_with_notation(tmp_path: Path) -> None:
    rules = Rules.coop()
    game = Game(rules, random_deal(rules, 5))
    copy = Game(rules, game.deck)
    lines = []
    while not copy.is_over:
        move = copy.legal_moves[-1]
        copy.play(move)
        lines.append(move.token.lower())
    session, console = plain(game, [*lines, "quit", ""])
    assert session.run() == 0
    assert session.game.state == copy.state
    assert "Hero 1 (leads this room)" in console.text
    assert "Hero 2" in console.text
    assert "score:" in console.text


def test_undo_help_record_and_bad_input() -> None:
    game = Game(Rules.solo(), random_deal(Rules.solo(), 44))
    session, console = plain(
        game,
        ["help", "undo", "1", "undo", "zz", "9", "8S/w", "F", "JC", "record", "quit", ""],
    )
    session.run()
    text = console.text
    assert "Type the number of a move" in text
    assert "Nothing to undo." in text
    assert "Took back 10D." in text
    assert "Not understood: 'zz' is not a card" in text
    assert "there is no move 9: choose 1-5" in text
    assert "Not allowed: 8S/w is not legal: 8S is not in the room" in text
    assert "Not understood: 'JC': JC is a monster, so say how to fight it" in text
    assert '"format": "scoundrel-record/1"' in text
    assert "Not allowed" not in text.split("F\n")[-1].split("JC")[0]  # F was legal
    assert session.game.moves[-1].token == "F"


def test_quit_offers_to_save(tmp_path: Path) -> None:
    game = Game(Rules.solo(), random_deal(Rules.solo(), 44))
    target = tmp_path / "kept.json"
    session, console = plain(game, ["1", "quit", str(target)])
    session.run()
    assert "Save the game before leaving?" in console.text
    assert Record.load(target).moves == game.moves


def test_end_of_input_keeps_an_unsaved_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    game = Game(Rules.solo(), random_deal(Rules.solo(), 44))
    session, console = plain(game, ["1", "2"])
    session.run()
    assert "Saved the record to scoundrel-20261129-120000.json" in console.text
    saved = tmp_path / "scoundrel-20261129-120000.json"
    assert saved.exists()
    assert len(Record.load(saved).moves) == 2


def test_new_game_asks_before_dropping_moves() -> None:
    rules = Rules.solo()
    game = Game(rules, random_deal(rules, 44))
    fresh = Game(rules, random_deal(rules, 45))
    session, console = plain(game, ["1", "new", "no", "new", "yes", "quit"], new_game=lambda: fresh)
    session.run()
    assert "Start a new game anyway?" in console.text
    assert session.game is fresh


def test_moves_after_the_end_are_refused() -> None:
    game = Game(Rules.solo(), random_deal(Rules.solo(), 44))
    lines = _moves_to_finish(game)
    session, console = plain(game, [*lines, "1", "quit", ""])
    session.run()
    assert "The game is over: type analyse, undo, save FILE, new or quit." in console.text


def test_plain_game_in_a_real_process(tmp_path: Path) -> None:
    target = tmp_path / "p.json"
    result = subprocess.run(
        [sys.executable, "-m", "scoundrel", "play", "--plain", "--seed", "44", "--ascii"],
        input=f"1\nJC/w\nsave {target}\nquit\n",
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "Room: 10D JC 5S 7D" in result.stdout
    assert "fight JC with 10D: 1 damage, health 19" in result.stdout
    assert [m.token for m in Record.load(target).moves] == ["10D", "JC/w"]
    resumed = subprocess.run(
        [sys.executable, "-m", "scoundrel", "play", "--plain", "--load", str(target)],
        input="quit\n",
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert resumed.returncode == 0
    assert "health 19/20" in resumed.stdout
    assert "Goodbye." in resumed.stdout


def test_daily_game_in_a_real_process() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "scoundrel", "play", "--plain", "--daily", "2026-11-29"],
        input="quit\n",
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0
    first = Game.daily("2026-11-29").state.room
    assert "Room: " + " ".join(card.symbol for card in first) in result.stdout


def test_hint_shows_the_bots_move_and_why_and_plays_nothing() -> None:
    rules = Rules.solo()
    game = Game(rules, random_deal(rules, 3))
    session, console = plain(game, ["hint", "h", "quit", ""])
    session.run()
    hints = [line for line in console.out if line.startswith("Hint: ")]
    assert len(hints) == 2 and hints[0] == hints[1]
    first = hints[0].split()[1].rstrip(".")
    assert game.state.is_legal(first)  # the bot's move is legal here
    assert "health" in hints[0] or "Flee" in hints[0]
    # each legal move's chance to win, one line each: "  Fight K♠ bare-handed: 34% to win (±9)"
    chances = hints[0].split("Chances to win:\n")[1].splitlines()
    assert len(chances) == len(game.state.legal_moves)
    assert all("% to win (" in line for line in chances)
    assert not game.moves  # a hint plays nothing
    assert session.hints == 2


def test_hint_after_the_end_and_help_is_no_longer_h() -> None:
    rules = Rules.solo()
    game = Game(rules, random_deal(rules, 3))
    for _ in range(200):
        if game.is_over:
            break
        game.play(game.legal_moves[0])
    session, console = plain(game, ["hint", "?", "quit", ""])
    session.run()
    assert "The game is over: no more hints" in console.text
    assert "hint, h" in console.text  # the help text lists the hint command


def test_analyse_a_finished_game_names_the_first_slip() -> None:
    rules = Rules.solo()
    game = Game(rules, random_deal(rules, 3))
    while not game.is_over:
        game.play(game.legal_moves[0])  # careless play: fights everything in room order
    session, console = plain(game, ["analyse", "quit", ""])
    session.run()
    text = console.text
    assert "The deal could be won. The best possible score was 30." in text
    assert f"Your game scored {game.state.score} in {len(game.moves)} moves." in text
    assert "The first slip was move " in text and "Better was " in text


def test_analyse_refuses_a_game_in_progress() -> None:
    rules = Rules.solo()
    game = Game(rules, random_deal(rules, 3))
    session, console = plain(game, ["analyse", "quit", ""])
    session.run()
    assert "Analysis is for finished games" in console.text


@pytest.mark.parametrize(
    "rules,says,never",
    [
        (Rules.solo(), ["J=11", "strictly weaker", "dungeon and the room"], ["help card"]),
        (
            Rules.from_options("solo", {"weapon": "lenient", "death_score": "dungeon-only"}),
            ["weaker or equal", "only those"],
            ["help card"],
        ),
        (Rules.coop(), ["help card", "red J, Q, K and A are monsters", "weaker or equal"], []),
    ],
    ids=["solo", "solo-options", "coop"],
)
def test_rules_tells_this_games_rules(rules: Rules, says: list[str], never: list[str]) -> None:
    """Issue 12: `rules` is a command (it was read as a card), it tells the rules of this
    game's ruleset and options, card values and scoring included, within 80 columns."""
    session, console = plain(Game(rules, random_deal(rules, 1)), ["rules"])
    assert session.run() == 0
    text = session.rules()
    assert text in console.text
    assert "is not a card" not in console.text and "Not understood" not in console.text
    for words in says:
        assert words in " ".join(text.split())
    for words in never:
        assert words not in text
    assert max(len(line) for line in text.splitlines()) < 80


def test_ctrl_c_keeps_the_game_and_exits_130(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ctrl+C at the prompt saves the game (no question: input is gone) and exits with the
    status every command gives an interruption; Ctrl+D saves it and exits 0."""
    monkeypatch.chdir(tmp_path)
    rules = Rules.solo()

    lines = iter(["1"])

    def interrupted(prompt: str) -> str:
        line = next(lines, None)
        if line is None:
            raise KeyboardInterrupt
        return line

    out: list[str] = []
    session = PlainGame(Game(rules, random_deal(rules, 1)), read=interrupted, write=out.append)
    assert session.run() == 130
    saved = list(tmp_path.glob("scoundrel-*.json"))
    assert len(saved) == 1 and len(Record.load(saved[0]).moves) == 1
    session, _ = plain(Game(rules, random_deal(rules, 2)), ["1"])
    assert session.run() == 0  # Ctrl+D (end of input)
    assert len(list(tmp_path.glob("scoundrel-*.json"))) == 2


def test_ctrl_d_at_the_save_question_keeps_the_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 12: quitting asks whether to save; Ctrl+C or Ctrl+D at that question used to
    leave without saving. Now the game is kept; Enter still leaves without it."""
    monkeypatch.chdir(tmp_path)
    rules = Rules.solo()
    session, console = plain(Game(rules, random_deal(rules, 1)), ["1", "quit"])  # then EOF
    assert session.run() == 0
    saved = list(tmp_path.glob("scoundrel-*.json"))
    assert len(saved) == 1 and len(Record.load(saved[0]).moves) == 1
    assert "Saved the record" in console.text
    session, console = plain(Game(rules, random_deal(rules, 2)), ["1", "quit", ""])
    assert session.run() == 0
    assert len(list(tmp_path.glob("scoundrel-*.json"))) == 1  # Enter: left without saving
    assert "Goodbye." in console.text
