"""Search and play: the perfect-information solver, the fair bot, hints and post-game
analysis. Standard library only, like the rules core it builds on.

>>> from scoundrel.core import Rules, State, random_deal
>>> from scoundrel.solver import solve
>>> solution = solve(State.new(Rules.solo(), random_deal(Rules.solo(), 0)))
>>> solution.winnable
True
"""

from .analysis import Analysis, Slip, analyse
from .bot import Bot, BotResult, Choice, Weights, play_game, play_games
from .hint import Hint, hint
from .learned import LearnedBot
from .search import Cancelled, Solution, reach, solve
from .searcher import Estimate, Search, SearchBot

__all__ = [
    "Analysis",
    "Bot",
    "BotResult",
    "Cancelled",
    "Choice",
    "Estimate",
    "Hint",
    "LearnedBot",
    "Search",
    "SearchBot",
    "Slip",
    "Solution",
    "Weights",
    "analyse",
    "hint",
    "play_game",
    "play_games",
    "reach",
    "solve",
]
