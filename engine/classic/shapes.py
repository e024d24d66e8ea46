"""Counting the textbook shapes of each colour: five, open four, four, open three,
sleeping three, open two, sleeping two.

A shape is a pattern of stones of one colour and empty points along a
line, with room to grow into five: `.xxxx.` is an open four, `xx.xx` a
four, `.x.xx.` an open three, and so on (see _SHAPE_PATTERNS). Shapes are
matched strongest first and a stone counts in one shape per line only.
This is the evaluation of the classic course projects; `static`, `astar`
and `alphabeta` weight these counts in their own ways.

Counts are lists of seven integers indexed by Shape. Placing one stone
changes only its own four lines, so `shape_change` counts just those,
before and after; a search adds that change to a whole-board count
instead of recounting the board.
"""

from __future__ import annotations

import enum
import functools
import re
from collections.abc import Sequence

from engine.board import Board
from engine.rules import BLACK, DIRECTIONS, WHITE
from engine.types import Point


class Shape(enum.IntEnum):
    """The shapes counted, strongest first; the value is the index in a count list."""

    FIVE = 0
    OPEN_FOUR = 1
    FOUR = 2
    OPEN_THREE = 3
    THREE = 4
    OPEN_TWO = 5
    TWO = 6


SHAPE_COUNT = len(Shape)

_SHAPE_PATTERNS: tuple[tuple[Shape, re.Pattern[str]], ...] = tuple(
    (shape, re.compile("|".join(re.escape(pattern) for pattern in patterns)))
    for shape, patterns in (
        (Shape.FIVE, ("xxxxx",)),
        (Shape.OPEN_FOUR, (".xxxx.",)),
        (Shape.FOUR, ("xxxx.", ".xxxx", "x.xxx", "xxx.x", "xx.xx")),
        (Shape.OPEN_THREE, (".xxx.", ".x.xx.", ".xx.x.")),
        (Shape.THREE, ("xxx..", "..xxx", "xx.x.", ".x.xx", "x.xx.", ".xx.x", "xx..x", "x..xx", "x.x.x")),
        (Shape.OPEN_TWO, ("..xx.", ".xx..", ".x.x.")),
        (Shape.TWO, ("xx...", "...xx", "x.x..", "..x.x", "x..x.", ".x..x", "x...x")),
    )
)
"""Each shape as the strings it is written with (x the colour counted, `.` empty),
tried strongest first; stones already counted in a stronger shape are not
counted again."""

_DIGITS = "012"
"""Cell value to its character in a line string (cells may hold Color members, whose str is a name)."""

_AS_SEEN_BY = {color: str.maketrans({"0": ".", str(color): "x", str(3 - color): "o"}) for color in (BLACK, WHITE)}


def _consume(match: re.Match[str]) -> str:
    return match.group().replace("x", "-")


def add_shapes(cells: str, color: int, counts: list[int], sign: int = 1) -> None:
    """Add `sign` to `counts` for each shape of `color` along the line `cells`
    (a string of cell values, `0` empty, `1` black, `2` white); the ends of the
    string are the edges of the board."""
    line = cells.translate(_AS_SEEN_BY[color])
    if line.count("x") < 2:
        return
    for shape, pattern in _SHAPE_PATTERNS:
        if "x" not in line:
            return
        line, found = pattern.subn(_consume, line)
        counts[shape] += sign * found


def board_lines(board: Board) -> list[str]:
    """Every row, column and diagonal of the board as strings of cell values."""
    size = board.size
    cells = board.cells
    starts: list[tuple[int, int, int, int]] = []
    for i in range(size):
        starts += [(0, i, 1, 0), (i, 0, 0, 1)]
    for i in range(size):
        starts += [(i, 0, 1, 1), (0, i, 1, -1)]
        if i > 0:
            starts += [(0, i, 1, 1), (i, size - 1, 1, -1)]
    lines = []
    for x, y, dx, dy in starts:
        line = []
        while 0 <= x < size and 0 <= y < size:
            line.append(_DIGITS[cells[y * size + x]])
            x += dx
            y += dy
        lines.append("".join(line))
    return lines


def board_shapes(board: Board) -> tuple[list[int], list[int]]:
    """Shape counts of (black, white) over the whole board."""
    black = [0] * SHAPE_COUNT
    white = [0] * SHAPE_COUNT
    for line in board_lines(board):
        add_shapes(line, BLACK, black)
        add_shapes(line, WHITE, white)
    return black, white


@functools.cache
def _line_indices(size: int, x: int, y: int, dx: int, dy: int) -> tuple[tuple[int, ...], int]:
    """The cell indices of the whole line through (x, y) along (dx, dy), and where (x, y) is in it."""
    steps_back = 0
    while 0 <= x - dx < size and 0 <= y - dy < size:
        x -= dx
        y -= dy
        steps_back += 1
    indices = []
    while 0 <= x < size and 0 <= y < size:
        indices.append(y * size + x)
        x += dx
        y += dy
    return tuple(indices), steps_back


def line_through(board: Board, point: Point, dx: int, dy: int) -> tuple[str, int]:
    """The whole line through `point` along (dx, dy) as a string of cell values,
    and the index of `point` in it."""
    indices, position = _line_indices(board.size, point.x, point.y, dx, dy)
    cells = board.cells
    return "".join([_DIGITS[cells[index]] for index in indices]), position


def shape_change(board: Board, point: Point, color: int) -> tuple[list[int], list[int]]:
    """How the (black, white) counts change if `color` plays the empty `point`.

    The stone adds to its own colour's shapes and cuts the other's; only
    its four lines change, so only they are counted, before and after.
    """
    black = [0] * SHAPE_COUNT
    white = [0] * SHAPE_COUNT
    for dx, dy in DIRECTIONS:
        line, index = line_through(board, point, dx, dy)
        add_shapes(line, BLACK, black, -1)
        add_shapes(line, WHITE, white, -1)
        line = line[:index] + _DIGITS[color] + line[index + 1 :]
        add_shapes(line, BLACK, black)
        add_shapes(line, WHITE, white)
    return black, white


def own_gains(board: Board, point: Point) -> tuple[list[int], list[int]]:
    """How black's own counts change if black plays the empty `point`, and
    how white's change if white does: what the point is worth to each side."""
    black = [0] * SHAPE_COUNT
    white = [0] * SHAPE_COUNT
    for dx, dy in DIRECTIONS:
        line, index = line_through(board, point, dx, dy)
        for color, counts in ((BLACK, black), (WHITE, white)):
            add_shapes(line, color, counts, -1)
            add_shapes(line[:index] + _DIGITS[color] + line[index + 1 :], color, counts)
    return black, white


def added(counts: Sequence[int], change: Sequence[int]) -> list[int]:
    """`counts` plus `change`, element by element."""
    return [a + b for a, b in zip(counts, change, strict=True)]
