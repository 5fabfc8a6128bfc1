"""Achievements (issue 39): decided by replaying a game's record through the core when it
ends, kept once per player, never for a game that took back moves or asked for hints where
the achievement says so, never for a game brought from a record file, and carried to
another device with the player's games."""

from __future__ import annotations

import datetime
import json
from collections.abc import Callable
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from test_api import new_game, play_to_end

from conftest import TODAY, Clock
from scoundrel.core import Move, Record, Rules, State, random_deal
from scoundrel.i18n import LANGUAGES, catalog
from scoundrel.solver import solve
from scoundrel.store import GameStore, connect
from scoundrel.store.achievements import ACHIEVEMENTS, BY_CODE, decide

SOLO = Rules.solo()


def best_line(rules: Rules, seed: int) -> Record:
    deck = random_deal(rules, seed)
    line = solve(State.new(rules, deck), best=True).line
    return Record(rules, deck, line)


def stacked(rules: Rules, top: list[str], tokens: list[str]) -> Record:
    """A record whose dungeon starts with the cards ``top`` and plays ``tokens``."""
    deck = [card for card in random_deal(rules, 0) if card.code not in top]
    first = [next(card for card in rules.cards if card.code == code) for code in top]
    return Record(rules, (*first, *deck), tuple(Move(token) for token in tokens))


def test_there_are_twenty_achievements_each_named_in_every_language() -> None:
    assert len(ACHIEVEMENTS) >= 20
    assert len(BY_CODE) == len(ACHIEVEMENTS)
    for lang in LANGUAGES:
        words = catalog(lang)
        for achievement in ACHIEVEMENTS:
            assert words.get(f"ach.{achievement.code}"), (lang, achievement.code)
            assert words.get(f"ach.{achievement.code}.how"), (lang, achievement.code)


def test_a_perfect_win_earns_its_achievements_only_when_fair() -> None:
    record = best_line(SOLO, 7)  # the solver's best: 30, full health with the potion bonus
    end = record.replay().state
    assert end.score == 30
    fair = decide(record, fair=True, daily=False)
    assert {"first_win", "clean_win", "untouched", "high_score"} <= fair
    assert "last_breath" not in fair and "daily_win" not in fair
    # with an undo or a hint: only what does not ask for a fair game
    assert decide(record, fair=False, daily=True) == {"first_win", "daily_win"}


def test_slaying_an_ace_with_a_small_weapon_and_a_king_bare_handed() -> None:
    ace = stacked(SOLO, ["2D", "AS", "3C", "5C"], ["2D", "AS/w"])
    assert ace.replay().state.heroes[0].health == 20 - (14 - 2)
    assert decide(ace, fair=True, daily=False) == {"giant_slayer"}
    assert decide(ace, fair=False, daily=False) == set()  # it asks for a fair game
    big = stacked(SOLO, ["6D", "AS", "3C", "5C"], ["6D", "AS/w"])
    assert decide(big, fair=True, daily=False) == set()  # a weapon of 6 is not small
    king = stacked(SOLO, ["KS", "2C", "3C", "5C"], ["KS/b"])
    assert decide(king, fair=True, daily=False) == {"bare_king"}
    # a king that kills is no achievement: 20 health, then 13 and 13
    deadly = stacked(SOLO, ["KS", "KC", "2C", "5C"], ["KS/b", "KC/b"])
    assert deadly.replay().state.is_over
    assert "bare_king" in decide(deadly, fair=True, daily=False)  # the first one was lived


def test_the_variants_and_co_op_have_their_own() -> None:
    frail = best_line(Rules.parse("solo", ["health=14"]), 7)
    assert frail.replay().state.status.value == "won"
    assert {"frail", "first_win"} <= decide(frail, fair=True, daily=False)
    assert "frail" not in decide(best_line(SOLO, 7), fair=True, daily=False)
    relentless = Rules.parse("solo", ["flee=never"])
    won = next(
        record
        for seed in range(40)
        if (record := best_line(relentless, seed)).replay().state.status.value == "won"
    )
    assert "relentless" in decide(won, fair=True, daily=False)
    assert "no_flee" in decide(won, fair=True, daily=False)  # nothing was fled, too


def record_of(app: FastAPI, view: dict[str, Any]) -> Record:
    stored = app.state.store.load(view["id"])
    return stored.record


def earned(client: TestClient) -> dict[str, dict[str, Any]]:
    mine = client.get("/api/me").json()["achievements"]
    assert [a["code"] for a in mine["all"]] == [a.code for a in ACHIEVEMENTS]
    return {a["code"]: a for a in mine["earned"]}


def test_a_finished_game_earns_what_its_record_decides(client: TestClient, app: FastAPI) -> None:
    assert earned(client) == {}
    view = play_to_end(client, new_game(client))
    expected = decide(record_of(app, view), fair=True, daily=False)
    got = earned(client)
    assert set(got) == expected
    for entry in got.values():
        assert entry["game_id"] == view["id"]
        assert datetime.datetime.fromisoformat(entry["earned_at"]).tzinfo is not None


def win_the_best_way(client: TestClient, undo_first: bool = False) -> dict[str, Any]:
    """Deal 7 played the solver's best way (30 points at full health) through the API,
    with one move played and taken back first if ``undo_first``."""
    line = best_line(SOLO, 7).moves
    view = new_game(client)
    if undo_first:
        client.post(f"/api/games/{view['id']}/moves", json={"move": line[0].token})
        assert client.post(f"/api/games/{view['id']}/undo", json={}).status_code == 200
    for n, move in enumerate(line):
        answer = client.post(
            f"/api/games/{view['id']}/moves", json={"move": move.token, "after": n}
        )
        assert answer.status_code == 200, answer.text
    won: dict[str, Any] = answer.json()
    assert won["status"] == "won"
    return won


@pytest.fixture
def deal_seven(monkeypatch: pytest.MonkeyPatch) -> None:
    import scoundrel.store.games as games_module

    monkeypatch.setattr(games_module, "random_deal", lambda rules, *_: random_deal(rules, 7))


def test_a_game_with_an_undo_earns_only_what_needs_no_fair_game(
    client: TestClient, deal_seven: None
) -> None:
    win_the_best_way(client, undo_first=True)
    # not clean_win, untouched, high_score nor escape_artist: they ask for a fair game
    assert set(earned(client)) == {"first_win"}
    fair = new_client_like(client)
    win_the_best_way(fair)
    assert {"first_win", "clean_win", "untouched", "high_score"} <= set(earned(fair))


def new_client_like(client: TestClient) -> TestClient:
    return TestClient(client.app)


def test_a_game_brought_from_a_record_earns_nothing(db_url: str) -> None:
    from scoundrel.store.achievements import award
    from scoundrel.store.achievements import earned as kept

    store = GameStore(connect(db_url))
    player = store.ensure_player(None)
    record = best_line(SOLO, 7)
    loaded = store.start(player, "random", SOLO, deck=record.deck, loaded=True)
    for move in record.moves:
        loaded, _ = store.play(loaded.id, player, move)
    assert loaded.status == "won"
    assert kept(store, player) == []
    assert award(store, store.load(loaded.id)) == {}
    dealt = store.start(player, "random", SOLO, deck=record.deck)
    for move in record.moves:
        dealt, _ = store.play(dealt.id, player, move)
    assert {entry["code"] for entry in kept(store, player)} >= {"first_win", "untouched"}


def test_streaks_and_ten_wins_come_from_the_kept_games(
    new_client: Callable[..., TestClient], app: FastAPI, clock: Clock
) -> None:
    client = new_client()
    for day in range(3):
        clock.today = TODAY + datetime.timedelta(days=day)
        play_to_end(client, new_game(client, mode="daily"))
        got = earned(client)
        assert ("streak_3" in got) == (day == 2), (day, sorted(got))
    assert "streak_7" not in earned(client)


def test_achievements_follow_the_player_to_another_device(
    new_client: Callable[..., TestClient], deal_seven: None
) -> None:
    phone, laptop = new_client(), new_client()
    play_to_end(phone, new_game(phone))  # deal 7 played badly: lost
    win_the_best_way(laptop)
    before = earned(phone) | earned(laptop)
    assert "untouched" in before and "untouched" not in earned(phone)
    code = phone.post("/api/me/transfer").json()["code"]
    assert laptop.post("/api/me/transfer/claim", json={"code": code}).status_code == 200
    # the laptop is the phone's player now, with its own achievements carried along
    assert earned(laptop) == before == earned(phone)


def test_the_achievements_are_listed_in_the_openapi_document(client: TestClient) -> None:
    schema = json.dumps(client.get("/openapi.json").json())
    assert "earned only without undo or hints" in schema


def test_the_documentation_lists_every_achievement() -> None:
    from pathlib import Path

    page = (Path(__file__).resolve().parents[2] / "docs" / "playing.md").read_text("utf-8")
    words = catalog("en")
    for achievement in ACHIEVEMENTS:
        name, how = words[f"ach.{achievement.code}"], words[f"ach.{achievement.code}.how"]
        fair = "yes" if achievement.fair else ""
        assert f"| {name} | {how} | {fair} |" in page, achievement.code
