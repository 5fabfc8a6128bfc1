"""How the ``scoundrel`` command leaves: its exit statuses, and SIGTERM and SIGHUP heard
at once. The command line (``main``), the line game and the full-screen game all import
them from here, so that none of the games imports the command that starts it."""

from __future__ import annotations

import contextlib
import os
import signal
import threading
from collections.abc import Callable, Iterator

from scoundrel.spread import LEAVING_SIGNALS

EXIT_ILLEGAL = 1
"""Exit status of a record (or a move) the rules do not allow."""
EXIT_USAGE = 2
"""Exit status of bad input: flags, files that are not records, values out of range."""
EXIT_SOFTWARE = 70
"""Exit status after an unexpected error, whose traceback went to a log file
(``EX_SOFTWARE`` of ``sysexits.h``)."""
EXIT_INTERRUPTED = 130
"""Exit status after Ctrl+C (128 + SIGINT, as shells report it)."""


@contextlib.contextmanager
def leaving_as_interrupted() -> Iterator[None]:
    """While it lasts, SIGTERM and SIGHUP stop the command as Ctrl+C does (a
    KeyboardInterrupt): a long run (``bot``, ``solve``, ``arena``, ``analyse``, ``bench``)
    then ends its worker processes or cancels its cluster's tasks, keeps what it keeps and
    says so, rather than dying at once. A signal the command was started ignoring (SIGHUP
    under ``nohup``) stays ignored."""
    if threading.current_thread() is not threading.main_thread():
        yield  # only the main thread may set handlers (a command run by a test's thread)
        return
    taken = [n for n in LEAVING_SIGNALS if signal.getsignal(n) is signal.SIG_DFL]
    for number in taken:
        signal.signal(number, _interrupt)
    try:
        yield
    finally:
        for number in taken:
            signal.signal(number, signal.SIG_DFL)


def _interrupt(*_: object) -> None:
    raise KeyboardInterrupt


def on_leaving_signals(handler: Callable[..., None], quiet: bool = False) -> None:
    """Call ``handler`` on SIGTERM and SIGHUP (where the system has them), at once.

    Python runs a signal's handler between two steps of the main thread: a signal that
    comes just before the game blocks reading its input would wait there for the next line.
    So the signal also wakes a watcher thread (``signal.set_wakeup_fd``), which calls it,
    whatever the main thread is doing (the full-screen game's handler, ``quiet``, is called
    from that thread alone)."""
    numbers = set(LEAVING_SIGNALS)
    for number in numbers:
        signal.signal(number, (lambda *_: None) if quiet else handler)
    read, write = os.pipe()
    os.set_blocking(write, False)
    signal.set_wakeup_fd(write, warn_on_full_buffer=False)

    def watch() -> None:
        while True:
            if numbers.intersection(os.read(read, 64)):  # Ctrl+C's byte is the loop's
                handler()

    threading.Thread(target=watch, name="signal-watcher", daemon=True).start()
