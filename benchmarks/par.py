"""The par of the dungeons of the day (issue 39): how long working one out takes, solo and
co-op, on the public deals of fixed days (printed, never asserted).

    .venv/bin/python benchmarks/par.py --days 7 --first 2026-12-01
"""

from __future__ import annotations

import argparse
import datetime as dt
import statistics
import time

from scoundrel.core import Rules, State, daily_deal
from scoundrel.solver.par import par


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--days", type=int, default=7)
    parser.add_argument("--first", default="2026-12-01", help="the first day (YYYY-MM-DD)")
    args = parser.parse_args()
    first = dt.date.fromisoformat(args.first)
    for ruleset in ("solo", "coop"):
        rules = Rules.from_options(ruleset)
        seconds = []
        for day in range(args.days):
            date = first + dt.timedelta(days=day)
            started = time.process_time()
            found = par(State.new(rules, daily_deal(rules, date)))
            seconds.append(time.process_time() - started)
            print(
                f"{ruleset} {date}: par {found.score} ({'won' if found.won else 'lost'}), "
                f"winnable {found.winnable}, {seconds[-1]:.1f} s CPU"
            )
        print(
            f"{ruleset}: median {statistics.median(seconds):.1f} s, "
            f"longest {max(seconds):.1f} s CPU over {args.days} days"
        )


if __name__ == "__main__":
    main()
