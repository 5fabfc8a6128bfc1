"""The game state and every rule that moves it (rules S2-S13, C1-C10).

:class:`State` is immutable from the outside: :meth:`State.apply` returns a new state and
leaves the old one as it was. Every rule of a move lives in one place, ``State._step``, which
mutates a fresh copy before anybody else can see it; the benchmark drives the same method.

>>> from scoundrel.core import Card, Rules, State
>>> deck = [Card(c) for c in '7D KS 5H 9C'.split()] + [
...     c for c in Rules.solo().cards if c.code not in ('7D', 'KS', '5H', '9C')]
>>> s = State.new(Rules.solo(), deck)
>>> [str(c) for c in s.room]
['7D', 'KS', '5H', '9C']
>>> s = s.apply('7D').apply('KS/w').apply('5H')
>>> s.heroes[0].health, str(s.heroes[0].weapon), s.heroes[0].last_kill
(19, '7D', 13)
>>> str(s.room[0])
'9C'
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from operator import sub
from typing import TYPE_CHECKING, Any

from .actions import action_ids, action_mask
from .cards import Card, Kind
from .errors import DeckError, IllegalMoveError, NotationError, Refusal, ReplayError
from .flow import flee
from .kernel import (
    AFTER_CARD,
    BARE_DAMAGE,
    FRESH,
    HEALED,
    MAY_HELP,
    NEXT_LEADER,
    NEXT_ROOM,
    NO_REACH,
    TAKES,
    WEAPON_DAMAGE,
    WORN,
    coop_score,
    dealt,
    known_below,
    may_flee,
    potion_bonus,
    solo_score,
)
from .moves import CARD_MOVES, FLEE, Move, parse_move
from .position import Hero, Preview, Score, Status
from .rules import Rules

if TYPE_CHECKING:
    import random

    from .observation import Observation


PLAYING, WON, LOST = Status.PLAYING, Status.WON, Status.LOST
_WEAPON = Kind.WEAPON


#: Heroes are values, and positions near each other share most of them (a move changes
#: one hero; every preview repeats the others): one object serves each.
_shared_hero = functools.lru_cache(maxsize=4096)(Hero)


class State:
    """A position of a game. Hidden information (the order of the dungeon) is in here:
    give players :meth:`observation`, not the state."""

    __slots__ = (
        "_coop",
        "_deck",
        "_discard",
        "_fled",
        "_flee",
        "_healed",
        "_health",
        "_help",
        "_help_used",
        "_known",
        "_last",
        "_leader",
        "_left",
        "_legal",
        "_potion",
        "_reaches",
        "_relentless",
        "_room",
        "_stack",
        "_status",
        "_strict",
        "_taken",
        "_top",
        "_weapon",
        "rules",
    )

    rules: Rules
    _deck: tuple[Card, ...]  # the dungeon is _deck[_top:], top card first
    _top: int
    _room: list[Card]  # a list: a card leaves it in place (State.room is a tuple)
    _health: list[int]
    _weapon: list[Card | None]
    _stack: list[tuple[Card, ...]]
    _potion: list[bool]
    _reaches: list[int]  # each hero's weapon reach (kernel convention: below it)
    _leader: int  # 0 or 1
    _left: int  # cards in the dungeon (len(_deck) - _top), kept by _deal
    _taken: int  # cards resolved in this room
    _help_used: bool
    _help: bool  # whether a card may still go to the partner (C5)
    _fled: bool  # this room was dealt after a flee
    _flee: bool  # whether the room may be fled now (S4, S5)
    _known: int  # cards at the bottom of the dungeon known from a flee
    _discard: tuple[Any, ...] | None  # a linked list: (card, rest)
    _last: Card | None  # the last card resolved
    _status: Status
    _strict: bool
    _coop: bool
    _healed: tuple[tuple[int, ...], ...]  # the kernel's HEALED for this game's health (V2)
    _relentless: bool  # no room may be fled (V1)
    _legal: list[Move] | None

    # ------------------------------------------------------------------ making states

    def __init__(self) -> None:
        raise TypeError("use State.new(rules, deck) or Game(...)")

    @classmethod
    def new(cls, rules: Rules, deck: Iterable[Card | str]) -> State:
        """The start of a game: ``deck`` is the whole dungeon, top card first."""
        cards = tuple(card if isinstance(card, Card) else Card(card) for card in deck)
        check_deck(rules, cards)
        return cls._start(rules, cards)

    @classmethod
    def _start(cls, rules: Rules, cards: tuple[Card, ...]) -> State:
        """:meth:`new` for a deck already known to be right (deals, the benchmark)."""
        state = object.__new__(cls)
        state.rules = rules
        state._strict = rules.strict
        state._coop = rules.coop_game
        state._healed = HEALED[rules.health]  # V2: heroes heal up to where they started
        state._relentless = rules.relentless  # V1
        heroes = rules.heroes
        state._health = [rules.health] * heroes  # S2, C1, V2
        state._weapon = [None] * heroes
        state._stack = [()] * heroes
        state._potion = [False] * heroes
        state._reaches = [NO_REACH] * heroes
        state._leader = rules.first_leader - 1  # C3
        state._fled = False
        state._known = 0
        state._discard = None
        state._last = None
        state._status = PLAYING
        state._legal = None
        state._room = []
        state._deck = cards
        state._top = 0
        state._left = len(cards)
        state._deal()  # S3: the first room
        return state

    def _copy(self) -> State:
        new = object.__new__(State)
        new.rules = self.rules
        new._strict = self._strict
        new._coop = self._coop
        new._healed = self._healed
        new._relentless = self._relentless
        new._deck = self._deck
        new._top = self._top
        new._room = self._room[:]
        new._health = self._health[:]
        new._weapon = self._weapon[:]
        new._stack = self._stack[:]
        new._potion = self._potion[:]
        new._reaches = self._reaches[:]
        new._leader = self._leader
        new._left = self._left
        new._taken = self._taken
        new._help_used = self._help_used
        new._help = self._help
        new._fled = self._fled
        new._flee = self._flee
        new._known = self._known
        new._discard = self._discard
        new._last = self._last
        new._status = self._status
        new._legal = None
        return new

    # ------------------------------------------------------------------ the rules

    def _deal(self) -> None:
        """S3: deal the room from the top of the dungeon (as many cards as the kernel's
        :func:`~.kernel.dealt` says), a new room: nothing of it resolved yet."""
        top = self._top
        drawn = dealt(len(self._room), self._left)
        self._room += self._deck[top : top + drawn]
        self._top = top + drawn
        self._left = left = self._left - drawn
        if self._known:
            self._known = known_below(self._known, left)
        self._taken = 0
        self._flee = may_flee(0, self._fled, left, self._relentless)  # S4, S5, V1
        self._help_used = False
        self._help = MAY_HELP[self._coop][False]  # C5: one card a room for the partner
        self._potion = [False] * len(self._potion)  # S10, C6: one potion per room

    def _step(self, move: Move) -> None:
        """Apply a move known to be legal, in place. All of S4-S12 and C3-C9."""
        self._legal = None
        card = move.card
        room = self._room
        if card is None:  # S5 flee: the room goes under the dungeon, a new one is dealt
            self._known += len(room)
            self._fled = True
            after, self._deck = flee(tuple(room), self._deck[self._top :])
            self._room = list(after)
            self._top = 0
            self._left = len(self._deck)
            self._deal()  # flow.flee dealt it: nothing more is drawn  # C3: the same hero leads it
            return
        hero = TAKES[self._leader][move.help]  # C4, C5: the help card acts on the partner
        room.remove(card)
        self._taken += 1
        self._flee = False  # S5: a card is resolved, the room is faced
        self._last = card
        if move.help:
            self._help_used = True
            self._help = MAY_HELP[self._coop][True]
        if card.is_monster:  # S8
            value = card.value
            if move.weapon:
                weapon: Card = self._weapon[hero]  # type: ignore[assignment]
                health = self._health[hero] - WEAPON_DAMAGE[value][weapon.value]
                self._stack[hero] = self._stack[hero] + (card,)
                self._reaches[hero] = WORN[self._strict][value]  # S9, C7
            else:
                health = self._health[hero] - BARE_DAMAGE[value]
                self._discard = (card, self._discard)
            self._health[hero] = health
            if health <= 0:  # S11, C8
                self._status = LOST
                return
        elif card.kind is _WEAPON:  # S7
            old = self._weapon[hero]
            if old is not None:
                discard = (old, self._discard)
                for slain in self._stack[hero]:
                    discard = (slain, discard)
                self._discard = discard
                self._stack[hero] = ()
            self._weapon[hero] = card
            self._reaches[hero] = FRESH
        else:  # S10, C6 potion
            if not self._potion[hero]:
                self._health[hero] = self._healed[self._health[hero]][card.value]
                self._potion[hero] = True
            self._discard = (card, self._discard)
        then = AFTER_CARD[len(room)][self._left > 0]
        if not then:  # GO_ON: the room goes on
            return
        if then == NEXT_ROOM:  # S6: three resolved, the fourth card stays
            self._fled = False
            self._leader = NEXT_LEADER[self._coop][self._leader]  # C3
            self._deal()
        else:  # S4: the final room is resolved to the end
            self._status = WON  # S12, C9

    def _legal_moves(self) -> list[Move]:
        if self._status is not PLAYING:
            return []
        moves: list[Move] = []
        room = self._room
        leader = self._leader
        reach = self._reaches[leader]  # S9, C7: a monster below it may meet the weapon
        for card in room:
            card_moves = CARD_MOVES[card.index]
            if card.is_monster:
                if card.value < reach:
                    moves.append(card_moves[0])
                moves.append(card_moves[1])
            else:
                moves.append(card_moves[0])
        if self._help:  # C5: one card a room for the partner
            reach = self._reaches[leader ^ 1]
            for card in room:
                card_moves = CARD_MOVES[card.index]
                if card.is_monster:
                    if card.value < reach:
                        moves.append(card_moves[2])
                    moves.append(card_moves[3])
                else:
                    moves.append(card_moves[1])
        if self._flee:
            moves.append(FLEE)
        return moves

    def _refusal(self, move: Move) -> Refusal:
        """Why ``move`` is not legal here (assumed illegal), naming the rule."""
        coop = self._coop
        if self._status is not PLAYING:
            won = self._status is WON
            rule = ("C9" if coop else "S12") if won else ("C8" if coop else "S11")
            return Refusal(
                "game_over", rule, f"the game is over ({self._status.value}, {rule})", {}
            )
        if move.card is None:
            if self._relentless:
                return Refusal("relentless", "V1", "no room may be fled in this game (V1)", {})
            if not self._left:
                return Refusal("final_room", "S4", "the final room cannot be fled (S4)", {})
            if self._fled:
                return Refusal(
                    "flee_twice",
                    "S5",
                    "the room dealt after a flee must be faced: never two flees in a row (S5)",
                    {},
                )
            return Refusal(
                "flee_after_taking",
                "S5",
                "a room can only be fled before any of its cards is resolved (S5)",
                {},
            )
        card = move.card
        if card not in self._room:
            room = " ".join(c.code for c in self._room)
            rule = "C4" if coop else "S6"
            return Refusal(
                "not_in_room",
                rule,
                f"{card.code} is not in the room ({room}; {rule})",
                {"card": card.code},
            )
        hero = self._leader
        if move.help:
            if not coop:
                return Refusal(
                    "no_partner",
                    "C5",
                    "solo has no partner: the help card (>) is a co-op rule (C5)",
                    {},
                )
            if self._help_used:
                return Refusal(
                    "help_used",
                    "C5",
                    "only one card per room may be given to the partner (C5)",
                    {},
                )
            hero ^= 1
        weapon = self._weapon[hero]
        who = "the partner" if move.help else ("the leader" if coop else "the hero")
        if weapon is None:
            return Refusal(
                "no_weapon",
                "S8",
                f"{who} has no weapon (S8): fight {card.code} bare-handed (/b)",
                {"hero": hero + 1, "card": card.code},
            )
        last = self._stack[hero][-1]
        rule = "C7" if coop else "S9"
        if self._strict:
            limit = f"only on monsters weaker than {last.value}"
        else:
            limit = f"only on monsters of at most {last.value}"
        return Refusal(
            "weapon_worn" if self._strict else "weapon_worn_lenient",
            rule,
            f"{who}'s {weapon.code} last slew {last.code}, so it can be used {limit} "
            f"({self.rules.weapon} weapons, {rule}); fight {card.code} bare-handed (/b)",
            {
                "hero": hero + 1,
                "card": card.code,
                "weapon": weapon.code,
                "last_kill": last.value,
            },
        )

    def explain(self, move: Move | str) -> Refusal | None:
        """``None`` if ``move`` is legal here; otherwise why not, as a :class:`Refusal`
        with a stable ``code`` for interfaces to translate."""
        if not isinstance(move, Move):
            move = parse_move(move)
        return None if self.is_legal(move) else self._refusal(move)

    # ------------------------------------------------------------------ moves

    @property
    def legal_moves(self) -> tuple[Move, ...]:
        """Every legal move in listing order: the leader's own moves in room order, then the
        co-op help card's, then ``F`` if fleeing is allowed."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._legal_moves()
        return tuple(legal)

    def legal_action_mask(self) -> tuple[bool, ...]:
        """Which action ids (:mod:`~scoundrel.core.actions`) are legal here, one boolean
        per id."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._legal_moves()
        return action_mask(legal)

    def legal_actions(self) -> list[int]:
        """The action ids of the legal moves, in ascending order."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._legal_moves()
        return action_ids(legal)

    def is_legal(self, move: Move | str) -> bool:
        if isinstance(move, str):
            move = parse_move(move)
        legal = self._legal
        if legal is None:
            legal = self._legal = self._legal_moves()
        return move in legal

    def apply(self, move: Move | str) -> State:
        """The state after ``move``. Raises :class:`NotationError` for text that is not a
        move and :class:`IllegalMoveError` (with the rule) for a move not allowed here."""
        if isinstance(move, str):
            move = parse_move(move)
        legal = self._legal
        if legal is None:
            legal = self._legal = self._legal_moves()
        if move not in legal:
            refusal = self._refusal(move)
            raise IllegalMoveError(move, refusal.text, refusal)
        new = self._copy()
        new._step(move)
        return new

    def replay(self, moves: Iterable[Move | str]) -> list[State]:
        """This state and the state after each of ``moves`` in turn: the one way a list of
        moves is replayed (records, stored games, analyses, the viewer). A move that is not
        notation or not legal raises :class:`ReplayError` naming its position (from 1),
        its token and the reason (N4)."""
        states = [self]
        state = self
        for position, move in enumerate(moves, start=1):
            try:
                state = state.apply(move)
            except IllegalMoveError as error:
                raise ReplayError(position, _token(move), error.reason) from None
            except NotationError as error:
                raise ReplayError(position, _token(move), str(error)) from None
            states.append(state)
        return states

    def preview(self, move: Move | str) -> Preview:
        """What ``move`` would do to each hero, without revealing anything hidden."""
        if isinstance(move, str):
            move = parse_move(move)
        after = self.apply(move)
        return Preview(move, after.heroes, self._damage(after), after._status)

    def observation(self, viewer: int = 1) -> Observation:
        """What hero ``viewer`` (1 or 2) can see: everything but the dungeon's order."""
        from .observation import observe

        return observe(self, viewer)

    def previews(self) -> dict[Move, Preview]:
        """:meth:`preview` of every legal move."""
        return {move: self.preview(move) for move in self.legal_moves}

    def outcomes(
        self,
    ) -> list[tuple[Move, tuple[int, ...], tuple[int, ...], tuple[Card | None, ...], Status]]:
        """What every legal move would leave, in listing order: the move, then each hero's
        health after it and the damage it took (as :attr:`Preview.damage`), each hero's
        weapon, and the game's status. :meth:`previews` in brief, for an interface that
        shows them with every position it sends (the web game, once a move): no
        :class:`Hero` or :class:`Preview` is made, which was half their cost."""
        outcomes = []
        for move in self.legal_moves:  # legal, so apply's check is skipped
            after = self._copy()
            after._step(move)
            outcomes.append(
                (
                    move,
                    tuple(after._health),
                    self._damage(after),
                    tuple(after._weapon),
                    after._status,
                )
            )
        return outcomes

    def _damage(self, after: State) -> tuple[int, ...]:
        """The health each hero lost from here to ``after`` (negative: healed)."""
        return tuple(map(sub, self._health, after._health))

    # ------------------------------------------------------------------ what is on the table

    @property
    def status(self) -> Status:
        return self._status

    @property
    def is_over(self) -> bool:
        return self._status is not PLAYING

    def hero(self, number: int) -> Hero:
        """Hero 1 or 2 (as the rules count them)."""
        if number not in range(1, len(self._health) + 1):
            raise ValueError(f"there is no hero {number} in {self.rules.ruleset}")
        return self._hero(number - 1)

    def _hero(self, i: int) -> Hero:
        """Hero ``i`` counted from 0, known to exist."""
        reach = self._reaches[i]
        return _shared_hero(
            self._health[i],
            self._weapon[i],
            self._stack[i],
            self._potion[i],
            None if reach == NO_REACH else reach,
        )

    @property
    def heroes(self) -> tuple[Hero, ...]:
        if len(self._health) == 1:
            return (self._hero(0),)
        return tuple([self._hero(i) for i in range(len(self._health))])

    @property
    def leader(self) -> int:
        """The hero (1 or 2) who leads the current room (always 1 in solo)."""
        return self._leader + 1

    @property
    def room(self) -> tuple[Card, ...]:
        """The face-up cards, in room order (S3)."""
        return tuple(self._room)

    @property
    def dungeon(self) -> tuple[Card, ...]:
        """The face-down dungeon, top card first. Hidden information: never show it."""
        return self._deck[self._top :]

    def reshuffled(self, rng: random.Random) -> State:
        """This position with the cards no player has seen (the dungeon above its known
        bottom) in a new order drawn from ``rng``: every observation of it is the same.
        The arena plays a policy this way to find whether it reads the hidden order."""
        order = list(range(len(self._deck) - self._top - self._known))
        rng.shuffle(order)
        return self.in_order(order)

    def in_order(self, order: Sequence[int]) -> State:
        """This position with the cards no player has seen put in ``order``: ``order[i]``
        is the place, among them from the top, of the card to lie ``i``-th. The known
        bottom stays. Every observation of it is the same (solvers and benchmarks weigh a
        position over every order of its unseen cards)."""
        hidden = self._deck[self._top : len(self._deck) - self._known]
        if sorted(order) != list(range(len(hidden))):
            raise ValueError(f"an order of the {len(hidden)} unseen cards, not {list(order)}")
        new = self._copy()
        new._deck = (*(hidden[i] for i in order), *self.known_bottom)
        new._top = 0
        return new

    @property
    def dungeon_count(self) -> int:
        return self._left

    @property
    def known_bottom(self) -> tuple[Card, ...]:
        """Cards known to lie at the bottom of the dungeon after a flee, in order."""
        return self._deck[len(self._deck) - self._known :] if self._known else ()

    @property
    def discard(self) -> tuple[Card, ...]:
        """The discard pile, oldest first."""
        cards: list[Card] = []
        node = self._discard
        while node is not None:
            cards.append(node[0])
            node = node[1]
        cards.reverse()
        return tuple(cards)

    @property
    def final_room(self) -> bool:
        """Whether this is the final room: the dungeon is empty (S4)."""
        return not self._left

    @property
    def can_flee(self) -> bool:
        return self.is_legal(FLEE)

    @property
    def resolved_in_room(self) -> int:
        """How many cards of this room have been resolved."""
        return self._taken

    @property
    def help_used(self) -> bool:
        """Whether this room's help card has been given (C5)."""
        return self._help_used

    @property
    def fled_into(self) -> bool:
        """Whether this room was dealt after a flee, and so must be faced (S5)."""
        return self._fled

    @property
    def last_resolved(self) -> Card | None:
        return self._last

    @property
    def score(self) -> int | None:
        """The score (S13, C10), or ``None`` while playing."""
        breakdown = self.score_breakdown()
        return None if breakdown is None else breakdown.total

    def score_breakdown(self) -> Score | None:
        """The score (the kernel's :func:`~.kernel.solo_score` or :func:`~.kernel.coop_score`)
        with the parts it is made of, for interfaces to explain."""
        if self._status is PLAYING:
            return None
        won = self._status is WON
        health = self._health
        dungeon = sum(c.value for c in self.dungeon if c.is_monster)
        room = sum(c.value for c in self._room if c.is_monster)
        parts: list[tuple[str, int]]
        if self._coop:  # C10
            total = coop_score(won, health[0], health[1], dungeon, room)
            if won:
                parts = [("health_hero1", health[0]), ("health_hero2", health[1])]
            else:
                parts = [("monsters_in_dungeon", -dungeon), ("monsters_in_room", -room)]
            return Score(total, tuple(parts))
        last = self._last
        potion = last.value if last is not None and last.kind is Kind.POTION else 0
        dungeon_only = self.rules.death_score == "dungeon-only"
        most = self.rules.health  # V2: full health
        total = solo_score(won, health[0], potion, dungeon, room, dungeon_only, most)  # S13
        if won:
            parts = [("health", health[0])]
            bonus = potion_bonus(health[0], potion, most)
            if bonus:
                parts.append(("potion_bonus", bonus))
        elif dungeon_only:
            parts = [("monsters_in_dungeon", -dungeon)]
        else:
            parts = [("health", health[0]), ("monsters_in_dungeon", -dungeon)]
            parts.append(("monsters_in_room", -room))
        return Score(total, tuple(parts))

    # ------------------------------------------------------------------ comparing

    def _key(self) -> tuple[Any, ...]:
        return (
            self.rules,
            self.dungeon,
            tuple(self._room),
            tuple(self._health),
            tuple(self._weapon),
            tuple(self._stack),
            tuple(self._potion),
            self._leader,
            self._taken,
            self._help_used,
            self._fled,
            self._known,
            self.discard,
            self._last,
            self._status,
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        heroes = ", ".join(
            f"{h.health}hp {h.weapon.code if h.weapon else '-'}" for h in self.heroes
        )
        room = " ".join(c.code for c in self._room)
        return (
            f"<State {self.rules.ruleset} {self._status.value}: room [{room}], "
            f"dungeon {self.dungeon_count}, {heroes}, leader {self.leader}>"
        )

    def summary(self) -> dict[str, Any]:
        """The position as in the N4 replay contract (without ``moves_applied``)."""
        return {
            "status": self._status.value,
            "score": self.score,
            "heroes": [
                {
                    "health": hero.health,
                    "weapon": hero.weapon.code if hero.weapon else None,
                    "last_kill": hero.last_kill,
                }
                for hero in self.heroes
            ],
            "leader": self.leader,
            "dungeon": self.dungeon_count,
            "room": [card.code for card in self._room],
        }


class Playout:
    """A private copy of a position that moves in place, for programs that play a great
    many moves (searches, simulations, ``scoundrel bench``). ``legal()`` lists the legal
    moves (in :attr:`State.legal_moves` order) and ``step(move)`` applies one of them
    without checking it: a move that is not in ``legal()`` breaks the position.
    ``position`` is the state as it stands (do not keep it: it keeps moving)."""

    __slots__ = ("legal", "position", "step")

    def __init__(self, position: State) -> None:
        self._own(position._copy())

    @classmethod
    def deal(cls, rules: Rules, deck: Sequence[Card]) -> Playout:
        """A playout from the start of a game, for a deck known to hold exactly the rules'
        cards (one made by :func:`~scoundrel.core.random_deal` or ``daily_deal``)."""
        playout = object.__new__(cls)
        playout._own(State._start(rules, tuple(deck)))
        return playout

    def _own(self, position: State) -> None:
        self.position = position
        self.legal = position._legal_moves
        self.step = position._step


def _token(move: Move | str) -> str:
    return move.token if isinstance(move, Move) else str(move)


def check_deck(rules: Rules, deck: Sequence[Card]) -> None:
    """Raise :class:`DeckError` unless ``deck`` holds each card of ``rules`` exactly once."""
    expected = rules.cards
    if len(deck) == len(expected) and set(deck) == set(expected):
        return
    wanted = set(expected)
    seen: set[Card] = set()
    for card in deck:
        if card not in wanted:
            raise DeckError(f"{card.code} is not a card of this {rules.ruleset} deck")
        if card in seen:
            raise DeckError(f"{card.code} appears twice in the deck")
        seen.add(card)
    missing = " ".join(card.code for card in expected if card not in seen)
    raise DeckError(
        f"the deck has {len(deck)} cards, {rules.ruleset} needs {len(expected)}: missing {missing}"
    )
