"""The full-screen table at any size (issue 34, item 3): below its smallest size a notice
asks for a larger terminal and gives the table back when it grows; from there up the layout
adapts (the heroes above the room and side by side when narrow, a move log beside it when
wide), and every position of a game is shown whole: co-op at 80×24 in every state, in all
six languages (:mod:`tests.cli.fitting` says what "whole" means)."""

from __future__ import annotations

import pytest
from rich.text import Text

from scoundrel.cli.keep import Keeper
from scoundrel.cli.tui import ScoundrelApp
from scoundrel.cli.tui.app import Setup, TooSmallScreen
from scoundrel.cli.tui.table import SMALLEST_COOP, SMALLEST_SOLO, HeroPanel, TableScreen
from scoundrel.cli.words import Words
from scoundrel.core import Card, Hero, Rules
from scoundrel.i18n import LANGUAGES

from .fitting import cut, positions

pytestmark = pytest.mark.anyio


async def shown_whole(
    keeper: Keeper, rules: Rules, lang: str, sizes: list[tuple[int, int]], games: int
) -> list[str]:
    """Every position of ``games`` random games of ``rules``, at each size: what is cut."""
    app = ScoundrelApp(keeper, Words(lang), start=Setup(rules=rules, seed=1))
    problems = []
    found = list(positions(rules, games=games, seed=len(lang)))
    async with app.run_test(size=sizes[0]) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, TableScreen)
        screen.looking.pause()  # the positions are set here, not in the store
        for width, height in sizes:
            await pilot.resize_terminal(width, height)
            for game, chosen in found:
                screen.kept.game = game
                screen.chosen = chosen
                screen.redraw()
                await pilot.pause()
                if wrong := cut(screen):
                    moves = " ".join(move.token for move in game.moves)
                    problems.append(f"{lang} {width}×{height} [{moves}] {chosen}: {wrong}")
    return problems


@pytest.mark.parametrize("lang", LANGUAGES)
async def test_coop_fits_80x24_in_every_state(keeper: Keeper, lang: str) -> None:
    """The README's promise, issue 34 item 5: after a flee, with a weapon and its stack,
    the help card used, the final room, the end, a card chosen with every way to play it."""
    assert await shown_whole(keeper, Rules.coop(), lang, [(80, 24)], games=3) == []


@pytest.mark.parametrize("lang", LANGUAGES)
async def test_the_smallest_sizes_show_every_position(keeper: Keeper, lang: str) -> None:
    """At each of the table's smallest sizes, and at sizes where its layout changes (a
    longer run over more games: ``python tests/cli/fitting.py coop en,ru 56x32,80x24``)."""
    solo = [*SMALLEST_SOLO, (79, 22), (120, 24)]
    coop = [*SMALLEST_COOP[1:], (79, 32), (120, 24)]  # 80×24: the test above
    problems = await shown_whole(keeper, Rules.solo(), lang, solo, games=1)
    problems += await shown_whole(keeper, Rules.coop(), lang, coop, games=1)
    assert problems == []


async def test_a_small_terminal_asks_for_more_and_gives_the_table_back(keeper: Keeper) -> None:
    """Issue 34 item 3: 20×6 and 5×3 crashed the game; 40×15 showed one card. Now a
    notice names the size needed, only Q works meanwhile, and the table comes back."""
    app = ScoundrelApp(keeper, Words("en"), start=Setup(seed=3))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        game = app.screen
        for size in [(20, 6), (5, 3), (40, 15), (1, 1), (55, 40), (200, 21)]:
            await pilot.resize_terminal(*size)
            assert isinstance(app.screen, TooSmallScreen), size
            notice = app.screen.query_one("#too-small")
            lines = "\n".join(notice.notice_lines)  # type: ignore[attr-defined]
            assert "Make the terminal at least 56×22 to play." in lines
            assert f"It is {size[0]}×{size[1]} now." in lines
        await pilot.press("1", "b", "f")  # keys do nothing meanwhile
        assert not game.kept.game.moves  # type: ignore[attr-defined]
        await pilot.resize_terminal(56, 22)
        assert app.screen is game
        await pilot.resize_terminal(30, 10)
        await pilot.press("q")
    assert app.return_value == 0


async def test_the_coop_notice_names_the_nearer_size(keeper: Keeper) -> None:
    """Two heroes fit 80×24 beside the room, or 56×32 above it: the notice names the size
    nearer to the terminal's."""
    app = ScoundrelApp(keeper, Words("en"), start=Setup(rules=Rules.coop(), seed=3))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        for size, needed in [((79, 24), "80×24"), ((60, 28), "56×32"), ((100, 20), "80×24")]:
            await pilot.resize_terminal(*size)
            assert isinstance(app.screen, TooSmallScreen)
            assert needed in app.screen.query_one("#too-small").notice_lines[0]  # type: ignore[attr-defined]
        await pilot.resize_terminal(60, 32)
        assert isinstance(app.screen, TableScreen)


async def test_the_layout_follows_the_width(keeper: Keeper) -> None:
    """Narrow: the heroes side by side above the room. From 80 columns: beside it, one
    above the other. From 120: the move log in a column of its own, with the last move."""
    app = ScoundrelApp(keeper, Words("en"), start=Setup(rules=Rules.coop(), seed=3))
    async with app.run_test(size=(60, 32)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, TableScreen)
        one, two = screen.query_one("#hero-1"), screen.query_one("#hero-2")
        room = screen.query_one("#room")
        assert one.region.y == two.region.y and one.region.x < two.region.x
        assert room.region.y > one.region.bottom - 1
        assert not screen.query_one("#log").display
        await pilot.resize_terminal(80, 24)
        assert one.region.x == two.region.x and one.region.y < two.region.y
        assert room.region.x >= one.region.right
        await pilot.press("f")
        await pilot.resize_terminal(160, 40)
        log = screen.query_one("#log")
        assert log.display and log.region.x >= room.region.right
        assert "Hero 1 flees the room" in str(screen.query_one("#log-text").render())


#: Heroes whose panels are as tall as panels get: the longest stack a strict weapon can
#: hold (every rank from the ace down), its potion drunk; and a fallen hero.
LONGEST_STACK = tuple(Card(f"{rank}{'SC'[n % 2]}") for n, rank in enumerate("AKQJT98765432"))
WORST = (
    Hero(health=3, weapon=Card("TD"), stack=LONGEST_STACK, potion_used=True, reach=2),
    Hero(health=-9, weapon=Card("9D"), stack=LONGEST_STACK[:6], potion_used=True, reach=8),
)


@pytest.mark.parametrize("lang", LANGUAGES)
async def test_the_coop_side_panel_fits_24_rows(keeper: Keeper, lang: str) -> None:
    """Issue 36 item 3: the dungeon and both heroes, at their tallest (known cards under
    the dungeon after a flee, the longest weapon stacks, a fallen hero), fit beside the room
    at 80×24 and above it at 56×32 in every language, none of their lines cut."""
    app = ScoundrelApp(keeper, Words(lang), start=Setup(rules=Rules.coop(), seed=5))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, TableScreen)
        screen.looking.pause()
        await pilot.press("f")  # four known cards under the dungeon
        for size in [(80, 24), (56, 32), (120, 24)]:
            await pilot.resize_terminal(*size)
            for number, hero in enumerate(WORST, start=1):
                panel = screen.query_one(f"#hero-{number}", HeroPanel)
                panel.show(hero, panel.seen)  # type: ignore[arg-type]
            await pilot.pause()
            assert cut(screen) == [], (lang, size)
            for name in ("#dungeon", "#hero-1", "#hero-2"):
                widget = screen.query_one(name)
                shown = getattr(widget, "put_content", None) or widget.render()
                assert isinstance(shown, Text)
                lines = shown.wrap(app.console, widget.content_size.width)
                assert len(lines) <= widget.content_size.height, (lang, size, name, lines)
