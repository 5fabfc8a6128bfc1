"""Whether the full-screen table shows a position whole at a terminal size: every panel,
card, line of the prompt and action of the chosen card inside the screen, none cut by
another. The tests of sizes use it, and ``python tests/cli/fitting.py`` prints, for each
ruleset and language, the sizes where some position does not fit (to choose the table's
smallest sizes, :data:`~scoundrel.cli.tui.table.SMALLEST_SOLO` and ``_COOP``)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from textual.geometry import Region
from textual.widget import Widget

from scoundrel.core import Game, Rules, random_deal

#: The widgets a position needs to be seen whole (those displayed).
WHOLE = ("#title", "#dungeon", "#hero-1", "#hero-2", "#status", "#prompt", "#actions", "#keys")


def positions(rules: Rules, games: int = 6, seed: int = 0) -> Iterator[tuple[Game, int | None]]:
    """Positions of random games of ``rules`` (seeded), each with no card chosen and with
    the card of the room that has the most moves chosen; the ends of the games too."""
    rng = random.Random(seed)
    for number in range(games):
        game = Game(rules, random_deal(rules, seed * 1000 + number))
        while True:
            state = game.state
            if state.is_over:
                yield game, None
                break
            room = state.observation(state.leader).room
            counts = [sum(1 for m in state.legal_moves if m.card == card) for card in room]
            yield game, None
            if counts:
                yield game, counts.index(max(counts))
            moves = state.legal_moves
            game = _copy(game)
            game.play(rng.choice(moves))


def _copy(game: Game) -> Game:
    copy = Game(game.rules, game.deck)
    for move in game.moves:
        copy.play(move)
    return copy


def cut(screen: Any) -> list[str]:
    """The widgets of the table screen ``screen`` that are not shown whole: each as
    ``#id`` (and why)."""
    size = screen.app.size
    whole = Region(0, 0, size.width, size.height)
    problems = []
    regions: list[tuple[str, Region]] = []
    widgets: list[tuple[str, Widget]] = [(s, screen.query_one(s)) for s in WHOLE]
    widgets += [(f"#card-{n}", screen.query_one(f"#card-{n}")) for n in range(1, 5)]
    for name, widget in widgets:
        room_shown = screen.query_one("#room").display
        if not widget.display or (
            name.startswith("#card") and (widget.card is None or not room_shown)
        ):
            continue
        try:
            geometry = screen.find_widget(widget)
        except Exception:  # not on screen at all
            problems.append(f"{name} missing")
            continue
        region = geometry.region
        if not whole.contains_region(region) or not geometry.clip.contains_region(region):
            problems.append(f"{name} cut ({region} in {geometry.clip})")
        if name == "#actions" and widget.max_scroll_y > 0:
            problems.append(f"{name} scrolls")
        if (
            name in ("#prompt", "#status", "#dungeon")
            and widget.virtual_size.height > region.height
        ):
            problems.append(f"{name} taller than shown")
        regions.append((name, region))
    for index, (name, region) in enumerate(regions):
        for other, region2 in regions[index + 1 :]:
            if region.overlaps(region2) and region.area and region2.area:
                problems.append(f"{name} overlaps {other}")
    return problems


if __name__ == "__main__":  # pragma: no cover - a tool for choosing the smallest sizes
    import asyncio
    import sys
    import tempfile

    from scoundrel.cli.keep import Keeper
    from scoundrel.cli.tui import ScoundrelApp
    from scoundrel.cli.tui.app import Setup
    from scoundrel.cli.tui.table import TableScreen
    from scoundrel.cli.words import Words
    from scoundrel.i18n import LANGUAGES

    async def sweep(ruleset: str, lang: str, sizes: list[tuple[int, int]]) -> None:
        rules = Rules.from_options(ruleset)
        folder = tempfile.mkdtemp()
        keeper = Keeper(f"sqlite:///{folder}/fit.sqlite3")
        app = ScoundrelApp(keeper, Words(lang), start=Setup(rules=rules, seed=1))
        found = list(positions(rules))
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, TableScreen)
            screen.looking.pause()
            for width, height in sizes:
                await pilot.resize_terminal(width, height)
                bad = 0
                example = ""
                for game, chosen in found:
                    screen.kept.game = game
                    screen.chosen = chosen
                    screen.redraw()
                    await pilot.pause()
                    problems = cut(screen)
                    if problems:
                        bad += 1
                        example = (
                            example
                            or f"{game.moves[-3:] if game.moves else ''} {chosen}: {problems[:2]}"
                        )
                print(
                    f"{ruleset} {lang} {width}x{height}: {bad}/{len(found)} cut {example}",
                    flush=True,
                )

    ruleset = sys.argv[1]
    langs = sys.argv[2].split(",") if len(sys.argv) > 2 else list(LANGUAGES)
    sizes = [tuple(int(v) for v in s.split("x")) for s in sys.argv[3].split(",")]
    for lang in langs:
        asyncio.run(sweep(ruleset, lang, sizes))  # type: ignore[arg-type]
