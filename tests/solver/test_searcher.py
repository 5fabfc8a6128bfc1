"""The searching fair bot: its chances are what the rules core gives when every order of
the unseen cards is played out, its samples agree with those exact values, it never looks
at the dungeon's order, and it plays legal, whole games."""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Iterator
from dataclasses import replace

import pytest
from solver_support import COOP, LENIENT, SOLO, cards_to_resolve, play, walk
from test_bot import shuffled_hidden

from scoundrel.core import Move, Observation, Rules, State, Status, random_deal
from scoundrel.core.kernel import is_final
from scoundrel.solver import Bot, SearchBot, hint, play_game, searcher, solve
from scoundrel.solver.bot import Seen, Way, weights_for, wilson
from scoundrel.solver.model import Position
from scoundrel.solver.searcher import (
    FLEE_SAMPLES,
    KNOWN_END_NODES,
    MARGIN,
    SCORE_MARGIN,
    Estimate,
    _play_out,
    clearly_better,
    scores_clearly_higher,
    search_item,
)


def late(
    rules: Rules, seed: int, unseen: int, fewest: int = 2
) -> tuple[State, tuple[Move, ...]] | None:
    """The first position of a seeded game with ``fewest`` to ``unseen`` cards never seen."""
    for state, moves in walk(rules, seed, randomness=0.3):
        if state.is_over:
            return None
        if fewest <= len(state.observation(state.leader).unseen) <= unseen:
            return state, moves
    return None


def core_chance(
    rules: Rules, seed: int, moves: tuple[Move, ...], way: tuple[Move, ...]
) -> tuple[int, int, int]:
    """(orders won, orders, total score) when ``way`` is played and then the fast bot (with
    the playouts' flee samples) finishes the game, over every order of the unseen cards,
    computed with the rules core alone."""
    deck = random_deal(rules, seed)
    state = play(State.new(rules, deck), moves)
    unseen = state.observation(state.leader).unseen
    cut = len(deck) - len(unseen)
    bot = Bot(samples=FLEE_SAMPLES, solve=False)
    won = total = games = 0
    for order in itertools.permutations(deck[cut:]):
        s = play(State.new(rules, (*deck[:cut], *order)), moves)
        for move in way:
            s = s.apply(move)
            if s.is_over:
                break
        end = play_game(bot, s)
        won += end.status is Status.WON
        total += end.score or 0
        games += 1
    return won, games, total


@pytest.mark.parametrize(
    ("rules", "seeds"),
    [
        (SOLO, range(0, 4)),
        (LENIENT, range(4, 6)),
        (COOP, range(0, 2)),
        (Rules.solo(health=14), range(0, 4)),
        (Rules.solo(flee="never"), (3, 14)),
        (Rules.coop(health=16, easier=True), range(3, 6)),
    ],
    ids=["solo", "lenient", "coop", "frail", "relentless", "coop-frail-16-easier"],
)
def test_exact_chances_are_the_cores(rules: Rules, seeds: Iterable[int]) -> None:
    """With five unseen cards or fewer every order is played out, so each way's chance and
    mean score are exact: they equal what the rules core gives for the same way and the
    same finishing play over every order (the compact playouts cannot drift from the
    rules: dealing the next room S3, the final room S4, fleeing S5 with its cards known at the
    bottom, the co-op leader passing on C3, and the scores S13 and C10)."""
    checked = 0
    for seed in seeds:
        found = late(rules, seed, 4)
        if found is None:
            continue
        state, moves = found
        bot = SearchBot(endgame=False)
        result = bot.search(state.observation(state.leader), every_move=True)
        for estimate in result.estimates:
            assert estimate.exact
            assert estimate.interval == (estimate.chance, estimate.chance)
            won, games, total = core_chance(rules, seed, moves, estimate.moves)
            assert (estimate.wins, estimate.games, estimate.total_score) == (won, games, total)
            checked += 1
    assert checked >= 4


def test_sampled_chances_agree_with_the_exact_ones() -> None:
    """With more unseen cards the chances are sampled: each lies within its sampling error
    of the exact share over every order (computed by playing every order out)."""
    compared = 0
    for seed in range(3):
        found = late(SOLO, seed, 6)
        if found is None:
            continue
        state, _ = found
        seen_obs = state.observation(state.leader)
        if len(seen_obs.unseen) < 6:
            continue
        bot = SearchBot(playouts=48)
        result = bot.search(seen_obs, every_move=True)
        seen = Seen.of(seen_obs)
        orders = list(itertools.permutations(seen.unseen))
        assert len(orders) == math.factorial(6)
        for estimate in result.estimates:
            assert not estimate.exact
            weights = weights_for(SOLO)
            way = next(
                w for w in bot._ways(seen, seen.judge(weights), True) if w.line == estimate.line
            )
            wins = sum(
                _play_out(seen, way, order + seen.bottom, weights, FLEE_SAMPLES)[0]
                for order in orders
            )
            exact = wins / len(orders)
            low, high = wilson(estimate.wins, estimate.games, z=3.29)  # 99.9%
            assert low <= exact <= high, (estimate.moves, estimate.chance, exact)
            compared += 1
    assert compared >= 3


@pytest.mark.parametrize(("rules", "seed"), [(SOLO, 3), (COOP, 1)], ids=["solo", "coop"])
def test_choices_do_not_depend_on_the_hidden_order(rules: Rules, seed: int) -> None:
    """Fairness: with the unseen cards permuted the observation is the same, and so is
    everything the search finds (its samples are seeded from the observation)."""
    deck = random_deal(rules, seed)
    compared = 0
    for state, moves in walk(rules, seed, randomness=0.3):
        if state.is_over or len(moves) % 4:
            continue
        other = shuffled_hidden(rules, deck, moves, seed * 1000 + len(moves))
        seen = state.observation(state.leader)
        assert other.observation(state.leader) == seen
        bot = SearchBot(playouts=8)
        assert bot.search(other.observation(state.leader)) == bot.search(seen)
        compared += 1
    assert compared >= 5


@pytest.mark.parametrize("rules", [SOLO, COOP], ids=["solo", "coop"])
def test_every_legal_move_gets_a_chance(rules: Rules) -> None:
    """For hints each legal move is weighed: the best way that starts with it (a potion
    drunk first included, though its outcomes are also reached by drinking it later)."""
    for state, _ in itertools.islice(walk(rules, 2, randomness=0.4), 0, 40, 5):
        if state.is_over:
            continue
        result = SearchBot(playouts=8).search(state.observation(state.leader), every_move=True)
        for move in state.legal_moves:
            estimate = result.of(move)
            assert estimate is not None, move
            assert estimate.line[0] == (estimate.line[0] if move.is_flee else search_item(move))


def test_plans_are_legal_and_games_end() -> None:
    """The plan is a flee alone or exactly the cards left to resolve, every move legal."""
    bot = SearchBot(playouts=8)
    for state, _ in itertools.islice(walk(SOLO, 7, randomness=0.4), 0, 45, 3):
        if state.is_over:
            continue
        plan = bot.plan(state.observation(state.leader))
        if plan.move.is_flee:
            assert plan.moves == (plan.move,)
            assert plan.move in state.legal_moves
            continue
        end = state
        for move in plan.moves:
            assert move in end.legal_moves
            end = end.apply(move)
        assert end.is_over or len(plan.moves) == cards_to_resolve(state)
    for rules in (SOLO, COOP):
        end = play_game(bot, State.new(rules, random_deal(rules, 11)))
        assert end.is_over


def test_the_search_beats_the_fast_bot_on_a_hand_of_seeds() -> None:
    """Not a benchmark (that is ``scoundrel bot --level search``), a sanity check on eight
    fixed deals: searching wins at least as often as scoring one room at a time."""
    rules = SOLO
    fast = sum(
        play_game(Bot(), State.new(rules, random_deal(rules, s))).status is Status.WON
        for s in range(20, 28)
    )
    search = sum(
        play_game(SearchBot(playouts=12), State.new(rules, random_deal(rules, s))).status
        is Status.WON
        for s in range(20, 28)
    )
    assert search >= fast


def test_a_finished_game_has_nothing_to_search() -> None:
    state = State.new(SOLO, random_deal(SOLO, 0))
    end = play_game(Bot(), state)
    with pytest.raises(ValueError, match="game is over"):
        SearchBot().search(end.observation(1))


def after(state: State, moves: tuple[Move, ...]) -> State:
    for move in moves:
        state = state.apply(move)
        if state.is_over:
            break
    return state


@pytest.mark.parametrize(
    ("rules", "seeds"), [(SOLO, range(0, 6)), (COOP, range(0, 6))], ids=["solo", "coop"]
)
def test_once_every_card_is_known_the_chances_are_the_solvers(rules: Rules, seeds: range) -> None:
    """With at most one card unseen its place is known (it lies above the known bottom of
    fled rooms, S5), so the game is one of complete information: each way's chance is
    exact, 1 when the solver still finds a win after it and 0 when it finds none, and
    the fast bot's plan keeps a game that can still be won winnable."""
    checked = 0
    for seed in seeds:
        found = late(rules, seed, 1, fewest=0)
        if found is None:
            continue
        state, _ = found
        observation = state.observation(state.leader)
        result = SearchBot().search(observation, every_move=True)
        for estimate in result.estimates:
            assert estimate.exact and estimate.games == 1
            assert estimate.wins == solve(after(state, estimate.moves)).winnable, estimate.moves
            checked += 1
        plan = Bot().plan(observation)
        if solve(state).winnable:
            assert solve(after(state, plan.moves)).winnable
            assert result.best.wins == 1
    assert checked >= 6


def test_the_search_overrules_the_fast_bot_only_when_it_won_clearly_more() -> None:
    """The searching bot plays the fast bot's choice unless its best way won at least
    ``margin`` more of the games both played than the choice's way (where one won and the
    other lost); where no way won a single playout, the fast bot's choice in solo. In
    co-op, where wins in playouts are few, a way whose scores beat the choice's by
    ``SCORE_MARGIN`` standard errors over the same games is played too. The fast bot's way
    plays every order, so the two compare over all of them."""
    deferred = searched = close = by_score = 0
    observations = itertools.chain(coop_observations(), solo_observations())
    for seen in observations:
        if deferred >= 3 and searched >= 3 and close >= 1 and by_score >= 1:
            break
        bot = SearchBot(playouts=8)
        found, plan = bot.advise(seen)
        if found.best.exact:
            continue
        base = Bot().plan(seen)
        for estimate in found.estimates:
            assert len(estimate.won) == estimate.games
            assert sum(estimate.won) == estimate.wins
        own = next((e for e in found.estimates if e.moves == base.moves), None)
        if own is None:
            continue
        assert own.games == found.best.games  # the fast bot's way plays every order
        if own is found.best:
            continue
        shared = list(zip(found.best.won, own.won, strict=False))
        lead = sum(a and not b for a, b in shared) - sum(b and not a for a, b in shared)
        most = max(e.games for e in found.estimates)
        top = max((e for e in found.estimates if e.games == most), key=lambda e: e.mean_score)
        if lead >= MARGIN:
            assert plan.moves == found.best.moves
            searched += 1
        elif seen.rules.coop_game and scores_clearly_higher(top, own, SCORE_MARGIN):
            assert plan.moves == top.moves  # co-op: a way that scores clearly more
            by_score += 1
        else:
            assert plan.moves == base.moves
            deferred += 1
            if found.best.wins > own.wins:  # more wins, but not clearly: luck of the sample
                close += 1
        if not any(e.wins for e in found.estimates) and not seen.rules.coop_game:
            assert plan.moves == base.moves
    assert deferred >= 3 and searched >= 3 and close >= 1 and by_score >= 1


def test_the_lead_is_counted_over_the_games_both_ways_played() -> None:
    """``clearly_better`` compares two ways game by game over the orders both played (the
    first ones), so wins that only one way had the chance to play do not count."""
    observation = next(solo_observations())
    found = SearchBot(playouts=8).search(observation)
    one = found.estimates[0]

    def played(won: tuple[bool, ...]) -> Estimate:
        return replace(one, won=won, games=len(won), wins=sum(won))

    yes, no = True, False
    base = played((yes, no, no, no))
    assert not clearly_better(played((yes, yes, no, no)), base, 2)  # one more: luck
    assert clearly_better(played((yes, yes, yes, no)), base, 2)
    assert not clearly_better(played((no, yes, yes, no)), base, 2)  # one gained, one lost
    assert not clearly_better(played((yes, yes, no, no, yes, yes)), base, 2)  # base played 4
    assert clearly_better(played((yes, no)), None, 1)  # a way not weighed: its own wins
    assert not clearly_better(played((yes, no)), None, 2)


def test_a_way_scores_clearly_higher_by_standard_errors_over_the_same_games() -> None:
    """``scores_clearly_higher``: the paired t statistic of the score differences over
    the games both ways played, against the margin; too few games never count."""
    observation = next(solo_observations())
    one = SearchBot(playouts=8).search(observation).estimates[0]

    def scored(*scores: int) -> Estimate:
        return replace(one, scores=scores, games=len(scores))

    base = scored(-40, -30, -20, -10)
    assert scores_clearly_higher(scored(-30, -20, -10, 0), base, 2.0)  # 10 more each time
    assert not scores_clearly_higher(scored(-40, -30, -20, -10), base, 2.0)  # the same
    assert not scores_clearly_higher(scored(-20, -10), base, 2.0)  # two games: too few
    # differences 30, 0, 0, 10: mean 10, standard error 7.07, t = 1.41
    assert not scores_clearly_higher(scored(-10, -30, -20, 0), base, 2.0)
    assert scores_clearly_higher(scored(-10, -30, -20, 0), base, 1.4)
    assert not scores_clearly_higher(base, scored(-30, -20, -10, 0), 2.0)  # lower
    longer = scored(-30, -20, -10, 0, -200, -200)  # games base did not play do not count
    assert scores_clearly_higher(longer, base, 2.0)


def solo_observations() -> Iterator[Observation]:
    """What the hero sees at each position of strict solo games played by the fast bot
    with some random moves (seeds 0-2), game over excluded."""
    for seed in range(3):
        for state, _ in walk(SOLO, seed, randomness=0.3):
            if state.is_over:
                break
            yield state.observation(state.leader)


def test_a_hint_advises_the_searching_bots_choice() -> None:
    """A hint's move and plan are the searching bot's choice when it weighs every legal
    move, with every legal move's chance, also where the playouts did not single out a
    way (then the fast bot's plan, as the bot plays it, marked ``judged``); a flee advised
    so says whether nothing won or nothing won clearly more, and names the judgement."""
    bot = SearchBot(playouts=4)
    judged = searched = close = 0
    for seen in coop_observations():
        if judged >= 2 and searched >= 1 and close >= 1:
            break
        advice = hint(seen, bot=bot)
        _, plan = bot.advise(seen, every_move=True)
        assert advice.plan == plan.moves
        assert {c.move for c in advice.chances} == set(seen.legal_moves)
        if not advice.judged:
            assert isinstance(plan, Estimate)
            searched += 1
            continue
        judged += 1
        assert advice.plan == Bot().plan(seen).moves
        assert not any(c.estimate.exact for c in advice.chances)
        won = any(c.estimate.wins for c in advice.chances)
        close += won
        if advice.reason == "flee":
            assert advice.flee_reason == ("close" if won else "judged")
            assert "judged by health" in advice.text()
    assert judged >= 2 and searched >= 1 and close >= 1


def coop_observations() -> Iterator[Observation]:
    """What the leader sees at each position of co-op games played by the fast bot with
    some random moves (seeds 0-2), game over excluded."""
    for seed in range(3):
        for state, _ in walk(COOP, seed, randomness=0.3):
            if state.is_over:
                break
            yield state.observation(state.leader)


def _coop_room_starts(seeds: Iterable[int]) -> Iterator[Observation]:
    """Room starts of the fast bot's co-op games with 4 to 12 cards unseen."""
    for seed in seeds:
        for state, _ in walk(COOP, seed, randomness=0.0):
            observation = state.observation(state.leader)
            if not state.resolved_in_room and 4 <= len(observation.unseen) <= 12:
                yield observation


def _coop_playouts(seeds: Iterable[int]) -> Iterator[tuple[Seen, Way, tuple[int, ...]]]:
    """:func:`_coop_room_starts`, each with the way the fast bot plays and the searching
    bot's orders of the unseen cards."""
    weights = weights_for(COOP)
    for observation in _coop_room_starts(seeds):
        seen = Seen.of(observation)
        way = SearchBot(playouts=8)._ways(seen, seen.judge(weights), False)[0]
        orders, _ = SearchBot(playouts=8)._orders(seen)
        for order in orders:
            yield seen, way, order


def test_co_op_playouts_ask_the_solver_once_at_their_known_end(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A co-op playout asks the solver once, when its player first knows every card left:
    a win found wins the playout with the solver's score; none found, the judgement plays
    on exactly as without asking."""
    weights = weights_for(COOP)
    asked: list[Position] = []
    answer: list[int | None] = [None]

    def solver(position: Position, nodes: int) -> int | None:
        assert nodes == KNOWN_END_NODES
        asked.append(position)
        return answer[0]

    monkeypatch.setattr(searcher, "_win_within", solver)
    playouts = 0
    for seen, way, order in itertools.islice(_coop_playouts(range(4)), 40):
        plain = _play_out(seen, way, order, weights, FLEE_SAMPLES)
        asked.clear()
        answer[0] = None
        assert _play_out(seen, way, order, weights, FLEE_SAMPLES, KNOWN_END_NODES) == plain
        assert len(asked) <= 1
        if asked:
            (position,) = asked
            # asked at a room start before the final room (S4): the solver has rooms to play
            assert position.coop and position.taken == 0 and not is_final(len(position.dungeon))
            answer[0] = 77
            assert _play_out(seen, way, order, weights, FLEE_SAMPLES, KNOWN_END_NODES) == (
                True,
                77,
            )
            playouts += 1
    assert playouts >= 10


def test_the_solver_wins_co_op_playouts_the_judgement_loses() -> None:
    """With the solver at the known end, playouts the judgement alone loses are won (with a
    won game's score, C10: the heroes' health, 2 to 40), and none is lost that the
    judgement won."""
    weights = weights_for(COOP)
    turned = 0
    for seen, way, order in _coop_playouts(range(2)):
        plain = _play_out(seen, way, order, weights, FLEE_SAMPLES)
        asking = _play_out(seen, way, order, weights, FLEE_SAMPLES, KNOWN_END_NODES)
        assert asking[0] or not plain[0]
        if asking[0] and not plain[0]:
            assert 2 <= asking[1] <= 40
            turned += 1
    assert turned >= 1


def test_hints_and_solo_play_never_ask_the_solver_in_their_playouts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Hints weigh every move and keep to the judgement (asking would take them from seconds
    to half a minute); solo playouts end in exact endgames: neither asks. The bot choosing
    its co-op move from the same position does."""
    asked: list[Position] = []

    def solver(position: Position, nodes: int) -> int | None:
        asked.append(position)
        return None

    monkeypatch.setattr(searcher, "_win_within", solver)
    observation = next(_coop_room_starts([1]))
    SearchBot(playouts=8).search(observation)
    assert asked
    asked.clear()
    SearchBot(playouts=8).search(observation, every_move=True)
    hint(observation, SearchBot(playouts=8))
    assert not asked
    found = late(SOLO, 2, 9, fewest=7)
    assert found is not None
    SearchBot(playouts=8).search(found[0].observation(found[0].leader))
    assert not asked
