"""What a player sees (the observation: never the dungeon's order) and what a move would do
(the preview: without changing anything)."""

from __future__ import annotations

import dataclasses
import random

import pytest
from helpers import CLEAR_DECK, CLEAR_ROOMS, codes, new, play, stacked

from scoundrel.core import Card, Kind, Move, Rules, State, Status, random_deal

SOLO = Rules.solo()
COOP = Rules.coop()


def reversed_rest(rules: Rules, *top: str) -> tuple[Card, ...]:
    """The same top cards as ``stacked``, the rest of the dungeon in the opposite order."""
    deck = stacked(rules, *top)
    count = len(" ".join(top).split())
    return deck[:count] + tuple(reversed(deck[count:]))


# ---------------------------------------------------------------------- observation


def test_observation_of_the_first_room() -> None:
    state = new(SOLO, "7D KS 5H 9C")
    seen = state.observation(1)
    assert seen.rules == SOLO
    assert seen.viewer == 1
    assert seen.status is Status.PLAYING
    assert codes(seen.room) == ["7D", "KS", "5H", "9C"]
    assert seen.heroes == state.heroes
    assert seen.leader == 1
    assert seen.dungeon_count == 40
    assert len(seen.unseen) == 40
    assert set(seen.unseen) == set(SOLO.cards) - {Card(c) for c in ("7D", "KS", "5H", "9C")}
    assert seen.known_bottom == ()
    assert seen.discard == ()
    assert not seen.final_room
    assert seen.resolved_in_room == 0
    assert not seen.help_used
    assert seen.legal_moves == state.legal_moves
    assert seen.can_flee
    assert seen.score is None


def test_observation_unseen_is_sorted_not_in_deck_order() -> None:
    state = new(SOLO, "7D KS 5H 9C AS 2S 10H")
    unseen = state.observation().unseen
    assert list(unseen) == sorted(unseen)
    assert unseen[:3] == (Card("2C"), Card("3C"), Card("4C"))
    assert codes(state.dungeon[:3]) == ["AS", "2S", "10H"]


def test_observation_unseen_counts() -> None:
    seen = new(SOLO, "7D KS 5H 9C").observation()
    counts = seen.unseen_counts
    monsters = {value: 2 for value in range(2, 15)}
    monsters[13] = 1
    monsters[9] = 1
    assert counts[Kind.MONSTER] == monsters
    assert counts[Kind.WEAPON] == {v: 1 for v in range(2, 11) if v != 7}
    assert counts[Kind.POTION] == {v: 1 for v in range(2, 11) if v != 5}
    assert list(counts[Kind.MONSTER]) == sorted(counts[Kind.MONSTER])


def test_observation_does_not_show_the_dungeon_order() -> None:
    """Two states that differ only in the hidden order of the dungeon look the same."""
    first = State.new(SOLO, stacked(SOLO, "7D KS 5H 9C"))
    second = State.new(SOLO, reversed_rest(SOLO, "7D KS 5H 9C"))
    assert first.dungeon != second.dungeon
    assert first != second
    assert first.observation() == second.observation()
    # still the same after moves that reveal nothing new
    first, second = play(first, "7D KS/w"), play(second, "7D KS/w")
    assert first.observation() == second.observation()
    # the next room shows different cards
    first, second = play(first, "5H"), play(second, "5H")
    assert first.observation() != second.observation()
    assert codes(first.room) == ["9C", "2C", "3C", "4C"]
    assert codes(second.room) == ["9C", "AS", "QS", "JS"]
    assert set(first.observation().unseen) != set(second.observation().unseen)
    assert first.observation().dungeon_count == second.observation().dungeon_count == 37


def test_observation_has_no_dungeon_field() -> None:
    fields = {field.name for field in dataclasses.fields(new(SOLO).observation())}
    assert "dungeon" not in fields
    assert "deck" not in fields
    assert fields >= {"room", "heroes", "unseen", "known_bottom", "dungeon_count"}


def test_observation_is_a_whole_observation() -> None:
    """``observe`` fills the dataclass without its __init__: every field, nothing more,
    equal to the one the constructor makes, and as frozen."""
    state = play(new(COOP, "7D KS 5H 9C"), "7D KS/w")
    seen = state.observation(2)
    fields = {field.name: getattr(seen, field.name) for field in dataclasses.fields(seen)}
    assert vars(seen) == fields
    made = type(seen)(**fields)
    assert seen == made and repr(seen) == repr(made)
    with pytest.raises(dataclasses.FrozenInstanceError):
        seen.leader = 2  # type: ignore[misc]


def test_observation_after_a_flee_knows_the_bottom_in_room_order() -> None:
    """S5: fled cards are face down but known: at the bottom, in room order."""
    state = play(new(SOLO, "KS 2D 5H 9C"), "F")
    seen = state.observation()
    assert codes(seen.known_bottom) == ["KS", "2D", "5H", "9C"]
    assert codes(state.known_bottom) == ["KS", "2D", "5H", "9C"]
    assert seen.dungeon_count == 40
    assert len(seen.unseen) == 36
    assert not {Card(c) for c in ("KS", "2D", "5H", "9C")} & set(seen.unseen)
    assert not seen.can_flee


def test_observation_known_bottom_shrinks_as_the_cards_come_back() -> None:
    """The known cards at the bottom leave the list as they are drawn again, from the front."""
    state = play(new(SOLO, CLEAR_DECK), " ".join(CLEAR_ROOMS[:12]))
    assert state.dungeon_count == 4
    assert len(state.observation().unseen) == 4
    state = play(state, "F")
    seen = state.observation()
    assert codes(seen.room) == ["7H", "8H", "9H", "2S"]
    assert codes(seen.known_bottom) == ["10H", "5S", "4S", "3S"]
    assert seen.unseen == ()
    assert seen.dungeon_count == 4
    state = play(state, "7H 8H 9H")
    seen = state.observation()
    assert codes(seen.room) == ["2S", "10H", "5S", "4S"]
    assert codes(seen.known_bottom) == ["3S"]
    assert seen.unseen == ()
    state = play(state, "5S/w 4S/w 10H")
    seen = state.observation()
    assert codes(seen.room) == ["2S", "3S"]
    assert seen.final_room
    assert seen.known_bottom == ()
    assert seen.dungeon_count == 0


def test_observation_known_bottom_grows_with_a_second_flee() -> None:
    state = play(new(SOLO, "KS 2D 5H 9C 2S 3S 4S 5S 6S"), "F 2S/b 3S/b 4S/b F")
    assert codes(state.known_bottom) == ["KS", "2D", "5H", "9C", "5S", "6S", "2C", "3C"]
    assert state.observation().dungeon_count == 37
    assert len(state.observation().unseen) == 37 - 8


def test_observation_counts_the_discard_and_stacks() -> None:
    state = play(new(SOLO, "5D 3S 9C 2C 8D"), "5D 3S/w 9C/b 8D")
    seen = state.observation()
    assert codes(seen.discard) == ["9C", "5D", "3S"]
    assert seen.heroes[0].weapon == Card("8D")
    assert seen.resolved_in_room == 1


def test_coop_observation_for_either_hero() -> None:
    """Co-op is played with open cards: both views agree but for the viewer."""
    state = play(new(COOP, "5D KS 2C 3C"), ">5D")
    one, two = state.observation(1), state.observation(2)
    assert (one.viewer, two.viewer) == (1, 2)
    assert dataclasses.replace(one, viewer=2) == two
    assert one.help_used
    assert one.heroes[1].weapon == Card("5D")
    with pytest.raises(ValueError):
        state.observation(3)


def test_observation_of_a_finished_game() -> None:
    state = play(new(SOLO, "AS KS QS JS"), "AS/b KS/b")
    seen = state.observation()
    assert seen.status is Status.LOST
    assert seen.score == state.score == -(208 - 14 - 13) - 7
    assert seen.legal_moves == ()
    assert not seen.can_flee


# ---------------------------------------------------------------------- preview


def test_preview_weapon_fight() -> None:
    state = play(new(SOLO, "7D KS 5H 9C"), "7D")
    twin = play(new(SOLO, "7D KS 5H 9C"), "7D")
    preview = state.preview("KS/w")
    assert preview.move is Move("KS/w")
    assert preview.damage == (6,)
    assert preview.status is Status.PLAYING
    hero = preview.heroes[0]
    assert (hero.health, hero.weapon, hero.stack, hero.last_kill) == (
        14,
        Card("7D"),
        (Card("KS"),),
        13,
    )
    assert state == twin
    assert state.hero(1).health == 20
    assert preview.heroes == state.apply("KS/w").heroes


def test_preview_bare_hands_and_potion() -> None:
    state = play(new(SOLO, "7D KS 5H 9C"), "7D KS/w")
    bare = state.preview("9C/b")
    assert bare.damage == (9,)
    assert bare.heroes[0].health == 5
    assert bare.heroes[0].stack == (Card("KS"),)
    potion = state.preview("5H")
    assert potion.damage == (-5,)
    assert potion.heroes[0].health == 19
    assert not potion.heroes[0].potion_used  # the third card: a new room is dealt
    assert state.hero(1).health == 14
    assert not state.hero(1).potion_used


def test_preview_potion_mid_room() -> None:
    """S10: the preview shows the room's potion as used; a second potion heals nothing."""
    state = play(new(SOLO, "KS 5H 4H 2C"), "KS/b")
    first = state.preview("5H")
    assert first.damage == (-5,)
    assert first.heroes[0].potion_used
    after = state.apply("5H")
    assert after.preview("4H").damage == (0,)
    assert after.preview("4H").heroes[0].health == 12
    assert not state.hero(1).potion_used


def test_preview_weapon_equip() -> None:
    state = play(new(SOLO, "5D 3S 8D 2C"), "5D 3S/w")
    preview = state.preview(Move("8D"))
    assert preview.heroes[0].weapon == Card("8D")
    assert preview.heroes[0].stack == ()
    assert preview.damage == (0,)
    assert state.hero(1).weapon == Card("5D")
    assert state.hero(1).stack == (Card("3S"),)


def test_preview_of_a_lethal_move_and_of_the_winning_move() -> None:
    state = play(new(SOLO, "AS KS QS JS"), "AS/b")
    assert state.preview("KS/b").status is Status.LOST
    assert state.preview("KS/b").heroes[0].health == -7
    assert state.status is Status.PLAYING
    final = play(new(SOLO, CLEAR_DECK), " ".join(CLEAR_ROOMS) + " 2S/w")
    assert final.preview("10H").status is Status.WON
    assert final.status is Status.PLAYING


def test_preview_of_a_flee_changes_no_hero() -> None:
    state = new(SOLO, "KS 2D 5H 9C")
    preview = state.preview("F")
    assert preview.damage == (0,)
    assert preview.heroes == state.heroes
    assert preview.status is Status.PLAYING


def test_preview_of_a_help_card_shows_both_heroes() -> None:
    state = play(new(COOP, "5D KS 9H 3C"), "5D")
    twin = play(new(COOP, "5D KS 9H 3C"), "5D")
    preview = state.preview(">KS/b")
    assert preview.damage == (0, 13)
    assert [h.health for h in preview.heroes] == [20, 7]
    assert preview.heroes[0].weapon == Card("5D")
    assert preview.heroes[1].weapon is None
    own = state.preview("KS/w")
    assert own.damage == (8, 0)
    assert own.heroes[0].stack == (Card("KS"),)
    assert state == twin


def test_previews_cover_every_legal_move() -> None:
    state = new(COOP, "7D KS 5H 9C")
    twin = new(COOP, "7D KS 5H 9C")
    previews = state.previews()
    assert list(previews) == list(state.legal_moves)
    for move, preview in previews.items():
        assert preview.heroes == state.apply(move).heroes
        assert preview.status is state.apply(move).status
    assert state == twin


@pytest.mark.parametrize("rules", [SOLO, COOP, Rules.solo(weapon="lenient")], ids=str)
def test_outcomes_say_what_the_previews_say(rules: Rules) -> None:
    """``outcomes`` is the previews in brief: for every legal move of every position of
    many games, each hero's health, damage and weapon after it and the status, as the preview has
    them; the position is left as it was."""
    chooser = random.Random(11)
    positions = 0
    for seed in range(100):
        state = State.new(rules, random_deal(rules, seed))
        twin = State.new(rules, random_deal(rules, seed))
        while True:
            expected = [
                (
                    move,
                    tuple(hero.health for hero in preview.heroes),
                    preview.damage,
                    tuple(hero.weapon for hero in preview.heroes),
                    preview.status,
                )
                for move, preview in state.previews().items()
            ]
            assert state.outcomes() == expected
            assert state == twin
            positions += 1
            if state.is_over:
                break
            move = chooser.choice(state.legal_moves)
            state, twin = state.apply(move), twin.apply(move)
    assert positions > 500  # random play dies young: some hundreds of positions
