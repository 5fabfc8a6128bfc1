"""The operator's settings, read from the environment in one place (issue 38): defaults,
each variable, a clear refusal of a value a setting cannot have, the workers' round trip,
and no other module reading a ``SCOUNDREL_`` variable itself."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from scoundrel.cli.main import main
from scoundrel.settings import SettingError, Settings

SOURCES = Path(__file__).resolve().parents[1] / "src" / "scoundrel"


def test_nothing_set_is_the_defaults() -> None:
    assert Settings.read({}) == Settings()
    assert Settings.read({"SCOUNDREL_DB": " ", "SCOUNDREL_PROXY": ""}) == Settings()
    assert Settings().rate_limits and not Settings().proxy and Settings().alone
    assert Settings().daily_per_address == 5


def test_each_variable_is_read() -> None:
    read = Settings.read(
        {
            "SCOUNDREL_DB": "sqlite:///x.sqlite3",
            "SCOUNDREL_DAILY_SECRET": "s1",
            "SCOUNDREL_COOKIE_SECRET": "s2",
            "SCOUNDREL_REDIS": "redis://localhost:6379/0",
            "SCOUNDREL_RATE_LIMITS": "off",
            "SCOUNDREL_PROXY": "1",
            "SCOUNDREL_DAILY_PER_ADDRESS": "0",
            "SCOUNDREL_ALONE": "No",
        }
    )
    assert read == Settings(
        db="sqlite:///x.sqlite3",
        daily_secret="s1",
        cookie_secret="s2",
        redis="redis://localhost:6379/0",
        rate_limits=False,
        proxy=True,
        daily_per_address=0,
        alone=False,
    )


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("SCOUNDREL_PROXY", "maybe"),
        ("SCOUNDREL_RATE_LIMITS", "2"),
        ("SCOUNDREL_ALONE", "yes please"),
        ("SCOUNDREL_DAILY_PER_ADDRESS", "five"),
        ("SCOUNDREL_DAILY_PER_ADDRESS", "-1"),
    ],
)
def test_a_value_a_setting_cannot_have_is_named(name: str, value: str) -> None:
    with pytest.raises(SettingError, match=re.escape(f"{name}={value!r}")):
        Settings.read({name: value})


def test_the_command_refuses_a_bad_setting_in_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """SCOUNDREL_DAILY_PER_ADDRESS=five was reported as a database that cannot be opened."""
    monkeypatch.setenv("SCOUNDREL_DAILY_PER_ADDRESS", "five")
    assert main(["deal", "--seed", "1"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("scoundrel deal: SCOUNDREL_DAILY_PER_ADDRESS='five'")
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1
    # the games say so too, not that their store cannot be opened
    assert main(["play", "--plain", "--seed", "1"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("scoundrel play: SCOUNDREL_DAILY_PER_ADDRESS='five'"), err


def test_the_workers_read_back_what_the_command_hands_them() -> None:
    for settings in (
        Settings(),
        Settings(db="postgresql:///s", redis="redis://r", proxy=True, alone=False),
        Settings(daily_secret="d", cookie_secret="c", rate_limits=False, daily_per_address=0),
    ):
        assert Settings.read(settings.for_workers()) == settings


def test_only_the_settings_module_reads_scoundrel_variables() -> None:
    reading = re.compile(r"""(?:environ(?:\.get)?|getenv)\s*[\[(]\s*f?["']SCOUNDREL_""")
    found = [
        f"{path.relative_to(SOURCES)}:{number}"
        for path in sorted(SOURCES.rglob("*.py"))
        if path.name != "settings.py"
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if reading.search(line)
    ]
    assert found == []
