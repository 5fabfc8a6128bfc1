"""Property tests: thousands of random games, checked after every move.

Every option set of both rulesets is played from the deal to the end with uniformly random
legal moves (10,000 games per option set), and after every move the test checks what must hold
in any position:

* S1/C2/C11 conservation: dungeon + room + every hero's weapon and stack + discard is exactly
  the ruleset's cards (nothing created, nothing lost);
* S2/C1 health cap: no hero has more than 20 health;
* S11/S12/C8/C9 status: the game goes on while every hero lives and a card is left; it is lost
  the moment a hero is at 0 or below, won when the final room is emptied with everybody alive,
  and an ended game has no legal moves;
* S13/C10 score: ``None`` while playing, the rules' formula (recomputed here) at the end,
  within ``Rules.score_range``; no game is longer than ``Rules.max_game_length``;
* N3/N4 records: a record written to JSON and read back replays to the same state;
* a token that is not legal is rejected with :class:`IllegalMoveError` and changes nothing,
  and every legal move applies;
* the position and its legal moves are those of :class:`Model`, a small reference model of
  the rules written from RULES.md alone (S3-S10, C3-C7).

A second, smaller test tries the whole set of candidate tokens at every position and compares
every legal move's outcome with the reference model. A third one plays games with a careful
player (:func:`plan_room`), so that the endings (final rooms, victories, the S13 potion bonus)
are reached often: uniformly random play almost never gets past the middle of the dungeon.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from scoundrel.core import (
    Card,
    Game,
    IllegalMoveError,
    Move,
    NotationError,
    Record,
    Rules,
    State,
    random_deal,
)

SEEDS = st.integers(0, 2**63 - 1)
#: The variants (V1, V2) a game is played with, drawn with every example: mostly standard,
#: often Relentless or Frail, sometimes another maximum health.
VARIANT_DRAWS = st.fixed_dictionaries(
    {
        "flee": st.sampled_from(["allowed", "allowed", "never"]),
        "health": st.sampled_from([20, 20, 14, 14, 1, 9, 17]),
    }
)
HEALTH_CHECKS = list(HealthCheck)

# ---------------------------------------------------------------------------- option sets

SOLO_SETS = [
    {"weapon": weapon, "death_score": death}
    for weapon in ("strict", "lenient")
    for death in ("standard", "dungeon-only")
]
COOP_SETS = [
    {"weapon": weapon, "easier": easier, "harder": harder, "first_leader": leader}
    for weapon in ("lenient", "strict")
    for easier in (False, True)
    for harder in (False, True)
    for leader in (1, 2)
]
OPTION_SETS = [("solo", options) for options in SOLO_SETS] + [
    ("coop", options) for options in COOP_SETS
]


def _set_id(ruleset: str, options: dict[str, Any]) -> str:
    parts = [ruleset]
    for key, value in options.items():
        if value is True:
            parts.append(key)
        elif value is not False:
            parts.append(f"leader{value}" if key == "first_leader" else str(value))
    return "-".join(parts)


OPTION_IDS = [_set_id(ruleset, options) for ruleset, options in OPTION_SETS]


def make_rules(
    ruleset: str,
    options: dict[str, Any],
    silent_leader: bool = False,
    variants: dict[str, Any] | None = None,
) -> Rules:
    """The rules of an option set; ``silent_leader`` (C11) changes no card rule, so it is
    drawn at random within each co-op set, and so are the variants (V1, V2)."""
    if ruleset == "solo":
        return Rules.solo(**options, **(variants or {}))
    return Rules.coop(silent_leader=silent_leader, **options, **(variants or {}))


# ---------------------------------------------------------------------------- card facts
# Written from RULES.md, not taken from the core, so that the checks are independent.


def is_monster(card: Card) -> bool:
    """S1, C2, C11: clubs, spades, red J/Q/K/A and the jokers are monsters."""
    return card.suit in ("C", "S", None) or card.value > 10


def is_weapon(card: Card) -> bool:
    """S1, C2: diamonds 2-10."""
    return card.suit == "D" and card.value <= 10


def monster_total(cards: Any) -> int:
    return sum(card.value for card in cards if is_monster(card))


def well_formed_tokens(card: Card) -> tuple[str, ...]:
    """Every N2 token that takes ``card``: own and help (C5), with and without the weapon."""
    code = card.code
    if is_monster(card):
        return (f"{code}/w", f"{code}/b", f">{code}/w", f">{code}/b")
    return (code, f">{code}")


def malformed_tokens(card: Card) -> tuple[str, ...]:
    """N2 tokens that are not notation: a monster needs /w or /b, other cards take none."""
    code = card.code
    if is_monster(card):
        return (code, f">{code}", f"{code}/x")
    return (f"{code}/w", f"{code}/b", f">{code}/w")


WELL_FORMED = {card: well_formed_tokens(card) for card in Rules.coop(harder=True).cards}
MALFORMED = {card: malformed_tokens(card) for card in Rules.coop(harder=True).cards}


# ---------------------------------------------------------------------------- checks


def snapshot(state: State) -> tuple[Any, ...]:
    """Everything observable about a position, to see that a rejected move changed nothing."""
    return (
        state.status,
        state.room,
        state.dungeon,
        state.discard,
        state.heroes,
        state.leader,
        state.resolved_in_room,
        state.help_used,
        state.fled_into,
        state.legal_moves,
    )


def expected_score(rules: Rules, state: State, last: Card | None) -> int | None:
    """S13 and C10, recomputed from the final position and the last card resolved."""
    if state.status == "playing":
        return None
    healths = [hero.health for hero in state.heroes]
    if state.status == "won":
        if rules.ruleset == "coop":
            return sum(healths)  # C10: both heroes' health, no potion bonus
        bonus = 0  # S13: the potion bonus, only at exactly 20 health
        if healths[0] == rules.health and last is not None and last.suit == "H":  # V2
            bonus = last.value
        return healths[0] + bonus
    in_dungeon = monster_total(state.dungeon)
    in_room = monster_total(state.room)
    if rules.ruleset == "coop":
        return -in_dungeon - in_room  # C10
    if rules.death_score == "dungeon-only":
        return -in_dungeon  # S13 option
    return healths[0] - in_dungeon - in_room  # S13 standard


class Checker:
    """The per-move invariants of one ruleset, made cheap enough for 10,000 games."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.cards = frozenset(rules.cards)
        self.size = len(rules.cards)

    def conservation(self, state: State) -> None:
        """S1, C2, C11: the cards are all there, each exactly once. The ruleset's cards are
        distinct, so the multisets are equal exactly when the counts and the sets are."""
        cards: list[Card] = [*state.dungeon, *state.room, *state.discard]
        for hero in state.heroes:
            if hero.weapon is not None:
                cards.append(hero.weapon)
            cards.extend(hero.stack)
        assert len(cards) == self.size and set(cards) == self.cards, sorted(cards)

    def position(self, state: State, last: Card | None) -> None:
        """Conservation, the health cap (S2, C1), the status (S11, S12, C8, C9) and the score
        (S13, C10) of a position reached by a legal move."""
        self.conservation(state)
        healths = [hero.health for hero in state.heroes]
        assert max(healths) <= self.rules.health, healths  # S2, C1, V2
        if min(healths) <= 0:
            assert state.status == "lost"  # S11, C8: at once
            assert state.legal_moves == ()
        elif not state.room and not state.dungeon:
            assert state.status == "won"  # S12, C9
            assert state.legal_moves == ()
        else:
            assert state.status == "playing"
            assert state.legal_moves, "a game in progress always has a move"
        assert state.score == expected_score(self.rules, state, last)


def illegal_candidates(state: State, rng: random.Random) -> list[str]:
    """Well-formed tokens that are not legal here: each room card with every own/help and
    weapon/bare variant, F, and some card that is not in the room."""
    legal = {move.token for move in state.legal_moves}
    room = state.room
    tokens = [token for card in room for token in WELL_FORMED[card]]
    tokens.append("F")
    cards = state.rules.cards
    outside = rng.choice(cards)
    while outside in room:
        outside = rng.choice(cards)
    tokens.append(rng.choice(WELL_FORMED[outside]))
    return [token for token in tokens if token not in legal]


def check_rejected(state: State, token: str, error: type[Exception]) -> None:
    """``token`` raises ``error`` and leaves the position as it was."""
    before = snapshot(state)
    try:
        state.apply(token)
    except error:
        pass
    else:  # pragma: no cover - only reached when the core is wrong
        pytest.fail(f"{token} was accepted in {state!r}")
    assert snapshot(state) == before


def check_replay(game: Game, rng: random.Random) -> None:
    """N3/N4: the record, through JSON, replays to the final state and to a random midpoint."""
    record = game.record
    read = Record.from_json(record.to_json())
    assert read == record
    assert read.replay().state == game.state
    middle = rng.randrange(len(game.moves) + 1)
    partial = Record(game.rules, game.deck, game.moves[:middle])
    assert Record.from_json(partial.to_json()).replay().state == game.states[middle]


def report(game: Game) -> None:
    """How far the game went, for ``pytest --hypothesis-show-statistics``."""
    reached = any(not state.dungeon for state in game.states)
    event(f"{game.state.status.value}, final room {'reached' if reached else 'not reached'}")


# ---------------------------------------------------------------------------- the reference model


class ModelHero:
    __slots__ = ("health", "potion_used", "stack", "weapon")

    def __init__(self, health: int) -> None:
        self.health = health
        self.weapon: Card | None = None
        self.stack: list[Card] = []
        self.potion_used = False

    def copy(self) -> ModelHero:
        hero = ModelHero(self.health)
        hero.health = self.health
        hero.weapon = self.weapon
        hero.stack = self.stack[:]
        hero.potion_used = self.potion_used
        return hero


class Model:
    """The rules as RULES.md states them, written plainly and separately from the core."""

    def __init__(self, rules: Rules, deck: tuple[Card, ...]) -> None:
        self.rules = rules
        self.coop = rules.ruleset == "coop"
        self.strict = rules.weapon == "strict"
        self.dungeon = list(deck)
        self.room: list[Card] = []
        self.most = rules.health  # S2, C1, V2
        self.heroes = [ModelHero(self.most) for _ in range(2 if self.coop else 1)]
        self.leader = rules.first_leader - 1  # C3
        self.discard: list[Card] = []
        self.status = "playing"
        self.last: Card | None = None
        self.fled = False
        self.final = False
        self.taken = 0
        self.help_used = False
        self.deal()

    def copy(self) -> Model:
        model = object.__new__(Model)
        model.__dict__.update(self.__dict__)
        model.dungeon = self.dungeon[:]
        model.room = self.room[:]
        model.discard = self.discard[:]
        model.heroes = [hero.copy() for hero in self.heroes]
        return model

    def deal(self) -> None:
        """S3: fill the room to 4 from the top; S4: final if the dungeon is then empty."""
        while len(self.room) < 4 and self.dungeon:
            self.room.append(self.dungeon.pop(0))
        self.final = not self.dungeon
        self.taken = 0
        self.help_used = False
        for hero in self.heroes:
            hero.potion_used = False  # S10, C6: one potion per hero and room

    def can_use_weapon(self, hero: ModelHero, card: Card) -> bool:
        """S8, S9, C7: a fresh weapon on anything, a used one on weaker (or equal) monsters."""
        if hero.weapon is None:
            return False
        if not hero.stack:
            return True
        last = hero.stack[-1].value
        return card.value < last if self.strict else card.value <= last

    def legal(self) -> set[str]:
        if self.status != "playing":
            return set()
        tokens = set()
        if self.taken == 0 and not self.fled and not self.final and self.rules.flee != "never":
            tokens.add("F")  # S4, S5, C3, V1
        takers = [(self.heroes[self.leader], "")]
        if self.coop and not self.help_used:
            takers.append((self.heroes[1 - self.leader], ">"))  # C5
        for hero, prefix in takers:
            for card in self.room:
                if is_monster(card):
                    tokens.add(f"{prefix}{card.code}/b")
                    if self.can_use_weapon(hero, card):
                        tokens.add(f"{prefix}{card.code}/w")
                else:
                    tokens.add(prefix + card.code)
        return tokens

    def apply(self, token: str) -> None:
        if token == "F":  # S5: under the dungeon in room order; the same leader (C3)
            self.dungeon.extend(self.room)
            self.room = []
            self.fled = True
            self.deal()
            return
        given = token.startswith(">")
        code, _, suffix = token.lstrip(">").partition("/")
        card = Card(code)
        self.room.remove(card)
        self.taken += 1
        self.last = card
        hero = self.heroes[self.leader ^ given]
        if given:
            self.help_used = True
        if is_monster(card):  # S8
            if suffix == "w":
                assert hero.weapon is not None
                damage = max(0, card.value - hero.weapon.value)
                hero.stack.append(card)
            else:
                damage = card.value
                self.discard.append(card)
            hero.health -= damage
            if hero.health <= 0:  # S11, C8
                self.status = "lost"
                return
        elif is_weapon(card):  # S7
            if hero.weapon is not None:
                self.discard += [hero.weapon, *hero.stack]
            hero.weapon = card
            hero.stack = []
        else:  # S10, C6
            if not hero.potion_used:
                hero.potion_used = True
                hero.health = min(self.most, hero.health + card.value)
            self.discard.append(card)
        if self.final:
            if not self.room:
                self.status = "won"  # S12, C9
        elif self.taken == 3:  # S6: the fourth card stays
            self.fled = False
            if self.coop:
                self.leader = 1 - self.leader  # C3
            self.deal()

    def score(self) -> int | None:
        if self.status == "playing":
            return None
        if self.status == "won":
            if self.coop:
                return sum(hero.health for hero in self.heroes)
            health = self.heroes[0].health
            bonus = 0
            if health == self.most and self.last is not None and self.last.suit == "H":
                bonus = self.last.value
            return health + bonus
        dungeon = monster_total(self.dungeon)
        room = monster_total(self.room)
        if self.coop:
            return -dungeon - room
        if self.rules.death_score == "dungeon-only":
            return -dungeon
        return self.heroes[0].health - dungeon - room

    def matches(self, state: State) -> None:
        """Assert that ``state`` is this model's position."""
        assert state.status == self.status
        assert list(state.room) == self.room
        assert list(state.dungeon) == self.dungeon
        assert sorted(state.discard) == sorted(self.discard)
        assert state.leader == self.leader + 1
        for hero, model in zip(state.heroes, self.heroes, strict=True):
            assert hero.health == model.health
            assert hero.weapon is model.weapon
            assert list(hero.stack) == model.stack
            assert hero.potion_used == model.potion_used
        assert state.score == self.score()
        assert {move.token for move in state.legal_moves} == self.legal()


# ---------------------------------------------------------------------------- a careful player


def _margin(state: State) -> float:
    """How well a position stands: health, plus what the weapons can still save, minus the
    monsters still to come (a potion a little less than its value)."""
    if state.status == "lost":
        return -1e9
    if state.status == "won":
        return 1e9 + sum(hero.health for hero in state.heroes)
    left = (*state.dungeon, *state.room)
    monsters = [card.value for card in left if is_monster(card)]
    value = 0.7 * sum(card.value for card in left if card.suit == "H") - sum(monsters)
    for hero in state.heroes:
        value += hero.health
        if hero.weapon is not None and hero.reach is not None:
            reach = hero.reach
            targets = sum(1 for monster in monsters if monster <= reach)
            value += 0.3 * hero.weapon.value * min(targets, 10)
    if len(state.heroes) == 2:  # C8: the team falls with its weaker hero
        value += min(hero.health for hero in state.heroes)
    return value


def plan_room(state: State, rng: random.Random) -> list[Move]:
    """A careful player: the moves to the end of the room (through a flee, into the next
    one) that leave the best margin, ties broken at random. It looks at the room dealt after
    a flee, which a player cannot; for a test player that does not matter."""
    best: list[Any] = [(-3e9, 0.0), []]

    def search(position: State, line: list[Move]) -> None:
        for move in position.legal_moves:
            after = position.apply(move)
            if after.status == "playing" and (move.is_flee or after.resolved_in_room):
                search(after, [*line, move])
            else:
                key = (_margin(after), rng.random())
                if key > best[0]:
                    best[:] = [key, [*line, move]]

    search(state, [])
    return best[1]


# ---------------------------------------------------------------------------- 1. random games


@pytest.mark.parametrize(("ruleset", "options"), OPTION_SETS, ids=OPTION_IDS)
@settings(
    max_examples=10_000,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=HEALTH_CHECKS,
)
@given(seed=SEEDS, choices=SEEDS, silent_leader=st.booleans(), variants=VARIANT_DRAWS)
def test_random_games_keep_every_invariant(
    ruleset: str,
    options: dict[str, Any],
    seed: int,
    choices: int,
    silent_leader: bool,
    variants: dict[str, Any],
) -> None:
    """S1/C2 conservation, S2/C1 health cap, S11/S12/C8/C9 status, S13/C10 score and N3/N4
    replay hold after every move of a game played with uniformly random legal moves; an
    illegal token is rejected without effect and every legal move applies. The position and
    its legal moves also agree with the reference model (S3-S10, C3-C7, V1, V2) after every
    move."""
    rules = make_rules(ruleset, options, silent_leader, variants)
    rng = random.Random(choices)
    deck = random_deal(rules, seed)
    game = Game(rules, deck)
    model = Model(rules, deck)
    checker = Checker(rules)
    state = game.state
    checker.position(state, None)
    model.matches(state)
    while state.status == "playing":
        legal = state.legal_moves
        check_rejected(state, rng.choice(illegal_candidates(state, rng)), IllegalMoveError)
        for move in legal:
            assert state.apply(move).rules is rules
        move = rng.choice(legal)
        game.play(move)
        state = game.state
        checker.position(state, move.card)
        model.apply(move.token)
        model.matches(state)
        assert len(game.moves) <= rules.max_game_length  # S4-S6: documented in Rules
    low, high = rules.score_range
    assert state.score is not None and low <= state.score <= high
    check_replay(game, rng)
    report(game)


# ---------------------------------------------------------------------------- 2. every token


EXHAUSTIVE_SETS = [
    ("solo", {"weapon": "strict", "death_score": "standard"}),
    ("solo", {"weapon": "lenient", "death_score": "dungeon-only"}),
    ("coop", {"weapon": "lenient", "easier": False, "harder": False, "first_leader": 1}),
    ("coop", {"weapon": "strict", "easier": True, "harder": True, "first_leader": 2}),
]


def candidate_tokens(state: State, rng: random.Random) -> Iterator[tuple[str, bool]]:
    """Every candidate token of a position, with whether it is notation at all: each room
    card with every variant, F, and two cards that are not in the room."""
    room = state.room
    outside = rng.sample([card for card in state.rules.cards if card not in room], 2)
    for card in (*room, *outside):
        for token in WELL_FORMED[card]:
            yield token, True
        for token in MALFORMED[card]:
            yield token, False
    yield "F", True


@pytest.mark.parametrize(
    ("ruleset", "options"),
    EXHAUSTIVE_SETS,
    ids=[_set_id(ruleset, options) for ruleset, options in EXHAUSTIVE_SETS],
)
@settings(
    max_examples=300,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=HEALTH_CHECKS,
)
@given(seed=SEEDS, choices=SEEDS, careful=st.booleans(), variants=VARIANT_DRAWS)
def test_every_candidate_token_at_every_position(
    ruleset: str,
    options: dict[str, Any],
    seed: int,
    choices: int,
    careful: bool,
    variants: dict[str, Any],
) -> None:
    """At every position: the legal moves are exactly those RULES.md allows (S4-S10, C3-C7);
    every legal token applies and gives the position the rules describe (S3-S13, C1-C10);
    every other well-formed token raises IllegalMoveError and every malformed one (N2: a
    monster without /w or /b, a suffix on another card) NotationError, changing nothing.
    The variants V1 and V2 are drawn too."""
    rules = make_rules(ruleset, options, variants=variants)
    rng = random.Random(choices)
    deck = random_deal(rules, seed)
    state = State.new(rules, deck)
    model = Model(rules, deck)
    model.matches(state)
    plan: list[Move] = []
    while state.status == "playing":
        legal = {move.token for move in state.legal_moves}
        for token, notation in candidate_tokens(state, rng):
            if token in legal:
                after = state.apply(token)
                expected = model.copy()
                expected.apply(token)
                expected.matches(after)
            elif notation:
                check_rejected(state, token, IllegalMoveError)
            else:
                check_rejected(state, token, NotationError)
        assert legal <= {token for token, _ in candidate_tokens(state, rng)}
        if careful:
            plan = plan or plan_room(state, rng)
            move = plan.pop(0)
        else:
            move = rng.choice(state.legal_moves)
        state = state.apply(move)
        model.apply(move.token)
        model.matches(state)


# ---------------------------------------------------------------------------- 3. endings


def play_planned(rules: Rules, seed: int, choices: int, statistics: bool = True) -> Game:
    """A game of ``rules`` on deal ``seed`` played by :func:`plan_room`, every position
    checked against the invariants and the reference model."""
    rng = random.Random(choices)
    deck = random_deal(rules, seed)
    game = Game(rules, deck)
    model = Model(rules, deck)
    checker = Checker(rules)
    state = game.state
    checker.position(state, None)
    plan: list[Move] = []
    while state.status == "playing":
        plan = plan or plan_room(state, rng)
        move = plan.pop(0)
        game.play(move)
        state = game.state
        model.apply(move.token)
        model.matches(state)
        checker.position(state, move.card)
    check_replay(game, rng)
    if statistics:
        report(game)
    return game


@pytest.mark.parametrize("options", SOLO_SETS, ids=OPTION_IDS[: len(SOLO_SETS)])
@settings(
    max_examples=300,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=HEALTH_CHECKS,
)
@given(seed=SEEDS, choices=SEEDS)
def test_planned_solo_games_to_the_end(options: dict[str, Any], seed: int, choices: int) -> None:
    """Careful solo games reach the final room about half the time and are often won: S4
    (no flee in the final room, every card resolved), S12 victory and the S13 score with its
    potion bonus, checked against the reference model after every move."""
    play_planned(make_rules("solo", options), seed, choices)


@pytest.mark.parametrize("options", COOP_SETS, ids=OPTION_IDS[len(SOLO_SETS) :])
@settings(
    max_examples=15,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=HEALTH_CHECKS,
)
@given(seed=SEEDS, choices=SEEDS, silent_leader=st.booleans())
def test_planned_coop_games_to_the_end(
    options: dict[str, Any], seed: int, choices: int, silent_leader: bool
) -> None:
    """Careful co-op games go deep into the dungeon (C3 leaders, C5 help cards, C6 potions,
    C9 final rooms), checked against the reference model after every move."""
    play_planned(make_rules("coop", options, silent_leader), seed, choices)


@pytest.mark.parametrize("options", SOLO_SETS, ids=OPTION_IDS[: len(SOLO_SETS)])
def test_the_careful_player_wins_solo_games(options: dict[str, Any]) -> None:
    """The endings are really exercised: of 40 fixed solo deals the careful player wins
    some (S12), scored by S13 (checked in :meth:`Checker.position`)."""
    rules = make_rules("solo", options)
    games = [play_planned(rules, seed, seed, statistics=False) for seed in range(40)]
    won = [game for game in games if game.state.status == "won"]
    assert won
    assert all(
        game.state.score == expected_score(rules, game.state, game.moves[-1].card) for game in won
    )
