"""The learning environments (scoundrel.rl): Gymnasium's and PettingZoo's own checkers, the
OpenSpiel game's random simulation test, and what the environments promise on top: the
mask is the core's, the reward is the core's score, an illegal action never plays another
move, and nothing an agent sees depends on the order of the unseen cards."""

from __future__ import annotations

import importlib
import os
import warnings
from types import ModuleType
from typing import Any

import pytest


def _need(name: str) -> ModuleType:
    """The module, or skip: CI installs the rl extra, so there a missing one fails."""
    if os.environ.get("CI"):
        try:
            return importlib.import_module(name)
        except ImportError as error:
            pytest.fail(f"CI installs the rl extra (.[test,rl]): {error}", pytrace=False)
    return pytest.importorskip(name, reason=f"{name} is missing: pip install -e '.[rl]'")


gymnasium = _need("gymnasium")
np = _need("numpy")
pettingzoo_test = _need("pettingzoo.test")
pyspiel = _need("pyspiel")

from gymnasium.utils.env_checker import check_env  # noqa: E402

import scoundrel.rl  # noqa: E402
import scoundrel.rl.openspiel  # noqa: E402
from scoundrel.core import Card, Rules, State, Status, random_deal  # noqa: E402
from scoundrel.core.actions import NUM_ACTIONS, action_id, move_of  # noqa: E402
from scoundrel.rl.coop import CoopEnv, coop_env  # noqa: E402
from scoundrel.rl.policies import fair_bot_action, random_action, solver_action  # noqa: E402
from scoundrel.rl.solo import SoloEnv  # noqa: E402

SOLO = Rules.solo()


def _legal_choice(mask: Any, rng: Any) -> int:
    return int(rng.choice(np.flatnonzero(mask)))


# ---------------------------------------------------------------------- Gymnasium: solo


@pytest.mark.parametrize(
    "options",
    [{}, {"weapon": "lenient", "death_score": "dungeon-only"}, {"flee": "never", "health": 14}],
    ids=["strict", "lenient", "relentless-frail"],
)
def test_check_env_passes_without_warnings(options: dict[str, Any]) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        # made directly it has no spec, so the checker cannot remake it in the other
        # render modes (and says so); through gymnasium.make it checks them
        check_env(SoloEnv(**options), skip_render_check=True)
        made = gymnasium.make("scoundrel/Solo-v0", **options)
        check_env(made.unwrapped)
        assert made.unwrapped.rules == Rules.from_options("solo", options)
        made.close()


def test_the_environment_is_registered_and_checks_its_options() -> None:
    assert scoundrel.rl.SOLO_ID == "scoundrel/Solo-v0"
    env = gymnasium.make("scoundrel.rl:scoundrel/Solo-v0", render_mode="ansi")
    env.reset(seed=3)
    assert env.render() == str(env.unwrapped.core_observation())
    with pytest.raises(ValueError, match="weapon must be strict or lenient"):
        gymnasium.make("scoundrel/Solo-v0", weapon="soft")
    with pytest.raises(ValueError, match="unknown solo option 'easier'"):
        gymnasium.make("scoundrel/Solo-v0", easier=True)
    with pytest.raises(ValueError, match="reward must be"):
        gymnasium.make("scoundrel/Solo-v0", reward="health")


@pytest.mark.parametrize(
    ("reward", "options"),
    [
        ("score", {"weapon": "lenient"}),
        ("win", {"weapon": "lenient"}),
        ("score", {"flee": "never", "health": 14}),  # V1, V2
    ],
)
def test_a_whole_game_through_the_mask_ends_with_the_cores_score(
    reward: str, options: dict[str, Any]
) -> None:
    rng = np.random.default_rng(5)
    env = SoloEnv(reward=reward, **options)
    rules = env.rules
    for seed in range(10):
        deck = random_deal(rules, seed)
        state = State.new(rules, deck)
        observation, info = env.reset(options={"deck": deck})
        total, terminated, steps = 0.0, False, 0
        while not terminated:
            assert tuple(info["action_mask"].astype(bool)) == state.legal_action_mask()
            assert info["action_mask"].dtype == np.int8
            assert np.array_equal(env.action_masks(), info["action_mask"].astype(bool))
            assert tuple(observation) == state.observation(1).tensor()
            assert observation in env.observation_space
            action = _legal_choice(info["action_mask"], rng)
            state = state.apply(move_of(action))
            observation, step_reward, terminated, truncated, info = env.step(action)
            assert truncated is False
            assert terminated == state.is_over
            if not terminated:
                assert step_reward == 0.0
            total += step_reward
            steps += 1
        assert steps <= rules.max_game_length
        assert info["score"] == state.score
        if reward == "score":
            assert total == state.score
        else:
            assert total == (1.0 if state.status is Status.WON else 0.0)
        with pytest.raises(RuntimeError, match="game is over"):
            env.step(action)


def test_an_illegal_action_ends_the_game_with_a_penalty_by_default() -> None:
    env = SoloEnv()
    observation, info = env.reset(seed=1)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    after, reward, terminated, truncated, info = env.step(illegal)
    assert (terminated, truncated) == (True, False)
    assert reward == SOLO.score_range[0] - 1 == -189
    assert np.array_equal(after, observation)  # nothing was played
    assert str(move_of(illegal)) in info["illegal_action"]
    assert "is not in the room" in info["illegal_action"]
    with pytest.raises(RuntimeError):
        env.step(illegal)
    win = SoloEnv(reward="win")
    win.reset(seed=1)
    assert win.step(illegal)[1] == -1.0


def test_an_illegal_action_can_raise_instead() -> None:
    env = SoloEnv(illegal="raise")
    observation, _ = env.reset(
        options={"deck": ["7D", "5S", "9C", "5H", *_rest("7D", "5S", "9C", "5H")]}
    )
    env.step(action_id("7D"))
    observation, *_ = env.step(action_id("5S/w"))
    with pytest.raises(ValueError, match=r"action \d+ \(9C/w\).*last slew 5S.*S9"):
        env.step(action_id("9C/w"))  # S9: strict wear
    with pytest.raises(ValueError, match=r"\(AS/b\).*not in the room"):
        env.step(action_id("AS/b"))
    with pytest.raises(ValueError, match="action ids run from 0 to 180"):
        env.step(NUM_ACTIONS)
    after, reward, terminated, *_ = env.step(action_id("9C/b"))  # still playable
    assert (reward, terminated) == (0.0, False)
    assert not np.array_equal(after, observation)


def _rest(*codes: str) -> list[Card]:
    return [card for card in SOLO.cards if card.code not in codes]


def _play_while_hidden(make: Any, decks: tuple[list[Card], list[Card]], hidden: set[Card]) -> int:
    """Play the same random legal moves in two environments whose dungeons differ only in
    the order of ``hidden``; until one of those cards is dealt, both must show the same."""
    rng = np.random.default_rng(11)
    envs = [make() for _ in decks]
    seen = [env.reset(options={"deck": deck}) for env, deck in zip(envs, decks, strict=True)]
    moves = 0
    while True:
        (first, info), (second, other) = seen
        assert np.array_equal(first, second)
        assert np.array_equal(info["action_mask"], other["action_mask"])
        assert str(envs[0].core_observation()) == str(envs[1].core_observation())
        observation = envs[0].core_observation()
        if observation.status is not Status.PLAYING or hidden & set(observation.room):
            return moves
        assert fair_bot_action(observation) == fair_bot_action(envs[1].core_observation())
        action = _legal_choice(info["action_mask"], rng)
        seen = [env.step(action)[0::4] for env in envs]
        moves += 1


def test_the_observation_never_depends_on_the_order_of_unseen_cards() -> None:
    played = 0
    for seed in range(6):
        deck = list(random_deal(SOLO, seed))
        shuffled = deck[:24] + list(np.random.default_rng(seed).permutation(deck[24:]))
        assert shuffled != deck and sorted(shuffled) == sorted(deck)
        played += _play_while_hidden(SoloEnv, (deck, shuffled), set(deck[24:]))
    assert played >= 20  # the check really ran through positions


@pytest.mark.parametrize(
    "rules",
    [
        SOLO,
        Rules.solo(weapon="lenient"),
        Rules.coop(),
        Rules.coop(harder=True),
        Rules.solo(health=1, flee="never"),
    ],
    ids=["solo", "solo-lenient", "coop", "coop-harder", "solo-health-1-relentless"],
)
def test_every_observation_is_inside_the_observation_space(rules: Rules) -> None:
    space = SoloEnv().observation_space
    rng = np.random.default_rng(8)
    lowest = 0
    for seed in range(150):
        state = State.new(rules, random_deal(rules, seed))
        while True:
            for viewer in range(1, rules.heroes + 1):
                observation = np.array(state.observation(viewer).tensor(), dtype=space.dtype)
                assert observation in space, (seed, state)
            if state.is_over:
                break
            state = state.apply(move_of(_legal_choice(state.legal_action_mask(), rng)))
        lowest = min(lowest, *(hero.health for hero in state.heroes))
    assert lowest >= space.low[140] and lowest < 0  # the health of a dead hero is covered


@pytest.mark.parametrize("policy", ["fair_bot", "random"])
def test_baseline_policies_play_twenty_games_through_the_environment(policy: str) -> None:
    env = gymnasium.make("scoundrel/Solo-v0")
    rng = np.random.default_rng(0)
    scores = []
    for seed in range(20):
        _, info = env.reset(seed=seed)
        terminated = False
        while not terminated:
            if policy == "fair_bot":
                action = fair_bot_action(env.unwrapped.core_observation())
            else:
                action = random_action(info["action_mask"], rng)
            assert info["action_mask"][action] == 1
            _, reward, terminated, _, info = env.step(action)
        assert reward == info["score"]
        low, high = SOLO.score_range
        assert low <= reward <= high
        scores.append(reward)
    assert len(scores) == 20


def test_the_solver_baseline_plays_a_winnable_deal_to_a_win() -> None:
    state = State.new(SOLO, random_deal(SOLO, 0))  # winnable (the solver's doctest)
    while not state.is_over:
        action = solver_action(state)
        assert state.legal_action_mask()[action]
        state = state.apply(move_of(action))
    assert state.status is Status.WON


# ---------------------------------------------------------------------- PettingZoo: co-op


def test_pettingzoo_api_and_seed_tests_pass() -> None:
    with warnings.catch_warnings():
        # PettingZoo warns about every Dict observation outside its own list of games;
        # an action mask needs one
        warnings.filterwarnings("ignore", message="Observation is not a NumPy array")
        warnings.filterwarnings("ignore", message="Observation space for each agent")
        pettingzoo_test.api_test(coop_env(), num_cycles=1000)
        pettingzoo_test.api_test(coop_env(harder=True, weapon="strict"), num_cycles=200)
        pettingzoo_test.seed_test(coop_env)


def test_coop_turns_follow_the_leader_and_the_team_shares_the_score() -> None:
    rng = np.random.default_rng(2)
    for seed in range(8):
        env: CoopEnv = coop_env(first_leader=1 + seed % 2, easier=seed % 3 == 0)
        deck = random_deal(env.rules, seed)
        state = State.new(env.rules, deck)
        env.reset(options={"deck": deck})
        assert env.observation_space("hero_1") is env.observation_space("hero_1")
        ended: dict[str, float] = {}
        for agent in env.agent_iter():
            observation, reward, terminated, _, info = env.last()
            assert observation in env.observation_space(agent)
            if terminated:
                assert info["score"] == state.score
                ended[agent] = reward
                env.step(None)
                continue
            assert agent == f"hero_{state.leader}"
            partner = "hero_2" if agent == "hero_1" else "hero_1"
            viewer = int(agent[-1])
            assert tuple(observation["observation"]) == state.observation(viewer).tensor()
            assert tuple(observation["action_mask"].astype(bool)) == state.legal_action_mask()
            assert not env.observe(partner)["action_mask"].any()
            action = _legal_choice(observation["action_mask"], rng)
            state = state.apply(move_of(action))
            env.step(action)
        assert ended == {"hero_1": float(state.score), "hero_2": float(state.score)}


def test_an_illegal_coop_action_ends_the_game_for_both() -> None:
    env = coop_env()
    env.reset(seed=4)
    agent = env.agent_selection
    mask = env.observe(agent)["action_mask"]
    env.step(int(np.flatnonzero(mask == 0)[0]))
    assert all(env.terminations.values())
    assert env.rewards == dict.fromkeys(("hero_1", "hero_2"), float(env.rules.score_range[0] - 1))
    assert "is illegal here" in env.infos[agent]["illegal_action"]
    strict = coop_env(illegal="raise")
    strict.reset(seed=4)
    with pytest.raises(ValueError, match="is illegal here"):
        strict.step(int(np.flatnonzero(mask == 0)[0]))


# ---------------------------------------------------------------------- OpenSpiel


@pytest.mark.parametrize(
    ("name", "players", "outcomes"),
    [
        ("python_scoundrel", 1, 44),
        ("python_scoundrel(weapon=lenient,death_score=dungeon-only)", 1, 44),
        ("python_scoundrel(ruleset=coop)", 2, 52),
        ("python_scoundrel(ruleset=coop,harder=True,weapon=strict,first_leader=2)", 2, 54),
        ("python_scoundrel(flee=never,health=14)", 1, 44),
        ("python_scoundrel(ruleset=coop,health=9)", 2, 52),
    ],
)
def test_openspiel_random_simulations_pass(name: str, players: int, outcomes: int) -> None:
    game = pyspiel.load_game(name)
    assert game.num_players() == players
    assert game.max_chance_outcomes() == outcomes
    assert game.num_distinct_actions() == NUM_ACTIONS
    pyspiel.random_sim_test(game, num_sims=20, serialize=False, verbose=False)


@pytest.mark.parametrize("ruleset", ["solo", "coop"])
def test_openspiel_chance_returns_and_bounds(ruleset: str) -> None:
    game = pyspiel.load_game(f"python_scoundrel(ruleset={ruleset})")
    rules = Rules.from_options(ruleset)
    assert (game.min_utility(), game.max_utility()) == tuple(map(float, rules.score_range))
    assert game.max_game_length() == rules.max_game_length
    rng = np.random.default_rng(1)
    for _ in range(10):
        state = game.new_initial_state()
        chance_nodes = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                assert len(outcomes) == rules.deck_size - chance_nodes
                assert sum(p for _, p in outcomes) == pytest.approx(1.0)
                state.apply_action(int(rng.choice([o for o, _ in outcomes])))
                chance_nodes += 1
            else:
                state.apply_action(int(rng.choice(state.legal_actions())))
        returns = state.returns()
        assert len(set(returns)) == 1 and len(returns) == rules.heroes
        assert game.min_utility() <= returns[0] <= game.max_utility()
        assert chance_nodes == rules.deck_size


def test_openspiel_information_state_hides_the_order_of_unseen_cards() -> None:
    game = pyspiel.load_game("python_scoundrel")
    deck = [SOLO.cards.index(card) for card in random_deal(SOLO, 9)]
    states = []
    for order in (deck, deck[:20] + deck[20:][::-1]):
        state = game.new_initial_state()
        for place in order:
            state.apply_action(place)
        states.append(state)
    rng = np.random.default_rng(3)
    hidden = {SOLO.cards[place] for place in deck[20:]}
    while not states[0].is_terminal() and not hidden & set(states[0].state.room):
        assert states[0].information_state_string(0) == states[1].information_state_string(0)
        assert states[0].information_state_tensor(0) == states[1].information_state_tensor(0)
        assert states[0].observation_tensor(0) == states[1].observation_tensor(0)
        assert states[0].legal_actions() == states[1].legal_actions()
        action = int(rng.choice(states[0].legal_actions()))
        for state in states:
            state.apply_action(action)
    assert len(states[0].history()) > len(deck) + 5
