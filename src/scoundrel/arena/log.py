"""The arena's log: a long run (the searching bots over 2,000 deals take hours) survives
Ctrl+C, a crash or a machine's restart.

Every chunk of deals is appended to the log as one JSON line the moment it is played
(written through to the disk), and a run given the same log plays only the deals it lacks.
A line names what it holds: the policy as given on the command line, the ruleset and its
options, dealt or reshuffled, and the version of scoundrel that played it; lines of other
runs stay in the log untouched and unused, so one log can serve many runs. A last line cut
short by a crash is left out (its deals are played again), and cut off the file before the
next chunk is written, so a log survives any number of crashes; any other line that cannot
be read stops the run with its number rather than being dropped in silence.

The log trusts the policy to be the one that played it: after changing a policy's code,
start a new log.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import __version__
from ..core.rules import Rules
from .certificate import Outcomes


class LogError(ValueError):
    """The log cannot be read or written: names the file and, for a bad line, its number."""


Deal = tuple[bool, int, float]
"""One game of the log: (won, score, CPU seconds)."""


@dataclass
class Log:
    """``Log(path)``: :meth:`games` are the deals already played for a run, :meth:`keep`
    appends a chunk."""

    path: Path
    _lines: list[dict[str, Any]] = field(default_factory=list, init=False)
    _mend: tuple[int, str] | None = field(default=None, init=False)
    """When the log does not end with a whole line: where to cut it (bytes) and what to
    write there before the next chunk (a line cut short is cut off; a whole chunk missing
    only its newline keeps it, and is given one)."""

    def __post_init__(self) -> None:
        try:
            data = self.path.read_bytes()
        except FileNotFoundError:
            data = b""
        except OSError as error:
            raise LogError(f"cannot read the arena log {self.path}: {error}") from None
        if data and not data.endswith(b"\n"):
            self._mend = (len(data), "\n")
        lines = data.split(b"\n")
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                entry = _entry(json.loads(line.decode("utf-8")))
            except (ValueError, TypeError, KeyError):
                if number == len(lines) and self._mend is not None:
                    # the last chunk was being written when the run stopped
                    self._mend = (len(data) - len(line), "")
                    continue
                raise LogError(
                    f"line {number} of the arena log {self.path} is not an arena chunk"
                ) from None
            self._lines.append(entry)

    def games(self, policy: str, rules: Rules, reshuffle: bool) -> dict[int, Deal]:
        """The deals this log holds for ``policy`` under ``rules``, dealt or reshuffled,
        by seed."""
        key = _key(policy, rules, reshuffle)
        found: dict[int, Deal] = {}
        for entry in self._lines:
            if _key_of(entry) != key:
                continue
            count = len(entry["won"])
            for i, (won, score) in enumerate(zip(entry["won"], entry["scores"], strict=True)):
                found.setdefault(entry["seed"] + i, (bool(won), score, entry["seconds"] / count))
        return found

    def keep(self, policy: str, rules: Rules, reshuffle: bool, outcomes: Outcomes) -> None:
        """Append a chunk's games, through to the disk."""
        entry = {
            **_names(policy, rules, reshuffle),
            "seed": outcomes.seed,
            "won": [int(won) for won in outcomes.won],
            "scores": list(outcomes.scores),
            "seconds": round(outcomes.seconds, 3),
        }
        text = json.dumps(entry, separators=(",", ":")) + "\n"
        try:
            with self.path.open("a", encoding="utf-8") as file:
                if self._mend is not None:
                    where, newline = self._mend
                    file.truncate(where)  # a line cut short: its deals are played again
                    text = newline + text
                file.write(text)
                file.flush()
                os.fsync(file.fileno())
        except OSError as error:
            raise LogError(f"cannot write the arena log {self.path}: {error}") from None
        self._mend = None
        self._lines.append(entry)

    def check(self) -> None:
        """Fail now, before any game, if the log cannot be written."""
        try:
            with self.path.open("a", encoding="utf-8"):
                pass
        except OSError as error:
            raise LogError(f"cannot write the arena log {self.path}: {error}") from None


def _key(policy: str, rules: Rules, reshuffle: bool) -> tuple[Any, ...]:
    """What a line of this run says it holds (see :func:`_key_of`)."""
    return _key_of(_names(policy, rules, reshuffle))


def _names(policy: str, rules: Rules, reshuffle: bool) -> dict[str, Any]:
    """The fields that name a line's run."""
    return {
        "policy": policy,
        "ruleset": rules.ruleset,
        "options": rules.options,
        "reshuffled": reshuffle,
        "version": __version__,
    }


def _key_of(entry: dict[str, Any]) -> tuple[Any, ...]:
    options = json.dumps(entry["options"], sort_keys=True)
    return entry["policy"], entry["ruleset"], options, entry["reshuffled"], entry["version"]


def _entry(entry: Any) -> dict[str, Any]:
    """``entry`` if it is a whole arena chunk, else a ValueError."""
    if not isinstance(entry, dict):
        raise ValueError
    for name, kind in (
        ("policy", str),
        ("ruleset", str),
        ("options", dict),
        ("reshuffled", bool),
        ("version", str),
        ("seed", int),
        ("won", list),
        ("scores", list),
        ("seconds", (int, float)),
    ):
        if not isinstance(entry[name], kind):
            raise ValueError
    if not entry["won"] or len(entry["won"]) != len(entry["scores"]):
        raise ValueError
    if not all(isinstance(x, int) for x in entry["won"] + entry["scores"]):
        raise ValueError
    return entry
