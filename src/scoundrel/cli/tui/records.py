"""The records: per mode and ruleset, games, wins, best scores and streaks; the history;
the scores of the last games as a plot."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.widgets import DataTable, Static
from textual_plotext import PlotextPlot

from scoundrel.store.achievements import ACHIEVEMENTS

from .app import ScrollingPage, app_of


class RecordsScreen(ScrollingPage):
    """Your records, kept in the store with the browser's."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q,s", "close", show=False)]
    SCROLLER = "#records"

    def compose(self) -> ComposeResult:
        w = self.words
        with VerticalScroll(classes="page", id="records"):
            yield Static(w("records.title"), classes="page-title")
            yield Static(id="stats")
            yield Static(id="streak")
            yield PlotextPlot(id="plot")
            yield Static(w("ach.title"), classes="page-title")
            yield Static(id="achievements")
            yield Static(w("records.history"), classes="page-title")
            yield DataTable(id="history", show_cursor=False)
        yield Static(f"{self.scroll_keys()} · Esc {w('keys.close_button')}", id="keys")

    def on_mount(self) -> None:
        w = self.words
        keeper = app_of(self).keeper
        stats = keeper.stats()
        table = self.query_one("#stats", Static)
        plot = self.query_one("#plot", PlotextPlot)
        if not stats:
            table.display = False
            plot.display = False
            self.query_one("#streak", Static).update(w("records.none"))
        else:
            blocks = Text()
            for row in stats:
                best_alone = row["best_without_help"]
                blocks.append(
                    f"{w('mode.' + row['mode'])} · {w('ruleset.' + row['ruleset'])}\n",
                    style="bold",
                )
                figures = [
                    (w("records.played"), str(row["played"])),
                    (w("records.won"), str(row["won"])),
                    (w("records.win_rate"), w.percent(row["win_rate"])),
                    (w("records.best"), str(row["best"])),
                    (
                        w("records.best_without_help"),
                        "-" if best_alone is None else str(best_alone),
                    ),
                    (w("records.streak"), str(row["streak"])),
                    (w("records.longest_streak"), str(row["longest_streak"])),
                ]
                blocks.append(
                    "  " + " · ".join(w.labelled(name, str(value)) for name, value in figures)
                )
                blocks.append("\n")
            table.update(blocks)
            streak = keeper.streak("solo")
            self.query_one("#streak", Static).update(
                w.label(w("mode.daily")) + f"{w('daily.streak')} {streak['streak']} · "
                f"{w('daily.best_streak')} {streak['best_streak']} · "
                f"{w('daily.days_played')} {streak['played']}"
            )
        self.query_one("#achievements", Static).update(self.achievements())
        history = keeper.history(200)
        finished = [game for game in reversed(history) if game.score is not None]
        if finished:
            plt = plot.plt
            plt.title(w("records.histogram"))
            numbers = list(range(1, len(finished) + 1))
            scores = [float(game.score or 0) for game in finished]
            plt.plot(numbers, scores, marker="braille")
            plt.scatter(numbers, scores, marker="●" if not w.ascii_only else "o")
            low, high = int(min(scores)), int(max(scores))
            step = max(1, (high - low) // 4)
            plt.yticks([float(v) for v in range(low, high + 1, step)])  # whole scores
            plt.xticks([float(n) for n in numbers[:: max(1, len(numbers) // 8)]])  # whole games
            plt.xlabel(w("term.games_played"))
        history_table = self.query_one("#history", DataTable)
        history_table.add_columns(
            w("records.when"), w("records.mode"), w("records.result"), w("records.score")
        )
        for game in history[:50]:
            when = game.created_at.strftime("%Y-%m-%d %H:%M")
            what = w("mode." + game.mode) + w.sep + w("ruleset." + game.rules.ruleset)
            if game.loaded:  # brought from a record file: listed, never counted
                what += w.sep + w("records.loaded")
            history_table.add_row(
                when,
                what,
                w("status." + game.status),
                "" if game.score is None else str(game.score),
            )

    def achievements(self) -> Text:
        """Every achievement: earned ones with their day, the others still to earn."""
        w = self.words
        got = {entry["code"]: entry for entry in app_of(self).keeper.achievements()}
        lines = Text(w("ach.count", n=len(got), total=len(ACHIEVEMENTS)) + "\n")
        for achievement in ACHIEVEMENTS:
            mine = got.get(achievement.code)
            mark = ("+" if w.ascii_only else "✓") if mine else "·"
            lines.append(f"{mark} {w('ach.' + achievement.code)}", style="bold" if mine else "dim")
            how = w(f"ach.{achievement.code}.how")
            if achievement.fair:
                how += f" ({w('ach.fair')})"
            when = w("ach.earned_on", date=mine["earned_at"][:10]) if mine else w("ach.locked")
            lines.append(f" — {how} · {when}\n", style="" if mine else "dim")
        return lines
