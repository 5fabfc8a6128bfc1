"""The training example (examples/train_maskable_ppo.py) runs end to end on a tiny budget.

It needs the train extra (PyTorch, Stable-Baselines3, sb3-contrib), which CI does not
install: without it the test is skipped.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType

import pytest

pytest.importorskip("gymnasium", reason="the rl extra is missing: pip install -e '.[rl]'")
pytest.importorskip("torch", reason="the train extra is missing: pip install -e '.[train]'")
pytest.importorskip("sb3_contrib", reason="the train extra is missing: pip install -e '.[train]'")

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "train_maskable_ppo.py"
POINT = {"steps", "train_minutes", "wall_minutes", "games", "wins", "win_rate", "win_low"}
POINT |= {"win_high", "mean_score"}


def load_example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("train_maskable_ppo", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_wilson_interval() -> None:
    wilson = load_example().wilson
    assert wilson(0, 0) == (0.0, 1.0)
    low, high = wilson(0, 100)
    assert low == 0.0 and 0.03 < high < 0.04
    low, high = wilson(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-3) and high == pytest.approx(0.5962, abs=1e-3)


def test_tiny_training_run_writes_the_curve(tmp_path: Path) -> None:
    out = tmp_path / "curve.json"
    argv = ["--steps", "256", "--eval-every", "128", "--eval-games", "4", "--envs", "2"]
    result = load_example().main([*argv, "--seed", "1", "--out", str(out)])
    saved = json.loads(out.read_text(encoding="utf-8"))
    assert saved == json.loads(json.dumps(result))
    curve = saved["curve"]
    assert [point["steps"] for point in curve] == [0, 128, 256]
    for point in curve:
        assert point.keys() >= POINT
        assert point["games"] == 4 and 0 <= point["wins"] <= 4
        assert point["win_low"] <= point["win_rate"] <= point["win_high"]
        assert -188 <= point["mean_score"] <= 30
    assert curve[-1]["train_minutes"] > 0
    assert set(saved["baselines"]) == {"fair_bot", "random"}
    for row in saved["baselines"].values():
        assert row.keys() >= POINT - {"steps", "train_minutes", "wall_minutes"}
        assert row["games"] == 4
    assert saved["config"]["steps"] == 256 and saved["steps_per_second"] > 0


def test_tiny_training_run_on_the_batched_simulator() -> None:
    """--env batched trains on scoundrel.rl.vector.BatchVecEnv (the fast extra)."""
    pytest.importorskip("numba", reason="the fast extra is missing: pip install -e '.[fast]'")
    argv = ["--steps", "256", "--eval-every", "256", "--eval-games", "2", "--envs", "4"]
    result = load_example().main([*argv, "--env", "batched", "--seed", "1"])
    assert [point["steps"] for point in result["curve"]] == [0, 256]
    assert result["config"]["env"] == "batched" and result["steps_per_second"] > 0
