"""The solo rules S2-S13, one or more tests per rule, each position built by legal moves from
a stacked dungeon."""

from __future__ import annotations

import pytest
from helpers import (
    CLEAR_DECK,
    CLEAR_ROOMS,
    DEATH_DECK,
    DEATH_MOVES,
    codes,
    moves,
    new,
    play,
    stacked,
)

from scoundrel.core import FLEE, Card, DeckError, IllegalMoveError, Move, Rules, State, Status

SOLO = Rules.solo()
LENIENT = Rules.solo(weapon="lenient")


def health(state: State) -> int:
    return state.hero(1).health


# ---------------------------------------------------------------------- S2 health


def test_s2_health_starts_at_20() -> None:
    """S2: one hero with 20 health, no weapon, nothing on the stack."""
    state = new(SOLO)
    assert len(state.heroes) == 1
    hero = state.hero(1)
    assert (hero.health, hero.weapon, hero.stack, hero.reach, hero.last_kill) == (
        20, None, (), None, None,
    )  # fmt: skip
    assert state.leader == 1
    assert state.status is Status.PLAYING
    assert state.score is None


def test_s2_health_never_exceeds_20() -> None:
    """S2: a potion at 17 health heals only 3 (seed 001: 17 + 9H = 20)."""
    state = play(new(SOLO, "3S 2D 3D KC 9H"), "3S/b 2D 3D")
    assert health(state) == 17
    state = play(state, "9H")
    assert health(state) == 20


def test_s2_potion_at_full_health_stays_at_20() -> None:
    assert health(play(new(SOLO, "10H"), "10H")) == 20


# ---------------------------------------------------------------------- S3 dealing


def test_s3_first_room_is_the_top_four_cards_in_draw_order() -> None:
    """S3: the room is the first four cards drawn, in draw order."""
    state = new(SOLO, "9C 4H KS 7D 2S 3S 4S")
    assert codes(state.room) == ["9C", "4H", "KS", "7D"]
    assert state.dungeon_count == 40
    assert codes(state.dungeon[:3]) == ["2S", "3S", "4S"]


@pytest.mark.parametrize(
    ("taken", "carried"),
    [
        ("2D 3D 4D", "KS"),
        ("2D KS/b 4D", "3D"),
        ("KS/b 4D 3D", "2D"),
        ("3D 4D KS/b", "2D"),
    ],
)
def test_s3_carried_card_comes_first(taken: str, carried: str) -> None:
    """S3: the card left from the last room is the first card of the next room, followed by
    three new cards in draw order."""
    state = play(new(SOLO, "2D 3D KS 4D 5S 6S 7S 8S"), taken)
    assert codes(state.room) == [carried, "5S", "6S", "7S"]
    assert state.dungeon_count == 37
    assert state.resolved_in_room == 0


# ---------------------------------------------------------------------- S4 final room


def test_s4_final_room_is_the_15th_room_with_2_cards() -> None:
    """S4: with 44 cards the 15th room faced is the final room; it holds 2 cards."""
    state = new(SOLO, CLEAR_DECK)
    for number, room_moves in enumerate(CLEAR_ROOMS, start=1):
        assert not state.final_room, f"room {number}"
        assert len(state.room) == 4
        assert state.dungeon_count == 40 - 3 * (number - 1)
        state = play(state, room_moves)
    # after 14 rooms: the 15th room, the dungeon is empty
    assert state.final_room
    assert state.dungeon_count == 0
    assert codes(state.room) == ["10H", "2S"]


def test_s4_final_room_cannot_be_fled() -> None:
    """S4: the final room cannot be fled."""
    state = play(new(SOLO, CLEAR_DECK), " ".join(CLEAR_ROOMS))
    assert state.final_room and not state.fled_into and state.resolved_in_room == 0
    assert FLEE not in state.legal_moves
    assert not state.can_flee
    assert set(state.legal_moves) == moves("10H 2S/w 2S/b")
    with pytest.raises(IllegalMoveError) as error:
        state.apply("F")
    assert "S4" in error.value.reason


def test_s4_final_room_resolved_to_the_end() -> None:
    """S4/S6: in the final room all cards are resolved: the last card is not left over."""
    state = play(new(SOLO, CLEAR_DECK), " ".join(CLEAR_ROOMS))
    state = play(state, "2S/w")
    assert state.status is Status.PLAYING
    assert codes(state.room) == ["10H"]
    assert state.dungeon_count == 0
    assert state.resolved_in_room == 1
    assert state.legal_moves == (Move("10H"),)
    state = play(state, "10H")
    assert state.status is Status.WON
    assert state.room == ()


def test_s4_room_before_the_final_room_can_be_fled() -> None:
    """S4: the 14th room, with cards still in the dungeon, is not the final room."""
    state = play(new(SOLO, CLEAR_DECK), " ".join(CLEAR_ROOMS[:13]))
    assert not state.final_room
    assert state.dungeon_count == 1
    assert FLEE in state.legal_moves
    fled = play(state, "F")
    # the room goes under the last card; the new room is that card and three of the old room
    assert codes(fled.room) == ["2S", "10H", "7H", "8H"]
    assert codes(fled.dungeon) == ["9H"]
    assert not fled.final_room


# ---------------------------------------------------------------------- S5 flee


def test_s5_flee_puts_the_room_under_the_dungeon_in_room_order() -> None:
    """S5: the room's cards go to the bottom of the dungeon in room order; a new room is dealt
    from the top."""
    start = new(SOLO, "KS 2D 5H 9C 3S 4S 5S 6S 7S")
    state = play(start, "F")
    assert codes(state.room) == ["3S", "4S", "5S", "6S"]
    assert state.dungeon_count == 40
    assert codes(state.dungeon[-4:]) == ["KS", "2D", "5H", "9C"]
    assert codes(state.dungeon[:1]) == ["7S"]
    assert state.fled_into
    assert state.hero(1) == start.hero(1)
    assert state.discard == ()


def test_s5_flee_with_a_carried_card_keeps_room_order() -> None:
    """S5/S3: the carried card is first in the room and so goes under first."""
    state = play(new(SOLO, "2D 3D 4D KS 5S 6S 7S 8S 9S 10S"), "2D 3D 4D F")
    assert codes(state.dungeon[-4:]) == ["KS", "5S", "6S", "7S"]
    assert codes(state.room) == ["8S", "9S", "10S", "2C"]
    assert state.dungeon_count == 37


def test_s5_never_two_flees_in_a_row() -> None:
    """S5: the room dealt after a flee must be faced."""
    state = play(new(SOLO), "F")
    assert FLEE not in state.legal_moves
    with pytest.raises(IllegalMoveError) as error:
        state.apply("F")
    assert "S5" in error.value.reason


def test_s5_flee_allowed_again_after_facing_a_room() -> None:
    """S5: after the forced room is faced, the next room may be fled again."""
    state = play(new(SOLO, "KS QS JS 10S 2D 3D 4D 5D"), "F 2D 3D 4D")
    assert codes(state.room) == ["5D", "2C", "3C", "4C"]
    assert not state.fled_into
    assert FLEE in state.legal_moves
    assert play(state, "F").fled_into


def test_s5_no_flee_after_resolving_a_card() -> None:
    """S5: fleeing is only possible before any card of the room is resolved."""
    state = play(new(SOLO, "2D KS QS JS"), "2D")
    assert FLEE not in state.legal_moves
    with pytest.raises(IllegalMoveError) as error:
        state.apply("F")
    assert "S5" in error.value.reason
    assert "before" in error.value.reason


def test_s5_flee_allowed_in_the_first_room() -> None:
    state = new(SOLO)
    assert state.can_flee
    assert FLEE in state.legal_moves
    assert state.legal_moves[-1] is FLEE


def test_s5_fled_cards_come_back_in_order() -> None:
    """S5: fled cards are dealt again, in the order they went under, once the dungeon reaches
    them."""
    state = play(new(SOLO, CLEAR_DECK), " ".join(CLEAR_ROOMS[:12]))
    # room 13: 10H 5S 4S 3S, dungeon 7H 8H 9H 2S
    assert codes(state.room) == ["10H", "5S", "4S", "3S"]
    state = play(state, "F")
    assert codes(state.room) == ["7H", "8H", "9H", "2S"]
    assert codes(state.dungeon) == ["10H", "5S", "4S", "3S"]
    state = play(state, "7H 8H 9H")
    assert codes(state.room) == ["2S", "10H", "5S", "4S"]
    assert codes(state.dungeon) == ["3S"]


# ---------------------------------------------------------------------- S6 face


def test_s6_three_resolved_the_fourth_stays() -> None:
    """S6: cards are resolved one at a time until one is left, which starts the next room."""
    state = new(SOLO, "2D 3D 4D 5D 6D 7D 8D")
    state = play(state, "3D")
    assert codes(state.room) == ["2D", "4D", "5D"]
    assert state.resolved_in_room == 1
    state = play(state, "5D")
    assert codes(state.room) == ["2D", "4D"]
    assert state.resolved_in_room == 2
    assert state.dungeon_count == 40
    state = play(state, "2D")
    assert codes(state.room) == ["4D", "6D", "7D", "8D"]
    assert state.resolved_in_room == 0
    assert state.dungeon_count == 37


def test_s6_any_order() -> None:
    """S6: any card of the room may be resolved first."""
    state = new(SOLO, "2D 5H KS 9C")
    assert set(state.legal_moves) == moves("2D 5H KS/b 9C/b F")


# ---------------------------------------------------------------------- S7 weapon


def test_s7_equipping_discards_the_old_weapon_and_its_stack() -> None:
    """S7: the previous weapon and every monster slain with it are discarded."""
    state = play(new(SOLO, "5D 3S 2S KC 8D"), "5D 3S/w 2S/w")
    assert state.hero(1).weapon == Card("5D")
    assert codes(state.hero(1).stack) == ["3S", "2S"]
    assert state.discard == ()
    state = play(state, "8D")
    hero = state.hero(1)
    assert hero.weapon == Card("8D")
    assert hero.stack == ()
    assert hero.last_kill is None
    assert codes(state.discard) == ["5D", "3S", "2S"]


def test_s7_a_fresh_weapon_works_on_any_monster() -> None:
    """S7: a new weapon can be used on any monster, even after a worn stronger one."""
    state = play(new(SOLO, "10D 3S 5C 4C 2D"), "10D 3S/w")
    assert state.hero(1).reach == 3
    assert Move("4C/w") not in state.legal_moves
    state = play(state, "5C/b")  # 20 - 5 = 15; room 2 is 4C 2D 2C 3C
    assert codes(state.room) == ["4C", "2D", "2C", "3C"]
    state = play(state, "2D")  # 2D replaces 10D, which could not hit 4C any more
    assert state.hero(1).reach == 16
    assert Move("4C/w") in state.legal_moves
    state = play(state, "4C/w")
    assert health(state) == 15 - (4 - 2)
    assert codes(state.hero(1).stack) == ["4C"]
    assert codes(state.discard) == ["5C", "10D", "3S"]


def test_s7_equipping_is_mandatory() -> None:
    """S7: a diamond has one move, equip it; there is no way to keep it aside."""
    state = play(new(SOLO, "5D 7D KS 2C"), "5D")
    assert [m.token for m in state.legal_moves if m.card == Card("7D")] == ["7D"]
    state = play(state, "7D")
    assert state.hero(1).weapon == Card("7D")
    assert codes(state.discard) == ["5D"]


# ---------------------------------------------------------------------- S8 fighting


def test_s8_bare_hands_allowed_with_a_usable_weapon_and_leave_it_untouched() -> None:
    """S8: bare-handed is always allowed; damage is the monster's value; the weapon, its
    stack and its reach do not change."""
    state = play(new(SOLO, "5D JS 3S 2C"), "5D JS/w")
    assert health(state) == 14
    assert moves("3S/w 3S/b") <= set(state.legal_moves)
    before = state.hero(1)
    state = play(state, "3S/b")
    hero = state.hero(1)
    assert hero.health == 14 - 3
    assert hero.weapon == before.weapon == Card("5D")
    assert hero.stack == before.stack == (Card("JS"),)
    assert hero.reach == before.reach == 11
    assert codes(state.discard) == ["3S"]


def test_s8_bare_hands_with_a_fresh_weapon_keep_it_fresh() -> None:
    state = play(new(SOLO, "5D 6S KS 2C"), "5D 6S/b")
    assert health(state) == 14
    assert state.hero(1).reach == 16
    assert state.hero(1).stack == ()


@pytest.mark.parametrize(
    ("weapon", "monster", "damage"),
    [("5D", "3S", 0), ("5D", "5S", 0), ("5D", "JS", 6), ("10D", "AC", 4), ("2D", "AS", 12)],
)
def test_s8_weapon_damage_is_max_0_monster_minus_weapon(
    weapon: str, monster: str, damage: int
) -> None:
    """S8: with the weapon, damage = max(0, monster - weapon); the monster goes onto the
    weapon's stack."""
    state = play(new(SOLO, f"{weapon} {monster}"), f"{weapon} {monster}/w")
    hero = state.hero(1)
    assert hero.health == 20 - damage
    assert hero.stack == (Card(monster),)
    assert hero.last_kill == Card(monster).value
    assert state.discard == ()


def test_s8_no_weapon_no_weapon_moves() -> None:
    """S8: without a weapon there is only bare-handed fighting."""
    state = new(SOLO, "KS 2S 3C 5H")
    assert not any(m.weapon for m in state.legal_moves)
    assert set(state.legal_moves) == moves("KS/b 2S/b 3C/b 5H F")


# ---------------------------------------------------------------------- S9 weapon wear


def test_s9_strict_default_after_a_6_no_other_6() -> None:
    """S9 strict (solo default): after a 6, another 6 is not allowed."""
    assert SOLO.weapon == "strict"
    state = play(new(SOLO, "5D 6S 6C 5C"), "5D 6S/w")
    assert health(state) == 19
    assert state.hero(1).reach == 6
    assert Move("6C/w") not in state.legal_moves
    assert moves("6C/b 5C/w 5C/b") <= set(state.legal_moves)
    with pytest.raises(IllegalMoveError) as error:
        state.apply("6C/w")
    assert "S9" in error.value.reason


def test_s9_lenient_after_a_6_another_6() -> None:
    """S9 weapon=lenient: weaker or equal."""
    state = play(new(LENIENT, "5D 6S 6C 7C"), "5D 6S/w")
    assert state.hero(1).reach == 7
    assert Move("6C/w") in state.legal_moves
    assert "7C/w" not in {m.token for m in state.legal_moves}
    state = play(state, "6C/w")
    assert health(state) == 18
    assert codes(state.hero(1).stack) == ["6S", "6C"]


def test_s9_strictly_weaker_after_a_queen() -> None:
    """S9: after a Q, 11 and below (strict) or 12 and below (lenient)."""
    for rules, reach in ((SOLO, 12), (LENIENT, 13)):
        state = play(new(rules, "5D QS JS QC KC"), "5D QS/w")
        assert state.hero(1).reach == reach
        tokens = {m.token for m in state.legal_moves}
        assert "JS/w" in tokens
        assert ("QC/w" in tokens) is (rules is LENIENT)


def test_s9_unusable_weapon_stays_equipped() -> None:
    """S9: a weapon that cannot be used on a monster stays equipped with its stack."""
    state = play(new(SOLO, "5D 6S QS 4C 2C"), "5D 6S/w")
    assert "QS/w" not in {m.token for m in state.legal_moves}
    state = play(state, "QS/b")
    hero = state.hero(1)
    assert hero.health == 20 - 1 - 12
    assert hero.weapon == Card("5D")
    assert hero.stack == (Card("6S"),)
    assert hero.reach == 6
    state = play(state, "4C/w")
    assert health(state) == 7
    assert codes(state.hero(1).stack) == ["6S", "4C"]


def test_s9_wear_follows_the_last_kill_not_the_first() -> None:
    state = play(new(SOLO, "10D KS 3S QS 2S 2C 4C"), "10D KS/w 3S/w")
    assert state.hero(1).last_kill == 3
    assert state.hero(1).reach == 3
    assert "QS/w" not in {m.token for m in state.legal_moves}


# ---------------------------------------------------------------------- S10 potions


def test_s10_first_potion_heals_even_at_20_and_uses_the_rooms_potion() -> None:
    """S10: the first potion of a room counts even if it healed nothing; a second potion in
    the same room has no effect but counts as one of the three cards."""
    state = play(new(SOLO, "5H 9S 8H 4H 2C 3C 4C"), "5H")
    assert health(state) == 20
    assert state.hero(1).potion_used
    state = play(state, "9S/b")
    assert health(state) == 11
    state = play(state, "8H")
    assert health(state) == 11
    assert codes(state.discard) == ["5H", "9S", "8H"]
    # three cards resolved: a new room with the carried 4H first
    assert codes(state.room) == ["4H", "2C", "3C", "4C"]
    assert not state.hero(1).potion_used


def test_s10_potion_carried_into_the_next_room_works() -> None:
    """S10: a potion carried into the next room works normally there."""
    state = play(new(SOLO, "5H 9S 8H 4H 2C 3C 4C"), "5H 9S/b 8H 4H")
    assert health(state) == 15
    assert state.hero(1).potion_used


def test_s10_second_potion_in_a_room_heals_nothing_even_when_hurt() -> None:
    state = play(new(SOLO, "KS 2D 3D 9C 4H 6H"), "KS/b 2D 3D")
    assert health(state) == 7
    state = play(state, "4H")
    assert health(state) == 11
    state = play(state, "6H")
    assert health(state) == 11
    assert state.resolved_in_room == 2


def test_s10_potion_flag_resets_each_room() -> None:
    state = play(new(SOLO, "KS 2H 3D QS 5D 4H 6D"), "KS/b 2H 3D")
    assert health(state) == 9
    assert not state.hero(1).potion_used
    assert codes(state.room) == ["QS", "5D", "4H", "6D"]
    state = play(state, "4H")
    assert health(state) == 13
    assert state.hero(1).potion_used


# ---------------------------------------------------------------------- S11 death


def test_s11_death_ends_the_game_at_once() -> None:
    """S11: the game ends the moment health is 0 or below; nothing more is resolved."""
    state = play(new(SOLO, "AS KS QS JS"), "AS/b")
    assert state.status is Status.PLAYING
    state = play(state, "KS/b")
    assert state.status is Status.LOST
    assert state.is_over
    assert health(state) == 6 - 13
    assert state.legal_moves == ()
    assert codes(state.room) == ["QS", "JS"]
    assert state.dungeon_count == 40
    with pytest.raises(IllegalMoveError):
        state.apply("QS/b")


def test_s11_health_exactly_0_is_death() -> None:
    state = play(new(SOLO, "AS 6S QS JS"), "AS/b 6S/b")
    assert health(state) == 0
    assert state.status is Status.LOST
    assert state.legal_moves == ()


def test_s11_death_in_the_middle_of_a_room_does_not_deal() -> None:
    """S11: dying with the third card of a room deals no new room."""
    state = play(new(SOLO, "2D AS KS 2C 3C"), "2D AS/b")
    state = play(state, "KS/b")
    assert state.status is Status.LOST
    assert codes(state.room) == ["2C"]
    assert state.dungeon_count == 40


# ---------------------------------------------------------------------- S12 victory


def test_s12_victory_when_dungeon_and_room_are_empty() -> None:
    """S12: the dungeon is cleared when dungeon and room are both empty with health > 0."""
    state = play(new(SOLO, CLEAR_DECK), " ".join(CLEAR_ROOMS))
    state = play(state, "2S/w 10H")
    assert state.status is Status.WON
    assert state.is_over
    assert state.room == ()
    assert state.dungeon == ()
    assert health(state) == 20
    assert state.legal_moves == ()
    assert len(state.discard) + len(state.hero(1).stack) + 1 == 44


# ---------------------------------------------------------------------- S13 score


@pytest.mark.parametrize(
    ("final", "score", "parts"),
    [
        # health exactly 20 and the last card a potion: its value is added (even at 20)
        ("2S/w 10H", 30, (("health", 20), ("potion_bonus", 10))),
        # health 18, the last potion heals to exactly 20: bonus
        ("2S/b 10H", 30, (("health", 20), ("potion_bonus", 10))),
        # the last card resolved is a monster: health only
        ("10H 2S/w", 20, (("health", 20),)),
        ("10H 2S/b", 18, (("health", 18),)),
    ],
)
def test_s13_cleared_score(final: str, score: int, parts: tuple[tuple[str, int], ...]) -> None:
    """S13: cleared = health; at exactly 20 with a potion resolved last, add its value
    (maximum 30)."""
    state = play(new(SOLO, CLEAR_DECK), " ".join(CLEAR_ROOMS) + " " + final)
    assert state.status is Status.WON
    assert state.score == score
    breakdown = state.score_breakdown()
    assert breakdown is not None
    assert breakdown.total == score
    assert breakdown.parts == parts


def test_s13_no_bonus_below_20_even_with_a_potion_last() -> None:
    """S13: health below 20 with a potion last: no bonus."""
    rooms = list(CLEAR_ROOMS)
    rooms[12] = "5S/b 4S/b 3S/b"  # 15 -> 3
    state = play(new(SOLO, CLEAR_DECK), " ".join(rooms))
    assert health(state) == 10  # 3 + 7H; 8H and 9H had no effect
    state = play(state, "2S/b 10H")
    assert state.status is Status.WON
    assert health(state) == 18
    assert state.score == 18
    assert state.score_breakdown().parts == (("health", 18),)  # type: ignore[union-attr]


def test_s13_dead_standard_example() -> None:
    """S13 (seed 001): 3 health, bare-handed 9S -> -6; KC and 5S remain -> -24."""
    state = play(new(SOLO, DEATH_DECK), DEATH_MOVES)
    assert health(state) == 3
    assert codes(state.room) == ["KC", "9S"]
    assert codes(state.dungeon) == ["5S"]
    state = play(state, "9S/b")
    assert state.status is Status.LOST
    assert health(state) == -6
    assert state.score == -24
    assert state.score_breakdown().parts == (  # type: ignore[union-attr]
        ("health", -6),
        ("monsters_in_dungeon", -5),
        ("monsters_in_room", -13),
    )


def test_s13_dead_dungeon_only() -> None:
    """S13 death_score=dungeon-only (seed 000): only the face-down dungeon's monsters count."""
    rules = Rules.solo(death_score="dungeon-only")
    state = play(new(rules, DEATH_DECK), DEATH_MOVES + " 9S/b")
    assert state.status is Status.LOST
    assert state.score == -5
    assert state.score_breakdown().parts == (("monsters_in_dungeon", -5),)  # type: ignore[union-attr]


def test_s13_dead_early_counts_every_monster_left() -> None:
    """S13 standard: dying in the first room; every other monster is still in play."""
    for rules, score in (
        (SOLO, -7 - (208 - 14 - 13)),
        (Rules.solo(death_score="dungeon-only"), -(208 - 14 - 13 - 12)),
    ):
        state = play(new(rules, "AS KS QS 2D"), "AS/b KS/b")
        assert state.status is Status.LOST
        assert state.score == score


def test_s13_no_score_while_playing() -> None:
    state = play(new(SOLO, CLEAR_DECK), " ".join(CLEAR_ROOMS) + " 2S/w")
    assert state.score is None
    assert state.score_breakdown() is None


def test_s1_state_checks_the_deck() -> None:
    """S1: a solo game needs exactly the 44 solo cards."""
    with pytest.raises(DeckError):
        State.new(SOLO, stacked(Rules.coop()))
    with pytest.raises(DeckError):
        State.new(SOLO, stacked(SOLO)[:-1])
