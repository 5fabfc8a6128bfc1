"""What a learning environment pays: the reward kinds, what an illegal action does, and its
penalty. Standard library only, so that the Gymnasium environments (:mod:`scoundrel.rl`)
and the compiled batch under them (:mod:`scoundrel.observed_batch`) share one definition.

>>> from scoundrel.core import Rules
>>> illegal_penalty(Rules.solo(), "score"), illegal_penalty(Rules.solo(), "win")
(-189.0, -1.0)
"""

from __future__ import annotations

from scoundrel.core import Rules

#: ``"score"``: the final score at the end (S13, C10); ``"win"``: 1 for a win, 0 for a loss.
REWARDS: tuple[str, ...] = ("score", "win")
#: ``"penalty"``: an illegal action ends the game with :func:`illegal_penalty`;
#: ``"raise"``: it raises :class:`ValueError` and nothing moves.
ILLEGAL: tuple[str, ...] = ("penalty", "raise")


def check_choices(reward: str, illegal: str) -> None:
    """A :class:`ValueError` naming a reward or an illegal-action choice that is not one."""
    if reward not in REWARDS:
        raise ValueError(f"reward must be 'score' or 'win', not {reward!r}")
    if illegal not in ILLEGAL:
        raise ValueError(f"illegal must be 'penalty' or 'raise', not {illegal!r}")


def illegal_penalty(rules: Rules, reward: str) -> float:
    """The reward for an illegal action: worse than any game's end (one below the lowest
    score, or −1 with ``reward="win"``)."""
    return -1.0 if reward == "win" else float(rules.score_range[0] - 1)
