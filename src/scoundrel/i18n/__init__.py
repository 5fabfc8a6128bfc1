"""One message catalog for every interface (web and terminal), in six languages.

Each language is a JSON file in ``messages/`` mapping a key to a text, or, where a number is
involved, to its plural forms by CLDR category (``one``, ``few``, ``many``, ``other``).
Texts use ``{name}`` placeholders. Plural categories are chosen with Babel's CLDR data here
and with ``Intl.PluralRules`` in the browser, so both agree (Russian has three forms).

>>> translate('ru', 'count.cards', n=21), translate('ru', 'count.cards', n=3)
('21 карта', '3 карты')
>>> translate('ru', 'count.cards', n=5)
'5 карт'
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

LANGUAGES: dict[str, str] = {
    "en": "English",
    "it": "Italiano",
    "ru": "Русский",
    "de": "Deutsch",
    "es": "Español",
    "fr": "Français",
}
DEFAULT = "en"


@cache
def catalog(lang: str) -> dict[str, Any]:
    """The messages of ``lang`` (English for any other language)."""
    if lang not in LANGUAGES:
        lang = DEFAULT
    text = resources.files(__package__).joinpath("messages", f"{lang}.json").read_text("utf-8")
    messages: dict[str, Any] = json.loads(text)
    return messages


@cache
def _plural_rule(lang: str) -> Any:
    from babel import Locale

    return Locale.parse(lang).plural_form


def plural_category(lang: str, n: int) -> str:
    """The CLDR plural category of ``n`` in ``lang``: ``one``, ``few``, ``many``, ``other``…"""
    return str(_plural_rule(lang if lang in LANGUAGES else DEFAULT)(abs(n)))


def translate(lang: str, key: str, n: int | None = None, **params: Any) -> str:
    """The message ``key`` in ``lang`` with ``params`` filled in; ``n`` picks the plural
    form and is available as ``{n}``. Falls back to English, then to the key itself."""
    message = catalog(lang).get(key)
    if message is None and lang != DEFAULT:
        lang = DEFAULT
        message = catalog(DEFAULT).get(key)
    if message is None:
        return key
    if isinstance(message, dict):
        category = plural_category(lang, n if n is not None else 0)
        message = message.get(category) or message["other"]
    if n is not None:
        params["n"] = n
    return str(message).format(**params) if params else str(message)


def negotiate(accept_language: str | None, preferred: str | None = None) -> str:
    """The language to use: a remembered choice first, then the browser's list."""
    if preferred in LANGUAGES:
        return preferred
    if accept_language:
        weighted = []
        for position, part in enumerate(accept_language.split(",")):
            tag, _, quality = part.strip().partition(";q=")
            try:
                weight = float(quality) if quality else 1.0
            except ValueError:
                weight = 0.0
            weighted.append((-weight, position, tag.strip().lower()))
        for _, _, tag in sorted(weighted):
            base = tag.split("-")[0]
            if base in LANGUAGES:
                return base
    return DEFAULT
