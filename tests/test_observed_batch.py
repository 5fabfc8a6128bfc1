"""The observed batch (``scoundrel.observed_batch``) answers every step as the core would.

Each slot of an :class:`ObservedBatch` is shadowed by a :class:`State` dealt the same deck
(:meth:`ObservedBatch.deck`); after every step the observation (the leader's
:meth:`Observation.tensor`), the mask (:attr:`State.legal_action_mask`), the reward, whether
the game ended and its score must be the core's. Actions are random legal ones with an
illegal or out-of-range one now and then (the penalty path), and in a quarter of the
slots the fast fair bot's, which reach the final room and victories. The games per
ruleset are ``SCOUNDREL_OBSERVED_GAMES`` (default 1,500).
"""

from __future__ import annotations

import json
import os
import random

import pytest

try:
    import numpy as np

    from scoundrel.observed_batch import ObservedBatch, play_observed
except ImportError as error:  # pragma: no cover - the fast extra is missing
    if os.environ.get("CI"):
        pytest.fail(f"CI installs the fast extra (Numba, NumPy): {error}", pytrace=False)
    pytest.skip("the fast extra is not installed", allow_module_level=True)

from scoundrel.cli.main import main
from scoundrel.core import Rules, State, Status
from scoundrel.core.actions import NUM_ACTIONS, action_id, move_of
from scoundrel.solver.bot import Bot
from tests.rulesets import ORIGINAL, VARIANTS

GAMES = int(os.environ.get("SCOUNDREL_OBSERVED_GAMES", "1500"))
RULESETS = {**ORIGINAL, **VARIANTS}


def shadow_play(rules: Rules, games: int, seed: int, slots: int = 256) -> dict[str, int]:
    """Play at least ``games`` games in an ObservedBatch of ``slots`` slots, each slot shadowed
    by the core, comparing everything after every step. What was seen, counted."""
    batch = ObservedBatch(rules, slots)
    batch.reset(seed)
    rng = random.Random(seed)
    states = [State.new(rules, batch.deck(g)) for g in range(slots)]
    careful = [g % 4 == 0 for g in range(slots)]  # a quarter of the slots: the fast bot
    bot = Bot()
    pending = [False] * slots
    penalty = rules.score_range[0] - 1
    seen = {"games": 0, "steps": 0, "won": 0, "lost": 0, "illegal": 0, "final_room": 0}

    def check(g: int) -> None:
        state = states[g]
        expected = np.array(state.observation(state.leader).tensor(), dtype=np.int16)
        got = batch.observations[g]
        assert np.array_equal(got, expected), (
            f"slot {g}: observation differs at {np.flatnonzero(got != expected).tolist()}"
            f" (ours {got[got != expected].tolist()}, core {expected[got != expected].tolist()})"
        )
        mask = np.array(state.legal_action_mask(), dtype=np.bool_)
        if pending[g]:
            mask[:] = False
        assert np.array_equal(batch.masks[g], mask), f"slot {g}: mask differs"

    for g in range(slots):
        check(g)
    while seen["games"] < games:
        actions = batch.random_actions().copy()
        for g in range(slots):
            if pending[g]:
                actions[g] = rng.randrange(-5, NUM_ACTIONS + 5)  # ignored
            elif careful[g]:
                actions[g] = action_id(bot.choose(states[g].observation(states[g].leader)))
            elif rng.random() < 0.01:
                actions[g] = rng.choice((-1, NUM_ACTIONS, rng.randrange(NUM_ACTIONS)))
        batch.step(actions)
        seen["steps"] += slots
        for g in range(slots):
            action = int(actions[g])
            reward, terminated = float(batch.rewards[g]), bool(batch.terminated[g])
            if pending[g]:  # dealt again: a new game on the deck the batch shuffled
                states[g] = State.new(rules, batch.deck(g))
                pending[g] = False
                assert (reward, terminated) == (0.0, False)
            else:
                state = states[g]
                legal = 0 <= action < NUM_ACTIONS and state.legal_action_mask()[action]
                if not legal:
                    assert (reward, terminated, int(batch.ended[g])) == (penalty, True, 3)
                    seen["illegal"] += 1
                else:
                    seen["final_room"] += state.final_room
                    state = states[g] = state.apply(move_of(action))
                    assert terminated == state.is_over
                    if state.is_over:
                        assert state.score is not None
                        assert (reward, int(batch.scores[g])) == (state.score, state.score)
                        assert int(batch.ended[g]) == (1 if state.status is Status.WON else 2)
                        seen["won" if state.status is Status.WON else "lost"] += 1
                    else:
                        assert reward == 0.0
                pending[g] = terminated
                seen["games"] += terminated
            check(g)
    return seen


@pytest.mark.parametrize("name", RULESETS)
def test_every_step_is_the_core_s(name: str) -> None:
    rules = RULESETS[name]
    seen = shadow_play(rules, GAMES, seed=list(RULESETS).index(name))
    assert seen["games"] >= GAMES
    # the play reached the rules' corners: victories, defeats, the final room, refusals
    assert seen["lost"] and seen["illegal"]
    if name in ("solo", "solo-lenient-dungeon-only", "coop"):  # the fast bot wins some
        assert seen["won"] and seen["final_room"]


def test_the_same_seed_deals_the_same_dungeons() -> None:
    rules = Rules.solo()
    first, second = ObservedBatch(rules, 8), ObservedBatch(rules, 8)
    first.reset(5)
    second.reset(5)
    dealt_first = first.decks
    assert np.array_equal(dealt_first, second.decks)
    for _ in range(30):
        actions = first.random_actions().copy()
        second.random_actions()
        first.step(actions)
        second.step(actions)
    assert np.array_equal(first.observations, second.observations)
    other = ObservedBatch(rules, 8)
    other.reset(6)
    assert not np.array_equal(dealt_first, other.decks)
    dealt = ObservedBatch(rules, 2000)
    dealt.reset(1)
    decks = dealt.decks
    assert all(sorted(row) == sorted(card.index for card in rules.cards) for row in decks.tolist())
    # every card is on top about as often (a uniform shuffle): 44 cards, 2,000 decks
    tops = np.bincount(decks[:, 0].astype(np.int64) % 64, minlength=64)
    assert tops.max() < 2000 / 44 * 2.2


def test_refused_actions_move_nothing() -> None:
    rules = Rules.solo()
    batch = ObservedBatch(rules, 4, illegal="raise")
    before = batch.observations.copy()
    actions = batch.random_actions().copy()
    actions[2] = 999
    with pytest.raises(ValueError, match="game 2: action 999 is not legal"):
        batch.step(actions)
    assert np.array_equal(batch.observations, before)
    with pytest.raises(ValueError, match="step needs 4 action ids"):
        batch.step(np.zeros(3, np.int64))
    for bad in ({"reward": "health"}, {"illegal": "ignore"}):
        with pytest.raises(ValueError, match="must be"):
            ObservedBatch(rules, 4, **bad)
    with pytest.raises(ValueError, match="size must be at least 1"):
        ObservedBatch(rules, 0)


def test_win_rewards_and_scale() -> None:
    batch = ObservedBatch(Rules.solo(), 64, reward="win", reward_scale=2.0)
    batch.reset(3)
    rewards: set[float] = set()
    for _ in range(200):
        actions = batch.random_actions().copy()
        actions[0] = -1 if batch.masks[0].any() else 0
        batch.step(actions)
        rewards |= set(batch.rewards[batch.terminated].tolist())
    assert rewards <= {0.0, 2.0, -2.0} and -2.0 in rewards


def test_the_benchmark_counts_games_moves_and_steps() -> None:
    result = play_observed(Rules.solo(), 300, seed=1, batch_size=64)
    figures = result.to_dict()
    assert figures["games"] >= 300
    assert figures["steps"] % 64 == 0 and figures["steps"] >= figures["moves"] > figures["games"]
    assert figures["plain_moves_per_s"] > 0
    assert set(figures) >= {"games", "moves", "seconds", "games_per_s", "moves_per_s"}


def test_bench_observe_prints_the_figures_and_their_cost(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert (
        main(["bench", "--games", "300", "--seed", "2", "--batch", "32", "--observe", "--json"])
        == 0
    )
    figures = json.loads(capsys.readouterr().out)
    assert set(figures) == {
        "games", "moves", "seconds", "games_per_s", "moves_per_s",
        "steps", "steps_per_s", "plain_moves_per_s", "observation_cost",
    }  # fmt: skip
    assert figures["games"] >= 300 and figures["steps"] % 32 == 0
    assert main(["bench", "--games", "40", "--ruleset", "coop", "--batch", "8", "--observe"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("coop: ") and "steps/s with observations, masks and rewards" in text
    assert "batch 8, compilation excluded" in text
    assert main(["bench", "--games", "5", "--observe"]) == 2  # the single engine has no batch
    assert "--observe measures the batched environment: give --batch N" in capsys.readouterr().err
