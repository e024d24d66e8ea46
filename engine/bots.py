"""What every bot is: the interface shared by the engine levels and the classic bots.

A bot is an object that, given a position and limits (`SearchLimits`, from
`engine.limits`), decides a move and says why (score, depth, nodes,
principal variation, and the score it gave each candidate point, for the
"show the value of a point" feature). The server's bot pool, the Gomocup
brain, the arena and the analysis tool all talk to bots through this
interface only, and find them by level name in `engine.registry`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from engine.board import Board
from engine.limits import SearchLimits
from engine.types import Point


@dataclass(frozen=True, slots=True)
class Decision:
    """A bot's chosen move and the reasons it can give for it."""

    move: Point
    """The point to play."""
    score: int
    """The bot's value of the position for the side to move after its search."""
    depth: int = 0
    """Depth reached (0 for bots that do not search)."""
    nodes: int = 0
    """Positions visited."""
    pv: tuple[Point, ...] = ()
    """Principal variation, starting with `move`."""
    candidates: tuple[tuple[Point, int], ...] = field(default=())
    """(point, score) for the points the bot considered, best first."""


class Bot(Protocol):
    """Anything that can choose a move."""

    level: str
    """The level name, as in `list_bots` and `gomoku-engine --level`."""
    description: str
    """One sentence for people choosing an opponent."""

    def choose(self, board: Board, limits: SearchLimits, seed: int | None = None) -> Decision:
        """Decide a move for the side to move on a board whose game is not over.

        Must return a legal move (never a renju forbidden point), must not
        change `board` as seen by the caller, and must be deterministic for
        a given `seed`.
        """
        ...


BotFactory = Callable[[], Bot]
