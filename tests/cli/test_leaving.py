"""How ``scoundrel play`` ends (issue 34, items 3, 4 and 7), in real processes on a real
terminal (a pseudo-terminal of the test's own):

- an unexpected error writes its traceback to a log file in the data folder, prints one line
  naming it, keeps the game, and exits 70, never 130 (the status of Ctrl+C);
- SIGTERM and SIGHUP end it, even while it is stuck in the middle of an error;
- a terminal the full screen cannot drive (``TERM=dumb``) gets the line game.

An error is planted through a ``sitecustomize`` module on the child's ``PYTHONPATH``
(Python imports it at start): the program itself has no switch for it.
"""

from __future__ import annotations

import fcntl
import os
import select
import signal
import struct
import subprocess
import sys
import termios
import textwrap
import time
from pathlib import Path

import pytest

from scoundrel.cli.keep import Keeper

PLANTS = {
    "none": "",
    "table": """
        from scoundrel.cli.tui import table

        def boom(self):
            raise RuntimeError("planted for a test")

        table.TableScreen.action_flee = boom
    """,
    "plain": """
        from scoundrel.cli import plain

        shown = plain.PlainGame.show

        def boom(self):
            if self.kept.game.moves:
                raise RuntimeError("planted for a test")
            shown(self)

        plain.PlainGame.show = boom
    """,
    "stuck": """
        import time
        from scoundrel.cli import crash
        from scoundrel.cli.tui import table

        def boom(self):
            raise RuntimeError("planted for a test")

        def stuck(*args, **kwargs):  # the error's handling hangs (a dead terminal, say)
            time.sleep(600)

        table.TableScreen.action_flee = boom
        crash.write_log = stuck
    """,
}


class Terminal:
    """``python -m scoundrel ARGS`` on a pseudo-terminal of ``columns`` × ``rows``."""

    def __init__(
        self,
        tmp_path: Path,
        args: list[str],
        plant: str = "none",
        term: str = "xterm-256color",
        command: list[str] | None = None,
        environ: dict[str, str] | None = None,
    ) -> None:
        """``command`` (this checkout's ``python -m scoundrel`` by default) with ``args``, in
        ``environ`` (else this one, with ``plant``'s sitecustomize first on the path)."""
        self.data = tmp_path / "data"
        if environ is None:
            plants = tmp_path / f"plant-{plant}"
            plants.mkdir(exist_ok=True)
            (plants / "sitecustomize.py").write_text(textwrap.dedent(PLANTS[plant]))
            environ = {
                **os.environ,
                "XDG_DATA_HOME": str(self.data),
                "PYTHONPATH": os.pathsep.join([str(plants), *sys.path]),
            }
        env = {**environ, "TERM": term, "LANG": "C.UTF-8"}
        master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        self.process = subprocess.Popen(
            [*(command or [sys.executable, "-m", "scoundrel"]), *args],
            stdin=slave,
            stdout=slave,
            stderr=slave,
            env=env,
            start_new_session=True,
        )
        os.close(slave)
        self.master = master
        self.out = b""

    def read(self, seconds: float = 0.2) -> str:
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            ready, _, _ = select.select([self.master], [], [], left)
            if not ready:
                continue
            try:
                chunk = os.read(self.master, 65536)
            except OSError:  # the other side closed
                break
            if not chunk:
                break
            self.out += chunk
        return self.out.decode(errors="replace")

    def until(self, text: str, seconds: float = 30) -> str:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if text in self.read(0.1):
                return self.out.decode(errors="replace")
            if self.process.poll() is not None:
                break
        raise AssertionError(f"no {text!r} in {self.read(0.1)[-3000:]!r}")

    def type(self, keys: str) -> None:
        os.write(self.master, keys.encode())

    def ended(self, seconds: float = 20) -> int:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            self.read(0.1)
            code = self.process.poll()
            if code is not None:
                return code
        self.process.kill()
        raise AssertionError(f"still running after {seconds} s: {self.read()[-2000:]!r}")

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(10)
        os.close(self.master)


@pytest.fixture
def terminals(tmp_path: Path):  # type: ignore[no-untyped-def]
    made: list[Terminal] = []

    def make(args: list[str], plant: str = "none", term: str = "xterm-256color") -> Terminal:
        made.append(Terminal(tmp_path, args, plant, term))
        return made[-1]

    yield make
    for terminal in made:
        terminal.close()


def logs(data: Path) -> list[Path]:
    return sorted((data / "scoundrel" / "logs").glob("scoundrel-crash-*.log"))


def the_game(data: Path) -> tuple[str, ...]:
    """The moves of the game in play in the data folder's store."""
    waiting = Keeper(f"sqlite:///{data / 'scoundrel' / 'scoundrel.sqlite3'}").unfinished()
    assert waiting is not None
    return tuple(move.token for move in waiting.game.moves)


def test_an_error_of_the_full_screen_game_is_logged_and_exits_70(terminals, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Issue 34, item 4: every crash exited 130 with a screenful of traceback."""
    terminal = terminals(["play", "--seed", "3"], plant="table")
    terminal.until("Flee")
    terminal.type("1b")  # a move, kept at once
    time.sleep(0.5)
    terminal.type("f")  # the planted error
    assert terminal.ended() == 70
    out = terminal.read()
    (log,) = logs(terminal.data)
    said = (
        "scoundrel play: an unexpected error, RuntimeError (every move of your game is "
        f"kept); the details are in {log}"
    )
    assert said in " ".join(out.split())
    text = log.read_text()
    assert "RuntimeError: planted for a test" in text and "Traceback" in text
    assert "Traceback" not in out  # one line, not a screenful
    assert the_game(terminal.data) == ("2S/b",)


def test_an_error_of_the_line_game_is_logged_and_exits_70(terminals) -> None:  # type: ignore[no-untyped-def]
    terminal = terminals(["play", "--plain", "--seed", "3"], plant="plain")
    terminal.until("> ")
    terminal.type("1\n")
    assert terminal.ended() == 70
    (log,) = logs(terminal.data)
    assert "an unexpected error, RuntimeError" in terminal.read()
    assert "planted for a test" in log.read_text()
    assert len(the_game(terminal.data)) == 1


def test_sigterm_ends_a_game_stuck_in_an_error(terminals) -> None:  # type: ignore[no-untyped-def]
    """Issue 34, item 3: closing the window during a crash left a process that ignored
    SIGTERM and held the store open. A signal now ends it within seconds, whatever the
    game's main thread is doing."""
    terminal = terminals(["play", "--seed", "3"], plant="stuck")
    terminal.until("Flee")
    terminal.type("f")  # the error, whose handling hangs
    time.sleep(1)
    assert terminal.process.poll() is None  # stuck indeed
    started = time.monotonic()
    terminal.process.send_signal(signal.SIGTERM)
    assert terminal.ended(15) == 130
    assert time.monotonic() - started < 10


@pytest.mark.parametrize("name", ["SIGTERM", "SIGHUP"])
def test_a_signal_ends_the_full_screen_game_and_keeps_it(terminals, name: str) -> None:  # type: ignore[no-untyped-def]
    terminal = terminals(["play", "--seed", "3"])
    terminal.until("Flee")
    terminal.type("f")
    time.sleep(0.5)
    terminal.process.send_signal(getattr(signal, name))
    assert terminal.ended() == 130
    assert the_game(terminal.data) == ("F",)


def test_a_dumb_terminal_gets_the_line_game(terminals) -> None:  # type: ignore[no-untyped-def]
    """Issue 34, item 7: ``TERM=dumb`` got the full-screen game."""
    terminal = terminals(["play", "--seed", "3"], term="dumb")
    out = terminal.until("> ")
    assert "This terminal (TERM=dumb) cannot show the full-screen game" in out
    assert "\x1b[" not in out  # no escape sequences at all
    terminal.type("quit\n")
    assert terminal.ended() == 0
