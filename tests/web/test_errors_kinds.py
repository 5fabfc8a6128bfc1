"""The store names what kind of refusal each error is and the web alone says it in HTTP
(issue 38): every kind has a status, and the store holds no HTTP status."""

from __future__ import annotations

import re
from pathlib import Path

from scoundrel.store import Conflict, ErrorKind, Forbidden, NotFound, StoreError
from scoundrel.store.identity import BadCode, UnknownCode
from scoundrel.store.tables import TableFull
from scoundrel.web.errors import STATUS_OF, answer

STORE = Path(__file__).resolve().parents[2] / "src" / "scoundrel" / "store"


def test_every_kind_has_a_status() -> None:
    assert set(STATUS_OF) == set(ErrorKind)


def test_each_refusal_is_answered_with_its_kind_s_status() -> None:
    cases = [
        (StoreError("no"), 400),
        (BadCode("not a code"), 400),
        (NotFound("no such game"), 404),
        (UnknownCode("unknown"), 404),
        (Forbidden("not yours"), 403),
        (TableFull("taken", table="t1"), 403),
        (Conflict("changed"), 409),
    ]
    for error, status in cases:
        answered = answer(error)
        assert answered is not None and answered[0] == status, error
        assert answered[1]["error"]["code"] == error.code


def test_the_store_says_nothing_of_http() -> None:
    status = re.compile(r"\bstatus\s*=\s*[1-5]\d\d\b")
    found = [
        f"{path.name}:{number}"
        for path in sorted(STORE.rglob("*.py"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if status.search(line)
    ]
    assert found == []
