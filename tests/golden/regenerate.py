"""Write the golden playthroughs in this folder (deterministic: same files on every run).

    .venv/bin/python tests/golden/regenerate.py

Each file is one fixed game: its record (N3) and, for the position before the first move and
after each move, the position's summary (``State.summary()``, the N4 fields) with the move
that led there and the legal moves as tokens. ``tests/core/test_golden.py`` replays every
record and compares every step, so a change in any rule shows up as a diff here.

The moves are chosen by a small search that knows the whole deck (it is a test helper, not a
player): a beam search over positions, ranked by health, what the weapons can still save and
the monsters still to come, with seeded random tie-breaks. It keeps the games alive for a long
time; when the beam finds no victory, the best line it found is played on with the move that
costs the least health until the game ends. Regenerate only when a rule really changes, and
read the diff.
"""

from __future__ import annotations

import json
import random
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from scoundrel.core import Game, Move, Record, Rules, State, random_deal

HERE = Path(__file__).resolve().parent
FORMAT = "scoundrel-golden/1"


@dataclass(frozen=True)
class Golden:
    name: str
    description: str
    rules: Rules
    seed: int  # random_deal(rules, seed)
    width: int  # beam width
    won: bool  # the game must be won


GAMES = (
    Golden("solo-strict", "solo, default options (strict weapons, standard death score)",
           Rules.solo(), seed=11, width=60, won=False),
    Golden("solo-lenient-dungeon-only", "solo, weapon=lenient, death_score=dungeon-only",
           Rules.solo(weapon="lenient", death_score="dungeon-only"), seed=12, width=60,
           won=False),
    Golden("coop-default", "co-op, default options (lenient weapons, hero 1 leads first)",
           Rules.coop(), seed=13, width=60, won=False),
    Golden("coop-strict-harder", "co-op, weapon=strict, harder (two jokers)",
           Rules.coop(weapon="strict", harder=True), seed=14, width=60, won=False),
    Golden("coop-easier-leader2", "co-op, easier (no red aces), first_leader=2",
           Rules.coop(easier=True, first_leader=2), seed=15, width=60, won=False),
    Golden("solo-won", "solo, default options: a game that is won, with the S13 potion bonus",
           Rules.solo(), seed=14, width=200, won=True),
)  # fmt: skip


# ---------------------------------------------------------------------------- the search


def is_monster(card: Any) -> bool:
    return card.suit in ("C", "S", None) or card.value > 10


def margin(state: State) -> float:
    """How well a position stands (higher is better)."""
    if state.status == "lost":
        return -1e9
    if state.status == "won":
        return 1e9 + (state.score or 0)
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


def beam(start: State, width: int, rng: random.Random) -> list[Move]:
    """The best line the beam finds: a victory (the best-scored one of the first depth that
    has any), or else the line that stays alive longest with the best margin."""
    layer: list[tuple[State, list[Move]]] = [(start, [])]
    best_line: list[Move] = []
    while layer:
        following: dict[State, tuple[tuple[float, float], list[Move]]] = {}
        wins: list[tuple[int, float, list[Move]]] = []
        for state, line in layer:
            for move in state.legal_moves:
                after = state.apply(move)
                if after.status == "lost" or after in following:
                    continue
                if after.status == "won":
                    wins.append((after.score or 0, rng.random(), [*line, move]))
                    continue
                following[after] = ((margin(after), rng.random()), [*line, move])
        if wins:
            return max(wins)[2]
        ranked = sorted(following.items(), key=lambda item: item[1][0], reverse=True)
        layer = [(state, line) for state, (_, line) in ranked[:width]]
        if layer:
            best_line = layer[0][1]
    return best_line


def least_damage(state: State, rng: random.Random) -> Move:
    """The move after which the heroes have the most health, ties broken at random."""
    scored = []
    for move in state.legal_moves:
        after = state.apply(move)
        alive = after.status != "lost"
        scored.append((alive, sum(hero.health for hero in after.heroes), rng.random(), move))
    return max(scored, key=lambda item: item[:3])[3]


def play(golden: Golden) -> Game:
    rng = random.Random(f"golden|{golden.name}")
    game = Game(golden.rules, random_deal(golden.rules, golden.seed))
    for move in beam(game.state, golden.width, rng):
        game.play(move)
    while game.state.status == "playing":
        game.play(least_damage(game.state, rng))
    if golden.won and game.state.status != "won":
        raise SystemExit(f"{golden.name}: the search found no victory for seed {golden.seed}")
    return game


# ---------------------------------------------------------------------------- the files


def step(state: State, move: Move | None) -> dict[str, Any]:
    """One line of a golden file: the move that led here, the N4 summary, the legal moves."""
    return {
        "move": None if move is None else move.token,
        **state.summary(),
        "legal_moves": [legal.token for legal in state.legal_moves],
    }


def document(golden: Golden, game: Game) -> dict[str, Any]:
    moves: list[Move | None] = [None, *game.moves]
    return {
        "format": FORMAT,
        "name": golden.name,
        "description": golden.description,
        "deal_seed": golden.seed,
        "record": game.record.to_dict(),
        "steps": [step(state, move) for state, move in zip(game.states, moves, strict=True)],
    }


def dumps(data: dict[str, Any]) -> str:
    """JSON with one step per line, so that a changed rule gives a readable diff."""
    head = {key: value for key, value in data.items() if key != "steps"}
    lines = [json.dumps(head, indent=1, ensure_ascii=False)[:-2] + ","]
    lines.append(' "steps": [')
    steps = [json.dumps(item, ensure_ascii=False) for item in data["steps"]]
    lines.append(",\n".join("  " + text for text in steps))
    lines.append(" ]")
    lines.append("}")
    return "\n".join(lines) + "\n"


def path(name: str) -> Path:
    return HERE / f"{name}.json"


def main() -> int:
    for golden in GAMES:
        game = play(golden)
        data = document(golden, game)
        assert Record.from_dict(data["record"]).replay().state == game.state
        text = dumps(data)
        assert json.loads(text) == data
        path(golden.name).write_text(text, encoding="utf-8")
        state = game.state
        flees = sum(move.is_flee for move in game.moves)
        helps = sum(move.help for move in game.moves)
        print(
            f"{golden.name}: {len(game.moves)} moves ({flees} flees, {helps} help cards), "
            f"{state.status.value}, score {state.score}, dungeon left {state.dungeon_count}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
