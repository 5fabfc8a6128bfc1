"""OpenSpiel playthroughs (issue 40): the files in ``playthroughs/`` were written by
``tools/make_playthroughs.py``; each is played again here through OpenSpiel's own
``generate_playthrough.replay`` and must come out the same, line for line — the way
OpenSpiel checks its own games."""

from __future__ import annotations

from pathlib import Path

import pytest

generate_playthrough = pytest.importorskip("open_spiel.python.algorithms.generate_playthrough")
import scoundrel.rl.openspiel  # noqa: E402, F401  (registers python_scoundrel)

FOLDER = Path(__file__).parent / "playthroughs"


@pytest.mark.parametrize("name", ["python_scoundrel.txt", "python_scoundrel_coop.txt"])
def test_a_playthrough_plays_the_same_again(name: str) -> None:
    from absl import flags

    if not flags.FLAGS.is_parsed():  # the replay reads one of OpenSpiel's own flags
        flags.FLAGS.mark_as_parsed()
    original, again = generate_playthrough.replay(str(FOLDER / name))
    assert again == original, (
        f"{name} plays differently through OpenSpiel: if that is meant, run "
        "python tools/make_playthroughs.py and read the diff"
    )


def test_the_playthroughs_end_in_a_score() -> None:
    text = (FOLDER / "python_scoundrel_coop.txt").read_text(encoding="utf-8")
    assert "game: python_scoundrel(ruleset=coop)" in text
    assert "IsTerminal() = True" in text and "Returns() = [" in text
