"""The layers of docs/architecture.md hold: import-linter checks the contracts in
pyproject.toml (``[tool.importlinter]``), and this test fails with its report."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "scoundrel"


def contracts() -> dict[str, dict[str, Any]]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    linter = config["tool"]["importlinter"]
    assert linter["root_package"] == "scoundrel"
    return {contract["id"]: contract for contract in linter["contracts"]}


def test_the_contracts_are_the_layers() -> None:
    found = contracts()
    assert set(found) == {
        "core",
        "solver",
        "rl",
        "arena",
        "batch",
        "store",
        "offline",
        "interfaces",
        "cli-main",
    }
    # the core may import nothing else of scoundrel: every other module of the package,
    # including one added later, has to be on its forbidden list
    siblings = {
        f"scoundrel.{path.stem}"
        for path in PACKAGE.iterdir()
        if (path.suffix == ".py" and path.stem != "__init__")
        or (path.is_dir() and (path / "__init__.py").exists())
    } - {"scoundrel.core"}
    assert found["core"]["source_modules"] == ["scoundrel.core"]
    assert set(found["core"]["forbidden_modules"]) == siblings
    # the browser's offline worker is given the core and these two modules alone
    offline = found["offline"]
    assert offline["source_modules"] == ["scoundrel.web.position", "scoundrel.web.offline_table"]
    assert set(offline["forbidden_modules"]) >= siblings - {"scoundrel.web"}
    assert set(found["solver"]["forbidden_modules"]) == {
        "scoundrel.web",
        "scoundrel.store",
        "scoundrel.cli",
    }
    # the learning environments build on the core and the solver only, like a bot
    assert found["rl"]["source_modules"] == ["scoundrel.rl"]
    assert set(found["rl"]["forbidden_modules"]) == {
        "scoundrel.web",
        "scoundrel.store",
        "scoundrel.cli",
    }
    # the arena plays the package's policies and others' on held-out deals, like a bot
    assert found["arena"]["source_modules"] == ["scoundrel.arena"]
    assert set(found["arena"]["forbidden_modules"]) == {
        "scoundrel.web",
        "scoundrel.store",
        "scoundrel.cli",
    }
    # the batched simulator (the fast extra) builds on the core and the benchmark only
    assert found["batch"]["source_modules"] == ["scoundrel.batch", "scoundrel.observed_batch"]
    assert set(found["batch"]["forbidden_modules"]) == {
        "scoundrel.web",
        "scoundrel.store",
        "scoundrel.cli",
        "scoundrel.rl",
    }
    assert set(found["store"]["forbidden_modules"]) == {"scoundrel.web", "scoundrel.cli"}
    interfaces = found["interfaces"]
    assert interfaces["type"] == "independence"
    assert set(interfaces["modules"]) == {"scoundrel.web", "scoundrel.cli"}
    # the one crossing: the command line's `serve` starts the web server
    assert interfaces["ignore_imports"] == ["scoundrel.cli.main -> scoundrel.web.app"]
    # the command line starts the games and the games never import it: every other module
    # of scoundrel.cli, including one added later, is on the list
    cli = PACKAGE / "cli"
    others = {
        f"scoundrel.cli.{path.stem}"
        for path in cli.iterdir()
        if (path.suffix == ".py" and path.stem not in ("__init__", "main"))
        or (path.is_dir() and (path / "__init__.py").exists())
    }
    assert set(found["cli-main"]["source_modules"]) == others
    assert found["cli-main"]["forbidden_modules"] == ["scoundrel.cli.main"]


def _lint_imports() -> str | None:
    beside = Path(sys.executable).parent / "lint-imports"
    return str(beside) if beside.exists() else shutil.which("lint-imports")


def test_import_contracts_are_kept() -> None:
    command = _lint_imports()
    if command is None:
        if os.environ.get("CI"):
            pytest.fail("CI installs import-linter (the test extra): lint-imports is missing")
        pytest.skip("import-linter is not installed (pip install -e '.[test]')")
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT / "src"), env.get("PYTHONPATH")]))
    result = subprocess.run(
        [command, "--no-cache"],  # the configuration is pyproject.toml in ROOT
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    report = result.stdout + result.stderr
    assert result.returncode == 0, report
    assert "0 broken" in report, report
