"""`greedy`: one-ply pattern scoring, as in the "AI Gomoku step 8" exercise.

Every empty point C is scored by reading the four 9-cell lines centred on
it as strings (M own stone, O opponent stone, C the point, `.` empty, `#`
off the board) and adding, for each pattern of the table below, its value
times the number of times it occurs in the line without overlap (Python's
`str.count`), plus 20 for every empty cell of the line. The bot plays a
highest-scoring point. No look-ahead: it is the baseline every course
starts from.
"""

from __future__ import annotations

from engine.board import Board
from engine.bots import Decision
from engine.classic.common import rank
from engine.limits import SearchLimits
from engine.rules import DIRECTIONS
from engine.types import Point

PATTERN_TABLE: tuple[tuple[int, tuple[str, ...]], ...] = (
    # win: five with the point
    (10000, ("CMMMM", "MCMMM", "MMCMM", "MMMCM", "MMMMC")),
    # must defend: the opponent's four ends at the point
    (6000, ("COOOO", "OOOOC")),
    # two-step win: an open four with the point
    (5000, (".CMMM.", ".MCMM.", ".MMCM.", ".MMMC.")),
    # two-step defence: stop the opponent's open three becoming a four
    (2500, ("COOO.", ".OOOC", ".OOCO.", ".OCOO.")),
    # attack with one end blocked: a four the opponent can stop
    (2000, ("OCMMM.", "OMCMM.", "OMMCM.", "OMMMC.", ".CMMMO", ".MCMMO", ".MMCMO", ".MMMCO")),
    # open three
    (400, (".MMC.", ".MCM.", ".CMM.")),
    # prevention
    (400, (".OOC", "COO.", "MOOOC", "COOOM")),
    # weak attack and weak defence
    (200, (".MMCO", ".MCMO", ".CMMO", "OMMC.", "OMCM.", "OCMM.", "MOOC", "COOM")),
    # layout: build next to an own stone
    (50, (".MC.", ".CM.")),
)
"""(value, patterns) from the exercise, strongest first."""

EMPTY_CELL_VALUE = 20
"""The table's last rule: every empty cell in the lines adds this much."""

LINE_REACH = 4
"""Cells read on each side of the point: lines are 2 * 4 + 1 = 9 cells long."""


def line_string(board: Board, point: Point, dx: int, dy: int) -> str:
    """The 9-cell line through `point` along (dx, dy), as the side to move sees it."""
    own = int(board.to_move)
    size = board.size
    chars = []
    for step in range(-LINE_REACH, LINE_REACH + 1):
        x = point.x + step * dx
        y = point.y + step * dy
        if step == 0:
            chars.append("C")
        elif not (0 <= x < size and 0 <= y < size):
            chars.append("#")
        else:
            value = board.cells[y * size + x]
            chars.append("." if value == 0 else "M" if value == own else "O")
    return "".join(chars)


def line_score(line: str) -> int:
    """The table's value of one line string."""
    score = EMPTY_CELL_VALUE * line.count(".")
    for value, patterns in PATTERN_TABLE:
        score += value * sum(line.count(pattern) for pattern in patterns)
    return score


def point_score(board: Board, point: Point) -> int:
    """The exercise's score of the empty `point` for the side to move: the sum over its four lines."""
    return sum(line_score(line_string(board, point, dx, dy)) for dx, dy in DIRECTIONS)


class GreedyBot:
    """Plays the point with the highest pattern-table score."""

    level = "greedy"
    description = "Textbook greedy: scores each point from a pattern table and plays the best, no look-ahead."

    def choose(self, board: Board, limits: SearchLimits, seed: int | None = None) -> Decision:
        """Score every legal point and play a best one (ties broken by `seed`)."""
        ranked = rank(((point, point_score(board, point)) for point in board.legal_moves()), board, seed)
        best, score = ranked[0]
        return Decision(move=best, score=score, depth=1, nodes=len(ranked), pv=(best,), candidates=tuple(ranked))
