"""Every worked example of the original rule texts, played from a stacked dungeon with legal
moves only; the examples are described under "Worked examples" in docs/rules.md. Test names
carry the number of the text: 000 Italian, 001 Russian, 002 German co-op, 003 Spanish,
004 French."""

from __future__ import annotations

import pytest
from helpers import CLEAR_DECK, CLEAR_ROOMS, DEATH_DECK, DEATH_MOVES, codes, new, play

from scoundrel.core import Card, IllegalMoveError, Move, Rules, State, Status

SOLO = Rules.solo()


def hero(state: State, number: int = 1) -> tuple[int, str | None, int | None]:
    """(health, weapon, last kill) of a hero."""
    h = state.hero(number)
    return h.health, h.weapon.code if h.weapon else None, h.last_kill


def weapon_moves(state: State) -> set[str]:
    return {m.token for m in state.legal_moves if m.weapon and not m.help}


# ---------------------------------------------------------------------- 003 / 004


def test_seed_003_004_room_7d_ks_5h_9c() -> None:
    """003/004: 20 health, no weapon, room 7♦ K♠ 5♥ 9♣: equip 7D; KS with it 13 - 7 = 6,
    20 -> 14; 5H 14 -> 19; 9C stays for the next room, and the weapon (last kill 13) can still
    be used on it."""
    state = new(SOLO, "7D KS 5H 9C")
    assert codes(state.room) == ["7D", "KS", "5H", "9C"]
    state = play(state, "7D")
    assert hero(state) == (20, "7D", None)
    state = play(state, "KS/w")
    assert hero(state) == (14, "7D", 13)
    state = play(state, "5H")
    assert hero(state) == (19, "7D", 13)
    assert codes(state.room)[0] == "9C"
    assert len(state.room) == 4
    assert "9C/w" in weapon_moves(state)
    state = play(state, "9C/w")
    assert hero(state) == (17, "7D", 9)


def test_seed_003_004_bare_handed_alternative() -> None:
    """003/004: fighting K♠ bare-handed costs 13: 20 -> 7, even with the 7♦ equipped."""
    state = play(new(SOLO, "7D KS 5H 9C"), "7D")
    assert "KS/w" in weapon_moves(state)
    state = play(state, "KS/b")
    assert hero(state) == (7, "7D", None)


def test_seed_003_004_weapon_wear_ks_10c_10s() -> None:
    """003/004: 7♦ slays K♠ (✓), then 10♣ (✓, 10 < 13); 10♠ is not allowed (✕, equal to the
    last kill) under the strict rule."""
    state = play(new(SOLO, "7D KS 10C 2C 10S"), "7D KS/w")
    assert "10C/w" in weapon_moves(state)  # ✓
    state = play(state, "10C/w")
    assert hero(state) == (20 - 6 - 3, "7D", 10)
    # next room: 2C carried, then 10S
    assert codes(state.room)[:2] == ["2C", "10S"]
    assert "10S/w" not in weapon_moves(state)  # ✕
    with pytest.raises(IllegalMoveError) as error:
        state.apply("10S/w")
    assert "S9" in error.value.reason
    assert "10S/b" in {m.token for m in state.legal_moves}


def test_seed_003_004_potions_16_20_20() -> None:
    """003/004: at 16 health 9♥ heals to 20, not 25; a 5♥ later in the same room heals
    nothing, even after a fight in between."""
    state = play(new(SOLO, "4S 2D 3D KC 9H 3C 5H"), "4S/b 2D 3D")
    assert hero(state)[0] == 16
    assert codes(state.room) == ["KC", "9H", "3C", "5H"]
    state = play(state, "9H")
    assert hero(state)[0] == 20
    state = play(state, "3C/b")
    assert hero(state)[0] == 17
    state = play(state, "5H")
    assert hero(state)[0] == 17


# ---------------------------------------------------------------------- 001


# A first room that costs exactly 8 without a weapon (2 + 3 + 3), leaving 8D for the next.
ROOM_12 = "2S 3S 3C 8D JS 6C 4H"


def test_seed_001_position_12_health_no_weapon() -> None:
    state = play(new(SOLO, ROOM_12), "2S/b 3S/b 3C/b")
    assert hero(state) == (12, None, None)
    assert codes(state.room) == ["8D", "JS", "6C", "4H"]


def test_seed_001_good_order() -> None:
    """001: 12 health, no weapon, room 8♦ J♠ 6♣ 4♥: take 8D, slay JS with it (11 - 8 = 3,
    9 left), slay 6C with it (no damage); 4H stays for the next room."""
    state = play(new(SOLO, ROOM_12), "2S/b 3S/b 3C/b")
    state = play(state, "8D JS/w")
    assert hero(state) == (9, "8D", 11)
    assert state.hero(1).reach == 11  # "only against monsters weaker than 11"
    state = play(state, "6C/w")
    assert hero(state) == (9, "8D", 6)
    assert state.hero(1).reach == 6
    assert codes(state.room)[0] == "4H"
    state = play(state, "4H")  # "the potion still waits for you"
    assert hero(state)[0] == 13


def test_seed_001_bad_order() -> None:
    """001: 8♦ first kills 6♣, so J♠ must be fought bare-handed: 1 health left."""
    state = play(new(SOLO, ROOM_12), "2S/b 3S/b 3C/b 8D 6C/w")
    assert hero(state) == (12, "8D", 6)
    assert "JS/w" not in weapon_moves(state)
    with pytest.raises(IllegalMoveError):
        state.apply("JS/w")
    state = play(state, "JS/b")
    assert hero(state) == (1, "8D", 6)
    assert state.status is Status.PLAYING
    assert codes(state.room)[0] == "4H"


def test_seed_001_bad_order_or_carry_the_jack() -> None:
    """001: "... or drag it into the next room as the fourth card"."""
    state = play(new(SOLO, ROOM_12), "2S/b 3S/b 3C/b 8D 6C/w 4H")
    assert hero(state) == (16, "8D", 6)
    assert codes(state.room)[0] == "JS"


def test_seed_001_weapon_stats() -> None:
    """001: bare-handed K♠ costs 13; with 9♦ the same king costs only 4; after Q♣ (12) the
    weapon helps up to J; after 5♠ only against 2, 3 and 4."""
    assert hero(play(new(SOLO, "KS 9D"), "KS/b"))[0] == 7
    assert hero(play(new(SOLO, "9D KS"), "9D KS/w"))[0] == 16
    after_queen = play(new(SOLO, "9D QC JS KS"), "9D QC/w")
    assert after_queen.hero(1).reach == 12
    assert "JS/w" in weapon_moves(after_queen)
    assert "KS/w" not in weapon_moves(after_queen)
    after_five = play(new(SOLO, "9D 5S 4S 5C"), "9D 5S/w")
    assert after_five.hero(1).reach == 5
    assert weapon_moves(after_five) == {"4S/w"}


def test_seed_001_lenient_is_the_rule_used_elsewhere() -> None:
    """001: "elsewhere the weapon may be used against a monster of the same strength"; here
    strictly weaker: after 10♠ only up to 9."""
    strict = play(new(SOLO, "9D 10S 10C 9C"), "9D 10S/w")
    assert weapon_moves(strict) == {"9C/w"}
    lenient = play(new(Rules.solo(weapon="lenient"), "9D 10S 10C 9C"), "9D 10S/w")
    assert weapon_moves(lenient) == {"10C/w", "9C/w"}


def test_seed_001_potion_17_plus_9() -> None:
    """001: at 17 health the nine of hearts heals only 3."""
    state = play(new(SOLO, "3S 2D 3D 9H"), "3S/b 2D 3D")
    assert hero(state)[0] == 17
    assert hero(play(state, "9H"))[0] == 20


def test_seed_001_score_example() -> None:
    """001: bare-handed 9♠ at 3 health -> -6; K♣ and 5♠ still in play -> -6 - 13 - 5 = -24."""
    state = play(new(SOLO, DEATH_DECK), DEATH_MOVES)
    assert hero(state)[0] == 3
    remaining = [c for c in (*state.room, *state.dungeon) if c.is_monster]
    assert codes(remaining) == ["KC", "9S", "5S"]
    state = play(state, "9S/b")
    assert hero(state)[0] == -6
    assert state.status is Status.LOST
    assert state.score == -24


def test_seed_000_score_example_dungeon_only() -> None:
    """000: on death, the score is minus the monsters still in the dungeon."""
    rules = Rules.solo(death_score="dungeon-only")
    state = play(new(rules, DEATH_DECK), DEATH_MOVES + " 9S/b")
    assert state.score == -5


def test_seed_001_final_room_two_cards() -> None:
    """001: the last room is only two cards and cannot be fled: see test_solo_rules S4."""
    state = play(new(SOLO, CLEAR_DECK), " ".join(CLEAR_ROOMS))
    assert len(state.room) == 2
    assert not state.can_flee


# ---------------------------------------------------------------------- 000


def test_seed_000_weapon_5_vs_3() -> None:
    """000: weapon 5 against a 3: the damage is fully cancelled; the 3 goes onto the weapon,
    which is still worth 5."""
    state = play(new(SOLO, "5D 3S"), "5D 3S/w")
    assert hero(state) == (20, "5D", 3)
    assert state.hero(1).stack == (Card("3S"),)


def test_seed_000_weapon_5_vs_jack() -> None:
    """000: weapon 5 against J (11): 11 - 5 = 6 damage."""
    state = play(new(SOLO, "5D JS"), "5D JS/w")
    assert hero(state) == (14, "5D", 11)


def test_seed_000_queen_then_6_allowed() -> None:
    """000: after a Q (12), a 6 may be fought with the weapon: 12 -> 6 ✓."""
    state = play(new(SOLO, "5D QS 6C"), "5D QS/w")
    assert "6C/w" in weapon_moves(state)
    state = play(state, "6C/w")
    assert hero(state) == (20 - 7 - 1, "5D", 6)


def test_seed_000_6_then_queen_refused() -> None:
    """000: after a 6, a Q must be fought bare-handed: 6 -> 12 ✕; the weapon stays and can
    still be used below 6."""
    state = play(new(SOLO, "5D 6S QS 4C 2C"), "5D 6S/w")
    assert "QS/w" not in weapon_moves(state)
    with pytest.raises(IllegalMoveError):
        state.apply("QS/w")
    state = play(state, "QS/b")
    assert hero(state) == (7, "5D", 6)
    state = play(state, "4C/w")
    assert hero(state) == (7, "5D", 4)


def test_seed_000_6_then_6_refused() -> None:
    """000: after a 6, another 6 is not allowed: 6 -> 6 ✕."""
    state = play(new(SOLO, "5D 6S 6C"), "5D 6S/w")
    assert "6C/w" not in weapon_moves(state)
    with pytest.raises(IllegalMoveError) as error:
        state.apply("6C/w")
    assert "S9" in error.value.reason


def test_seed_000_potions_14_20_20() -> None:
    """000: with 14 health, 9♥ brings you to 20; 5♥ in the same turn is resolved and
    discarded without effect."""
    state = play(new(SOLO, "6S 2D 3D KC 9H 5H"), "6S/b 2D 3D")
    assert hero(state)[0] == 14
    state = play(state, "9H")
    assert hero(state)[0] == 20
    state = play(state, "5H")
    assert hero(state)[0] == 20
    assert codes(state.discard)[-2:] == ["9H", "5H"]


def test_seed_000_bonus_for_last_potion() -> None:
    """000: "if health is still 20 and the last card resolved is a potion, its value is added"
    (see test_solo_rules S13)."""
    state = play(new(SOLO, CLEAR_DECK), " ".join(CLEAR_ROOMS) + " 2S/w 10H")
    assert state.score == 30


# ---------------------------------------------------------------------- 002


# Room 1, Anna (hero 1) leads: 8D, QC with it (20 -> 16), 3S to Ben bare (20 -> 17); 7S stays.
# Room 2, Ben leads: 7S to Anna bare (16 -> 9), 2H (17 -> 19), 2S bare (19 -> 17); 10D stays.
# Room 3, Anna leads: 10D KH 6H 4S.
ANNA_AND_BEN = "8D QC 3S 7S 2H 2S 10D KH 6H 4S"
TO_THE_ROOM = "8D QC/w >3S/b >7S/b 2H 2S/b"


def test_seed_002_anna_and_ben_position() -> None:
    """002: Anna leads with 9 health and her 8♦ with Q♣ on it; Ben has 17 and no weapon; the
    room is 10♦ K♥ 6♥ 4♠."""
    state = play(new(Rules.coop(), ANNA_AND_BEN), TO_THE_ROOM)
    assert state.leader == 1
    assert hero(state, 1) == (9, "8D", 12)
    assert hero(state, 2) == (17, None, None)
    assert codes(state.room) == ["10D", "KH", "6H", "4S"]
    # Anna's 8D still reaches monsters up to 12 (lenient): not the K♥, which would kill her
    assert state.hero(1).reach == 13
    assert "KH/w" not in weapon_moves(state)
    assert state.preview("KH/b").status is Status.LOST


def test_seed_002_anna_and_ben() -> None:
    """002: Anna gives 10♦ to Ben as the help card; drinks 6♥ (9 -> 15); fights 4♠ bare
    (15 -> 11) to keep her 8♦ good up to 12. K♥ stays; Ben leads and slays it with his fresh
    10♦, losing only 3."""
    state = play(new(Rules.coop(), ANNA_AND_BEN), TO_THE_ROOM)
    state = play(state, ">10D")
    assert hero(state, 2) == (17, "10D", None)
    state = play(state, "6H")
    assert hero(state, 1) == (15, "8D", 12)
    state = play(state, "4S/b")
    assert hero(state, 1) == (11, "8D", 12)
    assert state.hero(1).reach == 13
    assert state.leader == 2
    assert codes(state.room)[0] == "KH"
    assert Move("KH/w") in state.legal_moves
    state = play(state, "KH/w")
    assert hero(state, 2) == (14, "10D", 13)
    assert hero(state, 1) == (11, "8D", 12)
