"""Golden playthroughs: six fixed games replayed move by move against ``tests/golden/``.

Each golden file holds a record (N3) and the summary of every position of its game (the N4
fields, with the move that led there and the legal moves as tokens). Replaying the record must
give exactly those positions, so any change to a rule (S…, C…) or to the notation (N1-N4)
shows up here. After a deliberate rule change, run ``tests/golden/regenerate.py`` and read the
diff.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from scoundrel.core import Game, Record, State

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
NAMES = (
    "solo-strict",
    "solo-lenient-dungeon-only",
    "coop-default",
    "coop-strict-harder",
    "coop-easier-leader2",
    "solo-won",
)
OPTIONS = {
    "solo-strict": ("solo", {"weapon": "strict", "death_score": "standard"}),
    "solo-lenient-dungeon-only": ("solo", {"weapon": "lenient", "death_score": "dungeon-only"}),
    "coop-default": (
        "coop",
        {"weapon": "lenient", "easier": False, "harder": False, "first_leader": 1},
    ),
    "coop-strict-harder": (
        "coop",
        {"weapon": "strict", "easier": False, "harder": True, "first_leader": 1},
    ),
    "coop-easier-leader2": (
        "coop",
        {"weapon": "lenient", "easier": True, "harder": False, "first_leader": 2},
    ),
    "solo-won": ("solo", {"weapon": "strict", "death_score": "standard"}),
}


def load(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((GOLDEN / f"{name}.json").read_text(encoding="utf-8"))
    return data


def step(state: State, move: str | None) -> dict[str, Any]:
    """What a golden file says about a position (see ``tests/golden/regenerate.py``)."""
    return {
        "move": move,
        **state.summary(),
        "legal_moves": [legal.token for legal in state.legal_moves],
    }


def test_the_golden_set_is_complete() -> None:
    """Exactly the six golden games are there (regenerate.py writes them all)."""
    assert sorted(path.stem for path in GOLDEN.glob("*.json")) == sorted(NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_golden_record_has_the_intended_rules(name: str) -> None:
    """N3: each record names its ruleset and every option, and reads back unchanged."""
    data = load(name)
    ruleset, options = OPTIONS[name]
    record = Record.from_dict(data["record"])
    assert record.rules.ruleset == ruleset
    assert {key: record.rules.options[key] for key in options} == options
    assert record.to_dict() == data["record"]
    assert Record.from_json(record.to_json()) == record
    assert len(record.moves) == len(data["steps"]) - 1


@pytest.mark.parametrize("name", NAMES)
def test_golden_game_replays_step_by_step(name: str) -> None:
    """N3/N4: the record's moves, applied one at a time from the initial dungeon, give every
    recorded position: status, score, heroes, leader, dungeon count, room and legal moves."""
    data = load(name)
    record = Record.from_dict(data["record"])
    steps = data["steps"]
    state = record.start()
    assert step(state, None) == steps[0]
    for number, move in enumerate(record.moves, start=1):
        assert move in state.legal_moves, f"move {number} ({move.token}) is not legal"
        state = state.apply(move)
        assert step(state, move.token) == steps[number], f"after move {number} ({move.token})"
    assert state.status != "playing", "a golden game is played to its end"


@pytest.mark.parametrize("name", NAMES)
def test_golden_game_replays_as_a_whole(name: str) -> None:
    """N4: ``Record.replay`` gives the last recorded position, and its summary counts the
    moves applied."""
    data = load(name)
    game = Record.from_dict(data["record"]).replay()
    assert isinstance(game, Game)
    last = {key: value for key, value in data["steps"][-1].items() if key != "legal_moves"}
    del last["move"]
    assert game.summary() == {**last, "moves_applied": len(data["steps"]) - 1}


def test_golden_endings() -> None:
    """The set covers both endings: the won game scores S13 with its potion bonus (health
    20 plus the last potion), and the others are lost (S11, C8) with the S13/C10 score."""
    won = load("solo-won")["steps"][-1]
    assert won["status"] == "won"
    assert won["heroes"][0]["health"] == 20
    potion = won["move"]
    assert potion.endswith("H")
    assert won["score"] == 20 + int(potion[:-1])
    for name in NAMES[:-1]:
        assert load(name)["steps"][-1]["status"] == "lost"
