"""Post-game analysis on games whose answer is known by construction: a game that follows
the solver's best line never slips; a game that leaves it with a losing move slips exactly
there (S13 scores, judged by the solver and replayed through the core)."""

from __future__ import annotations

import functools
import itertools
import random
from typing import Any

import pytest
from solver_support import (
    COOP,
    LENIENT,
    SOLO,
    Budget,
    along_line,
    along_line_moves,
    late_position,
    play,
    replay_end,
)

from scoundrel.core import Move, Rules, State, Status, random_deal
from scoundrel.solver import Analysis, Bot, Cancelled, Slip, analyse, solve
from scoundrel.solver import analysis as analysis_module


def start_of(rules: Rules, seed: int) -> State:
    return State.new(rules, random_deal(rules, seed))


@functools.cache
def best_line(rules: Rules, seed: int) -> tuple[int, tuple[Move, ...]]:
    solution = solve(start_of(rules, seed), best=True, cancel=Budget(100))
    assert solution.best_score is not None
    return solution.best_score, solution.line


def bare_biggest(state: State) -> Move | None:
    """Fight the room's biggest monster bare-handed (S8), if that is a move here."""
    monsters = [c for c in state.room if c.is_monster]
    if not monsters:
        return None
    biggest = max(monsters, key=lambda c: c.value)
    move = Move(f"{biggest.code}/b")
    return move if move in state.legal_moves else None


@functools.cache
def slipped_game(seed: int) -> tuple[int, tuple[Move, ...], int, int]:
    """A game of solo deal ``seed`` that follows the best line, then at move ``index`` (from
    0) fights the biggest monster bare-handed where the solver says that lowers the best
    reachable score, then plays the best line from there to the end. Returns (index, moves,
    best score before, best score after the slip)."""
    best, line = best_line(SOLO, seed)
    state = start_of(SOLO, seed)
    states = [state]
    for move in line:
        states.append(states[-1].apply(move))
    for index in range(len(line) // 2, len(line)):
        before = states[index]
        slip = bare_biggest(before)
        if slip is None or slip is line[index]:
            continue
        after = before.apply(slip)
        if after.is_over:
            continue
        rest = solve(after, best=True)
        assert rest.best_score is not None
        if rest.best_score < best:
            return index, (*line[:index], slip, *rest.line), best, rest.best_score
    raise AssertionError(f"no losing bare-handed fight on the best line of deal {seed}")


def check_analysis_shape(analysis: Analysis, start: State) -> None:
    data = analysis.to_dict()
    assert data.keys() == {
        "winnable",
        "best_score",
        "best_line",
        "line_score",
        "score",
        "moves",
        "slip",
        "win_slip",
        "stopped_after",
        "nodes",
        "seconds",
        "review",
    }
    assert data["review"] is None  # the fair review is tested in test_review.py
    assert data["stopped_after"] is None  # every search finished
    end = replay_end(start, analysis.best_line)
    assert end.is_over and end.score == analysis.best_score == analysis.line_score
    assert analysis.winnable == (end.status is Status.WON)


# ---------------------------------------------------------------------- no slip


@pytest.mark.parametrize("seed", [24])
def test_following_the_best_line_never_slips(seed: int) -> None:
    best, line = best_line(SOLO, seed)
    start = start_of(SOLO, seed)
    analysis = analyse(start, line, fair=False)
    assert analysis.slip is None
    assert analysis.winnable
    assert analysis.best_score == best
    assert analysis.score == best == play(start, line).score
    assert analysis.moves == len(line)
    check_analysis_shape(analysis, start)
    assert analysis.to_dict()["slip"] is None


# ---------------------------------------------------------------------- a slip


@pytest.mark.parametrize("seed", [1, 24])
def test_a_losing_move_is_the_slip(seed: int) -> None:
    """S8: a needless bare-handed fight after which the best score can no longer be
    reached is reported: its number (from 1), its token, the best before and after, and a
    better line that does reach the best score from the position before it."""
    index, moves, best, after = slipped_game(seed)
    start = start_of(SOLO, seed)
    analysis = analyse(start, moves, fair=False)
    slip = analysis.slip
    assert isinstance(slip, Slip)
    assert slip.number == index + 1
    assert slip.played is moves[index]
    assert slip.played.token.endswith("/b")
    assert slip.best_before == best == analysis.best_score
    states = [start]
    for move in moves:
        states.append(states[-1].apply(move))
    assert slip.best_after == after == solve(states[index + 1], best=True).best_score
    assert slip.best_after < slip.best_before
    # the better line starts with the better move and reaches the best score
    assert slip.better_line[0] is slip.better
    assert slip.better is not slip.played
    end = replay_end(states[index], slip.better_line)
    assert end.is_over and end.score is not None and end.score >= slip.best_before
    # the game itself went on to the best it could still get
    assert analysis.score == after == states[-1].score
    data = slip.to_dict()
    assert data["move"] == index + 1 and data["played"] == slip.played.token
    assert data["better_line"].split()[0] == slip.better.token
    check_analysis_shape(analysis, start)


def test_only_the_first_slip_is_reported() -> None:
    """After the first slip a second losing move changes nothing in the report but the
    game's own score."""
    index, moves, best, _ = slipped_game(24)
    start = start_of(SOLO, 24)
    state = play(start, moves[: index + 1])
    later = list(moves[: index + 1])
    while not state.is_over:  # from here on, every monster bare-handed, no flee
        options = [m for m in state.legal_moves if not m.is_flee and not m.weapon]
        move = options[0]
        later.append(move)
        state = state.apply(move)
    analysis = analyse(start, later, fair=False)
    assert analysis.slip is not None
    assert analysis.slip.number == index + 1
    assert analysis.slip.best_before == best
    assert analysis.score == state.score


@pytest.mark.parametrize("rules", [SOLO, LENIENT, COOP], ids=["solo", "lenient", "coop"])
def test_slip_is_the_first_drop_of_the_best_score(rules: Rules) -> None:
    """Games from late positions, played by the bot with random mistakes and cut at a
    random move: the best reachable score (solved at every position) never rises, and the
    slip is exactly the first move after which it fell, or None if it never did."""
    checked = slips = 0
    if rules.coop_game:  # the bot seldom lives long in co-op: start on the solver's lines
        starts = [along_line(rules, seed, variant, 10) for seed in (0, 5) for variant in range(4)]
    else:
        starts = [late_position(rules, seed, 15, randomness=0.0) for seed in range(8)]
    for seed, start in enumerate(starts):
        if start is None:
            continue
        rng = random.Random(seed)
        states = [start]
        moves: list[Move] = []
        while not states[-1].is_over:
            state = states[-1]
            if rng.random() < 0.3:
                move = rng.choice(state.legal_moves)
            else:
                move = Bot().choose(state.observation(state.leader))
            moves.append(move)
            states.append(state.apply(move))
        cut = rng.randint(0, len(moves))
        moves, states = moves[:cut], states[: cut + 1]
        bests = [solve(state, best=True).best_score for state in states]
        assert all(a is not None and b is not None and a >= b for a, b in itertools.pairwise(bests))
        analysis = analyse(start, moves, fair=False)
        assert analysis.best_score == bests[0]
        assert analysis.score == states[-1].score
        drop = next((i for i, best in enumerate(bests) if best != bests[0]), None)
        if drop is None:
            assert analysis.slip is None
        else:
            slips += 1
            slip = analysis.slip
            assert slip is not None
            assert (slip.number, slip.played) == (drop, moves[drop - 1])
            assert (slip.best_before, slip.best_after) == (bests[0], bests[drop])
            end = replay_end(states[drop - 1], slip.better_line)
            assert end.score is not None and end.score >= bests[0]
        checked += 1
    assert checked >= 4 and slips >= 1


# ---------------------------------------------------------------------- games in progress


def test_a_game_in_progress_without_a_slip() -> None:
    """A record that stops mid-game: no score yet (None), no slip while on the best line."""
    best, line = best_line(SOLO, 24)
    start = start_of(SOLO, 24)
    analysis = analyse(start, line[:10], fair=False)
    assert analysis.score is None
    assert analysis.moves == 10
    assert analysis.slip is None
    assert analysis.best_score == best
    assert analysis.to_dict()["score"] is None


def test_a_game_in_progress_with_a_slip() -> None:
    index, moves, best, after = slipped_game(24)
    start = start_of(SOLO, 24)
    played = moves[: index + 3]
    assert not play(start, played).is_over
    analysis = analyse(start, played, fair=False)
    assert analysis.score is None
    assert analysis.slip is not None
    assert analysis.slip.number == index + 1
    assert (analysis.slip.best_before, analysis.slip.best_after) == (best, after)


def test_analysis_from_a_later_position() -> None:
    """``analyse`` starts from any position, not only a deal's first: moves count from it."""
    moves = along_line_moves(SOLO, 3, 0, 20)
    assert moves is not None
    start = play(start_of(SOLO, 3), moves)
    solution = solve(start, best=True)
    analysis = analyse(start, solution.line, fair=False)
    assert analysis.best_score == solution.best_score
    assert analysis.slip is None and analysis.moves == len(solution.line)
    assert analysis.score == solution.best_score


def test_no_moves_at_all() -> None:
    start = start_of(SOLO, 24)
    analysis = analyse(start, [], fair=False)
    assert analysis.moves == 0 and analysis.slip is None and analysis.score is None
    assert analysis.best_score == best_line(SOLO, 24)[0]


# ---------------------------------------------------------------------- unwinnable


def test_unwinnable_deal() -> None:
    """Solo deal 37 cannot be won with perfect information: the analysis says so, and its
    best score is a death (negative, S13) that the best line reaches."""
    start = start_of(SOLO, 37)
    moves: list[Move] = []
    state = start
    while not state.is_over:  # bare hands, no flee: a quick loss
        move = next(m for m in state.legal_moves if not m.is_flee and not m.weapon)
        moves.append(move)
        state = state.apply(move)
    analysis = analyse(start, moves, fair=False)
    assert not analysis.winnable
    assert analysis.best_score < 0
    assert analysis.score == state.score
    check_analysis_shape(analysis, start)
    assert replay_end(start, analysis.best_line).status is Status.LOST
    if state.score is not None and state.score < analysis.best_score:
        assert analysis.slip is not None
        assert analysis.slip.best_before == analysis.best_score
        assert analysis.slip.best_after < analysis.best_score


# ---------------------------------------------------------------------- the last chance to win


def winnable_at(states: list[State]) -> list[bool]:
    return [solve(state).winnable for state in states]


@pytest.mark.parametrize("seed", [1, 24])
def test_a_lost_game_names_the_move_after_which_no_win_was_left(seed: int) -> None:
    """S11, S12: a game of a winnable deal that follows a winning line and then fights every
    monster bare-handed is lost; the win slip is the first move after which no line wins
    (solved at every position), with a better move and a winning line from before it."""
    start = start_of(SOLO, seed)
    _, line = best_line(SOLO, seed)
    moves = list(line[: len(line) // 3])
    state = play(start, moves)
    while not state.is_over:
        move = next(m for m in state.legal_moves if not m.is_flee and not m.weapon)
        moves.append(move)
        state = state.apply(move)
    assert state.status is Status.LOST
    states = start.replay(moves)
    wins = winnable_at(states)
    last = next(i for i, win in enumerate(wins) if not win)
    assert all(wins[:last]) and not any(wins[last:])  # once lost, a win never comes back
    analysis = analyse(start, moves, fair=False)
    slip = analysis.win_slip
    assert slip is not None
    assert (slip.number, slip.played) == (last, moves[last - 1])
    assert slip.best_after is None
    assert slip.better_line[0] is slip.better and slip.better is not slip.played
    end = replay_end(states[last - 1], slip.better_line)
    assert end.status is Status.WON and end.score == slip.best_before
    assert analysis.to_dict()["win_slip"]["best_after"] is None


def test_a_won_game_or_an_unwinnable_deal_has_no_win_slip() -> None:
    _, line = best_line(SOLO, 24)
    assert analyse(start_of(SOLO, 24), line, fair=False).win_slip is None
    start = start_of(SOLO, 37)  # cannot be won (see test_unwinnable_deal)
    moves: list[Move] = []
    state = start
    while not state.is_over:
        move = next(m for m in state.legal_moves if not m.is_flee and not m.weapon)
        moves.append(move)
        state = state.apply(move)
    assert analyse(start, moves, fair=False).win_slip is None


# ---------------------------------------------------------------------- within a budget


def test_a_search_past_its_budget_says_what_it_did_not_find() -> None:
    """With no time left for the searches after the first, the analysis still says whether
    the deal could be won, with a winning line and its score, and the fair review; the best
    score and the slips are left unknown, and it says after how long it stopped."""
    index, moves, _, _ = slipped_game(24)
    start = start_of(SOLO, 24)
    analysis = analyse(start, moves, best_seconds=0.0)
    assert analysis.winnable
    assert analysis.best_score is None and analysis.slip is None and analysis.win_slip is None
    assert analysis.stopped_after is not None and analysis.stopped_after >= 0
    end = replay_end(start, analysis.best_line)
    assert end.status is Status.WON and end.score == analysis.line_score
    assert analysis.review is not None and len(analysis.review.moves) == len(moves)
    data = analysis.to_dict()
    assert data["best_score"] is None and data["stopped_after"] is not None
    # a deadline already past stops the same searches
    late = analyse(start, moves, fair=False, best_seconds=None, deadline=0.0)
    assert late.best_score is None and late.stopped_after is not None
    # and with time, the same game gets its best score and its slip
    timely = analyse(start, moves, fair=False, best_seconds=None)
    assert timely.stopped_after is None and timely.slip is not None
    assert timely.slip.number == index + 1


def test_a_best_score_found_stands_when_the_slip_search_runs_out(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The budget running out while the first slip is looked for (simulated: the search
    for the best score from a later position stops) leaves the best score found."""
    _, moves, best, _ = slipped_game(24)
    start = start_of(SOLO, 24)
    real = analysis_module.reach

    def reach(state: State, target: int, *args: Any) -> Any:
        if target == best and state is not start:
            raise Cancelled
        return real(state, target, *args)

    monkeypatch.setattr(analysis_module, "reach", reach)
    analysis = analyse(start, moves, fair=False)
    assert analysis.best_score == best == analysis.line_score
    assert analysis.slip is None and analysis.stopped_after is not None
    assert replay_end(start, analysis.best_line).score == best


def test_cancelling_stops_the_whole_analysis() -> None:
    """Cancelling is not a budget: nothing is answered."""
    start = start_of(SOLO, 24)
    _, line = best_line(SOLO, 24)
    with pytest.raises(Cancelled):
        analyse(start, line, cancel=lambda: True, fair=False)


def test_a_coop_analysis_answers_within_its_budget() -> None:
    """C8, C10: a lost co-op game (the fast bot's) of a winnable deal: within a short budget
    the analysis says the deal could be won and where the game lost its chance, or says
    that it stopped; either way it answers, with a winning line from the start."""
    rules = COOP
    start = start_of(rules, 41)
    state, moves = start, []
    bot = Bot()
    while not state.is_over:
        for move in bot.plan(state.observation(state.leader)).moves:
            moves.append(move)
            state = state.apply(move)
            if state.is_over:
                break
    assert state.status is Status.LOST
    analysis = analyse(start, moves, fair=False, best_seconds=15.0)
    assert analysis.winnable
    end = replay_end(start, analysis.best_line)
    assert end.status is Status.WON and end.score == analysis.line_score
    if analysis.stopped_after is None:
        assert analysis.best_score is not None and analysis.win_slip is not None
    else:
        assert analysis.slip is None
    slip = analysis.win_slip
    if slip is not None:
        states = start.replay(moves)
        assert solve(states[slip.number - 1]).winnable
        assert not solve(states[slip.number]).winnable
