"""The public action and observation API: fixed action ids with a legal-action mask, the
observation as numbers and as text, and the documented facts (game length, score range)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from scoundrel.core import ALL_CARDS, FLEE, Card, Kind, Move, Rules, State, random_deal
from scoundrel.core.actions import ACTIONS, NUM_ACTIONS, action_id, move_of
from scoundrel.core.moves import CARD_MOVES
from scoundrel.core.observation import (
    FLAGS,
    HERO_FEATURES,
    TENSOR_LAYOUT,
    TENSOR_SIZE,
    observation_string,
    observation_tensor,
)

RULESETS = [
    Rules.solo(),
    Rules.solo(weapon="lenient", death_score="dungeon-only"),
    Rules.coop(),
    Rules.coop(weapon="strict", easier=True, harder=True, first_leader=2),
    Rules.solo(flee="never", health=14),
    Rules.coop(flee="never", health=9),
]


def random_positions(rules: Rules, games: int, seed: int = 7) -> list[State]:
    """Every position of ``games`` games played with uniformly random legal moves."""
    rng = random.Random(seed)
    positions = []
    for _ in range(games):
        state = State.new(rules, random_deal(rules, rng.randrange(2**32)))
        positions.append(state)
        while not state.is_over:
            state = state.apply(rng.choice(state.legal_moves))
            positions.append(state)
    return positions


# ---------------------------------------------------------------------- actions


def test_every_move_has_one_action_id() -> None:
    """N2: every move token of either ruleset, flee last."""
    monsters = sum(card.is_monster for card in ALL_CARDS)
    assert monsters == 36
    assert NUM_ACTIONS == 36 * 4 + 18 * 2 + 1 == 181 == len(set(ACTIONS))
    every_move = {move for moves in CARD_MOVES for move in moves} | {FLEE}
    assert set(ACTIONS) == every_move
    assert ACTIONS[-1] is FLEE
    for number, move in enumerate(ACTIONS):
        assert action_id(move) == number
        assert action_id(move.token) == number
        assert move_of(number) is move


@pytest.mark.parametrize("bad", [-1, 181, 10**9])
def test_an_action_id_out_of_range_is_refused(bad: int) -> None:
    with pytest.raises(ValueError, match=f"from 0 to 180, not {bad}"):
        move_of(bad)


@pytest.mark.parametrize("bad", ["3", 1.5, None])
def test_an_action_id_that_is_no_integer_is_refused(bad: Any) -> None:
    with pytest.raises(ValueError, match="an action id is an integer"):
        move_of(bad)


@pytest.mark.parametrize("rules", RULESETS, ids=repr)
def test_the_mask_marks_exactly_the_legal_moves(rules: Rules) -> None:
    """S4-S10, C3-C7 as the core lists them, one position after another."""
    for state in random_positions(rules, 60):
        mask = state.legal_action_mask()
        assert len(mask) == NUM_ACTIONS
        marked = {move_of(number) for number, on in enumerate(mask) if on}
        assert marked == set(state.legal_moves)
        assert state.legal_actions() == [n for n, on in enumerate(mask) if on]
        if state.is_over:
            assert not any(mask)


def test_solo_never_allows_a_help_card() -> None:
    """C5: the help card (>) is a co-op rule."""
    helps = [action_id(move) for move in ACTIONS if move.help]
    for state in random_positions(Rules.solo(), 30):
        mask = state.legal_action_mask()
        assert not any(mask[number] for number in helps)


# ---------------------------------------------------------------------- the observation


def test_the_layout_covers_the_tensor_once() -> None:
    place = 0
    for _name, start, length in TENSOR_LAYOUT:
        assert start == place
        place += length
    assert place == TENSOR_SIZE
    heroes = dict((name, length) for name, _start, length in TENSOR_LAYOUT)["heroes"]
    assert heroes == 2 * len(HERO_FEATURES)
    assert dict((name, length) for name, _start, length in TENSOR_LAYOUT)["flags"] == len(FLAGS)


def part(numbers: tuple[int, ...], name: str) -> tuple[int, ...]:
    for part_name, start, length in TENSOR_LAYOUT:
        if part_name == name:
            return numbers[start : start + length]
    raise KeyError(name)


@pytest.mark.parametrize("rules", RULESETS, ids=repr)
def test_the_tensor_says_what_the_observation_says(rules: Rules) -> None:
    for state in random_positions(rules, 20):
        for viewer in range(1, rules.heroes + 1):
            seen = state.observation(viewer)
            numbers = observation_tensor(seen)
            assert numbers == seen.tensor() and len(numbers) == TENSOR_SIZE
            room = part(numbers, "room")
            assert [i for i, on in enumerate(room) if on] == sorted(c.index for c in seen.room)
            unseen = part(numbers, "unseen")
            counts = seen.unseen_counts
            expected = [counts[Kind.MONSTER].get(v, 0) for v in range(2, 16)]
            expected += [counts[Kind.WEAPON].get(v, 0) for v in range(2, 11)]
            expected += [counts[Kind.POTION].get(v, 0) for v in range(2, 11)]
            assert list(unseen) == expected
            bottom = part(numbers, "known_bottom")
            for depth, card in enumerate(reversed(seen.known_bottom), start=1):
                assert bottom[card.index] == depth
            assert sum(1 for n in bottom if n) == len(seen.known_bottom)
            heroes = part(numbers, "heroes")
            mine = seen.heroes[viewer - 1]
            assert heroes[0] == mine.health
            assert heroes[1] == (mine.weapon.value if mine.weapon else 0)
            assert heroes[4] == len(mine.stack)
            if rules.heroes == 1:
                assert heroes[6:] == (0,) * 6
            else:
                assert heroes[6] == seen.heroes[2 - viewer].health
            flags = dict(zip(FLAGS, part(numbers, "flags"), strict=True))
            assert flags["viewer_leads"] == (seen.leader == viewer)
            assert flags["dungeon_count"] == seen.dungeon_count
            assert flags["can_flee"] == seen.can_flee
            assert flags["coop"] == rules.coop_game
            assert flags["status"] == ["playing", "won", "lost"].index(seen.status.value)
            assert flags["max_health"] == rules.health  # V2
            assert flags["relentless"] == (rules.flee == "never")  # V1


@pytest.mark.parametrize("rules", [Rules.solo(), Rules.coop()], ids=repr)
def test_the_hidden_order_never_shows(rules: Rules) -> None:
    """Two positions that differ only in the order of the unseen cards give the same
    tensor and the same text: they are built from the observation, which has no order."""
    rng = random.Random(3)
    for state in random_positions(rules, 20):
        if state.is_over:
            continue
        hidden = list(state.dungeon[: state.dungeon_count - len(state.known_bottom)])
        if len(hidden) < 2:
            continue
        shuffled = hidden[:]
        while shuffled == hidden:
            rng.shuffle(shuffled)
        other = reorder(state, hidden, shuffled)
        assert other.dungeon != state.dungeon
        for viewer in range(1, rules.heroes + 1):
            assert observation_tensor(other.observation(viewer)) == observation_tensor(
                state.observation(viewer)
            )
            assert observation_string(other.observation(viewer)) == observation_string(
                state.observation(viewer)
            )


def reorder(state: State, hidden: list[Card], shuffled: list[Card]) -> State:
    """``state`` with its unseen cards in another order (the rest of it the same)."""
    other = state._copy()
    start = other._top
    deck = list(other._deck)
    deck[start : start + len(hidden)] = shuffled
    other._deck = tuple(deck)
    return other


def test_the_text_names_the_room_and_the_heroes() -> None:
    deck = [Card(c) for c in ["7D", "KS", "5H", "9C"]]
    deck += [card for card in Rules.solo().cards if card not in deck]
    state = State.new(Rules.solo(), deck).apply("7D").apply("KS/w")
    text = str(state.observation())
    assert text.startswith("solo strict | hero 1 sees | room 5H 9C | hero 1* 14hp 7D[KS]")
    assert "dungeon 40" in text and text.endswith("playing")


# ---------------------------------------------------------------------- the documented facts


def test_the_longest_game_and_the_score_range() -> None:
    """S4-S6: every card is a move and every flee one more; S13/C10 bounds."""
    assert Rules.solo().max_game_length == 44 + 14
    assert Rules.coop().max_game_length == 52 + 16
    assert Rules.coop(harder=True).max_game_length == 54 + 17
    assert Rules.solo().score_range == (20 - 208, 30)
    assert Rules.solo(death_score="dungeon-only").score_range == (-188, 30)
    assert Rules.coop().score_range == (20 - 208 - 100, 40)
    assert Rules.coop(harder=True).score_range == (20 - 208 - 100 - 30, 40)


def test_the_lowest_solo_score_is_reached() -> None:
    """S13: a hero who fights bare-handed to death, never healed, scores 20 - 208."""
    first = [Card(c) for c in ["AS", "KC", "2D", "3D"]]
    deck = first + [card for card in Rules.solo().cards if card not in first]
    state = State.new(Rules.solo(), deck).apply(Move("AS/b")).apply(Move("KC/b"))
    assert state.status == "lost"
    assert state.score == Rules.solo().score_range[0] == -188
