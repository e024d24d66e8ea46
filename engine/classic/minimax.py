"""`minimax`: depth-limited alpha-beta (negamax) with the five-cell window evaluation.

This is the bot of the common Python tutorials. The evaluation slides a
five-cell window along every row, column and diagonal; a window holding
stones of one colour only is worth WINDOW_VALUES[stones] to that colour
(two, three, four in a window, five), and the value of a position is the
side to move's total minus the opponent's. The search tries every empty
point next to a stone, to DEFAULT_DEPTH plies (2: my move and the reply).

The evaluation is kept up to date move by move: a stone changes only the
windows that contain it, so the search adds their new value and takes
away their old one instead of rescanning the board.
"""

from __future__ import annotations

from engine.board import Board
from engine.bots import Decision
from engine.classic.common import WIN_SCORE, nearby_points, rank
from engine.limits import Budget, OutOfBudget, SearchLimits
from engine.rules import BLACK, DIRECTIONS, WHITE
from engine.types import Point

DEFAULT_DEPTH = 2
WINDOW = 5
WINDOW_VALUES = {0: 0, 1: 0, 2: 10, 3: 100, 4: 1_000, 5: 100_000}
"""Value of a window holding this many stones of one colour and none of the other."""


def windows_value(board: Board, point: Point) -> tuple[int, int]:
    """The (black, white) value of the on-board windows that contain `point`."""
    size = board.size
    cells = board.cells
    totals = {BLACK: 0, WHITE: 0}
    for dx, dy in DIRECTIONS:
        for first in range(-WINDOW + 1, 1):
            last = first + WINDOW - 1
            x0, y0 = point.x + first * dx, point.y + first * dy
            x1, y1 = point.x + last * dx, point.y + last * dy
            if not (0 <= x0 < size and 0 <= y0 < size and 0 <= x1 < size and 0 <= y1 < size):
                continue
            stones = [cells[(y0 + k * dy) * size + x0 + k * dx] for k in range(WINDOW)]
            black = stones.count(BLACK)
            white = stones.count(WHITE)
            if black and not white:
                totals[BLACK] += WINDOW_VALUES[black]
            elif white and not black:
                totals[WHITE] += WINDOW_VALUES[white]
    return totals[BLACK], totals[WHITE]


def board_value(board: Board) -> tuple[int, int]:
    """The (black, white) value of every window on the board."""
    size = board.size
    black = white = 0
    for y in range(size):
        for x in range(size):
            for dx, dy in DIRECTIONS:
                x1, y1 = x + (WINDOW - 1) * dx, y + (WINDOW - 1) * dy
                if not (0 <= x1 < size and 0 <= y1 < size):
                    continue
                stones = [board.cells[(y + k * dy) * size + x + k * dx] for k in range(WINDOW)]
                blacks, whites = stones.count(BLACK), stones.count(WHITE)
                black += WINDOW_VALUES[blacks] if not whites else 0
                white += WINDOW_VALUES[whites] if not blacks else 0
    return black, white


class _Search:
    """One search: the board, the running evaluation, and the budget that counts its nodes."""

    def __init__(self, board: Board, budget: Budget) -> None:
        self.board = board
        self.budget = budget
        self.black, self.white = board_value(board)

    def play(self, point: Point) -> tuple[int, int]:
        """Push `point`, update the evaluation, and return the change to undo it with."""
        before = windows_value(self.board, point)
        self.board.push(point)
        after = windows_value(self.board, point)
        change = (after[0] - before[0], after[1] - before[1])
        self.black += change[0]
        self.white += change[1]
        return change

    def undo(self, change: tuple[int, int]) -> None:
        self.board.pop()
        self.black -= change[0]
        self.white -= change[1]

    def negamax(self, depth: int, alpha: int, beta: int) -> int:
        """The value for the side to move, searched `depth` plies deep (fail-hard)."""
        self.budget.tick()
        board = self.board
        if board.result is not None:
            return -WIN_SCORE if board.result.winner is not None else 0
        if depth == 0:
            own, other = (self.black, self.white) if board.to_move == BLACK else (self.white, self.black)
            return own - other
        for point in nearby_points(board, 1):
            change = self.play(point)
            score = -self.negamax(depth - 1, -beta, -alpha)
            self.undo(change)
            if score >= beta:
                return beta
            alpha = max(alpha, score)
        return alpha


class MinimaxBot:
    """Alpha-beta to a fixed depth over the points next to stones."""

    level = "minimax"
    description = "Textbook minimax with alpha-beta, two plies deep, five-cell window evaluation."

    def __init__(self, depth: int = DEFAULT_DEPTH) -> None:
        self.depth = depth

    def choose(self, board: Board, limits: SearchLimits, seed: int | None = None) -> Decision:
        """Search every root move; when the time or the nodes run out, play the best move fully searched.

        A move that cannot beat the best one found before it is cut off, so
        its score in `candidates` is an upper bound, as alpha-beta gives it.
        """
        depth = limits.depth or self.depth
        search = _Search(board.copy(), Budget.from_limits(limits))
        scored: list[tuple[Point, int]] = []
        best = -WIN_SCORE - 1
        try:
            for point in nearby_points(board, 1):
                change = search.play(point)
                score = -search.negamax(depth - 1, -WIN_SCORE - 1, -(best - 1))
                search.undo(change)
                scored.append((point, score))
                best = max(best, score)
        except OutOfBudget:
            if not scored:
                scored.append((nearby_points(board, 1)[0], 0))
        ranked = rank(scored, board, seed)
        move, score = ranked[0]
        nodes = search.budget.nodes
        return Decision(move=move, score=score, depth=depth, nodes=nodes, pv=(move,), candidates=tuple(ranked))
