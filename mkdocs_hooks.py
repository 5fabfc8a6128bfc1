"""A MkDocs hook: the docstrings cross-reference in Sphinx's way (``:class:`State```,
``:meth:`~scoundrel.core.state.State.play```), which mkdocstrings shows as written. The
API reference shows just the name, in code, as Sphinx would (``~`` keeps the last part)."""

from __future__ import annotations

import re
from typing import Any

ROLE = re.compile(
    r":(?:py:)?(?:class|func|meth|mod|data|attr|exc|obj|const):<code>(~?)([^<]*)</code>"
)


def _name(found: re.Match[str]) -> str:
    short, target = found.group(1), found.group(2)
    return f"<code>{target.rsplit('.', 1)[-1] if short else target}</code>"


def on_page_content(html: str, **kwargs: Any) -> str:
    return ROLE.sub(_name, html)
