"""The par of a deal (:mod:`scoundrel.solver.par`): the fair searching bot's game on it, and
whether it can be won seeing every card."""

from __future__ import annotations

import pytest

from scoundrel.core import Rules, State, Status, daily_deal
from scoundrel.solver import Cancelled, solve
from scoundrel.solver.bot import RandomPlayer, play_game
from scoundrel.solver.par import par

DAY = "2026-12-01"


def test_the_par_is_the_fair_bots_game_and_the_solvers_answer() -> None:
    state = State.new(Rules.solo(), daily_deal(Rules.solo(), DAY))
    stages: list[str] = []
    found = par(state, bot=RandomPlayer(), progress=lambda stage, _n: stages.append(stage))
    moves: list[State] = []
    end = play_game(RandomPlayer(), state, moves.append)
    assert (found.score, found.won) == (end.score, end.status is Status.WON)
    assert found.winnable == solve(state).winnable
    assert stages == sorted(stages, key=("win", "par").index)  # the solver, then the bot
    assert stages.count("par") == len(moves) + 1  # once as the bot starts, then each move


def test_the_par_is_the_same_every_time() -> None:
    state = State.new(Rules.solo(), daily_deal(Rules.solo(), DAY))
    assert par(state) == par(state)


def test_a_deal_the_solver_cannot_decide_in_time_is_undecided() -> None:
    state = State.new(Rules.coop(), daily_deal(Rules.coop(), DAY))
    assert par(state, solve_seconds=0.0, bot=RandomPlayer()).winnable is None


def test_cancel_stops_the_par_at_every_stage() -> None:
    state = State.new(Rules.solo(), daily_deal(Rules.solo(), DAY))
    with pytest.raises(Cancelled):
        par(state, cancel=lambda: True)
    seen: list[str] = []

    def cancel() -> bool:
        return "par" in seen  # only once the bot plays

    with pytest.raises(Cancelled):
        par(state, cancel=cancel, progress=lambda stage, _n: seen.append(stage))
