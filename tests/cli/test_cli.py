"""The ``scoundrel`` command: deal, replay (N4), bench, and bad input."""

from __future__ import annotations

import datetime as dt
import json
import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from scoundrel import Game, Record, Rules, random_deal
from scoundrel.cli.main import main


def run(*args: str, stdin: str = "", cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """``python -m scoundrel ARGS`` (its data folder is the test's: see conftest.py)."""
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


def test_a_variant_deal_replays_with_its_variants(tmp_path: Path) -> None:
    """V1, V2 on the command line: the record names both; a flee in it is refused by V1,
    and the replay's heroes start on 14."""
    result = run("deal", "--seed", "3", "-o", "flee=never", "-o", "health=14")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["options"] == {
        "weapon": "strict", "death_score": "standard", "flee": "never", "health": 14,
    }  # fmt: skip
    path = tmp_path / "frail.json"
    path.write_text(json.dumps(data))
    replayed = run("replay", str(path), "--json")
    assert replayed.returncode == 0, replayed.stderr
    assert json.loads(replayed.stdout)["heroes"][0]["health"] == 14
    path.write_text(json.dumps({**data, "moves": "F"}))
    refused = run("replay", str(path), "--json")
    assert refused.returncode != 0 and "V1" in refused.stderr


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
        (["deal", "-o", "health=25"], "health must be a whole number from 1 to 20, not 25"),
        (["deal", "-o", "flee=rarely"], "flee must be allowed or never, not 'rarely'"),
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


def _interrupt_default() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.parametrize(
    "args",
    [
        ["bench", "--games", "100000000"],
        ["bot", "--games", "1000000", "--jobs", "2"],
        ["arena", "fast", "random", "--games", "1000000", "--jobs", "2"],
        ["arena", "fast", "--games", "1000000"],
    ],
    ids=["bench", "bot", "arena", "arena-one-process"],
)
def test_ctrl_c_stops_a_long_command_at_once(args: list[str]) -> None:
    """Ctrl+C (SIGINT to the terminal's whole process group) ends the command within a
    second or two, with exit status 130 and no traceback."""
    process = subprocess.Popen(
        [sys.executable, "-m", "scoundrel", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,  # its own process group, as a terminal gives it
        # and Ctrl+C not ignored, as in a terminal's foreground job (a shell without job
        # control starts background commands ignoring it, and the children inherit that)
        preexec_fn=_interrupt_default,
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


# ---------------------------------------------------------------- play (issue 12)


def _days() -> tuple[str, str, str]:
    today = dt.date.today()
    day = dt.timedelta(days=1)
    return (today - day).isoformat(), today.isoformat(), (today + day).isoformat()


def _first_room(daily: str) -> str:
    """The first room of `deal --daily`'s deal, as `play --ascii` shows it."""
    deal = Record.from_json(run("deal", "--daily", daily).stdout)
    return "Room: " + " ".join(card.code for card in deal.deck[:4])


def test_play_daily_is_the_deal_of_deal_daily(tmp_path: Path) -> None:
    """Issue 12: the dungeon of the day is dated and is the deal `scoundrel deal --daily`
    prints (M2, the public deal); a past day is played from the archive, unranked."""
    yesterday, today, _ = _days()
    past = run("play", "--daily", yesterday, "--ascii", stdin="quit\n", cwd=tmp_path)
    assert past.returncode == 0, past.stderr
    assert f"Dungeon of {yesterday}, from the archive (unranked)" in past.stdout
    assert _first_room(yesterday) in past.stdout.splitlines()
    daily = run("play", "--daily", today, "--ascii", stdin="quit\n", cwd=tmp_path)
    assert daily.returncode == 0, daily.stderr
    assert f"The dungeon of the day, {today}: every player of that day gets" in daily.stdout
    assert _first_room(today) in daily.stdout.splitlines()
    assert "Traceback" not in past.stderr + daily.stderr
    assert list(tmp_path.iterdir()) == [tmp_path / "data"]  # nothing in the current folder


def test_play_daily_refuses_a_day_to_come(tmp_path: Path, own_home: Path) -> None:
    """Issue 12: a day to come would show its cards before the day: exit 2, nothing kept."""
    _, _, tomorrow = _days()
    result = run("play", "--plain", "--daily", tomorrow, stdin="quit\n", cwd=tmp_path)
    assert result.returncode == 2
    assert f"--daily {tomorrow}: that day has not come yet" in result.stderr
    assert result.stdout == "" and "Traceback" not in result.stderr
    assert not (own_home / "scoundrel" / "scoundrel.sqlite3").exists()


def test_play_names_the_seed_and_keeps_the_game_for_the_next_start(tmp_path: Path) -> None:
    """Issue 12: a seeded dungeon names its seed; the game is kept in the store (in the
    data folder) as it is played, and the next `play --plain` offers it and, on Enter,
    continues it from the same position."""
    first = run("play", "--plain", "--seed", "5", stdin="1\nquit\n", cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    assert "A random dungeon, seed 5 (the same seed deals it again)." in first.stdout
    assert "The game is kept: run scoundrel play again to go on with it." in first.stdout
    rooms = [line for line in first.stdout.splitlines() if line.startswith("Room: ")]
    again = run("play", "--plain", stdin="\nquit\n", cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    assert "A game in play: Random dungeon · Solo, strict weapons · 1 move" in again.stdout
    assert "Continue it? (Enter or yes; no for a new game)" in again.stdout
    assert [line for line in again.stdout.splitlines() if line.startswith("Room: ")] == [rooms[-1]]
    assert list(tmp_path.iterdir()) == [tmp_path / "data"]


def test_play_speaks_the_language_asked_for(tmp_path: Path) -> None:
    """Issue 12: `--lang ru` (with input that is not a terminal: the line game, without
    --plain) plays in Russian; without --lang the locale decides (LANG=ru_RU)."""
    result = run("play", "--lang", "ru", "--seed", "3", stdin="quit\n", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "Подземелье" in result.stdout and "Комната: " in result.stdout
    assert "Your moves" not in result.stdout and "Room:" not in result.stdout
    by_locale = subprocess.run(
        [sys.executable, "-m", "scoundrel", "play", "--plain", "--seed", "3"],
        input="quit\n",
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
        cwd=tmp_path,
        env={**os.environ, "LANG": "ru_RU.UTF-8"},
    )
    assert by_locale.returncode == 0, by_locale.stderr
    assert "Подземелье" in by_locale.stdout


def _until_prompt(process: subprocess.Popen[bytes], prompt: bytes = b"> ") -> str:
    """What the game printed up to its next prompt (the prompt ends its output)."""
    assert process.stdout is not None
    seen = b""
    deadline = time.monotonic() + 60
    while not seen.endswith(prompt):
        left = deadline - time.monotonic()
        ready, _, _ = select.select([process.stdout], [], [], max(left, 0))
        if not ready:
            raise AssertionError(f"no prompt within 60 s: {seen[-300:]!r}")
        chunk = os.read(process.stdout.fileno(), 65536)
        if not chunk:
            raise AssertionError(f"the game ended before its prompt: {seen[-300:]!r}")
        seen += chunk
    return seen.decode()


def _line_game(folder: Path) -> subprocess.Popen[bytes]:
    """``play --plain --seed 5`` in a process of its own, its input and output piped."""
    return subprocess.Popen(
        [sys.executable, "-m", "scoundrel", "play", "--plain", "--seed", "5"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=folder,
    )


@pytest.mark.parametrize("name", ["SIGTERM", "SIGHUP"])
def test_a_signal_ends_the_line_game_and_keeps_the_game(tmp_path: Path, name: str) -> None:
    """Issue 12: `kill` (SIGTERM) or a closed terminal (SIGHUP) at the prompt ended the
    game with a traceback, or not at all. Now the game leaves as on Ctrl+C (exit 130,
    within seconds, no traceback) and the next start offers the game, its move kept."""
    process = _line_game(tmp_path)
    assert process.stdin is not None
    try:
        _until_prompt(process)
        process.stdin.write(b"1\n")
        process.stdin.flush()
        _until_prompt(process)  # the signal comes at once: the handler leaves from anywhere
        process.send_signal(getattr(signal, name))
        try:
            process.wait(timeout=10)  # stdin still open: only the signal can end it
        except subprocess.TimeoutExpired:
            raise AssertionError(f"still running 10 s after {name}") from None
        out, err = process.communicate(timeout=10)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    assert b"Traceback" not in err, err.decode()
    assert process.returncode == 130, err.decode()
    assert out.decode().rstrip().endswith("go on with it.")  # the game is kept
    again = run("play", "--plain", stdin="\nquit\n", cwd=tmp_path)
    assert "A game in play: Random dungeon · Solo, strict weapons · 1 move" in again.stdout


def test_sigterm_at_the_replace_question_ends_the_game_too(tmp_path: Path) -> None:
    """Ctrl+C at "Replace it?" only declines the replacement; `kill` (SIGTERM) must still
    end the game."""
    (tmp_path / "f.json").write_text("mine\n")
    process = _line_game(tmp_path)
    assert process.stdin is not None
    try:
        _until_prompt(process)
        process.stdin.write(b"save f.json\n")
        process.stdin.flush()
        _until_prompt(process, b"(yes/no) ")
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=5)
    except subprocess.TimeoutExpired:
        raise AssertionError("still running 5 s after SIGTERM") from None
    finally:
        if process.poll() is None:
            process.kill()
        process.communicate()
    assert (tmp_path / "f.json").read_text() == "mine\n"


def test_the_line_game_counts_in_english() -> None:
    """Issue 12: "1 monster", "Dungeon: 1 card", and a score line of 0 without a sign."""
    from scoundrel.cli.render import counted, score_text
    from scoundrel.core import Score

    assert (counted(1, "monster"), counted(2, "card"), counted(0, "potion")) == (
        "1 monster",
        "2 cards",
        "0 potions",
    )
    text = score_text(Score(-5, (("health", -5), ("monsters_in_room", 0))))
    assert ": -5" in text and ": 0" in text and "+0" not in text
