"""The solver's integer model agrees with the rules core (S4-S11, C3-C8).

For many positions reached by legal play (solo strict and lenient, co-op in its variants, at
the start of rooms and in the middle of them, after flees, in the final room), the core
enumerates every sequence of legal moves that finishes the current room; the model's
:class:`Expansion` must find exactly the same outcomes, the same fatal ones, and lines that
the core replays to those outcomes.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import given
from hypothesis import strategies as st
from solver_support import (
    COOP,
    COOP_EASIER,
    COOP_HARDER,
    COOP_STRICT,
    LENIENT,
    SOLO,
    along_line,
    card_code,
    cards_to_resolve,
    hero_tuple,
    play,
    room_ways,
    stacked,
    wander,
    winning_line,
)

from scoundrel.core import Card, Kind, Move, Rules, State, Status, random_deal
from scoundrel.solver.model import (
    FLEE_MOVE,
    FRESH,
    HELP,
    WITH_WEAPON,
    Expansion,
    Position,
    code,
    monster_groups,
    room_moves,
    to_moves,
    unavoidable_damage,
)

RULESETS = {
    "solo": SOLO,
    "lenient": LENIENT,
    "coop": COOP,
    "coop-strict": COOP_STRICT,
    "coop-easier": COOP_EASIER,
    "coop-harder": COOP_HARDER,
}


#: Deals whose winning line the solver finds quickly (its lines reach the final room).
QUICK_WINS = {
    "solo": (0, 1, 2, 3),
    "lenient": (0, 1, 2, 3),
    "coop": (0, 5),
    "coop-strict": (21,),
    "coop-easier": (0, 5, 9),
    "coop-harder": (),
}


def positions(name: str, seeds: range) -> Iterator[State]:
    """Positions still being played: wandering games (mostly the bot, some random moves)
    from the seeded deals ``seeds``, and every position of the solver's winning lines of
    QUICK_WINS (they reach the final room), and of games that leave those lines late."""
    rules = RULESETS[name]
    for seed in seeds:
        yield from (s for s in wander(rules, seed) if not s.is_over)
    for seed in QUICK_WINS[name]:
        line = winning_line(rules, seed, polls=10)
        if line is None:
            continue
        state = State.new(rules, random_deal(rules, seed))
        for move in line:
            yield state
            state = state.apply(move)
        assert state.status is Status.WON
        for variant in (1, 2):
            late = along_line(rules, seed, variant=variant, cards=8)
            if late is not None:
                yield late


def expand(state: State, want_deaths: bool = True) -> Expansion:
    p = Position.of(state)
    return Expansion(p.strict, p.coop, want_deaths, p.most).run(
        p.room, cards_to_resolve(state), p.heroes, p.leader, p.potions, p.help_used
    )


def check_position(state: State) -> tuple[int, int]:
    """Compare the model with the core at ``state``; returns (outcomes, deaths) found."""
    ways = room_ways(state)
    expansion = expand(state)
    # the same outcomes: cards left in the room and every hero's (health, weapon, reach)
    assert set(expansion.outcomes) == set(ways.survivors), state
    # a hero dies on some line iff the core has a fatal line, with the same results (the
    # model takes the first of two same-value cards, so only the multiset of cards left
    # after a death is comparable: the score counts their values, S13/C10)
    model_deaths = {(tuple(sorted(rest)), heroes[0::3]) for heroes, rest, _ in expansion.deaths}
    core_deaths = {(tuple(sorted(rest)), health) for rest, health in ways.deaths}
    assert model_deaths == core_deaths, state
    # every line the model gives replays through the core to the outcome it is filed under
    for (rest, heroes), line in expansion.outcomes.items():
        moves = to_moves(state, line)
        assert moves == room_moves(state.room, line)
        end = play(state, moves)
        assert end.status is not Status.LOST
        assert hero_tuple(end) == heroes
        taken = {m.card for m in moves}
        assert tuple(card_code(c) for c in state.room if c not in taken) == rest
    for heroes, _, line in expansion.deaths:
        end = state
        for i, move in enumerate(to_moves(state, line)):
            assert not end.is_over, f"line {line} dies before its last move"
            end = end.apply(move)
            assert (end.status is Status.LOST) == (i == len(line) - 1)
        assert tuple(h.health for h in end.heroes) == heroes[0::3]
    # S13: for a solo outcome, ``last`` is the best potion that can end a line to it
    if not state.rules.coop_game:
        for key, line in expansion.outcomes.items():
            potions = {
                moves[-1].card.value if moves and moves[-1].card.kind is Kind.POTION else 0
                for moves, _ in ways.survivors[key]
            }
            assert expansion.last[key] == max(potions)
            last = to_moves(state, line)[-1:] if line else []
            ends_with = last[0].card.value if last and last[0].card.kind is Kind.POTION else 0
            assert ends_with == expansion.last[key]
    return len(expansion.outcomes), len(expansion.deaths)


# ---------------------------------------------------------------------- the encoding


def test_card_codes_follow_the_documented_encoding() -> None:
    """S1, C2, C11: monsters 2-15 (jokers 15), weapons 16+v, potions 32+v, so that a
    monster code is its value and no two kinds share a code."""
    for card in Rules.coop(harder=True).cards:
        assert code(card) == card_code(card)
        if card.is_monster:
            assert 2 <= code(card) <= 15 < FRESH
    assert {code(Card("5C")), code(Card("5S"))} == {5}
    assert code(Card("RJ")) == code(Card("BJ")) == 15
    assert WITH_WEAPON & 63 == HELP & 63 == 0 and FLEE_MOVE & (63 | WITH_WEAPON | HELP) == 0


@pytest.mark.parametrize("name", sorted(RULESETS))
def test_position_of_reads_the_state(name: str) -> None:
    """Position.of maps every hero to (health, weapon, reach) as S7/S9/C7 say, and copies
    the room, dungeon, leader and the partly resolved room's flags."""
    rules = RULESETS[name]
    for seed in range(3):
        for state in wander(rules, seed):
            if state.is_over:
                continue
            p = Position.of(state)
            assert p.heroes == hero_tuple(state)
            assert p.room == tuple(card_code(c) for c in state.room)
            assert p.dungeon == tuple(card_code(c) for c in state.dungeon)
            assert p.leader == state.leader - 1
            assert p.taken == state.resolved_in_room
            assert p.fled == state.fled_into
            assert p.help_used == state.help_used
            assert p.potions == tuple(h.potion_used for h in state.heroes)
            assert (p.strict, p.coop) == (rules.strict, rules.coop_game)
            last = state.last_resolved
            potion = last.value if last is not None and last.kind is Kind.POTION else 0
            assert p.last_potion == potion


def test_fresh_weapon_reaches_a_joker() -> None:
    """C11 harder: jokers are monsters of 15, and a weapon that slew nothing can be used on
    them (S7): the model's FRESH reach must be above 15."""
    rules = Rules.coop(harder=True)
    state = State.new(rules, stacked(rules, "10D RJ BJ 2C"))
    state = play(state, "10D")
    assert Move("RJ/w") in state.legal_moves
    assert Position.of(state).heroes[:3] == (20, 10, FRESH)
    check_position(state)


# ---------------------------------------------------------------------- the expansion


@pytest.mark.parametrize("name", sorted(RULESETS))
def test_expansion_matches_the_core(name: str) -> None:
    """Every way to finish a room (S6, S4 final room, C4 leader, C5 help card, C6 one potion
    per hero, S8/S9/C7 weapons, S10 potions, S11/C8 deaths) is found by the model, and
    nothing else is."""
    checked = finals = middles = with_deaths = 0
    for state in positions(name, range(8)):
        _, deaths = check_position(state)
        checked += 1
        finals += state.final_room
        middles += state.resolved_in_room > 0
        with_deaths += deaths > 0
    assert checked > 100 and middles > 30 and with_deaths > 10
    if QUICK_WINS[name]:
        assert finals > 0


@pytest.mark.parametrize("name", sorted(RULESETS))
def test_expansion_without_deaths_lists_none(name: str) -> None:
    """want_deaths=False (the first-win search, the fast bot) keeps no fatal lines, but
    the same survivors with the same first lines, in the same order; in co-op it walks
    each position within the room once (C4-C6: two orders often meet), which must lose
    nothing of what walking every order finds."""
    checked = 0
    for state in positions(name, range(4)):
        with_deaths = expand(state, want_deaths=True)
        without = expand(state, want_deaths=False)
        assert without.deaths == []
        assert list(without.outcomes.items()) == list(with_deaths.outcomes.items()), state
        assert without.last == with_deaths.last
        checked += 1
    assert checked > 50


def test_second_potion_in_a_room_does_nothing_in_the_model() -> None:
    """S10: only the first potion of a room heals; the model's outcome after drinking two
    keeps only the first one's healing, as the core does."""
    state = State.new(SOLO, stacked(SOLO, "KS 5H 7H 2C"))
    state = play(state, "KS/b")  # 20 -> 7
    expansion = expand(state)
    keys = set(expansion.outcomes)
    assert ((2,), (19, 0, 0)) not in keys  # 7 + 5 + 7 would be 19
    assert ((2,), (14, 0, 0)) in keys  # 7H then 5H: only 7 heals
    assert ((2,), (12, 0, 0)) in keys  # 5H then 7H: only 5 heals
    check_position(state)


def test_help_card_once_per_room_in_the_model() -> None:
    """C5: at most one card of a room goes to the partner, who fights with their own
    weapon; C6: each hero heals from one potion per room."""
    rules = COOP
    state = State.new(rules, stacked(rules, "8D 3H 4H 9C"))
    state = play(state, ">8D")  # the partner (hero 2) equips 8D; the help card is used
    expansion = expand(state)
    for line in expansion.outcomes.values():
        assert not any(item & HELP for item in line)
    check_position(state)
    fresh = State.new(rules, stacked(rules, "AS 3H 4H 9C"))
    expansion = expand(fresh)
    for line in expansion.outcomes.values():
        assert sum(1 for item in line if item & HELP) <= 1
    check_position(fresh)


def plain_unavoidable_damage(
    monsters: list[int], weapons: list[int], held: tuple[int, ...], strict: bool
) -> int:
    """The bound's damage as its definition says, one monster at a time: each monster left
    (highest first) meets the best weapon still to come or held by a hero whose reach it is
    below; in strict play the k-th monster of one value meets the k-th best such weapon."""
    half = len(held) // 2
    damage = 0
    for monster in sorted(set(monsters), reverse=True):
        usable = sorted(
            [*weapons, *(held[i] for i in range(half) if monster < held[half + i])],
            reverse=True,
        )
        for copy in range(monsters.count(monster)):
            best = usable[copy if strict else 0] if (copy if strict else 0) < len(usable) else 0
            damage += max(0, monster - best)
    return damage


@given(
    monsters=st.lists(st.integers(2, 14), max_size=26),
    weapons=st.lists(st.integers(2, 10), max_size=9),
    hero_weapons=st.lists(st.sampled_from([0, *range(2, 11)]), min_size=1, max_size=2),
    reaches=st.lists(st.integers(0, 16), min_size=2, max_size=2),
    strict=st.booleans(),
)
def test_unavoidable_damage_meets_its_definition(
    monsters: list[int],
    weapons: list[int],
    hero_weapons: list[int],
    reaches: list[int],
    strict: bool,
) -> None:
    """S8, S9, C7: the bound's damage, computed a group of same-value monsters at a time
    with each held weapon joining once, is what the definition gives monster by monster
    (solo: one hero; co-op: two)."""
    held = (*hero_weapons, *reaches[: len(hero_weapons)])
    expected = plain_unavoidable_damage(monsters, sorted(weapons, reverse=True), held, strict)
    got = unavoidable_damage(monster_groups(monsters), sorted(weapons, reverse=True), held, strict)
    assert got == expected
