"""``scoundrel play``: the full-screen game in the terminal (Textual).

The screens: the table (:mod:`.table`), a new game and the game in play (:mod:`.menus`), the
rules with their worked examples (:mod:`.rules`) and the records (:mod:`.records`). Like the
line game, they describe what the core says and ask it what is legal; every move is kept in
the store as it is played (:mod:`scoundrel.cli.keep`).
"""

from .app import ScoundrelApp

__all__ = ["ScoundrelApp"]
