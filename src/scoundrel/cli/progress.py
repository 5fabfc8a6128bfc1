"""How far a long run has got, on standard error: a bar redrawn in place on a terminal, and
a line now and then when standard error goes to a file (a run left under ``nohup``, a job
on a cluster's log), so a run of hours is never silent."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import TextIO

EVERY = 60.0
"""Seconds between two progress lines written to a file (none before the first minute, so
a short run writes none)."""


class Progress:
    """Told how many games of ``total`` are done; ``end`` finishes its output."""

    def __init__(
        self,
        command: str,
        total: int,
        *,
        json: bool = False,
        stream: TextIO | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.command = command
        self.total = total
        self.stream = sys.stderr if stream is None else stream
        self.terminal = self.stream.isatty()
        # A bar redrawn around JSON on a terminal would interleave with it; a file takes
        # lines beside it.
        self.shown = not (self.terminal and json)
        self.clock = clock
        self.started = clock()
        self.last = self.started
        # The first count told and when: the pace is measured from there, so the games
        # a log already held, or a first chunk's slow start, do not count as played now.
        self.first: tuple[int, float] | None = None
        self.percent = -1
        self.drawn = False

    def __call__(self, done: int) -> None:
        if not self.shown:
            return
        now = self.clock()
        if self.first is None:
            self.first = done, now
        if self.terminal:
            self._draw(done)
            return
        if now - self.last < EVERY or done >= self.total:
            return
        self.last = now
        print(self._line(done, now), file=self.stream, flush=True)

    def _draw(self, done: int) -> None:
        percent = done * 100 // self.total
        if percent != self.percent:
            self.percent = percent
            self.drawn = True
            filled = percent * 30 // 100
            print(
                f"\r[{'#' * filled}{'.' * (30 - filled)}] {done:,}/{self.total:,} games",
                end="",
                file=self.stream,
                flush=True,
            )

    def _line(self, done: int, now: float) -> str:
        line = (
            f"scoundrel {self.command}: {done:,}/{self.total:,} games "
            f"({done * 100 // self.total}%) after {_duration(now - self.started)}"
        )
        first, then = self.first or (done, now)
        if done > first and now > then:
            left = (now - then) / (done - first) * (self.total - done)
            line += f", about {_duration(left)} to go"
        return line

    def end(self) -> None:
        """Ends the bar's line (a line written to a file is already ended)."""
        if self.drawn:
            print(file=self.stream, flush=True)
            self.drawn = False


def _duration(seconds: float) -> str:
    minutes = round(seconds / 60)
    if minutes < 1:
        return f"{round(seconds)} s"
    if minutes < 60:
        return f"{minutes} min"
    return f"{minutes // 60} h {minutes % 60:02d} min"
