"""The arena runs the research page quotes are kept in the repository (benchmarks/arena/),
so a reader can check a figure without the hours of play behind it: the page's search128
row and its co-op searching bot are what their logs give, and the commands the page shows
read them back without playing."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from scoundrel.arena import HELD_OUT, Log, arena
from scoundrel.core import Rules

ROOT = Path(__file__).resolve().parents[2]
RESEARCH = ROOT / "docs" / "research.md"
KEPT = ROOT / "benchmarks" / "arena"

#: A baselines cell: its rate as dealt with its interval, how many deals, its rate
#: reshuffled with its interval, and the certificate's p-value.
CELL = (
    r"(?P<dealt>[\d.]+% \([\d.]+–[\d.]+%\)), (?:the first )?(?P<deals>[\d,]+) deals\b[^|]*?; "
    r"(?P<reshuffled>[\d.]+% \([\d.]+–[\d.]+%\)) reshuffled; [^|]*?\(p = (?P<p>[\d.]+)\)"
)


def rate(wins: int, games: int, low: float, high: float) -> str:
    return f"{100 * wins / games:.1f}% ({100 * low:.1f}–{100 * high:.1f}%)"


@pytest.mark.parametrize(
    ("policy", "rules", "log", "row"),
    [
        # strict solo, the second column
        (
            "search128",
            Rules.solo(),
            "search128.jsonl",
            r"searching fair bot, 128 playouts \(`search128`\) \| ",
        ),
        # co-op, the third
        (
            "search",
            Rules.coop(),
            "search-coop.jsonl",
            r"searching fair bot \(`search`\) \| [^|]*\| ",
        ),
    ],
    ids=["search128", "search-coop"],
)
def test_the_research_figures_are_what_the_logs_hold(
    policy: str, rules: Rules, log: str, row: str
) -> None:
    found = re.search("^\\| " + row + CELL, RESEARCH.read_text(encoding="utf-8"), re.MULTILINE)
    assert found, f"docs/research.md has no {policy} cell in the form this test reads"
    deals = int(found["deals"].replace(",", ""))
    kept_log = Log(KEPT / log)
    for reshuffled in (False, True):
        kept = kept_log.games(policy, rules, reshuffled)
        missing = [s for s in range(HELD_OUT, HELD_OUT + deals) if s not in kept]
        assert not missing, f"the log lacks {len(missing)} of the {deals} deals the row quotes"
    played: list[int] = []
    (standing,) = arena([policy], rules, games=deals, log=kept_log, progress=played.append)
    assert played == [2 * deals]  # read from the log, not one game played
    certificate = standing.certificate
    quoted = []
    for outcomes in (certificate.dealt, certificate.reshuffled):
        result = outcomes.result
        quoted.append(rate(result.wins, result.games, *result.ci95))
    assert [found["dealt"], found["reshuffled"]] == quoted
    assert found["p"] == f"{min(certificate.p_wins, certificate.p_scores):.2g}"
