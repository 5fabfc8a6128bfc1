"""The fair bot and its hints: it decides from what a player sees (the observation), plays
only legal moves, is reproducible, and its hints describe what their plan does."""

from __future__ import annotations

import itertools
import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from solver_support import (
    COOP,
    LENIENT,
    SOLO,
    cards_to_resolve,
    play,
    room_ways,
    stacked,
    walk,
    winning_line,
)

from scoundrel.core import Card, Move, Rules, State, Status, random_deal
from scoundrel.solver import Bot, BotResult, SearchBot, hint, play_game, play_games
from scoundrel.solver.bot import wilson
from scoundrel.solver.searcher import MARGIN, clearly_better

ROOT = Path(__file__).resolve().parents[2]
#: The variants (V1, V2): no flee, and a lower maximum health the bot must plan with.
FRAIL = Rules.solo(health=14)
RELENTLESS_FRAIL = Rules.solo(flee="never", health=12)
COOP_VARIANTS = Rules.coop(flee="never", health=14)


# ---------------------------------------------------------------------- fairness


def shuffled_hidden(
    rules: Rules, deck: tuple[Card, ...], moves: tuple[Move, ...], seed: int
) -> State:
    """The same game on a deck whose cards still unseen after ``moves`` are shuffled among
    their own places. Deals take cards from the top and fled rooms go under the original
    deck (S5), so the unseen cards are the end of the original deck."""
    state = play(State.new(rules, deck), moves)
    unseen = state.observation(state.leader).unseen
    cut = len(deck) - len(unseen)
    tail = list(deck[cut:])
    assert set(tail) == set(unseen)
    rng = random.Random(seed)
    rng.shuffle(tail)
    if len(tail) > 1 and tuple(tail) == deck[cut:]:
        tail = tail[1:] + tail[:1]
    other = play(State.new(rules, (*deck[:cut], *tail)), moves)
    if len(tail) > 1:
        assert other.dungeon != state.dungeon  # the hidden order did change
    return other


@pytest.mark.parametrize(
    ("rules", "seeds"),
    [(SOLO, range(0, 6)), (LENIENT, range(6, 10)), (COOP, range(0, 3)), (FRAIL, range(3))],
    ids=["solo", "lenient", "coop", "frail"],
)
def test_choices_do_not_depend_on_the_hidden_order(rules: Rules, seeds: range) -> None:
    """Fairness: with the unseen part of the dungeon shuffled, a position looks the same to
    the player (equal observations: the hidden order is not in them) and the bot plans the
    same moves, with the same values."""
    compared = 0
    for seed in seeds:
        deck = random_deal(rules, seed)
        for state, moves in walk(rules, seed, randomness=0.3):
            if state.is_over:
                continue
            other = shuffled_hidden(rules, deck, moves, seed * 1000 + len(moves))
            viewer = state.leader
            seen = state.observation(viewer)
            assert other.observation(viewer) == seen
            assert Bot().plan(other.observation(viewer)) == Bot().plan(seen)
            compared += 1
    assert compared > 50


def test_coop_both_heroes_get_the_same_advice() -> None:
    """C1: co-op is played with open cards; both heroes' views give the same plan."""
    for state, _ in walk(COOP, 4, randomness=0.3):
        if not state.is_over:
            assert Bot().plan(state.observation(1)) == Bot().plan(state.observation(2))


# ---------------------------------------------------------------------- legal play


@pytest.mark.parametrize(
    "rules",
    [SOLO, LENIENT, COOP, FRAIL, RELENTLESS_FRAIL, COOP_VARIANTS],
    ids=["solo", "lenient", "coop", "frail", "relentless-frail", "coop-relentless-frail"],
)
def test_the_bot_plays_only_legal_moves(rules: Rules) -> None:
    """From any position (room start, mid-room, after a flee, the final room) the plan is
    legal move after move: a flee alone (S5), or exactly the cards left to resolve (S6, S4),
    ending alive unless every way is fatal."""
    for seed in range(6):
        for state, _ in walk(rules, seed, randomness=0.4):
            if state.is_over:
                continue
            seen = state.observation(state.leader)
            choice = Bot().plan(seen)
            assert Bot().choose(seen) is choice.move is choice.moves[0]
            assert choice.move in state.legal_moves
            if choice.move.is_flee:
                assert choice.moves == (choice.move,)
                continue
            end = state
            for i, move in enumerate(choice.moves):
                assert not end.is_over, f"{choice.moves} goes on after the game ended"
                assert move in end.legal_moves
                end = end.apply(move)
                if end.status is Status.LOST:
                    assert choice.face_value is None  # fatal only when all ways are
                    assert i == len(choice.moves) - 1
            if end.status is not Status.LOST:
                assert len(choice.moves) == cards_to_resolve(state)


def test_whole_games_end() -> None:
    for rules in (SOLO, COOP, RELENTLESS_FRAIL, COOP_VARIANTS):
        for seed in range(3):
            end = play_game(Bot(), State.new(rules, random_deal(rules, seed)))
            assert end.is_over and end.score is not None


def test_finished_game_has_nothing_to_choose() -> None:
    end = play_game(Bot(), State.new(SOLO, random_deal(SOLO, 37)))
    with pytest.raises(ValueError):
        Bot().plan(end.observation())
    with pytest.raises(ValueError):
        hint(end.observation())


# ---------------------------------------------------------------------- reproducible


def test_play_games_is_deterministic() -> None:
    """The same seeds give the same result, and it is the sum of the single games."""
    first = play_games(SOLO, 8, seed=100)
    again = play_games(SOLO, 8, seed=100)
    assert (first.games, first.wins, first.total_score) == (
        again.games,
        again.wins,
        again.total_score,
    )
    wins = total = 0
    for seed in range(100, 108):
        end = play_game(Bot(), State.new(SOLO, random_deal(SOLO, seed)))
        wins += end.status is Status.WON
        total += end.score or 0
    assert (first.wins, first.total_score) == (wins, total)
    assert first.games == 8


def test_results_do_not_depend_on_the_hash_seed() -> None:
    """The bot's sampled rooms come from a generator seeded by what it sees: a process with
    another PYTHONHASHSEED plays the same games."""
    code = (
        "import json; from scoundrel.core import Rules; from scoundrel.solver import play_games;"
        "r = [play_games(rules, 4, 7) for rules in (Rules.solo(), Rules.coop())];"
        "print(json.dumps([(x.wins, x.total_score) for x in r]))"
    )
    outputs = []
    for hash_seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        result = subprocess.run(
            [sys.executable, "-c", code],
            capture_output=True,
            text=True,
            check=True,
            env=env,
            cwd=ROOT,
            timeout=300,
        )
        outputs.append(json.loads(result.stdout))
    here = [play_games(rules, 4, 7) for rules in (SOLO, COOP)]
    assert outputs[0] == outputs[1] == [[x.wins, x.total_score] for x in here]


# ---------------------------------------------------------------------- win rate and CI


def test_wilson_interval_contains_the_rate() -> None:
    for trials in range(1, 81):
        for wins in range(trials + 1):
            low, high = wilson(wins, trials)
            rate = wins / trials
            assert 0.0 <= low <= high <= 1.0
            if 0 < wins < trials:
                assert low < rate < high
            else:  # all or nothing: the interval reaches the end (up to rounding, see below)
                assert low <= rate + 1e-12 and rate - 1e-12 <= high
            # symmetric in wins and losses
            other_low, other_high = wilson(trials - wins, trials)
            assert low == pytest.approx(1 - other_high) and high == pytest.approx(1 - other_low)
    assert wilson(0, 0) == (0.0, 1.0)
    # the textbook value for 5 successes in 20 trials
    assert wilson(5, 20) == pytest.approx((0.1119, 0.4687), abs=1e-4)


def test_wilson_interval_contains_an_all_or_nothing_rate() -> None:
    for wins, games in ((4, 4), (0, 69)):
        result = BotResult(games, wins, 0, 0.0)
        low, high = result.ci95
        assert low <= result.win_rate <= high


def test_bot_result_numbers() -> None:
    result = play_games(SOLO, 10, seed=0)
    low, high = result.ci95
    assert low <= result.win_rate <= high
    assert result.win_rate == result.wins / 10
    assert result.mean_score == result.total_score / 10
    data = result.to_dict()
    assert data.keys() == {"games", "wins", "win_rate", "ci95", "mean_score", "seconds"}
    assert data["games"] == 10 and data["ci95"][0] <= data["win_rate"] <= data["ci95"][1]
    empty = BotResult(0, 0, 0, 0.0)
    assert (empty.win_rate, empty.mean_score, empty.ci95) == (0.0, 0.0, (0.0, 1.0))
    other = play_games(SOLO, 5, seed=10)
    both = result + other
    assert (both.games, both.wins, both.total_score) == (
        15,
        result.wins + other.wins,
        result.total_score + other.total_score,
    )
    whole = play_games(SOLO, 15, seed=0)
    assert (whole.wins, whole.total_score) == (both.wins, both.total_score)


# ---------------------------------------------------------------------- hints


def check_hint(state: State) -> str:
    seen = state.observation(state.leader)
    advice = hint(seen, SearchBot(playouts=4))
    assert advice.move is advice.plan[0]
    assert advice.move in state.legal_moves
    # every legal move has its chance to win, the hinted one the highest unless no move
    # won clearly more of the same games than the fast bot's choice (then the hint's)
    assert {c.move for c in advice.chances} == set(state.legal_moves)
    best = max(advice.chances, key=lambda c: c.estimate.chance).estimate
    hinted = next(c for c in advice.chances if c.move is advice.move).estimate
    if advice.judged:
        assert not clearly_better(best, hinted, MARGIN)
    else:
        assert hinted.chance == best.chance
    assert all(0 <= c.estimate.chance <= 1 for c in advice.chances)
    assert advice.reason in {"flee", "face", "final", "doomed"}
    assert (advice.reason == "flee") == advice.move.is_flee
    before = tuple(h.health for h in state.heroes)
    assert tuple(pair[0] for pair in advice.health) == before
    data = advice.to_dict()
    assert data.keys() == {
        "move",
        "plan",
        "reason",
        "health",
        "kept",
        "chances",
        "text",
        "flee_reason",
        "judged",
    }
    assert (advice.reason == "flee") == (advice.flee_reason is not None)
    assert "Chances to win:" in data["text"]
    assert data["move"] == advice.move.token and advice.move.token in advice.text()
    if advice.reason == "flee":
        assert advice.plan == (advice.move,)
        assert advice.health == tuple((h, h) for h in before)
        assert advice.kept is None
        return advice.reason
    end = play(state, advice.plan)
    ways = room_ways(state)
    if advice.reason == "doomed":  # every way through the room is fatal (S11, C8)
        assert not ways.survivors
        assert end.status is Status.LOST
        return advice.reason
    assert ways.survivors
    # the health pairs are what the plan does, move by move through the core
    assert tuple(pair[1] for pair in advice.health) == tuple(h.health for h in end.heroes)
    if advice.reason == "final":  # S4: the plan resolves every card and wins (S12, C9)
        assert state.final_room
        assert end.status is Status.WON
        return advice.reason
    assert not state.final_room and end.status is Status.PLAYING
    return advice.reason


@pytest.mark.parametrize("rules", [SOLO, COOP], ids=["solo", "coop"])
def test_hints_describe_their_plan(rules: Rules) -> None:
    reasons: set[str] = set()
    for seed in range(4):
        for state, _ in itertools.islice(walk(rules, seed, randomness=0.3), 0, None, 2):
            if not state.is_over:
                reasons.add(check_hint(state))
    assert {"flee", "face"} <= reasons


def test_hint_in_the_final_room() -> None:
    """S4: in the final room the hint is the way out."""
    line = winning_line(SOLO, 0)
    assert line is not None
    state = State.new(SOLO, random_deal(SOLO, 0))
    for move in line:
        if state.final_room:
            break
        state = state.apply(move)
    assert state.final_room
    assert check_hint(state) == "final"


def test_doomed_hint() -> None:
    """S5: after a flee the next room must be faced; four big monsters at 20 health kill on
    every way through (S6: three of them), so the hint is 'doomed' and slays first."""
    state = play(State.new(SOLO, stacked(SOLO, "2C 3C 4C 5C AS KS QS JS")), "F")
    assert [c.code for c in state.room] == ["AS", "KS", "QS", "JS"]
    assert check_hint(state) == "doomed"
    advice = hint(state.observation())
    assert "fatal" in advice.text()


def test_kept_card_is_a_single_card_left() -> None:
    """A 'face' hint names the one card its plan leaves in the room (S6), also when two
    monsters of one value are in it."""
    for seed in range(3):
        for state, _ in walk(SOLO, seed, randomness=0.3):
            if state.is_over:
                continue
            advice = hint(state.observation(), SearchBot(playouts=4))
            if advice.reason != "face":
                continue
            taken = {move.card for move in advice.plan}
            left = [c.code for c in state.room if c not in taken]
            assert left == [advice.kept]


def test_kept_card_with_two_monsters_of_one_value() -> None:
    """Room 5C 5S 2D 3D: the plan 2D 3D 5C/w leaves 5S, but the hint says 5C stays."""
    state = State.new(SOLO, stacked(SOLO, "5C 5S 2D 3D"))
    advice = hint(state.observation())
    assert advice.reason == "face"
    taken = {move.card for move in advice.plan}
    left = [c.code for c in state.room if c not in taken]
    assert left == [advice.kept]
