"""A monkey at the keyboard (issue 34): random keys, every binding of every screen and
others, at random terminal sizes from 10×5 to 200×60, in solo and co-op, in a random
dungeon and the dungeon of the day, for 20,000 keys in all (seeded, so that a failure is
replayed by its seed). After every key: no exception, and the game in the store is the
game the table shows, card for card. Q, Ctrl+C and Ctrl+D leave; the monkey then starts
the program again on the same store, as a player would.

A longer run by hand: ``SCOUNDREL_MONKEY_KEYS=200000 pytest tests/cli/test_tui_monkey.py``
(the keys of each case).
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest
from textual import events
from textual.pilot import Pilot

from scoundrel.cli.effort import Effort
from scoundrel.cli.keep import Keeper
from scoundrel.cli.tui import ScoundrelApp
from scoundrel.cli.tui.app import Setup, TooSmallScreen
from scoundrel.cli.tui.table import RoomCard, TableScreen
from scoundrel.cli.words import Words
from scoundrel.core import Rules

pytestmark = pytest.mark.anyio

#: Every key the screens bind, and others that they do not.
KEYS = [
    *"1234567890",
    *"wbgfuhlaersnqcdpxyz",
    "enter",
    "escape",
    "question_mark",
    "ctrl+c",
    "ctrl+d",
    "ctrl+s",
    "tab",
    "shift+tab",
    "space",
    "up",
    "down",
    "left",
    "right",
    "pageup",
    "pagedown",
    "home",
    "end",
]
#: How often each kind of key comes: the game's own keys most.
WEIGHTS = {key: 1 for key in KEYS}
WEIGHTS.update({key: 8 for key in ("1", "2", "3", "4", "w", "b", "enter", "f")})
WEIGHTS.update({key: 3 for key in ("g", "u", "escape")})
WEIGHTS.update({key: 0.3 for key in ("h", "a")})
WEIGHTS.update({key: 0.1 for key in ("q", "ctrl+c", "ctrl+d")})  # a start costs a second
#: Keys of each case: 8 cases make the suite's 20,000.
CASE_KEYS = int(os.environ.get("SCOUNDREL_MONKEY_KEYS", "2500"))
#: The monkey thinks little: a hint or an analysis is cheap, but the real one.
CHEAP = Effort(playouts=1, best_seconds=0.2, review=False, give_up=0.5)


#: What a key types, where it types something (Textual's Key event carries it).
CHARACTERS = {"question_mark": "?", "space": " "}


async def press(pilot: Pilot[int], key: str) -> None:
    """Press ``key`` and wait until the app and its screen have handled it, as
    ``pilot.press`` does, but without its waits for the process to be idle (two sleeps of
    20 ms a key: four fifths of the time of 20,000 keys) unless the key opened or closed a
    screen. The key reaches the screen through the app, hence two rounds of waiting for
    every widget's queue to empty."""
    character = CHARACTERS.get(key, key if len(key) == 1 else None)
    stack = list(pilot.app.screen_stack)
    pilot.app.post_message(events.Key(key, character))
    await pilot._wait_for_screen()
    await pilot._wait_for_screen()
    if list(pilot.app.screen_stack) != stack:  # a screen opens or closes: until it has
        await pilot.pause()
        await pilot.pause()


def shown_and_kept(app: ScoundrelApp, keeper: Keeper) -> None:
    """The table's game is the store's, and the cards on screen are its room."""
    if not app.is_running:  # leaving (Q, Ctrl+C): the next start shows the game
        return
    tables = [screen for screen in app.screen_stack if isinstance(screen, TableScreen)]
    for table in tables:
        assert table.drawn or table is not app.screen, "the table on top is not drawn"
        kept = table.kept
        stored = keeper.store.load(kept.id)
        assert stored.moves == tuple(move.token for move in kept.game.moves), kept.id
        assert stored.undo_count == kept.stored.undo_count
        assert stored.status == kept.state.status.value
        seen = kept.state.observation(kept.state.leader)
        cards = [card.card for card in table.query(RoomCard)]
        assert cards == [*seen.room, *[None] * (4 - len(seen.room))], (cards, seen.room)


def size(rng: random.Random) -> tuple[int, int]:
    """A terminal's size: any, or one near the layouts' edges, or a common one."""
    draw = rng.random()
    if draw < 0.3:  # (the larger, the slower to draw: mostly up to 120 × 40)
        if rng.random() < 0.2:
            return rng.randint(10, 200), rng.randint(5, 60)
        return rng.randint(10, 120), rng.randint(5, 40)
    if draw < 0.6:
        return rng.choice([40, 49, 50, 55, 56, 60, 79, 80, 81, 119, 120]), rng.choice(
            [5, 11, 12, 19, 20, 23, 24, 29, 30, 40]
        )
    return rng.choice([(80, 24), (80, 24), (100, 30), (120, 40), (56, 22), (56, 32), (200, 60)])


@pytest.mark.parametrize(
    ("mode", "ruleset", "seed"),
    [
        ("random", "solo", 1),
        ("random", "coop", 2),
        ("daily", "solo", 3),
        ("daily", "coop", 4),
        ("random", "solo", 5),
        ("random", "coop", 6),
        ("daily", "solo", 7),
        ("random", "coop", 8),
    ],
)
async def test_random_keys_at_random_sizes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, mode: str, ruleset: str, seed: int
) -> None:
    monkeypatch.chdir(tmp_path)  # an exported record named by keys stays in here
    keeper = Keeper(f"sqlite:///{tmp_path / 'store.sqlite3'}")
    rules = Rules.from_options(ruleset)
    rng = random.Random(seed)
    keys = list(WEIGHTS)
    weights = list(WEIGHTS.values())
    start: Setup | None = Setup(mode=mode, rules=rules, seed=seed if mode == "random" else None)
    pressed = starts = 0
    screens: set[str] = set()
    history: list[str] = []  # the last keys and sizes, to say what led to a failure
    while pressed < CASE_KEYS:
        starts += 1
        app = ScoundrelApp(
            keeper, Words("en", ascii_only=rng.random() < 0.2), start=start, effort=CHEAP
        )
        start = None  # started again: the game in play is offered, or the new-game form
        first = size(rng)
        history.append(f"start {first}")
        try:
            async with app.run_test(size=first) as pilot:
                await pilot.pause()
                while pressed < CASE_KEYS and app.is_running:
                    small = isinstance(app.screen, TooSmallScreen)  # a player grows it soon
                    if rng.random() < (0.3 if small else 0.02):
                        resized = size(rng)
                        history.append(f"size {resized}")
                        await pilot.resize_terminal(*resized)
                    key = rng.choices(keys, weights)[0]
                    history.append(f"{key} on {type(app.screen).__name__}")
                    await press(pilot, key)
                    pressed += 1
                    screens.add(type(app.screen).__name__)
                    assert app.crashed is None, f"key {pressed} ({key}): {app.crashed}"
                    shown_and_kept(app, keeper)
                await app.workers.wait_for_complete()
        except BaseException as error:
            error.add_note("the last keys: " + ", ".join(history[-25:]))
            raise
    if CASE_KEYS < 2500:
        return  # a short run (by hand) need not go everywhere
    assert starts > 1, "the monkey never left the game"
    # it went everywhere a player goes
    assert {"TableScreen", "KeysScreen", "RulesScreen", "RecordsScreen"} <= screens, screens
    assert "NewGameScreen" in screens or "ResumeScreen" in screens, screens
    assert TooSmallScreen.__name__ in screens, screens
