"""The par of the dungeon of the day, for the server: worked out in a worker process (the
analyses' workers, :mod:`.analysis`), kept in the database (:mod:`scoundrel.store.pars`),
and shown only where it gives nothing away.

* Today's par is worked out as soon as the day's first player asks about the day, so it is
  ready when the first attempts end; a past day's when someone looks at that day.
* At most one par is worked out at a time by a server process; a day asked about meanwhile
  is answered ``working`` and started when asked again.
* Today's par (and whether the deal can be won) is shown to a player only once their own
  attempt is over: before, it would tell them something of the deal.
"""

from __future__ import annotations

import datetime as _dt
import threading
import time
from collections.abc import Callable
from typing import Any

from scoundrel.core import Record, Rules
from scoundrel.store.pars import DailyPars, KeptPar, ParState

from .analysis import Analyses, Job

#: The pars of the days a server has looked at, kept in memory once done.
KEEP = 64
#: How often one process asks the database whether a day's par needs working out.
RETRY_SECONDS = 20.0


class Pars:
    """The dungeons of the day's pars, as the server's routes ask for them."""

    def __init__(
        self, pars: DailyPars, analyses: Analyses, moment: Callable[[], _dt.datetime]
    ) -> None:
        self.pars = pars
        self.analyses = analyses
        self.moment = moment
        self._done: dict[tuple[str, str, str], KeptPar] = {}
        self._lock = threading.Lock()
        self._working: str | None = None
        """The key of the par this process works out now, if any."""
        self._tried: dict[tuple[str, str], float] = {}
        """When this process last tried to start a day's par (it asks the database at
        most once every :data:`RETRY_SECONDS` for each)."""

    def view(self, date: str, ruleset: str) -> dict[str, Any]:
        """The par of ``date``'s ranked deal: ``done`` with its figures, or ``working`` (its
        work is started if nobody does it yet)."""
        deck = self.pars.deck(date, ruleset)
        known = self._done.get((date, ruleset, deck))
        if known is None:
            known = self.pars.get(date, ruleset)
            if known is not None and known.state is ParState.DONE:
                with self._lock:
                    if len(self._done) >= KEEP:
                        self._done.pop(next(iter(self._done)))
                    self._done[(date, ruleset, deck)] = known
        if known is not None and known.state is ParState.DONE:
            return known.to_dict()
        self.start(date, ruleset)
        return {"state": str(ParState.WORKING)}

    def start(self, date: str, ruleset: str) -> bool:
        """Work out ``date``'s par in a worker, if this process is free to and nobody has
        it in hand; true if it started."""
        with self._lock:
            if self._working is not None:
                return False
            tried = self._tried.get((date, ruleset))
            if tried is not None and time.monotonic() - tried < RETRY_SECONDS:
                return False
            if len(self._tried) >= KEEP:
                self._tried.pop(next(iter(self._tried)))
            self._tried[(date, ruleset)] = time.monotonic()
            moment = self.moment()
            if not self.pars.claim(date, ruleset, moment):
                return False
            # a key of its own: a job kept from an earlier claim is never answered instead
            key = self._working = f"par:{date}:{ruleset}:{moment.isoformat()}"
        rules = Rules.from_options(ruleset)
        record = Record(rules, self.pars.deal(date, ruleset), ()).to_dict()
        self.analyses.start(
            key, record, "server", task="par", then=lambda job: self._over(job, date, ruleset)
        )
        return True

    def _over(self, job: Job, date: str, ruleset: str) -> None:
        try:
            if job.state == "done" and job.result is not None:
                self.pars.keep(date, ruleset, job.result)
            elif job.state == "cancelled":
                self.pars.release(date, ruleset)
            else:
                self.pars.fail(date, ruleset)
        finally:
            with self._lock:
                self._working = None
                self._tried.pop((date, ruleset), None)
