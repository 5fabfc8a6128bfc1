"""The arena's log (issue 40): a run that stops (Ctrl+C, a crash) goes on where it stopped,
plays each deal once, and ends with the figures of a run that never stopped."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest
from arena_support import COMMAND, ENV, run

from scoundrel.arena import HELD_OUT, Log, LogError, Standing, arena
from scoundrel.core import Rules

SOLO = Rules.solo()


def figures(standings: list[Standing]) -> list[Any]:
    """What a run found, without its timings."""
    return [
        (
            s.policy,
            s.certificate.dealt.won,
            s.certificate.dealt.scores,
            s.certificate.reshuffled.won,
            s.certificate.reshuffled.scores,
            s.to_dict()["certificate"],
        )
        for s in standings
    ]


def seeds_of(path: Path) -> list[tuple[str, bool, int, int]]:
    """(policy, reshuffled, first seed, deals) of every line of a log."""
    lines = [line for line in path.read_text().splitlines() if line]
    return [(json.loads(line)["policy"], *seeds_of_text(line)) for line in lines]


def test_a_run_goes_on_from_its_log_and_plays_each_deal_once(tmp_path: Path) -> None:
    path = tmp_path / "arena.jsonl"
    arena(["fast", "random"], SOLO, games=12, log=Log(path))
    first = seeds_of(path)
    assert {(policy, reshuffled) for policy, reshuffled, _, _ in first} == {
        (policy, reshuffled) for policy in ("fast", "random") for reshuffled in (False, True)
    }
    assert sum(count for *_, count in first) == 12 * 4
    went_on = arena(["fast", "random"], SOLO, games=30, log=Log(path))
    added = seeds_of(path)[len(first) :]
    assert all(seed >= HELD_OUT + 12 for _, _, seed, _ in added)
    assert sum(count for *_, count in added) == 18 * 4
    assert figures(went_on) == figures(arena(["fast", "random"], SOLO, games=30))
    size = path.stat().st_size
    again = arena(["fast", "random"], SOLO, games=30, log=Log(path))
    assert path.stat().st_size == size, "a whole log plays nothing"
    assert figures(again) == figures(went_on)
    # a narrower run is read out of the same log
    narrow = arena(["random"], SOLO, games=5, seed=HELD_OUT + 20, log=Log(path))
    assert path.stat().st_size == size
    assert figures(narrow) == figures(arena(["random"], SOLO, games=5, seed=HELD_OUT + 20))


def test_a_line_cut_short_by_a_crash_is_played_again(tmp_path: Path) -> None:
    """The chunk being written when the run stopped is played again and its cut line
    dropped, so the log survives crash after crash: every run reads it, and a run after
    the whole is played plays nothing."""
    path = tmp_path / "arena.jsonl"
    arena(["fast"], SOLO, games=16, jobs=2, log=Log(path))
    for crash in range(2):
        *whole, last = path.read_text().splitlines()
        lost = seeds_of_text(last)
        path.write_text("".join(line + "\n" for line in whole) + last[:40])
        kept = Log(path).games("fast", SOLO, lost[0])
        assert kept.keys().isdisjoint(range(lost[1], lost[1] + lost[2])), "a cut line holds none"
        ended = arena(["fast"], SOLO, games=16, log=Log(path))
        assert figures(ended) == figures(arena(["fast"], SOLO, games=16)), crash
        lines = path.read_text().splitlines()
        assert lines[: len(whole)] == whole, "the whole lines stay as they were"
        again = [seeds_of_text(line) for line in lines[len(whole) :]]  # the cut line is gone
        assert deals(again) == deals([lost]), "the cut chunk's deals are played again, once"
    played: list[int] = []
    before = path.read_bytes()
    arena(["fast"], SOLO, games=16, log=Log(path), progress=played.append)
    assert played == [32] and path.read_bytes() == before  # nothing left to play


def test_a_log_read_without_playing_is_left_as_it_is(tmp_path: Path) -> None:
    """Reading a log whose last line was cut short changes nothing in it: only a chunk
    written after it cuts the line off."""
    path = tmp_path / "arena.jsonl"
    arena(["random"], SOLO, games=8, log=Log(path))
    text = path.read_text()
    path.write_text(text[:-30])
    (standing,) = arena(["random"], SOLO, games=4, log=Log(path))
    assert path.read_text() == text[:-30]
    assert figures([standing]) == figures(arena(["random"], SOLO, games=4))


def test_a_whole_last_chunk_without_its_newline_is_kept(tmp_path: Path) -> None:
    path = tmp_path / "arena.jsonl"
    arena(["random"], SOLO, games=8, log=Log(path))
    text = path.read_text()
    path.write_text(text[:-1])
    played: list[int] = []
    ended = arena(["random"], SOLO, games=12, log=Log(path), progress=played.append)
    assert played[0] == 16, "the last chunk's games are read, not played again"
    assert path.read_text().startswith(text)
    assert figures(ended) == figures(arena(["random"], SOLO, games=12))
    assert Log(path).games("random", SOLO, True).keys() == set(range(HELD_OUT, HELD_OUT + 12))


def deals(chunks: list[tuple[bool, int, int]]) -> list[tuple[bool, int]]:
    return sorted((r, seed + i) for r, seed, count in chunks for i in range(count))


def seeds_of_text(line: str) -> tuple[bool, int, int]:
    entry = json.loads(line)
    return entry["reshuffled"], entry["seed"], len(entry["won"])


@pytest.mark.parametrize("line", ["not json", "[1, 2]", '{"policy": "fast"}'])
def test_a_line_that_is_not_a_chunk_is_named(tmp_path: Path, line: str) -> None:
    path = tmp_path / "arena.jsonl"
    arena(["random"], SOLO, games=2, log=Log(path))
    path.write_text(line + "\n" + path.read_text())
    with pytest.raises(LogError, match=re.escape(f"line 1 of the arena log {path} is not an")):
        Log(path)


def test_other_runs_lines_are_kept_and_not_used(tmp_path: Path) -> None:
    """A line of another ruleset, other options, another policy or another version of
    scoundrel is no game of this run: its deals are played, and the line stays."""
    path = tmp_path / "arena.jsonl"
    arena(["fast"], SOLO, games=6, log=Log(path))
    solo = path.read_text()
    coop = Rules.from_options("coop")
    arena(["fast"], coop, games=6, log=Log(path))
    lenient = Rules.solo(weapon="lenient")
    arena(["fast"], lenient, games=6, log=Log(path))
    arena(["random"], SOLO, games=6, log=Log(path))
    text = path.read_text()
    assert text.startswith(solo)
    assert sum(count for *_, count in seeds_of(path)) == 4 * 6 * 2
    path.write_text(solo.replace('"version":"', '"version":"0.0.0-'))
    arena(["fast"], SOLO, games=6, log=Log(path))
    assert sum(count for *_, count in seeds_of(path)) == 2 * 6 * 2


def test_ctrl_c_keeps_the_games_played_and_the_same_command_goes_on(tmp_path: Path) -> None:
    path = tmp_path / "arena.jsonl"
    args = ["fair_policies:slow_first_move", "--games", "60", "--log", str(path), "--json"]
    with subprocess.Popen(
        [*COMMAND, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV
    ) as process:
        waited = 0.0
        while not (path.exists() and path.read_text().count("\n") >= 2) and waited < 120:
            time.sleep(0.05)
            waited += 0.05
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=60)
    assert process.returncode == 130, err
    assert f"cancelled; the games played are kept in {path}: run again to go on" in err
    assert "Traceback" not in err and out == ""
    kept = sum(count for *_, count in seeds_of(path))
    assert 0 < kept < 120
    ended = run(*args)
    assert ended.returncode == 0, ended.stderr
    added = sum(count for *_, count in seeds_of(path)) - kept
    assert added == 120 - kept, "each deal is played once, over the two runs"
    report = json.loads(ended.stdout)
    [policy] = report["policies"]
    [fresh] = arena(["fair_policies:first_move"], SOLO, games=60)
    assert policy["certificate"] == fresh.to_dict()["certificate"]
    for run_name in ("dealt", "reshuffled"):
        assert policy[run_name]["wins"] == fresh.to_dict()[run_name]["wins"]
        assert policy[run_name]["mean_score"] == fresh.to_dict()[run_name]["mean_score"]


@pytest.mark.parametrize(
    ("where", "message"),
    [
        ("folder", "cannot read the arena log"),
        ("missing/arena.jsonl", "cannot write the arena log"),
    ],
)
def test_a_log_that_cannot_be_used_is_named_before_any_game(
    tmp_path: Path, where: str, message: str
) -> None:
    (tmp_path / "folder").mkdir()
    result = run("fast", "--games", "2", "--log", str(tmp_path / where))
    assert result.returncode == 2, result.stdout
    assert message in result.stderr and "Traceback" not in result.stderr
