"""The par of each dungeon of the day, kept once worked out.

The par (:mod:`scoundrel.solver.par`) takes seconds to a minute of CPU, so it is worked out
once per day and ruleset, by whichever server process claims it first: a claim is a row in
``working``, taken with one ``INSERT`` (or, for a claim left by a process that stopped, a
compare-and-set ``UPDATE``), so several servers over one database never work out the same
par twice at once. A par is kept with the deal it is of: if the server's deal of the day
changes (another daily secret), the old par is not shown for it.
"""

from __future__ import annotations

import datetime as _dt
import enum
from dataclasses import dataclass
from typing import Any

from sqlalchemy import and_, insert, select, update
from sqlalchemy.exc import IntegrityError

from scoundrel.core import Card, Rules, daily_deal, format_cards

from .database import aware, daily_pars, now
from .games import GameStore

#: A claim older than this was left by a process that stopped: another may take it over.
STALE_CLAIM = _dt.timedelta(minutes=10)
#: A par that failed is tried again after this long.
RETRY_FAILED = _dt.timedelta(hours=1)


class ParState(enum.StrEnum):
    WORKING = "working"
    DONE = "done"
    FAILED = "failed"


@dataclass(frozen=True)
class KeptPar:
    """A day's par as the database has it."""

    state: ParState
    score: int | None
    won: bool | None
    winnable: bool | None
    claimed_at: _dt.datetime

    def to_dict(self) -> dict[str, Any]:
        if self.state is not ParState.DONE:
            return {"state": str(self.state)}
        return {
            "state": str(self.state),
            "score": self.score,
            "won": self.won,
            "winnable": self.winnable,
        }


def _day(date: str, ruleset: str) -> Any:
    """The condition of that day's row (one per day and ruleset)."""
    return and_(daily_pars.c.daily_date == date, daily_pars.c.ruleset == ruleset)


class DailyPars:
    """The pars of ``store``'s dungeons of the day."""

    def __init__(self, store: GameStore) -> None:
        self.store = store

    def deal(self, date: str, ruleset: str) -> tuple[Card, ...]:
        """The server's own deal of the day (the ranked one)."""
        return daily_deal(Rules.from_options(ruleset), date, self.store.daily_secret)

    def deck(self, date: str, ruleset: str) -> str:
        """:meth:`deal` in notation, as the database keeps it."""
        return format_cards(self.deal(date, ruleset))

    def get(self, date: str, ruleset: str) -> KeptPar | None:
        """The par of that day's ranked deal, as far as it is worked out."""
        with self.store.engine.connect() as connection:
            row = connection.execute(select(daily_pars).where(_day(date, ruleset))).first()
        if row is None or row.deck != self.deck(date, ruleset):
            return None
        return KeptPar(ParState(row.state), row.score, row.won, row.winnable, aware(row.claimed_at))

    def claim(self, date: str, ruleset: str, moment: _dt.datetime | None = None) -> bool:
        """Take the work of that day's par, unless it is done or another process works on
        it; true if this caller now has it to do (and :meth:`keep` or :meth:`fail` next)."""
        moment = moment or now()
        deck = self.deck(date, ruleset)
        claim = {"deck": deck, "state": ParState.WORKING, "claimed_at": moment}
        claim.update(score=None, won=None, winnable=None, finished_at=None)
        try:
            with self.store.engine.begin() as connection:
                connection.execute(
                    insert(daily_pars).values(daily_date=date, ruleset=ruleset, **claim)
                )
            return True
        except IntegrityError:
            pass
        with self.store.engine.begin() as connection:
            row = connection.execute(select(daily_pars).where(_day(date, ruleset))).first()
            if row is None:  # pragma: no cover - deleted meanwhile: claim it next time
                return False
            age = moment - aware(row.claimed_at)
            other_deal = row.deck != deck
            if not other_deal and (
                row.state == ParState.DONE
                or (row.state == ParState.WORKING and age < STALE_CLAIM)
                or (row.state == ParState.FAILED and age < RETRY_FAILED)
            ):
                return False
            # compare-and-set: only if nobody took it over since it was read
            taken = connection.execute(
                update(daily_pars)
                .where(
                    _day(date, ruleset),
                    daily_pars.c.claimed_at == row.claimed_at,
                    daily_pars.c.state == row.state,
                )
                .values(**claim)
            )
            return taken.rowcount == 1

    def keep(self, date: str, ruleset: str, par: dict[str, Any]) -> None:
        """Keep the par worked out for that day (``Par.to_dict()``)."""
        self._finish(date, ruleset, ParState.DONE, par["score"], par["won"], par["winnable"])

    def fail(self, date: str, ruleset: str) -> None:
        """The par could not be worked out (it is tried again later)."""
        self._finish(date, ruleset, ParState.FAILED, None, None, None)

    def release(self, date: str, ruleset: str) -> None:
        """Give up a claim (the server is stopping): another process may take it at once."""
        with self.store.engine.begin() as connection:
            connection.execute(
                update(daily_pars)
                .where(_day(date, ruleset), daily_pars.c.state == ParState.WORKING)
                .values(claimed_at=_dt.datetime(2000, 1, 1, tzinfo=_dt.UTC))
            )

    def _finish(
        self,
        date: str,
        ruleset: str,
        state: ParState,
        score: int | None,
        won: bool | None,
        winnable: bool | None,
    ) -> None:
        with self.store.engine.begin() as connection:
            connection.execute(
                update(daily_pars)
                .where(_day(date, ruleset), daily_pars.c.deck == self.deck(date, ruleset))
                .values(
                    state=state,
                    score=score,
                    won=won,
                    winnable=winnable,
                    finished_at=now(),
                    # a failure is retried from the moment it failed
                    **({"claimed_at": now()} if state is ParState.FAILED else {}),
                )
            )
