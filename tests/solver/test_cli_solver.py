"""The solve, analyse and bot commands (records N3, moves N2), run in process."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from solver_support import SOLO, play

from scoundrel.cli.main import main
from scoundrel.core import Game, Move, Record, Rules, State, Status, parse_moves, random_deal
from scoundrel.solver import Bot, SearchBot, play_games, solve

SOLVE_KEYS = {"winnable", "best_score", "line", "nodes", "seconds"}
ANALYSE_KEYS = {
    "winnable",
    "best_score",
    "best_line",
    "line_score",
    "score",
    "moves",
    "slip",
    "win_slip",
    "stopped_after",
    "nodes",
    "seconds",
    "review",
}
BOT_KEYS = {"games", "wins", "win_rate", "ci95", "mean_score", "seconds"}


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, object]:
    code = main(list(args))
    out, err = capsys.readouterr()
    assert code == 0, err
    data = json.loads(out)
    assert isinstance(data, dict)
    return data


def run_error(capsys: pytest.CaptureFixture[str], *args: str, status: int = 2) -> str:
    """Standard error of a refused command: exit 2 (bad input), or ``status`` (1: a
    record the rules do not allow)."""
    code = main(list(args))
    out, err = capsys.readouterr()
    assert code == status
    assert out == ""
    assert err.strip()
    return err


def write_record(path: Path, rules: Rules, seed: int, moves: str = "") -> Path:
    record = Record(rules, random_deal(rules, seed), parse_moves(moves))
    record.save(path)
    return path


def winning(seed: int) -> tuple[Move, ...]:
    return solve(State.new(SOLO, random_deal(SOLO, seed))).line


def seed3_line() -> tuple[Move, ...]:
    return winning(3)


# ---------------------------------------------------------------------- solve


def test_solve_seed_json_line_wins(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, "solve", "--seed", "3", "--json")
    assert data.keys() == SOLVE_KEYS
    assert data["winnable"] is True and data["best_score"] is None
    assert isinstance(data["line"], str)
    end = play(State.new(SOLO, random_deal(SOLO, 3)), parse_moves(data["line"]))
    assert end.status is Status.WON


def test_solve_coop_ruleset(capsys: pytest.CaptureFixture[str]) -> None:
    """--ruleset reaches the solver: co-op deal 5 is won (C9) with both heroes alive (C10)."""
    data = run_json(capsys, "solve", "--seed", "5", "--ruleset", "coop", "--json")
    rules = Rules.coop()
    end = play(State.new(rules, random_deal(rules, 5)), parse_moves(str(data["line"])))
    assert end.status is Status.WON and end.score is not None and end.score >= 2


def test_solve_record_continues_after_its_moves(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    line = seed3_line()
    done = " ".join(m.token for m in line[:7])
    path = write_record(tmp_path / "game.json", SOLO, 3, done)
    data = run_json(capsys, "solve", str(path), "--json")
    assert data["winnable"] is True
    state = Record.load(path).replay().state
    end = play(state, parse_moves(str(data["line"])))
    assert end.status is Status.WON
    # the line is the rest of the game, not a game from the deal's start
    with pytest.raises(Exception):  # noqa: B017 - any refusal will do
        play(State.new(SOLO, random_deal(SOLO, 3)), parse_moves(str(data["line"])))


def test_solve_record_best(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    line = seed3_line()
    path = write_record(tmp_path / "game.json", SOLO, 3, " ".join(m.token for m in line[:20]))
    data = run_json(capsys, "solve", str(path), "--best", "--json")
    state = Record.load(path).replay().state
    end = play(state, parse_moves(str(data["line"])))
    assert end.score == data["best_score"]


def test_solve_text_output(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "solo seed 3" in out and "Winnable: yes." in out
    assert "winning line" in out


def test_solve_finished_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    line = seed3_line()
    path = write_record(tmp_path / "won.json", SOLO, 3, " ".join(m.token for m in line))
    assert main(["solve", str(path)]) == 0
    out = capsys.readouterr().out
    assert "The game is over: won" in out
    data = run_json(capsys, "solve", str(path), "--json")
    assert data["winnable"] is True and data["line"] == ""


def test_solve_needs_a_source(capsys: pytest.CaptureFixture[str]) -> None:
    err = run_error(capsys, "solve")
    assert "give a record, --seed N or --daily" in err


def test_solve_record_and_seed_exclusive(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write_record(tmp_path / "game.json", SOLO, 3)
    err = run_error(capsys, "solve", str(path), "--seed", "3")
    assert "not both" in err
    err = run_error(capsys, "solve", str(path), "--ruleset", "coop")
    assert "record names its own rules" in err


def test_solve_bad_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write_record(tmp_path / "game.json", SOLO, 3)
    data = json.loads(path.read_text())
    data["moves"] = "KS/w"  # not in the first room: the replay stops (N4)
    path.write_text(json.dumps(data))
    err = run_error(capsys, "solve", str(path), status=1)  # as replay and analyse say it
    assert "move 1 (KS/w)" in err
    err = run_error(capsys, "solve", str(tmp_path / "missing.json"))
    assert "missing.json" in err


def test_solve_bad_option(capsys: pytest.CaptureFixture[str]) -> None:
    err = run_error(capsys, "solve", "--seed", "3", "-o", "weapon=blunt")
    assert "weapon" in err


# ---------------------------------------------------------------------- analyse


def test_analyse_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    line = winning(24)
    path = write_record(tmp_path / "game.json", SOLO, 24, " ".join(m.token for m in line[:12]))
    data = run_json(capsys, "analyse", str(path), "--json")
    assert data.keys() == ANALYSE_KEYS
    assert data["moves"] == 12 and data["score"] is None
    assert data["winnable"] is True and isinstance(data["best_score"], int)
    start = State.new(SOLO, random_deal(SOLO, 24))
    end = play(start, parse_moves(str(data["best_line"])))
    assert end.score == data["best_score"]


def judged_game(path: Path) -> tuple[Game, Path]:
    """Solo deal 24 played by the fast judgement alone (no solving at the end), which
    loses it; its record saved at ``path``."""
    game = Game(SOLO, random_deal(SOLO, 24))
    bot = Bot(solve=False)
    while not game.is_over:
        game.play(bot.choose(game.observation()))
    game.record.save(path)
    return game, path


def test_analyse_reports_a_slip(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A game played by the fast judgement alone (no solving at the end) on solo deal 24
    loses, and slips on the way: the JSON names the move, its token and the best before
    and after."""
    game, path = judged_game(tmp_path / "bot.json")
    data = run_json(capsys, "analyze", str(path), "--json")
    slip = data["slip"]
    assert isinstance(slip, dict)
    assert slip.keys() == {"move", "played", "better", "best_before", "best_after", "better_line"}
    number = slip["move"]
    assert isinstance(number, int)
    assert slip["played"] == game.moves[number - 1].token
    assert slip["best_before"] == data["best_score"] == 30
    assert isinstance(slip["best_after"], int) and slip["best_after"] < 30
    assert game.status is Status.LOST and data["score"] == game.score
    assert data["score"] == game.score


def test_analyse_text(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    line = winning(24)
    path = write_record(tmp_path / "game.json", SOLO, 24, " ".join(m.token for m in line[:6]))
    assert main(["analyse", str(path)]) == 0
    out = capsys.readouterr().out
    assert "The deal could be won" in out
    assert "still on after 6 moves" in out
    assert "kept the best score within reach" in out


def test_analyse_text_of_a_lost_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The fast judgement alone loses solo deal 24, which could be won: the text names the
    move after which no line could win, and a better one."""
    game, path = judged_game(tmp_path / "lost.json")
    assert main(["analyse", str(path), "--no-review"]) == 0
    out = capsys.readouterr().out
    found = re.search(r"The chance to win was lost at move (\d+), (\S+): after it no line", out)
    assert found, out
    number, token = int(found.group(1)), found.group(2)
    assert game.moves[number - 1].token == token
    assert "Better was " in out
    data = run_json(capsys, "analyse", str(path), "--json", "--no-review")
    lost = data["win_slip"]
    assert isinstance(lost, dict) and lost["move"] == number and lost["best_after"] is None


def test_analyse_within_no_time(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--best-seconds bounds the searches after the first: with a budget of a millionth of a
    second they stop, and the analysis says so and still gives a winning line."""
    line = winning(24)
    path = write_record(tmp_path / "game.json", SOLO, 24, " ".join(m.token for m in line[:6]))
    assert main(["analyse", str(path), "--no-review", "--best-seconds", "0.000001"]) == 0
    out = capsys.readouterr().out
    assert "The deal could be won: a winning line scores " in out
    assert "the best score and where the game slipped was stopped after 0 s" in out
    assert "(--best-seconds gives it more time)" in out
    assert "kept the best score" not in out
    data = run_json(capsys, "analyse", str(path), "--json", "--best-seconds", "0.000001")
    assert data["best_score"] is None and isinstance(data["stopped_after"], float)
    err = run_error(capsys, "analyse", str(path), "--best-seconds", "-1")
    assert "--best-seconds must be 0 (no limit) or more" in err


@pytest.mark.parametrize("content", ["not json", '{"format": "scoundrel-record/1"}', None])
def test_analyse_bad_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str | None
) -> None:
    path = tmp_path / "bad.json"
    if content is not None:
        path.write_text(content)
    err = run_error(capsys, "analyse", str(path))
    assert "bad.json" in err


# ---------------------------------------------------------------------- bot


def test_bot_json(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, "bot", "--games", "20", "--json")
    assert data.keys() == BOT_KEYS
    assert data["games"] == 20
    wins = data["wins"]
    assert isinstance(wins, int) and 0 <= wins <= 20
    assert data["win_rate"] == pytest.approx(wins / 20)
    low, high = data["ci95"]  # type: ignore[misc]
    assert low <= data["win_rate"] <= high
    same = play_games(SOLO, 20, 0)
    assert (wins, data["mean_score"]) == (same.wins, round(same.mean_score, 3))


def test_bot_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bot", "--games", "3", "--seed", "5"]) == 0
    out = capsys.readouterr().out
    assert "in 3 games" in out and "seeds 5–7" in out


def test_bot_levels(capsys: pytest.CaptureFixture[str]) -> None:
    """``--level search`` plays the searching bot (the same games in one process or two),
    ``--level random`` the uniformly random baseline, which loses these deals."""
    one = run_json(capsys, "bot", "--level", "search", "--games", "2", "--seed", "40", "--json")
    two = run_json(
        capsys, "bot", "--level", "search", "--games", "2", "--seed", "40", "--jobs", "2", "--json"
    )
    assert (one["wins"], one["mean_score"]) == (two["wins"], two["mean_score"])
    same = play_games(SOLO, 2, 40, bot=SearchBot())
    assert (one["wins"], one["mean_score"]) == (same.wins, round(same.mean_score, 3))
    random_play = run_json(capsys, "bot", "--level", "random", "--games", "50", "--json")
    assert random_play["wins"] == 0 and random_play["mean_score"] < -100  # type: ignore[operator]
    assert main(["bot", "--level", "search", "--games", "1", "--seed", "3"]) == 0
    assert "search bot:" in capsys.readouterr().out
    with pytest.raises(SystemExit) as exit_info:
        main(["bot", "--level", "clever"])
    assert exit_info.value.code == 2
    assert "invalid choice: 'clever'" in capsys.readouterr().err


def test_the_searching_bot_plays_32_playouts_in_every_ruleset() -> None:
    """``bot --level search`` (and the arena's ``search``) is the searching bot the
    documentation measures: 32 playouts in solo and in co-op (co-op hints and reviews use
    fewer, to answer quickly)."""
    from scoundrel.cli.main import _player
    from scoundrel.solver.searcher import PLAYOUTS, advice_playouts

    coop = _player("search", Rules.coop())
    assert isinstance(coop, SearchBot) and coop.playouts == PLAYOUTS == 32
    assert advice_playouts(Rules.coop()) < PLAYOUTS
    solo = _player("search", SOLO)
    assert isinstance(solo, SearchBot) and solo.playouts == PLAYOUTS


@pytest.mark.parametrize("args", [["--games", "0"], ["--games", "-3"], ["--jobs", "0"]])
def test_bot_bad_counts(capsys: pytest.CaptureFixture[str], args: list[str]) -> None:
    err = run_error(capsys, "bot", *args)
    assert "at least 1" in err
