"""Illegal moves: rejected with IllegalMoveError naming the rule, the state left as it was;
text that is not a move at all raises NotationError instead."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from helpers import (
    CLEAR_DECK,
    CLEAR_ROOMS,
    COOP_DECK,
    COOP_FINAL,
    COOP_ROOMS,
    new,
    play,
    stacked,
)

from scoundrel.core import (
    ALL_CARDS,
    Card,
    Game,
    IllegalMoveError,
    Move,
    NotationError,
    Rules,
    State,
)

SOLO = Rules.solo()
COOP = Rules.coop()

# Each case: how to build the position (twice: once to try the move, once to compare with),
# the move, and what the reason must contain.
Build = Callable[[], State]

CASES: list[tuple[str, Build, str, tuple[str, ...]]] = [
    ("flee twice", lambda: play(new(SOLO), "F"), "F", ("S5", "two flees")),
    (
        "flee after a card",
        lambda: play(new(SOLO, "2D KS QS JS"), "2D"),
        "F",
        ("S5", "before any of its cards"),
    ),
    (
        "flee the final room",
        lambda: play(new(SOLO, CLEAR_DECK), " ".join(CLEAR_ROOMS)),
        "F",
        ("S4", "final room"),
    ),
    (
        "strict: equal monster",
        lambda: play(new(SOLO, "5D 6S 6C 5C"), "5D 6S/w"),
        "6C/w",
        ("S9", "6S", "strict"),
    ),
    (
        "strict: stronger monster",
        lambda: play(new(SOLO, "5D 6S QS 5C"), "5D 6S/w"),
        "QS/w",
        ("S9", "weaker than 6"),
    ),
    (
        "lenient: stronger monster",
        lambda: play(new(Rules.solo(weapon="lenient"), "5D 6S 7C 5C"), "5D 6S/w"),
        "7C/w",
        ("S9", "at most 6", "lenient"),
    ),
    ("no weapon", lambda: new(SOLO, "KS 2D 3D 4D"), "KS/w", ("S8", "no weapon")),
    ("help card in solo", lambda: new(SOLO, "2D KS 3D 4D"), ">2D", ("C5", "solo")),
    ("help monster in solo", lambda: new(SOLO, "2D KS 3D 4D"), ">KS/b", ("C5",)),
    ("card not in the room", lambda: new(SOLO, "2D KS 3D 4D"), "5H", ("5H", "not in the room")),
    (
        "card already resolved",
        lambda: play(new(SOLO, "2D KS 3D 4D"), "2D"),
        "2D",
        ("2D", "not in the room"),
    ),
    (
        "card in the dungeon",
        lambda: new(SOLO, "2D KS 3D 4D 9S"),
        "9S/b",
        ("not in the room", "S6"),
    ),
    (
        "red court card in solo",
        lambda: new(SOLO),
        "KH/b",
        ("not in the room",),
    ),
    (
        "second help card",
        lambda: play(new(COOP, "2D 3D 4D KC"), ">2D"),
        ">3D",
        ("C5", "one card per room"),
    ),
    (
        "co-op leader's worn weapon",
        lambda: play(new(COOP, "5D 6S 7C 5C"), "5D 6S/w"),
        "7C/w",
        ("C7", "leader", "at most 6"),
    ),
    (
        "co-op strict",
        lambda: play(new(Rules.coop(weapon="strict"), "5D 6S 6C 5C"), "5D 6S/w"),
        "6C/w",
        ("C7", "strict"),
    ),
    (
        "partner's worn weapon",
        # hero 2 gets 5D as help, slays 6S with it in room 2; hero 1 leads room 3: KC 7C 2C 3C
        lambda: play(new(COOP, "5D 2D 3D KC 6S 2H 3H 7C"), ">5D 2D 3D 6S/w 2H 3H"),
        ">7C/w",
        ("C7", "partner", "5D", "at most 6"),
    ),
    ("partner has no weapon", lambda: new(COOP, "9D KS 2C 3C"), ">KS/w", ("partner", "S8")),
    ("co-op card not in the room", lambda: new(COOP), ">5H", ("not in the room", "C4")),
    (
        "co-op flee twice",
        lambda: play(new(COOP), "F"),
        "F",
        ("S5",),
    ),
    (
        "co-op final room",
        lambda: play(new(COOP, COOP_DECK), " ".join(COOP_ROOMS)),
        "F",
        ("S4",),
    ),
    (
        "co-op help in the final room, twice",
        lambda: play(new(COOP, COOP_DECK), " ".join(COOP_ROOMS) + " >2S/w"),
        ">3C/w",
        ("C5",),
    ),
    (
        "solo game lost",
        lambda: play(new(SOLO, "AS KS QS JS"), "AS/b KS/b"),
        "QS/b",
        ("game is over", "lost", "S11"),
    ),
    (
        "solo game won",
        lambda: play(new(SOLO, CLEAR_DECK), " ".join(CLEAR_ROOMS) + " 2S/w 10H"),
        "F",
        ("game is over", "won", "S12"),
    ),
    (
        "co-op game lost",
        lambda: play(new(COOP, "KS 2D 3D 7S"), ">KS/b 2D 3D 7S/b"),
        "2C/b",
        ("game is over", "lost", "C8"),
    ),
    (
        "co-op game won",
        lambda: play(new(COOP, COOP_DECK), " ".join(COOP_ROOMS) + " " + COOP_FINAL),
        "10H",
        ("game is over", "won", "C9"),
    ),
]


@pytest.mark.parametrize(
    ("build", "token", "named"),
    [case[1:] for case in CASES],
    ids=[case[0] for case in CASES],
)
def test_illegal_move_names_the_rule_and_changes_nothing(
    build: Build, token: str, named: tuple[str, ...]
) -> None:
    state = build()
    twin = build()
    move = Move(token)
    assert move not in state.legal_moves
    assert not state.is_legal(move)
    assert not state.is_legal(token)
    with pytest.raises(IllegalMoveError) as error:
        state.apply(token)
    assert error.value.move is move
    for part in named:
        assert part in error.value.reason
    assert str(error.value) == f"{token} is not legal: {error.value.reason}"
    # the state is unchanged, and still plays on exactly like its twin
    assert state == twin
    assert state.summary() == twin.summary()
    assert state.legal_moves == twin.legal_moves
    assert state.dungeon == twin.dungeon
    assert state.discard == twin.discard
    with pytest.raises(IllegalMoveError):
        state.apply(move)
    with pytest.raises(IllegalMoveError):
        state.preview(move)
    assert state == twin


def test_partners_worn_weapon_position() -> None:
    """The position of the "partner's worn weapon" case, checked move by move."""
    state = play(new(COOP, "5D 2D 3D KC 6S 2H 3H 7C"), ">5D 2D 3D 6S/w 2H 3H")
    assert state.leader == 1
    assert [c.code for c in state.room] == ["KC", "7C", "2C", "3C"]
    assert state.hero(2).weapon == Card("5D")
    assert state.hero(2).last_kill == 6
    assert {">2C/w", ">3C/w", ">KC/b", ">7C/b"} <= {m.token for m in state.legal_moves}


def test_every_move_outside_legal_moves_is_rejected() -> None:
    """Every move token that is not listed in legal_moves is rejected, every listed one is
    accepted."""
    for state in (
        play(new(SOLO, "5D 6S 6C QS 2H"), "5D 6S/w"),
        play(new(COOP, "5D 6S 6C QS 2H"), ">5D 6S/b"),
        new(COOP),
    ):
        legal = set(state.legal_moves)
        tokens = ["F"] + [
            prefix + card.code + suffix
            for card in ALL_CARDS
            for prefix in ("", ">")
            for suffix in (("/w", "/b") if card.is_monster else ("",))
        ]
        for token in tokens:
            move = Move(token)
            if move in legal:
                state.apply(move)
            else:
                with pytest.raises(IllegalMoveError):
                    state.apply(move)


@pytest.mark.parametrize("text", ["KS", "XX", "7D/w", "5H/b", "", "KS/q", ">", "11S/w", "F/w"])
def test_bad_notation_is_a_notation_error_not_an_illegal_move(text: str) -> None:
    state = new(SOLO, "KS 7D 5H 2C")
    twin = new(SOLO, "KS 7D 5H 2C")
    with pytest.raises(NotationError) as error:
        state.apply(text)
    assert not isinstance(error.value, IllegalMoveError)
    assert state == twin
    with pytest.raises(NotationError):
        state.is_legal(text)


def test_illegal_and_notation_errors_are_value_errors() -> None:
    assert issubclass(IllegalMoveError, ValueError)
    assert issubclass(NotationError, ValueError)
    assert not issubclass(NotationError, IllegalMoveError)
    assert not issubclass(IllegalMoveError, NotationError)


def test_game_play_rejects_and_keeps_its_history() -> None:
    game = Game(SOLO, stacked(SOLO, "2D KS QS JS"))
    game.play("2D")
    before = game.summary()
    with pytest.raises(IllegalMoveError) as error:
        game.play("F")
    assert "S5" in error.value.reason
    with pytest.raises(NotationError):
        game.play("KS")
    assert game.summary() == before
    assert [m.token for m in game.moves] == ["2D"]
    assert len(game.states) == 2


def test_no_moves_after_the_game_is_over() -> None:
    """S11/S12/C8/C9: once the game is over nothing is legal, not even a flee."""
    over = [
        play(new(SOLO, "AS KS QS JS"), "AS/b KS/b"),
        play(new(SOLO, CLEAR_DECK), " ".join(CLEAR_ROOMS) + " 2S/w 10H"),
        play(new(COOP, "AS KS QS JS"), "AS/b KS/b"),
        play(new(COOP, COOP_DECK), " ".join(COOP_ROOMS) + " " + COOP_FINAL),
    ]
    for state in over:
        assert state.is_over
        assert state.legal_moves == ()
        assert not state.can_flee
        for token in ("F", "QS/b", "2C/b", "10H", ">2D"):
            with pytest.raises(IllegalMoveError) as error:
                state.apply(token)
            assert "game is over" in error.value.reason
