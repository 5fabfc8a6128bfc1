"""The solver agrees with an exhaustive search over the rules core (S5 flee, S12/C9 victory,
S13/C10 scores).

Late positions (11-14 cards left in solo, 7-10 in co-op) are reached by legal play from
seeded deals; on each, a brute force that tries every legal move with :meth:`State.apply`
(flee included) says whether a win is reachable and what the best reachable score is. The
solver must say the same, and every line it gives must replay through the core to the score
it claims.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Callable

import pytest
from solver_support import (
    COOP,
    COOP_EASIER,
    COOP_STRICT,
    DUNGEON_ONLY,
    LENIENT,
    SOLO,
    Budget,
    along_line,
    along_line_moves,
    cards_left,
    exhaustive,
    play,
    replay_end,
    winning_line,
)

from scoundrel.core import Move, Rules, State, Status, random_deal
from scoundrel.solver import Cancelled, Solution, reach, solve

RULESETS = {
    "solo": SOLO,
    "lenient": LENIENT,
    "dungeon-only": DUNGEON_ONLY,
    "coop": COOP,
    "coop-strict": COOP_STRICT,
    "coop-easier": COOP_EASIER,
    # the variants (V1, V2): the same agreement under no fleeing and a lower maximum health
    "frail": Rules.solo(health=14),
    "relentless": Rules.solo(flee="never"),
    "coop-frail": Rules.coop(health=14),
    "coop-relentless-easier": Rules.coop(flee="never", easier=True),
}

#: (ruleset, deal) pairs whose winning line the solver finds quickly: late positions are
#: reached along them, with a mistake and the bot's play in most variants.
CASES = [
    *(("solo", seed) for seed in range(6)),
    ("solo-best", 24),
    ("lenient-best", 22),
    *(("lenient", seed) for seed in range(4)),
    *(("dungeon-only", seed) for seed in range(4)),
    ("coop", 0),
    ("coop", 5),
    ("coop-strict", 21),
    ("coop-easier", 0),
    ("coop-easier", 9),
    *(("frail", seed) for seed in range(4)),
    ("frail-best", 0),
    *(("relentless", seed) for seed in (2, 3, 5, 8)),  # 0 and 1 cannot be won without a flee
    ("coop-frail", 0),
]
VARIANTS = 5


def win_score(rules: Rules) -> int:
    """The lowest score of a won game: 1 health (S13), 1 + 1 health (C10)."""
    return 2 if rules.coop_game else 1


def late_cards(rules: Rules, variant: int) -> int:
    """How many cards a late position may have left: 11 or 14 stop at the start of a solo
    room (4 + 3k cards dealt from 44), 12 or 13 in the middle of one; 7-10 in co-op."""
    return (7 if rules.coop_game else 11) + variant % 4


def check_line(state: State, solution: Solution) -> State:
    """The line replays through the core to a finished game with the claimed score."""
    end = replay_end(state, solution.line)
    assert end.is_over, "the line does not finish the game"
    assert end.score == solution.score
    return end


def check(state: State) -> tuple[bool, int]:
    win, best = exhaustive(state)
    rules = state.rules

    first = solve(state)
    assert first.winnable == win, state
    assert first.best_score is None
    if win:
        end = check_line(state, first)
        assert end.status is Status.WON
        assert first.score is not None and first.score >= win_score(rules)
    else:
        assert first.line == () and first.score is None

    full = solve(state, best=True)
    assert full.winnable == win, state
    assert full.best_score == best, state
    assert full.score == best
    end = check_line(state, full)
    assert end.status is (Status.WON if win else Status.LOST)

    # reach: the best score is reachable, one more is not (S13/C10 are integers)
    score, line, _ = reach(state, best)
    assert score == best and replay_end(state, line).score == best
    assert reach(state, best + 1)[0] is None
    if win:
        target = (best + win_score(rules)) // 2
        score, line, _ = reach(state, target)
        assert score is not None and score >= target
        assert replay_end(state, line).score == score
    return win, best


@pytest.mark.parametrize(("name", "seed"), CASES, ids=[f"{n}-{s}" for n, s in CASES])
def test_solver_agrees_with_exhaustive_search(name: str, seed: int) -> None:
    """Along the solver's first winning line of a deal, or (``-best``) its best line, where
    a perfect score (S13: 20 health and a last potion, up to 30) is still within reach."""
    best = name.endswith("-best")
    rules = RULESETS[name.removesuffix("-best")]
    found = []
    for variant in range(VARIANTS):
        cards = late_cards(rules, variant)
        state = along_line(rules, seed, variant, cards, best=best)
        if state is None:
            continue
        assert cards_left(state) <= cards
        found.append(check(state))
    assert len(found) >= 2, "too few late positions were reached"
    if best:  # the potion bonus (S13) is at stake in these positions
        assert any(score > 20 for _, score in found)


def test_solver_agrees_in_relentless_coop_endgames() -> None:
    """V1 in co-op, where few deals can be won at all: late positions the fast bot reaches
    (no winning line to follow) are decided as exhaustive search decides them."""
    from scoundrel.solver import Bot

    rules = RULESETS["coop-relentless-easier"]
    bot = Bot()
    found = 0
    for seed in range(40):
        state = State.new(rules, random_deal(rules, seed))
        while not state.is_over and cards_left(state) > 9:
            state = state.apply(bot.choose(state.observation(state.leader)))
        if not state.is_over:
            check(state)
            found += 1
    assert found >= 2, "too few late positions were reached"


def test_positions_cover_wins_and_losses() -> None:
    """The late positions of solo deals 0-5 are a mix of winnable and lost ones, flee
    chances and partly resolved rooms, so that the comparison above means something."""
    wins = losses = fleeable = middles = 0
    for seed in range(6):
        for variant in range(VARIANTS):
            state = along_line(SOLO, seed, variant, late_cards(SOLO, variant))
            if state is None:
                continue
            win = solve(state).winnable  # checked against exhaustive search above
            wins += win
            losses += not win
            fleeable += state.can_flee
            middles += state.resolved_in_room > 0
    assert wins >= 3 and losses >= 3 and fleeable >= 3 and middles >= 3


@pytest.mark.parametrize("name", ["solo", "lenient", "coop"])
def test_winning_lines_from_the_start_replay_to_a_win(name: str) -> None:
    """S12, C9: the solver's winning line of a whole deal is a legal game that is won."""
    rules = RULESETS[name]
    for seed in (0, 5) if rules.coop_game else range(6):
        start = State.new(rules, random_deal(rules, seed))
        solution = solve(start, cancel=Budget(40))
        assert solution.winnable
        assert solution.to_dict()["line"] == " ".join(m.token for m in solution.line)
        end = check_line(start, solution)
        assert end.status is Status.WON


def test_unwinnable_deal_from_the_start() -> None:
    """Solo deal 37 cannot be won even knowing the dungeon; the best it allows is a death
    (S13: a negative score), and that line replays to it."""
    start = State.new(SOLO, random_deal(SOLO, 37))
    assert not solve(start).winnable
    full = solve(start, best=True, cancel=Budget(100))
    assert not full.winnable
    assert full.best_score is not None and full.best_score < 0
    end = check_line(start, full)
    assert end.status is Status.LOST


def test_death_score_option_changes_the_best_death() -> None:
    """S13 option dungeon-only: a death costs only the monsters still in the dungeon. The
    same lost positions (same deal, same moves) under both scorings: each best score matches
    the exhaustive search, and the option does change some of them."""
    compared = differ = 0
    for seed in range(4):
        for variant in range(1, VARIANTS):
            moves = along_line_moves(SOLO, seed, variant, 12)
            if moves is None:
                continue
            standard = play(State.new(SOLO, random_deal(SOLO, seed)), moves)
            win, best = exhaustive(standard)
            if win:
                continue
            # the options do not change the deal (M1), so the same moves replay
            other = play(State.new(DUNGEON_ONLY, random_deal(DUNGEON_ONLY, seed)), moves)
            _, other_best = exhaustive(other)
            assert solve(standard, best=True).best_score == best
            assert solve(other, best=True).best_score == other_best
            compared += 1
            differ += best != other_best
    assert compared >= 2 and differ >= 1


# ---------------------------------------------------------------------- cancel, progress


def test_cancel_stops_a_hard_search() -> None:
    """``cancel`` is polled every 256 nodes, ``progress`` told every 4096; a cancel
    returning true raises Cancelled. Solo deal 40 takes more than 100,000 nodes from the
    start."""
    start = State.new(SOLO, random_deal(SOLO, 40))
    polls: list[int] = []
    seen: list[int] = []

    def cancel() -> bool:
        polls.append(1)
        return len(polls) >= 48  # at node 48 * 256 = 12,288, before its progress

    with pytest.raises(Cancelled):
        solve(start, cancel=cancel, progress=seen.append)
    assert len(polls) == 48
    assert seen == [4096, 8192]
    with pytest.raises(Cancelled):
        solve(start, best=True, cancel=lambda: True)


def test_cancel_that_never_fires_changes_nothing() -> None:
    start = State.new(SOLO, random_deal(SOLO, 3))
    plain = solve(start)
    watched = solve(start, cancel=lambda: False, progress=lambda n: None)
    assert (plain.winnable, plain.line, plain.nodes) == (
        watched.winnable,
        watched.line,
        watched.nodes,
    )


# ---------------------------------------------------------------------- finished games


def test_solve_a_won_game() -> None:
    """S12: nothing is left to play; the game's own score is the answer."""
    start = State.new(SOLO, random_deal(SOLO, 0))
    line = winning_line(SOLO, 0)
    assert line is not None
    end = play(start, line)
    assert end.status is Status.WON
    for best in (False, True):
        solution = solve(end, best=best)
        assert solution.winnable
        assert solution.line == ()
        assert solution.score == end.score
        assert solution.best_score == (end.score if best else None)
    assert reach(end, end.score) == (end.score, (), 0)
    assert reach(end, end.score + 1)[0] is None


def test_solve_a_lost_game() -> None:
    """S11: a lost game cannot be won; its best score is its own (negative) score."""
    state = State.new(SOLO, random_deal(SOLO, 37))
    while not state.is_over:  # fight everything bare-handed: soon dead
        moves = [m for m in state.legal_moves if not m.is_flee and not m.weapon]
        state = state.apply(moves[0])
    assert state.status is Status.LOST
    plain = solve(state)
    assert not plain.winnable and plain.line == () and plain.score is None
    full = solve(state, best=True)
    assert not full.winnable and full.line == ()
    assert full.best_score == full.score == state.score
    assert full.to_dict().keys() == {"winnable", "best_score", "line", "nodes", "seconds"}


def test_to_dict_is_json_ready() -> None:
    start = State.new(SOLO, random_deal(SOLO, 1))
    data = solve(start).to_dict()
    assert data.keys() == {"winnable", "best_score", "line", "nodes", "seconds"}
    assert data["winnable"] is True and data["best_score"] is None
    tokens = data["line"].split()
    end = play(start, [Move(t) for t in tokens])
    assert end.status is Status.WON


# ---------------------------------------------------------------------- the collector


def test_the_cyclic_collector_is_paused_while_a_search_runs() -> None:
    """The solver pauses Python's cyclic garbage collector for as long as any search runs
    (its tables make no cycles, and full collections walking them cost a quarter of a long
    co-op search), and leaves it as it found it: on, or off if it was off; also when a
    search is cancelled, and when searches in two threads overlap."""
    start = State.new(COOP, random_deal(COOP, 18))  # a deal the solver takes seconds on
    seen: list[bool] = []

    def watching() -> bool:
        seen.append(gc.isenabled())
        return len(seen) > 40

    assert gc.isenabled()
    with pytest.raises(Cancelled):
        solve(start, cancel=watching)
    assert seen and not any(seen)  # off at every poll
    assert gc.isenabled()  # and on again after

    gc.disable()
    try:
        solve(State.new(SOLO, random_deal(SOLO, 3)))
        assert not gc.isenabled()  # it was off: it stays off
    finally:
        gc.enable()

    # two searches in two threads: the collector comes back when the second one ends
    first_polled, release = threading.Event(), threading.Event()

    def held() -> bool:
        first_polled.set()
        return release.wait(10)  # stops once released

    outcome: list[str] = []
    thread = threading.Thread(target=_cancelled, args=(start, held, outcome))
    thread.start()
    assert first_polled.wait(30)
    solve(State.new(SOLO, random_deal(SOLO, 3)))  # a second search begins and ends
    assert not gc.isenabled()  # the first one still runs
    release.set()
    thread.join(30)
    assert outcome == ["cancelled"]
    assert gc.isenabled()


def _cancelled(start: State, cancel: Callable[[], bool], outcome: list[str]) -> None:
    try:
        solve(start, cancel=cancel)
    except Cancelled:
        outcome.append("cancelled")
