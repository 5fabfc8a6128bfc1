"""``scoundrel completion``: the scripts for bash, zsh and fish, and Tab completion itself,
asked the way the shells' hooks ask argcomplete (environment variables in, completions out)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

#: Set by a shell's completion hook; the tests start from an environment without them.
HOOK_VARIABLES = ("_ARGCOMPLETE", "COMP_LINE", "COMP_POINT", "_ARGCOMPLETE_STDOUT_FILENAME")
COMMANDS = ("play", "serve", "deal", "replay", "bench", "solve", "analyse", "bot", "completion")


def _environment(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in HOOK_VARIABLES}
    # the entry point `scoundrel` installed beside this Python, for the shells to find
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    return {**env, **extra}


def run(
    *args: str, env: dict[str, str] | None = None, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "scoundrel", *args],
        capture_output=True,
        text=True,
        check=False,
        env=env or _environment(),
        cwd=cwd,
        timeout=120,
    )


def complete(line: str, tmp_path: Path, cwd: Path | None = None) -> list[str]:
    """What Tab offers at the end of ``line``, asked as argcomplete's bash hook asks: the
    line and the cursor in COMP_LINE and COMP_POINT, the completions written to a file (the
    hook's fd 8 otherwise), one a line."""
    out = tmp_path / "completions.txt"
    env = _environment(
        _ARGCOMPLETE="1",  # COMP_LINE's first word is the program (2: python, 3: python -m)
        _ARGCOMPLETE_IFS="\n",
        _ARGCOMPLETE_SUPPRESS_SPACE="1",  # as an interactive bash does: no trailing space
        _ARGCOMPLETE_STDOUT_FILENAME=str(out),
        COMP_LINE=line,
        COMP_POINT=str(len(line)),
    )
    result = run(env=env, cwd=cwd)
    assert result.returncode == 0, result.stderr
    assert result.stdout == ""  # nothing but the completions, and those go to the file
    return out.read_text().splitlines()


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_completion_prints_a_script_for_each_shell(shell: str, tmp_path: Path) -> None:
    result = run("completion", shell)
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    assert "scoundrel" in result.stdout
    script = tmp_path / f"scoundrel.{shell}"
    script.write_text(result.stdout)
    check = {"bash": ["bash", "-n"], "zsh": ["zsh", "-n"], "fish": ["fish", "--no-execute"]}
    if shell != "bash" and shutil.which(shell) is None:
        return  # only bash is sure to be there; the others are checked where installed
    syntax = subprocess.run(
        [*check[shell], str(script)], capture_output=True, text=True, check=False, timeout=60
    )
    assert syntax.returncode == 0, syntax.stderr


def test_completion_help_says_how_to_install_it() -> None:
    result = run("completion", "--help")
    assert result.returncode == 0
    assert 'eval "$(scoundrel completion bash)"' in result.stdout
    assert 'eval "$(scoundrel completion zsh)"' in result.stdout
    assert "scoundrel completion fish > ~/.config/fish/completions/scoundrel.fish" in (
        result.stdout
    )


def test_completion_for_an_unknown_shell_is_refused() -> None:
    result = run("completion", "tcsh")
    assert result.returncode == 2
    assert result.stdout == ""
    assert "invalid choice: 'tcsh' (choose from 'bash', 'zsh', 'fish')" in result.stderr


def test_tab_completes_the_commands(tmp_path: Path) -> None:
    assert complete("scoundrel pl", tmp_path) == ["play"]
    assert complete("scoundrel comp", tmp_path) == ["completion"]
    assert set(COMMANDS) <= set(complete("scoundrel ", tmp_path))


@pytest.mark.parametrize("command", ["play", "deal", "solve", "bench", "bot"])
def test_tab_offers_the_rulesets(command: str, tmp_path: Path) -> None:
    assert complete(f"scoundrel {command} --rules", tmp_path) == ["--ruleset"]
    assert complete(f"scoundrel {command} --ruleset ", tmp_path) == ["solo", "coop"]
    assert complete(f"scoundrel {command} --ruleset c", tmp_path) == ["coop"]


def test_tab_offers_fixed_values(tmp_path: Path) -> None:
    assert complete("scoundrel bot --level ", tmp_path) == [
        "fast",
        "search",
        "search128",
        "learned",
        "random",
    ]
    assert {"bash", "zsh", "fish"} <= set(complete("scoundrel completion ", tmp_path))
    assert complete("scoundrel play --ruleset coop --da", tmp_path) == ["--daily"]
    assert complete("scoundrel play --seed 3 --da", tmp_path) == []  # one or the other


@pytest.mark.skipif(shutil.which("bash") is None, reason="file names are listed by bash")
@pytest.mark.parametrize(
    "line",
    ["scoundrel replay ", "scoundrel analyse ", "scoundrel solve ", "scoundrel play --load "],
)
def test_tab_completes_record_files(line: str, tmp_path: Path) -> None:
    folder = tmp_path / "games"
    (folder / "saves").mkdir(parents=True)
    (folder / "game.json").write_text("{}")
    offered = complete(line, tmp_path, cwd=folder)
    assert {"game.json", "saves/"} <= set(offered)
    assert complete(line + "ga", tmp_path, cwd=folder) == ["game.json"]


def test_bash_completes_through_the_printed_script(tmp_path: Path) -> None:
    """Real bash: source the script, then call the function it registered for scoundrel
    with the words and cursor bash's readline would set for `scoundrel play --ruleset c`."""
    if (
        shutil.which("bash") is None
        or shutil.which("scoundrel", path=_environment()["PATH"]) is None
    ):
        pytest.skip("needs bash and the installed `scoundrel` command")
    script = r"""
eval "$(scoundrel completion bash)"
spec=$(complete -p scoundrel) || exit 3
function=${spec##*-F }; function=${function%% *}
ask() {
    COMP_LINE=$1; COMP_POINT=${#COMP_LINE}; COMP_TYPE=9
    read -r -a COMP_WORDS <<< "$COMP_LINE"
    [[ $COMP_LINE == *" " ]] && COMP_WORDS+=("")
    COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
    COMPREPLY=()
    "$function" scoundrel "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
    echo "$COMP_LINE|$(printf '%s,' "${COMPREPLY[@]}")"
}
ask 'scoundrel pl'
ask 'scoundrel play --ruleset '
ask 'scoundrel bot --level s'
"""
    result = subprocess.run(
        ["bash", "-c", script],
        capture_output=True,
        text=True,
        check=False,
        env=_environment(),
        cwd=tmp_path,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    # outside an interactive completion bash cannot drop the trailing space (compopt)
    assert result.stdout.splitlines() == [
        "scoundrel pl|play ,",
        "scoundrel play --ruleset |solo,coop,",
        "scoundrel bot --level s|search,search128,",
    ]


@pytest.mark.skipif(shutil.which("fish") is None, reason="fish is not installed")
def test_fish_completes_through_the_printed_script(tmp_path: Path) -> None:
    """fish's own `complete -C LINE` completes a line as Tab would, descriptions after a tab."""
    script = """scoundrel completion fish | source
for line in 'scoundrel pl' 'scoundrel play --ruleset ' 'scoundrel bot --level s'
    echo "== $line"
    complete -C "$line"
end
"""
    result = subprocess.run(
        ["fish", "--no-config", "-c", script],
        capture_output=True,
        text=True,
        check=False,
        env=_environment(HOME=str(tmp_path)),
        cwd=tmp_path,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    offered: dict[str, list[str]] = {}
    for line in result.stdout.splitlines():
        if line.startswith("== "):
            offered[line[3:]] = []
        else:
            offered[list(offered)[-1]].append(line.split("\t")[0])
    assert offered == {
        "scoundrel pl": ["play"],
        "scoundrel play --ruleset ": ["coop", "solo"],  # fish sorts them
        "scoundrel bot --level s": ["search", "search128"],
    }


@pytest.mark.skipif(shutil.which("zsh") is None, reason="zsh is not installed")
def test_zsh_registers_the_printed_script(tmp_path: Path) -> None:
    script = """autoload -U compinit && compinit -u -D
eval "$(scoundrel completion zsh)"
print -r -- "$_comps[scoundrel]"
"""
    result = subprocess.run(
        ["zsh", "-f", "-c", script],
        capture_output=True,
        text=True,
        check=False,
        env=_environment(HOME=str(tmp_path)),
        cwd=tmp_path,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "_python_argcomplete"
