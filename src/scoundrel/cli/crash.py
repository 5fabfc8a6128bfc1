"""An unexpected error: its traceback is kept in a log file in the data folder, the player
is told in one line where it is, and the program exits with status 70 (``EX_SOFTWARE`` of
``sysexits.h``), never 130, which says Ctrl+C. The games are not touched: every move was
written to the store as it was played.
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import os
import platform
import sys
import tempfile
import traceback
from pathlib import Path

from .leaving import EXIT_SOFTWARE


def log_folder() -> Path:
    """Where crash logs go: ``logs`` in the user's data folder (beside the game store)."""
    from platformdirs import user_data_dir

    return Path(user_data_dir("scoundrel", appauthor=False)) / "logs"


def write_log(error: BaseException, command: str, now: _dt.datetime | None = None) -> Path | None:
    """Write ``error``'s traceback, with what the program and machine were, to a new file
    in :func:`log_folder` (else the system's temporary folder); its path, or None if no
    file could be written anywhere."""
    from scoundrel import DISTRIBUTION, __version__

    stamp = (now or _dt.datetime.now()).strftime("%Y%m%d-%H%M%S-%f")
    lines = [
        f"{DISTRIBUTION} {__version__}: an unexpected error in `scoundrel {command}`",
        f"time: {_dt.datetime.now(_dt.UTC).isoformat(timespec='seconds')}",
        f"python: {sys.version.split()[0]} on {platform.platform()}",
        f"command line: {' '.join(sys.argv)}",
        f"terminal: TERM={os.environ.get('TERM', '')}",
        "",
        *traceback.format_exception(error),
    ]
    text = "\n".join(line.rstrip("\n") for line in lines) + "\n"
    for folder in (log_folder(), Path(tempfile.gettempdir())):
        try:
            folder.mkdir(parents=True, exist_ok=True)
            path = folder / f"scoundrel-crash-{stamp}.log"
            with path.open("x", encoding="utf-8") as file:
                file.write(text)
        except OSError:
            continue
        return path
    return None


def report(error: BaseException, command: str) -> int:
    """Log ``error``, say so in one line on standard error, and give the exit status."""
    return tell(write_log(error, command), type(error).__name__, command)


def tell(path: Path | None, name: str, command: str) -> int:
    """Say in one line on standard error that an unexpected error (``name``) ended
    ``command`` and where its log is; the exit status, :data:`EXIT_SOFTWARE`."""
    where = f"the details are in {path}" if path is not None else "no log could be written"
    kept = " (every move of your game is kept)" if command == "play" else ""
    line = f"scoundrel {command}: an unexpected error, {name}{kept}; {where}"
    with contextlib.suppress(OSError, ValueError):  # the terminal is gone: the log says it
        print(line, file=sys.stderr, flush=True)
    return EXIT_SOFTWARE
