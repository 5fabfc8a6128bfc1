"""Snapshots of the full-screen game's main screens at 80x24, in English and Russian
(pytest-textual-snapshot). After an intended change of the screens, look at the new
pictures (the report pytest prints) and accept them with ``pytest --snapshot-update``."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from scoundrel.cli.keep import Keeper
from scoundrel.cli.tui import ScoundrelApp
from scoundrel.cli.tui.app import Setup
from scoundrel.cli.words import Words
from scoundrel.core import Rules

Compare = Callable[..., bool]


def app(tmp_path: Path, lang: str, rules: Rules, seed: int | None = 4) -> ScoundrelApp:
    keeper = Keeper(f"sqlite:///{tmp_path / 'store.sqlite3'}")
    start = None if seed is None else Setup(rules=rules, seed=seed)
    return ScoundrelApp(keeper, Words(lang), start=start, setup=Setup(rules=rules))


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_solo_table_with_a_card_chosen(snap_compare: Compare, tmp_path: Path, lang: str) -> None:
    assert snap_compare(app(tmp_path, lang, Rules.solo()), press=["2"])


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_coop_table_giving_a_card(snap_compare: Compare, tmp_path: Path, lang: str) -> None:
    assert snap_compare(app(tmp_path, lang, Rules.coop()), press=["1", "g"])


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_new_game_form(snap_compare: Compare, tmp_path: Path, lang: str) -> None:
    """The whole form, its variants included, in a terminal tall enough to need no
    scrolling: the scroll bar's thumb was drawn a frame late when the machine was busy."""
    assert snap_compare(app(tmp_path, lang, Rules.coop(), seed=None), terminal_size=(80, 44))


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_keys(snap_compare: Compare, tmp_path: Path, lang: str) -> None:
    assert snap_compare(app(tmp_path, lang, Rules.solo()), press=["question_mark"])
