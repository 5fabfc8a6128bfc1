"""The repository stands alone: every rule id it cites is defined in docs/rules.md, and no
file in it points at a path outside it.

Rule ids are a letter and a number: S solo, C co-op, M modes, N notation (``S9``, ``C11``).
A *citation* is found in two ways:

- an upper-case id standing alone, as comments, docstrings and data write them (``# S9``,
  ``(C5)``, ``rule = "C7"``, ``S3-S10``, ``N3/N4``): the pattern :data:`CITATION` wants the
  letter S, C, M or N right after something that is not a letter, a digit, ``_``, ``%``,
  ``#``, ``&`` or a backslash, then a number from 1 to 99 without a leading zero, then
  nothing that is a letter, a digit or ``_``. Card codes never match, because they are
  rank first and suit last (``KS``, ``10H``, ``2C``: the suit letter follows a word
  character). The excluded prefixes keep out percent-encoding (``%C0``, seen in the API
  tests), colours (``#C1``), entities and escapes, and a leading zero is never an id;
- a lower-case id as a whole word of a test's name (``test_s13_...``,
  ``test_replay_json_is_the_n4_summary``).

Before matching, SVG path data (``d="M10 10 C20 ..."``, whose commands look like ids) and
long base64 or hex runs are blanked. The folders searched are src/, tests/ and benchmarks/
(``*.py``, ``*.js``, ``*.html``, ``*.json``) and the Markdown documents at the top and in
docs/.
"""

from __future__ import annotations

import os
import re
import subprocess
from collections.abc import Iterable, Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
RULES = ROOT / "docs" / "rules.md"

#: The contract: every id of the project's rules, as the rules were first written down.
#: docs/rules.md must define each of them (it may add more).
RULE_IDS = (
    *("S1", "S2", "S3", "S4", "S5", "S6", "S7", "S8", "S9", "S10", "S11", "S12", "S13"),
    *("C1", "C2", "C3", "C4", "C5", "C6", "C7", "C8", "C9", "C10", "C11"),
    *("M1", "M2", "M3"),
    *("N1", "N2", "N3", "N4"),
)

#: How docs/rules.md defines a rule: a heading ``### S9 Weapon wear``.
DEFINITION = re.compile(r"^### ([SCMN][1-9][0-9]?) \S", re.MULTILINE)
CITATION = re.compile(r"(?<![\w%#&\\])([SCMN][1-9][0-9]?)(?!\w)")
TEST_NAME = re.compile(r"\bdef (test_\w+)")
NAME_PART = re.compile(r"[scmn][1-9][0-9]?")
#: Text blanked before matching: SVG path data and long base64 or hex runs.
NOT_PROSE = re.compile(r"""\bd=(?:"[^"]*"|'[^']*')|[A-Za-z0-9+/=]{40,}""")

SOURCE_FOLDERS = ("src", "tests", "benchmarks")
SOURCE_SUFFIXES = {".py", ".js", ".html", ".json"}
SKIPPED_PARTS = {"__pycache__", ".pytest_cache", ".hypothesis", ".mypy_cache", ".ruff_cache"}

#: Paths outside the repository that once leaked into it; written in pieces so that this
#: file does not match itself.
OUTSIDE = ("../" + "shared", "/" + "work/", "shared/" + "RULES", "shared/" + "seeds")
OUTSIDE += ("shared/" + "DESIGN",)


def defined_ids() -> list[str]:
    return DEFINITION.findall(RULES.read_text(encoding="utf-8"))


def citations(text: str) -> Iterator[tuple[int, str]]:
    """Every rule id cited in ``text``, with its line number."""
    for number, line in enumerate(text.splitlines(), 1):
        line = NOT_PROSE.sub(" ", line)
        for match in CITATION.finditer(line):
            yield number, match.group(1)
        for name in TEST_NAME.findall(line):
            for part in name.split("_"):
                if NAME_PART.fullmatch(part):
                    yield number, part.upper()


def cited_files() -> Iterator[Path]:
    for folder in SOURCE_FOLDERS:
        for path in sorted((ROOT / folder).rglob("*")):
            relative = path.relative_to(ROOT).parts
            if any(p in SKIPPED_PARTS or p.endswith(".egg-info") for p in relative):
                continue
            if path.suffix in SOURCE_SUFFIXES and path.is_file():
                yield path
    yield from (p for p in (ROOT / "README.md", ROOT / "CONTRIBUTING.md") if p.exists())
    yield from sorted((ROOT / "docs").glob("*.md"))


def shown(path: Path) -> str:
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else path.name


def undefined(paths: Iterable[Path], defined: set[str]) -> list[str]:
    """``file:line: id`` for every citation of an id not in ``defined``."""
    return [
        f"{shown(path)}:{line}: {rule}"
        for path in paths
        for line, rule in citations(path.read_text(encoding="utf-8"))
        if rule not in defined
    ]


def test_rules_document_defines_every_rule_id() -> None:
    ids = defined_ids()
    missing = [rule for rule in RULE_IDS if rule not in ids]
    assert not missing, f"docs/rules.md does not define {missing}"
    twice = sorted({rule for rule in ids if ids.count(rule) > 1})
    assert not twice, f"docs/rules.md defines {twice} more than once"


def test_every_cited_rule_id_is_defined() -> None:
    paths = list(cited_files())
    assert any(p.name == "test_solo_rules.py" for p in paths)  # the search looks at tests
    assert any(p.suffix == ".js" for p in paths)  # and at the browser's code
    found = undefined(paths, set(defined_ids()))
    assert not found, "rule ids cited but not defined in docs/rules.md:\n" + "\n".join(found)


def test_citation_pattern() -> None:
    bogus = "S" + "99"  # not a rule; spelled in pieces so that this file stays clean
    text = "\n".join(
        [
            '# S9, C7  a used weapon (rule = "C4"); S3-S10, N3/N4.',
            "def test_s13_bonus_and_the_n4_summary() -> None:",
            f"    assert refusal.rule == {bogus!r}",
            'cards = "10S KS 2C AS 10H QC RJ BJ"; url = "%C1%AF"; colour = "#C1"',
            '<path d="M10 10 C20 20, 40 20, 50 10"/> data = "' + "QUJD+S1/" * 6 + '"',
            "moves = '7D KS/w >5H >KS/b F'",
            "def test_seed_003_004_room_7d_ks_5h_9c() -> None:",
        ]
    )
    assert list(citations(text)) == [
        (1, "S9"),
        (1, "C7"),
        (1, "C4"),
        (1, "S3"),
        (1, "S10"),
        (1, "N3"),
        (1, "N4"),
        (2, "S13"),
        (2, "N4"),
        (3, bogus),
    ]


def test_an_undefined_citation_is_reported(tmp_path: Path) -> None:
    bogus = "S" + "99"
    cited = tmp_path / "test_cited.py"
    cited.write_text(f"def test_s9_wear() -> None:\n    pass  # S9, C7, {bogus}\n")
    assert undefined([cited], set(defined_ids())) == [f"test_cited.py:2: {bogus}"]


def repository_files() -> list[Path]:
    """The files git tracks, and the new ones it would add (untracked, not ignored)."""
    try:
        listed = subprocess.run(
            ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
            cwd=ROOT,
            capture_output=True,
            check=False,
        )
    except OSError:
        listed = None
    if listed is None or listed.returncode != 0:
        if os.environ.get("CI"):
            pytest.fail("CI runs in a git clone: git ls-files failed")
        pytest.skip("not a git checkout (or no git): the repository's files are unknown")
    names = sorted({name for name in listed.stdout.decode().split("\0") if name})
    return [ROOT / name for name in names]


def test_no_file_points_outside_the_repository() -> None:
    files = repository_files()
    assert ROOT / ".ci" / "run" in files
    found = []
    for path in files:
        if not path.is_file():
            continue  # deleted in the work tree, or a link to nothing
        data = path.read_bytes()
        if b"\0" in data:
            continue  # binary
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            continue
        for number, line in enumerate(text.splitlines(), 1):
            for outside in OUTSIDE:
                if outside in line:
                    found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()[:100]}")
    assert not found, "paths outside the repository:\n" + "\n".join(found)


#: Links inline, ``[text](target)``, and reference definitions, ``[name]: target``.
LINK = re.compile(r"\]\(([^)\s]+)\)|^ {0,3}\[[^\]]+\]:\s*(\S+)", re.MULTILINE)
DOCUMENTS = ["README.md", "CONTRIBUTING.md"]
DOCUMENTS += sorted(path.relative_to(ROOT).as_posix() for path in (ROOT / "docs").glob("*.md"))


@pytest.mark.parametrize("document", DOCUMENTS)
def test_relative_links_resolve_inside_the_repository(document: str) -> None:
    path = ROOT / document
    broken = []
    text = path.read_text(encoding="utf-8")
    for target in (inline or defined for inline, defined in LINK.findall(text)):
        if re.match(r"[a-z][a-z0-9+.-]*:|#", target):
            continue  # a web address or an anchor on the same page
        linked = (path.parent / target.split("#")[0]).resolve()
        if not linked.is_relative_to(ROOT) or not linked.exists():
            broken.append(target)
    assert not broken, f"{document} links to {broken}"
