"""The classic textbook bots, each one module that reads in a sitting.

They are what a course on game AI teaches (greedy pattern scoring, a
static evaluation, minimax, best-first search, alpha-beta with a hash
table), faithful to those versions so that students can play them, see
the score each gave every point, and rank them in the arena against the
engine levels.
"""

from __future__ import annotations

from engine.bots import BotFactory
from engine.classic.alphabeta import AlphaBetaBot
from engine.classic.astar import AStarBot
from engine.classic.greedy import GreedyBot
from engine.classic.minimax import MinimaxBot
from engine.classic.static import StaticBot

CLASSIC_BOTS: dict[str, BotFactory] = {
    "greedy": GreedyBot,
    "static": StaticBot,
    "minimax": MinimaxBot,
    "astar": AStarBot,
    "alphabeta": AlphaBetaBot,
}
"""Every classic bot by level name, roughly weakest first."""

__all__ = ["CLASSIC_BOTS", "AStarBot", "AlphaBetaBot", "GreedyBot", "MinimaxBot", "StaticBot"]
