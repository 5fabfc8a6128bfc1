"""``State.reshuffled``: the arena's fairness certificate rests on it changing nothing a
player can see. Over random games of every ruleset and variant, at every position, the
reshuffled position has the same observation for each hero, the same legal moves and the
same cards in the dungeon, its known bottom (S5) in place and only the unseen cards
moved."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_properties import OPTION_IDS, OPTION_SETS, VARIANT_DRAWS, make_rules

from scoundrel.core import Rules, State, random_deal


def check(state: State, rng: random.Random) -> State:
    after = state.reshuffled(rng)
    for viewer in range(1, len(state.heroes) + 1):
        assert after.observation(viewer) == state.observation(viewer)
    assert after.legal_moves == state.legal_moves
    assert Counter(after.dungeon) == Counter(state.dungeon)
    assert after.known_bottom == state.known_bottom
    known = len(state.known_bottom)
    assert after.dungeon[len(after.dungeon) - known :] == state.known_bottom
    assert after.room == state.room and after.discard == state.discard
    assert after.heroes == state.heroes and after.score == state.score
    return after


@pytest.mark.parametrize(("ruleset", "options"), OPTION_SETS, ids=OPTION_IDS)
@settings(max_examples=20, deadline=None, derandomize=True, database=None,
          suppress_health_check=list(HealthCheck))  # fmt: skip
@given(seed=st.integers(0, 2**63 - 1), choices=st.integers(0, 2**63 - 1), variants=VARIANT_DRAWS)
def test_a_reshuffle_changes_nothing_a_player_sees(
    ruleset: str, options: dict[str, Any], seed: int, choices: int, variants: dict[str, Any]
) -> None:
    rules = make_rules(ruleset, options, variants=variants)
    state = State.new(rules, random_deal(rules, seed))
    rng = random.Random(choices)
    moved = False
    while not state.is_over:
        after = check(state, rng)
        moved = moved or after.dungeon != state.dungeon
        # the game goes on from the reshuffled position half the time
        state = after if rng.random() < 0.5 else state
        state = state.apply(rng.choice(state.legal_moves))
    check(state, rng)
    assert moved or len(state.dungeon) < 2


def test_a_reshuffle_moves_only_the_unseen_cards_and_is_repeatable() -> None:
    """S5: after a flee the fled room lies known at the bottom: it stays there, in order;
    the same generator gives the same order."""
    rules = Rules.solo()
    state = State.new(rules, random_deal(rules, 7)).apply("F")
    first = state.reshuffled(random.Random(1))
    assert first.dungeon == state.reshuffled(random.Random(1)).dungeon
    assert first.dungeon != state.dungeon
    assert first.dungeon[-4:] == state.dungeon[-4:] == state.known_bottom
    # the arena's logs (issue 40) hold games played on these orders: they must not change
    assert [c.code for c in first.dungeon[:6]] == ["4C", "8S", "10S", "9H", "5H", "6D"]


def test_the_unseen_cards_put_in_a_given_order() -> None:
    """``State.in_order``: each order of the unseen cards is its own position, every one
    the same to a player; the known bottom stays; an order that is not one is refused."""
    rules = Rules.solo()
    state = State.new(rules, random_deal(rules, 3))
    hidden = len(state.observation(1).unseen)
    assert state.in_order(range(hidden)).dungeon == state.dungeon
    reversed_ = state.in_order(range(hidden - 1, -1, -1))
    assert reversed_.dungeon[:hidden] == state.dungeon[:hidden][::-1]
    assert reversed_.observation(1) == state.observation(1)
    fled = State.new(rules, random_deal(rules, 3)).apply("F")
    n = len(fled.observation(1).unseen)
    moved = fled.in_order([n - 1, *range(n - 1)])
    assert moved.dungeon[0] == fled.dungeon[n - 1] and moved.known_bottom == fled.known_bottom
    for bad in ([0, 0, *range(2, n)], list(range(n + 1)), []):
        with pytest.raises(ValueError, match=f"an order of the {n} unseen cards"):
            fled.in_order(bad)
