"""Exact fair play in small endgames (:mod:`scoundrel.solver.endgame`): its values are what
the rules core gives for the best play over what a player sees, worked out here
independently by brute force over :class:`~scoundrel.core.State` (every order of the unseen
cards, every legal move, the positions a player cannot tell apart kept together); no fair
player beats it, the fast bot never does better, and perfect information never does worse."""

from __future__ import annotations

import itertools
import json
import math
import runpy
from collections.abc import Iterator
from pathlib import Path

import pytest
from solver_support import COOP, COOP_EASIER, DUNGEON_ONLY, LENIENT, SOLO, walk

from scoundrel.core import Move, Observation, Rules, State, Status
from scoundrel.solver import Bot, SearchBot, play_game, solve
from scoundrel.solver.bot import Seen
from scoundrel.solver.endgame import Endgame, TooBig, fits

RELENTLESS = Rules.solo(flee="never")
FRAIL = Rules.solo(health=14)


def every_order(state: State) -> list[State]:
    """``state`` with its unseen cards in every order (as distinct cards): the positions a
    player who sees ``state`` cannot tell apart, each as likely as the others (S1)."""
    hidden = len(state.observation(state.leader).unseen)
    return [state.in_order(order) for order in itertools.permutations(range(hidden))]


def fair_value(states: tuple[State, ...]) -> tuple[int, int]:
    """The brute-force value of an information set (positions one observation stands for,
    each as likely): the most games a player who sees only the observation wins, then the
    highest sum of scores, as (games won, sum of scores) over the positions."""
    return _fair(states)


_memo: dict[object, tuple[int, int]] = {}


def _fair(states: tuple[State, ...]) -> tuple[int, int]:
    first = states[0]
    if first.is_over:
        return (
            sum(s.status is Status.WON for s in states),
            sum(s.score or 0 for s in states),
        )
    key = (first.observation(first.leader), tuple(s.dungeon for s in states))
    known = _memo.get(key)
    if known is not None:
        return known
    best: tuple[int, int] | None = None
    for move in first.legal_moves:
        groups: dict[Observation, list[State]] = {}
        for state in states:
            after = state.apply(move)
            groups.setdefault(after.observation(after.leader), []).append(after)
        won = total = 0
        for group in groups.values():
            w, t = _fair(tuple(group))
            won += w
            total += t
        best = (won, total) if best is None else max(best, (won, total))
    assert best is not None
    _memo[key] = best
    return best


class Staying(Bot):
    """The fast bot, but it never flees: its games reach their last rooms with cards still
    unseen (fled rooms go under the dungeon, so a bot that flees often knows every card
    left by the end)."""

    def choose(self, observation: Observation) -> Move:
        move = super().choose(observation)
        if move.is_flee:
            return next(m for m in observation.legal_moves if not m.is_flee)
        return move


def endgames(rules: Rules, seeds: range, most: int, cards: int) -> Iterator[State]:
    """Positions of games with 2 to ``most`` unseen cards and at most ``cards`` cards left
    in the dungeon, one a game, with 0, 1 or 2 cards of the room resolved by turns."""
    for seed in seeds:
        for state, _ in walk(rules, seed, randomness=0.05, bot=Staying()):
            if state.is_over:
                break
            seen = state.observation(state.leader)
            few = 2 <= len(seen.unseen) <= most and state.dungeon_count <= cards
            if few and state.resolved_in_room == seed % 3:
                yield state
                break


def coop_endgames(rules: Rules, seeds: range, cards: int) -> Iterator[State]:
    """Co-op positions with at most ``cards`` cards left, every one of them known where it
    lies (at most one unseen), one a game. The fast bot seldom lives so long in co-op, and
    its flees put most of the dungeon in view: from 28 cards left its game follows the
    solver's line."""
    for seed in seeds:
        for state, _ in walk(rules, seed, randomness=0.05):
            if state.is_over:
                break
            if state.dungeon_count <= 28:
                for late in _along(state, solve(state).line):
                    if late.is_over:
                        break
                    few = late.dungeon_count <= cards and late.resolved_in_room == seed % 3
                    if few and len(late.observation(late.leader).unseen) <= 1:
                        yield late
                        break
                break


def _along(state: State, line: tuple[Move, ...]) -> Iterator[State]:
    yield state
    for move in line:
        state = state.apply(move)
        yield state


@pytest.mark.parametrize(
    "rules",
    [SOLO, LENIENT, DUNGEON_ONLY, RELENTLESS, FRAIL],
    ids=["solo", "lenient", "dungeon-only", "relentless", "frail-14"],
)
def test_the_endgame_is_the_brute_force_fair_optimum(rules: Rules) -> None:
    """Endgame.best equals the best a player who sees only observations can do, worked out
    over the rules core: the chance exactly, and the mean score among the best chances
    (dealing S3, the final room S4, fleeing S5 with its cards known under the dungeon and
    never twice in a row, no fleeing at all V1, potions S10, the weapon S9, scores S13, full
    health V2)."""
    checked = 0
    for state in endgames(rules, range(200), 4, 6):
        _memo.clear()
        observation = state.observation(state.leader)
        seen = Seen.of(observation)
        endgame = Endgame(rules)
        assert endgame.orders(seen) == math.factorial(len(seen.unseen))
        assert endgame.best(seen) == fair_value(tuple(every_order(state)))
        checked += 1
        if checked == 6:
            break
    assert checked >= 4


def test_the_fair_optimum_lies_between_the_fast_bot_and_perfect_information() -> None:
    """No fair player wins more orders than perfect information (the solver reads each
    order), and the fast bot, a fair player, wins no more than the best fair play; with one
    unseen card or none the order is known, so the two optima agree."""
    compared = 0
    for state in endgames(SOLO, range(400), 5, 10):
        won, _ = Endgame(SOLO).best(Seen.of(state.observation(state.leader)))
        orders = every_order(state)
        perfect = sum(solve(s).winnable for s in orders)
        fast = sum(play_game(Bot(), s).status is Status.WON for s in orders)
        assert fast <= won <= perfect
        compared += 1
    assert compared >= 20
    known = 0
    for seed in range(20):
        for state, _ in walk(SOLO, seed, randomness=0.2):
            if not state.is_over and len(state.observation(state.leader).unseen) <= 1:
                won, _ = Endgame(SOLO).best(Seen.of(state.observation(state.leader)))
                assert won == solve(state).winnable
                known += 1
    assert known >= 50


@pytest.mark.parametrize(
    "rules", [COOP, COOP_EASIER, Rules.coop(first_leader=2)], ids=["coop", "easier", "leader-2"]
)
def test_co_op_endgames_with_every_card_known_are_the_solver_s(rules: Rules) -> None:
    """In co-op the endgame's value, with the order known, is the co-op solver's: won or
    not, and the best score (the leader passing on after a faced room but not after a
    flee C3, the help card C5, one potion a hero a room C6, the weapons C7, the final room
    C9, the score C10, the 50-card game C11). Where cards are hidden it deals as in solo
    (the brute-force test above)."""
    checked = 0
    for state in coop_endgames(rules, range(16), 9):
        seen = Seen.of(state.observation(state.leader))
        found = solve(state, best=True)
        assert Endgame(rules).best(seen) == (int(found.winnable), found.best_score)
        checked += 1
    assert checked >= 4


def test_it_reads_only_the_observation() -> None:
    """Two positions a player cannot tell apart (the unseen cards in other orders) have one
    value: the endgame is given what a player sees and nothing else."""
    for state in endgames(SOLO, range(30), 5, 8):
        values = {Endgame(SOLO).best(Seen.of(s.observation(s.leader))) for s in every_order(state)}
        assert len(values) == 1


def test_fits_and_budget() -> None:
    """The searching bot plays exactly only where the endgame is small (solo, few unseen
    cards; co-op rooms have too many ways through); past its budget the endgame stops with
    TooBig rather than run on."""
    state = next(endgames(SOLO, range(100), 6, 13))
    seen = Seen.of(state.observation(state.leader))
    assert fits(seen)
    early = Seen.of(State.new(SOLO, state.rules.cards).observation(1))
    assert not fits(early)
    with pytest.raises(TooBig):
        Endgame(SOLO, budget=1).best(seen)
    coop = next(coop_endgames(COOP, range(20), 9))
    assert not fits(Seen.of(coop.observation(coop.leader)))


def test_the_searching_bot_plays_small_endgames_exactly() -> None:
    """Where the endgame fits, every way the searching bot weighs (each first move's best
    included, for hints) is exact, counted over every order of the unseen cards, and its
    value is the brute-force fair value of playing that way and then as well as can be;
    the bot plays the best of them, which is the fair optimum of the position."""
    checked = 0
    for state in endgames(SOLO, range(200), 4, 6):
        _memo.clear()
        observation = state.observation(state.leader)
        search = SearchBot().search(observation, every_move=True)
        orders = every_order(state)
        assert {e.games for e in search.estimates} == {len(orders)}
        assert all(e.exact for e in search.estimates)
        assert {m for m in observation.legal_moves if search.of(m) is None} == set()
        for estimate in search.estimates:
            after = list(orders)
            for move in estimate.moves:
                after = [s.apply(move) if not s.is_over else s for s in after]
            groups: dict[Observation, list[State]] = {}
            for s in after:
                groups.setdefault(s.observation(s.leader), []).append(s)
            won = total = 0
            for group in groups.values():
                w, t = fair_value(tuple(group))
                won, total = won + w, total + t
            assert (estimate.wins, estimate.total_score) == (won, total)
        assert (search.best.wins, search.best.total_score) == fair_value(tuple(orders))
        assert SearchBot().plan(observation).moves == search.best.moves
        checked += 1
        if checked == 6:
            break
    assert checked >= 4


def test_the_endgames_benchmark_orders_its_columns(capsys: pytest.CaptureFixture[str]) -> None:
    """benchmarks/endgames.py, on a few held-out deals: over every order, no fair player
    (the searching bot's choice by playouts, the fast bot) wins more than the exact fair
    optimum, which wins no more than perfect information."""
    path = Path(__file__).parents[2] / "benchmarks" / "endgames.py"
    module = runpy.run_path(str(path))
    assert module["main"](["--games", "12", "--player", "fast", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["table"], "no endgame reached"
    for row in report["table"]:
        assert row["fast"] <= row["fair"] <= row["perfect"]
        assert row["playouts"] <= row["fair"]
    assert report["table"][-1]["positions"] == sum(r["positions"] for r in report["table"][:-1])
