"""The message catalog: six languages, the same keys and placeholders, right plural forms."""

from __future__ import annotations

import re
from typing import Any

import pytest
from babel import Locale

from scoundrel.i18n import LANGUAGES, catalog, negotiate, plural_category, translate

PLACEHOLDER = re.compile(r"\{(\w+)\}")


def _placeholders(message: Any) -> set[str]:
    texts = message.values() if isinstance(message, dict) else [message]
    return {name for text in texts for name in PLACEHOLDER.findall(text)}


def test_six_languages() -> None:
    assert list(LANGUAGES) == ["en", "it", "ru", "de", "es", "fr"]


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_every_language_has_every_message(lang: str) -> None:
    english, other = catalog("en"), catalog(lang)
    assert set(other) == set(english), set(other) ^ set(english)
    for key, message in english.items():
        assert _placeholders(other[key]) == _placeholders(message), key
        assert isinstance(other[key], dict) == isinstance(message, dict), key
        if isinstance(message, str):
            assert other[key].strip(), f"{lang} {key} is empty"


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_plural_messages_cover_the_language_categories(lang: str) -> None:
    needed = (set(Locale.parse(lang).plural_form.tags) | {"other"}) - {"many"}
    if lang == "ru":
        needed |= {"many"}  # 5 карт: Russian uses "many" for everyday numbers
    for key, message in catalog(lang).items():
        if isinstance(message, dict):
            assert needed <= set(message), f"{lang} {key}: has {sorted(message)}"


def test_russian_has_three_forms_for_cards() -> None:
    assert plural_category("ru", 1) == "one"
    assert plural_category("ru", 3) == "few"
    assert plural_category("ru", 5) == "many"
    forms = {translate("ru", "count.cards", n=n) for n in (1, 3, 5)}
    assert len(forms) == 3
    assert translate("ru", "count.cards", n=21).startswith("21 ")
    assert (
        translate("ru", "count.cards", n=21).split()[1]
        == translate("ru", "count.cards", n=1).split()[1]
    )


def test_english_plural_and_parameters() -> None:
    assert translate("en", "count.cards", n=1) == "1 card"
    assert translate("en", "count.cards", n=40) == "40 cards"
    assert translate("en", "weapon.below", n=6) == "Usable below 6"


def test_unknown_language_and_key_fall_back() -> None:
    assert translate("xx", "nav.play") == "Play"
    assert translate("de", "no.such.key") == "no.such.key"


@pytest.mark.parametrize(
    ("header", "remembered", "expected"),
    [
        ("ru-RU,ru;q=0.9,en;q=0.8", None, "ru"),
        ("pt-BR,es;q=0.7,fr;q=0.9", None, "fr"),
        ("ja", None, "en"),
        (None, None, "en"),
        ("de", "it", "it"),
        ("de", "xx", "de"),
        ("en;q=bad,es", None, "es"),
    ],
)
def test_negotiate(header: str | None, remembered: str | None, expected: str) -> None:
    assert negotiate(header, remembered) == expected
