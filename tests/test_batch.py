"""The batched simulator (``scoundrel.batch``) plays exactly like :class:`State`.

The batch plays uniformly random moves in 100,000 games of each ruleset below, recording
before every move (and after the last) each game's legal action ids, heroes, room, dungeon
count, leader and status; the same action ids are then replayed through the core's
:class:`Playout` and every record compared, in bulk, with NumPy; at the end the scores.
A smaller sample goes through the public :class:`State` API (``apply``,
``legal_action_mask()``, ``heroes``, ``dungeon``, ``score``) and compares everything,
the dungeon's order included. The compiled kernel functions are checked against the
kernel's Python over their whole domains.

Skipped without the ``fast`` extra (Numba, NumPy), except under CI, which installs it.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from itertools import product
from pathlib import Path
from typing import Any

import pytest

try:
    import numpy as np

    from scoundrel import batch
except ImportError as error:  # pragma: no cover - the fast extra is missing
    if os.environ.get("CI"):
        pytest.fail(f"CI installs the fast extra (Numba, NumPy): {error}", pytrace=False)
    pytest.skip(
        "the fast extra is not installed (pip install -e '.[fast]')", allow_module_level=True
    )

from numpy.typing import NDArray

from scoundrel.batch import NO_SCORE, STATUSES, Batch, play_random
from scoundrel.bench import BenchResult
from scoundrel.cli.main import main
from scoundrel.core import (
    ALL_CARDS,
    DeckError,
    Playout,
    Record,
    Rules,
    State,
    Status,
    kernel,
    random_deal,
)
from scoundrel.core.actions import ACTIONS, NUM_ACTIONS, action_id
from tests.rulesets import ORIGINAL

GOLDEN = Path(__file__).resolve().parent / "golden"
GAMES = 100_000
CHUNK = 25_000  # games compared in one test, so that workers share a ruleset's games
RULESETS = ORIGINAL
CODES = {status: code for code, status in enumerate(STATUSES)}


def random_decks(rules: Rules, games: int, seed: int) -> NDArray[np.int64]:
    """``games`` shuffles of the rules' cards, as card indices."""
    cards = np.array([card.index for card in rules.cards], dtype=np.int64)
    rng = np.random.default_rng(seed)
    return rng.permuted(np.tile(cards, (games, 1)), axis=1)


def pick_uniform(mask: NDArray[np.bool_], rng: np.random.Generator) -> NDArray[np.int64]:
    """One legal action id per row of ``mask``, uniformly (each row has one at least)."""
    counts = mask.sum(axis=1)
    nth = (rng.random(len(mask)) * counts).astype(np.int64)
    picked: NDArray[np.int64] = (mask.cumsum(axis=1) > nth[:, None]).argmax(axis=1)
    return picked


# ---------------------------------------------------------------------- recording the batch

FIELDS = ("health", "reach", "weapon", "room", "room_size", "dungeon", "status", "leader")
#: A policy: (the batch, its legal mask, the games still played, the move number) ->
#: an action id for each of those games.
Policy = Callable[[Batch, NDArray[np.bool_], NDArray[np.int64], int], NDArray[np.int64]]


def uniform(seed: int) -> Policy:
    """Uniformly random legal moves, like ``scoundrel bench``."""
    rng = np.random.default_rng(seed)
    return lambda games, mask, playing, number: pick_uniform(mask[playing], rng)


def play_batch(rules: Rules, decks: NDArray[np.int64], policy: Policy) -> dict[str, Any]:
    """Play every deck to its end in a :class:`Batch`; the records of every game, game by
    game, step by step (before each move and after the last), with the actions, the
    number of moves of each game and the final scores."""
    games = Batch(rules, decks)
    rows: dict[str, list[NDArray[Any]]] = {name: [] for name in (*FIELDS, "mask", "game")}
    actions: list[NDArray[np.int64]] = []
    action_games: list[NDArray[np.int64]] = []
    alive = np.arange(len(decks))  # games that had a move to play before the last step
    number = 0
    while len(alive):
        mask = games.legal_mask()
        rows["game"].append(alive)
        rows["mask"].append(mask[alive])
        rows["health"].append(games.health[alive])
        rows["reach"].append(games.reach[alive])
        rows["weapon"].append(games.weapon[alive])
        rows["room"].append(games.room[alive])
        rows["room_size"].append(games.room_size[alive])
        rows["dungeon"].append(games.dungeon_count[alive])
        rows["status"].append(games.status[alive])
        rows["leader"].append(games.leader[alive])
        playing = np.flatnonzero(games.status == batch.PLAYING)
        assert mask[playing].any(axis=1).all() and not mask[games.status != batch.PLAYING].any()
        chosen = np.zeros(len(decks), dtype=np.int64)
        chosen[playing] = policy(games, mask, playing, number)
        games.step(chosen)
        actions.append(chosen[playing])
        action_games.append(playing)
        alive = playing
        number += 1
    game = np.concatenate(rows.pop("game"))
    order = np.argsort(game, kind="stable")  # game by game, each in move order
    played = np.concatenate(action_games)
    record = {name: np.concatenate(parts)[order] for name, parts in rows.items()}
    record["game"] = game[order]
    record["actions"] = np.concatenate(actions)[np.argsort(played, kind="stable")]
    record["moves"] = np.bincount(played, minlength=len(decks))
    record["score"] = games.score
    return record


# ---------------------------------------------------------------------- replaying in State

ID = {move: number for number, move in enumerate(ACTIONS)}
INDEX: dict[Any, int] = {card: card.index for card in ALL_CARDS}
WEAPON = {None: -1, **INDEX}


def replay(rules: Rules, decks: NDArray[np.int64], record: dict[str, Any]) -> dict[str, Any]:
    """The same records, made by playing the batch's actions through the core's Playout."""
    legal_ids: list[int] = []
    legal_counts: list[int] = []
    health: list[int] = []
    reach: list[int] = []
    weapon: list[int] = []
    room_cards: list[int] = []
    room_size: list[int] = []
    dungeon: list[int] = []
    status: list[int] = []
    leader: list[int] = []
    scores: list[int] = []
    ids = ID.__getitem__
    index = INDEX.__getitem__
    weapon_of = WEAPON.__getitem__
    code = CODES.__getitem__
    actions = record["actions"].tolist()
    moves = record["moves"].tolist()
    first = 0
    for deck, count in zip(decks.tolist(), moves, strict=True):
        playout = Playout.deal(rules, [ALL_CARDS[i] for i in deck])
        position = playout.position
        legal = playout.legal
        step = playout.step
        for action in [*actions[first : first + count], None]:
            listed = legal()
            legal_counts.append(len(listed))
            legal_ids += map(ids, listed)
            heroes = position.heroes
            health += [hero.health for hero in heroes]
            weapon += [weapon_of(hero.weapon) for hero in heroes]
            reach += position._reaches  # the kernel's reach (Hero.reach is made from it)
            room = position.room
            room_size.append(len(room))
            room_cards += map(index, room)
            dungeon.append(position.dungeon_count)
            status.append(code(position.status))
            leader.append(position.leader)
            if action is None:
                break
            step(ACTIONS[action])
        first += count
        score = position.score
        assert score is not None
        scores.append(score)
    steps = len(legal_counts)
    mask = np.zeros((steps, NUM_ACTIONS), dtype=np.bool_)
    mask[np.repeat(np.arange(steps), legal_counts), legal_ids] = True
    assert mask.sum() == len(legal_ids)  # no move listed twice
    return {
        "mask": mask,
        "health": np.array(health).reshape(steps, rules.heroes),
        "reach": np.array(reach).reshape(steps, rules.heroes),
        "weapon": np.array(weapon).reshape(steps, rules.heroes),
        "room_cards": np.array(room_cards, dtype=np.int64),
        "room_size": np.array(room_size),
        "dungeon": np.array(dungeon),
        "status": np.array(status),
        "leader": np.array(leader),
        "score": np.array(scores),
    }


def first_difference(name: str, ours: NDArray[Any], theirs: NDArray[Any], game: Any) -> str:
    rows = ours != theirs
    if rows.ndim > 1:
        rows = rows.any(axis=tuple(range(1, rows.ndim)))
    row = int(np.flatnonzero(rows)[0])
    where = f"game {game[row]}" if game is not None else f"row {row}"
    return f"{name} differs first at {where}: batch {ours[row]}, State {theirs[row]}"


def compare(rules: Rules, decks: NDArray[np.int64], ours: dict[str, Any]) -> None:
    """The batch's records against the same actions played through the core."""
    theirs = replay(rules, decks, ours)
    game = ours["game"]
    assert len(game) == len(theirs["status"]) == int(ours["moves"].sum()) + len(decks)
    for field in ("mask", "health", "reach", "weapon", "room_size", "dungeon", "status", "leader"):
        assert np.array_equal(ours[field], theirs[field]), first_difference(
            field, ours[field], theirs[field], game
        )
    room = ours["room"]
    shown = np.arange(4)[None, :] < ours["room_size"][:, None]
    assert (room[~shown] == -1).all()
    assert np.array_equal(room[shown], theirs["room_cards"])  # room order, row by row
    assert np.array_equal(ours["score"], theirs["score"]), first_difference(
        "score", ours["score"], theirs["score"], None
    )
    last = np.cumsum(ours["moves"] + 1) - 1  # every game ended, won or lost
    assert set(ours["status"][last].tolist()) <= {batch.WON, batch.LOST}


@pytest.mark.parametrize("chunk", range(GAMES // CHUNK))
@pytest.mark.parametrize("name", RULESETS)
def test_batch_equals_state_move_by_move(name: str, chunk: int) -> None:
    """Uniformly random play: 100,000 games of each ruleset, in four chunks."""
    rules = RULESETS[name]
    seed = 1000 * list(RULESETS).index(name) + chunk
    decks = random_decks(rules, CHUNK, seed)
    ours = play_batch(rules, decks, uniform(seed))
    compare(rules, decks, ours)
    # the random play reached the rules' corners
    assert (ours["actions"] == action_id("F")).any()  # S5
    assert (ours["mask"][:, action_id("F")] < (ours["room_size"] == 4)).any()  # S5 refused
    assert (ours["weapon"] >= 0).any() and (ours["reach"] < kernel.FRESH).any()  # S7, S9
    if rules.coop_game:  # C3, C5
        assert any(ACTIONS[a].help for a in np.unique(ours["actions"]).tolist())
        assert (ours["leader"] == 3 - rules.first_leader).any()


#: The variants (V1, V2), alone and together, on both rulesets.
VARIANT_RULESETS = {
    "solo-relentless-frail": Rules.solo(flee="never", health=14),
    "solo-frail9-lenient": Rules.solo(health=9, weapon="lenient"),
    "coop-relentless": Rules.coop(flee="never"),
    "coop-frail-strict-harder": Rules.coop(health=14, weapon="strict", harder=True),
}


@pytest.mark.parametrize("name", VARIANT_RULESETS)
def test_batch_equals_state_in_the_variants(name: str) -> None:
    """V1, V2: 25,000 uniformly random games and 5,000 careful ones of each variant, move by
    move as State plays them; no health above N, and a flee only where fleeing is allowed."""
    rules = VARIANT_RULESETS[name]
    seed = 9000 + 10 * list(VARIANT_RULESETS).index(name)
    for decks, choose, random_play in (
        (random_decks(rules, 25_000, seed), uniform(seed), True),
        (kind_decks(rules, 5_000, seed + 1), careful(seed + 1), False),
    ):
        ours = play_batch(rules, decks, choose)
        compare(rules, decks, ours)
        assert ours["health"].max() == rules.health  # V2: the start, and every potion's cap
        if random_play:  # V1: random play flees wherever it may
            fled = bool((ours["actions"] == action_id("F")).any())
            assert fled != rules.relentless


# Uniformly random play dies young: it never reaches the final room (S4) or a victory.
# So the batch also plays careful moves on kind dungeons, and the fair bot's games are
# replayed in it.

CARD = batch.ACTION_CARD.astype(np.int64)
ACTION_VALUE = np.where(CARD >= 0, batch.VALUE[CARD], 0).astype(np.int64)
ACTION_KIND = np.where(CARD >= 0, batch.KIND[CARD], -1)
ACTION_HELPS = batch.ACTION_HELP.astype(np.int64)
WEAPON_VALUE = np.append(batch.VALUE, 0).astype(np.int64)  # card index -1: no weapon


def kind_decks(rules: Rules, games: int, seed: int) -> NDArray[np.int64]:
    """Shuffles that can be survived: the 10 and 9 of diamonds on top, the monsters
    roughly from the strongest down, potions anywhere, the small weapons at the bottom."""
    rng = np.random.default_rng(seed)
    cards = rules.cards
    key = rng.uniform(0, 1, (games, len(cards)))
    for i, card in enumerate(cards):
        if card.is_monster:
            key[:, i] -= card.value
        elif card.code in ("10D", "9D"):
            key[:, i] = -100 + card.value
        elif card.suit == "D":
            key[:, i] += 50
        else:
            key[:, i] = rng.uniform(-16, 0, games)
    indices = np.array([card.index for card in cards], dtype=np.int64)
    decks: NDArray[np.int64] = indices[np.argsort(key, axis=1)]
    return decks


def careful(seed: int) -> Policy:
    """The move that costs the least health now, with a little noise: drink, equip a
    better weapon, fight with the weapon, never die while another move is left."""
    rng = np.random.default_rng(seed)

    def choose(
        games: Batch, mask: NDArray[np.bool_], playing: NDArray[np.int64], number: int
    ) -> NDArray[np.int64]:
        heroes = games.rules.heroes
        hero = np.minimum((games.leader[playing, None] - 1) ^ ACTION_HELPS[None, :], heroes - 1)
        rows = np.arange(len(playing))[:, None]
        health = games.health[playing][rows, hero].astype(np.int64)
        weapon = WEAPON_VALUE[games.weapon[playing]][rows, hero]
        drunk = games.potion_used[playing][rows, hero]
        value = ACTION_VALUE[None, :]
        hurt = np.where(batch.ACTION_WEAPON[None, :], np.maximum(0, value - weapon), value)
        cost = np.where(ACTION_KIND == 0, hurt + 100.0 * (hurt >= health), 0.0)
        cost = np.where(ACTION_KIND == 1, weapon - value, cost)
        cost = np.where(ACTION_KIND == 2, np.where(drunk, 3, -np.minimum(value, 20 - health)), cost)
        cost = np.where(CARD < 0, 2.0, cost) + rng.uniform(0, 0.3, cost.shape)
        cost[~mask[playing]] = np.inf
        picked: NDArray[np.int64] = cost.argmin(axis=1)
        return picked

    return choose


@pytest.mark.parametrize("name", RULESETS)
def test_batch_equals_state_in_long_games(name: str) -> None:
    """Careful play on kind dungeons: 10,000 games of each ruleset, to the final room."""
    rules = RULESETS[name]
    seed = 1000 * list(RULESETS).index(name) + 500
    decks = kind_decks(rules, 10_000, seed)
    ours = play_batch(rules, decks, careful(seed))
    compare(rules, decks, ours)
    last = np.cumsum(ours["moves"] + 1) - 1
    if not rules.strict:  # S4, S12, C9: final rooms and victories
        assert (ours["dungeon"][last] == 0).sum() > 100
        assert (ours["status"][last] == batch.WON).sum() > 20
    elif rules.coop_game:  # strict weapons need more care than this to win
        assert (ours["dungeon"][last] <= 3).sum() > 10
    # strict solo dies young here too: the fair bot's games below reach its final rooms


@pytest.mark.parametrize("name", ["solo", "solo-lenient-dungeon-only"])
def test_batch_replays_the_fair_bots_games(name: str) -> None:
    """The fair bot's solo games (about one in six won) played in State, then in the batch."""
    from scoundrel.solver.bot import Bot

    rules = RULESETS[name]
    bot = Bot()
    decks = random_decks(rules, 300, 31)
    lines: list[list[int]] = []
    for deck in decks.tolist():
        state = State.new(rules, [ALL_CARDS[i] for i in deck])
        line: list[int] = []
        while not state.is_over:
            for move in bot.plan(state.observation(state.leader)).moves:
                state = state.apply(move)
                line.append(action_id(move))
                if state.is_over:
                    break
        lines.append(line)

    def replayed(
        games: Batch, mask: NDArray[np.bool_], playing: NDArray[np.int64], number: int
    ) -> NDArray[np.int64]:
        return np.array([lines[g][number] for g in playing.tolist()], dtype=np.int64)

    ours = play_batch(rules, decks, replayed)
    compare(rules, decks, ours)
    assert ours["moves"].tolist() == [len(line) for line in lines]
    assert (ours["score"] > 0).sum() > 20  # S12, S13: won games
    assert (ours["dungeon"] == 0).sum() > 100  # S4: positions in the final room


@pytest.mark.parametrize("path", sorted(GOLDEN.glob("*.json")), ids=lambda path: path.stem)
def test_batch_plays_the_golden_games(path: Path) -> None:
    """The golden playthroughs (tests/golden): every position's summary, step by step."""
    data = json.loads(path.read_text(encoding="utf-8"))
    record = Record.from_dict(data["record"])
    games = Batch.deal(record.rules, [record.deck])
    for move, expected in zip([None, *record.moves], data["steps"], strict=True):
        if move is not None:
            games.step([action_id(move)])
        legal = np.flatnonzero(games.legal_mask()[0]).tolist()
        assert sorted(legal) == sorted(action_id(token) for token in expected["legal_moves"])
        status = STATUSES[games.status[0]]
        score = int(games.score[0])
        assert status.value == expected["status"], expected
        assert (None if score == NO_SCORE else score) == expected["score"], expected
        heroes = [
            {"health": int(health), "weapon": ALL_CARDS[weapon].code if weapon >= 0 else None}
            for health, weapon in zip(games.health[0], games.weapon[0], strict=True)
        ]
        assert heroes == [
            {"health": hero["health"], "weapon": hero["weapon"]} for hero in expected["heroes"]
        ]
        assert int(games.leader[0]) == expected["leader"]
        assert int(games.dungeon_count[0]) == expected["dungeon"]
        assert [ALL_CARDS[c].code for c in games.room[0].tolist() if c >= 0] == expected["room"]
    if data["name"] == "solo-won":  # S13: 20 health and a potion last: 20 + its value
        assert games.score[0] > kernel.MAX_HEALTH


# ---------------------------------------------------------------------- the public API


def compare_public(games: Batch, states: list[State], number: int) -> None:
    """Everything the batch says about each game against the State's public API."""
    mask = games.legal_mask()
    health, weapon, reach = games.health, games.weapon, games.reach
    potion, help_used = games.potion_used, games.help_used
    room, dungeon, status, leader = games.room, games.dungeon_count, games.status, games.leader
    taken, fled, last, score = (
        games.resolved_in_room,
        games.fled_into,
        games.last_resolved,
        games.score,
    )
    for g, state in enumerate(states):
        where = f"game {g} after {number} moves: {state!r}"
        assert tuple(mask[g].tolist()) == state.legal_action_mask(), where
        for h, hero in enumerate(state.heroes):
            assert health[g, h] == hero.health, where
            assert weapon[g, h] == (hero.weapon.index if hero.weapon else -1), where
            assert potion[g, h] == hero.potion_used, where
            assert (reach[g, h] == kernel.NO_REACH) == (hero.reach is None), where
            for card in ALL_CARDS:  # S9, C7: which monsters the weapon may still meet
                usable = card.is_monster and kernel.reaches(int(reach[g, h]), card.value)
                assert usable == hero.can_use_weapon_on(card), (where, card)
        shown = [ALL_CARDS[c] for c in room[g].tolist() if c >= 0]
        assert shown == list(state.room), where
        assert [c.code for c in games.dungeon(g)] == [c.code for c in state.dungeon], where
        assert dungeon[g] == state.dungeon_count, where
        assert STATUSES[status[g]] is state.status, where
        assert leader[g] == state.leader, where
        assert taken[g] == state.resolved_in_room, where
        assert help_used[g] == state.help_used, where
        assert fled[g] == state.fled_into, where
        assert last[g] == (state.last_resolved.index if state.last_resolved else -1), where
        assert score[g] == (NO_SCORE if state.score is None else state.score), where


@pytest.mark.parametrize("name", [*RULESETS, *VARIANT_RULESETS])
def test_batch_equals_the_public_state_api(name: str) -> None:
    rules = {**RULESETS, **VARIANT_RULESETS}[name]
    decks = random_decks(rules, 500, 77)
    games = Batch.deal(rules, decks)
    states = [State.new(rules, [ALL_CARDS[i] for i in deck]) for deck in decks.tolist()]
    rng = np.random.default_rng(78)
    number = 0
    while True:
        compare_public(games, states, number)
        playing = np.flatnonzero(games.status == batch.PLAYING)
        if not len(playing):
            break
        chosen = np.zeros(len(states), dtype=np.int64)
        chosen[playing] = pick_uniform(games.legal_mask()[playing], rng)
        games.step(chosen)
        for g in playing.tolist():
            states[g] = states[g].apply(ACTIONS[chosen[g]])
        number += 1


def test_flee_puts_the_room_under_the_dungeon_in_room_order() -> None:  # S5
    rules = Rules.solo()
    deck = random_deal(rules, 44)
    games = Batch.deal(rules, [deck])
    state = State.new(rules, deck)
    games.step([action_id("F")])
    state = state.apply("F")
    assert [c.code for c in games.dungeon(0)] == [c.code for c in state.dungeon]
    assert [c.code for c in games.dungeon(0)][-4:] == [c.code for c in deck[:4]]
    assert not games.legal_mask()[0, action_id("F")]  # never two flees in a row


# ---------------------------------------------------------------------- the Batch API


def test_from_seeds_deals_like_random_deal() -> None:
    rules = Rules.coop(easier=True)
    games = Batch.from_seeds(rules, [3, 4])
    for g, seed in enumerate((3, 4)):
        deck = random_deal(rules, seed)
        assert [ALL_CARDS[c] for c in games.room[g].tolist()] == list(deck[:4])
        assert games.dungeon(g) == list(deck[4:])
    assert games.health.tolist() == [[20, 20], [20, 20]]
    assert games.leader.tolist() == [1, 1]
    assert len(games) == 2


def test_decks_are_checked() -> None:
    rules = Rules.solo()
    deck = list(random_deal(rules, 1))
    with pytest.raises(DeckError, match="deck 1 does not hold each card"):
        Batch.deal(rules, [deck, [*deck[:-1], deck[0]]])
    with pytest.raises(DeckError, match="deck 0 has 52 cards, solo needs 44"):
        Batch.deal(rules, [[c.code for c in random_deal(Rules.coop(), 1)]])
    with pytest.raises(DeckError, match="card indices for solo"):
        Batch.deal(rules, np.zeros((2, 52), dtype=np.int64))
    with pytest.raises(DeckError):
        Batch.deal(rules, np.zeros((2, 44), dtype=np.int64))
    assert len(Batch.deal(rules, [[c.code for c in deck]])) == 1
    assert len(Batch.deal(rules, [])) == 0


def test_an_illegal_action_moves_no_game_and_ended_games_stay() -> None:
    rules = Rules.solo()
    games = Batch.from_seeds(rules, [1, 2])
    before = games.room
    legal = games.legal_mask()
    illegal = int(np.flatnonzero(~legal[1])[0])
    with pytest.raises(ValueError, match="game 1: action"):
        games.step([int(np.flatnonzero(legal[0])[0]), illegal])
    assert np.array_equal(games.room, before)
    with pytest.raises(ValueError, match="2 action ids"):
        games.step([0])
    # play game 0 to its end; then its action is ignored while game 1 goes on
    rng = np.random.default_rng(5)
    while games.status[0] == batch.PLAYING:
        games.step(pick_uniform(games.legal_mask(), rng))
    ended = (games.status[0], games.score[0], games.health[0, 0])
    assert not games.legal_mask()[0].any()
    chosen = pick_uniform(games.legal_mask()[1:], rng)
    if games.status[1] == batch.PLAYING:
        games.step([0, int(chosen[0])])
    assert (games.status[0], games.score[0], games.health[0, 0]) == ended
    assert ended[1] != NO_SCORE


Arguments = tuple[Any, ...]


def kernel_domains() -> dict[str, list[Arguments]]:
    values = range(kernel.HIGHEST_VALUE + 2)
    health = range(-20, kernel.MAX_HEALTH + 1)
    flags = (False, True)
    return {
        "damage": list(product(values, values, flags)),
        "fight": list(product(health, values, values, flags)),
        "reaches": list(product(values, values)),
        "worn": list(product(values, flags)),
        "drink": list(product(health, values, flags, (1, 14, kernel.MAX_HEALTH))),
        "may_flee": list(product(range(5), flags, range(55), flags)),
        "room_done": list(product(range(5), range(55))),
        "dealt": list(product(range(5), range(55))),
        "after_card": list(product(range(5), range(55), flags)),
        "next_leader": list(product(range(2), flags)),
        "takes": list(product(range(2), range(2))),
        "may_help": list(product(flags, flags)),
        "known_below": list(product(range(20), range(55))),
        "is_final": [(left,) for left in range(55)],
        "stays": [(final,) for final in flags],
        "rooms_ahead": [(cards,) for cards in range(60)],
        "to_resolve": list(product(range(5), range(4), flags)),
        "potion_bonus": list(product(health, range(11), (14, kernel.MAX_HEALTH))),
        "solo_score": list(
            product(flags, health, range(11), range(0, 300, 37), range(40), flags, (14, 20))
        ),
        "coop_score": list(product(flags, health, health[::3], range(0, 300, 37), range(40))),
        "code_value": [(code,) for code in range(48)],
        "is_monster_code": [(code,) for code in range(48)],
        "is_weapon_code": [(code,) for code in range(48)],
        "is_potion_code": [(code,) for code in range(48)],
    }


def test_the_compiled_kernel_is_the_kernel() -> None:
    compiled = batch.compiled_kernel()
    domains = kernel_domains()
    functions = {
        name: value
        for name, value in vars(kernel).items()
        if callable(value) and getattr(value, "__module__", None) == kernel.__name__
    }
    assert set(functions) == set(domains) == set(compiled)
    for name, arguments in domains.items():
        python: Callable[..., Any] = functions[name]
        numba_version = compiled[name]
        for args in arguments:
            assert numba_version(*args) == python(*args), (name, args)


# ---------------------------------------------------------------------- the benchmark


def test_play_random_is_repeatable_and_counts_moves() -> None:
    rules = Rules.coop(harder=True)
    result = play_random(rules, 300, seed=3, batch_size=64)
    assert isinstance(result, BenchResult)
    assert result.games == 300
    assert 300 * 3 <= result.moves <= 300 * rules.max_game_length
    assert play_random(rules, 300, seed=3, batch_size=64).moves == result.moves
    assert play_random(rules, 1, seed=3, batch_size=4096).games == 1
    with pytest.raises(ValueError):
        play_random(rules, 10, batch_size=0)


def test_bench_batch_prints_like_bench(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--games", "200", "--seed", "3", "--json"]) == 0
    single = json.loads(capsys.readouterr().out)
    assert main(["bench", "--games", "200", "--seed", "3", "--batch", "16", "--json"]) == 0
    batched = json.loads(capsys.readouterr().out)
    assert (
        set(batched) == set(single) == {"games", "moves", "seconds", "games_per_s", "moves_per_s"}
    )
    assert batched["games"] == 200 and batched["moves"] > 200
    assert main(["bench", "--games", "50", "--ruleset", "coop", "--batch", "8"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("coop: 50 games, ")
    assert "moves/s (uniform random play, seed 0, batch 8, compilation excluded)" in text
    assert main(["bench", "--games", "50", "--batch", "0"]) == 0  # 0: the single-game engine
    assert "compilation" not in capsys.readouterr().out


def test_bench_bad_batch(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--games", "5", "--batch", "-1"]) == 2
    assert "--batch must be 0 (one game at a time) or more" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["bench", "--batch", "many"])
    assert "invalid int value" in capsys.readouterr().err


def test_bench_batch_without_numba(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "numba", None)  # import numba raises ImportError
    monkeypatch.delitem(sys.modules, "scoundrel.batch")
    assert main(["bench", "--games", "5", "--batch", "4"]) == 2
    assert "pip install 'scoundrel-cards[fast]'" in capsys.readouterr().err


def test_statuses_are_the_core_statuses() -> None:
    assert STATUSES == (Status.PLAYING, Status.WON, Status.LOST)
