"""Deals: a seeded random dungeon (M1) and the dungeon of the day (M2).

Both shuffle the ruleset's cards in canonical order (:attr:`Rules.cards`) with the same
documented method, so that any program can reproduce a deal:

1. A 32-byte *seed* is made from a message. For a random deal the message is
   ``scoundrel-deal/1|<ruleset>|<seed>``; for the dungeon of the day it is
   ``scoundrel-daily/1|<YYYY-MM-DD>|<ruleset>``. The seed is SHA-256 of the message, or, when
   a server mixes in a secret, HMAC-SHA-256 keyed with the secret (UTF-8).
2. A byte stream is SHA-256(seed || counter) for counter = 0, 1, 2, ... (4 bytes,
   big-endian), the blocks concatenated.
3. The cards are shuffled by Fisher-Yates: for i from n-1 down to 1, take the next 4 bytes
   of the stream as a big-endian integer r, reject it while r >= 2**32 - (2**32 mod (i+1)),
   and swap card i with card r mod (i+1).

The deck is the shuffled list, top card first. Options that do not change the cards (weapon
wear, scoring, leader) do not change the deal; ``easier`` and ``harder`` change the cards and
so the deal.

>>> from scoundrel.core import Rules
>>> ' '.join(c.code for c in random_deal(Rules.solo(), seed=1)[:4])
'10S 9H QS 2S'
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import hmac
import secrets
import struct

from .cards import Card
from .rules import Rules

HELD_OUT = 1_000_000_000
"""The first seed of the held-out deals (``scoundrel-deal/1``, seeds 1,000,000,000 and on):
nothing in this package was tuned on them (weights, playouts, the learned policy's
training all use seeds below 100,000,000), so a policy measured there is measured on deals
it has never met. The arena plays from here by default."""

_LIMIT = 1 << 32
_NUMBERS = struct.Struct(">8I")
#: An empty SHA-256 to copy: a copy skips the library's look-up of the algorithm, which
#: cost more than the hashing of a deal's few short messages.
_SHA256 = hashlib.sha256()


def _sha256(data: bytes) -> bytes:
    digest = _SHA256.copy()
    digest.update(data)
    return digest.digest()


def _block(seed: bytes, counter: int) -> tuple[int, ...]:
    """Block ``counter`` of the stream: SHA-256(seed || counter), as eight 4-byte
    big-endian numbers."""
    return _NUMBERS.unpack(_sha256(seed + counter.to_bytes(4, "big")))


def shuffle(cards: tuple[Card, ...], seed: bytes) -> tuple[Card, ...]:
    """Fisher-Yates over a SHA-256 byte stream, as described in this module."""
    deck = list(cards)
    numbers: list[int] = []
    taken = 0
    for i in range(len(deck) - 1, 0, -1):
        bound = i + 1
        reject = _LIMIT - _LIMIT % bound
        while True:
            if taken == len(numbers):  # the stream's next block
                numbers += _block(seed, len(numbers) // 8)
            r = numbers[taken]
            taken += 1
            if r < reject:
                break
        j = r % bound
        deck[i], deck[j] = deck[j], deck[i]
    return tuple(deck)


def _seed(message: str, secret: str | None) -> bytes:
    data = message.encode()
    if secret:
        return hmac.new(secret.encode(), data, hashlib.sha256).digest()
    return _sha256(data)


def random_deal(rules: Rules, seed: int | None = None) -> tuple[Card, ...]:
    """A shuffled dungeon (M1). The same ``seed`` gives the same deal on every version;
    without one, the deal comes from the operating system's randomness."""
    if seed is None:
        seed = secrets.randbits(63)
    return shuffle(rules.cards, _seed(f"scoundrel-deal/1|{rules.ruleset}|{seed}", None))


def daily_deal(rules: Rules, date: _dt.date | str, secret: str | None = None) -> tuple[Card, ...]:
    """The dungeon of the day (M2): the same for everybody on ``date`` with these rules,
    unless a server mixes in its own ``secret``."""
    if isinstance(date, str):
        date = parse_date(date)
    message = f"scoundrel-daily/1|{date.isoformat()}|{rules.ruleset}"
    return shuffle(rules.cards, _seed(message, secret))


def parse_date(text: str) -> _dt.date:
    """A date written YYYY-MM-DD; ``ValueError`` naming the problem otherwise."""
    try:
        return _dt.date.fromisoformat(text.strip())
    except ValueError:
        raise ValueError(f"{text!r} is not a date: write it as YYYY-MM-DD") from None
