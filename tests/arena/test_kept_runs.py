"""The arena runs the research page quotes are kept in the repository (benchmarks/arena/),
so a reader can check a figure without the hours of play behind it: the page's search128
row is what its log gives, and the command the page shows reads it back without playing."""

from __future__ import annotations

import re
from pathlib import Path

from scoundrel.arena import HELD_OUT, Log, arena
from scoundrel.core import Rules

ROOT = Path(__file__).resolve().parents[2]
RESEARCH = ROOT / "docs" / "research.md"
SEARCH128 = ROOT / "benchmarks" / "arena" / "search128.jsonl"

#: The baselines row: its rate as dealt with its interval, how many deals, its rate
#: reshuffled with its interval, and the certificate's p-value.
ROW = re.compile(
    r"^\| searching fair bot, 128 playouts \(`search128`\) \| "
    r"(?P<dealt>[\d.]+% \([\d.]+–[\d.]+%\)), (?:the first )?(?P<deals>[\d,]+) deals\b.*?; "
    r"(?P<reshuffled>[\d.]+% \([\d.]+–[\d.]+%\)) reshuffled; .*?\(p = (?P<p>[\d.]+)\)",
    re.MULTILINE,
)


def rate(wins: int, games: int, low: float, high: float) -> str:
    return f"{100 * wins / games:.1f}% ({100 * low:.1f}–{100 * high:.1f}%)"


def test_the_research_row_of_search128_is_what_its_log_holds() -> None:
    found = ROW.search(RESEARCH.read_text(encoding="utf-8"))
    assert found, "docs/research.md has no search128 row in the form this test reads"
    deals = int(found["deals"].replace(",", ""))
    log = Log(SEARCH128)
    for reshuffled in (False, True):
        kept = log.games("search128", Rules.solo(), reshuffled)
        missing = [s for s in range(HELD_OUT, HELD_OUT + deals) if s not in kept]
        assert not missing, f"the log lacks {len(missing)} of the {deals} deals the row quotes"
    played: list[int] = []
    (standing,) = arena(["search128"], Rules.solo(), games=deals, log=log, progress=played.append)
    assert played == [2 * deals]  # read from the log, not one game played
    certificate = standing.certificate
    quoted = []
    for outcomes in (certificate.dealt, certificate.reshuffled):
        result = outcomes.result
        quoted.append(rate(result.wins, result.games, *result.ci95))
    assert [found["dealt"], found["reshuffled"]] == quoted
    assert found["p"] == f"{min(certificate.p_wins, certificate.p_scores):.2g}"
