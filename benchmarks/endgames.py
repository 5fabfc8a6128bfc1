"""Where fair play ends: in the small endgames the searching bot reaches, how many orders of
the unseen cards the best fair player wins, beside perfect information and the bots.

    python benchmarks/endgames.py                  # 200 held-out strict solo deals
    python benchmarks/endgames.py --player fast --json

The searching bot (or with ``--player fast`` the fast bot) plays held-out deals (seeds
from 1,000,000,000, never used for tuning). At every room start it reaches with 2 to 6
unseen cards and at most 13 cards left in the dungeon (``--unseen``, ``--cards``; by
default where the searching bot works the position out exactly with
:mod:`scoundrel.solver.endgame`), every order
of the unseen cards is weighed, as distinct cards, each as likely as the others (S1):

* ``perfect``: the orders the solver wins, reading each order (no player can);
* ``fair``: the orders the best fair player wins, by exact expectimax over what a player
  sees (:class:`~scoundrel.solver.endgame.Endgame`): no fair player, of any skill, wins
  more;
* ``playouts``: the orders the searching bot's way wins with best fair play after it, when
  it chooses by playouts (``SearchBot(endgame=False)``, as it did before it played
  endgames exactly);
* ``fast``: the orders the fast bot wins, playing each order out from the position.

The gap between ``perfect`` and ``fair`` is information no fair player has; it is lost
whatever the skill. Figures are shares of orders, averaged over the positions. Where there
are more than ``--orders`` orders (5,040: seven unseen cards), ``perfect``, ``playouts``
and ``fast`` are measured on that many drawn at random; ``fair`` is always exact.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import random
import time
from collections import defaultdict
from collections.abc import Sequence

from scoundrel.core import Move, Rules, State, Status, random_deal
from scoundrel.solver import Bot, SearchBot, play_game, solve
from scoundrel.solver.bot import Seen
from scoundrel.solver.endgame import Endgame

HELD_OUT = 1_000_000_000


def orders_of(state: State, most: int) -> list[State]:
    """``state`` with its unseen cards in every order, or in ``most`` orders drawn at random
    (seeded by the position) when there are more."""
    hidden = len(state.observation(state.leader).unseen)
    if math.factorial(hidden) <= most:
        orders = list(itertools.permutations(range(hidden)))
    else:
        rng = random.Random(repr(state.observation(state.leader)))
        orders = [tuple(rng.sample(range(hidden), hidden)) for _ in range(most)]
    return [state.in_order(order) for order in orders]


def won_after(states: list[State], moves: Sequence[Move], endgame: Endgame) -> float:
    """The share of ``states`` (orders of one position) won by playing ``moves`` (the rest
    of the room, or a flee) and then as well as a fair player can: each position after them
    is worth the endgame's chance of what a player sees there."""
    won = 0.0
    for s in states:
        for move in moves:
            s = s.apply(move)
            if s.is_over:
                break
        if s.is_over:
            won += s.status is Status.WON
        else:
            seen = Seen.of(s.observation(s.leader))
            won += endgame.best(seen)[0] / endgame.orders(seen)
    return won / len(states)


def weigh(state: State, most: int) -> dict[str, float]:
    """The four shares of orders won from ``state`` (see the module's docstring), the
    perfect-information and fast bot's over at most ``most`` orders."""
    observation = state.observation(state.leader)
    seen = Seen.of(observation)
    endgame = Endgame(state.rules)
    fair, _ = endgame.best(seen)
    states = orders_of(state, most)
    playouts = won_after(states, SearchBot(endgame=False).plan(observation).moves, endgame)
    perfect = sum(solve(s).winnable for s in states)
    fast = sum(play_game(Bot(), s).status is Status.WON for s in states)
    return {
        "perfect": perfect / len(states),
        "fair": fair / endgame.orders(seen),
        "playouts": playouts,
        "fast": fast / len(states),
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=HELD_OUT)
    parser.add_argument("--player", choices=("search", "fast"), default="search")
    parser.add_argument("--unseen", type=int, default=6, help="at most this many unseen")
    parser.add_argument("--cards", type=int, default=13, help="at most this many left")
    parser.add_argument(
        "--orders", type=int, default=5040, help="orders sampled when there are more"
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    rules = Rules.solo()
    bot = SearchBot() if args.player == "search" else Bot()
    rows: dict[int, list[dict[str, float]]] = defaultdict(list)
    started = time.perf_counter()
    for i in range(args.games):
        state = State.new(rules, random_deal(rules, args.seed + i))
        while not state.is_over:
            observation = state.observation(state.leader)
            seen = Seen.of(observation)
            few = 2 <= len(seen.unseen) <= args.unseen
            if seen.taken == 0 and few and len(seen.unseen) + len(seen.bottom) <= args.cards:
                rows[len(seen.unseen)].append(weigh(state, args.orders))
            for move in bot.plan(observation).moves:
                state = state.apply(move)
                if state.is_over:
                    break
    table = []
    for unseen in sorted(rows):
        found = rows[unseen]
        line: dict[str, float | int] = {"unseen": unseen, "positions": len(found)}
        for name in ("perfect", "fair", "playouts", "fast"):
            line[name] = round(100 * sum(r[name] for r in found) / len(found), 1)
        table.append(line)
    every = [r for found in rows.values() for r in found]
    if every:
        line = {"unseen": 0, "positions": len(every)}
        for name in ("perfect", "fair", "playouts", "fast"):
            line[name] = round(100 * sum(r[name] for r in every) / len(every), 1)
        table.append(line)
    report = {
        "player": args.player,
        "games": args.games,
        "seed": args.seed,
        "seconds": round(time.perf_counter() - started, 1),
        "table": table,
    }
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    print(
        f"{args.games} held-out deals from seed {args.seed} played by the {args.player} bot,"
        f" {report['seconds']} s"
    )
    print(f"{'unseen':>7} {'positions':>9} {'perfect':>8} {'fair':>6} {'playouts':>9} {'fast':>6}")
    for line in table:
        name = "all" if line["unseen"] == 0 else str(line["unseen"])
        print(
            f"{name:>7} {line['positions']:>9} {line['perfect']:>7}% {line['fair']:>5}%"
            f" {line['playouts']:>8}% {line['fast']:>5}%"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
