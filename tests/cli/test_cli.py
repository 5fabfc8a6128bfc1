"""The ``scoundrel`` command: deal, replay (N4), bench, and bad input."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from scoundrel import Game, Record, Rules, random_deal
from scoundrel.cli.main import main


def run(*args: str, stdin: str = "", cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "scoundrel", *args],
        input=stdin,
        capture_output=True,
        text=True,
        check=False,
        cwd=cwd,
        timeout=120,
    )


def test_deal_seed_writes_a_record_with_no_moves() -> None:
    result = run("deal", "--seed", "44")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["format"] == "scoundrel-record/1"
    assert data["ruleset"] == "solo"
    assert data["options"] == {"weapon": "strict", "death_score": "standard"}
    assert data["moves"] == ""
    assert data["deck"].split()[:4] == ["10D", "JC", "5S", "7D"]
    assert Record.from_dict(data).deck == random_deal(Rules.solo(), 44)
    assert run("deal", "--seed", "44").stdout == result.stdout


def test_deal_daily_coop_with_options() -> None:
    result = run("deal", "--daily", "2026-11-29", "--ruleset", "coop", "-o", "easier=true")
    assert result.returncode == 0, result.stderr
    record = Record.from_json(result.stdout)
    assert record.rules == Rules.coop(easier=True)
    assert len(record.deck) == 50
    again = run("deal", "--daily", "2026-11-29", "--ruleset", "coop", "-o", "easier=yes")
    assert again.stdout == result.stdout
    other = run("deal", "--daily", "2026-11-30", "--ruleset", "coop", "-o", "easier=true")
    assert other.stdout != result.stdout


def test_deal_daily_secret_changes_the_deal() -> None:
    plain = run("deal", "--daily", "2026-11-29")
    secret = run("deal", "--daily", "2026-11-29", "--secret", "s3cret")
    assert plain.returncode == secret.returncode == 0
    assert json.loads(plain.stdout)["deck"] != json.loads(secret.stdout)["deck"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["deal", "-o", "weapon=sharp"], "weapon must be strict or lenient, not 'sharp'"),
        (["deal", "-o", "easier=true"], "unknown solo option 'easier'"),
        (["deal", "--ruleset", "coop", "-o", "first_leader=3"], "first_leader must be 1 or 2"),
        (["deal", "-o", "weapon"], "must be written key=value"),
        (["deal", "--daily", "2026-02-30"], "is not a date"),
        (["bench", "--games", "0"], "--games must be at least 1"),
    ],
)
def test_bad_options_exit_2_with_a_message(args: list[str], message: str) -> None:
    result = run(*args)
    assert result.returncode == 2
    assert message in result.stderr
    assert result.stdout == ""


def _played_record(tmp_path: Path, moves: str, seed: int = 44) -> Path:
    """A record file whose moves are written exactly as given, legal or not."""
    data = {
        "format": "scoundrel-record/1",
        "ruleset": "solo",
        "deck": " ".join(card.code for card in random_deal(Rules.solo(), seed)),
        "moves": moves,
    }
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data))
    return path


def test_replay_json_is_the_n4_summary(tmp_path: Path) -> None:
    path = _played_record(tmp_path, "10D JC/w 5S/w")
    result = run("replay", str(path), "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == {
        "status": "playing",
        "score": None,
        "moves_applied": 3,
        "heroes": [{"health": 19, "weapon": "10D", "last_kill": 5}],
        "leader": 1,
        "dungeon": 37,
        "room": ["7D", "10H", "8S", "4D"],
    }
    assert result.stdout.count("\n") == 1


def test_replay_text_draws_the_position(tmp_path: Path) -> None:
    path = _played_record(tmp_path, "10D JC/w 5S/w")
    result = run("replay", str(path))
    assert result.returncode == 0, result.stderr
    assert "3 moves replayed" in result.stdout
    assert "health 19/20" in result.stdout
    assert "Room: 7♦ 10♥ 8♠ 4♦" in result.stdout
    assert "8S/b" in result.stdout
    ascii_result = run("replay", str(path), "--ascii")
    assert "Room: 7D 10H 8S 4D" in ascii_result.stdout


def test_replay_of_a_finished_game_prints_the_score(tmp_path: Path) -> None:
    game = Game(Rules.solo(), random_deal(Rules.solo(), 44))
    while not game.is_over:
        game.play(game.legal_moves[-1])
    path = tmp_path / "done.json"
    game.record.save(path)
    summary = json.loads(run("replay", str(path), "--json").stdout)
    assert summary["status"] == game.status.value
    assert summary["score"] == game.score
    text = run("replay", str(path)).stdout
    assert f"score: {game.score}" in text


def test_replay_illegal_move_names_position_token_and_reason(tmp_path: Path) -> None:
    """N4: non-zero exit, message on standard error, nothing on standard output."""
    path = _played_record(tmp_path, "10D JC/w 5S/w 8S/w")
    result = run("replay", str(path), "--json")
    assert result.returncode == 1
    assert result.stdout == ""
    assert "move 4 (8S/w)" in result.stderr
    assert "weaker than 5" in result.stderr


def test_replay_bad_token_names_its_position(tmp_path: Path) -> None:
    path = _played_record(tmp_path, "10D JC/x")
    result = run("replay", str(path), "--json")
    assert result.returncode == 1
    assert result.stdout == ""
    assert "move 2 (JC/x)" in result.stderr


def test_replay_flee_twice_is_refused_with_its_rule(tmp_path: Path) -> None:
    path = _played_record(tmp_path, "F F")
    result = run("replay", str(path), "--json")
    assert result.returncode == 1
    assert "move 2 (F)" in result.stderr and "S5" in result.stderr


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("not json", "not valid JSON"),
        ('{"format": "other"}', "format must be 'scoundrel-record/1'"),
        ('{"format": "scoundrel-record/1", "ruleset": "chess"}', "unknown ruleset"),
        (
            '{"format": "scoundrel-record/1", "ruleset": "solo", "deck": "KS KS"}',
            "KS appears twice",
        ),
    ],
)
def test_replay_bad_files_exit_2(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content)
    result = run("replay", str(path), "--json")
    assert result.returncode == 2
    assert message in result.stderr
    assert result.stdout == ""


def test_replay_missing_file(tmp_path: Path) -> None:
    result = run("replay", str(tmp_path / "nope.json"))
    assert result.returncode == 2
    assert "cannot read" in result.stderr


def test_bench_json_has_the_promised_fields() -> None:
    result = run("bench", "--games", "200", "--seed", "3", "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert set(data) == {"games", "moves", "seconds", "games_per_s", "moves_per_s"}
    assert data["games"] == 200
    assert data["moves"] > 200
    again = json.loads(run("bench", "--games", "200", "--seed", "3", "--json").stdout)
    assert again["moves"] == data["moves"]  # fixed seeds: the same games


def test_bench_text_and_coop() -> None:
    assert main(["bench", "--games", "50", "--ruleset", "coop", "-o", "harder=true"]) == 0


def test_no_command_prints_help(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 0
    assert "play" in capsys.readouterr().out


# ---------------------------------------------------------------- no traceback, ever (issue 12)


@pytest.mark.parametrize(
    "command",
    [["replay"], ["analyse"], ["solve"], ["play", "--load"]],
    ids=["replay", "analyse", "solve", "play"],
)
def test_an_illegal_record_exits_1_in_every_command(tmp_path: Path, command: list[str]) -> None:
    path = _played_record(tmp_path, "F F")
    result = run(*command, str(path), stdin="")
    assert result.returncode == 1, result.stderr
    assert "move 2 (F) is not legal" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize(
    "command",
    [["replay"], ["analyse"], ["solve"], ["play", "--load"]],
    ids=["replay", "analyse", "solve", "play"],
)
def test_json_nested_too_deep_is_a_bad_file(tmp_path: Path, command: list[str]) -> None:
    path = tmp_path / "deep.json"
    path.write_text("[" * 200_000 + "]" * 200_000)
    result = run(*command, str(path), stdin="")
    assert result.returncode == 2, result.stderr
    assert "nested far too deeply" in result.stderr
    assert "Traceback" not in result.stderr


def test_play_load_refuses_the_flags_it_would_ignore(tmp_path: Path) -> None:
    path = _played_record(tmp_path, "")
    result = run("play", "--load", str(path), "--seed", "5", "--ruleset", "coop")
    assert result.returncode == 2
    assert "drop --seed, --ruleset" in result.stderr
    assert result.stdout == ""


def test_a_terminal_that_cannot_show_the_suits_gets_ascii(tmp_path: Path) -> None:
    """PYTHONIOENCODING=ascii: cards as with --ascii, arrows and dashes in ASCII, exit 0."""
    path = _played_record(tmp_path, "", seed=1)
    env = {**os.environ, "PYTHONIOENCODING": "ascii"}
    for args in (["replay", str(path)], ["bot", "--games", "2"], ["solve", str(path)]):
        result = subprocess.run(
            [sys.executable, "-m", "scoundrel", *args],
            capture_output=True,
            check=False,
            env=env,
            timeout=120,
        )
        assert result.returncode == 0, result.stderr
        assert b"Traceback" not in result.stderr
        result.stdout.decode("ascii")  # nothing but ASCII was written
    replay = subprocess.run(
        [sys.executable, "-m", "scoundrel", "replay", str(path)],
        capture_output=True, text=True, env=env, check=False, timeout=120,
    )  # fmt: skip
    assert "Room: 10S 9H QS 2S" in replay.stdout


def test_bot_jobs_are_capped_at_the_cores() -> None:
    result = run("bot", "--games", "4", "--jobs", "100000", "--json")
    assert result.returncode == 0, result.stderr
    assert f"using {os.cpu_count()}" in result.stderr
    assert json.loads(result.stdout)["games"] == 4


@pytest.mark.parametrize(
    "args",
    [["bench", "--games", "100000000"], ["bot", "--games", "1000000", "--jobs", "2"]],
    ids=["bench", "bot"],
)
def test_ctrl_c_stops_a_long_command_at_once(args: list[str]) -> None:
    """Ctrl+C (SIGINT to the terminal's whole process group) ends the command within a
    second or two, with exit status 130 and no traceback."""
    process = subprocess.Popen(
        [sys.executable, "-m", "scoundrel", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,  # its own process group, as a terminal gives it
    )
    time.sleep(2.5)  # started, and playing
    os.killpg(process.pid, signal.SIGINT)
    try:
        _, err = process.communicate(timeout=10)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        raise AssertionError("still running 10 s after Ctrl+C") from None
    assert process.returncode == 130, err
    assert b"Traceback" not in err


def test_play_says_which_dungeon_it_is() -> None:
    """Issue 12: the daily game is dated (the same deal as `deal --daily`); a seeded one
    names its seed."""
    daily = run("play", "--daily", "2026-12-24", stdin="quit\n")
    assert "The dungeon of the day, 2026-12-24" in daily.stdout
    deal = Record.from_json(run("deal", "--daily", "2026-12-24").stdout)
    first_room = " ".join(card.code for card in deal.deck[:4])
    assert (
        f"Room: {first_room}" in run("play", "--daily", "2026-12-24", "--ascii", stdin="q\n").stdout
    )
    assert "seed 5" in run("play", "--seed", "5", stdin="q\n").stdout


def test_the_line_game_counts_in_english() -> None:
    """Issue 12: "1 monster", "Dungeon: 1 card", and a score line of 0 without a sign."""
    from scoundrel.cli.render import counted, score_text
    from scoundrel.core.state import Score

    assert (counted(1, "monster"), counted(2, "card"), counted(0, "potion")) == (
        "1 monster",
        "2 cards",
        "0 potions",
    )
    text = score_text(Score(-5, (("health", -5), ("monsters_in_room", 0))))
    assert ": -5" in text and ": 0" in text and "+0" not in text
