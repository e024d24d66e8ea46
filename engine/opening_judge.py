"""How a bot judges opening positions: short searches that score a position and its moves.

Every opening decision a bot makes (which colour to take, where to put the
4th stone, how many fifth moves to ask for ...) comes down to two
questions about a position: how good is it for the side to move, and how
good is each move there. A `Judge` answers both with the engine's search,
run with a full window at the root so that every root move gets an exact
score, not just the best one.

Two things make such scores fit for comparing colours:

* The tree's scores swing between odd and even depths, since the side that
  moves last at the leaves looks better (a quiet opening position scores
  about +200 at depth 3 and -250 at depth 4). An appraisal is therefore the
  mean of the last two finished depths, which cancels most of the swing.
* One decision may need several searches (one per candidate 4th stone,
  one per offered fifth move ...). The judge holds one Budget for the
  whole decision and gives each search an equal share of what is left, in
  nodes and in time.

Decisions must be the same for the same seed on every machine, so the
judge limits its searches by nodes: a time limit without a node limit is
turned into one at NODES_PER_MS, a speed the engine reaches even on a busy
machine, and TIME_SHARE of the time stays as the hard deadline (the rest
is for the work between searches, and for a process the machine
descheduled). On a machine slower than that the deadline ends a search
sooner, and the decision may differ.
"""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass

from engine.board import Board
from engine.limits import Budget, Clock, SearchLimits
from engine.registry import default_time_ms
from engine.search.levels import LEVELS, LevelSettings
from engine.search.position import WON
from engine.search.search import Searcher, SearchResult
from engine.types import Point

NODES_PER_MS = 5
"""Nodes a time limit buys when no node limit is given: below the speed of the engine's
full-window search on two busy cores in pure Python (6 to 8 nodes per millisecond)."""
TIME_SHARE = 0.9
"""The part of a time limit the searches may use."""

CLASSIC_JUDGE = "easy"
"""The engine level whose search judges positions for the classic bots, whose own scores are on
scales of their own that cannot say which colour is better."""


@dataclass(frozen=True, slots=True)
class Appraisal:
    """What a short search says about a position."""

    value: int
    """How good the position is for the side to move (beyond WON: a proven win)."""
    moves: tuple[tuple[Point, int], ...]
    """The moves searched, each with its value for the side to move after it, best first."""
    depth: int
    """The deepest finished depth (0: none finished, the values are the move ordering's guess)."""


class Judge:
    """Appraises positions for one decision, sharing the decision's budget between its searches."""

    def __init__(self, level: LevelSettings, budget: Budget) -> None:
        """A judge searching with `level`'s settings within `budget` (for all its searches together)."""
        self.level = level
        self.budget = budget

    @classmethod
    def for_level(cls, level: str, limits: SearchLimits, clock: Clock = time.monotonic) -> Judge:
        """The judge of bot `level` within `limits` (see the module docstring for how a time limit
        becomes a node limit; with no limit at all, the level's default time is the limit).
        Raises ValueError for an unknown level."""
        level_time_ms = default_time_ms(level)  # refuses an unknown level, naming the known ones
        settings = _engine_levels().get(level) or _engine_levels()[CLASSIC_JUDGE]
        # Sparse opening positions are judged with the hand-set evaluation (see Position.evaluate_by_hand).
        search = dataclasses.replace(settings.search, hand_set_evaluation=True)
        if limits.depth is not None:
            search = dataclasses.replace(search, max_depth=max(1, limits.depth))
        settings = dataclasses.replace(settings, search=search)
        nodes = limits.nodes
        time_ms = limits.time_ms
        if time_ms is None and nodes is None and limits.depth is None:
            time_ms = level_time_ms
        if time_ms is not None:
            nodes = max(1, time_ms * NODES_PER_MS) if nodes is None else nodes
            time_ms = max(1, int(time_ms * TIME_SHARE))
        budget = Budget.from_limits(SearchLimits(time_ms=time_ms, nodes=nodes), clock)
        return cls(settings, budget)

    def appraise(self, board: Board, searches_left: int = 1) -> Appraisal:
        """Search `board` (a game not over) with this search's share of the budget: the rest
        divided by `searches_left`, the searches this decision still has to make, this one included."""
        share = self._share(searches_left)
        results: list[SearchResult] = []
        try:
            for result in Searcher(board, self.level.search, share, full_root_window=True).iterate():
                results.append(result)
        finally:
            self.budget.absorb(share)
        if not results:
            move = Searcher(board, self.level.search, Budget()).fallback()
            return Appraisal(0, ((move, 0),), 0)
        return _appraisal(results)

    def _share(self, searches_left: int) -> Budget:
        """A sub-budget with 1/`searches_left` of the time and nodes left."""
        budget = self.budget
        nodes_left = None if budget.max_nodes is None else max(1, budget.max_nodes - budget.nodes)
        fraction = 1 / max(1, searches_left)
        nodes = None if nodes_left is None else max(1, int(nodes_left * fraction))
        return budget.sub_budget(fraction, nodes)


def _appraisal(results: list[SearchResult]) -> Appraisal:
    """Average the last two depths' scores (the value, and each move's), unless the last is proven."""
    last = results[-1]
    moves = last.root_scores or ((last.move, last.score),)
    if abs(last.score) > WON or len(results) < 2 or not results[-2].root_scores:
        return Appraisal(last.score, tuple(moves), last.depth)
    before = dict(results[-2].root_scores)
    averaged = [(move, _mean(score, before[move]) if move in before else score) for move, score in moves]
    averaged.sort(key=lambda item: item[1], reverse=True)
    return Appraisal(_mean(last.score, results[-2].score), tuple(averaged), last.depth)


def _mean(latest: int, earlier: int) -> int:
    """The mean of two depths' scores, or the latest alone when it is a proven result."""
    return latest if abs(latest) > WON else (latest + earlier) // 2


def _engine_levels() -> dict[str, LevelSettings]:
    return {settings.name: settings for settings in LEVELS}
