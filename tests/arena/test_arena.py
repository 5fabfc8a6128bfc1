"""The arena (issue 40): policies on held-out deals, each twice, and a fairness
certificate that catches a policy reading the hidden order of the dungeon."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from arena_support import run

from scoundrel.arena import ALPHA, HELD_OUT, PolicyError, arena, play_deals
from scoundrel.arena.certificate import Certificate, Outcomes, sign_test
from scoundrel.arena.policies import load
from scoundrel.core import Rules
from scoundrel.core.deal import HELD_OUT as DEALS_HELD_OUT
from scoundrel.solver import Bot

SOLO = Rules.solo()


def test_the_arena_plays_the_held_out_deals_by_default() -> None:
    assert HELD_OUT == DEALS_HELD_OUT == 1_000_000_000
    [standing] = arena(["random"], SOLO, games=3)
    assert standing.certificate.dealt.seed == HELD_OUT


def test_a_planted_peeking_policy_is_caught() -> None:
    """A policy that reads the order of the dungeon (from the frame that asks it, as a bot
    handed the simulator's state would) wins every deal as dealt and collapses when the
    unseen cards are reshuffled: the certificate refuses it. The fast bot, on the same
    deals, is certified."""
    fast, peeker = arena(["fast", "peeking:Peeker"], SOLO, games=20)
    assert fast.certificate.fair
    dealt, reshuffled = peeker.certificate.dealt.result, peeker.certificate.reshuffled.result
    assert dealt.wins == 20 and reshuffled.wins <= 12
    assert not peeker.certificate.fair
    assert peeker.certificate.p_wins < ALPHA


@pytest.mark.parametrize("ruleset", ["solo", "coop"])
def test_fair_policies_are_certified(ruleset: str) -> None:
    rules = Rules.from_options(ruleset)
    for standing in arena(["random", "fast", "fair_policies:first_move"], rules, games=12):
        assert standing.certificate.fair, standing.to_dict()


def test_the_same_seeds_give_the_same_games_in_one_process_or_two() -> None:
    one = arena(["fast", "random"], SOLO, games=24, seed=5, jobs=1)
    two = arena(["fast", "random"], SOLO, games=24, seed=5, jobs=2)
    assert [s.to_dict()["certificate"] for s in one] == [s.to_dict()["certificate"] for s in two]
    for a, b in zip(one, two, strict=True):
        assert a.certificate.dealt.won == b.certificate.dealt.won
        assert a.certificate.reshuffled.scores == b.certificate.reshuffled.scores


def test_the_dealt_run_is_the_bot_command_s_game() -> None:
    """As dealt, the arena's game of a seed is the one ``scoundrel bot`` plays."""
    from scoundrel.solver import play_games

    outcomes = play_deals(Bot(), SOLO, 0, 30, reshuffle=False)
    result = play_games(SOLO, 30, 0)
    assert (outcomes.result.wins, outcomes.result.total_score) == (result.wins, result.total_score)


def test_the_sign_test_is_exact() -> None:
    assert sign_test(5, 0) == pytest.approx(1 / 32)
    assert sign_test(8, 2) == pytest.approx((45 + 10 + 1) / 1024)
    assert sign_test(3, 3) == 1.0 and sign_test(0, 0) == 1.0 and sign_test(1, 9) == 1.0
    assert 0 < sign_test(3000, 1000) < 1e-100 or sign_test(3000, 1000) == 0.0


def test_a_certificate_compares_the_same_deals() -> None:
    a = Outcomes(0, (True, False), (3, -10), 0.0)
    with pytest.raises(ValueError, match="same deals"):
        Certificate(a, Outcomes(1, (True, False), (3, -10), 0.0))
    tie = Certificate(a, a)
    assert tie.fair and tie.p_wins == 1.0


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("cheat", "no policy named 'cheat'"),
        ("no_such_module:play", "cannot import 'no_such_module'"),
        ("fair_policies:missing", "has no 'missing'"),
        ("fair_policies:NOT_CALLABLE", "neither callable nor has a plan"),
    ],
)
def test_a_policy_that_cannot_be_found_is_named(spec: str, message: str) -> None:
    with pytest.raises(PolicyError, match=message):
        load(spec, SOLO)


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("fair_policies:illegal", "chose 2H, which is not allowed here"),
        ("fair_policies:nonsense", "chose 'XYZ'"),
        ("fair_policies:wrong_type", "returned 42: a move or its notation"),
    ],
)
def test_a_policy_that_chooses_badly_stops_the_arena_with_its_name(spec: str, message: str) -> None:
    with pytest.raises(PolicyError, match=message):
        arena([spec], SOLO, games=2)


def test_the_command_reports_each_policy_twice_with_its_certificate() -> None:
    result = run("fast", "peeking:Peeker", "--games", "16", "--jobs", "2")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "16 deals (seeds 1,000,000,000–1,000,000,015)" in out
    assert out.count("\n  as dealt") == 2 and out.count("\n  reshuffled") == 2
    assert "fast\n" in out and "fair: it plays as well" in out
    assert "peeking:Peeker\n" in out and "NOT FAIR" in out


def test_the_command_s_json() -> None:
    result = run("random", "--games", "3", "--seed", "7", "--ruleset", "coop", "--json")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["ruleset"] == "coop" and report["seeds"] == [7, 9]
    [policy] = report["policies"]
    assert policy["policy"] == "random"
    assert policy["dealt"]["games"] == policy["reshuffled"]["games"] == 3
    assert {"fair", "p_wins", "p_scores", "won_only_as_dealt"} <= set(policy["certificate"])


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["nobody"], "no policy named 'nobody'"),
        (["fair_policies:illegal", "--games", "1"], "not allowed here"),
        (["fast", "--games", "0"], "--games must be at least 1"),
    ],
)
def test_the_command_refuses_clearly(args: list[str], message: str) -> None:
    result = run(*args)
    assert result.returncode == 2, result.stdout
    assert message in result.stderr and "Traceback" not in result.stderr


def test_search128_is_the_searching_bot_with_four_times_the_playouts() -> None:
    """``search128`` (arena and ``bot --level``) is the searching bot weighing each way over
    128 orders of the unseen cards instead of 32; ``bot`` plays the arena's dealt game."""
    from scoundrel.solver import SearchBot

    thorough, plain = load("search128", SOLO), load("search", SOLO)
    assert isinstance(thorough, SearchBot) and isinstance(plain, SearchBot)
    assert (thorough.playouts, plain.playouts) == (128, 32)
    outcomes = play_deals(thorough, SOLO, HELD_OUT, 1, reshuffle=False)
    command = ["bot", "--level", "search128", "--games", "1", "--seed", str(HELD_OUT), "--json"]
    found = subprocess.run(
        [sys.executable, "-m", "scoundrel", *command],
        capture_output=True,
        text=True,
        check=True,
    )
    report = json.loads(found.stdout)
    assert (report["wins"], report["mean_score"]) == (
        outcomes.result.wins,
        outcomes.result.total_score,
    )
