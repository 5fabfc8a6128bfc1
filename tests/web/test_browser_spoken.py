"""Issue 39, every player included: what a screen reader is told, read from Chromium's
accessibility tree. A polite live region says what each move did, in the player's
language and with cards named in full; the share text of the dungeon of the day has a
spoken form (its signs are hidden from the reader)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from browsers import served
from test_browser import _finish, _page, _play_one, _start

from scoundrel.i18n import translate

GIVEN = {
    "give_weapon": "equip",
    "give_potion": "drink",
    "give_potion_wasted": "drink_wasted",
    "give_potion_full": "drink_full",
    "give_fight_weapon": "fight_weapon",
    "give_fight_bare": "fight_bare",
}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    yield from served(tmp_path_factory, "spoken")


def card_name(lang: str, code: str) -> str:
    if code in ("RJ", "BJ"):
        return translate(lang, "card.red_joker" if code == "RJ" else "card.black_joker")
    rank = translate(lang, f"rank.{code[:-1]}")
    return translate(lang, "card.name", rank=rank, suit=translate(lang, f"suit.{code[-1]}"))


def said(lang: str, label: dict[str, Any], coop: bool) -> str:
    """What the live region should say of a move with this label (the catalog's words)."""
    params = dict(label)
    params["card"] = card_name(lang, label["card"]) if label.get("card") else ""
    params["weapon"] = card_name(lang, label["weapon"]) if label.get("weapon") else ""
    params["hero"] = translate(lang, "hero.name", n=label["hero"])
    if "damage" in label:
        damage = label["damage"]
        params["damage"] = (
            translate(lang, "said.damage", n=damage)
            if damage
            else translate(lang, "said.no_damage")
        )
    base = GIVEN.get(label["code"], label["code"])
    return translate(lang, f"said.{'hero_' if coop else ''}{base}", **params)


def status_text(page: Any) -> str:
    """The live region as the accessibility tree has it: ``- status: …``."""
    snapshot: str = page.locator("#said").aria_snapshot()
    match = re.match(r"- status: (.*)", snapshot.strip().strip('"'))
    assert match, snapshot
    return match.group(1).strip('"')


@pytest.mark.parametrize(("locale", "lang"), [("en-US", "en"), ("ru-RU", "ru")])
@pytest.mark.parametrize("ruleset", ["solo", "coop"])
def test_each_move_is_announced_in_the_players_language(
    browser: Any, server: str, locale: str, lang: str, ruleset: str
) -> None:
    context, page, watcher = _page(browser, server, locale=locale)
    _start(page, ruleset)
    # the region is polite, whole and out of sight
    region = page.locator("#said")
    assert region.get_attribute("aria-live") == "polite"
    assert region.get_attribute("aria-atomic") == "true"
    assert region.bounding_box()["width"] <= 1
    for turn in range(200):
        if page.locator(".over").count():
            break
        before = watcher.views[-1]
        _play_one(page, use_keys=turn % 2 == 1)
        after = watcher.views[-1]
        token = after["moves"][-1]
        label = next(move["label"] for move in before["legal"] if move["move"] == token)
        expected = said(lang, label, ruleset == "coop")
        told = status_text(page)
        assert told.startswith(expected), (told, expected)
        assert not re.search(r"[♣♦♥♠]", told), "a card is named in full, not by its signs"
    else:
        raise AssertionError("the game did not end")
    end = watcher.views[-1]
    over = translate(lang, "over.won" if end["status"] == "won" else "over.lost")
    score = translate(
        lang, "app.labelled", label=translate(lang, "score.total"), value=end["score"]
    )
    assert status_text(page).endswith(f"{over} {score}.")
    context.close()


def test_an_undo_is_announced(browser: Any, server: str) -> None:
    context, page, _ = _page(browser, server)
    _start(page)
    _play_one(page, use_keys=False)
    page.locator("button.undo").click()
    page.wait_for_selector(".table[data-moves='0']")
    # the toast, a polite status too, says so
    assert translate("en", "toast.undone") in page.locator("#toast").aria_snapshot()
    context.close()


def test_the_share_text_has_a_spoken_form(browser: Any, server: str) -> None:
    context, page, watcher = _page(browser, server, locale="de-DE")
    page.goto(server + "/daily")
    page.locator("main button.primary").click()
    page.wait_for_selector(".room-cards .card")
    _finish(page)
    end = watcher.views[-1]
    figure = page.locator(".over figure.share-figure")
    tree = figure.aria_snapshot()
    # the signs are hidden from the reader; the spoken form says the same facts
    assert not re.search("[🟩🟨🟧🟥💚🏃💀🏆]", tree), tree
    health = translate(
        "de", "share.spoken_health", health=max(0, end["heroes"][0]["health"]), max=20
    )
    assert f"{end['score']} Punkte, Lebenspunkte {health}" in tree
    assert translate("de", "share.spoken_rooms", rooms="").rstrip(".") in tree
    context.close()
