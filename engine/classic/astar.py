"""`astar`: the best-first search of the "A* Gomoku" course design.

An open list holds points ordered by the evaluation of the board after a
trial move there (the static shape evaluation with its default weights).
The search starts from the empty neighbours of the last two moves, then
repeatedly takes the best point off the open list into the closed set and
adds its own empty neighbours, each evaluated once, to the open list. It
stops once DEFAULT_BUDGET points have been closed (or the open list runs
dry) and plays the best point of the closed set.

Like the course version it only looks where the game has just been
played; a quiet point far from the last moves is never seen.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterator

from engine.board import Board
from engine.bots import Decision
from engine.classic.common import centre, rank
from engine.classic.shapes import added, board_shapes, shape_change
from engine.classic.static import DEFAULT_WEIGHTS, evaluate
from engine.limits import Budget, SearchLimits
from engine.types import Point

DEFAULT_BUDGET = 30
"""How many points the search takes off the open list (the course's DEPTH)."""


def neighbours(board: Board, point: Point) -> Iterator[Point]:
    """The empty, playable points next to `point` (8 directions)."""
    for dy in (-1, 0, 1):
        for dx in (-1, 0, 1):
            near = Point(point.x + dx, point.y + dy)
            if (dx or dy) and board.is_on_board(near) and board.cells[near.y * board.size + near.x] == 0:
                if not board.is_forbidden(near):
                    yield near


class AStarBot:
    """Best-first search from the last moves, stopping after a budget of evaluated points."""

    level = "astar"
    description = "Textbook best-first (A*) search: expands the neighbours of the most promising point."

    def __init__(self, budget: int = DEFAULT_BUDGET) -> None:
        self.budget = budget

    def choose(self, board: Board, limits: SearchLimits, seed: int | None = None) -> Decision:
        """Run the best-first search and play the best point it closed."""
        if board.ply == 0:
            return Decision(move=centre(board), score=0, pv=(centre(board),), candidates=((centre(board), 0),))
        budget = limits.nodes or self.budget
        # A node here is a point taken off the open list, counted by `closed`;
        # the shared Budget only keeps the time.
        time_budget = Budget.from_limits(SearchLimits(time_ms=limits.time_ms))
        mover = int(board.to_move)
        counts = board_shapes(board)

        def trial_value(point: Point) -> int:
            change = shape_change(board, point, mover)
            black, white = added(counts[0], change[0]), added(counts[1], change[1])
            own, opponent = (black, white) if mover == 1 else (white, black)
            return round(evaluate(DEFAULT_WEIGHTS, own, opponent))

        open_list: list[tuple[int, int, Point]] = []
        seen: set[Point] = set()

        def add(point: Point) -> None:
            seen.add(point)
            heapq.heappush(open_list, (-trial_value(point), len(seen), point))

        for recent in board.moves[-2:]:
            for point in neighbours(board, recent):
                if point not in seen:
                    add(point)
        if not open_list:
            for point in board.legal_moves()[:1]:
                add(point)
        closed: list[tuple[Point, int]] = []
        while open_list and len(closed) < budget and not (closed and time_budget.exhausted()):
            negative_value, _, point = heapq.heappop(open_list)
            closed.append((point, -negative_value))
            for near in neighbours(board, point):
                if near not in seen:
                    add(near)
        ranked = rank(closed, board, seed)
        move, score = ranked[0]
        return Decision(move=move, score=score, depth=1, nodes=len(closed), pv=(move,), candidates=tuple(ranked))
