"""The flow of play is written once (issue 38): a change planted in the one place changes
every engine.

Each test copies the package, plants one change to a rule of the flow where the core
states it (:mod:`scoundrel.core.kernel` or :mod:`scoundrel.core.flow`), and asks the
untouched and the planted package the same questions in a fresh interpreter:

* **core and batch**: seeded games in the core (the fast bot's moves, one in four drawn
  at random instead), their action ids played again in the compiled batch: the two must
  agree with each other, planted or not, and the plant must change the games;
* **solver**: its line on a fixed deal (with its node count), replayed through the core
  of the same package, which must accept every move;
* **fast bot** and **searching bot**: whole games, each decision with the values the bot
  weighed (the fast bot's face and flee values, the searching bot's playout results),
  every move played through that package's core.

A plant that an engine did not follow shows as that engine's answers unchanged, or as
moves its own package's core refuses.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from scoundrel.core import kernel

pytest.importorskip("numba")

PACKAGE = Path(kernel.__file__).resolve().parents[1]

PROBE = r"""
import json, random, sys
import numpy as np
from scoundrel.core import Rules, State, random_deal
from scoundrel.core.actions import action_id
from scoundrel.batch import Batch
from scoundrel.solver import Bot, SearchBot, solve


def core_games(rules, seeds):
    # Seeded games in the core, each move the fast bot's choice or (one in four) drawn
    # among the legal moves: games that reach the late rooms, and the bot's blind spots.
    games, played = [], []
    bot = Bot()
    for seed in seeds:
        state = State.new(rules, random_deal(rules, seed))
        rng = random.Random(seed)
        ids = []
        while not state.is_over:
            if rng.random() < 0.25:
                legal = state.legal_moves
                move = sorted(legal, key=action_id)[rng.randrange(len(legal))]
            else:
                move = bot.choose(state.observation(state.leader))
            ids.append(action_id(move))
            state = state.apply(move)
        games.append([state.score, len(ids), state.leader, len(state.discard)])
        played.append(ids)
    return games, played


def batch_games(rules, seeds, played):
    # The same action ids played in the batch, all games at once.
    games = Batch.from_seeds(rules, seeds)
    for step in range(max(map(len, played))):
        where = np.array([step < len(ids) for ids in played])
        games.step([ids[step] if step < len(ids) else 0 for ids in played], where)
    answer = []
    for g, ids in enumerate(played):
        discarded = rules.deck_size - len(games.dungeon(g)) - int(games.room_size[g])
        discarded -= int(games.stack_size[g].sum()) + int((games.weapon[g] >= 0).sum())
        answer.append([int(games.score[g]), len(ids), int(games.leader[g]), discarded])
    return answer


def bot_game(rules, seed, decide):
    state = State.new(rules, random_deal(rules, seed))
    played = []
    while not state.is_over:
        moves, weighed = decide(state.observation(state.leader))
        played.append(weighed)
        for move in moves:
            state = state.apply(move)
            played.append(move.token)
            if state.is_over:
                break
    return [state.score, played]


def fast(observation):
    choice = Bot().plan(observation)
    values = (choice.value, choice.face_value, choice.flee_value)
    return choice.moves, [None if v is None else round(v, 6) for v in values]


searcher = SearchBot(playouts=24)


def search(observation):
    found, way = searcher.advise(observation)
    return way.moves, [[e.wins, e.total_score, e.games] for e in found.estimates]


out = {}
for rules, seed in ((Rules.solo(), 1), (Rules.coop(), 0)):
    core, played = core_games(rules, range(30))
    batch = batch_games(rules, range(30), played)
    start = State.new(rules, random_deal(rules, seed))
    found = solve(start, best=not rules.coop_game)
    end = start.replay(found.line)[-1]  # every move the solver plays, the core allows
    assert end.score == found.score, (end.score, found.score)
    out[rules.ruleset] = {
        "core": core,
        "batch": batch,
        "solver": [found.winnable, found.score, found.nodes, [m.token for m in found.line]],
        "fast": [bot_game(rules, s, fast) for s in range(8)],
        "search": bot_game(rules, 0, search),
    }
print(json.dumps(out))
"""


def probe(package_parent: Path) -> dict[str, Any]:
    env = dict(os.environ, PYTHONPATH=str(package_parent))
    result = subprocess.run(
        [sys.executable, "-c", PROBE], env=env, capture_output=True, text=True, timeout=600
    )
    assert result.returncode == 0, result.stderr[-3000:]
    answer: dict[str, Any] = json.loads(result.stdout)
    return answer


@pytest.fixture(scope="module")
def untouched() -> dict[str, Any]:
    return probe(PACKAGE.parent)


#: (rule, module, the text where the rule is stated, the planted text, rulesets it shows in)
PLANTS = [
    (
        "S3 a room of four cards",
        "kernel.py",
        "ROOM_SIZE = 4\n",
        "ROOM_SIZE = 5\n",
        ("solo", "coop"),
    ),
    (
        "S6 one card stays for the next room",
        "kernel.py",
        "ROOM_TAKES = ROOM_SIZE - 1\n",
        "ROOM_TAKES = ROOM_SIZE - 2\n",
        ("solo", "coop"),
    ),
    (
        "S5 S4 when a room may be fled",
        "kernel.py",
        "return not relentless and taken == 0 and not fled and not is_final(dungeon_left)",
        "return not relentless and taken == 0 and not fled and dungeon_left > 20",
        ("solo", "coop"),
    ),
    (
        "S4 the final room is resolved to its last card",
        "kernel.py",
        "return 0 if final else ROOM_SIZE - ROOM_TAKES",
        "return ROOM_SIZE - ROOM_TAKES",
        ("solo",),  # the co-op games of the probe rarely reach the final room
    ),
    (
        "C3 the other hero leads the next room",
        "kernel.py",
        "return leader ^ 1 if coop else leader",
        "return leader",
        ("coop",),
    ),
    (
        "C5 one card a room for the partner",
        "kernel.py",
        "return coop and not help_used",
        "return False",
        ("coop",),
    ),
]


@pytest.mark.parametrize(
    ("rule", "module", "stated", "planted", "rulesets"), PLANTS, ids=[p[0] for p in PLANTS]
)
def test_a_flow_rule_planted_once_changes_every_engine(
    tmp_path: Path,
    untouched: dict[str, Any],
    rule: str,
    module: str,
    stated: str,
    planted: str,
    rulesets: tuple[str, ...],
) -> None:
    copy = tmp_path / "planted"
    shutil.copytree(PACKAGE, copy / "scoundrel", ignore=shutil.ignore_patterns("static"))
    source = copy / "scoundrel" / "core" / module
    text = source.read_text(encoding="utf-8")
    assert text.count(stated) == 1, f"{rule}: the rule is not stated once in {module}"
    source.write_text(text.replace(stated, planted), encoding="utf-8")

    changed = probe(copy)
    for answers in (untouched, changed):
        for ruleset in answers:  # the batch plays as the state does, planted or not
            assert answers[ruleset]["batch"] == answers[ruleset]["core"], ruleset
    for ruleset in rulesets:
        for engine in ("core", "batch", "solver", "fast", "search"):
            assert changed[ruleset][engine] != untouched[ruleset][engine], (
                f"{rule}: the {engine} plays {ruleset} as before"
            )


#: How a module would deal, flee, hand over the lead or find the final room by itself.
FLOW_WRITTEN_AGAIN = {
    "cuts a room off the dungeon": re.compile(
        r"\[\s*:\s*(?:ROOM_\w+|[34])\s*\]|\[\s*(?:ROOM_\w+|[34])\s*:\s*\]"
    ),
    "counts the cards a room resolves": re.compile(r"\bROOM_TAKES\b"),
    "puts a room under the dungeon": re.compile(r"\b(?:dungeon|below)\w*\s*\+\s*\(?\s*room"),
    "hands over the lead": re.compile(r"\bleader\w*\s*(?:\^|\^=)|\b3\s*-\s*lead\b"),
    "decides the final room": re.compile(
        r"=\s*not\s+(?:dungeon|left)\b|len\(dungeon\w*\)\s*[<=]=|if\s+not\s+dungeon\b"
    ),
}


def test_no_module_outside_the_core_writes_the_flow_again() -> None:
    """Dealing a room, fleeing under the dungeon, the next leader, the help card's hero
    and the final room are the core's (:mod:`scoundrel.core.kernel`,
    :mod:`scoundrel.core.flow`): the batch, the solver, the bots and the interfaces call
    them. Each pattern is shown to catch the code it replaced."""
    replaced = {
        "cuts a room off the dungeon": "deal = dungeon[:ROOM_TAKES]; rooms = below[:4]",
        "counts the cards a room resolves": "rooms = (cards + 1) // ROOM_TAKES",
        "puts a room under the dungeon": "below = dungeon + room",
        "hands over the lead": "nxt = leader ^ 1; targets = (3 - lead, HELP)",
        "decides the final room": "final = not dungeon",
    }
    for name, pattern in FLOW_WRITTEN_AGAIN.items():
        assert pattern.search(replaced[name]), name
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.parent.name == "core" and path.parent.parent == PACKAGE:
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            code = line.split("#", 1)[0]
            for name, pattern in FLOW_WRITTEN_AGAIN.items():
                if pattern.search(code):
                    found.append(f"{path.relative_to(PACKAGE)}:{number}: {name}: {line.strip()}")
    assert not found, "\n".join(found)
