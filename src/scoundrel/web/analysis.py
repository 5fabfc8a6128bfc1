"""Post-game analysis for the web server, away from its event loop.

An analysis (:func:`scoundrel.solver.analyse`) is seconds to minutes of pure-Python CPU, so
each one runs in a worker process of its own, started with the ``spawn`` context (no copy
of the server's threads, sockets or database connections). At most ``workers`` run at once;
later requests wait their turn. A small thread per job starts the process and waits for its
answer, so the event loop only ever reads a job's state:

* progress comes back through shared values (stage, and the node count of the solver's
  stages or the moves judged so far by the review), written by the worker;
* cancelling sets a shared event that the solver polls through its ``cancel`` callback, and
  the worker then stops on its own (a worker that does not is terminated after a grace
  period);
* the result comes back through a pipe, and finished results are kept (a bounded number of
  them) so that asking again is instant;
* workers run at a lower scheduling priority (nice 10), so players' moves come first.

This module imports nothing of the web framework: the worker process imports it to run
:func:`_work`. As always with ``spawn``, the program that starts the server must guard its
entry point (``if __name__ == "__main__":``), which ``scoundrel serve`` and uvicorn do.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from multiprocessing.context import ForkServerContext, SpawnContext
from typing import Any, Literal

from scoundrel.solver.analysis import BEST_SECONDS

#: What a worker is doing, as the number it writes into its shared ``stage`` value.
STAGES = ("starting", "win", "review", "slip", "best", "par")
#: What a worker works out from a record: the analysis of a finished game, or the par of a
#: deal (:mod:`scoundrel.solver.par`, whose record has no moves).
TASKS = ("analysis", "par")
#: How long a cancelled worker may take to notice before it is terminated.
GRACE_SECONDS = 3.0
#: How long before its time is up a worker stops the searches that may be left out (where
#: the game slipped, the best score: see :func:`scoundrel.solver.analyse`), to answer with
#: the rest rather than time out.
WRAP_UP_SECONDS = 15.0


def resident_megabytes(pid: int) -> float | None:
    """The resident memory of process ``pid`` in MiB, where the system tells (Linux)."""
    try:
        with open(f"/proc/{pid}/statm", encoding="ascii") as statm:
            pages = int(statm.read().split()[1])
    except (OSError, ValueError, IndexError):
        return None
    return pages * os.sysconf("SC_PAGE_SIZE") / (1024 * 1024)


def _work(
    task: str,
    record: dict[str, Any],
    cancel: Any,
    nodes: Any,
    stage: Any,
    answer: Connection,
    seconds: float,
    best_seconds: float | None,
) -> None:
    """The worker process: work ``task`` out from ``record`` and send ``(state, payload)``
    back."""
    from scoundrel.core import Record
    from scoundrel.solver import Cancelled, analyse
    from scoundrel.solver.par import par

    # Below the server in the scheduler's eyes: players' moves come before analyses.
    if hasattr(os, "nice"):
        with contextlib.suppress(OSError):
            os.nice(10)
    deadline = time.monotonic() + seconds

    def stop() -> bool:
        return bool(cancel.is_set()) or time.monotonic() > deadline

    def progress(name: str, count: int) -> None:
        stage.value = STAGES.index(name) if name in STAGES else 0
        nodes.value = count

    try:
        game = Record.from_dict(record)
        if task == "par":
            answer.send(("done", par(game.start(), cancel=stop, progress=progress).to_dict()))
            return
        result = analyse(
            game.start(),
            game.moves,
            cancel=stop,
            progress=progress,
            best_seconds=best_seconds,
            deadline=deadline - min(WRAP_UP_SECONDS, seconds / 4),
        )
        answer.send(("done", result.to_dict()))
    except Cancelled:
        answer.send(("cancelled", None) if cancel.is_set() else ("failed", "timeout"))
    except MemoryError:  # pragma: no cover - the server stops a big worker first
        answer.send(("failed", "memory"))
    except Exception as error:  # pragma: no cover - the solver checks its own lines
        answer.send(("failed", f"error: {type(error).__name__}"))
    finally:
        answer.close()


@dataclass
class Job:
    """One analysis (or par, as ``task`` says): queued, running, done, failed or
    cancelled."""

    key: str
    record: dict[str, Any]
    players: set[str]
    cancel: Any
    nodes: Any
    stage: Any
    task: str = "analysis"
    then: Callable[[Job], None] | None = None
    """Told the job once it is over (in the job's thread)."""
    state: str = "queued"
    result: dict[str, Any] | None = None
    reason: str | None = None
    process: Any = None
    """The worker process, once the job has a slot (``None`` while it waits)."""
    stopped_for: str | None = None
    """Why the server stopped the worker itself (``memory``), if it did."""
    ended: threading.Event = field(default_factory=threading.Event)
    """Set when the job is over and its worker process, if any, has exited."""

    @property
    def active(self) -> bool:
        return self.state in ("queued", "running")

    def view(self) -> dict[str, Any]:
        """What the API answers about this job."""
        shared = self.stage, self.nodes  # first: a job that is over lets them go
        state = self.state
        if state == "done":
            return {"state": "done", "result": self.result}
        if state in ("queued", "running"):
            stage, nodes = shared
            name = "queued" if state == "queued" else STAGES[stage.value]
            return {"state": "running", "stage": name, "nodes": int(nodes.value)}
        return {"state": state, "reason": self.reason}


class Analyses:
    """The server's analyses, by game id: at most ``workers`` processes at once, at most
        ``per_player`` waiting or running for one player, the ``keep`` newest results kept,
        none longer than ``seconds`` nor bigger than ``megabytes`` of resident memory (the
    solver's tables grow with a long search: a co-op deal can take half a gigabyte a minute,
    and a worker must not starve the server; ``None``: no cap). The searches an analysis
    may leave out (where the game slipped, the best score) get ``best_seconds`` at most
    (``None``: what is left of ``seconds``), and end in time for the rest to be answered."""

    def __init__(
        self,
        workers: int = 2,
        keep: int = 256,
        seconds: float = 300.0,
        megabytes: int | None = 1536,
        best_seconds: float | None = BEST_SECONDS,
        per_player: int = 2,
        context: Literal["spawn", "forkserver"] = "spawn",
        grace: float = GRACE_SECONDS,
    ) -> None:
        self._context: SpawnContext | ForkServerContext = (
            multiprocessing.get_context("forkserver")
            if context == "forkserver"
            else multiprocessing.get_context("spawn")
        )
        self._slots = threading.BoundedSemaphore(workers)
        self._jobs: OrderedDict[str, Job] = OrderedDict()
        self._lock = threading.Lock()
        self.keep = keep
        self.seconds = seconds
        self.megabytes = megabytes
        self.best_seconds = best_seconds
        self.per_player = per_player
        #: how long a cancelled worker has to stop on its own before it is terminated
        self.grace = grace
        self._closed = False

    def get(self, key: str) -> Job | None:
        with self._lock:
            return self._jobs.get(key)

    def busy(self, player: str) -> int:
        """How many analyses this player waits for."""
        with self._lock:
            return sum(1 for job in self._jobs.values() if job.active and player in job.players)

    def start(
        self,
        key: str,
        record: dict[str, Any],
        player: str,
        task: str = "analysis",
        then: Callable[[Job], None] | None = None,
    ) -> Job:
        """The analysis of game ``key`` (or the ``task`` so named): the one running or
        done, else a new one, whose end is told to ``then``."""
        with self._lock:
            job = self._jobs.get(key)
            if job is not None and (job.active or job.state == "done"):
                job.players.add(player)
                self._jobs.move_to_end(key)
                return job
            job = Job(
                key,
                record,
                {player},
                self._context.Event(),
                self._context.Value("q", 0, lock=False),
                self._context.Value("b", 0, lock=False),
                task,
                then,
            )
            self._jobs[key] = job
            self._forget()
        threading.Thread(target=self._run, args=(job,), name=f"analysis {key}", daemon=True).start()
        return job

    def cancel(self, key: str) -> Job | None:
        """Stop the analysis of game ``key`` if it is waiting or running."""
        with self._lock:
            job = self._jobs.get(key)
            if job is None or not job.active:
                return job
            job.cancel.set()
            job.state = "cancelled"
            job.reason = None
        return job

    def close(self) -> None:
        """Cancel everything (the server is stopping) and wait a moment for the workers."""
        self._closed = True
        with self._lock:
            jobs = list(self._jobs.values())
        for job in jobs:
            self.cancel(job.key)
        deadline = time.monotonic() + 2 * self.grace + 1
        for job in jobs:
            job.ended.wait(max(0.0, deadline - time.monotonic()))

    def _forget(self) -> None:
        """Drop the oldest finished jobs beyond ``keep`` (never a waiting or running one)."""
        extra = len(self._jobs) - self.keep
        for key in [key for key, job in self._jobs.items() if not job.active]:
            if extra <= 0:
                break
            del self._jobs[key]
            extra -= 1

    def _run(self, job: Job) -> None:
        try:
            with self._slots:
                with self._lock:
                    if job.cancel.is_set() or self._closed:
                        job.state = "cancelled"
                        return
                    job.state = "running"
                state, payload = self._process(job)
                with self._lock:
                    if job.stopped_for is not None:
                        job.state, job.reason = "failed", job.stopped_for
                    elif job.cancel.is_set():
                        job.state, job.reason = "cancelled", None
                    elif state == "done":
                        job.state, job.result = "done", payload
                    else:
                        job.state, job.reason = state, payload
        finally:
            with self._lock:
                # the worker has exited: its shared event and values can go (the job keeps
                # its state; a job that is over never reads them again)
                job.cancel = job.nodes = job.stage = None
            try:
                if job.then is not None:
                    job.then(job)
            finally:
                job.ended.set()

    def _process(self, job: Job) -> tuple[str, Any]:
        """Run the worker process for ``job`` and wait for its answer."""
        receive, send = self._context.Pipe(duplex=False)
        process = self._context.Process(
            target=_work,
            args=(
                job.task,
                job.record,
                job.cancel,
                job.nodes,
                job.stage,
                send,
                self.seconds,
                self.best_seconds,
            ),
            name=f"scoundrel-{job.task}-{job.key}",
            daemon=True,
        )
        job.process = process
        try:
            process.start()
        except Exception as error:  # pragma: no cover - out of processes or memory
            return "failed", f"error: {type(error).__name__}"
        finally:
            send.close()  # ours: the pipe ends when the worker's copy closes
        cancelled_at: float | None = None
        message: tuple[str, Any] = ("failed", "crashed")
        try:
            while True:
                if receive.poll(0.2):
                    message = receive.recv()
                    break
                if not process.is_alive() and not receive.poll(0):
                    break
                if self.megabytes is not None and not job.cancel.is_set():
                    size = resident_megabytes(process.pid) if process.pid else None
                    if size is not None and size > self.megabytes:
                        job.stopped_for = "memory"  # ask it to stop, as a cancel does
                        job.cancel.set()
                if job.cancel.is_set():
                    cancelled_at = cancelled_at or time.monotonic()
                    if time.monotonic() - cancelled_at > self.grace:
                        process.terminate()  # it did not notice: stop it the hard way
                        message = ("cancelled", None)
                        break
        except (EOFError, OSError):
            pass
        finally:
            receive.close()
        process.join(self.grace)
        if process.is_alive():  # pragma: no cover - sent its answer but hangs on
            process.terminate()
            process.join(self.grace)
        return message
