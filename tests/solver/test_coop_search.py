"""The co-op solver (C1-C11) against a plain exhaustive search, and its parts one by one.

The co-op search prunes in ways the solo one does not: weapons in a normal form for the
cards left, rooms put together from the two heroes' parts, failures remembered with a
*margin* of health (heroes with a little more health fail too), a bound that looks at the
room faced next, and a beam search that looks for a win before the full search. Each must
change nothing but the time taken, so:

* late positions of every co-op variant (reached by legal play from seeded deals) are
  decided by the plain search of ``solver_support.exhaustive``, which tries every legal
  move with the rules core and prunes nothing, and the solver must agree on whether they
  can be won and on the best score (C10);
* on the lost ones, heroes given the health the margin says cannot help must still lose;
* a room's ways put together from the heroes' parts are those of the model's expansion.
"""

from __future__ import annotations

import random

import pytest
from solver_support import (
    COOP,
    COOP_EASIER,
    COOP_HARDER,
    COOP_STRICT,
    FRESH,
    along_line,
    cards_left,
    exhaustive,
    replay_end,
)

from scoundrel.core import Rules, State, Status, random_deal
from scoundrel.core.kernel import WEAPON_DAMAGE
from scoundrel.solver import coop_search, reach, room_search, solve
from scoundrel.solver.model import Expansion, Position, dominates

RULESETS = {
    "coop": COOP,
    "coop-strict": COOP_STRICT,
    "coop-easier": COOP_EASIER,
    "coop-harder": COOP_HARDER,
}


def late_positions(rules: Rules, seeds: range, cards: int) -> list[State]:
    """Positions with ``cards`` to ``cards + 3`` cards left, along the solver's winning
    lines of the seeded deals, after a likely mistake and the bot's play."""
    found = []
    for seed in seeds:
        for variant in range(4):
            state = along_line(rules, seed, variant, cards + variant)
            if state is not None:
                found.append(state)
    return found


@pytest.mark.parametrize("name", list(RULESETS))
def test_coop_solver_agrees_with_plain_search(name: str) -> None:
    """C9, C10: winnable or not, and the best score, as the plain search says; every line
    replays through the core to the score claimed."""
    rules = RULESETS[name]
    positions = late_positions(rules, range(6), 8)
    wins = losses = 0
    for state in positions:
        win, best = exhaustive(state)
        first = solve(state)
        assert first.winnable == win, state
        if win:
            end = replay_end(state, first.line)
            assert end.status is Status.WON and end.score == first.score
        full = solve(state, best=True)
        assert full.best_score == best, state
        end = replay_end(state, full.line)
        assert end.is_over and end.score == best
        # C10: the best is reachable, one more is not
        assert reach(state, best)[0] == best
        assert reach(state, best + 1)[0] is None
        wins += win
        losses += not win
    assert wins >= 3 and losses >= 1, (wins, losses)


def with_health(state: State, more: tuple[int, int]) -> State:
    """The same position, each hero with that much more health (at most 20, C1)."""
    raised = state._copy()
    for i, extra in enumerate(more):
        raised._health[i] = min(20, raised._health[i] + extra)
    return raised


@pytest.mark.parametrize("name", ["coop", "coop-strict"])
def test_margins_of_lost_positions_hold(name: str) -> None:
    """A lost position's margin ``m`` (see ``CoopSearch._fail``): with ``a`` and ``b`` more
    health, ``a + b < m``, the heroes still cannot win, as the plain search confirms."""
    rules = RULESETS[name]
    checked = wide = 0
    for state in late_positions(rules, range(8), 8):
        if state.resolved_in_room or state.is_over:
            continue
        p = Position.of(state)
        search = coop_search.CoopSearch(p, 2, True, None, None)
        try:
            margin = search._step(p.room, p.dungeon, p.fled, p.leader, p.heroes, ())
        except room_search.Found:
            continue  # a win: no margin
        assert margin >= 1
        assert not exhaustive(state)[0]
        checked += 1
        wide += margin > 1
        for a in range(min(margin, 8)):
            for b in range(min(margin - a, 8)):
                raised = with_health(state, (a, b))
                assert not exhaustive(raised)[0], (state, a, b, margin)
    assert checked >= 3
    if name == "coop":
        assert wide >= 1  # the margins do say something


def random_heroes(rng: random.Random) -> tuple[int, ...]:
    heroes: list[int] = []
    for _ in range(2):
        weapon = rng.choice([0, 0, *range(2, 11)])
        reach_ = 0 if not weapon else rng.choice([FRESH, *range(2, 16)])
        heroes += [rng.randint(1, 20), weapon, reach_]
    return tuple(heroes)


def random_cards(rng: random.Random, n: int) -> tuple[int, ...]:
    codes = [*range(2, 16), *range(18, 27), *range(34, 43)]
    return tuple(rng.choice(codes) for _ in range(n))


def frontier(items: list[tuple[int, ...]]) -> set[tuple[int, ...]]:
    return {a for a in items if not any(b != a and dominates(b, a) for b in items)}


@pytest.mark.parametrize("strict", [False, True])
def test_rooms_from_the_heroes_parts_match_the_expansion(strict: bool) -> None:
    """C4-C6: a room not yet begun, put together from the leader's cards and the help
    card, has the same ways out for both heroes alive (none beaten by another) as the
    model's expansion, card kept by card kept; in the final room (S4) the same scores.
    Without the fatal lines (as the beam asks) the ways out are the same."""
    rng = random.Random(7)
    p = Position((), (1,), (20, 0, 0) * 2, 0, False, 0, (False, False), False, strict, True,
                 "standard", 0)  # fmt: skip
    search = coop_search.CoopSearch(p, 2, True, None, None)
    for _ in range(400):
        final = rng.random() < 0.25
        room = random_cards(rng, rng.randint(2, 4) if final else 4)
        heroes = random_heroes(rng)
        leader = rng.randint(0, 1)
        n = len(room) if final else 3
        expansion = Expansion(strict, True, False, 20).run(
            room, n, heroes, leader, (False, False), False
        )
        kept, _ = search._pair(tuple(sorted(room)), heroes, leader, final)
        # the beam's rooms, whose lines stop where a hero dies, keep the same ways out
        alive, none = search._pair(tuple(sorted(room)), heroes, leader, final, False)
        assert alive == kept and none == []
        if final:
            scores = sorted((h[0] + h[3] for _, h in expansion.outcomes), reverse=True)
            assert [score for score, _, _ in kept][:1] == scores[:1]
            continue
        for carry in set(room):
            theirs = frontier([h for (rest, h) in expansion.outcomes if rest[0] == carry])
            ours = [h for c, h, _ in kept if c == (carry,)]
            assert len(ours) == len(set(ours))
            assert set(ours) == theirs, (room, heroes, leader, carry)


def test_weapon_normal_form_changes_nothing() -> None:
    """S8, S9, C7: a weapon in normal form fights exactly the monsters left it fought
    before, for the same damage, and a better weapon stays at least as good."""
    rng = random.Random(3)
    for _ in range(2000):
        monsters = [rng.randint(2, 15) for _ in range(rng.randint(0, 12))]
        reaches = coop_search._reaches(sorted(monsters, reverse=True))
        heroes = random_heroes(rng)
        normal = coop_search._normal(heroes, reaches)
        for i in (0, 3):
            h, w, r = heroes[i : i + 3]
            nh, nw, nr = normal[i : i + 3]
            assert nh == h and nw <= w and nr <= r
            for m in monsters:
                assert (m < r) == (m < nr)
                if m < r:
                    assert WEAPON_DAMAGE[m][w] == WEAPON_DAMAGE[m][nw]
        better = tuple(
            min(x + 1, 10 if i % 3 == 1 else FRESH) if i % 3 and x else x
            for i, x in enumerate(heroes)
        )
        assert dominates(coop_search._normal(better, reaches), normal)


def test_beam_and_full_search_agree_on_a_late_position() -> None:
    """The beam search only ever finds lines that the core replays to a win; with no beam
    the full search finds the same answer."""
    for state in late_positions(COOP, range(3), 10):
        with_beam = solve(state)
        beams = coop_search._BEAMS
        coop_search._BEAMS = ()
        try:
            without = solve(state)
        finally:
            coop_search._BEAMS = beams
        assert with_beam.winnable == without.winnable
        for solution in (with_beam, without):
            if solution.winnable:
                assert replay_end(state, solution.line).status is Status.WON
        assert cards_left(state) <= 13


def test_a_full_cache_forgets_its_least_recently_used_half() -> None:
    """The rooms' caches keep at most twice their size: the half not asked for since the
    last time they filled is forgotten, an entry asked for meanwhile is kept."""
    kept: room_search.Kept[int] = room_search.Kept(3)
    for n in range(3):
        kept.keep((n,), n + 1)
    kept.keep((3,), 4)  # full: 0, 1, 2 become the old half
    assert kept.get((1,)) is None and kept.recall((1,)) == 2  # asked for again: moves back
    kept.keep((4,), 5)
    kept.keep((5,), 6)  # full again (3, 1, 4 become the old half): 0 and 2 are forgotten
    assert [kept.get((n,)) or kept.recall((n,)) for n in range(6)] == [None, 2, None, 4, 5, 6]
    assert len(kept) + len(kept.old) <= 2 * kept.size


def test_tiny_caches_change_nothing_but_the_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """Forgetting costs time, never correctness: with every cache a few entries small, the
    co-op solver gives the same answers on late positions of each variant."""
    positions = [
        state for rules in RULESETS.values() for state in late_positions(rules, range(2), 8)
    ]
    answers = [(solve(state).winnable, solve(state, best=True).best_score) for state in positions]
    for module, name, size in (
        (room_search, "_ROOMS_KEPT", 4),
        (coop_search, "_LEADS_KEPT", 4),
        (coop_search, "_PAIRS_KEPT", 4),
        (room_search, "_CARDS_KEPT", 8),
        (room_search, "POSITIONS_KEPT", 8),
        (coop_search, "POSITIONS_KEPT", 8),
    ):
        monkeypatch.setattr(module, name, size)
    small = [(solve(state).winnable, solve(state, best=True).best_score) for state in positions]
    assert small == answers
    assert len(positions) >= 8 and any(win for win, _ in answers)


class _Widest(Exception):
    """The widest beam was asked for."""


def test_the_widest_beam_runs_from_the_first_rooms_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """A beam proves nothing, so a lost position pays for every beam before the full
    search: the widest (seconds long) is tried only from the first rooms, never from a
    position further on, whose full search is quick. Here every beam finds nothing."""
    widest = max(width for width, _ in coop_search._BEAMS)
    tried: list[int] = []
    late = late_positions(COOP, range(2), 8)  # (found with the solver's help)

    def nothing(_search: coop_search.CoopSearch, width: int) -> None:
        tried.append(width)
        if width == widest:
            raise _Widest

    monkeypatch.setattr(coop_search.CoopSearch, "_beam", nothing)
    for state in late:
        solve(state)  # the full search decides it
    assert tried and widest not in tried
    tried.clear()
    with pytest.raises(_Widest):
        solve(State.new(COOP, random_deal(COOP, 1)))
    assert tried == sorted(width for width, _ in coop_search._BEAMS)
