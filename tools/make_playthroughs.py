"""Write the OpenSpiel playthroughs of Scoundrel (tests/rl/playthroughs/): a seeded random
game of each ruleset in OpenSpiel's own playthrough format, every observation, information
state, legal action and return along the way. ``tests/rl/test_playthroughs.py`` plays them
again and fails when the game's behaviour through OpenSpiel changes; run this after a
change that is meant to change it, and read the diff.

    python tools/make_playthroughs.py
"""

from __future__ import annotations

from pathlib import Path

from open_spiel.python.algorithms import generate_playthrough

import scoundrel.rl.openspiel  # noqa: F401  (registers python_scoundrel)

FOLDER = Path(__file__).resolve().parents[1] / "tests" / "rl" / "playthroughs"
GAMES = {
    "python_scoundrel.txt": "python_scoundrel",
    "python_scoundrel_coop.txt": "python_scoundrel(ruleset=coop)",
}
SEED = 1


def main() -> None:
    FOLDER.mkdir(parents=True, exist_ok=True)
    for name, game in GAMES.items():
        text = generate_playthrough.playthrough(game, None, seed=SEED)
        (FOLDER / name).write_text(text, encoding="utf-8")
        print(f"{FOLDER / name}: {len(text.splitlines())} lines")


if __name__ == "__main__":
    main()
