"""Fair-bot decision times: how long one move decision takes, in CPU time of this process
(the searching bot's goal: median at most 100 ms, p99 at most 2 s, on one core).

    python benchmarks/bot.py                     # 500 strict solo games, seeds 0-499
    python benchmarks/bot.py --level search --games 50
    python benchmarks/bot.py --ruleset coop --games 200

Every move is decided from scratch from the observation (the bots keep nothing between
moves); the figures are given over every move and over the moves that start a room (where
new cards were just dealt and the searching bot has the most to weigh). The win rates
themselves are ``scoundrel bot --level fast|search|learned --games 2000 --jobs 2``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from scoundrel.arena.policies import named
from scoundrel.core import Rules, State, random_deal


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--ruleset", choices=("solo", "coop"), default="solo")
    parser.add_argument("--option", "-o", action="append", default=[])
    parser.add_argument(
        "--level", choices=("fast", "search", "search128", "learned"), default="fast"
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rules = Rules.parse(args.ruleset, args.option)
    bot = named(args.level, rules)
    times: list[float] = []
    starts: list[float] = []
    wins = 0
    for i in range(args.games):
        state = State.new(rules, random_deal(rules, args.seed + i))
        while not state.is_over:
            observation = state.observation(state.leader)
            started = time.process_time()
            move = bot.choose(observation)  # one decision, from scratch
            spent = time.process_time() - started
            times.append(spent)
            if observation.resolved_in_room == 0:
                starts.append(spent)
            state = state.apply(move)
        wins += state.status.value == "won"
    report: dict[str, object] = {"level": args.level, "games": args.games, "won": wins}
    for name, figures in (("every_move", times), ("room_starts", starts)):
        figures.sort()
        report[name] = {
            "decisions": len(figures),
            "median_ms": round(statistics.median(figures) * 1000, 3),
            "p99_ms": round(figures[int(len(figures) * 0.99)] * 1000, 3),
            "max_ms": round(figures[-1] * 1000, 3),
            "total_s": round(sum(figures), 3),
        }
    if args.json:
        print(json.dumps(report))
        return 0
    print(f"{args.level} bot, {rules.ruleset} {rules.options}, {args.games} games ({wins} won):")
    for name in ("every_move", "room_starts"):
        f = report[name]
        assert isinstance(f, dict)
        print(
            f"  {name.replace('_', ' ')}: {f['decisions']:,} decisions, median"
            f" {f['median_ms']:.2f} ms, p99 {f['p99_ms']:.2f} ms, max {f['max_ms']:.2f} ms"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
