"""Cards and moves as notation (N1, N2), their reprs, and the decks of each ruleset (S1, C2,
C11)."""

from __future__ import annotations

from collections import Counter

import pytest

from scoundrel.core import (
    ALL_CARDS,
    FLEE,
    Card,
    Kind,
    Move,
    NotationError,
    Rules,
    format_cards,
    format_moves,
    parse_card,
    parse_cards,
    parse_moves,
)

# ---------------------------------------------------------------------- N1 cards


@pytest.mark.parametrize(
    ("text", "code", "value"),
    [
        ("2C", "2C", 2),
        ("9S", "9S", 9),
        ("10H", "10H", 10),
        ("JS", "JS", 11),
        ("QC", "QC", 12),
        ("KS", "KS", 13),
        ("AC", "AC", 14),
        ("7D", "7D", 7),
    ],
)
def test_n1_ranks_and_values(text: str, code: str, value: int) -> None:
    """N1 ranks 2-10, J, Q, K, A; S1 values: number cards their number, J 11 ... A 14."""
    card = Card(text)
    assert card.code == code
    assert card.value == value
    assert str(card) == code


@pytest.mark.parametrize(
    "text",
    ["10H", "TH", "th", "10h", "tH", "10♥", "T♥", "t♥", " 10H ", "10♡"],
)
def test_n1_ten_lower_case_and_symbols(text: str) -> None:
    """N1: T for 10, lower case and the suit symbols all read the same card."""
    assert Card(text) is Card("10H")
    assert parse_card(text) is Card("10H")


@pytest.mark.parametrize(
    ("text", "code"),
    [("K♠", "KS"), ("q♣", "QC"), ("7♦", "7D"), ("a♠", "AS"), ("ks", "KS"), ("2c", "2C")],
)
def test_n1_symbols_for_every_suit(text: str, code: str) -> None:
    """N1: ♣ ♦ ♥ ♠ stand for C D H S."""
    assert Card(text).code == code


def test_n1_jokers() -> None:
    """N1: jokers are RJ and BJ (C11 harder: monsters of value 15)."""
    for code in ("RJ", "BJ", "rj", "bj"):
        card = Card(code)
        assert card.code == code.upper()
        assert card.value == 15
        assert card.kind is Kind.MONSTER
        assert card.is_joker
        assert card.symbol == code.upper()


def test_n1_canonical_output_and_symbol() -> None:
    """N1: output is always the canonical form; symbol shows the suit sign."""
    assert [Card(t).code for t in ("th", "k♠", "2♣", "a♦")] == ["10H", "KS", "2C", "AD"]
    assert Card("10H").symbol == "10♥"
    assert Card("KS").symbol == "K♠"
    assert Card("2C").symbol == "2♣"
    assert Card("7D").symbol == "7♦"


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("KX", "suit"),
        ("1S", "rank"),
        ("11H", "rank"),
        ("ZS", "rank"),
        ("S", "rank"),
        ("10", "suit"),
        ("", "empty"),
        ("   ", "empty"),
        ("KS/w", "suit"),
    ],
)
def test_n1_bad_cards_name_the_problem(text: str, named: str) -> None:
    """N1: text that is not a card raises NotationError saying whether the rank or the suit
    (or everything) is wrong."""
    with pytest.raises(NotationError) as error:
        Card(text)
    assert named in str(error.value)


def test_n1_bad_card_error_quotes_the_wrong_part() -> None:
    with pytest.raises(NotationError, match=r"not 'X'"):
        Card("KX")
    with pytest.raises(NotationError, match=r"not '1'"):
        Card("1S")


def test_n1_card_must_be_text() -> None:
    with pytest.raises(NotationError, match="text"):
        parse_card(13)  # type: ignore[arg-type]


def test_n1_parse_and_format_cards() -> None:
    cards = parse_cards("10h ks  7♦\n2C")
    assert cards == (Card("10H"), Card("KS"), Card("7D"), Card("2C"))
    assert format_cards(cards) == "10H KS 7D 2C"


def test_card_kinds_follow_the_suit() -> None:
    """S1/C2: clubs and spades monsters, diamonds 2-10 weapons, hearts 2-10 potions; the red
    J/Q/K/A are monsters (used only in co-op)."""
    assert Card("5C").kind is Kind.MONSTER
    assert Card("5S").kind is Kind.MONSTER
    assert Card("10D").kind is Kind.WEAPON
    assert Card("2D").kind is Kind.WEAPON
    assert Card("10H").kind is Kind.POTION
    assert Card("2H").kind is Kind.POTION
    for code in ("JH", "QH", "KH", "AH", "JD", "QD", "KD", "AD"):
        assert Card(code).kind is Kind.MONSTER
        assert Card(code).is_monster
    assert Card("AD").value == 14


def test_cards_are_interned_and_immutable() -> None:
    assert Card("KS") is Card("ks")
    with pytest.raises(AttributeError):
        Card("KS").value = 3


def test_all_cards_canonical_order() -> None:
    assert len(ALL_CARDS) == 54
    assert [c.code for c in ALL_CARDS[:13]] == [
        "2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "10C", "JC", "QC", "KC", "AC",
    ]  # fmt: skip
    assert [c.code for c in ALL_CARDS[-2:]] == ["RJ", "BJ"]
    assert sorted(ALL_CARDS) == list(ALL_CARDS)


@pytest.mark.parametrize("card", ALL_CARDS, ids=lambda card: card.code)
def test_card_repr_round_trips(card: Card) -> None:
    """eval(repr(card)) is the very same card."""
    assert eval(repr(card)) is card
    assert repr(card) == f"Card('{card.code}')"


# ---------------------------------------------------------------------- N2 moves


def test_n2_flee() -> None:
    """N2: F flees the room."""
    assert Move("F") is FLEE
    assert Move("f") is FLEE
    assert FLEE.is_flee
    assert FLEE.card is None
    assert FLEE.token == "F"


@pytest.mark.parametrize(
    ("text", "token", "card"),
    [("7D", "7D", "7D"), ("5h", "5H", "5H"), ("10♦", "10D", "10D"), ("TH", "10H", "10H")],
)
def test_n2_weapon_and_potion_tokens(text: str, token: str, card: str) -> None:
    """N2: a weapon or potion is taken by its card alone."""
    move = Move(text)
    assert move.token == token
    assert move.card is Card(card)
    assert not move.help
    assert not move.weapon
    assert not move.bare_handed


@pytest.mark.parametrize(
    ("text", "token", "weapon"),
    [
        ("KS/w", "KS/w", True),
        ("ks/W", "KS/w", True),
        ("KS/b", "KS/b", False),
        ("K♠/B", "KS/b", False),
    ],
)
def test_n2_monster_tokens(text: str, token: str, weapon: bool) -> None:
    """N2: KS/w fights with the weapon, KS/b bare-handed."""
    move = Move(text)
    assert move.token == token
    assert move.card is Card("KS")
    assert move.weapon is weapon
    assert move.bare_handed is (not weapon)


@pytest.mark.parametrize("text", ["KS", "2C", "AH", "RJ", ">KS", ">QD"])
def test_n2_monsters_require_the_suffix(text: str) -> None:
    """N2: the /w or /b suffix is required for monsters."""
    with pytest.raises(NotationError, match=r"/w .*/b"):
        Move(text)


@pytest.mark.parametrize("text", ["7D/w", "7D/b", "5H/w", "5H/b", ">5H/w"])
def test_n2_suffix_refused_on_non_monsters(text: str) -> None:
    """N2: only monsters take /w or /b."""
    with pytest.raises(NotationError, match="only monsters take /w or /b"):
        Move(text)


@pytest.mark.parametrize("text", ["KS/x", "KS/", "KS/wb"])
def test_n2_bad_suffix(text: str) -> None:
    with pytest.raises(NotationError, match="after '/'"):
        Move(text)


@pytest.mark.parametrize(
    ("text", "token", "weapon"),
    [
        (">7D", ">7D", False),
        (">5h", ">5H", False),
        (">KS/w", ">KS/w", True),
        (">ks/b", ">KS/b", False),
    ],
)
def test_n2_help_prefix(text: str, token: str, weapon: bool) -> None:
    """N2/C5: the help card is the same token prefixed with >."""
    move = Move(text)
    assert move.help
    assert move.token == token
    assert move.weapon is weapon
    assert Move(text[1:]).help is False


@pytest.mark.parametrize("text", ["", "  ", "X", "1S/w", ">", ">F", "KX/w"])
def test_n2_bad_moves_raise_notation_error(text: str) -> None:
    with pytest.raises(NotationError):
        Move(text)


def test_n2_move_must_be_text() -> None:
    with pytest.raises(NotationError, match="text"):
        Move(None)  # type: ignore[arg-type]


def test_n2_parse_and_format_moves() -> None:
    moves = parse_moves("7d ks/w  5H\nF >9c/b")
    assert [m.token for m in moves] == ["7D", "KS/w", "5H", "F", ">9C/b"]
    assert format_moves(moves) == "7D KS/w 5H F >9C/b"


def test_moves_are_interned() -> None:
    assert Move(">10h") is Move(">TH") is Move(">10♥")
    assert Move("KS/w") is not Move("KS/b")


_ALL_TOKENS = ["F"] + [
    prefix + card.code + suffix
    for card in ALL_CARDS
    for prefix in ("", ">")
    for suffix in (("/w", "/b") if card.is_monster else ("",))
]


@pytest.mark.parametrize("token", _ALL_TOKENS)
def test_move_repr_round_trips(token: str) -> None:
    """eval(repr(move)) is the very same move, for every move token there is."""
    move = Move(token)
    assert move.token == token
    assert eval(repr(move)) is move
    assert repr(move) == f"Move('{token}')"


def test_there_are_as_many_tokens_as_expected() -> None:
    # 36 monsters (26 black, 8 red court cards and aces, 2 jokers) with /w, /b, >/w, >/b;
    # 18 weapons and potions, own or help; and F.
    monsters = sum(card.is_monster for card in ALL_CARDS)
    assert monsters == 36
    assert len(set(_ALL_TOKENS)) == 36 * 4 + 18 * 2 + 1


# ---------------------------------------------------------------------- S1, C2, C11 decks


def _kinds(rules: Rules) -> Counter[Kind]:
    return Counter(card.kind for card in rules.cards)


def test_s1_solo_deck() -> None:
    """S1: 44 cards, 26 monsters (clubs and spades), 9 weapons, 9 potions; no red J/Q/K/A,
    no jokers."""
    rules = Rules.solo()
    cards = rules.cards
    assert len(cards) == 44 == rules.deck_size
    assert len(set(cards)) == 44
    assert _kinds(rules) == {Kind.MONSTER: 26, Kind.WEAPON: 9, Kind.POTION: 9}
    assert {c.suit for c in cards if c.is_monster} == {"C", "S"}
    assert sorted(c.value for c in cards if c.kind is Kind.WEAPON) == list(range(2, 11))
    assert sorted(c.value for c in cards if c.kind is Kind.POTION) == list(range(2, 11))
    for code in ("JH", "QH", "KH", "AH", "JD", "QD", "KD", "AD", "RJ", "BJ"):
        assert Card(code) not in cards
    assert sum(c.value for c in cards if c.is_monster) == 2 * sum(range(2, 15)) == 208
    assert list(cards) == sorted(cards)


def test_s1_solo_options_do_not_change_the_cards() -> None:
    assert Rules.solo(weapon="lenient", death_score="dungeon-only").cards == Rules.solo().cards


def test_c2_coop_deck() -> None:
    """C2: all 52 cards; every club and spade and the red J/Q/K/A are monsters (34)."""
    rules = Rules.coop()
    assert rules.deck_size == 52
    assert _kinds(rules) == {Kind.MONSTER: 34, Kind.WEAPON: 9, Kind.POTION: 9}
    assert {c.code for c in rules.cards if c.is_monster and c.suit in ("D", "H")} == {
        "JH", "QH", "KH", "AH", "JD", "QD", "KD", "AD",
    }  # fmt: skip
    assert Card("RJ") not in rules.cards


def test_c11_easier_deck() -> None:
    """C11 easier: without AH and AD, 50 cards."""
    rules = Rules.coop(easier=True)
    assert rules.deck_size == 50
    assert Card("AH") not in rules.cards
    assert Card("AD") not in rules.cards
    assert Card("AC") in rules.cards
    assert _kinds(rules) == {Kind.MONSTER: 32, Kind.WEAPON: 9, Kind.POTION: 9}


def test_c11_harder_deck() -> None:
    """C11 harder: two jokers RJ and BJ, monsters of value 15, 54 cards."""
    rules = Rules.coop(harder=True)
    assert rules.deck_size == 54
    jokers = [c for c in rules.cards if c.is_joker]
    assert [c.code for c in jokers] == ["RJ", "BJ"]
    assert all(c.value == 15 and c.kind is Kind.MONSTER for c in jokers)
    assert _kinds(rules) == {Kind.MONSTER: 36, Kind.WEAPON: 9, Kind.POTION: 9}


def test_c11_easier_and_harder_together() -> None:
    """C11: the variants combine: 52 cards, jokers in and red aces out."""
    rules = Rules.coop(easier=True, harder=True)
    assert rules.deck_size == 52
    codes = {c.code for c in rules.cards}
    assert {"RJ", "BJ"} <= codes
    assert not {"AH", "AD"} & codes
    assert _kinds(rules) == {Kind.MONSTER: 34, Kind.WEAPON: 9, Kind.POTION: 9}


def test_c11_weapon_and_leader_options_do_not_change_the_cards() -> None:
    plain = Rules.coop().cards
    assert Rules.coop(weapon="strict", silent_leader=True, first_leader=2).cards == plain
