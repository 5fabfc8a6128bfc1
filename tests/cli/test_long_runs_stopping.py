"""How the long runs spread over processes (``bot``, ``solve --games``, ``arena`` with
``--jobs``) stop, in real processes: ``kill`` (SIGTERM) or a closed terminal (SIGHUP)
stops them as Ctrl+C does (status 130, the arena's log named), and a run killed outright
(SIGKILL, a crash) leaves no worker behind playing on for nobody. Before, SIGTERM killed
the parent alone and its workers played on."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

ARENA_TESTS = Path(__file__).resolve().parents[1] / "arena"
ENV = {**os.environ, "PYTHONPATH": str(ARENA_TESTS)}

pytestmark = pytest.mark.skipif(
    not Path("/proc/self/stat").exists(), reason="finds a run's workers through /proc"
)


def workers(parent: int) -> list[int]:
    """The live processes whose parent is ``parent``."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[1]) == parent and fields[0] != "Z":
            found.append(int(stat.parent.name))
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"  # a zombie has left; its reaping is its new parent's business


def wait_for(what: str, check: Callable[[], bool], seconds: float = 120) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not after {seconds} s")
        time.sleep(0.05)


@contextmanager
def running(*args: str) -> Iterator[tuple[subprocess.Popen[str], list[int]]]:
    """``scoundrel ARGS…`` with two workers at play; yields it and its workers' ids, and
    kills whatever is left of them at the end."""
    command = [sys.executable, "-m", "scoundrel", *args]
    process = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV
    )
    found: list[int] = []
    try:
        wait_for("two workers", lambda: len(workers(process.pid)) == 2)
        found = workers(process.pid)
        yield process, found
    finally:
        for pid in [process.pid, *found]:
            if alive(pid):
                os.kill(pid, signal.SIGKILL)
        process.communicate(timeout=60)


LONG_RUNS = {
    "arena": ["arena", "fair_policies:slow_first_move", "--games", "2000", "--jobs", "2"],
    "bot": ["bot", "--level", "search", "--games", "2000", "--jobs", "2"],
    "solve": ["solve", "--games", "2000", "--jobs", "2"],
}


@pytest.mark.parametrize("name", ["SIGTERM", "SIGHUP"])
@pytest.mark.parametrize("command", sorted(LONG_RUNS))
def test_kill_stops_a_long_run_as_ctrl_c_does(command: str, name: str) -> None:
    with running(*LONG_RUNS[command]) as (process, found):
        process.send_signal(getattr(signal, name))
        _, err = process.communicate(timeout=60)
        assert process.returncode == 130, err
        assert f"scoundrel {command}: cancelled" in err and "Traceback" not in err
        wait_for("its workers gone", lambda: not any(alive(pid) for pid in found), 30)


def test_the_arena_stopped_by_kill_names_its_log(tmp_path: Path) -> None:
    log = tmp_path / "arena.jsonl"
    with running(*LONG_RUNS["arena"], "--log", str(log)) as (process, _):
        wait_for("a chunk kept", lambda: log.exists() and log.read_text().count("\n") >= 1)
        process.terminate()
        _, err = process.communicate(timeout=60)
    assert process.returncode == 130, err
    assert f"the games played are kept in {log}: run again to go on" in err


def test_nohup_keeps_sighup_ignored() -> None:
    """A run started under ``nohup`` (SIGHUP ignored) plays on when its terminal closes."""
    previous = signal.signal(signal.SIGHUP, signal.SIG_IGN)
    try:  # the child inherits the ignored signal, as nohup leaves it
        with running(*LONG_RUNS["bot"]) as (process, found):
            process.send_signal(signal.SIGHUP)
            time.sleep(1)  # the signal's chance to act, were it heard
            assert process.poll() is None and all(alive(pid) for pid in found)
    finally:
        signal.signal(signal.SIGHUP, previous)


@pytest.mark.parametrize("command", sorted(LONG_RUNS))
def test_a_run_killed_outright_leaves_no_worker_behind(command: str) -> None:
    with running(*LONG_RUNS[command]) as (process, found):
        process.kill()
        process.wait(timeout=60)
        wait_for("its workers gone", lambda: not any(alive(pid) for pid in found), 30)


def test_the_handlers_are_put_back_after_the_command() -> None:
    """Run in a process that lives on (a test, a notebook), a long run leaves SIGTERM and
    SIGHUP as it found them."""
    from scoundrel.cli.main import main

    before = [signal.getsignal(signal.SIGTERM), signal.getsignal(signal.SIGHUP)]
    assert main(["bot", "--games", "2", "--json"]) == 0
    assert [signal.getsignal(signal.SIGTERM), signal.getsignal(signal.SIGHUP)] == before
