"""What a move is called and how far a weapon reaches (:mod:`scoundrel.core.label`): each
branch of the one decision tree the browser and the terminal translate, with its rule."""

from __future__ import annotations

import pytest
from helpers import CLEAR_DECK, COOP_DECK, COOP_ROOMS, new, play

from scoundrel.core import Card, Hero, Move, Rules, State
from scoundrel.core.label import (
    ACTION_CODES,
    LIMIT_CODES,
    Label,
    Limit,
    action_label,
    action_labels,
    move_label,
    preview_label,
    weapon_limit,
)

SOLO = Rules.solo()
LENIENT = Rules.solo(weapon="lenient")
COOP = Rules.coop()


def label(state: State, token: str) -> Label:
    return action_labels(state)[Move(token)]


# ---------------------------------------------------------------------- solo


def test_s5_flee_names_the_leader_and_is_never_deadly() -> None:
    """S5: fleeing moves the room under the dungeon; nobody is hurt."""
    assert label(new(SOLO, "7D KS 5H 9C"), "F") == Label("flee", {"hero": 1})


def test_s7_equip() -> None:
    """S7: taking a weapon equips it."""
    assert label(new(SOLO, "7D KS 5H 9C"), "7D") == Label("equip", {"card": "7D", "hero": 1})


def test_s8_fight_with_the_weapon_names_the_weapon_and_the_damage() -> None:
    """S8: with the weapon, the damage is what the monster exceeds it by."""
    state = play(new(SOLO, "7D KS 5H 9C"), "7D")
    assert label(state, "KS/w") == Label(
        "fight_weapon", {"card": "KS", "hero": 1, "weapon": "7D", "damage": 6, "health": 14}
    )


def test_s8_fight_bare_handed_costs_the_monster_value() -> None:
    """S8: bare-handed, the damage is the monster's whole value (no weapon named)."""
    state = play(new(SOLO, "7D KS 5H 9C"), "7D")
    assert label(state, "KS/b") == Label(
        "fight_bare", {"card": "KS", "hero": 1, "damage": 13, "health": 7}
    )


def test_s10_drink_heals_its_value() -> None:
    """S10: the first potion of a room heals its value."""
    state = play(new(SOLO, "KS 5H 4H 2C"), "KS/b")
    assert label(state, "5H") == Label("drink", {"card": "5H", "hero": 1, "gain": 5, "health": 12})


def test_s10_drink_wasted_after_a_potion_this_room() -> None:
    """S10: a second potion in the same room heals nothing."""
    state = play(new(SOLO, "KS 5H 4H 2C"), "KS/b 5H")
    assert label(state, "4H") == Label(
        "drink_wasted", {"card": "4H", "hero": 1, "gain": 0, "health": 12}
    )


def test_s10_drink_at_full_health_heals_nothing_and_uses_the_room_potion() -> None:
    """S10: at 20 a potion heals nothing (and still counts as this room's potion)."""
    state = new(SOLO, "7D KS 5H 9C")
    assert label(state, "5H") == Label(
        "drink_full", {"card": "5H", "hero": 1, "gain": 0, "health": 20}
    )


def test_s11_deadly_when_the_hero_would_have_no_health_left() -> None:
    """S11: a hero at 0 health or less is dead: the move is marked deadly."""
    state = play(new(SOLO, "KS QC 2H 3H"), "KS/b")  # 7 health
    deadly = label(state, "QC/b")
    assert deadly.deadly and deadly.params["health"] == -5
    assert not label(state, "2H").deadly


def test_s11_exactly_zero_health_is_deadly() -> None:
    """S11: "0 or less": a fight that leaves exactly 0 is deadly too."""
    state = play(new(SOLO, "KS 7C 2H 3H"), "KS/b")  # 7 health
    assert label(state, "7C/b").deadly


# ---------------------------------------------------------------------- co-op


def test_c5_give_weapon_to_the_partner() -> None:
    """C5: the help card plays on the leader's partner, who equips a weapon."""
    state = new(COOP, "7D KS 5H 9C")
    assert label(state, ">7D") == Label("give_weapon", {"card": "7D", "hero": 2})
    assert label(state, "7D") == Label("equip", {"card": "7D", "hero": 1})


def test_c5_c6_give_potion_at_full_health_and_when_it_heals() -> None:
    """C5, C6: a potion given heals the partner; at 20 it heals nothing."""
    state = new(COOP, "7D KS 5H 9C")
    assert label(state, ">5H").code == "give_potion_full"
    # hero 2 leads the second room of COOP_DECK and gives 2H to hero 1 (16 -> ... -> 9)
    state = play(new(COOP, COOP_DECK), " ".join(COOP_ROOMS[:4]) + " AH/w KC/w")
    assert state.leader == 1
    assert label(state, ">2H") == Label(
        "give_potion", {"card": "2H", "hero": 2, "gain": 2, "health": 12}
    )


def test_c5_c6_give_potion_wasted_when_the_partner_drank_this_room() -> None:
    """C6: one potion a room heals each hero; the help card (one a room, C5) is the
    partner's only way to drink in the leader's room, so this branch is asked of the
    label directly, with a partner who has drunk already."""
    partner = Hero(health=10, weapon=None, stack=(), potion_used=True, reach=None)
    leader = Hero(health=20, weapon=None, stack=(), potion_used=False, reach=None)
    made = action_label(Move(">5H"), 1, (leader, partner), (20, 10), (0, 0))
    assert made == Label("give_potion_wasted", {"card": "5H", "hero": 2, "gain": 0, "health": 10})


def test_c5_c8_give_fight_with_the_partner_weapon_and_bare_deadly() -> None:
    """C5: the partner fights the help card with their own weapon or bare-handed; C8: a
    hero at 0 or less loses the game for both, so the move is deadly."""
    state = play(new(COOP, COOP_DECK), " ".join(COOP_ROOMS[:3]))  # hero 2 leads, 9D
    assert state.leader == 2
    weapon = label(state, ">AC/w")
    assert weapon == Label(
        "give_fight_weapon",
        {"card": "AC", "hero": 1, "weapon": "10D", "damage": 4, "health": 16},
    )
    bare = label(state, ">AC/b")
    assert bare == Label("give_fight_bare", {"card": "AC", "hero": 1, "damage": 14, "health": 6})
    assert not bare.deadly
    hurt = play(state, "AS/w AD/w")  # hero 2 at 10: its own bare fight with AC is deadly
    assert label(hurt, "AC/b").deadly


def test_every_label_code_is_reached_and_named() -> None:
    """Every code :func:`action_label` gives is one of :data:`ACTION_CODES` (catalog keys
    ``act.*``), over whole games of both rulesets."""
    seen: set[str] = set()
    for start, moves in ((new(SOLO, CLEAR_DECK), None), (new(COOP, COOP_DECK), COOP_ROOMS)):
        state = start
        tokens = " ".join(moves).split() if moves else None
        step = 0
        while not state.is_over:
            labels = action_labels(state)
            assert list(labels) == list(state.legal_moves)
            for move, made in labels.items():
                assert made.code in ACTION_CODES
                assert made.params.get("hero") == move.hero(state.leader)
                seen.add(made.code)
            if tokens is None or step >= len(tokens):
                state = state.apply(state.legal_moves[0])
            else:
                state = state.apply(tokens[step])
                step += 1
    assert seen >= {"equip", "give_weapon", "fight_weapon", "fight_bare", "flee"}


def test_a_preview_labels_a_move_as_the_outcomes_do() -> None:
    """:func:`preview_label` (the terminal, from a :class:`Preview`) and
    :func:`action_labels` (the browser's view, from :meth:`State.outcomes`) agree."""
    state = play(new(COOP, COOP_DECK), " ".join(COOP_ROOMS[:3]))
    labels = action_labels(state)
    for move, preview in state.previews().items():
        assert preview_label(preview, state.leader, state.heroes) == labels[move]


# ---------------------------------------------------------------------- a move alone


@pytest.mark.parametrize(
    ("token", "code", "params"),
    [
        ("F", "flee", {}),
        ("7D", "equip", {"card": "7D", "help": False}),
        ("5H", "drink", {"card": "5H", "help": False}),
        ("KS/w", "fight_weapon", {"card": "KS", "help": False}),
        ("KS/b", "fight_bare", {"card": "KS", "help": False}),
        (">KS/b", "fight_bare", {"card": "KS", "help": True}),
        (">7D", "equip", {"card": "7D", "help": True}),
    ],
)
def test_n2_a_move_without_its_position(token: str, code: str, params: dict[str, object]) -> None:
    """N2 notation read by the core, for a list of moves (replays, hints' plans): S5 flee,
    S7 equip, S10 drink, S8 with the weapon or bare-handed, C5 the help card."""
    assert move_label(Move(token)) == Label(code, params)  # type: ignore[arg-type]


# ---------------------------------------------------------------------- weapon limits


def test_s9_weapon_limits_strict() -> None:
    """S9 (strict): no weapon, a fresh weapon, then only monsters below the last kill."""
    state = new(SOLO, "7D KS 5H 9C")
    assert weapon_limit(state.heroes[0], SOLO) == Limit("none")
    state = play(state, "7D")
    assert weapon_limit(state.heroes[0], SOLO) == Limit("fresh")
    hero = play(state, "KS/w").heroes[0]
    assert weapon_limit(hero, SOLO) == Limit("below", 13)
    assert hero.can_use_weapon_on(Card("QS")) and not hero.can_use_weapon_on(Card("KC"))


def test_c7_weapon_limits_lenient() -> None:
    """S9/C7 (lenient): monsters up to the last kill."""
    hero = play(new(LENIENT, "7D KS 5H 9C"), "7D KS/w").heroes[0]
    assert weapon_limit(hero, LENIENT) == Limit("up_to", 13)
    assert hero.can_use_weapon_on(Card("KC")) and not hero.can_use_weapon_on(Card("AC"))
    assert {weapon_limit(hero, rules).code for rules in (SOLO, LENIENT)} <= set(LIMIT_CODES)
