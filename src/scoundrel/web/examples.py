"""The worked examples of the rules pages (:mod:`scoundrel.core.examples`), as views."""

from __future__ import annotations

from functools import cache
from typing import Any

from scoundrel.core.examples import EXAMPLES, played

from .position import position_view


@cache
def examples_view() -> dict[str, Any]:
    """Every example: its start position and the position after each step."""
    result: dict[str, Any] = {}
    for example in EXAMPLES:
        states, explained = played(example)
        refusal = None
        if explained is not None:
            refusal = {"move": example.refused, "code": explained.code, **explained.params}
        result[example.name] = {
            "ruleset": example.rules.ruleset,
            "steps": list(example.steps),
            "positions": [position_view(state) for state in states],
            "refused": refusal,
        }
    return result
