"""The searching fair bot: it plays from the observation only, by playing the game out
many times over orders of the unseen cards.

At the start of a room (or wherever it is asked) it lists the ways to go on: every way
through the rest of the room that no other way beats on health, weapon and reach while
keeping the same card (the solver's own room expansion), and the flee. For each it deals
the unseen cards in many random orders (the known bottom of the dungeon stays where it is)
and plays each game out to the end with the fast bot's judgement (:class:`~.bot.Judge`),
which sees only what a player would see in that game. A way's chance to win is the share
of those games won; the same orders are used for every way, so their differences are not
luck of the deal. The most promising ways get more games (successive halving).

The orders are drawn from a generator seeded by the observation itself, so a position
always gets the same answer, whatever the real order of the dungeon.

In a small solo endgame (:func:`.endgame.fits`: a few unseen cards, a few more known at the
bottom) nothing is sampled: every way is weighed by the best fair play after it, over every
order of the unseen cards (:mod:`.endgame`), and the best is played.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..core.kernel import is_final, may_flee, next_leader
from ..core.moves import FLEE, Move
from ..core.observation import Observation
from ..core.rules import Rules
from .bot import (
    Bot,
    Choice,
    Judge,
    Judgement,
    Seen,
    Way,
    deal_room,
    flee_dungeon,
    known_win,
    room_start,
    slays_most,
    weights_for,
    wilson,
)
from .endgame import BUDGET, Endgame, TooBig, fits
from .model import (
    FLEE_MOVE,
    HELP,
    WITH_WEAPON,
    Expansion,
    Heroes,
    Line,
    Position,
    code,
    lost_score,
    room_moves,
    won_score,
)
from .room_search import POLL
from .search import Cancelled, win_line

PLAYOUTS = 32
"""Games played out for the best way at each decision (fewer for the others)."""
COOP_ADVICE_PLAYOUTS = 12
"""Playouts for co-op hints and reviews: a co-op room has far more ways through and its
games are longer, so fewer keep a hint to about a second."""
FLEE_SAMPLES = 3
"""Sample rooms the playouts deal themselves to judge a flee (the fast bot uses 12)."""
MARGIN = 2
"""How many more of the same played-out games the search's best way must win than the
fast bot's choice before the searching bot plays it instead (:meth:`SearchBot.advise`)."""
SCORE_MARGIN = 2.0
"""In co-op, where no way wins clearly more: how many standard errors the mean score of
the highest-scoring way must beat the fast bot's choice by, over the same games, before
the searching bot plays it instead (:meth:`SearchBot.advise`)."""
KNOWN_END_NODES = 512
"""In co-op, how many positions the solver may weigh when a playout reaches a known end
(every card left known to its player, as :meth:`~.bot.Seen.known`): the playout is won if
the solver finds a win within them, and otherwise goes on by the fast judgement."""
EXACT = 4
"""Every order of the unseen cards is played out when there are at most this many times
:data:`PLAYOUTS` of them (five cards or fewer by default)."""


@dataclass(frozen=True)
class Estimate:
    """How a way to go on fared in the playouts."""

    way: Way
    moves: tuple[Move, ...]
    games: int
    wins: int
    total_score: int
    exact: bool
    """Whether every order of the unseen cards was played (no sampling error)."""
    won: tuple[bool, ...] = ()
    """Which of the games were won, in the order the orders were dealt (every way plays
    the same orders from the first, so two ways compare game by game)."""
    scores: tuple[int, ...] = ()
    """The games' scores, in the same order."""

    @property
    def chance(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        """The 95% (Wilson) interval of :attr:`chance` (the chance itself when exact)."""
        if self.exact:
            return self.chance, self.chance
        return wilson(self.wins, self.games)

    @property
    def mean_score(self) -> float:
        return self.total_score / self.games if self.games else 0.0

    @property
    def move(self) -> Move:
        return self.moves[0]

    @property
    def line(self) -> Line:
        """The way in search form (``(FLEE_MOVE,)`` for a flee)."""
        return self.way.line

    def to_dict(self) -> dict[str, Any]:
        low, high = self.interval
        return {
            "move": self.move.token,
            "plan": [m.token for m in self.moves],
            "chance": round(self.chance, 4),
            "ci95": [round(low, 4), round(high, 4)],
            "mean_score": round(self.mean_score, 2),
            "games": self.games,
            "exact": self.exact,
        }


@dataclass(frozen=True)
class Search:
    """What the searching bot found: every way it weighed, best first."""

    estimates: tuple[Estimate, ...]

    @property
    def best(self) -> Estimate:
        return self.estimates[0]

    def of(self, move: Move) -> Estimate | None:
        """The best way weighed that starts with ``move`` (or with a move alike: the same
        value of card, played the same way); ``None`` if no way weighed starts so."""
        item = FLEE_MOVE if move.is_flee else search_item(move)
        found = [e for e in self.estimates if e.line[0] == item]
        return max(found, key=lambda e: (e.chance, e.mean_score), default=None)


def advice_playouts(rules: Rules) -> int:
    """The playouts hints and reviews use for a game of ``rules``."""
    return COOP_ADVICE_PLAYOUTS if rules.coop_game else PLAYOUTS


class SearchBot:
    """``SearchBot().choose(observation)`` gives a move; :meth:`search` says how each way
    to go on fared."""

    def __init__(
        self,
        playouts: int = PLAYOUTS,
        weights: Judgement | None = None,
        flee_samples: int = FLEE_SAMPLES,
        ways: int = 8,
        margin: int = MARGIN,
        endgame: bool = True,
        known_ends: bool = True,
    ) -> None:
        self.known_ends = known_ends
        """Whether co-op playouts ask the solver for a win once their player knows every
        card left (:data:`KNOWN_END_NODES`), as the bot itself does in a real game: without
        it the judgement alone seldom wins a co-op game, so the playouts cannot tell the
        ways apart. Only when the bot chooses its move (not for hints, which weigh every
        move); solo playouts never ask (small solo endgames are exact, :mod:`.endgame`)."""
        self.endgame = endgame
        """Whether small solo endgames are played exactly (:mod:`.endgame`) rather than
        by playouts."""
        self.margin = margin
        """How many more of the same games the search's best way must win than the fast
        bot's choice to be played instead (see :meth:`advise`)."""
        self.playouts = playouts
        self.weights = weights
        """``None``: the weights tuned for the game's ruleset (:func:`~.bot.weights_for`)."""
        self.flee_samples = flee_samples
        self.ways = ways
        """Ways kept for the playouts after the fast judgement's first sort."""

    def choose(self, observation: Observation) -> Move:
        return self.plan(observation).moves[0]

    def plan(self, observation: Observation) -> Estimate | Choice:
        """The best way found: its moves are the rest of the room (or a flee)."""
        return self.advise(observation)[1]

    def advise(
        self,
        observation: Observation,
        every_move: bool = False,
        cancel: Callable[[], bool] | None = None,
    ) -> tuple[Search, Estimate | Choice]:
        """:meth:`search`, and the way to play.

        The playouts are a sample: of a room's eight or nine ways, one wins a few more of
        its games than the others by luck alone, most of all where few games are won (in
        co-op, one or two in thirty-two). So the search does not simply play its best
        way. The fast bot's own choice (its judgement, with more samples for a flee; a
        :class:`~.bot.Choice`) is played out over every order, and the search's best way
        replaces it only when it won at least :attr:`margin` more of the same games than
        the choice did (counting the games one won and the other lost). So where no way
        won a single game, the fast bot's choice is played. Exact chances (every order
        played, or the solver's) are followed as they are.

        In co-op the playouts win so seldom that the margin is rarely met; there the way
        with the highest mean score is played instead of the choice when its scores beat
        the choice's over the same games by :data:`SCORE_MARGIN` standard errors (a
        lost game's score counts the monsters left, so it says how far the heroes got).
        Hints (``every_move``) keep to the chances and the judgement, which their texts
        explain."""
        base = Bot(self.weights).plan(observation)
        found = self.search(observation, every_move, cancel, base.moves)
        best = found.best
        if best.exact:
            return found, best
        own = next((e for e in found.estimates if e.moves == base.moves), None)
        if own is best:
            return found, best if best.wins else base
        if clearly_better(best, own, self.margin):
            return found, best
        if observation.rules.coop_game and own is not None and not every_move:
            most = max(e.games for e in found.estimates)
            top = max((e for e in found.estimates if e.games == most), key=lambda e: e.mean_score)
            if scores_clearly_higher(top, own, SCORE_MARGIN):
                return found, top
        return found, base

    def search(
        self,
        observation: Observation,
        every_move: bool = False,
        cancel: Callable[[], bool] | None = None,
        keep: tuple[Move, ...] = (),
    ) -> Search:
        """Weigh the ways to go on from ``observation``. With ``every_move`` each legal
        move gets at least its best way (for hints); otherwise only the most promising,
        and the way whose moves are ``keep``, if it is weighed, plays every order."""
        if observation.score is not None or not observation.legal_moves:
            raise ValueError("the game is over: there is nothing to choose")
        seen = Seen.of(observation)
        weights = self.weights or weights_for(seen.rules)
        judge = seen.judge(weights)
        if self.endgame and fits(seen):
            weighed = _endgame(observation, seen, judge, every_move, cancel)
            if weighed is not None:
                return weighed
        ways = self._ways(seen, judge, every_move)
        if seen.known:  # one order is left: the solver tells each way's fate exactly
            orders, exact, play = [seen.unseen + seen.bottom], True, _solve_out
        else:
            orders, exact = self._orders(seen)
            play = _play_out
        # hints (every move weighed) keep to the judgement: asking the solver in each of
        # their many ways' playouts would take them from seconds to half a minute
        ends = KNOWN_END_NODES if self.known_ends and seen.rules.coop_game and not every_move else 0
        total = len(orders)
        results: dict[Way, list[tuple[bool, int]]] = {way: [] for way in ways}
        kept = [way for way in ways if _moves(observation, way) == keep]
        alive = list(ways)
        played = 0
        # successive halving: every way gets the first games, the better half more
        rounds = max(1, int(math.log2(max(1, len(alive)))))
        step = total if exact or len(alive) == 1 else max(4, total >> rounds)
        while True:
            target = min(total, played + step)
            for way in alive:
                games = results[way]
                for i in range(played, target):
                    if cancel is not None and cancel():
                        raise Cancelled
                    games.append(play(seen, way, orders[i], weights, self.flee_samples, ends))
            played = target
            if played >= total:
                break
            alive.sort(key=lambda way: _utility(results[way]), reverse=True)
            if not every_move:
                half = max(1, (len(alive) + 1) // 2)
                alive = alive[:half] + [way for way in alive[half:] if way in kept]
            step = played
        estimates = []
        for way, games in results.items():
            moves = _moves(observation, way)
            estimates.append(
                Estimate(
                    way,
                    moves,
                    len(games),
                    sum(1 for won, _ in games if won),
                    sum(score for _, score in games),
                    exact,
                    tuple(won for won, _ in games),
                    tuple(score for _, score in games),
                )
            )
        estimates.sort(key=lambda e: (e.games, e.chance, e.mean_score), reverse=True)
        return Search(tuple(estimates))

    def _orders(self, seen: Seen) -> tuple[list[tuple[int, ...]], bool]:
        """The dungeons to play out: every order of the unseen cards when there are few
        enough (the chances are then exact), else :attr:`playouts` random ones drawn from
        a generator seeded by the observation. The known bottom stays below them."""
        unseen = seen.unseen
        if math.factorial(len(unseen)) <= EXACT * self.playouts:
            return [order + seen.bottom for order in itertools.permutations(unseen)], True
        rng = random.Random(
            repr((seen.room, seen.heroes, unseen, seen.bottom, seen.taken, seen.leader))
        )
        orders = []
        for _ in range(self.playouts):
            order = list(unseen)
            rng.shuffle(order)
            orders.append((*order, *seen.bottom))
        return orders, False

    def _ways(self, seen: Seen, judge: Judge, every_move: bool) -> list[Way]:
        """The ways worth playing out: the best few by the fast judgement, the flee, and
        with ``every_move`` the best way that starts with each legal move."""
        kind = _FirstMoves if every_move else Expansion
        rules = seen.rules
        expansion = kind(rules.strict, rules.coop_game, True, rules.health)
        seen.expand(expansion)
        ways = seen.ways(judge, expansion, self.ways)
        if isinstance(expansion, _FirstMoves):
            firsts = {way.line[0] for way in ways}
            for first, outcomes in expansion.firsts.items():
                if first not in firsts:
                    (rest, after), (line, last) = max(
                        outcomes.items(),
                        key=lambda item: judge.outcome(
                            item[0][0], item[0][1], item[1][1], seen.final
                        ),
                    )
                    ways.append(Way(line, after, rest, last, False))
            ways += expansion.fatal_ways(ways)
        flee = seen.flee_way()
        if flee is not None:
            ways.append(flee)
        return ways


class _FirstMoves(Expansion):
    """A room expansion that also keeps, for each first move, every outcome reached by
    the lines that start with it (the plain expansion keeps one line per outcome, so a
    move such as drinking a potion first can vanish behind a line that drinks it later)."""

    __slots__ = ("firsts",)

    def __init__(self, strict: bool, coop: bool, want_deaths: bool, most: int) -> None:
        super().__init__(strict, coop, want_deaths, most)
        self.firsts: dict[int, dict[tuple[tuple[int, ...], Heroes], tuple[Line, int]]] = {}

    def _done(self, room: tuple[int, ...], heroes: Heroes, line: Line, potion: int) -> None:
        super()._done(room, heroes, line, potion)
        outcomes = self.firsts.setdefault(line[0], {})
        key = (room, heroes)
        if key not in outcomes or potion > outcomes[key][1]:
            outcomes[key] = (line, potion)

    def fatal_ways(self, ways: list[Way]) -> list[Way]:
        """For each first move whose every line is fatal and that no way of ``ways``
        starts with, the way that slays the most (:func:`~.bot.slays_most`), so that a
        hint can still weigh that move."""
        fatal = {line[0] for _, _, line in self.deaths} - set(self.firsts)
        found = []
        for first in sorted(fatal - {way.line[0] for way in ways}):
            after, rest, line = slays_most(d for d in self.deaths if d[2][0] == first)
            found.append(Way(line, after, rest, 0, True))
        return found


def _endgame(
    observation: Observation,
    seen: Seen,
    judge: Judge,
    every_move: bool,
    cancel: Callable[[], bool] | None,
) -> Search | None:
    """Every way to go on weighed exactly, by the best fair play after it (the most orders
    of the unseen cards won, then the highest mean score: :mod:`.endgame`); ``None`` when
    the endgame is bigger than :data:`.endgame.BUDGET` rooms. Every way through the room
    that no other beats on health, weapon and reach is weighed, with ``every_move`` every
    outcome of every first move, and the flee."""
    rules = seen.rules
    expansion = _FirstMoves(rules.strict, rules.coop_game, True, rules.health)
    seen.expand(expansion)
    ways = seen.ways(judge, expansion)
    if every_move:
        lines = {way.line for way in ways}
        for outcomes in expansion.firsts.values():
            for (rest, after), (line, last) in outcomes.items():
                if line not in lines:
                    ways.append(Way(line, after, rest, last, False))
        ways += expansion.fatal_ways(ways)
    flee = seen.flee_way()
    if flee is not None:
        ways.append(flee)
    endgame = Endgame(rules, BUDGET, cancel)
    orders = endgame.orders(seen)
    estimates = []
    try:
        for way in ways:
            won, total = endgame.way(seen, way)
            estimates.append(Estimate(way, _moves(observation, way), orders, won, total, True))
    except TooBig:
        return None
    estimates.sort(key=lambda e: (e.wins, e.total_score), reverse=True)
    return Search(tuple(estimates))


def scores_clearly_higher(best: Estimate, other: Estimate, margin: float) -> bool:
    """Whether ``best`` scored higher than ``other`` over the games both played (the
    first ones) by at least ``margin`` standard errors of the mean difference (a paired
    t statistic); never on fewer than four games. When every game differs by as much, the
    difference alone decides."""
    differences = [a - b for a, b in zip(best.scores, other.scores, strict=False)]
    n = len(differences)
    if n < 4:
        return False
    mean = sum(differences) / n
    spread = sum((d - mean) ** 2 for d in differences) / (n - 1)
    if spread == 0:
        return mean > 0
    return mean / math.sqrt(spread / n) >= margin


def clearly_better(best: Estimate, other: Estimate | None, margin: int) -> bool:
    """Whether ``best`` won at least ``margin`` more of the games both played (the first
    ones: every way plays the same orders from the first) than ``other``; with no
    ``other`` (a way the search did not weigh), whether it won ``margin`` games."""
    if other is None:
        return best.wins >= margin
    pairs = list(zip(best.won, other.won, strict=False))
    return sum(a and not b for a, b in pairs) - sum(b and not a for a, b in pairs) >= margin


def _moves(observation: Observation, way: Way) -> tuple[Move, ...]:
    return (FLEE,) if way.flee else tuple(room_moves(observation.room, way.line))


def search_item(move: Move) -> int:
    """The search form of a card move (see :mod:`.model`)."""
    assert move.card is not None
    return code(move.card) | (WITH_WEAPON if move.weapon else 0) | (HELP if move.help else 0)


def _utility(games: list[tuple[bool, int]]) -> tuple[float, float]:
    if not games:
        return 0.0, 0.0
    return sum(1 for won, _ in games if won) / len(games), sum(s for _, s in games) / len(games)


def _play_out(
    seen: Seen,
    way: Way,
    dungeon: tuple[int, ...],
    weights: Judgement,
    flee_samples: int,
    ends: int = 0,
) -> tuple[bool, int]:
    """Play ``way`` in a game whose dungeon is ``dungeon`` (in order), then the rest of
    the game with the fast judgement, which sees only what a player would. With ``ends``,
    the first time the player knows every card left the solver looks for a win, weighing
    at most ``ends`` positions (a win found wins the playout). Returns (won, score)."""
    rules = seen.rules
    coop = rules.coop_game
    only = rules.death_score == "dungeon-only"
    if way.fatal:
        return False, lost_score(way.heroes, way.rest, dungeon, only)
    if seen.final and not way.flee:
        return True, won_score(way.heroes, way.last_potion, rules.health)
    room, dungeon, known, heroes, leader, fled = way.after(seen, dungeon, len(seen.bottom))
    fresh = (False,) * (len(heroes) // 3)
    while True:
        final = is_final(len(dungeon))  # S4
        split = len(dungeon) - known
        if ends and split <= 1 and not final:  # one order is left: the solver may end it
            found = _win_within(room_start(rules, room, dungeon, heroes, leader, fled), ends)
            if found is not None:
                return True, found
            ends = 0  # no win found: the judgement plays on, and the solver is not asked again
        judge = weights.judge(rules, leader, dungeon)
        flee, face, _ = judge.decide(
            room,
            heroes,
            0,
            fresh,
            False,
            final,
            may_flee(0, fled, len(dungeon), rules.relentless),  # S4, S5, V1
            tuple(sorted(dungeon[:split])),
            dungeon[split:],
            flee_samples,
        )
        if flee:
            room, dungeon, known = flee_dungeon(room, dungeon, known)
            fled = True
            continue
        if face is None:
            after, rest, _ = judge.last_stand(room, heroes, 0, fresh, False, final)
            return False, lost_score(after, rest, dungeon, only)
        value, _, heroes, carry = face
        if final:
            return True, int(value)
        room, dungeon, known = deal_room(carry, dungeon, known)
        fled = False
        leader = next_leader(leader, coop)  # C3


def _win_within(position: Position, nodes: int) -> int | None:
    """The score of a win the solver finds from ``position`` weighing at most about
    ``nodes`` positions; ``None`` when it finds none, or none so soon."""
    asked = [0]

    def enough() -> bool:  # polled every POLL + 1 positions
        asked[0] += 1
        return asked[0] * (POLL + 1) > nodes

    try:
        found = win_line(position, enough)
    except Cancelled:
        return None
    return None if found is None else found[0]


def _solve_out(
    seen: Seen,
    way: Way,
    dungeon: tuple[int, ...],
    weights: Judgement,
    flee_samples: int,
    ends: int = 0,
) -> tuple[bool, int]:
    """With every card left known: won (with the score of the solver's winning line) if
    the solver finds a win after ``way``, else the playout's lost game (``ends`` is not
    used: the solver has already had the whole say, without a bound)."""
    found = known_win(seen, way, dungeon)
    if found is not None:
        return True, found[0]
    return _play_out(seen, way, dungeon, weights, flee_samples)
