"""Shared helpers for the solver tests: positions reached by legal play, and the rules core's
own answers (every way through a room, the exact best score) to compare the solver with.

Everything here is computed with :class:`scoundrel.core.State` alone, never with the solver's
integer model, so the tests compare two independent readings of the rules.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from scoundrel.core import Card, Kind, Move, Rules, State, Status, random_deal
from scoundrel.solver import Bot, Cancelled, solve

SOLO = Rules.solo()
LENIENT = Rules.solo(weapon="lenient")
DUNGEON_ONLY = Rules.solo(death_score="dungeon-only")
COOP = Rules.coop()
COOP_STRICT = Rules.coop(weapon="strict")
COOP_EASIER = Rules.coop(easier=True)
COOP_HARDER = Rules.coop(harder=True)

#: Search heroes are ``(health, weapon value, reach)``; reach for an unused weapon (S7).
FRESH = 16


def stacked(rules: Rules, codes: str) -> tuple[Card, ...]:
    """A whole deck of ``rules`` starting with ``codes`` (top first), the rest in canonical
    order."""
    top = [Card(c) for c in codes.split()]
    chosen = set(top)
    return (*top, *(card for card in rules.cards if card not in chosen))


def play(state: State, tokens: str | tuple[Move, ...] | list[Move]) -> State:
    """Apply moves (tokens or :class:`Move`) one by one; each must be legal."""
    items = tokens.split() if isinstance(tokens, str) else tokens
    for move in items:
        state = state.apply(move)
    return state


def card_code(card: Card) -> int:
    """The search encoding of a card, written out from the model's documentation:
    monster = value, weapon = 16 + value, potion = 32 + value."""
    if card.kind is Kind.MONSTER:
        return card.value
    if card.kind is Kind.WEAPON:
        return 16 + card.value
    return 32 + card.value


def hero_tuple(state: State) -> tuple[int, ...]:
    """The heroes in search form, straight from the rules: a weapon that slew nothing reaches
    every monster (S7: FRESH); after a kill of value k strict play (S9) reaches monsters below
    k and lenient play (S9 option, C7) monsters below k + 1; no weapon reaches nothing."""
    strict = state.rules.strict
    out: list[int] = []
    for hero in state.heroes:
        if hero.weapon is None:
            weapon = reach = 0
        elif not hero.stack:
            weapon, reach = hero.weapon.value, FRESH
        else:
            last = hero.stack[-1].value
            weapon, reach = hero.weapon.value, last if strict else last + 1
        out += [hero.health, weapon, reach]
    return tuple(out)


def cards_to_resolve(state: State) -> int:
    """S4/S6: three cards per room (minus those resolved), every card of the final room."""
    return len(state.room) if state.final_room else 3 - state.resolved_in_room


@dataclass
class RoomWays:
    """What the core says about every way to resolve the rest of the current room."""

    survivors: dict[tuple[tuple[int, ...], tuple[int, ...]], list[tuple[tuple[Move, ...], State]]]
    """(codes left in the room in room order, heroes) -> the lines that get there."""
    deaths: set[tuple[tuple[int, ...], tuple[int, ...]]]
    """(codes left in the room, every hero's health) right after a fatal move."""


def room_ways(state: State) -> RoomWays:
    """Enumerate with the core every sequence of legal moves, flee excluded, that resolves
    the rest of the room (S6, S4, C4), depth first."""
    ways = RoomWays({}, set())

    def go(s: State, room: tuple[Card, ...], left: int, line: tuple[Move, ...]) -> None:
        if left == 0:
            key = (tuple(card_code(c) for c in room), hero_tuple(s))
            ways.survivors.setdefault(key, []).append((line, s))
            return
        for move in s.legal_moves:
            if move.is_flee:
                continue
            after = s.apply(move)
            rest = tuple(c for c in room if c is not move.card)
            if after.status is Status.LOST:
                ways.deaths.add(
                    (tuple(card_code(c) for c in rest), tuple(h.health for h in after.heroes))
                )
                continue
            go(after, rest, left - 1, (*line, move))

    go(state, state.room, cards_to_resolve(state), ())
    return ways


# ---------------------------------------------------------------------- positions


def wander(
    rules: Rules,
    seed: int,
    randomness: float = 0.3,
    bot: Bot | None = None,
) -> Iterator[State]:
    """Every position of one game from seeded deal ``seed``: mostly the fair bot's moves, a
    fraction ``randomness`` of uniformly random legal moves (fatal ones avoided when there is
    another), so that mid-room positions, flees and late rooms all come up."""
    for state, _ in walk(rules, seed, randomness, bot):
        yield state


def walk(
    rules: Rules,
    seed: int,
    randomness: float = 0.3,
    bot: Bot | None = None,
) -> Iterator[tuple[State, tuple[Move, ...]]]:
    """:func:`wander`'s positions, each with the moves from the deal that lead to it."""
    bot = bot or Bot()
    rng = random.Random(f"wander|{rules!r}|{seed}")
    state = State.new(rules, random_deal(rules, seed))
    moves: tuple[Move, ...] = ()
    while not state.is_over:
        yield state, moves
        legal = state.legal_moves
        if rng.random() < randomness:
            safe = [m for m in legal if state.apply(m).status is not Status.LOST]
            move = rng.choice(safe or list(legal))
        else:
            move = bot.choose(state.observation(state.leader))
        state = state.apply(move)
        moves = (*moves, move)
    yield state, moves


def cards_left(state: State) -> int:
    return state.dungeon_count + len(state.room)


def late_position(rules: Rules, seed: int, cards: int, randomness: float = 0.3) -> State | None:
    """The first position of a wandering game with at most ``cards`` cards left in the
    dungeon and the room, or ``None`` if the game ended before."""
    for state in wander(rules, seed, randomness):
        if state.is_over:
            return None
        if cards_left(state) <= cards:
            return state
    return None


# ---------------------------------------------------------------------- exhaustive search


def _key(state: State) -> tuple[Any, ...]:
    """Everything the future of a position depends on (the discard pile and the last card
    of a game still playing do not matter; of a weapon's stack only the last kill, S9/C7)."""
    heroes = tuple(
        (h.health, h.weapon, h.stack[-1].value if h.stack else None, h.potion_used)
        for h in state.heroes
    )
    return (
        state.dungeon,
        state.room,
        heroes,
        state.leader,
        state.resolved_in_room,
        state.help_used,
        state.fled_into,
    )


def exhaustive(state: State) -> tuple[bool, int]:
    """(can the game still be won, the best reachable score), trying every legal move
    (flees included) with the core and nothing else."""
    memo: dict[tuple[Any, ...], tuple[bool, int]] = {}

    def go(s: State) -> tuple[bool, int]:
        if s.is_over:
            assert s.score is not None
            return s.status is Status.WON, s.score
        key = _key(s)
        known = memo.get(key)
        if known is None:
            win, best = False, None
            for move in s.legal_moves:
                w, score = go(s.apply(move))
                win = win or w
                best = score if best is None or score > best else best
            assert best is not None
            known = memo[key] = (win, best)
        return known

    return go(state)


def replay_end(state: State, line: tuple[Move, ...] | list[Move]) -> State:
    """Apply ``line``; the game must not end before its last move."""
    for i, move in enumerate(line):
        assert not state.is_over, f"the game ended before move {i + 1} of the line"
        state = state.apply(move)
    return state


# ---------------------------------------------------------------------- solver lines


class Budget:
    """A ``cancel`` callback that gives up after ``polls`` times 4096 nodes (the solver
    asks every 256): deterministic, unlike a time limit."""

    def __init__(self, polls: int) -> None:
        self.polls = polls * 16
        self.calls = 0

    def __call__(self) -> bool:
        self.calls += 1
        return self.calls > self.polls


@functools.cache
def winning_line(rules: Rules, seed: int, polls: int = 40) -> tuple[Move, ...] | None:
    """The solver's winning line for seeded deal ``seed``, or ``None`` if it has none or
    takes more than ``polls`` * 4096 nodes to find one. Only used to *reach* late positions:
    every use checks the positions with the core."""
    start = State.new(rules, random_deal(rules, seed))
    try:
        solution = solve(start, cancel=Budget(polls))
    except Cancelled:
        return None
    return solution.line if solution.winnable else None


@functools.cache
def best_line(rules: Rules, seed: int, polls: int = 60) -> tuple[Move, ...] | None:
    """The solver's best line for deal ``seed`` (``None`` past the node budget)."""
    start = State.new(rules, random_deal(rules, seed))
    try:
        return solve(start, best=True, cancel=Budget(polls)).line
    except Cancelled:
        return None


def along_line(
    rules: Rules, seed: int, variant: int, cards: int, best: bool = False
) -> State | None:
    """A late position: follow the solver's winning line (``best``: its best line) of deal
    ``seed`` until at most ``cards`` + a few cards are left, then (for ``variant`` > 0) one
    random non-fatal move, a likely mistake, and the fair bot's moves until at most
    ``cards`` are left. ``None`` if there is no line or the game ends first. ``variant``
    picks the random choices."""
    moves = along_line_moves(rules, seed, variant, cards, best)
    if moves is None:
        return None
    return play(State.new(rules, random_deal(rules, seed)), moves)


def along_line_moves(
    rules: Rules, seed: int, variant: int, cards: int, best: bool = False
) -> tuple[Move, ...] | None:
    """The moves from the start of deal ``seed`` to :func:`along_line`'s position."""
    line = best_line(rules, seed) if best else winning_line(rules, seed)
    if line is None:
        return None
    rng = random.Random(f"along|{rules!r}|{seed}|{variant}")
    stop = cards + rng.randint(0, 5)
    state = State.new(rules, random_deal(rules, seed))
    moves: list[Move] = []

    def apply(move: Move) -> None:
        nonlocal state
        state = state.apply(move)
        moves.append(move)

    for move in line:
        if cards_left(state) <= stop:
            break
        apply(move)
    if variant and not state.is_over:
        safe = [m for m in state.legal_moves if state.apply(m).status is not Status.LOST]
        if not safe:
            return None
        apply(rng.choice(safe))
    bot = Bot()
    while not state.is_over and cards_left(state) > cards:
        apply(bot.choose(state.observation(state.leader)))
    return None if state.is_over else tuple(moves)
