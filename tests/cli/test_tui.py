"""``scoundrel play``, full screen: whole games by key presses (Textual's pilot), and every
screen reached from the table (issue 12)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import DataTable, OptionList, Static

from scoundrel.cli.keep import Keeper
from scoundrel.cli.tui import ScoundrelApp
from scoundrel.cli.tui.app import Setup
from scoundrel.cli.tui.table import TableScreen
from scoundrel.cli.words import Words
from scoundrel.core import Game, Move, Rules, daily_deal

SIZE = (80, 24)
pytestmark = pytest.mark.anyio


def table(app: ScoundrelApp) -> TableScreen:
    screen = app.screen
    assert isinstance(screen, TableScreen), type(screen).__name__
    return screen


def text_of(app: ScoundrelApp, selector: str) -> str:
    return str(app.screen.query_one(selector, Static).render())


def keys_for(move: Move, room: tuple[object, ...]) -> list[str]:
    """The keys a player presses for ``move``: its card's number, G to give, then W, B or
    Enter (F alone to flee)."""
    if move.card is None:
        return ["f"]
    keys = [str(room.index(move.card) + 1)]
    if move.help:
        keys.append("g")
    keys.append("w" if move.weapon else "b" if move.card.is_monster else "enter")
    return keys


async def play_out(pilot: Pilot[int], app: ScoundrelApp, choose: int = 0) -> list[Move]:
    """Play the table's game to its end by keys, always the ``choose``-th legal move."""
    played = []
    while not table(app).kept.state.is_over:
        state = table(app).kept.state
        move = state.legal_moves[min(choose, len(state.legal_moves) - 1)]
        before = len(table(app).kept.game.moves)
        await pilot.press(*keys_for(move, state.observation(state.leader).room))
        await pilot.pause()
        assert len(table(app).kept.game.moves) == before + 1, (move, text_of(app, "#prompt"))
        assert table(app).kept.game.moves[-1] == move
        played.append(move)
    return played


@pytest.mark.parametrize(
    ("rules", "seed", "choose"),
    [(Rules.solo(), 11, 0), (Rules.solo(), 12, 1), (Rules.coop(), 5, 0), (Rules.coop(), 6, 2)],
)
async def test_a_whole_game_by_keys_is_kept_in_the_store(
    keeper: Keeper, rules: Rules, seed: int, choose: int
) -> None:
    app = ScoundrelApp(keeper, Words("en"), start=Setup(rules=rules, seed=seed))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        played = await play_out(pilot, app, choose)
        kept = table(app).kept
        assert kept.state.is_over
        prompt = text_of(app, "#prompt")
        assert ("The dungeon is cleared!" in prompt) or ("claims another hero" in prompt)
        assert "Score:" in prompt
    stored = keeper.store.load(kept.id)
    assert stored.moves == tuple(move.token for move in played)
    assert stored.status == kept.state.status.value
    assert stored.score == kept.state.score


async def test_keys_refuse_what_the_rules_refuse(keeper: Keeper) -> None:
    """A monster with W and no weapon, or Enter on a monster with two ways, plays nothing
    and says why; F twice in a row is refused by the flee rule (S5)."""
    app = ScoundrelApp(keeper, Words("en"), start=Setup(seed=11))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        state = table(app).kept.state
        room = state.observation(1).room
        monster = next(i for i, card in enumerate(room) if card.is_monster)
        await pilot.press(str(monster + 1), "w")
        await pilot.pause()
        assert not table(app).kept.game.moves
        assert "No weapon equipped." in text_of(app, "#prompt")
        await pilot.press("escape", "f")
        await pilot.pause()
        assert [m.token for m in table(app).kept.game.moves] == ["F"]
        await pilot.press("f")
        await pilot.pause()
        assert len(table(app).kept.game.moves) == 1
        assert "You fled the last room" in text_of(app, "#prompt")


async def test_the_actions_show_each_moves_effect_before_it_is_played(keeper: Keeper) -> None:
    """Choosing a card lists its moves with the core's preview (damage, health after)."""
    app = ScoundrelApp(keeper, Words("en"), start=Setup(seed=11))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        state = table(app).kept.state
        room = state.observation(1).room
        monster = next(i for i, card in enumerate(room) if card.is_monster)
        await pilot.press(str(monster + 1))
        await pilot.pause()
        options = app.screen.query_one("#actions", OptionList)
        labels = [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]
        value = room[monster].value
        assert any(f"bare-handed: −{value}, health {20 - value}" in label for label in labels)
        assert "[F] Flee the room" in labels


async def test_undo_and_hint(keeper: Keeper) -> None:
    app = ScoundrelApp(keeper, Words("en"), start=Setup(seed=12))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        first = table(app).kept.state.legal_moves[0]
        state = table(app).kept.state
        await pilot.press(*keys_for(first, state.observation(1).room))
        await pilot.press("u")
        await pilot.pause()
        assert not table(app).kept.game.moves
        assert "Move taken back." in text_of(app, "#prompt")
        assert keeper.store.load(table(app).kept.id).undo_count == 1
        await pilot.press("h")
        await app.workers.wait_for_complete()
        await pilot.pause()
        advice = text_of(app, "#advice-text")
        assert "Chances to win" in advice and "%" in advice
        assert keeper.store.load(table(app).kept.id).hint_count == 1


async def test_the_daily_is_dated_public_and_has_no_undo(keeper: Keeper) -> None:
    """M2: the terminal's dungeon of the day is the deal ``scoundrel deal --daily`` prints."""
    app = ScoundrelApp(keeper, Words("en"), start=Setup(mode="daily"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        kept = table(app).kept
        today = dt.date.today()
        assert kept.game.deck == daily_deal(Rules.solo(), today)
        assert f"Dungeon of the day: {today.isoformat()}" in text_of(app, "#title")
        state = kept.state
        await pilot.press(*keys_for(state.legal_moves[0], state.observation(1).room), "u")
        await pilot.pause()
        assert len(kept.game.moves) == 1
        assert "The dungeon of the day has no undo." in text_of(app, "#prompt")


async def test_a_game_in_play_is_offered_on_the_next_start(keeper: Keeper) -> None:
    """Quit any way: the next start offers the game, and C continues it where it was."""
    kept = keeper.start("random", Rules.coop(), seed=3)
    for _ in range(4):  # the safest moves: the game is still on after them
        state = kept.state
        kept.play(
            max(state.legal_moves, key=lambda m: min(h.health for h in state.preview(m).heroes))
        )
    assert not kept.state.is_over
    app = ScoundrelApp(keeper, Words("en"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert type(app.screen).__name__ == "ResumeScreen"
        assert "4 moves" in str(app.screen.query(Static)[1].render())
        await pilot.press("c")
        await pilot.pause()
        assert table(app).kept.id == kept.id
        assert table(app).kept.game.moves == kept.game.moves


async def test_a_new_game_from_the_form(keeper: Keeper) -> None:
    """N on the table opens the form; co-op with the harder variant deals 54 cards."""
    app = ScoundrelApp(keeper, Words("en"), start=Setup(seed=1))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("n")
        await pilot.pause()
        await pilot.click("#coop")
        await pilot.click("#harder")
        await pilot.press("ctrl+s")
        await pilot.pause()
        kept = table(app).kept
        assert kept.state.rules.coop_game and kept.state.rules.harder
        assert len(kept.game.deck) == 54
        assert "Hero 1" in str(app.screen.query_one("#hero-1", Static).border_title)


async def test_a_day_to_come_is_refused_on_the_form(keeper: Keeper) -> None:
    app = ScoundrelApp(keeper, Words("en"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.click("#daily")
        day = app.screen.query_one("#day")
        day.value = (dt.date.today() + dt.timedelta(days=3)).isoformat()  # type: ignore[attr-defined]
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert "This day has not come yet." in text_of(app, "#refusal")
        assert keeper.unfinished() is None


async def test_rules_examples_play_step_by_step(keeper: Keeper) -> None:
    app = ScoundrelApp(keeper, Words("ru"), start=Setup(seed=1))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("r")
        await pilot.pause()
        box = app.screen.query_one("#example-wear", Static)
        box.focus()
        await pilot.press("right", "right", "right")
        await pilot.pause()
        shown = str(box.render())
        assert "Шаг 3 из 3" in shown
        assert "✕" in shown  # the refused 10♠ with the worn weapon
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, TableScreen)


async def test_records_after_a_finished_game(keeper: Keeper) -> None:
    app = ScoundrelApp(keeper, Words("en"), start=Setup(seed=11))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await play_out(pilot, app)
        await pilot.press("s")
        await pilot.pause()
        stats = str(app.screen.query_one("#stats", Static).render())
        assert "Random dungeon · Solo" in stats and "Finished: 1" in stats
        history = app.screen.query_one("#history", DataTable)
        assert history.row_count == 1
        # every achievement, each earned one with its day (issue 39)
        shown = str(app.screen.query_one("#achievements", Static).render())
        earned = keeper.achievements()
        assert f"{len(earned)} of 22 earned" in shown
        assert shown.count("✓") == len(earned) and shown.count("·") >= 22 - len(earned)
        for entry in earned:
            assert f"earned {entry['earned_at'][:10]}" in shown


async def test_analysis_can_be_cancelled_and_run(keeper: Keeper) -> None:
    """A fast death (every monster bare-handed) makes a short game to analyse."""
    app = ScoundrelApp(keeper, Words("en"), start=Setup(seed=11))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("a")
        await pilot.pause()
        assert "A game is analysed once it is over." in text_of(app, "#prompt")
        kept = table(app).kept
        while not kept.state.is_over:
            state = kept.state
            fights = [m for m in state.legal_moves if m.card and m.card.is_monster and not m.help]
            move = max(fights or state.legal_moves, key=lambda m: m.card.value if m.card else 0)
            await pilot.press(*keys_for(move, state.observation(1).room))
            await pilot.pause()
        await pilot.press("a")
        await pilot.pause()
        await pilot.press("escape")  # cancelled: back at the table at once
        await pilot.pause()
        assert isinstance(app.screen, TableScreen)
        await pilot.press("a")
        await app.workers.wait_for_complete()
        await pilot.pause()
        shown = text_of(app, "#analysis")
        assert "This deal could" in shown and "Best possible score" in shown


async def test_the_table_fits_80_by_24(keeper: Keeper) -> None:
    """Every panel stays inside an 80x24 screen, co-op with a card chosen included."""
    app = ScoundrelApp(keeper, Words("de"), start=Setup(rules=Rules.coop(), seed=2))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("1")
        await pilot.pause()
        for selector in ("#title", "#dungeon", "#card-4", "#prompt", "#actions", "#keys"):
            region = app.screen.query_one(selector).region
            assert region.right <= 80 and region.bottom <= 24, (selector, region)
        assert app.screen.query_one("#keys").region.y == 23
        assert len(str(app.screen.query_one("#keys", Static).render())) <= 80


def test_a_loaded_record_is_kept_like_any_game(keeper: Keeper) -> None:
    game = Game(Rules.solo(), daily_deal(Rules.solo(), "2026-11-01"))
    for _ in range(3):
        game.play(game.legal_moves[0])
    kept = keeper.bring(game)
    assert keeper.store.load(kept.id).moves == tuple(m.token for m in game.moves)
    assert kept.state == game.state


# ---------------------------------------------------------------------- issue 34


async def test_g_without_a_partner_or_a_help_card_says_why(keeper: Keeper) -> None:
    """Issue 34, item 1: G crashed the game where nothing could be given (solo, and in
    co-op once the room's help card was used). Now it says why and plays nothing."""
    app = ScoundrelApp(keeper, Words("en"), start=Setup(seed=3))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("4", "g")
        await pilot.pause()
        assert "Cards are given to the partner, in co-op." in text_of(app, "#prompt")
        assert not table(app).kept.game.moves
    app = ScoundrelApp(keeper, Words("en"), start=Setup(rules=Rules.coop(), seed=3))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("1", "g", "enter")  # the help card of this room, given (C5)
        await pilot.pause()
        assert [m.token for m in table(app).kept.game.moves] == [">2S/b"]
        await pilot.press("2", "g")
        await pilot.pause()
        assert "Only one card per room can go to the partner." in text_of(app, "#prompt")
        assert len(table(app).kept.game.moves) == 1


@pytest.mark.parametrize("key", ["w", "b", "enter", "g"])
async def test_a_way_to_play_without_a_card_says_to_choose_one(keeper: Keeper, key: str) -> None:
    """Issue 34, item 7: W, B, Enter and G without a chosen card did nothing silently."""
    app = ScoundrelApp(keeper, Words("en"), start=Setup(rules=Rules.coop(), seed=3))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press(key)
        await pilot.pause()
        assert "Choose a card first (1–4)." in text_of(app, "#prompt")
        assert not table(app).kept.game.moves


async def test_the_prompt_says_only_what_the_room_allows(keeper: Keeper) -> None:
    """Issue 34, item 6: "Choose a card (keys 1–4) or flee." stood beside "this one must
    be faced" and with two cards left. The prompt now follows the core: the keys of the
    cards there are, and fleeing only where the room may be fled."""
    app = ScoundrelApp(keeper, Words("en"), start=Setup(seed=11))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert "Choose a card (1–4) or flee (F)." in text_of(app, "#prompt")
        await pilot.press("f")
        await pilot.pause()
        assert "Choose a card (1–4)." in text_of(app, "#prompt")
        assert "flee" not in text_of(app, "#prompt")
        assert "You fled the last room" in text_of(app, "#status")
        kept = table(app).kept
        state = kept.state
        move = next(m for m in state.legal_moves if m.card and not m.card.is_monster)
        await pilot.press(*keys_for(move, state.observation(1).room))
        await pilot.pause()
        assert "Choose a card (1–3)." in text_of(app, "#prompt")


async def test_ctrl_d_leaves_and_keeps_the_game(keeper: Keeper) -> None:
    """The README lists Ctrl+D among the ways to leave: it did nothing full screen."""
    app = ScoundrelApp(keeper, Words("en"), start=Setup(seed=11))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("f", "ctrl+d")
        await pilot.pause()
    assert app.return_value == 0
    waiting = keeper.unfinished()
    assert waiting is not None and [m.token for m in waiting.game.moves] == ["F"]


async def test_the_move_log(keeper: Keeper) -> None:
    """Issue 34, item 6: each move with what it did ("You slay 7♠ with 9♦: −0"), on L
    and, from 120 columns, beside the table; an undone move leaves it."""
    app = ScoundrelApp(keeper, Words("en"), start=Setup(seed=11))
    async with app.run_test(size=(120, 30)) as pilot:
        await pilot.pause()
        kept = table(app).kept
        played = []
        for _ in range(3):
            state = kept.state
            move = state.legal_moves[0]
            played.append(app.words.played(state, move))
            await pilot.press(*keys_for(move, state.observation(1).room))
            await pilot.pause()
        log = text_of(app, "#log-text")
        assert [line.split(". ", 1)[1] for line in log.splitlines()] == played
        assert any(line.startswith(("You slay", "You take up", "You drink")) for line in played)
        await pilot.press("u")
        await pilot.pause()
        assert len(text_of(app, "#log-text").splitlines()) == 2
        await pilot.press("l")
        await pilot.pause()
        assert type(app.screen).__name__ == "LogScreen"
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, TableScreen)


def test_the_log_says_what_each_kind_of_move_did() -> None:
    """The log's words come from the core's preview of each move (damage, healing)."""
    words = Words("en")
    game = Game(Rules.solo(), seed=44)
    lines = {move.token: words.played(game.state, move) for move in game.legal_moves}
    assert lines == {
        "10D": "You take up 10♦",
        "JC/b": "You slay J♣ bare-handed: −11",
        "5S/b": "You slay 5♠ bare-handed: −5",
        "7D": "You take up 7♦",
        "F": "You flee the room",
    }
    game.play("10D")
    assert words.played(game.state, game.parse("JC/w")) == "You slay J♣ with 10♦: −1"
    coop = Game(Rules.coop(), seed=3).state
    assert words.played(coop, game.parse(">2S/b")) == (
        "Hero 2 slays 2♠ bare-handed: −2 (given by Hero 1)"
    )


async def test_an_export_is_said_in_full_under_the_table(keeper: Keeper, tmp_path: Path) -> None:
    """Issue 34, item 7: the export's notice covered the end menu and broke the path. Now
    the table says where it went, under the room, the path whole; a folder that does not
    exist is not made."""
    app = ScoundrelApp(keeper, Words("en"), start=Setup(seed=11))
    target = tmp_path / "saved.json"
    async with app.run_test(size=(120, 30)) as pilot:
        await pilot.pause()
        await pilot.press("e")
        await pilot.pause()
        field = app.screen.query_one("#path")
        field.value = str(tmp_path / "no" / "such" / "x.json")  # type: ignore[attr-defined]
        await pilot.press("enter")
        await pilot.pause()
        assert "No such file or directory" in str(app.screen.query_one("#export-note").render())
        assert not (tmp_path / "no").exists()
        field.value = str(target)  # type: ignore[attr-defined]
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, TableScreen)
        assert f"Saved the record to {target}" in " ".join(text_of(app, "#prompt").split())
    assert target.exists()


async def test_a_game_from_a_file_is_marked_and_never_counted(keeper: Keeper) -> None:
    """Issue 34, item 7: a record finished by hand from the solver's line counted as a
    clean win. A game brought from a file is listed, marked, and left out of the records."""
    game = Game(Rules.solo(), seed=11)
    for _ in range(2):
        game.play(game.legal_moves[0])
    kept = keeper.bring(game)
    assert kept.stored.loaded
    while not kept.state.is_over:
        kept.play(kept.state.legal_moves[0])
    assert keeper.stats() == []
    app = ScoundrelApp(keeper, Words("en"), start=kept)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert "(from a file)" in text_of(app, "#title")
        await pilot.press("s")
        await pilot.pause()
        history = app.screen.query_one("#history", DataTable)
        assert "from a file" in str(history.get_row_at(0)[1])
        assert "No finished games yet" in text_of(app, "#streak")


async def test_the_form_says_what_a_past_day_allows(keeper: Keeper) -> None:
    """Issue 34, item 6: the form said a past day had "no undo, one scored attempt"."""
    app = ScoundrelApp(keeper, Words("en"), today=lambda: dt.date(2026, 12, 3))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.click("#daily")
        await pilot.pause()
        assert "no undo, one scored attempt" in text_of(app, "#daily-note")
        app.screen.query_one("#day").value = "2026-11-24"  # type: ignore[attr-defined]
        await pilot.pause()
        note = text_of(app, "#daily-note")
        assert "with undo, unranked" in note and "one scored attempt" not in note


async def test_a_daily_in_play_when_its_day_ends_is_closed(tmp_path: Path) -> None:
    """The table looks at its game every second: once the local day ends, the attempt at
    its dungeon is closed as it stood, the table says so, offers a new game, and a move or
    a hint is refused the same way (nothing is written)."""
    days = [dt.date(2026, 11, 29)]
    keeper = Keeper(f"sqlite:///{tmp_path / 'store.sqlite3'}", today=lambda: days[0])
    app = ScoundrelApp(keeper, Words("en"), start=Setup(mode="daily"), today=lambda: days[0])
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        kept = table(app).kept
        state = kept.state
        await pilot.press(*keys_for(state.legal_moves[0], state.observation(1).room))
        await pilot.pause()
        days[0] = dt.date(2026, 11, 30)  # midnight
        table(app).look()
        await pilot.pause()
        prompt = text_of(app, "#prompt")
        assert "The day of this dungeon is over" in prompt
        assert "The day ended before the dungeon did." in prompt
        assert "N " in text_of(app, "#keys") and "A " not in text_of(app, "#keys")
        await pilot.press("h")
        await pilot.pause()
        assert "The day of this dungeon is over" in text_of(app, "#prompt")
        state = kept.state
        await pilot.press(*keys_for(state.legal_moves[0], state.observation(1).room))
        await pilot.pause()
        assert "The day of this dungeon is over" in text_of(app, "#prompt")
    stored = keeper.store.load(kept.id)
    assert (stored.status, len(stored.moves)) == ("closed", 1)


async def test_a_hint_asked_just_before_the_last_move_is_for_its_own_position(
    keeper: Keeper, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The monkey found it: H, then B on the move that ends the game, before the hint's
    thread began. The thread read the position when it began, found the game over and
    failed (WorkerFailed). A hint is for the position it was asked at, and its answer is
    dropped once the game has moved on."""
    import threading

    import scoundrel.cli.tui.table as table_module

    kept = keeper.start("random", Rules.solo(), seed=7)
    while not any(kept.state.preview(m).status != "playing" for m in kept.state.legal_moves):
        state = kept.state  # the safest move, until one move can end the game
        kept.play(max(state.legal_moves, key=lambda m: state.preview(m).heroes[0].health))
    ending = next(m for m in kept.state.legal_moves if kept.state.preview(m).status != "playing")
    started, release = threading.Event(), threading.Event()
    real = table_module.get_current_worker

    def late() -> object:  # the hint's thread begins only after the next move
        started.set()
        release.wait(30)
        return real()

    monkeypatch.setattr(table_module, "get_current_worker", late)
    app = ScoundrelApp(keeper, Words("en"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("c")
        await pilot.pause()
        await pilot.press("h")
        assert started.wait(10)
        state = table(app).kept.state
        await pilot.press(*keys_for(ending, state.observation(1).room))
        await pilot.pause()
        assert table(app).kept.state.is_over
        release.set()
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert app.is_running and app.return_code is None
    assert keeper.store.load(kept.id).hint_count == 0  # its answer came too late to count


async def test_a_frail_relentless_game_from_the_form_shows_its_health_everywhere(
    keeper: Keeper,
) -> None:
    """V1, V2 chosen on the form by keys: the hero starts on 14 of 14, no panel ever shows
    more, the title names both variants, and F is refused naming Relentless."""
    app = ScoundrelApp(keeper, Words("en"), start=Setup(seed=1))
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        await pilot.press("n")
        await pilot.pause()
        await pilot.click("#variant-health")
        await pilot.pause()
        await pilot.press(*["down"] * 6, "enter")  # 20, 19, … 14
        await pilot.pause()
        await pilot.click("#variant-flee")
        await pilot.pause()
        await pilot.press("down", "enter")
        await pilot.pause()
        await pilot.press("ctrl+s")
        await pilot.pause()
        kept = table(app).kept
        assert kept.state.rules == Rules.solo(flee="never", health=14)
        assert "14/14" in text_of(app, "#hero-1")
        title = text_of(app, "#title")
        assert "Fleeing: never (Relentless)" in title and "Health: 14 (Frail)" in title
        await pilot.press("f")
        await pilot.pause()
        assert not kept.game.moves
        assert "No room may be fled in this game (Relentless)." in text_of(app, "#prompt")
        while not table(app).kept.state.is_over:
            state = table(app).kept.state
            move = state.legal_moves[0]
            await pilot.press(*keys_for(move, state.observation(state.leader).room))
            await pilot.pause()
            shown = text_of(app, "#hero-1")
            assert f"{state.apply(move).hero(1).health}/14" in shown, shown
    stored = keeper.store.load(kept.id)
    assert stored.rules == Rules.solo(flee="never", health=14)
