"""What pytest collects: a module that needs an extra which is not installed (the ``train``
extra's Stable-Baselines3) is not imported for its doctests; its tests skip on their own."""

from __future__ import annotations

import importlib.util

collect_ignore: list[str] = []
if importlib.util.find_spec("stable_baselines3") is None:
    collect_ignore.append("src/scoundrel/rl/vector.py")
