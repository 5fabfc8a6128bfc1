"""The co-op rules C1-C11 ("Scoundrel for two", seed 002), each test citing its rule."""

from __future__ import annotations

import pytest
from helpers import COOP_DECK, COOP_FINAL, COOP_ROOMS, codes, moves, new, play, stacked

from scoundrel.core import (
    FLEE,
    Card,
    IllegalMoveError,
    Move,
    OptionError,
    Rules,
    State,
    Status,
)

COOP = Rules.coop()
STRICT = Rules.coop(weapon="strict")


def healths(state: State) -> tuple[int, int]:
    return state.hero(1).health, state.hero(2).health


def help_moves(state: State) -> set[str]:
    return {m.token for m in state.legal_moves if m.help}


# ---------------------------------------------------------------------- C1 heroes


def test_c1_two_heroes_with_20_health() -> None:
    """C1: two heroes, each 20 health, a weapon slot and a stack; they play as a team."""
    state = new(COOP)
    assert len(state.heroes) == 2
    for hero in state.heroes:
        assert (hero.health, hero.weapon, hero.stack, hero.reach) == (20, None, (), None)
    assert state.leader == 1
    assert state.status is Status.PLAYING
    with pytest.raises(ValueError, match="no hero 3"):
        state.hero(3)


def test_c1_health_capped_at_20_for_each_hero() -> None:
    state = play(new(COOP, "9H 2D 3D KC"), ">9H 2D 3D")
    assert healths(state) == (20, 20)


# ---------------------------------------------------------------------- C3 leader


def test_c3_leaders_alternate_after_a_faced_room() -> None:
    """C3: hero 1 leads the first room, then the other hero after each faced room."""
    state = new(COOP, "2D 3D 4D KC 5D 6D 7D 8D 9D 10D")
    assert state.leader == 1
    state = play(state, "2D 3D 4D")
    assert state.leader == 2
    assert codes(state.room) == ["KC", "5D", "6D", "7D"]
    state = play(state, "5D 6D 7D")
    assert state.leader == 1
    state = play(state, "8D 9D 10D")
    assert state.leader == 2


def test_c3_leader_keeps_the_lead_during_the_room() -> None:
    state = play(new(COOP, "2D 3D 4D KC"), "2D 3D")
    assert state.leader == 1


def test_c3_same_leader_after_a_flee_and_must_face() -> None:
    """C3/S5: after a flee the same hero leads the new room and must face it."""
    state = play(new(COOP, "2D 3D 4D KC 2C 3C 4C 5C 2S 3S 4S"), "2D 3D 4D")
    assert state.leader == 2
    state = play(state, "F")
    assert codes(state.room) == ["5C", "2S", "3S", "4S"]
    assert state.leader == 2
    assert state.fled_into
    assert FLEE not in state.legal_moves
    with pytest.raises(IllegalMoveError) as error:
        state.apply("F")
    assert "S5" in error.value.reason
    state = play(state, "2S/b 3S/b 4S/b")
    assert state.leader == 1
    assert healths(state) == (20, 11)
    assert FLEE in state.legal_moves


def test_c3_first_leader_2() -> None:
    """C3 option first_leader=2: hero 2 leads the first room, hero 1 the second."""
    rules = Rules.coop(first_leader=2)
    state = new(rules, "2D 3D 4D KC")
    assert state.leader == 2
    state = play(state, "2D 3D")
    assert state.hero(2).weapon == Card("3D")
    assert state.hero(1).weapon is None
    state = play(state, "4D")
    assert state.leader == 1


# ---------------------------------------------------------------------- C4 facing


def test_c4_cards_act_on_the_leader() -> None:
    """C4: the leader's cards act on the leader, whichever hero that is."""
    state = play(new(COOP, "2D 9S 5H KC 8D 7S 4H"), "2D 5H 9S/w")
    assert healths(state) == (13, 20)
    assert state.hero(1).weapon == Card("2D")
    assert state.leader == 2
    state = play(state, "8D 7S/w 4H")
    assert healths(state) == (13, 20)
    assert state.hero(2).weapon == Card("8D")
    assert codes(state.hero(2).stack) == ["7S"]
    assert codes(state.hero(1).stack) == ["9S"]


def test_c4_leader_resolves_three_the_fourth_stays() -> None:
    state = play(new(COOP, "2D 3D 4D KC"), "2D 3D 4D")
    assert codes(state.room)[0] == "KC"
    assert len(state.room) == 4


# ---------------------------------------------------------------------- C5 help card


def test_c5_help_moves_are_listed_for_every_card() -> None:
    """C5: any card of the room may be the help card: weapons and potions with >, monsters
    with >/b (and >/w when the partner's weapon can be used on them)."""
    state = new(COOP, "7D 5H KS 9C")
    assert help_moves(state) == {">7D", ">5H", ">KS/b", ">9C/b"}
    assert set(state.legal_moves) == moves("7D 5H KS/b 9C/b >7D >5H >KS/b >9C/b F")


def test_c5_at_most_one_help_card_per_room() -> None:
    """C5: after the help card, no other card may go to the partner in that room."""
    state = play(new(COOP, "2D 3D 4D KC 5D"), ">2D")
    assert state.help_used
    assert help_moves(state) == set()
    with pytest.raises(IllegalMoveError) as error:
        state.apply(">3D")
    assert "C5" in error.value.reason
    state = play(state, "3D 4D")
    assert not state.help_used
    assert ">5D" in help_moves(state)


def test_c5_help_card_counts_as_one_of_the_three() -> None:
    """C5: the help card is one of the cards taken: two more and the room is done."""
    state = play(new(COOP, "2D 3D 4D KC"), ">2D 3D")
    assert state.resolved_in_room == 2
    state = play(state, "4D")
    assert state.leader == 2
    assert codes(state.room) == ["KC", "2C", "3C", "4C"]
    assert state.hero(2).weapon == Card("2D")
    assert state.hero(1).weapon == Card("4D")


def test_c5_weapon_equipped_by_partner_discarding_old_weapon_and_stack() -> None:
    """C5/S7: a weapon given as help is equipped by the partner; the partner's old weapon and
    its stack are discarded. The leader's weapon does not change."""
    state = play(new(COOP, "3D 2S 5D KC 8D 9D 6H"), "3D 2S/w >5D")
    assert state.hero(1).weapon == Card("3D")
    assert codes(state.hero(1).stack) == ["2S"]
    assert state.hero(2).weapon == Card("5D")
    # hero 2 leads and gives 8D to hero 1
    state = play(state, ">8D 9D")
    hero1, hero2 = state.heroes
    assert hero1.weapon == Card("8D")
    assert hero1.stack == ()
    assert hero1.reach == 16
    assert hero2.weapon == Card("9D")
    assert codes(state.discard) == ["3D", "2S", "5D"]


def test_c5_potion_heals_the_partner() -> None:
    """C5/C6: a potion given as help heals the partner, not the leader."""
    state = play(new(COOP, "9S 2D 3D KC 6H 4D 5D"), "9S/b 2D 3D")
    assert healths(state) == (11, 20)
    assert state.leader == 2
    state = play(state, ">6H")
    assert healths(state) == (17, 20)
    assert state.hero(1).potion_used
    assert not state.hero(2).potion_used


def test_c5_a_move_says_which_hero_it_plays_on() -> None:
    """C5: the help card plays on the leader's partner, every other move on the leader;
    interfaces ask the move (Move.hero) instead of working it out."""
    state = play(new(COOP, "9S 2D 3D KC 6H 4D 5D"), "9S/b 2D 3D")
    assert state.leader == 2
    for move in state.legal_moves:
        target = move.hero(state.leader)
        assert target == (1 if move.help else 2)
        others = [n for n in (1, 2) if n != target]
        before, after = state.hero(others[0]), state.preview(move).heroes[others[0] - 1]
        assert before == after  # the other hero is untouched
    assert Move(">6H").hero(1) == 2 and Move("6H").hero(1) == 1 and FLEE.hero(2) == 2


def test_c5_monster_fought_by_partner_with_partners_weapon() -> None:
    """C5: >KS/w is fought by the partner with the partner's own weapon."""
    state = play(new(COOP, "2D 9D 3D KC KS 4D 5D"), ">9D 2D 3D")
    assert state.hero(2).weapon == Card("9D")
    assert state.hero(1).weapon == Card("3D")
    # hero 2 leads: hero 1 is the partner now; give hero 1 the king
    assert state.leader == 2
    assert {">KS/w", ">KS/b", ">KC/w", ">KC/b"} <= help_moves(state)
    state = play(state, ">KS/w")
    assert healths(state) == (20 - (13 - 3), 20)
    assert codes(state.hero(1).stack) == ["KS"]
    assert state.hero(2).stack == ()


def test_c5_monster_fought_by_partner_bare_handed() -> None:
    """C5: >KS/b is fought bare-handed by the partner; the partner's weapon is untouched."""
    state = play(new(COOP, "2D 9D 3D KC KS 4D 5D"), ">9D 2D 3D")
    state = play(state, ">KS/b")
    assert healths(state) == (7, 20)
    assert state.hero(1).weapon == Card("3D")
    assert state.hero(1).stack == ()
    assert state.hero(1).reach == 16
    assert codes(state.discard)[-1] == "KS"


def test_c5_partner_without_weapon_fights_bare() -> None:
    """C5: the partner fights with the partner's weapon, never the leader's."""
    state = play(new(COOP, "9D KS 2C 3C"), "9D")
    assert "KS/w" in {m.token for m in state.legal_moves}
    assert ">KS/w" not in help_moves(state)
    assert ">KS/b" in help_moves(state)
    with pytest.raises(IllegalMoveError) as error:
        state.apply(">KS/w")
    assert "partner" in error.value.reason
    state = play(state, ">KS/b")
    assert healths(state) == (20, 7)
    assert state.hero(1).stack == ()


def test_c5_partners_weapon_wear_applies_to_help() -> None:
    """C5/C7: >/w needs the partner's weapon to reach the monster."""
    state = play(new(STRICT, "2D 9D 3D KC 5C 5S 4S"), ">9D 2D 3D")
    # hero 2 leads; hero 2 gives 5C to hero 1, who has 3D
    state = play(state, ">5C/w")
    assert state.hero(1).reach == 5
    state = play(state, "5S/w 4S/w")  # hero 2's 9D
    assert healths(state) == (18, 20)
    assert state.leader == 1
    # hero 1 leads; hero 2's 9D last slew 4S: strict, only below 4
    assert state.hero(2).reach == 4
    assert ">KC/w" not in help_moves(state)
    assert ">KC/b" in help_moves(state)
    with pytest.raises(IllegalMoveError) as error:
        state.apply(">KC/w")
    assert "C7" in error.value.reason


def test_c5_nothing_else_changes_hands() -> None:
    """C5: giving a card moves no health and no equipped weapon."""
    state = play(new(COOP, "5D KS 3C QC"), "5D >KS/b")
    hero1, hero2 = state.heroes
    assert (hero1.health, hero1.weapon) == (20, Card("5D"))
    assert (hero2.health, hero2.weapon) == (7, None)


# ---------------------------------------------------------------------- C6 potions


def test_c6_leader_drinks_one_and_gives_another_both_heal() -> None:
    """C6: the leader may drink one potion and give another as the help card."""
    state = play(new(COOP, "9S 8S 2D KC 6H 5H 4H"), "9S/b >8S/b 2D")
    assert healths(state) == (11, 12)
    assert state.leader == 2
    state = play(state, "6H >5H")
    assert healths(state) == (16, 18)
    assert state.hero(1).potion_used and state.hero(2).potion_used


def test_c6_each_hero_one_potion_per_room() -> None:
    """C6: a second potion for the same hero in the same room has no effect."""
    state = play(new(COOP, "9S 8S 2D KC 6H 5H 4H"), "9S/b >8S/b 2D 6H >5H")
    state = play(state, "4H")
    assert healths(state) == (16, 18)
    assert state.leader == 1  # the room is done: the second potion counted
    assert not state.hero(1).potion_used and not state.hero(2).potion_used


def test_c6_partners_potion_does_not_use_the_leaders() -> None:
    state = play(new(COOP, "9S 8S 2D KC 6H 5H 4H"), "9S/b >8S/b 2D >5H")
    assert healths(state) == (16, 12)
    state = play(state, "6H")
    assert healths(state) == (16, 18)


# ---------------------------------------------------------------------- C7 weapon wear


def test_c7_lenient_default_equal_allowed() -> None:
    """C7: co-op default is lenient: at most as strong as the last kill."""
    assert COOP.weapon == "lenient"
    state = play(new(COOP, "5D 6S 6C 7C"), "5D 6S/w")
    assert state.hero(1).reach == 7
    tokens = {m.token for m in state.legal_moves}
    assert "6C/w" in tokens
    assert "7C/w" not in tokens
    with pytest.raises(IllegalMoveError) as error:
        state.apply("7C/w")
    assert "C7" in error.value.reason
    assert "lenient" in error.value.reason
    state = play(state, "6C/w")
    assert healths(state) == (18, 20)
    assert codes(state.hero(1).stack) == ["6S", "6C"]


def test_c7_strict_variant() -> None:
    """C7 weapon=strict: strictly weaker."""
    state = play(new(STRICT, "5D 6S 6C 5C"), "5D 6S/w")
    assert state.hero(1).reach == 6
    assert "6C/w" not in {m.token for m in state.legal_moves}
    assert "5C/w" in {m.token for m in state.legal_moves}
    with pytest.raises(IllegalMoveError) as error:
        state.apply("6C/w")
    assert "C7" in error.value.reason
    assert "strict" in error.value.reason


def test_c7_damage_as_s8() -> None:
    state = play(new(COOP, "5D JS 3S KC"), "5D JS/w 3S/w")
    assert healths(state) == (14, 20)


# ---------------------------------------------------------------------- C8 death


def test_c8_leader_dies() -> None:
    """C8: the team loses the moment either hero is at 0 or below."""
    state = play(new(COOP, "AS KS QS JS"), "AS/b KS/b")
    assert state.status is Status.LOST
    assert healths(state) == (-7, 20)
    assert state.legal_moves == ()


def test_c8_partner_dies_to_a_help_monster() -> None:
    """C8: the partner dying to the help card loses the game at once."""
    state = play(new(COOP, "KS 2D 3D KC 4D 5D 6D QS"), ">KS/b 2D 3D 4D 5D 6D")
    assert healths(state) == (20, 7)
    assert state.leader == 1
    assert codes(state.room) == ["KC", "QS", "2C", "3C"]
    state = play(state, ">QS/b")
    assert state.status is Status.LOST
    assert healths(state) == (20, -5)
    assert state.legal_moves == ()
    # C10: lost = minus every monster still in the dungeon and the room, no health
    assert state.score == -(308 - 13 - 12)
    assert state.score_breakdown().parts == (  # type: ignore[union-attr]
        ("monsters_in_dungeon", -(308 - 13 - 12 - 13 - 2 - 3)),
        ("monsters_in_room", -(13 + 2 + 3)),
    )


def test_c8_exactly_zero_loses() -> None:
    state = play(new(COOP, "KS 2D 3D 7S"), ">KS/b 2D 3D")
    assert state.leader == 2
    state = play(state, "7S/b")
    assert healths(state) == (20, 0)
    assert state.status is Status.LOST
    state = play(new(COOP, "AS 6S 2D KC"), "AS/b 6S/b")
    assert healths(state) == (0, 20)
    assert state.status is Status.LOST


# ---------------------------------------------------------------------- C9 end


def test_c9_final_room_is_the_17th_with_4_cards() -> None:
    """C9: with 52 cards the 17th room faced is the final room and holds 4 cards."""
    state = new(COOP, COOP_DECK)
    for number, room_moves in enumerate(COOP_ROOMS, start=1):
        assert not state.final_room, f"room {number}"
        assert state.leader == 2 - number % 2
        state = play(state, room_moves)
    assert state.final_room
    assert state.dungeon_count == 0
    assert codes(state.room) == ["10H", "3C", "2C", "2S"]
    assert state.leader == 1
    assert FLEE not in state.legal_moves
    with pytest.raises(IllegalMoveError) as error:
        state.apply("F")
    assert "S4" in error.value.reason


def test_c9_final_room_all_cards_resolved_with_one_help_card() -> None:
    """C9: the leader resolves all of the final room's cards; the help card still applies,
    once."""
    state = play(new(COOP, COOP_DECK), " ".join(COOP_ROOMS))
    assert ">2S/w" in help_moves(state)
    state = play(state, "3C/w 2C/w")
    assert state.status is Status.PLAYING
    state = play(state, ">2S/w")
    # three cards resolved, yet the room is not re-dealt: the fourth must be taken too
    assert state.status is Status.PLAYING
    assert codes(state.room) == ["10H"]
    assert state.leader == 1
    assert state.legal_moves == (Move("10H"),)
    assert codes(state.hero(2).stack)[-1] == "2S"
    state = play(state, "10H")
    assert state.status is Status.WON
    assert healths(state) == (20, 17)


# Winning lines for the shorter and longer dungeons of C11 (found by a search, checked here
# move by move). Each room's moves are one string; the last string is the final room.
EASIER_DECK = (
    "2D 3D 4D 5D 6D 7D 8D 10D 9D AC AS 2H 3H KC KS 4H KH KD 5H QC QS 6H QH QD 7H JC JS 8H "
    "JH JD 9H 10C 10S 10H 9C 9S 8C 8S 7C 7S 6C 6S 5C 5S 4C 4S 3C 3S 2C 2S"
)
EASIER_ROOMS = (
    "2D >3D 4D", "5D 6D 7D", "8D 10D 9D", "2H 3H >AC/w", "4H KC/w KS/w", ">5H KH/w KD/w",
    ">6H QC/w QS/w", ">7H QH/w QD/w", ">8H JC/w JS/w", "9H >JH/w JD/w", "10H 10C/w 10S/w",
    ">9C/w 8C/w 9S/b", "8S/w 7C/w 7S/w", ">6C/w 6S/w 5C/w", ">5S/w 4C/w 4S/w",
    ">3C/w 3S/w 2C/w", ">2S/w AS/b",
)  # fmt: skip
HARDER_DECK = (
    "2D 3D 4D 5D 6D 7D 8D 10D 9D RJ BJ AC AS 2H AH AD 3H KC KS 4H KH KD 5H QC QS 6H QH QD "
    "7H JC JS 8H JH JD 9H 10C 10S 10H 9C 9S 8C 8S 7C 7S 6C 6S 5C 5S 4C 4S 3C 3S 2C 2S"
)
HARDER_ROOMS = (
    "2D >3D 4D", "5D 6D 7D", "8D 10D >9D", ">AC/w RJ/w AS/w", ">2H AH/w AD/w",
    ">3H KC/w KS/w", ">4H KH/w KD/w", ">5H QC/w QS/w", ">6H QH/w QD/w", ">7H JC/w JS/w",
    ">8H JH/w JD/w", "9H >10C/w 10S/w", "10H 9C/w 9S/w", ">8C/w 8S/w 7C/w",
    ">7S/w 6C/w 6S/w", ">5C/w 5S/w 4C/w", ">4S/w 3C/w 3S/w", ">2C/w 2S/w BJ/b",
)  # fmt: skip


@pytest.mark.parametrize(
    ("rules", "deck", "rooms", "final_room", "score"),
    [
        (Rules.coop(easier=True), EASIER_DECK, EASIER_ROOMS, ["AS", "2S"], 4 + 6),
        (Rules.coop(harder=True), HARDER_DECK, HARDER_ROOMS, ["BJ", "2C", "2S"], 20 + 4),
    ],
    ids=["easier-50", "harder-54"],
)
def test_c9_shorter_final_rooms(
    rules: Rules, deck: str, rooms: tuple[str, ...], final_room: list[str], score: int
) -> None:
    """C9/C11: with 50 cards the final room is the 17th and holds 2 cards; with 54 it is the
    18th and holds 3. It cannot be fled, all its cards are resolved, one help card."""
    state = new(rules, deck)
    *before, final = rooms
    for number, room_moves in enumerate(before, start=1):
        assert not state.final_room, f"room {number}"
        assert len(state.room) == 4
        state = play(state, room_moves)
    assert state.final_room
    assert state.dungeon_count == 0
    assert codes(state.room) == final_room
    assert len(rooms) == (17 if rules.deck_size == 50 else 18)
    assert FLEE not in state.legal_moves
    tokens = final.split()
    assert tokens[0].startswith(">")
    state = play(state, tokens[0])
    assert help_moves(state) == set()
    state = play(state, " ".join(tokens[1:]))
    assert state.status is Status.WON
    assert state.score == score


# ---------------------------------------------------------------------- C10 score


def test_c10_won_score_is_both_healths_without_potion_bonus() -> None:
    """C10: won = hero 1's health + hero 2's; no potion bonus even with a potion taken last
    at 20."""
    state = play(new(COOP, COOP_DECK), " ".join(COOP_ROOMS) + " " + COOP_FINAL)
    assert state.status is Status.WON
    assert state.last_resolved == Card("10H")
    assert state.score == 37
    assert state.score_breakdown().parts == (  # type: ignore[union-attr]
        ("health_hero1", 20),
        ("health_hero2", 17),
    )


def test_c10_lost_score_counts_dungeon_and_room_monsters() -> None:
    """C10: lost = minus the monsters still in the dungeon and the room (no health)."""
    state = play(new(COOP, "AS KS QS JS 2D"), "AS/b KS/b")
    assert state.status is Status.LOST
    # 308 = every co-op monster: 2 x (2..14) + 4 x (11..14)
    assert sum(c.value for c in COOP.cards if c.is_monster) == 308
    assert state.score == -(308 - 14 - 13)
    assert state.score_breakdown().parts == (  # type: ignore[union-attr]
        ("monsters_in_dungeon", -(308 - 14 - 13 - 12 - 11)),
        ("monsters_in_room", -(12 + 11)),
    )


# ---------------------------------------------------------------------- C11 variants


def test_c11_options_parse() -> None:
    """C11: the variants are options, combinable; N3 defaults."""
    rules = Rules.parse(
        "coop",
        ["weapon=strict", "easier=yes", "harder=true", "silent-leader=on", "first_leader=2"],
    )
    assert rules == Rules.coop(
        weapon="strict", easier=True, harder=True, silent_leader=True, first_leader=2
    )
    assert rules.options == {
        "weapon": "strict",
        "easier": True,
        "harder": True,
        "silent_leader": True,
        "first_leader": 2,
    }
    assert Rules.parse("coop", []) == COOP
    assert COOP.options == {
        "weapon": "lenient",
        "easier": False,
        "harder": False,
        "silent_leader": False,
        "first_leader": 1,
    }


@pytest.mark.parametrize(
    ("ruleset", "pair", "named"),
    [
        ("coop", "weapon=medium", "weapon"),
        ("coop", "easier=maybe", "easier"),
        ("coop", "first_leader=3", "first_leader"),
        ("coop", "death_score=standard", "death_score"),
        ("coop", "colour=red", "colour"),
        ("coop", "weapon", "key=value"),
        ("solo", "easier=true", "easier"),
        ("solo", "first_leader=2", "first_leader"),
        ("solo", "death_score=sometimes", "death_score"),
        ("duel", "weapon=strict", "duel"),
    ],
)
def test_c11_bad_options(ruleset: str, pair: str, named: str) -> None:
    with pytest.raises(OptionError) as error:
        Rules.parse(ruleset, [pair])
    assert named in str(error.value)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"easier": "yes"},
        {"first_leader": 0},
        {"first_leader": True},
        {"first_leader": 2.0},
        {"weapon": "loose"},
    ],
)
def test_c11_bad_option_values(kwargs: dict[str, object]) -> None:
    with pytest.raises(OptionError):
        Rules.coop(**kwargs)  # type: ignore[arg-type]


def test_c11_solo_has_no_coop_options() -> None:
    with pytest.raises(OptionError):
        Rules("solo", harder=True)
    with pytest.raises(OptionError):
        Rules("coop", death_score="dungeon-only")


def test_c11_silent_leader_changes_no_card_rule() -> None:
    """C11 silent_leader: the same legal moves and the same game as without it."""
    silent = Rules.coop(silent_leader=True)
    plain_state = new(COOP, COOP_DECK)
    silent_state = new(silent, COOP_DECK)
    for token in (" ".join(COOP_ROOMS) + " " + COOP_FINAL).split():
        assert silent_state.legal_moves == plain_state.legal_moves
        plain_state = plain_state.apply(token)
        silent_state = silent_state.apply(token)
        assert silent_state.summary() == plain_state.summary()
    assert silent_state.score == 37


def test_c11_strict_coop_game() -> None:
    """C11 weapon=strict in co-op: the help card's weapon wear is strict too."""
    state = play(new(STRICT, "5D 6S 6C 7C"), "5D 6S/w")
    assert "6C/w" not in {m.token for m in state.legal_moves}


def test_c11_harder_jokers_are_monsters_of_15() -> None:
    """C11 harder: a joker is fought like any monster of value 15."""
    rules = Rules.coop(harder=True)
    state = new(rules, "10D RJ BJ 2C")
    assert "RJ/w" not in {m.token for m in state.legal_moves}
    state = play(state, "10D RJ/w")
    assert healths(state) == (15, 20)
    state = play(state, ">BJ/b")
    assert healths(state) == (15, 5)
    assert state.leader == 2


def test_c11_easier_deck_is_playable() -> None:
    rules = Rules.coop(easier=True)
    state = State.new(rules, stacked(rules))
    assert state.dungeon_count == 46
    assert Card("AH") not in state.dungeon
