"""Reinforcement-learning environments for Scoundrel (the ``rl`` extra:
``pip install -e '.[rl]'``). They use the rules core's public API only, and what an agent
sees never holds the order of the dungeon.

* ``scoundrel/Solo-v0``, a Gymnasium environment (:class:`~scoundrel.rl.solo.SoloEnv`),
  registered when this package is imported: ``gymnasium.make("scoundrel/Solo-v0")``
  (or ``gymnasium.make("scoundrel.rl:scoundrel/Solo-v0")`` without importing it first);
  ``gymnasium.make_vec("scoundrel/Solo-v0", num_envs=N)`` steps N games at once in
  compiled code (:class:`~scoundrel.rl.vector_env.ScoundrelVectorEnv`, the ``fast`` extra);
* :func:`~scoundrel.rl.coop.coop_env`, the co-op game as a PettingZoo AEC environment;
* ``python_scoundrel``, an OpenSpiel game, registered by ``import scoundrel.rl.openspiel``;
* baseline policies in :mod:`scoundrel.rl.policies`.

>>> import gymnasium
>>> env = gymnasium.make("scoundrel/Solo-v0")
>>> observation, info = env.reset(seed=0)
>>> observation.shape, info["action_mask"].shape
((164,), (181,))
"""

from __future__ import annotations

try:
    from gymnasium.envs.registration import register, registry
except ImportError as error:  # pragma: no cover - depends on the installation
    raise ImportError(
        "scoundrel.rl needs the rl extra: pip install -e '.[rl]' (Gymnasium, PettingZoo, "
        "NumPy, OpenSpiel)"
    ) from error

SOLO_ID = "scoundrel/Solo-v0"

if SOLO_ID not in registry:
    register(
        id=SOLO_ID,
        entry_point="scoundrel.rl.solo:SoloEnv",
        vector_entry_point="scoundrel.rl.vector_env:ScoundrelVectorEnv",
    )

__all__ = ["SOLO_ID"]
