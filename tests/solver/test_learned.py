"""The learned bot (issue 40, item 3): the fast bot's rooms judged with weights learned by a
policy search, shipped in the package, seeing only what a player sees."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from scoundrel.arena import arena
from scoundrel.arena.policies import PolicyError, named
from scoundrel.core import Rules, State, random_deal
from scoundrel.solver import Bot
from scoundrel.solver.bot import play_game, play_games
from scoundrel.solver.learned import (
    FEATURES,
    HAND,
    WEIGHTS_FILE,
    Learned,
    LearnedBot,
    LearnedJudge,
    LearnedUnavailable,
    packaged,
)
from scoundrel.solver.model import code

ROOT = Path(__file__).parents[2]
SOLO = Rules.solo()


def test_the_packaged_weights_are_small_named_and_learned() -> None:
    weights = ROOT / "src" / "scoundrel" / "solver" / WEIGHTS_FILE
    assert weights.stat().st_size <= 5 * 1024 * 1024
    saved = json.loads(weights.read_text())
    assert list(saved["weights"]) == list(FEATURES)
    assert packaged().weights != HAND  # not the fast bot's: learned
    assert saved["about"]["validation_win_rate"] > saved["about"]["validation_win_rate_fast_bot"]


def test_weights_that_do_not_fit_are_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="11 weights for 12 features"):
        Learned(HAND[:-1], {})
    path = tmp_path / "w.json"
    path.write_text(json.dumps({"weights": {"weapon": 1.0}}))
    with pytest.raises(ValueError, match="no weight for monster, potion"):
        Learned.load(path)
    path.write_text(json.dumps([1, 2]))
    with pytest.raises(ValueError, match="no weights"):
        Learned.load(path)
    path.write_text(json.dumps({"weights": {**dict.fromkeys(FEATURES, 0.5), "reach": "far"}}))
    with pytest.raises(ValueError, match="the weight of reach is not a number"):
        Learned.load(path)


def test_the_fast_bots_weights_play_as_the_fast_bot() -> None:
    """Where learning starts is the fast bot: same games, same results."""
    start = play_games(SOLO, 30, 7, bot=LearnedBot(Learned(HAND, {})))
    fast = play_games(SOLO, 30, 7, bot=Bot())
    assert (start.wins, start.total_score) == (fast.wins, fast.total_score)


def test_the_terms_say_what_a_player_would() -> None:
    pool = tuple(sorted(code(card) for card in random_deal(SOLO, 1)[4:]))
    judge = LearnedJudge(Learned(HAND, {}), SOLO, 0, pool)
    reachable, wounds, healing, unreachable, weapon, reach = judge.terms((8, 5, 9), (12,))
    below_nine = sum(c for c in pool if c < 9)
    assert reachable == below_nine / 10
    assert wounds == 12 * 12 / 20
    assert healing == min(12, sum(c - 32 for c in pool if c >= 32)) / 10
    assert unreachable == 1.2  # a 12 kept in the room: the weapon (reach 9) cannot fight it
    assert (weapon, reach) == (0.5, 0.9)
    assert judge.terms((20, 0, 0), ())[0] == 0.0  # no weapon reaches nothing


def test_the_learned_bot_sees_only_what_a_player_sees() -> None:
    """Every position of a game, with the unseen cards put in another order: the bot plans
    the same moves (it cannot tell the orders apart)."""
    bot = LearnedBot()
    state = State.new(SOLO, random_deal(SOLO, 3))
    rng = random.Random(3)
    checked = 0
    while not state.is_over:
        plan = bot.plan(state.observation(1)).moves
        other = state.reshuffled(rng)
        assert other.observation(1) == state.observation(1)
        assert bot.plan(other.observation(1)).moves == plan
        state = state.apply(plan[0])
        checked += 1
    assert checked > 10


def test_the_learned_bot_is_certified_fair_in_the_arena() -> None:
    [learned] = arena(["learned"], SOLO, games=16)
    assert learned.certificate.fair, learned.to_dict()


@pytest.mark.parametrize(
    ("rules", "named_as"),
    [(Rules.coop(), "coop"), (Rules.solo(weapon="lenient"), "weapon=lenient")],
    ids=["coop", "lenient"],
)
def test_rules_it_was_not_trained_for_are_refused_by_name(rules: Rules, named_as: str) -> None:
    with pytest.raises(PolicyError, match=f"standard options only, not {named_as}$"):
        named("learned", rules)
    with pytest.raises(LearnedUnavailable):
        play_game(LearnedBot(), State.new(rules, random_deal(rules, 1)))


def test_the_command_line_refuses_co_op_before_playing() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "scoundrel", "bot", "--level", "learned", "--ruleset", "coop"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert "strict solo with the standard options only, not coop" in done.stderr
    assert "Traceback" not in done.stderr


def test_the_command_line_plays_the_learned_level() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "scoundrel", "bot", "--level", "learned", "--games", "5", "--json"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["games"] == 5


def test_the_training_recipe_runs_and_writes_weights_the_bot_loads(tmp_path: Path) -> None:
    pytest.importorskip("numpy")
    out, curve = tmp_path / "learned.json", tmp_path / "curve.json"
    done = subprocess.run(
        [
            sys.executable,
            str(ROOT / "examples" / "train_learned.py"),
            *("--generations", "2", "--population", "3", "--games", "10", "--check", "10"),
            *("--jobs", "1", "--out", str(out), "--curve", str(curve)),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    written = json.loads(curve.read_text())
    assert [g["generation"] for g in written["generations"]] == [1, 2]
    assert written["validation"][0]["candidate"] == "fast bot"
    learned = Learned.load(out)
    assert learned.about["validation_seeds"] == "300000000..300000009"
    assert play_game(LearnedBot(learned), State.new(SOLO, random_deal(SOLO, 2))).is_over
