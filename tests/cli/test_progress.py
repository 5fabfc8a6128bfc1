"""Progress of long runs on standard error: a bar on a terminal, a line now and then in a file,
so a run left under ``nohup`` says how far it is and how long it has left."""

from __future__ import annotations

import io
import json

import pytest

from scoundrel.cli import progress
from scoundrel.cli.main import main
from scoundrel.cli.progress import Progress


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_file_gets_a_line_a_minute_with_the_time_left() -> None:
    clock, out = Clock(), io.StringIO()
    bar = Progress("arena", 4000, stream=out, clock=clock)
    bar(0)
    clock.now += 30
    bar(10)
    assert out.getvalue() == ""  # none in the first minute: a short run writes nothing
    clock.now += 31
    bar(20)
    assert out.getvalue() == (
        "scoundrel arena: 20/4,000 games (0%) after 1 min, about 3 h 22 min to go\n"
    )
    clock.now += 59
    bar(30)
    assert out.getvalue().count("\n") == 1  # the next a minute after the last
    clock.now += 1
    bar(40)
    assert out.getvalue().splitlines()[-1] == (
        "scoundrel arena: 40/4,000 games (1%) after 2 min, about 3 h 20 min to go"
    )
    bar.end()
    assert out.getvalue().count("\n") == 2  # a line is ended already: end adds nothing


def test_the_pace_counts_only_the_games_played_in_this_run() -> None:
    """A log's games are told first, at once: they are done, not played fast."""
    clock, out = Clock(), io.StringIO()
    bar = Progress("arena", 4000, stream=out, clock=clock)
    bar(1000)
    clock.now += 120
    bar(1020)  # 20 games in 2 minutes: 2,980 more take 4 h 58 min
    assert out.getvalue() == (
        "scoundrel arena: 1,020/4,000 games (25%) after 2 min, about 4 h 58 min to go\n"
    )


def test_a_finished_run_writes_no_line() -> None:
    clock, out = Clock(), io.StringIO()
    bar = Progress("bot", 100, stream=out, clock=clock)
    bar(0)
    clock.now += 600
    bar(100)
    bar.end()
    assert out.getvalue() == ""


def test_the_first_line_before_any_pace_has_no_time_left() -> None:
    clock, out = Clock(), io.StringIO()
    bar = Progress("solve", 50, stream=out, clock=clock)
    clock.now += 90
    bar(25)  # the first count told: no pace yet
    assert out.getvalue() == "scoundrel solve: 25/50 games (50%) after 2 min\n"


def test_a_terminal_gets_a_bar_redrawn_in_place_and_ended() -> None:
    out = Terminal()
    bar = Progress("bot", 200, stream=out, clock=Clock())
    bar(0)
    bar(1)  # still 0%: not drawn again
    bar(100)
    assert out.getvalue() == (
        "\r[..............................] 0/200 games"
        "\r[###############...............] 100/200 games"
    )
    bar.end()
    assert out.getvalue().endswith("games\n")


def test_json_on_a_terminal_draws_nothing_but_a_file_still_gets_its_lines() -> None:
    clock = Clock()
    terminal, file = Terminal(), io.StringIO()
    for out in (terminal, file):
        bar = Progress("arena", 10, json=True, stream=out, clock=clock)
        bar(0)
        clock.now += 61
        bar(5)
        bar.end()
    assert terminal.getvalue() == ""
    assert file.getvalue().startswith("scoundrel arena: 5/10 games (50%)")


def test_a_bar_never_drawn_is_not_ended_with_an_empty_line() -> None:
    out = Terminal()
    Progress("solve", 10, stream=out).end()
    assert out.getvalue() == ""


@pytest.mark.parametrize(
    ("command", "told"),
    [
        (["bot", "--games", "4", "--jobs", "1"], "scoundrel bot: "),
        (["solve", "--games", "4", "--jobs", "1"], "scoundrel solve: "),
        (["arena", "fast", "--games", "2", "--jobs", "1"], "scoundrel arena: "),
    ],
)
def test_long_runs_write_progress_lines_to_a_file(
    command: list[str],
    told: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each command tells its progress (a line each time, with no minute between lines),
    and its JSON result on standard output is untouched."""
    monkeypatch.setattr(progress, "EVERY", 0.0)
    assert main([*command, "--json"]) == 0
    out, err = capsys.readouterr()
    json.loads(out)
    lines = err.splitlines()
    assert lines and all(line.startswith(told) for line in lines), err
    assert "\r" not in err
