"""``scoundrel play --plain``, the line game: whole games, the store that keeps every move,
saving, languages, the width of its lines, its commands and bad input.

The game runs in this process with scripted input (:class:`Console`) and a store of the
test's own (:class:`Keeper` on a SQLite file in ``tmp_path``); ``test_cli.py`` runs it as
``python -m scoundrel play``. Issue 12 listed the line game's defects: each test says which
one (or which rule) it checks.
"""

from __future__ import annotations

import datetime as dt
import subprocess
import sys
from collections.abc import Iterable
from functools import cache
from pathlib import Path

import pytest

from scoundrel import Card, Game, Move, Record, Rules, State, daily_deal, random_deal
from scoundrel.cli.keep import Keeper, KeptGame
from scoundrel.cli.main import EXIT_INTERRUPTED
from scoundrel.cli.plain import WIDTH, PlainGame, default_record_path
from scoundrel.cli.words import Words

#: A scripted line, or the exception a key raises at the prompt (Ctrl+D, Ctrl+C).
Line = str | type[BaseException]


class Console:
    """Scripted input and captured output for :class:`PlainGame`: after the last line,
    the end of input (Ctrl+D)."""

    def __init__(self, lines: Iterable[Line]) -> None:
        self.lines = iter(lines)
        self.events: list[tuple[str, str]] = []  # ("out" | "prompt" | "in", text)

    def read(self, prompt: str) -> str:
        self.events.append(("prompt", prompt))
        line = next(self.lines, EOFError)
        if isinstance(line, type):
            raise line
        self.events.append(("in", line))
        return line

    def write(self, text: str) -> None:
        self.events.append(("out", text))

    @property
    def written(self) -> list[str]:
        """What the game printed: every line it wrote, and its prompts."""
        return [text for kind, text in self.events if kind != "in"]

    @property
    def prompts(self) -> list[str]:
        return [text for kind, text in self.events if kind == "prompt"]

    @property
    def text(self) -> str:
        return "\n".join(text for _, text in self.events)

    @property
    def flat(self) -> str:
        """The text with its wrapped lines joined again (any run of spaces as one)."""
        return " ".join(self.text.split())

    def positions(self) -> list[list[str]]:
        """Each position shown (English): its lines, from the ruleset to the last move."""
        blocks: list[list[str]] = []
        inside = False
        for kind, text in self.events:
            if kind == "out" and text.startswith("Scoundrel: "):
                blocks.append([])
                inside = True
            if kind != "out":
                inside = False
            elif inside:
                blocks[-1].append(text)
        return blocks


@pytest.fixture
def keeper(tmp_path: Path) -> Keeper:
    return Keeper(f"sqlite:///{tmp_path}/s.db")


def plain(
    keeper: Keeper,
    kept: KeptGame | None,
    lines: Iterable[Line],
    lang: str = "en",
    ascii_only: bool = False,
    **kwargs: object,
) -> tuple[PlainGame, Console]:
    console = Console(lines)
    session = PlainGame(
        keeper,
        Words(lang, ascii_only),
        kept,
        read=console.read,
        write=console.write,
        **kwargs,  # type: ignore[arg-type]
    )
    return session, console


@cache
def winning_line(ruleset: str, seed: int) -> tuple[Move, ...]:
    """A winning line of the seeded deal, from the solver (quick for these deals)."""
    from scoundrel.solver import solve

    rules = Rules.from_options(ruleset)
    solution = solve(State.new(rules, random_deal(rules, seed)))
    assert solution.winnable and solution.line
    return solution.line


def numbers(rules: Rules, deck: tuple[Card, ...], line: Iterable[Move]) -> list[str]:
    """The input lines that play ``line`` by the numbers of the move lists."""
    game = Game(rules, deck)
    typed = []
    for move in line:
        typed.append(str(game.legal_moves.index(move) + 1))
        game.play(move)
    return typed


def first_moves(kept: KeptGame) -> list[str]:
    """A whole (careless) game from ``kept``'s position: always the first move listed."""
    copy = Game(kept.game.rules, kept.game.deck)
    for move in kept.game.moves:
        copy.play(move)
    lines = []
    while not copy.is_over:
        copy.play(copy.legal_moves[0])
        lines.append("1")
    return lines


def game_of(session: PlainGame) -> Game:
    """The game a session is playing."""
    assert session.kept is not None
    return session.kept.game


def refuse_new_game() -> KeptGame:
    raise AssertionError("no new game was asked for")


# ---------------------------------------------------------------- whole games (issue 12)


@pytest.mark.parametrize("by", ["numbers", "notation"])
@pytest.mark.parametrize(("ruleset", "seed"), [("solo", 1), ("coop", 1)])
def test_a_whole_game_then_save_replays_to_the_same_state(
    keeper: Keeper,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    ruleset: str,
    seed: int,
    by: str,
) -> None:
    """Issue 12: a whole game, typed by the numbers of the move lists or in notation (any
    case), is played to its end, and `save FILE` exports a record that replays to the very
    state the game reached. The finished game is in the store, out of play."""
    monkeypatch.chdir(tmp_path)
    rules = Rules.from_options(ruleset)
    kept = keeper.start("random", rules, seed=seed)
    line = winning_line(ruleset, seed)
    if by == "numbers":
        typed = numbers(rules, kept.game.deck, line)
    else:
        typed = [f" {move.token.lower()} " for move in line]
    session, console = plain(keeper, kept, [*typed, "save game.json", "quit"], seed=seed)
    assert session.run() == 0
    game = game_of(session)
    assert game.is_over and game.status == "won"
    assert game.moves == line
    assert "Not understood" not in console.text and "Not allowed" not in console.text
    assert f"A random dungeon, seed {seed} (the same seed deals it again)." in console.text
    assert "The dungeon is cleared!" in console.text
    assert f"  Score: {game.state.score}" in console.written
    if rules.coop_game:
        assert "Hero 1 (leads): 20 / 20 · No weapon: bare hands" in console.written
        assert "Hero 1 chooses:" in console.written and "Hero 2: 20 / 20" in console.text
    else:
        assert "You: 20 / 20 · No weapon: bare hands" in console.written
        assert "Your moves:" in console.written
    assert "Saved the record to game.json. Replay it with: scoundrel replay game.json" in (
        console.flat
    )
    replayed = Record.load(tmp_path / "game.json").replay()
    assert replayed.state == game.state
    assert replayed.moves == line
    stored = keeper.history()[0]
    assert stored.id == kept.id and stored.status == "won"
    assert stored.moves == tuple(move.token for move in line)
    assert keeper.unfinished() is None  # nothing left to offer
    assert console.written[-1] == "Goodbye."
    assert "The game is kept" not in console.text  # a finished game is not "waiting"


def test_moves_after_the_end_are_refused(keeper: Keeper) -> None:
    """Issue 12: after the end a move is not read as one: the game says what can be done
    (analyse, save, new, quit), and the lost game's end is shown."""
    kept = keeper.start("random", Rules.solo(), seed=44)
    session, console = plain(keeper, kept, [*first_moves(kept), "1", "F", "quit"])
    assert session.run() == 0
    assert game_of(session).status == "lost"
    moves = len(game_of(session).moves)
    assert "The dungeon claims another hero." in console.written
    over = (
        "Type analyse to see where it could have gone better, save to export the record, "
        "new or quit."
    )
    assert console.flat.count(over) == 3  # at the end, then for "1" and for "F"
    assert len(game_of(session).moves) == moves
    assert "Not allowed" not in console.text


# ---------------------------------------------------------------- the store keeps every move


def test_ctrl_c_exits_130_and_the_next_start_offers_the_game(keeper: Keeper) -> None:
    """Issue 12: the game used to live only in memory (and in an autosave file in the
    current folder). Every move is now kept in the store as it is played: Ctrl+C exits
    130 (EXIT_INTERRUPTED) with nothing lost, the next start offers the game with its
    moves and, continued, shows the same position; "no" starts a new game and the old one
    stays in the records."""
    rules = Rules.solo()
    kept = keeper.start("random", rules, seed=44)
    first, console = plain(keeper, kept, ["1", "1", "1", KeyboardInterrupt])
    assert first.run() == EXIT_INTERRUPTED == 130
    assert "The game is kept: run scoundrel play again to go on with it." in console.text
    assert console.written[-1] == "Goodbye."
    position = console.positions()[-1]
    played = game_of(first).moves
    assert len(played) == 3

    again, console = plain(keeper, None, ["", "quit"], new_game=refuse_new_game)
    assert again.run() == 0
    assert "A game in play: Random dungeon · Solo, strict weapons · 3 moves" in console.written
    assert console.prompts[0] == "Continue it? (Enter or yes; no for a new game) "
    assert again.kept is not None and again.kept.id == kept.id
    assert game_of(again).moves == played
    assert console.positions() == [position]  # the same position, to the last move listed

    fresh: list[KeptGame] = []

    def new_game() -> KeptGame:
        fresh.append(keeper.start("random", rules, seed=45))
        return fresh[-1]

    third, console = plain(keeper, None, ["no", "1", "quit"], new_game=new_game)
    assert third.run() == 0
    assert len(fresh) == 1 and third.kept is fresh[0]
    assert "3 moves" in console.text  # offered, then declined
    assert len(game_of(third).moves) == 1
    old = {game.id: game for game in keeper.history()}[kept.id]
    assert old.status == "playing" and len(old.moves) == 3


def test_yes_continues_the_game_in_play(keeper: Keeper) -> None:
    """The offer takes "yes" (or "y") as well as Enter; a move is counted in the singular."""
    kept = keeper.start("random", Rules.solo(), seed=44)
    plain(keeper, kept, ["1", "quit"])[0].run()
    for answer in ("yes", "Y"):
        session, console = plain(keeper, None, [answer, "quit"], new_game=refuse_new_game)
        assert session.run() == 0
        assert "A game in play: Random dungeon · Solo, strict weapons · 1 move" in console.text
        assert session.kept is not None and session.kept.id == kept.id


def test_with_nothing_in_play_a_new_game_starts_at_once(keeper: Keeper) -> None:
    """No game waits: no question, the new game is dealt (and kept from its first move)."""
    started: list[KeptGame] = []

    def new_game() -> KeptGame:
        started.append(keeper.start("random", Rules.solo(), seed=7))
        return started[-1]

    session, console = plain(keeper, None, ["1", "quit"], new_game=new_game)
    assert session.run() == 0
    assert console.prompts[0] == "> "
    assert "A game in play" not in console.text
    waiting = keeper.unfinished()
    assert waiting is not None and waiting.id == started[0].id
    assert len(waiting.game.moves) == 1


def test_ctrl_d_at_the_first_prompt_loses_nothing(keeper: Keeper) -> None:
    """Issue 12: Ctrl+D (end of input) at the first prompt leaves with status 0; the game
    stays in the store, and no file is written anywhere."""
    kept = keeper.start("random", Rules.solo(), seed=44)
    session, console = plain(keeper, kept, [])
    assert session.run() == 0
    assert console.written[-1] == "Goodbye."
    waiting = keeper.unfinished()
    assert waiting is not None and waiting.id == kept.id and waiting.game.moves == ()
    assert len(keeper.history()) == 1


def test_ctrl_d_at_the_continue_question_loses_nothing(keeper: Keeper) -> None:
    """Issue 12: Ctrl+D at "Continue it?" leaves (status 0) without starting a new game:
    the game in play is untouched and is offered again next time."""
    kept = keeper.start("random", Rules.solo(), seed=44)
    plain(keeper, kept, ["1", "1", "quit"])[0].run()
    session, console = plain(keeper, None, [], new_game=refuse_new_game)
    assert session.run() == 0
    assert console.prompts == ["Continue it? (Enter or yes; no for a new game) "]
    assert console.written[-1] == "Goodbye."
    assert [game.id for game in keeper.history()] == [kept.id]
    waiting = keeper.unfinished()
    assert waiting is not None and waiting.id == kept.id and len(waiting.game.moves) == 2
    session, console = plain(keeper, None, [KeyboardInterrupt], new_game=refuse_new_game)
    assert session.run() == EXIT_INTERRUPTED  # Ctrl+C at the question: the same, status 130
    assert [game.id for game in keeper.history()] == [kept.id]


# ---------------------------------------------------------------- save


@pytest.mark.parametrize(
    "answer",
    ["no", "", "maybe", EOFError, KeyboardInterrupt],
    ids=["no", "enter", "other", "ctrl-d", "ctrl-c"],
)
def test_save_never_replaces_a_file_without_a_yes(
    keeper: Keeper, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, answer: Line
) -> None:
    """Issue 12: `save FILE` overwrote any file of that name. Now it asks, and only "yes"
    replaces it: "no", anything else, Ctrl+D or Ctrl+C at the question say "Not saved.",
    leave the file's bytes as they were, and the game goes on."""
    monkeypatch.chdir(tmp_path)
    precious = tmp_path / "notes.json"
    precious.write_bytes(b"my own notes, not a record\n")
    kept = keeper.start("random", Rules.solo(), seed=44)
    session, console = plain(keeper, kept, ["1", "save notes.json", answer, "1", "quit"])
    assert session.run() == 0
    assert "notes.json exists. Replace it? (yes/no) " in console.prompts
    assert "Not saved." in console.written
    assert "Saved the record" not in console.text
    assert precious.read_bytes() == b"my own notes, not a record\n"
    assert len(game_of(session).moves) == 2  # the game went on
    assert console.written[-1] == "Goodbye."


def test_save_replaces_a_file_on_yes(
    keeper: Keeper, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    kept = keeper.start("random", Rules.solo(), seed=44)
    session, console = plain(keeper, kept, ["1", "save g.json", "1", "save g.json", "yes", "q"])
    assert session.run() == 0
    assert console.prompts.count("g.json exists. Replace it? (yes/no) ") == 1
    assert console.flat.count("Saved the record to g.json.") == 2
    assert Record.load(tmp_path / "g.json").moves == game_of(session).moves
    assert len(game_of(session).moves) == 2


def test_save_without_a_name_writes_into_the_data_folder(
    keeper: Keeper, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, own_home: Path
) -> None:
    """Issue 12: the record (and the old autosave) went into the current folder, and two
    saves in the same second overwrote each other. `save` alone now writes into the
    records folder of the user's data folder (XDG_DATA_HOME here), never the current
    folder, and two saves in a row get two names."""
    cwd = tmp_path / "cwd"
    cwd.mkdir()
    monkeypatch.chdir(cwd)
    records = own_home / "scoundrel" / "records"
    assert default_record_path().parent == records
    stamp = dt.datetime(2026, 11, 29, 12, 0, 0, 42)
    assert default_record_path(stamp) == records / "scoundrel-20261129-120000-000042.json"
    kept = keeper.start("random", Rules.solo(), seed=44)
    session, console = plain(keeper, kept, ["1", "save", "save", "1", "quit"])
    assert session.run() == 0
    saved = sorted(records.glob("scoundrel-*.json"))
    assert len(saved) == 2
    assert [Record.load(path).moves for path in saved] == [game_of(session).moves[:1]] * 2
    assert console.flat.count("Saved the record to ") == 2
    assert "Replace it?" not in console.text
    assert list(cwd.iterdir()) == []


@pytest.mark.parametrize(
    ("target", "answers", "error"),
    [("file.txt/x.json", [], "Not a directory"), (".", ["yes"], "Is a directory")],
    ids=["under-a-file", "a-folder"],
)
def test_an_unwritable_target_is_reported_and_the_game_goes_on(
    keeper: Keeper,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    target: str,
    answers: list[str],
    error: str,
) -> None:
    """Issue 12: a file that could not be written ended the game with a traceback. Now it
    says "Could not save to …" with the reason, and the game goes on."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "file.txt").write_text("a file, not a folder\n")
    kept = keeper.start("random", Rules.solo(), seed=44)
    lines = ["1", f"save {target}", *answers, "1", "quit"]
    session, console = plain(keeper, kept, lines)
    assert session.run() == 0
    assert f"Could not save to {target}: {error}" in console.flat
    assert "Saved the record" not in console.text
    assert (tmp_path / "file.txt").read_text() == "a file, not a folder\n"
    assert len(game_of(session).moves) == 2  # the game went on


@pytest.mark.parametrize(
    "line",
    [
        "²",
        "save a\0b.json",
        "save " + "a" * 300 + ".json",
        "save a\tb c.json",
        "1" * 30,
        "-1",
        "0",
        ">F",
        "KS/w/w",
    ],
    ids=[
        "superscript-2",
        "nul-in-name",
        "long-name",
        "tab-in-name",
        "huge",
        "-1",
        "0",
        ">F",
        "KSww",
    ],
)
def test_no_line_ends_the_game_with_a_traceback(
    keeper: Keeper, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, line: str
) -> None:
    """Issue 12 (no traceback, ever): whatever is typed, the game answers and goes on."""
    monkeypatch.chdir(tmp_path)
    kept = keeper.start("random", Rules.solo(), seed=44)
    session, console = plain(keeper, kept, [line, "1", "quit"])
    assert session.run() == 0
    assert len(game_of(session).moves) == 1
    assert console.written[-1] == "Goodbye."


# ---------------------------------------------------------------- quit, new, undo


def test_quit_leaves_at_once_and_keeps_the_game(
    keeper: Keeper, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 12: `quit` asked whether to save (and Ctrl+D at that question lost the game).
    Now it leaves at once, status 0, with the game kept; nothing is written to the
    current folder."""
    monkeypatch.chdir(tmp_path)
    kept = keeper.start("random", Rules.solo(), seed=44)
    for word in ("quit", "q", "exit", "QUIT"):
        session, console = plain(keeper, keeper.unfinished(), ["1", word, "never read"])
        assert session.run() == 0
        assert console.prompts == ["> ", "> "]
        assert console.written[-2:] == [
            "The game is kept: run scoundrel play again to go on with it.",
            "Goodbye.",
        ]
    assert len(keeper.resume(kept.id).game.moves) == 4
    assert not [path for path in tmp_path.iterdir() if path.suffix == ".json"]


def test_new_starts_a_new_game_and_keeps_the_old_one(keeper: Keeper) -> None:
    """`new` deals a new game at once (no question: nothing is lost); the old one stays in
    the store's records, with its moves."""
    kept = keeper.start("random", Rules.solo(), seed=44)
    fresh = keeper.start("random", Rules.solo(), seed=45)
    session, console = plain(keeper, kept, ["1", "new", "1", "quit"], new_game=lambda: fresh)
    assert session.run() == 0
    assert session.kept is fresh
    assert "A new dungeon awaits." in console.written
    shown = console.positions()
    assert len(shown) == 4  # the first game's two positions, then the new game's
    assert shown[2][2] == "Room: " + " ".join(card.symbol for card in fresh.game.deck[:4])
    records = {game.id: game for game in keeper.history()}
    assert len(records[kept.id].moves) == 1 and len(records[fresh.id].moves) == 1


def test_undo_takes_back_moves_in_a_random_dungeon(keeper: Keeper) -> None:
    """`undo` (or `u`) takes back the last move (counted in the store); with none, or once
    the deck has been shown at the end, it says why not."""
    kept = keeper.start("random", Rules.solo(), seed=44)
    session, console = plain(keeper, kept, ["undo", "1", "1", "u", "undo", "undo", "quit"])
    assert session.run() == 0
    assert console.written.count("There is no move to undo.") == 2
    assert "Took back 10♦." in console.written
    assert game_of(session).moves == ()
    assert keeper.history()[0].undo_count == 2
    done = keeper.start("random", Rules.solo(), seed=44)
    session, console = plain(keeper, done, [*first_moves(done), "undo", "quit"])
    session.run()
    assert "The game is over and its deck has been shown: start a new one." in console.written


def test_undo_is_refused_in_the_dungeon_of_the_day(keeper: Keeper) -> None:
    """Issue 12 / M2: the dungeon of the day has one attempt, so `undo` is refused
    (error.no_undo_daily) — before the end and after it — and no move is taken back."""
    rules = Rules.solo()
    today = dt.date.today()
    kept = keeper.start("daily", rules, day=today)
    assert kept.mode == "daily"
    deck = daily_deal(rules, today)  # the public deal (M2), as `scoundrel deal --daily`
    assert kept.game.deck == deck
    session, console = plain(keeper, kept, ["1", "undo", "u", "quit"])
    assert session.run() == 0
    title = f"The dungeon of the day, {today}: every player of that day gets these cards."
    assert title in console.flat
    assert console.written.count("The dungeon of the day has no undo.") == 2
    assert len(game_of(session).moves) == 1
    assert "Took back" not in console.text
    assert keeper.history()[0].undo_count == 0

    rest = first_moves(kept)
    session, console = plain(keeper, keeper.resume(kept.id), [*rest, "undo", "quit"])
    assert session.run() == 0
    assert game_of(session).is_over
    assert console.written.count("The dungeon of the day has no undo.") == 1
    assert "Took back" not in console.text


def test_a_past_day_is_played_from_the_archive_with_undo(keeper: Keeper) -> None:
    """A past day's dungeon is the same deal as that day's, played again unranked: its
    title says so, and it has undo."""
    rules = Rules.solo()
    day = dt.date.today() - dt.timedelta(days=3)
    kept = keeper.start("daily", rules, day=day)
    assert kept.mode == "archive" and kept.game.deck == daily_deal(rules, day)
    session, console = plain(keeper, kept, ["1", "undo", "quit"])
    assert session.run() == 0
    assert f"Dungeon of {day}, from the archive (unranked)" in console.written
    assert any(line.startswith("Took back ") for line in console.written)


# ---------------------------------------------------------------- bad input, record, help


def test_bad_input_is_explained_and_the_game_goes_on(keeper: Keeper) -> None:
    """Bad input never ends the game: each line says what was wrong."""
    kept = keeper.start("random", Rules.solo(), seed=44)
    lines = ["help", "1", "zz", "9", "8S/w", "undo", "F", "JC", "record", "", "   ", "quit"]
    session, console = plain(keeper, kept, lines)
    assert session.run() == 0
    text = console.flat
    assert "Type the number of a move, or its notation:" in console.written
    assert "Not understood: zz ('zz' is not a card" in text
    assert "Not understood: 9 (there is no move 9: choose 1-5)." in text
    assert "Not allowed: 8♠ is not in the room." in console.written
    assert "Took back 10♦." in console.written
    assert "Not understood: JC ('JC': JC is a monster, so say how to fight it" in text
    assert '"format": "scoundrel-record/1"' in console.text
    assert [move.token for move in game_of(session).moves] == ["F"]  # F was legal
    assert console.prompts.count("> ") == len(lines)  # blank lines are simply read again


def test_record_prints_the_record_as_json(keeper: Keeper) -> None:
    kept = keeper.start("random", Rules.solo(), seed=44)
    session, console = plain(keeper, kept, ["1", "record", "quit"])
    assert session.run() == 0
    (printed,) = [text for text in console.written if text.startswith("{")]
    record = Record.from_json(printed)
    assert record.moves == game_of(session).moves and record.deck == kept.game.deck


def test_the_title_names_the_seed_only_before_the_first_move(keeper: Keeper) -> None:
    """Issue 12: a seeded dungeon names its seed (the same seed deals it again)."""
    kept = keeper.start("random", Rules.solo(), seed=44)
    session, console = plain(keeper, kept, ["1", "quit"], seed=44)
    session.run()
    assert "A random dungeon, seed 44 (the same seed deals it again)." in console.written
    assert "Room: 10♦ J♣ 5♠ 7♦" in console.written
    session, console = plain(keeper, keeper.resume(kept.id), ["quit"], seed=44)
    session.run()
    assert console.written[1] == "Random dungeon"  # its position is no longer the deal's


def test_ascii_shows_cards_as_codes(keeper: Keeper) -> None:
    """--ascii: cards as 7D, not 7♦, and the signs of the previews in ASCII."""
    kept = keeper.start("random", Rules.solo(), seed=44)
    session, console = plain(keeper, kept, ["1", "quit"], ascii_only=True)
    session.run()
    assert "Room: 10D JC 5S 7D" in console.written
    assert " 1. JC/w    Fight JC with 10D: -1, health 19" in console.written
    for line in console.positions()[-1]:
        assert line.isascii(), line


# ---------------------------------------------------------------- hints and analysis


def test_hint_shows_the_bots_move_and_the_chances_and_plays_nothing(keeper: Keeper) -> None:
    """`hint` (or `h`): the searching bot's move and plan, each legal move's chance to win
    (the advised one marked), and the hint is counted in the store; nothing is played."""
    kept = keeper.start("random", Rules.solo(), seed=3)
    legal = len(kept.game.legal_moves)
    session, console = plain(keeper, kept, ["hint", "h", "quit"])
    assert session.run() == 0
    assert console.written.count("Weighing the moves…") == 2
    starts = [i for i, line in enumerate(console.written) if line == "Chances to win:"]
    assert len(starts) == 2
    for start in starts:
        chances = console.written[start + 1 : start + 1 + legal]
        assert all("%" in line for line in chances), chances
        assert sum(line.endswith(" <- hint") for line in chances) == 1
        assert console.written[start + 1 + legal].startswith("Hints are counted")
    assert any(line.startswith("Start with ") for line in console.written)
    assert game_of(session).moves == ()
    assert keeper.history()[0].hint_count == 2


def test_hint_after_the_end_and_help_lists_hint(keeper: Keeper) -> None:
    kept = keeper.start("random", Rules.solo(), seed=3)
    session, console = plain(keeper, kept, [*first_moves(kept), "hint", "?", "quit"])
    assert session.run() == 0
    assert "The game is over: no more hints." in console.written
    assert "  hint, h       the searching bot's move, and each move's chance to win" in (
        console.written
    )


def test_analyse_a_finished_game_names_the_first_slip(keeper: Keeper) -> None:
    """`analyse` (once the game is over): could the deal be won, the best score, the first
    slip and the better move."""
    kept = keeper.start("random", Rules.solo(), seed=3)
    lines = first_moves(kept)  # careless play: fights everything in room order
    session, console = plain(keeper, kept, ["analyse", *lines, "a", "quit"])
    assert session.run() == 0
    game = game_of(session)
    assert game.is_over
    text = console.flat
    assert "Analysis is for finished games: it sees the whole dungeon." in text  # the first
    assert console.written.count("Analysing (Ctrl+C stops)…") == 1
    assert "This deal could be won." in console.written
    assert f"Best possible score: 30. Your score: {game.state.score}." in console.written
    assert "The first slip: move " in text and "Better: " in text
    assert max(len(line) for line in console.written) <= WIDTH  # the review's chart too


# ---------------------------------------------------------------- rules


@pytest.mark.parametrize(
    ("rules", "header", "says", "never"),
    [
        (Rules.solo(), "Solo, strict weapons", ["THE CARDS", "SCORING", "strictly weaker"], []),
        (
            Rules.from_options("solo", {"weapon": "lenient", "death_score": "dungeon-only"}),
            "Solo, lenient weapons, Death score counts only the dungeon",
            ["THE CARDS", "SCORING", "lenient option"],
            [],
        ),
        (
            Rules.coop(),
            "Co-op for two, lenient weapons",
            ["SCOUNDREL FOR TWO", "THE HELP CARD", "help card", "All 52 cards"],
            ["SCORING", "potion's value"],  # solo's score (with its potion bonus) is not co-op's
        ),
    ],
    ids=["solo", "solo-options", "coop"],
)
def test_rules_tells_this_games_rules(
    keeper: Keeper, rules: Rules, header: str, says: list[str], never: list[str]
) -> None:
    """Issue 12: `rules` is a command (it was read as a card): it prints the rules sections
    of this game's ruleset from the catalog, headed by the ruleset and its options; a solo
    game never mentions the help card. Within 80 columns."""
    kept = keeper.start("random", rules, seed=1)
    session, console = plain(keeper, kept, ["rules", "quit"])
    assert session.run() == 0
    start = console.written.index(header)
    end = console.written.index("> ", start)  # the rules, up to the next prompt
    text = " ".join(" ".join(console.written[start:end]).split())
    assert "Not understood" not in console.text
    for words in says:
        assert words in text
    for words in [*never, *([] if rules.coop_game else ["help card", "partner"])]:
        assert words not in text
    assert max(len(line) for line in console.written) <= WIDTH


# ---------------------------------------------------------------- languages and width


def test_russian_position_moves_and_plurals(keeper: Keeper) -> None:
    """Issue 12: the line game spoke English only. With Words("ru") the position, the
    moves and the messages are Russian, with Russian plurals (1 карта, 4 карты, 40 карт
    in the dungeon; 1 ход, 3 хода, 5 ходов in the game that is offered)."""
    rules = Rules.solo()
    kept = keeper.start("random", rules, seed=1)
    line = numbers(rules, kept.game.deck, winning_line("solo", 1))
    ru = Words("ru")
    session, console = plain(keeper, kept, [line[0], "quit"], "ru")
    assert session.run() == 0
    texts = [console.text]
    for played, stop in ((1, 3), (3, 5), (5, len(line))):
        session, console = plain(
            keeper, None, ["", *line[played:stop], "quit"], "ru", new_game=refuse_new_game
        )
        assert session.run() == 0
        moves = ru("term.moves", n=played)
        offer = ru("term.waiting_title") + ": " + ru.summary("random", None, rules, played)
        assert offer in console.written and offer.endswith(f" · {moves}")
        texts.append(console.text)
    assert [ru("term.moves", n=n) for n in (1, 3, 5, 21)] == [
        "1 ход",
        "3 хода",
        "5 ходов",
        "21 ход",
    ]
    assert game_of(session).status == "won"
    text = "\n".join(texts)
    assert "Подземелье" in text and "Комната: " in text
    for plural in ("Подземелье: 40 карт ", "Подземелье: 4 карты ", "Подземелье: 1 карта "):
        assert plural in text
    for english in ("Your moves", "Room:", "Dungeon:", "Goodbye", "Fight ", "Equip ", "term."):
        assert english not in text
    for key in ("term.your_moves", "term.goodbye", "term.kept_on_leaving", "over.won"):
        assert ru(key) in text and ru(key) != Words("en")(key)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_every_line_fits_80_columns(
    keeper: Keeper, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lang: str
) -> None:
    """Issue 12: long lines ran past the terminal's edge. Every line the line game prints
    — its prompts, positions, moves, hints, messages, the help text and the rules — fits
    an 80-column terminal (WIDTH = 79), in English and in German (the longest), for a whole
    co-op game with hints."""
    monkeypatch.chdir(tmp_path)
    rules = Rules.coop()
    kept = keeper.start("random", rules, seed=1)
    line = numbers(rules, kept.game.deck, winning_line("coop", 1))
    first, console = plain(keeper, kept, ["help", "rules", *line[:3], "quit"], lang, seed=1)
    assert first.run() == 0
    lines = [
        "",
        "zz",
        "JC",
        "99",
        "AS/w",
        *line[3:30],
        "hint",
        *line[30:50],
        "hint",
        *line[50:],
        "hint",
        "1",
        "undo",
        "save g.json",
        "save g.json",
        "no",
        "save file.txt/x.json",
        "quit",
    ]
    (tmp_path / "file.txt").write_text("")
    session, again = plain(keeper, None, lines, lang, new_game=refuse_new_game)
    assert session.run() == 0
    assert game_of(session).status == "won"
    written = console.written + again.written
    assert "term." not in "\n".join(written)
    assert sum(len(text.splitlines()) for text in written) > 800
    too_long = [text for text in written for row in text.splitlines() if len(row) > WIDTH]
    assert not too_long
    assert WIDTH == 79


# ---------------------------------------------------------------- in a real process


def play(*args: str, stdin: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "scoundrel", "play", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        cwd=cwd,
    )


def test_plain_game_in_a_real_process_then_load(tmp_path: Path) -> None:
    """The line game in a process of its own, in ASCII: moves, `save FILE`, and `--load`
    that continues the record (brought into the store)."""
    result = play(
        "--plain", "--seed", "44", "--ascii", stdin="1\nJC/w\nsave p.json\nquit\n", cwd=tmp_path
    )
    assert result.returncode == 0, result.stderr
    assert "Room: 10D JC 5S 7D" in result.stdout
    assert "Fight JC with 10D: -1, health 19" in result.stdout
    assert [m.token for m in Record.load(tmp_path / "p.json").moves] == ["10D", "JC/w"]
    assert sorted(path.name for path in tmp_path.iterdir()) == ["data", "p.json"]
    resumed = play("--plain", "--load", "p.json", stdin="quit\n", cwd=tmp_path)
    assert resumed.returncode == 0, resumed.stderr
    assert "You: 19 / 20 · weapon 10♦ [J♣]: Usable below 11" in resumed.stdout
    assert "Continue it?" not in resumed.stdout  # --load names its game
    assert resumed.stdout.rstrip().endswith("Goodbye.")


def test_the_database_can_be_named(tmp_path: Path, own_home: Path) -> None:
    """--db URL: the games are kept there, not in the data folder."""
    url = f"sqlite:///{tmp_path}/mine.db"
    first = play("--plain", "--db", url, "--seed", "5", stdin="1\nquit\n", cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    assert (tmp_path / "mine.db").exists()
    assert not (own_home / "scoundrel" / "scoundrel.sqlite3").exists()
    again = play("--plain", "--db", url, stdin="\nquit\n", cwd=tmp_path)
    assert "A game in play: Random dungeon · Solo, strict weapons · 1 move" in again.stdout


# ---------------------------------------------------------------------- issue 34


def test_an_unclear_answer_is_asked_again_then_the_game_goes_on(keeper: Keeper) -> None:
    """Issue 34, item 7: at "Continue it?" any answer but yes or no asked again forever,
    so ``yes 1 | scoundrel play --plain`` never started while a game was in play. It asks
    again, saying how to answer, then goes on with the game in play."""
    kept = keeper.start("random", Rules.solo(), seed=44)
    session, console = plain(keeper, None, ["1", "1", "1", "1", "quit"], new_game=refuse_new_game)
    assert session.run() == 0
    assert console.prompts[:3] == [
        "Continue it? (Enter or yes; no for a new game) ",
        "Please answer yes or no (Enter: continue it). ",
        "Please answer yes or no (Enter: continue it). ",
    ]
    assert "No clear answer: the game in play goes on." in console.text
    assert keeper.store.load(kept.id).moves == ("10D",)  # the fourth "1" was a move


def test_yes_and_no_are_understood_in_english_in_every_language(keeper: Keeper) -> None:
    keeper.start("random", Rules.solo(), seed=44)
    session, console = plain(
        keeper,
        None,
        ["n", "quit"],
        lang="ru",
        new_game=lambda: keeper.start("random", Rules.solo()),
    )
    assert session.run() == 0
    assert len(console.prompts) == 2  # the question once, then the new game's prompt
    assert len(keeper.history()) == 2


def test_each_move_says_what_it_did(keeper: Keeper) -> None:
    """Issue 34, item 6: the move log of the line game, one line after each move."""
    kept = keeper.start("random", Rules.solo(), seed=44)
    session, console = plain(keeper, kept, ["10D", "JC/w", "quit"])
    assert session.run() == 0
    assert "You take up 10♦" in console.written
    assert "You slay J♣ with 10♦: −1" in console.written


def test_save_makes_no_folder_the_player_named(
    keeper: Keeper, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 34, item 7: ``save /nonexistent/dir/x.json`` made the folders. Only the
    records folder of the data folder is made (for ``save`` without a name)."""
    monkeypatch.chdir(tmp_path)
    kept = keeper.start("random", Rules.solo(), seed=44)
    session, console = plain(keeper, kept, ["save no/such/x.json", "quit"])
    assert session.run() == 0
    assert "Could not save to no/such/x.json: No such file or directory" in console.flat
    assert not (tmp_path / "no").exists()


def test_reload_shows_the_game_as_it_stands(keeper: Keeper, tmp_path: Path) -> None:
    """Issue 34, item 2: the advice "reload it" named no command. ``reload`` shows the game
    as another window left it; a move typed for the old position is not played."""
    kept = keeper.start("random", Rules.solo(), seed=44)
    other = Keeper(f"sqlite:///{tmp_path}/s.db").resume(kept.id)

    class Elsewhere:
        """Another window plays after the first line has been read."""

        def __init__(self) -> None:
            self.lines = iter(["reload", "10D", "7D", "reload", "quit"])

        def read(self, prompt: str) -> str:
            line = next(self.lines)
            if line == "10D":
                other.play("10D")  # meanwhile, in another terminal
            return line

    console = Console([])
    session = PlainGame(keeper, Words("en"), kept, read=Elsewhere().read, write=console.write)
    assert session.run() == 0
    text = "\n".join(console.written)
    assert "The game is as shown here: no other window has moved." in text
    assert "The game moved on in another window: here it is as it stands now." in text
    assert keeper.store.load(kept.id).moves == ("10D", "7D")  # 10D once, then 7D
    assert "reload, r" in Words("en")("term.plain_help")


def test_a_game_from_a_file_says_so(keeper: Keeper) -> None:
    game = Game(Rules.solo(), seed=44)
    game.play("10D")
    kept = keeper.bring(game)
    session, console = plain(keeper, kept, ["quit"])
    assert session.run() == 0
    assert "Random dungeon (from a file)" in console.written


def test_a_daily_in_play_when_its_day_ends_is_closed(tmp_path: Path) -> None:
    """The terminal's day is the local date: an attempt at the day's dungeon still in play
    when that day ends is closed as it stood. The next line says so and plays nothing, the
    game is over from then on (a move is answered with what may be done), and the attempt
    is neither continued nor counted as a day played (the server's cases are in
    tests/web/test_midnight.py)."""
    days = [dt.date(2026, 11, 29)]
    keeper = Keeper(f"sqlite:///{tmp_path}/s.db", today=lambda: days[0])
    kept = keeper.start("daily", Rules.solo())

    def lines() -> Iterable[Line]:
        yield "1"
        days[0] = dt.date(2026, 11, 30)  # midnight
        yield "1"
        yield "1"

    session, console = plain(keeper, kept, lines())
    session.run()
    flat = console.flat
    assert flat.count("The day of this dungeon is over") == 1  # said once, when it happened
    assert "The day ended before the dungeon did." in flat
    assert flat.rstrip().endswith("new or quit. > Goodbye.")  # the last move: game over
    assert "The game is kept" not in flat
    stored = keeper.store.load(kept.id)
    assert (stored.status, len(stored.moves), stored.score) == ("closed", 1, None)
    assert keeper.unfinished() is None
    assert keeper.streak("solo")["played"] == 0
    assert keeper.start("daily", Rules.solo()).date == "2026-11-30"


@pytest.mark.parametrize("ruleset", ["solo", "coop"])
def test_a_frail_relentless_game_shows_its_own_health(keeper: Keeper, ruleset: str) -> None:
    """V1, V2: the title names both variants, every hero is shown out of 14 from the
    start to the end, and F is refused naming Relentless."""
    rules = Rules.parse(ruleset, ["flee=never", "health=14"])
    kept = keeper.start("random", rules, seed=3)
    session, console = plain(keeper, kept, ["F", *first_moves(kept), "quit"])
    assert session.run() == 0
    assert "Fleeing: never (Relentless), Health: 14 (Frail)" in console.flat
    assert "Not allowed: No room may be fled in this game (Relentless)." in console.flat
    hero = "Hero 1 (leads)" if rules.coop_game else "You"
    start = f"{hero}: 14 / 14 · No weapon: bare hands"
    assert start in console.written
    assert "/ 20" not in console.flat
    assert game_of(session).is_over


def test_a_win_announces_its_achievements_and_keeps_them(keeper: Keeper) -> None:
    """Issue 39: the achievements a game earns are decided by the store from its record
    and said once, after the move that ends it; the records keep them with their day."""
    from scoundrel.i18n import translate
    from scoundrel.store.achievements import decide

    rules = Rules.solo()
    kept = keeper.start("random", rules, seed=1)
    line = winning_line("solo", 1)
    session, console = plain(keeper, kept, [*numbers(rules, kept.game.deck, line), "quit"], seed=1)
    assert session.run() == 0
    expected = decide(Record(rules, kept.game.deck, line), fair=True, daily=False)
    assert {"first_win", "clean_win"} <= expected
    for code in expected:
        said = translate("en", "ach.toast", name=translate("en", f"ach.{code}"))
        assert console.text.count(said) == 1, said
    kept_now = keeper.achievements()
    assert {entry["code"] for entry in kept_now} == expected
    assert {entry["game_id"] for entry in kept_now} == {kept.id}


def test_a_hint_says_why_it_does_not_follow_the_highest_chance() -> None:
    """The terminal says what the browser's hint says under the chances: nothing won (the
    average score, or the quick judgement, decided), or something won but not clearly more
    than the judgement's choice (``judged`` with chances above zero); nothing when the
    hint follows the chances or a flee's own sentence says why."""
    from dataclasses import replace

    from scoundrel.solver import SearchBot, hint

    state = State.new(Rules.solo(), random_deal(Rules.solo(), 3))
    advice = hint(state.observation(1), bot=SearchBot(playouts=4))
    some = advice.chances
    none = tuple(replace(c, estimate=replace(c.estimate, wins=0)) for c in some)
    assert any(c.estimate.chance for c in some)
    w = Words("en")
    assert w.chances_note(replace(advice, chances=some, judged=False, reason="face")) is None
    close = w.chances_note(replace(advice, chances=some, judged=True, reason="face"))
    assert close is not None and close.startswith("No move won clearly more")
    judged = w.chances_note(replace(advice, chances=none, judged=True, reason="face"))
    assert judged is not None and "quick judgement" in judged
    scored = w.chances_note(replace(advice, chances=none, judged=False, reason="face"))
    assert scored is not None and "average score" in scored
    flee = replace(advice, chances=some, judged=True, reason="flee", flee_reason="close")
    assert w.chances_note(flee) is None
    assert "clearly more" in w("hint.flee_close")
    for lang in ("it", "ru", "de", "es", "fr"):
        said = Words(lang).chances_note(replace(advice, chances=some, judged=True, reason="face"))
        assert said is not None and said != close
