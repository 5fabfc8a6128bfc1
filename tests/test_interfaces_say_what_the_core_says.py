"""Issue 38: the interfaces say only what the rules core says. The browser's scripts and the
terminal's words translate the core's labels (:mod:`scoundrel.core.label`), limits, values
and most health; none of them keeps a rule of its own. This test reads their sources for
the ways a rule used to creep back in: a literal maximum health, a weapon's limit worked
out of its reach or chosen by the weapon option, move notation taken apart, a table of face
values or the joker's 15."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "scoundrel"
SCRIPTS = sorted((PACKAGE / "web" / "static" / "js").glob("*.js"))
TERMINAL = [
    PACKAGE / "cli" / "words.py",
    PACKAGE / "cli" / "render.py",
    PACKAGE / "cli" / "plain.py",
    PACKAGE / "cli" / "tui" / "table.py",
]

#: What each pattern catches, with a line it must catch (so that the scan is never empty).
FORBIDDEN: dict[str, tuple[str, str]] = {
    "a literal maximum health (S2: the core's MAX_HEALTH, the view's max_health)": (
        r"(?i)(health.*(?<![\w.])20\b|(?<![\w.])20\b.*health)",
        "f'health {hero.health}/20'",
    ),
    "a weapon's limit worked out of its reach (S9, C7: the core's limit)": (
        r"reach\s*-\s*1",
        'marker = t("weapon.up_to", { n: hero.reach - 1 });',
    ),
    "a weapon's limit chosen here (S9, C7: the core's limit names its key)": (
        r"weapon\.(below|up_to)",
        'else if (game.options.weapon === "strict") marker = t("weapon.below", { n });',
    ),
    "move notation taken apart (N2: the core's label or the move's parts)": (
        r"""(split|partition|startsWith|startswith|endsWith|endswith|lstrip|includes)"""
        r"""\(\s*["'](/|>|/w|/b)["']|replace\(\s*["']>["']""",
        'const [code, how] = token.replace(">", "").split("/");',
    ),
    "the help card's receiver worked out (C5: each move names the hero it plays on)": (
        r"partnerOf\(\s*(game\.)?leader|3\s*-\s*(game\.)?leader",
        'label += t("online.given_mark", { hero: heroName(partnerOf(game.leader)) });',
    ),
    "a table of face values (S1: the core's values and ranks)": (
        r"""\b1[1-4]\s*:\s*["'][JQKA]["']|["'][JQKA]["']\s*:\s*1[1-4]\b""",
        'const FACE = { 11: "J", 12: "Q", 13: "K", 14: "A" };',
    ),
    "the joker's value (C11: the core's values)": (
        r"(?i)(joker.*\b15\b|\b15\b.*joker)",
        'return { code, rank: "★", value: 15, joker: true };',
    ),
}


def _code_lines(path: Path) -> list[tuple[int, str]]:
    """The lines of a source, without its comments (a comment may cite a rule's number)."""
    comment = "#" if path.suffix == ".py" else "//"
    lines = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        code = line.split(f" {comment} ")[0]
        if not code.strip().startswith(comment):
            lines.append((number, code))
    return lines


@pytest.mark.parametrize("what", list(FORBIDDEN))
def test_each_pattern_catches_what_it_names(what: str) -> None:
    pattern, example = FORBIDDEN[what]
    assert re.search(pattern, example), what


@pytest.mark.parametrize("path", SCRIPTS + TERMINAL, ids=lambda path: path.name)
def test_no_interface_works_a_rule_out(path: Path) -> None:
    """S1, S2, S9, C7, C11, N2: the browser's scripts and the terminal's words hold no
    rule: they translate what the core says."""
    found = [
        f"{path.name}:{number}: {what}: {line.strip()}"
        for number, line in _code_lines(path)
        for what, (pattern, _example) in FORBIDDEN.items()
        if re.search(pattern, line)
    ]
    assert found == []


def test_the_scan_reads_the_interfaces_named_in_issue_38() -> None:
    names = {path.name for path in SCRIPTS + TERMINAL}
    expected = {"table.js", "board.js", "cards.js", "online.js", "replay.js", "rules.js"}
    assert expected | {"words.py"} <= names
