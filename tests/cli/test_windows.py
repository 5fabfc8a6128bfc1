"""One state for every window (issue 34): two terminals on one data folder, or a terminal
beside another program of the same store, never play on or take back a move the other
showed and this one did not.

The store refuses a move, an undo or a hint made on a position the game has left (its
moves and undos); a terminal game then shows the game as it stands. Here: the full-screen
table beside another window of the same game (in this process), and two line games in
two processes of their own, driven through interleaved moves, undos and reloads against a
model of what each window last showed.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from scoundrel.cli.effort import Effort
from scoundrel.cli.keep import Keeper
from scoundrel.cli.tui import ScoundrelApp
from scoundrel.cli.tui.app import Setup
from scoundrel.cli.tui.table import TableScreen
from scoundrel.cli.words import Words
from scoundrel.core import Game, Rules, random_deal
from scoundrel.store.games import Conflict

pytestmark = pytest.mark.anyio
MOVED_ON = "The game moved on in another window: here it is as it stands now."


@pytest.fixture
def store_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'store.sqlite3'}"


def table(app: ScoundrelApp) -> TableScreen:
    screen = app.screen
    assert isinstance(screen, TableScreen), type(screen).__name__
    return screen


def prompt(app: ScoundrelApp) -> str:
    return str(app.screen.query_one("#prompt").render())


# ---------------------------------------------------------------------- the keeper


def test_an_undo_from_a_stale_window_is_refused(store_url: str) -> None:
    """Two copies of one game (two windows): B's undo of the position it showed is refused
    once A has moved, and A's move stays; B then reads the game as it stands."""
    a = Keeper(store_url)
    kept_a = a.start("random", Rules.solo(), seed=3)
    kept_b = Keeper(store_url).resume(kept_a.id)
    kept_a.play(kept_a.state.legal_moves[0])
    with pytest.raises(Conflict) as refused:
        kept_b.undo()
    assert refused.value.reason == "stale_position"
    assert len(a.store.load(kept_a.id).moves) == 1
    assert kept_b.refresh() is True
    assert kept_b.game.moves == kept_a.game.moves


def test_a_move_count_alone_would_be_fooled(store_url: str) -> None:
    """A undoes and plays another move: the move count is back where B saw it, but B's
    position is gone (one undo more), so B's undo and B's move are refused."""
    keeper = Keeper(store_url)
    kept_a = keeper.start("random", Rules.solo(), seed=3)
    kept_a.play(kept_a.state.legal_moves[0])
    kept_b = keeper.resume(kept_a.id)
    kept_a.undo()
    kept_a.play(kept_a.state.legal_moves[-1])
    assert len(kept_b.game.moves) == len(kept_a.game.moves)
    for act in (kept_b.undo, lambda: kept_b.play(kept_b.state.legal_moves[0])):
        with pytest.raises(Conflict):
            act()
    assert keeper.store.load(kept_a.id).moves == tuple(m.token for m in kept_a.game.moves)


def test_a_hint_for_a_position_left_is_not_counted(store_url: str) -> None:
    keeper = Keeper(store_url)
    kept_a = keeper.start("random", Rules.solo(), seed=3)
    kept_b = keeper.resume(kept_a.id)
    asked_at = kept_b.position
    kept_a.play(kept_a.state.legal_moves[0])
    with pytest.raises(Conflict):
        kept_b.count_hint(asked_at)
    assert keeper.store.load(kept_a.id).hint_count == 0


# ---------------------------------------------------------------------- the full screen


async def test_the_table_follows_another_window(store_url: str) -> None:
    """Another window plays: the table shows it by itself (it looks every second), and
    says so; nothing is taken back."""
    keeper = Keeper(store_url)
    app = ScoundrelApp(keeper, Words("en"), start=Setup(seed=11))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        other = Keeper(store_url).resume(table(app).kept.id)
        move = other.state.legal_moves[0]
        other.play(move)
        table(app).look()  # what its timer does every second
        await pilot.pause()
        assert table(app).kept.game.moves == (move,)
        assert MOVED_ON in prompt(app)
        seen = table(app).kept.state.observation(1).room
        assert [card.card for card in table(app).query("RoomCard")][: len(seen)] == list(seen)


async def test_keys_on_a_stale_table_change_nothing_and_show_the_game(store_url: str) -> None:
    """Issue 34, item 2: A plays; B's next move is refused and B then shows A's position
    (no dead end: B's following move is played); B's U does not take back A's move."""
    keeper = Keeper(store_url)
    app = ScoundrelApp(keeper, Words("en"), start=Setup(seed=11))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = table(app)
        screen.looking.pause()  # a stale window: it has not looked yet
        other = Keeper(store_url).resume(screen.kept.id)
        theirs = other.state.legal_moves[0]
        other.play(theirs)
        await pilot.press("f")  # fleeing was legal on the position shown
        await pilot.pause()
        stored = keeper.store.load(screen.kept.id)
        assert stored.moves == (theirs.token,)
        assert MOVED_ON in prompt(app)
        assert screen.kept.game.moves == (theirs,)
        await pilot.press("u")  # now the game as it stands: its own undo is allowed
        await pilot.pause()
        assert keeper.store.load(screen.kept.id).moves == ()
        other_view = other.game.moves
        assert other_view == (theirs,)
        # the other window, stale now, cannot take back a move it no longer sees
        with pytest.raises(Conflict):
            other.undo()


# ---------------------------------------------------------------------- two line games


class Window:
    """``scoundrel play --plain`` in a process of its own, driven line by line."""

    def __init__(self, data: Path, args: list[str], answer: str | None) -> None:
        env = {**os.environ, "XDG_DATA_HOME": str(data), "LANG": "C.UTF-8", "COLUMNS": "80"}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "scoundrel", "play", "--plain", *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            env=env,
        )
        self.out = b""
        self.lock = threading.Lock()
        threading.Thread(target=self._read, daemon=True).start()
        if answer is not None:
            self.until("Continue it?")
            self.send(answer, wait=False)
        self.until("\n> ")

    def _read(self) -> None:
        assert self.process.stdout is not None
        while chunk := os.read(self.process.stdout.fileno(), 65536):
            with self.lock:
                self.out += chunk

    def until(self, marker: str, start: int = 0, timeout: float = 30) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self.lock:
                text = self.out[start:].decode()
            if marker in text:
                return text
            time.sleep(0.01)
        raise AssertionError(f"no {marker!r} in {self.out[start:].decode()[-2000:]!r}")

    def send(self, line: str, wait: bool = True) -> str:
        """Type ``line``; what the game answered, up to its next prompt."""
        start = len(self.out)
        assert self.process.stdin is not None
        self.process.stdin.write((line + "\n").encode())
        self.process.stdin.flush()
        return self.until("\n> ", start) if wait else ""

    def close(self) -> int:
        stdin = self.process.stdin
        if self.process.poll() is None and stdin is not None:
            stdin.write(b"quit\n")
            stdin.close()
        return self.process.wait(20)


def test_two_line_games_interleaved(tmp_path: Path) -> None:
    """Two terminals play one game through 40 interleaved moves, undos and reloads: each
    move or undo is done only on the position its window showed; otherwise the window says
    the game moved on, shows it, and the store is unchanged. The store never loses a move,
    nor loses one to an undo its window had not shown."""
    data = tmp_path / "data"
    rules = Rules.solo()
    seed = 44
    first = Window(data, ["--seed", str(seed)], None)
    second = Window(data, [], "yes")
    windows = {"A": first, "B": second}
    keeper = Keeper(f"sqlite:///{data / 'scoundrel' / 'scoundrel.sqlite3'}")
    current = keeper.store.current(keeper.player)
    assert current is not None
    game_id = current.id
    deck = random_deal(rules, seed)
    stored = keeper.store.load(game_id)
    position = (stored.moves, stored.undo_count)  # the store's, by the model
    shown = {"A": position, "B": position}  # what each window showed last
    rng = random.Random(7)
    refusals = 0
    try:
        for _ in range(40):
            name = rng.choice("AB")
            window = windows[name]
            game = Game(rules, deck)
            for token in shown[name][0]:
                game.play(token)
            action = rng.choices(["move", "undo", "reload"], [5, 3, 1])[0]
            if game.is_over and action == "move":
                action = "reload"
            if action == "move":
                number = rng.randint(1, len(game.legal_moves))
                answer = window.send(str(number))
                move = game.legal_moves[number - 1].token
                if shown[name] == position:
                    position = ((*position[0], move), position[1])
                else:
                    assert MOVED_ON in answer, answer
                    refusals += 1
            elif action == "undo":
                answer = window.send("undo")
                if shown[name] != position:
                    assert MOVED_ON in answer, answer
                    refusals += 1
                elif position[0] and not game.is_over:
                    position = (position[0][:-1], position[1] + 1)
                    assert "Took back" in answer, answer
            else:
                window.send("reload")
            shown[name] = position  # a window shows the game as it stands after acting
            stored = keeper.store.load(game_id)
            assert (stored.moves, stored.undo_count) == position
        assert refusals > 0, "the windows never got in each other's way"
    finally:
        assert first.close() == 0
        assert second.close() == 0


# ---------------------------------------------------------------------- the effort of hints


async def test_a_hint_asked_before_another_window_moved_is_dropped(store_url: str) -> None:
    """The table asks for a hint; another window moves meanwhile: the hint is not shown
    (it was for a position left) and not counted."""
    keeper = Keeper(store_url)
    app = ScoundrelApp(
        keeper, Words("en"), start=Setup(seed=11), effort=Effort(playouts=4, review=False)
    )
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = table(app)
        screen.looking.pause()
        other = Keeper(store_url).resume(screen.kept.id)
        here = screen.kept.position
        other.play(other.state.legal_moves[0])
        from scoundrel.solver import hint

        advice = hint(screen.kept.state.observation(1), bot=Effort(playouts=4).bot())
        screen.show_hint(advice, here)
        await pilot.pause()
        assert keeper.store.load(screen.kept.id).hint_count == 0
        assert "Chances to win" not in str(screen.query_one("#advice-text").render())
