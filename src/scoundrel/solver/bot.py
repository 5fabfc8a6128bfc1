"""A fair bot: it plays from what a player sees (:class:`~scoundrel.core.Observation`), never
from the order of the dungeon.

At each room it looks at every way to face it that no other way beats on health, weapon and
reach (the same room expansion the solver uses) and scores where each leaves the heroes:

* health, plus what the weapon in hand should still save: its value times the number of
  monsters it can reach that are likely to come before another weapon replaces it;
* the card left in the room, which comes back in the next: a monster there must still be
  fought, a potion there can heal in a room where no potion has been drunk yet.

To decide whether to flee it deals itself sample rooms from the cards it has not seen (in a
way fixed by what it sees, so the same position always gets the same answer) and compares
the average of facing them with facing this room. Weights were tuned by playing seeded
games (``benchmarks/bot.py``).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Protocol

from ..core.deal import random_deal
from ..core.flow import deal, flee
from ..core.kernel import (
    POTION_BASE,
    ROOM_SIZE,
    WEAPON_BASE,
    known_below,
    next_leader,
    to_resolve,
)
from ..core.moves import FLEE, Move
from ..core.observation import Observation
from ..core.position import Status
from ..core.rules import Rules
from ..core.state import State
from .model import (
    FLEE_MOVE,
    Expansion,
    Heroes,
    Line,
    Position,
    code,
    dominates,
    healing,
    hero_codes,
    monster_groups,
    room_moves,
    unavoidable_damage,
    won_score,
)
from .search import win_line

SAMPLES = 12
"""Sample rooms dealt to judge a flee."""

#: What the bound needs of the cards left: healing, monster groups, weapons, damage seen.
_Left = tuple[int, tuple[tuple[int, int], ...], list[int], dict[Heroes, int]]


@dataclass(frozen=True)
class Weights:
    weapon: float = 0.5
    """How much of the weapon in hand's expected savings counts as health."""
    monster: float = 0.6
    """Health a monster still to come is expected to cost, per point of its value."""
    potion: float = 0.8
    """Health a potion still to come is expected to give, per point."""
    spare_weapon: float = 0.85
    """Health a weapon still to come is expected to save, per point of its value."""
    flee_margin: float = 0.5
    """Flee only when the sampled rooms look better by this much."""
    bound: float = 0.0
    """How much counts of the health the heroes would end with if every monster left met
    the best weapon that could still reach it and the best potions healed them (the
    solver's bound). Co-op play needs it; solo play is better without it."""

    def judge(self, rules: Rules, leader: int, pool: tuple[int, ...]) -> Judge:
        return Judge(self, rules, leader, pool)


class Judgement(Protocol):
    """How a bot scores where a way leaves the heroes: the fast bot's :class:`Weights`, or
    learned ones (:class:`~.learned.Learned`). ``pool``: every card still in the dungeon."""

    def judge(self, rules: Rules, leader: int, pool: tuple[int, ...]) -> Judge: ...


COOP_WEIGHTS = Weights(bound=1.0)
"""The co-op weights: measured on seeded games, the bound lifts the fast bot from 0 to
about 3% of co-op wins (and its mean score from -96 to -71); in solo it costs wins."""


def weights_for(rules: Rules) -> Weights:
    """The weights tuned for a ruleset."""
    return COOP_WEIGHTS if rules.coop_game else Weights()


@dataclass(frozen=True)
class Choice:
    """What the bot would do in a room, and why."""

    moves: tuple[Move, ...]
    """The rest of the room as the bot plans it (a flee is just ``(F,)``)."""
    value: float
    face_value: float | None
    """The best value of facing this room (``None`` when it cannot be faced)."""
    flee_value: float | None
    """The average value of the sampled rooms after a flee (``None`` if not allowed)."""
    damage: tuple[int, ...]
    """Health each hero loses over the planned moves (negative: gained)."""
    kept: str | None
    """The code of the card the plan leaves in the room, if any."""

    @property
    def move(self) -> Move:
        return self.moves[0]


class Bot:
    """``Bot().choose(observation)`` gives a move; :meth:`plan` says why."""

    def __init__(
        self, weights: Judgement | None = None, samples: int = SAMPLES, solve: bool = True
    ) -> None:
        self.weights = weights
        """``None``: the weights tuned for the game's ruleset (:func:`weights_for`)."""
        self.samples = samples
        self.solve = solve
        """Whether to play perfectly once every card left is known (by the solver)."""

    def choose(self, observation: Observation) -> Move:
        return self.plan(observation).move

    def plan(self, observation: Observation) -> Choice:
        if observation.score is not None or not observation.legal_moves:
            raise ValueError("the game is over: there is nothing to choose")
        seen = Seen.of(observation)
        judge = seen.judge(self.weights or weights_for(seen.rules))
        if self.solve and seen.known:
            solved = self._solved(observation, seen, judge)
            if solved is not None:
                return solved
        flee, face, flee_value = judge.decide(
            seen.room,
            seen.heroes,
            seen.taken,
            seen.potions,
            seen.help_used,
            seen.final,
            observation.can_flee,
            seen.unseen,
            seen.bottom,
            self.samples,
        )
        heroes = len(observation.heroes)
        if flee:
            assert flee_value is not None
            return Choice(
                (FLEE,), flee_value, face[0] if face else None, flee_value, (0,) * heroes, None
            )
        if face is None:  # every way through the room is fatal: die as late as possible
            _, _, line = judge.last_stand(
                seen.room, seen.heroes, seen.taken, seen.potions, seen.help_used, seen.final
            )
            moves = room_moves(observation.room, line)
            return Choice(tuple(moves), -100.0, None, None, (0,) * heroes, None)
        value, line, after, _ = face
        moves = room_moves(observation.room, line)
        damage = _damage(seen.heroes, after)
        return Choice(tuple(moves), value, value, flee_value, damage, _kept(observation, moves))

    def _solved(self, observation: Observation, seen: Seen, judge: Judge) -> Choice | None:
        """With every card left known, the first way (by the judgement) after which the
        solver still finds a win; ``None`` when none is left."""
        dungeon = seen.unseen + seen.bottom
        heroes = len(observation.heroes)
        flee = seen.flee_way()
        for way in seen.ways(judge) + ([flee] if flee else []):
            if known_win(seen, way, dungeon) is None:
                continue
            if way.flee:
                return Choice((FLEE,), 0.0, None, None, (0,) * heroes, None)
            moves = tuple(room_moves(observation.room, way.line))
            value = judge.outcome(way.rest, way.heroes, way.last_potion, seen.final)
            damage = _damage(seen.heroes, way.heroes)
            return Choice(moves, value, value, None, damage, _kept(observation, moves))
        return None


@dataclass(frozen=True)
class Seen:
    """An observation in search form: what a fair player knows, as card codes."""

    rules: Rules
    room: tuple[int, ...]
    heroes: Heroes
    leader: int
    taken: int
    potions: tuple[bool, ...]
    help_used: bool
    final: bool
    unseen: tuple[int, ...]
    """The cards never seen, sorted (never in deck order)."""
    bottom: tuple[int, ...]
    """The cards known to lie at the bottom of the dungeon, in order."""
    can_flee: bool

    @property
    def known(self) -> bool:
        """Whether every card left is known where it lies: the unseen cards are all above
        the known bottom, so one unseen card has only one place."""
        return len(self.unseen) <= 1

    @classmethod
    def of(cls, observation: Observation) -> Seen:
        return cls(
            rules=observation.rules,
            room=tuple(code(c) for c in observation.room),
            heroes=hero_codes(observation.heroes),
            leader=observation.leader - 1,
            taken=observation.resolved_in_room,
            potions=tuple(h.potion_used for h in observation.heroes),
            help_used=observation.help_used,
            final=observation.final_room,
            unseen=tuple(sorted(code(c) for c in observation.unseen)),
            bottom=tuple(code(c) for c in observation.known_bottom),
            can_flee=observation.can_flee,
        )

    def ways(
        self, judge: Judge, expansion: Expansion | None = None, limit: int | None = None
    ) -> list[Way]:
        """The ways through the rest of the room, best first by ``judge`` (at most
        ``limit``): every way that no better one beats on health, weapon and reach while
        keeping the same card. ``expansion`` is the room's, if already run. When every way
        is fatal, the one that slays most."""
        if expansion is None:
            rules = self.rules
            expansion = Expansion(rules.strict, rules.coop_game, True, rules.health)
            self.expand(expansion)
        ways: list[Way] = []
        for _, line, rest, after, last in judge.ranked(expansion, self.final):
            if not any(k.rest == rest and dominates(k.heroes, after) for k in ways):
                ways.append(Way(line, after, rest, last, False))
        if limit is not None:
            del ways[limit:]
        if not ways:
            after, rest, line = slays_most(expansion.deaths)
            ways.append(Way(line, after, rest, 0, True))
        return ways

    def flee_way(self) -> Way | None:
        """The flee, when it is allowed (S5)."""
        return Way((FLEE_MOVE,), self.heroes, (), 0, False) if self.can_flee else None

    def expand(self, expansion: Expansion) -> None:
        """Run ``expansion`` on the rest of the room."""
        expansion.run(
            self.room,
            to_resolve(len(self.room), self.taken, self.final),
            self.heroes,
            self.leader,
            self.potions,
            self.help_used,
        )

    def judge(self, judgement: Judgement) -> Judge:
        return judgement.judge(self.rules, self.leader, self.unseen + self.bottom)


class Judge:
    """The fast bot's scoring of positions, in search form: ``pool`` is every card still in
    the dungeon (unseen or known), whose counts the scoring uses. The searching bot's
    playouts use it too, with the pool of the moment."""

    def __init__(self, weights: Weights, rules: Rules, leader: int, pool: tuple[int, ...]) -> None:
        self.w = weights
        self.strict = rules.strict
        self.coop = rules.coop_game
        self.most = rules.health  # full health (V2)
        self.leader = leader
        self.pool = pool
        self.pool_monsters = sorted((c for c in pool if c < WEAPON_BASE), reverse=True)
        self.pool_weapons = sum(1 for c in pool if WEAPON_BASE <= c < POTION_BASE)
        self._saved: dict[tuple[int, int, tuple[int, ...]], float] = {}
        self._left: dict[tuple[int, ...], _Left] = {}

    # ------------------------------------------------------------------ scoring

    def _savings(self, weapon: int, reach: int, carry: tuple[int, ...]) -> float:
        """Health the weapon in hand should still save."""
        if not weapon:
            return 0.0
        key = (weapon, reach, carry)
        saved = self._saved.get(key)
        if saved is not None:
            return saved
        monsters = self.pool_monsters
        reachable = [m for m in monsters if m < reach]
        reachable.extend(card for card in carry if card < WEAPON_BASE and card < reach)
        if not reachable:
            saved = 0.0
        else:
            # monsters likely to come before the next weapon replaces this one
            before_next = (len(monsters) + 1) / (self.pool_weapons + 1)
            uses = min(len(reachable), before_next)
            reachable.sort(reverse=True)
            top = reachable[: max(1, round(uses))]
            saved = sum(min(m, weapon) for m in top) * uses / len(top)
        self._saved[key] = saved
        return saved

    def worth(self, cards: tuple[int, ...]) -> float:
        """What cards still to come are expected to be worth, in health."""
        w = self.w
        total = 0.0
        for card in cards:
            if card < WEAPON_BASE:
                total -= w.monster * card
            elif card < POTION_BASE:
                total += w.spare_weapon * (card - WEAPON_BASE)
            else:
                total += w.potion * (card - POTION_BASE)
        return total

    def bound(self, heroes: Heroes, carry: tuple[int, ...]) -> int:
        """The health the heroes would end with if every monster left (the pool and the
        card kept) met the best weapon that could still reach it and the best potions
        healed them: the solver's bound, blind to the order of the cards."""
        left = self._left.get(carry)
        if left is None:
            cards = self.pool + carry
            potions = sorted((c - POTION_BASE for c in cards if c >= POTION_BASE), reverse=True)
            weapons = [c - WEAPON_BASE for c in cards if WEAPON_BASE <= c < POTION_BASE]
            monsters = [c for c in cards if c < WEAPON_BASE]
            heal = healing(potions, len(cards), len(heroes) // 3)
            left = self._left[carry] = (
                heal,
                monster_groups(monsters),
                sorted(weapons, reverse=True),
                {},
            )
        heal, groups, weapons, damages = left
        held = heroes[1::3] + heroes[2::3]
        damage = damages.get(held)
        if damage is None:
            damage = damages[held] = unavoidable_damage(groups, weapons, held, self.strict)
        return sum(heroes[0::3]) + heal - damage

    def value(self, heroes: Heroes, carry: tuple[int, ...]) -> float:
        """Health, plus what the weapon in hand should save, plus the card kept (and, with
        the co-op weights, the bound)."""
        w = self.w
        total = 0.0
        for i in range(0, len(heroes), 3):
            total += heroes[i] + w.weapon * self._savings(heroes[i + 1], heroes[i + 2], carry)
        if w.bound:
            total += w.bound * self.bound(heroes, carry)
        return total + (self.worth(carry) if carry else 0.0)

    def outcome(self, rest: tuple[int, ...], after: Heroes, last: int, final: bool) -> float:
        """The value of a way through a room that leaves ``rest`` and ``after``: the score
        of the game won in the final room, else :meth:`value`."""
        if final:
            return float(self.won(after, last))
        return self.value(after, rest)

    def ranked(
        self, expansion: Expansion, final: bool
    ) -> list[tuple[float, Line, tuple[int, ...], Heroes, int]]:
        """The outcomes of a room's expansion, best first: (value, line, cards left in the
        room, heroes after, last potion)."""
        scored = []
        for (rest, after), line in expansion.outcomes.items():
            last = expansion.last[(rest, after)]
            scored.append((self.outcome(rest, after, last, final), line, rest, after, last))
        scored.sort(key=lambda item: item[0], reverse=True)
        return scored

    # ------------------------------------------------------------------ choices

    def decide(
        self,
        room: tuple[int, ...],
        heroes: Heroes,
        taken: int,
        potions: tuple[bool, ...],
        help_used: bool,
        final: bool,
        can_flee: bool,
        unseen: tuple[int, ...],
        bottom: tuple[int, ...],
        samples: int,
    ) -> tuple[bool, tuple[float, Line, Heroes, tuple[int, ...]] | None, float | None]:
        """The fast bot's decision in a room: (flee?, the best way to face it, the value
        of a flee). ``unseen`` must be in canonical (sorted) order: the sample rooms for
        the flee are drawn from a generator seeded by what is seen, so the same position
        always gets the same answer."""
        face = self.best_face(room, heroes, taken, potions, help_used, final)
        if not can_flee:
            return False, face, None
        rng = random.Random(repr((room, heroes, unseen, bottom)))
        flee_value = self.flee_value(room, heroes, unseen, bottom, samples, rng)
        return face is None or flee_value > face[0] + self.w.flee_margin, face, flee_value

    def best_face(
        self,
        room: tuple[int, ...],
        heroes: Heroes,
        taken: int,
        potions: tuple[bool, ...],
        help_used: bool,
        final: bool,
    ) -> tuple[float, Line, Heroes, tuple[int, ...]] | None:
        """The best way to face ``room``: (value, line, heroes after, cards kept)."""
        n = to_resolve(len(room), taken, final)
        expansion = Expansion(self.strict, self.coop, False, self.most)
        expansion.run(room, n, heroes, self.leader, potions, help_used)
        best: tuple[float, Line, Heroes, tuple[int, ...]] | None = None
        for (rest, after), line in expansion.outcomes.items():
            value = self.outcome(rest, after, expansion.last[(rest, after)], final)
            if best is None or value > best[0]:
                best = (value, line, after, rest)
        return best

    def won(self, heroes: Heroes, last_potion: int) -> int:
        """The score of a game won with ``heroes`` (S13, C10)."""
        return won_score(heroes, last_potion, self.most)

    def last_stand(
        self,
        room: tuple[int, ...],
        heroes: Heroes,
        taken: int,
        potions: tuple[bool, ...],
        help_used: bool,
        final: bool,
    ) -> tuple[Heroes, tuple[int, ...], Line]:
        """A fatal line that slays as much as it can before the end: (heroes, rest, line)."""
        expansion = Expansion(self.strict, self.coop, True, self.most)
        n = to_resolve(len(room), taken, final)
        expansion.run(room, n, heroes, self.leader, potions, help_used)
        return slays_most(expansion.deaths)

    def flee_value(
        self,
        room: tuple[int, ...],
        heroes: Heroes,
        unseen: tuple[int, ...],
        bottom: tuple[int, ...],
        samples: int,
        rng: random.Random,
    ) -> float:
        """The average value of facing a room dealt from the unseen cards after a flee."""
        if len(unseen) < ROOM_SIZE:
            # the next room would hold every unseen card and cards in a known order
            rooms = [flee(room, unseen + bottom)[0]]
        else:
            rooms = [tuple(rng.sample(unseen, ROOM_SIZE)) for _ in range(samples)]
        total = 0.0
        fresh = (False,) * (len(heroes) // 3)
        # the fled room is still to come; the sampled room is no longer
        fled = self.worth(room)
        for next_room in rooms:
            # a flee leaves cards in the dungeon, so the next room is not the final one
            face = self.best_face(next_room, heroes, 0, fresh, False, False)
            if face is None:
                total -= 100.0
            else:
                total += face[0] + fled - self.worth(next_room)
        return total / len(rooms)


@dataclass(frozen=True)
class Way:
    """One way to go on: a line through the rest of the room and where it leaves the
    heroes, or the flee."""

    line: Line
    heroes: Heroes
    rest: tuple[int, ...]
    """The cards the line leaves in the room."""
    last_potion: int
    fatal: bool

    @property
    def flee(self) -> bool:
        return self.line == (FLEE_MOVE,)

    def after(
        self, seen: Seen, dungeon: tuple[int, ...], known: int
    ) -> tuple[tuple[int, ...], tuple[int, ...], int, Heroes, int, bool]:
        """Where this way leads when the dungeon is ``dungeon`` (its last ``known`` cards
        known): the next room, the dungeon, the cards known at its bottom, the heroes, the
        leader and whether the room was fled into. Not for the final room or a fatal way."""
        if self.flee:
            room, dungeon, known = flee_dungeon(seen.room, dungeon, known)
            return room, dungeon, known, seen.heroes, seen.leader, True
        room, dungeon, known = deal_room(self.rest, dungeon, known)
        leader = next_leader(seen.leader, seen.rules.coop_game)  # C3
        return room, dungeon, known, self.heroes, leader, False


def flee_dungeon(
    room: tuple[int, ...], dungeon: tuple[int, ...], known: int
) -> tuple[tuple[int, ...], tuple[int, ...], int]:
    """S5: the room goes under the dungeon, where its cards are known, and the next
    room is dealt. Returns the room, the dungeon and how many cards at its bottom are
    known."""
    after, dungeon = flee(room, dungeon)
    return after, dungeon, known_below(known + len(room), len(dungeon))


def deal_room(
    kept: tuple[int, ...], dungeon: tuple[int, ...], known: int
) -> tuple[tuple[int, ...], tuple[int, ...], int]:
    """S3, S6: the card kept and the next three make the room."""
    room, dungeon = deal(kept, dungeon)
    return room, dungeon, known_below(known, len(dungeon))


def known_win(seen: Seen, way: Way, dungeon: tuple[int, ...]) -> tuple[int, Line] | None:
    """With every card left known, ``dungeon`` being their order: a winning line from the
    end of ``way`` (with its score), or ``None`` when the solver finds none."""
    if way.fatal:
        return None
    if seen.final:
        return won_score(way.heroes, way.last_potion, seen.rules.health), ()
    room, dungeon, _, heroes, leader, fled = way.after(seen, dungeon, len(dungeon))
    return win_line(room_start(seen.rules, room, dungeon, heroes, leader, fled))


def room_start(
    rules: Rules,
    room: tuple[int, ...],
    dungeon: tuple[int, ...],
    heroes: Heroes,
    leader: int,
    fled: bool,
) -> Position:
    """The position at the start of ``room`` (nothing taken in it yet), for the solver."""
    return Position(
        room,
        dungeon,
        heroes,
        leader,
        fled,
        0,
        (False,) * (len(heroes) // 3),
        False,
        rules.strict,
        rules.coop_game,
        rules.death_score,
        0,
        rules.health,
        rules.relentless,
    )


def _damage(before: Heroes, after: Heroes) -> tuple[int, ...]:
    """Health each hero loses from ``before`` to ``after`` (negative: gained)."""
    return tuple(b - a for b, a in zip(before[0::3], after[0::3], strict=True))


def _kept(observation: Observation, moves: Iterable[Move]) -> str | None:
    taken = {move.card for move in moves}
    return next((c.code for c in observation.room if c not in taken), None)


class Plan(Protocol):
    @property
    def moves(self) -> tuple[Move, ...]: ...


class Player(Protocol):
    """A fair bot: it plans the rest of a room from an observation."""

    def plan(self, observation: Observation) -> Plan: ...


@dataclass(frozen=True)
class _Single:
    moves: tuple[Move, ...]


class RandomPlayer:
    """A baseline: a uniformly random legal move, drawn from a generator seeded by the
    observation (so a game is the same every time it is played)."""

    def plan(self, observation: Observation) -> Plan:
        rng = random.Random(repr(observation))
        return _Single((rng.choice(observation.legal_moves),))


def slays_most(
    deaths: Iterable[tuple[Heroes, tuple[int, ...], Line]],
) -> tuple[Heroes, tuple[int, ...], Line]:
    """Of a room's fatal lines ``(heroes, rest, line)``, the one that resolves most cards
    before the end, then leaves the heroes the most health."""
    return max(deaths, key=lambda death: (len(death[2]), sum(death[0][0::3]), death[2]))


def play_game(
    bot: Player,
    state: State,
    each: Callable[[State], None] | None = None,
    reshuffle: random.Random | None = None,
) -> State:
    """Play a whole game from ``state`` with ``bot`` (it sees only observations); ``each``
    is told every position after a move (it may raise to stop the game). With
    ``reshuffle``, the cards nobody has seen are put in a new order drawn from it after
    the bot has chosen and before each move is made (:meth:`State.reshuffled`): a fair bot
    plays as well, one that reads the hidden order does not."""
    while not state.is_over:
        for move in bot.plan(state.observation(state.leader)).moves:
            if reshuffle is not None:
                state = state.reshuffled(reshuffle)
            state = state.apply(move)
            if each is not None:
                each(state)
            if state.is_over:
                break
    return state


@dataclass(frozen=True)
class BotResult:
    games: int
    wins: int
    total_score: int
    seconds: float

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def ci95(self) -> tuple[float, float]:
        """Wilson score interval for the win rate."""
        return wilson(self.wins, self.games)

    @property
    def mean_score(self) -> float:
        return self.total_score / self.games if self.games else 0.0

    def __add__(self, other: BotResult) -> BotResult:
        return BotResult(
            self.games + other.games,
            self.wins + other.wins,
            self.total_score + other.total_score,
            max(self.seconds, other.seconds),
        )

    def to_dict(self) -> dict[str, Any]:
        low, high = self.ci95
        return {
            "games": self.games,
            "wins": self.wins,
            "win_rate": round(self.win_rate, 5),
            "ci95": [round(low, 5), round(high, 5)],
            "mean_score": round(self.mean_score, 3),
            "seconds": round(self.seconds, 2),
        }


def wilson(successes: int, trials: int, z: float = 1.959964) -> tuple[float, float]:
    if not trials:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    # the bounds always hold the rate itself (rounding can push them past it at 0 and 1)
    return max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half))


def play_games(
    rules: Rules,
    games: int,
    seed: int = 0,
    progress: Callable[[int], None] | None = None,
    bot: Player | None = None,
) -> BotResult:
    """Play the seeded deals ``seed`` .. ``seed + games - 1``."""
    bot = bot or Bot()
    started = time.perf_counter()
    wins = total = 0
    for i in range(games):
        end = play_game(bot, State.new(rules, random_deal(rules, seed + i)))
        wins += end.status is Status.WON
        total += end.score or 0
        if progress is not None:
            progress(i + 1)
    return BotResult(games, wins, total, time.perf_counter() - started)
