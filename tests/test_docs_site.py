"""The documentation (issue 37): a README a player reads in a minute, and everything else in
docs/, built into a site by MkDocs with --strict, so that a broken link or anchor, a page
left out of the navigation or a docstring the API reference cannot read fails the tests.
The examples (``>>>``) of the pages run as doctests wherever they moved."""

from __future__ import annotations

import argparse
import importlib.util
import os
import re
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
README = ROOT / "README.md"
#: The one-minute README: what Scoundrel is, a picture, the two commands, how to play, links.
README_LINES = 150


def config() -> dict[str, Any]:
    yaml = pytest.importorskip("yaml")  # PyYAML comes with MkDocs
    loaded = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    assert isinstance(loaded, dict)
    return loaded


def nav_pages(nav: object) -> Iterator[str]:
    """Every page file named in a MkDocs ``nav``, however deeply its sections nest."""
    if isinstance(nav, str):
        yield nav
    elif isinstance(nav, list):
        for item in nav:
            yield from nav_pages(item)
    elif isinstance(nav, dict):
        for value in nav.values():
            yield from nav_pages(value)


def pages() -> list[str]:
    return sorted(path.name for path in DOCS.glob("*.md"))


def test_the_readme_is_read_in_a_minute() -> None:
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= README_LINES, f"README.md has {len(lines)} lines (at most 150)"


def test_the_readme_keeps_the_command_ci_runs() -> None:
    """The test command of the README and of the site's home page is the one .ci/run runs,
    byte for byte."""
    command = "python3 -m venv .venv && .venv/bin/pip install -q -e '.[test,rl,fast]'"
    ci = [line for line in (ROOT / ".ci" / "run").read_text().splitlines() if command in line]
    assert len(ci) == 1
    for document in (README, DOCS / "index.md"):
        assert f"\n{ci[0]}\n" in document.read_text(encoding="utf-8"), document.name


def test_every_page_is_in_the_nav() -> None:
    named = list(nav_pages(config()["nav"]))
    assert sorted(set(named)) == sorted(named), "a page is in the nav twice"
    assert sorted(named) == pages(), "docs/*.md and the nav of mkdocs.yml differ"


#: Pages that show a top-level file (pymdownx.snippets): the README links the file itself.
SHOWN = {"contributing.md": "CONTRIBUTING.md"}


def test_the_readme_links_every_page() -> None:
    """Each page of the site but the home page is linked from the README as ``docs/NAME.md``
    (relative, so that the links work on a forge too), and each page it names is linked."""
    readme = README.read_text(encoding="utf-8")
    linked = set(re.findall(r"\]\(docs/([\w.-]+\.md)(?:#[^)]*)?\)", readme))
    linked |= {page for page, shown in SHOWN.items() if f"]({shown})" in readme}
    missing = [page for page in pages() if page != "index.md" and page not in linked]
    assert not missing, f"README.md does not link {missing}"
    named = set(re.findall(r"\bdocs/([\w.-]+\.md)\b", readme))
    assert named <= linked, f"README.md names {sorted(named - linked)} without linking them"


def test_the_command_line_page_has_every_command() -> None:
    from scoundrel.cli.main import build_parser

    (commands,) = [
        action
        for action in build_parser()._actions
        if isinstance(action, argparse._SubParsersAction)
    ]
    page = (DOCS / "command-line.md").read_text(encoding="utf-8")
    missing = [name for name in commands.choices if f"`{name}`" not in page]
    assert not missing, f"docs/command-line.md does not describe {missing}"


def test_every_example_in_the_documents_runs_as_a_doctest() -> None:
    """pytest collects the ``>>>`` examples of README.md and of the pages, wherever they are."""
    pytest_options = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    options = pytest_options["tool"]["pytest"]["ini_options"]
    with_examples = [
        path.relative_to(ROOT).as_posix()
        for path in (README, *sorted(DOCS.glob("*.md")))
        if re.search(r"^>>> ", path.read_text(encoding="utf-8"), re.MULTILINE)
    ]
    assert "docs/library.md" in with_examples  # the library's quick start
    for document in with_examples:
        folder = document.split("/")[0]
        assert folder in options["testpaths"], f"{document} is not in testpaths"
        glob = "README.md" if document == "README.md" else "docs/*.md"
        assert f"--doctest-glob={glob}" in options["addopts"], f"{document} is not collected"


def test_the_site_builds_with_strict(tmp_path: Path) -> None:
    needed = ("mkdocs", "material", "mkdocstrings", "mkdocstrings_handlers")
    absent = [name for name in needed if importlib.util.find_spec(name) is None]
    if absent:
        if os.environ.get("CI"):
            pytest.fail(f"CI installs the test extra, which brings {absent}")
        pytest.skip(f"no documentation tools ({absent}): pip install -e '.[docs]'")
    site = tmp_path / "site"
    built = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
        cwd=ROOT,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    output = built.stdout + built.stderr
    assert built.returncode == 0, output
    assert "WARNING" not in output, output
    for page in pages():
        folder = "" if page == "index.md" else page.removesuffix(".md") + "/"
        assert (site / folder / "index.html").is_file(), f"{page} was not built"
    # the API reference was rendered from the docstrings, and CONTRIBUTING.md was included
    library = (site / "library" / "index.html").read_text(encoding="utf-8")
    assert 'id="scoundrel.Game"' in library and 'id="scoundrel.solver.solve"' in library
    # the docstrings' Sphinx roles (:class:`State`) are shown as names, not as written
    assert not re.search(r":[a-z]+:<code>", library)
    contributing = (site / "contributing" / "index.html").read_text(encoding="utf-8")
    assert "Rules and rule ids" in contributing and "--8&lt;--" not in contributing
