"""Hints for the web server, worked out in processes of their own.

A hint is the searching bot's advice (:func:`scoundrel.solver.hint`): a fraction of a
second for a solo position, seconds of pure-Python CPU for a co-op one. Worked out in the
server's own process it held Python's lock and a thread of the pool that answers requests,
and one player asking for hints as fast as the limits allowed slowed every other player's
moves a hundredfold. Here each hint goes to one of a few worker processes (``spawn``ed
once, kept, at a lower scheduling priority), and the request only waits for the answer:

* **shares**: at most ``per_player`` hints in flight for one player (more: 429
  ``hint_waiting``), at most ``workers + waiting`` in all (more: 503 ``hints_busy``, with
  Retry-After); a hint that cannot start within its deadline is answered the same way;
* **deadline**: a hint has ``seconds`` from the request, queue included; a worker past it
  stops its search (503 ``hint_timeout``);
* **cancellation**: a request whose client went away stops its worker's search at once
  (a shared flag the bot polls), and a worker that does not stop is replaced.

The worker sees the leader's observation only, as every hint does: never the deck order.
This module imports nothing of the web framework: the worker process imports it to run
:func:`_serve`.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import multiprocessing
import os
import time
from collections.abc import Awaitable, Callable
from multiprocessing.connection import Connection
from typing import Any

from scoundrel.core import Observation

from .limits import RateLimited

#: How long a cancelled worker may take to stop before it is replaced.
GRACE_SECONDS = 2.0
#: How often a waiting request looks at its worker, its deadline and its client.
LOOK_SECONDS = 0.02


class HintsBusy(RateLimited):
    """Every hint worker is taken and the waiting line is full (or the hint's time ran
    out): 503, try again in ``retry_after`` seconds."""

    code = "hints_busy"
    status = 503


def _serve(orders: Connection, cancel: Any, playouts: int | None) -> None:
    """A worker process: for each observation it is sent, the advice (or why not)."""
    from scoundrel.solver import Cancelled, SearchBot, hint

    if hasattr(os, "nice"):  # players' moves come first
        with contextlib.suppress(OSError):
            os.nice(10)
    bot = None if playouts is None else SearchBot(playouts=playouts)
    while True:
        try:
            observation, seconds = orders.recv()
        except (EOFError, OSError):  # the server went away
            return
        deadline = time.monotonic() + seconds

        def stop(until: float = deadline) -> bool:
            return bool(cancel.value) or time.monotonic() > until

        try:
            orders.send(("done", hint(observation, bot=bot, cancel=stop).to_dict()))
        except Cancelled:
            orders.send(("cancelled" if cancel.value else "timeout", None))
        except Exception as error:  # pragma: no cover - the bot checks its own moves
            orders.send(("failed", type(error).__name__))


class _Worker:
    """One worker process and the pipe to it."""

    def __init__(self, context: Any, playouts: int | None) -> None:
        self.orders, theirs = context.Pipe()
        self.cancel = context.Value("b", 0, lock=False)
        self.process = context.Process(
            target=_serve, args=(theirs, self.cancel, playouts), daemon=True, name="hint"
        )
        self.process.start()
        theirs.close()

    @property
    def alive(self) -> bool:
        return bool(self.process.is_alive())

    def stop(self) -> None:
        with contextlib.suppress(Exception):
            self.orders.close()
        if self.process.is_alive():
            self.process.terminate()
            self.process.join(GRACE_SECONDS)
            if self.process.is_alive():  # pragma: no cover - terminate is enough
                self.process.kill()
                self.process.join(GRACE_SECONDS)


class Hints:
    """The server's hint workers: ``workers`` processes (started when the first hint is
    asked for), ``waiting`` more hints queued at most, ``per_player`` in flight for one
    player, each hint done within ``seconds`` of its request. ``playouts`` sets the bot's
    playouts (``None``: the browser's default advice)."""

    def __init__(
        self,
        workers: int = 1,
        waiting: int = 4,
        per_player: int = 1,
        seconds: float = 20.0,
        playouts: int | None = None,
    ) -> None:
        if workers < 1 or waiting < 0 or per_player < 1 or seconds <= 0:
            raise ValueError("hints need a worker, a queue of 0 or more, a share and a time")
        self.workers = workers
        self.waiting = waiting
        self.per_player = per_player
        self.seconds = seconds
        self.playouts = playouts
        self._context = multiprocessing.get_context("spawn")
        self._idle: asyncio.Queue[_Worker] | None = None
        self._all: list[_Worker] = []
        self._in_flight = 0
        self._players: dict[str, int] = {}
        self._recent = 1.0
        """How long a hint took lately (seconds): what Retry-After tells a refused one."""

    # ------------------------------------------------------------------ shares

    def _wait_hint(self) -> int:
        """Whole seconds after which a refused hint may find a worker free."""
        return max(1, math.ceil(self._recent * (self._in_flight / self.workers)))

    def _admit(self, player: str) -> None:
        if self._players.get(player, 0) >= self.per_player:
            raise RateLimited(
                "your last hint is still being worked out: nothing was done; wait for it",
                1,
                {"wait": 1},
                code="hint_waiting",
            )
        if self._in_flight >= self.workers + self.waiting:
            wait = self._wait_hint()
            raise HintsBusy(
                f"every hint worker is busy: nothing was done; try again in {wait} s",
                wait,
                {"wait": wait},
            )
        self._in_flight += 1
        self._players[player] = self._players.get(player, 0) + 1

    def _release(self, player: str) -> None:
        self._in_flight -= 1
        left = self._players.get(player, 1) - 1
        if left:
            self._players[player] = left
        else:
            self._players.pop(player, None)

    # ------------------------------------------------------------------ workers

    def _pool(self) -> asyncio.Queue[_Worker]:
        if self._idle is None:
            self._idle = asyncio.Queue()
            for _ in range(self.workers):
                worker = _Worker(self._context, self.playouts)
                self._all.append(worker)
                self._idle.put_nowait(worker)
        return self._idle

    def _replace(self, worker: _Worker) -> _Worker:
        worker.stop()
        fresh = _Worker(self._context, self.playouts)
        self._all = [fresh if each is worker else each for each in self._all]
        return fresh

    async def ask(
        self,
        player: str,
        observation: Observation,
        gone: Callable[[], Awaitable[bool]] | None = None,
    ) -> dict[str, Any]:
        """The advice for ``observation``, worked out by a worker for ``player``. ``gone``
        says whether the asker went away (the search then stops). Raises
        :class:`RateLimited` or :class:`HintsBusy` as the module says."""
        self._admit(player)
        try:
            deadline = time.monotonic() + self.seconds
            try:
                worker = await asyncio.wait_for(self._pool().get(), self.seconds)
            except TimeoutError:
                wait = self._wait_hint()
                raise HintsBusy(
                    f"every hint worker stayed busy: nothing was done; try again in {wait} s",
                    wait,
                    {"wait": wait},
                ) from None
            state, payload = await self._run(worker, observation, deadline, gone)
        finally:
            self._release(player)
        if state == "done":
            advice: dict[str, Any] = payload
            return advice
        wait = self._wait_hint()
        if state == "cancelled":  # nobody is left to read this answer
            raise HintsBusy("the hint was stopped: its asker went away", wait, code="hint_stopped")
        if state == "failed":
            raise HintsBusy(
                f"the hint could not be worked out: try again in {wait} s",
                wait,
                {"wait": wait},
                code="hint_failed",
            )
        raise HintsBusy(
            f"the hint took longer than {self.seconds:g} s and was stopped: try again in {wait} s",
            wait,
            {"wait": wait, "seconds": self.seconds},
            code="hint_timeout",
        )

    async def _run(
        self,
        worker: _Worker,
        observation: Observation,
        deadline: float,
        gone: Callable[[], Awaitable[bool]] | None,
    ) -> tuple[str, Any]:
        """Hand ``observation`` to ``worker`` and wait for its answer: ``(state,
        payload)``. The worker goes back to the pool once it has answered (a new one in
        its place if it cannot)."""
        started = time.monotonic()
        answered = False
        try:
            worker.cancel.value = 0
            try:
                worker.orders.send((observation, max(0.1, deadline - started)))
            except OSError:  # the worker died between two hints: a new one
                return "failed", None
            looked = started
            while not worker.orders.poll():
                await asyncio.sleep(LOOK_SECONDS)
                moment = time.monotonic()
                if moment - looked >= 0.25:
                    looked = moment
                    if not worker.alive:  # pragma: no cover - a worker killed from outside
                        return "failed", None
                    if gone is not None and await gone():
                        return "cancelled", None
                    if moment > deadline + GRACE_SECONDS:  # pragma: no cover - it stops itself
                        return "timeout", None
            try:
                state, payload = worker.orders.recv()
            except (EOFError, OSError):  # the worker died with the hint: a new one
                return "failed", None
            answered = True
        finally:
            if answered:
                self._pool().put_nowait(worker)
            else:  # stopped midway (or the request itself was cancelled): stop its search
                worker.cancel.value = 1
                asyncio.get_running_loop().create_task(self._drain(worker))
        if state == "done":
            self._recent = 0.8 * self._recent + 0.2 * (time.monotonic() - started)
        return str(state), payload

    async def _drain(self, worker: _Worker) -> None:
        """Wait for a stopped worker's last answer, then put it back (or a new one)."""
        until = time.monotonic() + GRACE_SECONDS
        while time.monotonic() < until and worker.alive:
            if worker.orders.poll():
                with contextlib.suppress(EOFError, OSError):
                    worker.orders.recv()
                    self._pool().put_nowait(worker)
                    return
            await asyncio.sleep(LOOK_SECONDS)
        self._pool().put_nowait(await asyncio.to_thread(self._replace, worker))

    def close(self) -> None:
        for worker in self._all:
            worker.stop()
        self._all = []
        self._idle = None
