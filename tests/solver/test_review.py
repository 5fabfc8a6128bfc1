"""The fair review: moves graded by the win chance they gave up, as a player who cannot see
the dungeon's order could have known it; planted blunders are found, the searching bot's
own moves are best, and the grades follow the documented thresholds."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from solver_support import SOLO, walk

from scoundrel.cli.main import main
from scoundrel.cli.render import review_text
from scoundrel.core import Game, Move, State, Status, random_deal
from scoundrel.solver import SearchBot, hint
from scoundrel.solver.review import GRADES, THRESHOLDS, grade, review


def test_grades_follow_the_thresholds() -> None:
    assert THRESHOLDS == (5.0, 10.0, 20.0)
    assert grade(0.0, False) == "best"
    assert grade(30.0, True) == "best"  # the bot's own choice is best, whatever the noise
    assert grade(4.9, False) == "good"
    assert grade(5.0, False) == "inaccuracy"
    assert grade(9.9, False) == "inaccuracy"
    assert grade(10.0, False) == "mistake"
    assert grade(19.9, False) == "mistake"
    assert grade(20.0, False) == "blunder"
    assert grade(100.0, False) == "blunder"


def planted_blunder() -> tuple[int, list[Move], Move]:
    """A game of the fast bot up to a position whose best move has a real chance to win,
    then a move that kills the hero on the spot (fighting a big monster bare-handed)."""
    for seed in range(40):
        for state, moves in walk(SOLO, seed, randomness=0.0):
            if state.is_over or len(moves) < 6:
                continue
            fatal = [m for m in state.legal_moves if state.apply(m).status is Status.LOST]
            if not fatal:
                continue
            best = hint(state.observation(), SearchBot(playouts=16))
            if best.chances[0].estimate.chance >= 0.3:
                return seed, [*moves, fatal[0]], best.move
    raise AssertionError("no position with a fatal move and a fair chance to win")


def test_a_planted_blunder_is_found() -> None:
    seed, moves, better = planted_blunder()
    result = review(State.new(SOLO, random_deal(SOLO, seed)), moves, playouts=16)
    last = result.moves[-1]
    assert last.played == moves[-1] and last.number == len(moves)
    assert last.grade == "blunder"
    assert last.played_chance == 0.0  # the hero dies: no order of the cards wins
    assert last.loss >= 30
    assert last.better == better
    assert result.result == 0.0
    assert result.chances[-1] == 0.0 and len(result.chances) == len(moves) + 1
    assert result.worst() == last
    assert sum(result.counts().values()) == len(moves)
    text = review_text(result)
    assert "Fair review" in text and "█" in text
    assert f"Move {len(moves)}, {moves[-1].token}: blunder" in text
    assert "#" in review_text(result, ascii_only=True)
    assert "█" not in review_text(result, ascii_only=True)


def test_the_bots_own_moves_are_best() -> None:
    """Moves played as the hint says (the same search the review runs) are all best."""
    bot = SearchBot(playouts=8)
    state = State.new(SOLO, random_deal(SOLO, 5))
    start, moves = state, []
    for _ in range(8):
        move = hint(state.observation(), bot).move
        moves.append(move)
        state = state.apply(move)
    result = review(start, moves, playouts=8)
    assert [j.grade for j in result.moves] == ["best"] * len(moves)
    assert all(j.better == j.played and j.loss == 0 for j in result.moves)
    assert result.result is None and len(result.chances) == len(moves)


def test_analyse_adds_the_review(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``scoundrel analyse`` adds the review to the solver's answers (``--no-review``
    leaves it out)."""
    seed, moves, _ = planted_blunder()
    game = Game(SOLO, random_deal(SOLO, seed))
    for move in moves:
        game.play(move)
    path = tmp_path / "game.json"
    game.record.save(path)
    assert main(["analyse", str(path), "--json"]) == 0
    graded = json.loads(capsys.readouterr().out)["review"]
    assert graded.keys() == {"moves", "chances", "counts", "worst", "playouts", "thresholds"}
    assert set(graded["counts"]) == set(GRADES)
    assert graded["moves"][-1]["grade"] == "blunder"
    assert graded["worst"] == len(moves)
    assert main(["analyse", str(path), "--no-review"]) == 0
    out = capsys.readouterr().out
    assert "The deal could be won" in out and "Fair review" not in out
