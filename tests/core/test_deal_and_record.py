"""Deals (M1 random dungeon, M2 dungeon of the day) and records (N3) with their replay
(N4)."""

from __future__ import annotations

import datetime
import hashlib
import hmac
import json
from pathlib import Path
from typing import Any

import pytest
from helpers import CLEAR_DECK, CLEAR_ROOMS, codes, stacked

from scoundrel.core import (
    Card,
    DeckError,
    Game,
    Move,
    NotationError,
    Record,
    RecordError,
    ReplayError,
    Rules,
    State,
    Status,
    daily_deal,
    deal,
    format_cards,
    random_deal,
)

SOLO = Rules.solo()
COOP = Rules.coop()

# ---------------------------------------------------------------------- M2 dungeon of the day

# The first 8 cards of the dungeon of the day, computed once and pinned: any change to the
# deal method changes everybody's daily dungeon, so it must show up here.
DAILY = [
    (SOLO, "2026-01-01", "3S AS 6C 10S 8D QC JC 9D"),
    (SOLO, "2026-11-29", "7S 2C 7H 10S 6S AC 5S 8H"),
    (SOLO, "2027-02-28", "8C 4D 2S 9H 6H 2C KC 8S"),
    (COOP, "2026-01-01", "7S 9D 7D 7H QS 8H 10D 4S"),
    (COOP, "2026-11-29", "8D 10H QC 5D 7D 3S 6D 4S"),
    (COOP, "2027-02-28", "8S 2C AH 8D 10C QD 6C 5D"),
    (Rules.coop(easier=True), "2026-01-01", "8D KC QH KS 10S 3S 3H 9S"),
    (Rules.coop(harder=True), "2026-01-01", "5D 3H KC 5S 8S 6D AD 5C"),
]


@pytest.mark.parametrize(
    ("rules", "date", "first"),
    DAILY,
    ids=[f"{rules.ruleset}{rules.deck_size}-{date}" for rules, date, _ in DAILY],
)
def test_m2_daily_deal_golden(rules: Rules, date: str, first: str) -> None:
    """M2: on a given date everybody gets the same cards."""
    deck = daily_deal(rules, date)
    assert format_cards(deck[:8]) == first
    assert sorted(deck) == list(rules.cards)
    assert daily_deal(rules, date) == deck
    assert daily_deal(rules, datetime.date.fromisoformat(date)) == deck
    assert daily_deal(rules, f" {date} ") == deck


def test_m2_daily_deal_follows_the_documented_method() -> None:
    """M2: "two copies of the program agree": an independent implementation of the method
    documented in deal.py gives the same deck."""

    def documented(rules: Rules, date: str, secret: str | None = None) -> list[Card]:
        message = f"scoundrel-daily/1|{date}|{rules.ruleset}".encode()
        if secret:
            seed = hmac.new(secret.encode(), message, hashlib.sha256).digest()
        else:
            seed = hashlib.sha256(message).digest()
        numbers: list[int] = []
        counter = 0
        while len(numbers) < 400:
            block = hashlib.sha256(seed + counter.to_bytes(4, "big")).digest()
            numbers += [int.from_bytes(block[i : i + 4], "big") for i in range(0, 32, 4)]
            counter += 1
        deck = list(rules.cards)
        position = 0
        for i in range(len(deck) - 1, 0, -1):
            while True:
                r = numbers[position]
                position += 1
                if r < 2**32 - (2**32 % (i + 1)):
                    break
            j = r % (i + 1)
            deck[i], deck[j] = deck[j], deck[i]
        return deck

    for rules in (SOLO, COOP, Rules.coop(harder=True)):
        for date in ("2026-01-01", "2026-11-29"):
            assert list(daily_deal(rules, date)) == documented(rules, date)
    assert list(daily_deal(SOLO, "2026-01-01", secret="s3cret")) == documented(
        SOLO, "2026-01-01", "s3cret"
    )


def test_m2_secret_changes_the_deal() -> None:
    """M2: a server may mix in a secret of its own."""
    plain = daily_deal(SOLO, "2026-01-01")
    secret = daily_deal(SOLO, "2026-01-01", secret="s3cret")
    assert secret != plain
    assert format_cards(secret[:8]) == "8H 2H 5H KS 2C 8S 5C 7H"
    assert daily_deal(SOLO, "2026-01-01", secret="other") not in (plain, secret)
    assert sorted(secret) == list(SOLO.cards)
    assert daily_deal(SOLO, "2026-01-01", secret="s3cret") == secret


def test_m2_different_dates_differ() -> None:
    days = [datetime.date(2026, 1, 1) + datetime.timedelta(days=n) for n in range(30)]
    deals = {daily_deal(SOLO, day) for day in days}
    assert len(deals) == 30


def test_m2_rulesets_differ_but_card_neutral_options_do_not() -> None:
    """M2: the deck derives from the date and the ruleset; options that keep the cards keep
    the deal."""
    assert daily_deal(Rules.solo(weapon="lenient"), "2026-01-01") == daily_deal(SOLO, "2026-01-01")
    assert daily_deal(Rules.coop(weapon="strict", first_leader=2), "2026-01-01") == daily_deal(
        COOP, "2026-01-01"
    )
    assert daily_deal(Rules.coop(easier=True), "2026-01-01") != daily_deal(COOP, "2026-01-01")


def test_m2_bad_date() -> None:
    with pytest.raises(ValueError, match="YYYY-MM-DD"):
        daily_deal(SOLO, "29/11/2026")


def test_m2_game_of_the_day() -> None:
    game = Game.daily("2026-11-29")
    assert game.deck == daily_deal(SOLO, "2026-11-29")
    assert codes(game.state.room) == ["7S", "2C", "7H", "10S"]


# ---------------------------------------------------------------------- M1 random dungeon


def test_m1_random_deal_is_reproducible_with_a_seed() -> None:
    assert format_cards(random_deal(SOLO, 1)[:8]) == "10S 9H QS 2S JS 5C 8H 4C"
    assert format_cards(random_deal(COOP, 1)[:8]) == "7H 3C 7D AS 2C 4H 2S 4D"
    assert random_deal(SOLO, 44) == random_deal(SOLO, 44)
    assert random_deal(SOLO, 44) != random_deal(SOLO, 45)


@pytest.mark.parametrize(
    "rules",
    [SOLO, COOP, Rules.coop(easier=True), Rules.coop(harder=True)],
    ids=["solo", "coop", "easier", "harder"],
)
def test_m1_random_deal_is_a_permutation_of_the_cards(rules: Rules) -> None:
    for seed in (0, 1, 2, 12345):
        deck = random_deal(rules, seed)
        assert len(deck) == rules.deck_size
        assert sorted(deck) == list(rules.cards)
        assert deck != rules.cards


def test_m1_random_deal_without_seed_is_fresh() -> None:
    deals = {random_deal(SOLO) for _ in range(5)}
    assert len(deals) == 5
    for deck in deals:
        assert sorted(deck) == list(SOLO.cards)


def test_m1_game_with_a_seed() -> None:
    assert Game(SOLO, seed=7).deck == random_deal(SOLO, 7)


# ---------------------------------------------------------------------- N3 records


def record_dict(**fields: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "format": "scoundrel-record/1",
        "ruleset": "solo",
        "options": {"weapon": "strict", "death_score": "standard"},
        "deck": format_cards(stacked(SOLO, "7D KS 5H 9C")),
        "moves": "7D KS/w 5H",
    }
    data.update(fields)
    return {key: value for key, value in data.items() if value is not None}


def test_n3_record_round_trip() -> None:
    game = Game(SOLO, stacked(SOLO, CLEAR_DECK))
    for token in " ".join(CLEAR_ROOMS[:3]).split():
        game.play(token)
    record = game.record
    text = record.to_json()
    data = json.loads(text)
    assert data == {
        "format": "scoundrel-record/1",
        "ruleset": "solo",
        "options": {"weapon": "strict", "death_score": "standard"},
        "deck": CLEAR_DECK,
        "moves": "2D 3D 4D 5D 6D 7D 8D 10D AC/w",
    }
    again = Record.from_json(text)
    assert again == record
    assert again.to_json() == text
    assert again.replay().summary() == game.summary()
    assert Record.from_json(record.to_json(indent=2)) == record


def test_n3_coop_record_round_trip() -> None:
    rules = Rules.coop(weapon="strict", harder=True, first_leader=2)
    game = Game(rules, random_deal(rules, 5))
    game.play(game.legal_moves[0])
    record = Record.from_json(game.record.to_json())
    assert record.rules == rules
    assert record.rules.options == {
        "weapon": "strict",
        "easier": False,
        "harder": True,
        "silent_leader": False,
        "first_leader": 2,
    }
    assert record.deck == game.deck
    assert record.moves == game.moves


def test_n3_omitted_options_take_defaults() -> None:
    deck = format_cards(stacked(COOP))
    record = Record.from_json(
        json.dumps({"format": "scoundrel-record/1", "ruleset": "coop", "deck": deck})
    )
    assert record.rules == COOP
    assert record.moves == ()
    partial = Record.from_dict(
        {
            "format": "scoundrel-record/1",
            "ruleset": "coop",
            "options": {"weapon": "strict"},
            "deck": deck,
            "moves": "",
        }
    )
    assert partial.rules == Rules.coop(weapon="strict")
    solo = Record.from_dict(record_dict(options=None, moves=None))
    assert solo.rules == SOLO
    assert solo.moves == ()


def test_n3_record_reads_lenient_notation() -> None:
    record = Record.from_dict(record_dict(deck="7♦ k♠ 5h 9C " + " ".join(
        c.code for c in stacked(SOLO, "7D KS 5H 9C")[4:]
    ), moves="7d  ks/W\n5♥"))  # fmt: skip
    assert record.moves == (Move("7D"), Move("KS/w"), Move("5H"))
    assert record.deck[:2] == (Card("7D"), Card("KS"))


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("{not json", "not valid JSON"),
        ("", "not valid JSON"),
        ("[1, 2]", "JSON object"),
        ('"a record"', "JSON object"),
    ],
)
def test_n3_bad_json(text: str, named: str) -> None:
    with pytest.raises(RecordError) as error:
        Record.from_json(text)
    assert named in str(error.value)


_SOLO_DECK = [c.code for c in SOLO.cards]


@pytest.mark.parametrize(
    ("fields", "named"),
    [
        ({"format": "scoundrel-record/2"}, "format"),
        ({"format": None}, "format"),
        ({"colour": "red"}, "unknown field"),
        ({"ruleset": "duel"}, "duel"),
        ({"ruleset": None}, "ruleset"),
        ({"ruleset": 1}, "ruleset"),
        ({"options": {"colour": "red"}}, "colour"),
        ({"options": {"easier": True}}, "easier"),
        ({"options": {"weapon": "medium"}}, "weapon"),
        ({"options": {"weapon": 5}}, "weapon"),
        ({"options": {"death_score": "never"}}, "death_score"),
        ({"options": ["weapon", "strict"]}, "options"),
        ({"deck": None}, "deck"),
        ({"deck": _SOLO_DECK}, "deck"),
        ({"deck": " ".join(_SOLO_DECK[1:])}, "missing 2C"),
        ({"deck": " ".join([*_SOLO_DECK[1:], "3C"])}, "3C appears twice"),
        ({"deck": " ".join([*_SOLO_DECK[1:], "KH"])}, "KH is not a card of this solo deck"),
        ({"deck": " ".join([*_SOLO_DECK, "RJ"])}, "RJ is not a card"),
        ({"deck": " ".join([*_SOLO_DECK[1:], "ZZ"])}, "deck"),
        ({"moves": ["7D"]}, "moves"),
    ],
)
def test_n3_bad_records_name_the_problem(fields: dict[str, Any], named: str) -> None:
    data = record_dict()
    data.update(fields)
    data = {key: value for key, value in data.items() if value is not None}
    with pytest.raises(RecordError) as error:
        Record.from_dict(data)
    assert named in str(error.value)
    with pytest.raises(RecordError):
        Record.from_json(json.dumps(data))


@pytest.mark.parametrize(
    ("options", "named"),
    [
        ({"easier": "yes"}, "easier"),
        ({"harder": 1}, "harder"),
        ({"first_leader": 3}, "first_leader"),
        ({"first_leader": "2"}, "first_leader"),
        ({"first_leader": 2.0}, "first_leader"),
        ({"first_leader": True}, "first_leader"),
        ({"silent_leader": None}, "silent_leader"),
        ({"death_score": "standard"}, "death_score"),
    ],
)
def test_n3_bad_coop_option_values(options: dict[str, Any], named: str) -> None:
    data = {
        "format": "scoundrel-record/1",
        "ruleset": "coop",
        "options": options,
        "deck": format_cards(COOP.cards),
    }
    with pytest.raises(RecordError) as error:
        Record.from_dict(data)
    assert named in str(error.value)


def test_n3_deck_errors_are_record_errors() -> None:
    assert issubclass(DeckError, RecordError)
    assert issubclass(ReplayError, RecordError)
    with pytest.raises(DeckError, match="missing"):
        Record(SOLO, SOLO.cards[:-1])
    with pytest.raises(DeckError, match="not a card of this solo deck"):
        State.new(SOLO, COOP.cards)


def test_n3_save_and_load(tmp_path: Path) -> None:
    record = Record(SOLO, stacked(SOLO, "7D KS 5H 9C"), (Move("7D"), Move("KS/w")))
    path = tmp_path / "game.json"
    record.save(path)
    assert Record.load(path) == record
    assert json.loads(path.read_text(encoding="utf-8"))["moves"] == "7D KS/w"
    with pytest.raises(RecordError, match="cannot read"):
        Record.load(tmp_path / "missing.json")
    binary = tmp_path / "binary.json"
    binary.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(RecordError, match="UTF-8"):
        Record.load(binary)


# ---------------------------------------------------------------------- N4 replay


def test_n4_replay_applies_every_move() -> None:
    record = Record.from_dict(record_dict())
    game = record.replay()
    assert game.summary() == {
        "status": "playing",
        "score": None,
        "moves_applied": 3,
        "heroes": [{"health": 19, "weapon": "7D", "last_kill": 13}],
        "leader": 1,
        "dungeon": 37,
        "room": ["9C", "2C", "3C", "4C"],
    }
    assert record.summary() == game.summary()


def test_n4_replay_of_a_finished_game() -> None:
    moves = " ".join(CLEAR_ROOMS) + " 2S/w 10H"
    record = Record.from_dict(record_dict(deck=CLEAR_DECK, moves=moves))
    summary = record.summary()
    assert summary["status"] == "won"
    assert summary["score"] == 30
    assert summary["moves_applied"] == 44
    assert summary["dungeon"] == 0
    assert summary["room"] == []
    assert record.replay().status is Status.WON


@pytest.mark.parametrize(
    ("moves", "position", "token", "named"),
    [
        ("F F", 2, "F", "S5"),
        ("7D KS/w F", 3, "F", "S5"),
        ("KS/w", 1, "KS/w", "S8"),
        ("7D KS/w 5H 10S/w", 4, "10S/w", "not in the room"),
        ("7D KS/w 5H 6S/w 9C/w", 5, "9C/w", "S9"),
        ("7D >KS/b", 2, ">KS/b", "C5"),
    ],
)
def test_n4_replay_of_an_illegal_move(moves: str, position: int, token: str, named: str) -> None:
    """N4: a move that is not legal stops the replay naming its position (from 1), its token
    and the reason."""
    deck = format_cards(stacked(SOLO, "7D KS 5H 9C 6S"))
    record = Record.from_dict(record_dict(deck=deck, moves=moves))
    with pytest.raises(ReplayError) as error:
        record.replay()
    assert error.value.position == position
    assert error.value.token == token
    assert named in error.value.reason
    assert str(error.value).startswith(f"move {position} ({token}): ")


def test_n4_replay_of_a_move_after_the_end() -> None:
    moves = " ".join(CLEAR_ROOMS) + " 2S/w 10H F"
    record = Record.from_dict(record_dict(deck=CLEAR_DECK, moves=moves))
    with pytest.raises(ReplayError) as error:
        record.replay()
    assert error.value.position == 45
    assert error.value.token == "F"
    assert "game is over" in error.value.reason


def test_n4_move_that_is_not_notation() -> None:
    """A token that is not a move at all is reported with its position as written."""
    with pytest.raises(ReplayError) as error:
        Record.from_dict(record_dict(moves="7D KS 5H"))
    assert error.value.position == 2
    assert error.value.token == "KS"
    assert "/w" in error.value.reason


def test_game_undo_and_record() -> None:
    game = Game(SOLO, stacked(SOLO, "7D KS 5H 9C"))
    game.play("7D")
    game.play(Move("KS/b"))
    assert game.state.hero(1).health == 7
    assert game.undo() is Move("KS/b")
    assert game.undos == 1
    game.play("KS/w")
    assert game.state.hero(1).health == 14
    assert game.record.moves == (Move("7D"), Move("KS/w"))
    assert game.states[0] == game.start == State.new(SOLO, stacked(SOLO, "7D KS 5H 9C"))
    with pytest.raises(IndexError):
        Game(SOLO, stacked(SOLO)).undo()


def test_game_parse_by_number() -> None:
    game = Game(SOLO, stacked(SOLO, "7D KS 5H 9C"))
    assert game.parse("1") is game.legal_moves[0] is Move("7D")
    assert game.parse("ks/b") is Move("KS/b")
    with pytest.raises(NotationError, match="no move 99"):
        game.parse("99")
    for text in ("²", "٣", "1²"):  # digits to str.isdigit(), but not numbers int() reads
        with pytest.raises(NotationError):
            game.parse(text)


def test_m1_a_number_past_the_last_whole_multiple_is_drawn_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The documented method: a number at or above 2**32 - (2**32 mod (i+1)) would favour
    some cards, so it is dropped and the next one drawn (the stream read block by block)."""
    numbers = list(range(1000, 1064))

    def stream(first: list[int]) -> Any:
        drawn = first + numbers
        return lambda seed, counter: tuple(drawn[8 * counter : 8 * counter + 8])

    monkeypatch.setattr(deal, "_block", stream([2**32 - 1]))  # too high for 44 cards
    dropped = deal.shuffle(SOLO.cards, b"seed")
    monkeypatch.setattr(deal, "_block", stream([]))
    assert dropped == deal.shuffle(SOLO.cards, b"seed")
    monkeypatch.setattr(deal, "_block", stream([2**32 - 5]))  # the highest one kept
    assert deal.shuffle(SOLO.cards, b"seed") != dropped
