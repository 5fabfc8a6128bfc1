"""Scoundrel, the solo card roguelike by Zach Gage and Kurt Bieg, and Scoundrel for two.

The public API is the rules core, re-exported here::

    from scoundrel import Game, Rules
"""

from .core import *  # noqa: F403
from .core import __all__ as __all__

#: The version, written only here (pyproject.toml reads it), and the name the project is
#: installed by: ``pip install scoundrel-cards`` (``scoundrel`` on PyPI is another game).
__version__ = "0.1.0"
DISTRIBUTION = "scoundrel-cards"
