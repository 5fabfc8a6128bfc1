"""The variants other Scoundrel games play, V1 Relentless (``flee=never``) and V2 Frail
(``health=N``), in both rulesets: each rule branch, their records and their errors."""

from __future__ import annotations

import json
import random

import pytest
from helpers import CLEAR_DECK, CLEAR_ROOMS, new, play

from scoundrel.core import (
    FLEE,
    IllegalMoveError,
    OptionError,
    Record,
    Rules,
    State,
    Status,
    random_deal,
)

RELENTLESS = {"solo": Rules.solo(flee="never"), "coop": Rules.coop(flee="never")}
FRAIL = {"solo": Rules.solo(health=14), "coop": Rules.coop(health=14)}


# ---------------------------------------------------------------------- V1 Relentless


@pytest.mark.parametrize("ruleset", ["solo", "coop"])
def test_v1_the_first_room_cannot_be_fled(ruleset: str) -> None:
    """V1: the flee the standard rules offer in a fresh room (S5, C3) is not legal, and
    playing it is refused naming V1, changing nothing."""
    standard = State.new(Rules.from_options(ruleset), random_deal(Rules.from_options(ruleset), 1))
    assert FLEE in standard.legal_moves
    rules = RELENTLESS[ruleset]
    state = State.new(rules, random_deal(rules, 1))
    assert FLEE not in state.legal_moves
    assert len(state.legal_moves) == len(standard.legal_moves) - 1
    with pytest.raises(IllegalMoveError) as refused:
        state.apply("F")
    assert refused.value.refusal.code == "relentless"
    assert refused.value.refusal.rule == "V1"
    assert state.hero(1).health == rules.health and len(state.room) == 4


@pytest.mark.parametrize("ruleset", ["solo", "coop"])
def test_v1_no_room_of_a_whole_game_can_be_fled(ruleset: str) -> None:
    """V1: in 30 random games played to the end, no position offers a flee."""
    rules = RELENTLESS[ruleset]
    rng = random.Random(7)
    for seed in range(30):
        state = State.new(rules, random_deal(rules, seed))
        while not state.is_over:
            assert FLEE not in state.legal_moves
            state = state.apply(rng.choice(state.legal_moves))


def test_v1_changes_nothing_else() -> None:
    """V1: the same moves, other than flees, give the same positions as the standard rules."""
    standard, relentless = Rules.solo(), Rules.solo(flee="never")
    deck = random_deal(standard, 3)
    a, b = State.new(standard, deck), State.new(relentless, deck)
    rng = random.Random(3)
    while not a.is_over:
        move = rng.choice([m for m in b.legal_moves])
        a, b = a.apply(move), b.apply(move)
        assert (a.room, a.dungeon, a.heroes, a.status, a.score) == (
            b.room, b.dungeon, b.heroes, b.status, b.score,
        )  # fmt: skip


# ---------------------------------------------------------------------- V2 Frail


@pytest.mark.parametrize("most", [14, 1, 19])
def test_v2_every_hero_starts_with_n(most: int) -> None:
    """V2: each hero starts with N health, in solo and in co-op."""
    assert State.new(Rules.solo(health=most), random_deal(Rules.solo(), 0)).hero(1).health == most
    coop = Rules.coop(health=most)
    state = State.new(coop, random_deal(coop, 0))
    assert [hero.health for hero in state.heroes] == [most, most]


def test_v2_a_potion_heals_up_to_n_and_no_more() -> None:
    """V2 (with S10): at 11 of 14 health the 9 of hearts heals 3."""
    state = play(new(FRAIL["solo"], "3S 2D 3D KC 9H"), "3S/b 2D 3D")
    assert state.hero(1).health == 11
    assert play(state, "9H").hero(1).health == 14


def test_v2_a_potion_at_n_uses_the_rooms_healing() -> None:
    """V2 (with S10): a potion drunk at full (14) health restores nothing and still uses up
    the room's healing, so a second potion in that room does nothing either."""
    state = play(new(FRAIL["solo"], "10H 5H 2S 3S"), "10H")
    assert state.hero(1).health == 14
    state = play(state, "2S/b 5H")
    assert state.hero(1).health == 12


def test_v2_coop_potions_cap_at_n_for_each_hero() -> None:
    """V2 (with C6): the leader and the partner each heal up to N at most."""
    state = play(new(FRAIL["coop"], "2S 10H 3S 9H"), "2S/b >3S/b 10H")
    assert [hero.health for hero in state.heroes] == [14, 11]


def test_v2_score_bonus_at_n_with_a_potion_last() -> None:
    """V2 (with S13): a hero who clears the dungeon on exactly N health with a potion last
    adds its value: 14 + 10."""
    state = play(new(FRAIL["solo"], CLEAR_DECK), " ".join(CLEAR_ROOMS) + " 2S/b 10H")
    assert state.status is Status.WON
    assert state.score == 24
    breakdown = state.score_breakdown()
    assert breakdown is not None and breakdown.parts == (("health", 14), ("potion_bonus", 10))


def test_v2_no_bonus_with_a_monster_last() -> None:
    """V2 (with S13): the potion heals to 14, then a monster last: the health, no bonus."""
    state = play(new(FRAIL["solo"], CLEAR_DECK), " ".join(CLEAR_ROOMS) + " 10H 2S/b")
    assert state.status is Status.WON
    assert state.score == state.hero(1).health == 12


@pytest.mark.parametrize(("rules", "low", "high"), [
    (Rules.solo(health=14), 14 - 208, 24),
    (Rules.coop(health=14), 14 - 308, 28),
    (Rules.solo(), 20 - 208, 30),
])  # fmt: skip
def test_v2_score_range(rules: Rules, low: int, high: int) -> None:
    """V2: the best score is N plus the 10 of hearts in solo, 2N in co-op."""
    assert rules.score_range == (low, high)


# ---------------------------------------------------------------------- options and records


def test_options_name_a_variant_only_when_played() -> None:
    """N3: a standard game's options are what they were before the variants; a variant is
    written when played."""
    assert Rules.solo().options == {"weapon": "strict", "death_score": "standard"}
    assert Rules.solo(flee="never", health=14).options == {
        "weapon": "strict", "death_score": "standard", "flee": "never", "health": 14,
    }  # fmt: skip
    assert Rules.coop(health=14).variants == {"health": 14}
    assert Rules.coop().variants == {}


@pytest.mark.parametrize("ruleset", ["solo", "coop"])
def test_a_record_of_a_variant_round_trips(ruleset: str) -> None:
    """N3, N4: a Frail Relentless game's record names both, and replays to the same game."""
    rules = Rules.parse(ruleset, ["flee=never", "health=14"])
    deck = random_deal(rules, 5)
    state = State.new(rules, deck)
    played = []
    rng = random.Random(5)
    for _ in range(12):
        if state.is_over:
            break
        move = rng.choice(state.legal_moves)
        played.append(move)
        state = state.apply(move)
    record = Record(rules, deck, tuple(played))
    data = json.loads(record.to_json())
    assert data["options"]["flee"] == "never" and data["options"]["health"] == 14
    again = Record.from_json(record.to_json())
    assert again.rules == rules
    assert again.replay().state.heroes == state.heroes


def test_a_record_without_the_variants_reads_as_standard() -> None:
    """N3: records written before the variants (no flee, no health) read with the defaults."""
    rules = Rules.solo()
    record = Record(rules, random_deal(rules, 2), ())
    data = json.loads(record.to_json())
    assert "flee" not in data["options"] and "health" not in data["options"]
    assert Record.from_dict(data).rules == Rules.solo(flee="allowed", health=20)


@pytest.mark.parametrize(("pair", "says"), [
    ("health=0", "health must be a whole number from 1 to 20, not 0"),
    ("health=21", "health must be a whole number from 1 to 20, not 21"),
    ("health=fourteen", "health must be a whole number, not 'fourteen'"),
    ("flee=sometimes", "flee must be allowed or never, not 'sometimes'"),
])  # fmt: skip
def test_a_bad_variant_is_named(pair: str, says: str) -> None:
    """Bad input: a clear message naming the option and the value."""
    for ruleset in ("solo", "coop"):
        with pytest.raises(OptionError, match=says):
            Rules.parse(ruleset, [pair])
    with pytest.raises(OptionError, match="health must be a whole number from 1 to 20"):
        Rules.from_options("solo", {"health": True})
