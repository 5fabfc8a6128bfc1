"""Work spread over this machine's processes or over a Ray cluster: the deals of
``scoundrel bot``, ``scoundrel solve --games`` and ``scoundrel arena`` are cut into chunks,
each a picklable piece of work, and played wherever :class:`Spread` runs them.

* **Processes** (``--jobs N``): a pool of this machine. The workers ignore Ctrl+C; the
  parent, when it gets it, stops them at once (terminated, not waited for). A worker whose
  parent is gone without stopping it (killed, crashed) stops by itself within a second
  rather than play on for nobody.
* **A Ray cluster** (``--ray ADDRESS``, the ``ray`` extra): every chunk is a Ray task. The
  package itself (and any policy module given by file) is shipped with the job, so every
  node runs the very code of the command that started it. On Ctrl+C the tasks still
  queued or running are cancelled on the cluster before the command ends.

The same seeds give the same results wherever they run: the callers put the chunks back in
the order of their seeds.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import signal
import socket
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from types import TracebackType
from typing import Any, TypeVar

Work = TypeVar("Work")
Result = TypeVar("Result")


class SpreadError(RuntimeError):
    """The work cannot be spread as asked: no Ray, or no cluster at the address."""


def chunks(start: int, count: int, size: int) -> list[tuple[int, int]]:
    """The seeds ``start`` .. ``start + count - 1`` as ``(first, how many)`` pieces of at
    most ``size``."""
    return [(s, min(size, start + count - s)) for s in range(start, start + count, size)]


def chunk_size(count: int, workers: int, most: int) -> int:
    """A chunk small enough that ``workers`` share ``count`` deals evenly (about four
    chunks each), and no bigger than ``most``."""
    return max(1, min(most, count // (workers * 4) or 1))


class Spread:
    """Where work runs: ``with Spread(jobs, ray) as spread: spread.map(function, work)``.

    ``ray`` is a cluster's address (``host:port``, ``ray://host:port`` or ``auto``); without
    it, ``jobs`` processes of this machine (this one alone when ``jobs`` is 1). ``modules``
    names modules (by import name) to ship to the cluster beside the package: those of
    policies that are not installed on its nodes."""

    def __init__(self, jobs: int = 1, ray: str | None = None, modules: Sequence[str] = ()) -> None:
        self.jobs = jobs
        self.address = ray
        self.modules = tuple(modules)
        self._ray: Any = None

    @property
    def workers(self) -> int:
        """How many chunks can run at once: the processes, or the cluster's CPUs."""
        if self._ray is None:
            return self.jobs
        return max(1, int(self._ray.cluster_resources().get("CPU", 1)))

    def __enter__(self) -> Spread:
        if self.address is not None:
            self._ray = _connect(self.address, self.modules)
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        if self._ray is not None:
            self._ray.shutdown()
            self._ray = None

    def map(self, function: Callable[[Work], Result], work: Sequence[Work]) -> Iterator[Result]:
        """``function`` over every piece of ``work``: the results as they finish, in no set
        order."""
        if self._ray is not None:
            return _on_ray(self._ray, function, work)
        return _on_processes(function, work, self.jobs)


def _on_processes(
    function: Callable[[Work], Result], work: Sequence[Work], jobs: int
) -> Iterator[Result]:
    if jobs == 1:
        for piece in work:
            yield function(piece)
        return
    # A Ctrl+C or kill while the pool is being made (its workers forked, its threads not
    # yet started) would leave a pool nobody ends: its thread forks new workers as the
    # interpreter exits, and the exit waits on them for ever (seen once in CI, after
    # "cancelled"). So the signals wait until the pool is there to be ended.
    held = _hold(_STOPPING)
    try:
        pool = multiprocessing.get_context().Pool(jobs, initializer=_start_worker)
    except BaseException:
        _release(held)
        raise
    try:
        _release(held)
        yield from pool.imap_unordered(function, work)
        pool.close()
    finally:
        pool.terminate()
        pool.join()


def _hold(numbers: tuple[int, ...]) -> set[int] | None:
    """Keeps ``numbers`` from this thread until :func:`_release` (where the system can)."""
    if not hasattr(signal, "pthread_sigmask"):
        return None
    return set(signal.pthread_sigmask(signal.SIG_BLOCK, numbers))


def _release(held: set[int] | None) -> None:
    """Delivers what :func:`_hold` kept back, and keeps back again what was before."""
    if held is not None:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)


LEAVING_SIGNALS = tuple(
    getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name)
)
"""The signals that ask a run to leave (``kill``, a closed terminal), where the system has
them: a pool's workers die on them, and ``ray.init`` is not let keep SIGTERM's."""

_STOPPING = (signal.SIGINT, *LEAVING_SIGNALS)

PARENT_WATCH = 0.5
"""Seconds between a worker's looks at whether its parent is still there."""


def _start_worker() -> None:
    """A pool's worker: Ctrl+C is the parent's to act on, SIGTERM and SIGHUP end it at
    once (whatever handlers the parent had, a worker keeps nothing), and it leaves as soon
    as its parent is gone."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for number in LEAVING_SIGNALS:
        if signal.getsignal(number) != signal.SIG_IGN:
            signal.signal(number, signal.SIG_DFL)
    if hasattr(signal, "pthread_sigmask"):  # forked while the parent held them back
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _STOPPING)
    parent = os.getppid()
    threading.Thread(target=_leave_with, args=(parent,), name="parent-watch", daemon=True).start()


def _leave_with(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(PARENT_WATCH)
    os._exit(1)


def _connect(address: str, modules: Sequence[str]) -> Any:
    """Ray, connected to the cluster at ``address`` with this package (and ``modules``)
    shipped to it."""
    try:
        import ray
    except ImportError:
        raise SpreadError(
            "--ray needs Ray: pip install 'scoundrel-cards[ray]' (on every node of the cluster too)"
        ) from None
    import scoundrel

    shipped = [str(Path(scoundrel.__file__).parent)]
    for name in modules:
        module = sys.modules.get(name)
        path = getattr(module, "__file__", None)
        if path is None or _installed(path):
            continue
        shipped.append(str(Path(path).parent) if Path(path).name == "__init__.py" else path)
    _reachable(address)
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    # ray.init takes SIGTERM for itself (it prints a stack and exits at once, leaving its
    # caller no chance to cancel the tasks): the handlers it replaces are put back after
    kept = _leaving_handlers()
    try:
        ray.init(
            address=address,
            runtime_env={"py_modules": shipped},
            logging_level=logging.ERROR,
            log_to_driver=False,
            configure_logging=False,
        )
    except (ConnectionError, RuntimeError, ValueError) as error:
        raise SpreadError(f"cannot reach a Ray cluster at {address!r}: {error}") from None
    finally:
        for number, handler in kept.items():
            if handler is not None:  # None: set outside Python, nothing to put back
                signal.signal(number, handler)
    return ray


def _leaving_handlers() -> dict[int, Any]:
    """The handlers of SIGTERM and SIGHUP, where this thread may set them."""
    if threading.current_thread() is not threading.main_thread():
        return {}
    return {number: signal.getsignal(number) for number in LEAVING_SIGNALS}


def _reachable(address: str, seconds: float = 5.0) -> None:
    """Fail at once, naming the address, when nothing listens at a ``host:port`` address
    (Ray itself retries such an address for minutes)."""
    if address == "auto" or "://" in address:
        return
    host, colon, port = address.rpartition(":")
    if not colon or not port.isdigit():
        raise SpreadError(f"--ray {address!r}: give a cluster's address as host:port, or auto")
    try:
        socket.create_connection((host or "127.0.0.1", int(port)), timeout=seconds).close()
    except OSError as error:
        raise SpreadError(f"cannot reach a Ray cluster at {address!r}: {error}") from None


def _installed(path: str) -> bool:
    """Whether a module's file is part of an installed distribution (every node has it)."""
    return "site-packages" in Path(path).parts or "dist-packages" in Path(path).parts


def _on_ray(ray: Any, function: Callable[[Work], Result], work: Sequence[Work]) -> Iterator[Result]:
    task = ray.remote(max_retries=1)(function)
    pending = [task.remote(piece) for piece in work]
    try:
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                yield ray.get(ref)
    finally:  # Ctrl+C, an error, or the caller stopping early: nothing is left running
        for ref in pending:
            ray.cancel(ref, force=True)
