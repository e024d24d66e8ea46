"""Win conditions and renju forbidden points, on a flat array of cells.

The functions here take the board as `cells`, a list of `size * size`
integers indexed `y * size + x` (0 empty, 1 black, 2 white), so that both
the Board and the search can call them without copying. Functions that
need to try stones place them temporarily and always restore the cells.

Renju follows the RIF rules: black's overline, double-four and
double-three are forbidden; a move that makes exactly five is never
forbidden; a three counts only if it can become a straight four by a move
that is not itself forbidden (checked recursively); a double-four may lie
on a single line (`X.XXX.X`).
"""

from __future__ import annotations

import enum
from collections.abc import Iterator
from typing import Final

from engine.types import Rule

EMPTY: Final = 0
BLACK: Final = 1
"""`Color.BLACK` as the integer a cell holds."""
WHITE: Final = 2
"""`Color.WHITE` as the integer a cell holds."""

DIRECTIONS: Final[tuple[tuple[int, int], ...]] = ((1, 0), (0, 1), (1, 1), (1, -1))
"""The four line directions: horizontal, vertical, and the two diagonals."""


class Forbidden(enum.StrEnum):
    """Why a renju point is forbidden for black."""

    OVERLINE = "overline"
    DOUBLE_FOUR = "double-four"
    DOUBLE_THREE = "double-three"


def count_direction(cells: list[int], size: int, x: int, y: int, dx: int, dy: int, color: int) -> int:
    """Stones of `color` next to (x, y) going in direction (dx, dy), (x, y) itself excluded."""
    count = 0
    x += dx
    y += dy
    while 0 <= x < size and 0 <= y < size and cells[y * size + x] == color:
        count += 1
        x += dx
        y += dy
    return count


def line_length(cells: list[int], size: int, x: int, y: int, dx: int, dy: int, color: int) -> int:
    """Length of the run of `color` through (x, y) along (dx, dy), counting (x, y) as that colour."""
    return 1 + count_direction(cells, size, x, y, dx, dy, color) + count_direction(cells, size, x, y, -dx, -dy, color)


def is_winning_length(length: int, color: int, rule: Rule) -> bool:
    """Whether a run of `length` stones of `color` wins under `rule`."""
    if length < 5:
        return False
    if rule is Rule.FREESTYLE:
        return True
    if rule is Rule.STANDARD:
        return length == 5
    return length == 5 if color == BLACK else True


def winning_run(cells: list[int], size: int, x: int, y: int, color: int, rule: Rule) -> list[tuple[int, int]] | None:
    """The stones of a winning run through (x, y) for `color`, or None.

    (x, y) is taken to hold `color`. When several directions win, the first
    in DIRECTIONS order is returned.
    """
    for dx, dy in DIRECTIONS:
        forward = count_direction(cells, size, x, y, dx, dy, color)
        backward = count_direction(cells, size, x, y, -dx, -dy, color)
        if is_winning_length(1 + forward + backward, color, rule):
            return [(x + step * dx, y + step * dy) for step in range(-backward, forward + 1)]
    return None


def forbidden_reason(cells: list[int], size: int, x: int, y: int) -> Forbidden | None:
    """Why an empty point is forbidden for black under renju, or None if black may play it.

    The caller must pass an empty point; the cells are unchanged on return.
    """
    index = y * size + x
    if cells[index] != EMPTY:
        raise ValueError(f"({x}, {y}) is not empty")
    cells[index] = BLACK
    try:
        return _forbidden_with_stone(cells, size, x, y)
    finally:
        cells[index] = EMPTY


def _forbidden_with_stone(cells: list[int], size: int, x: int, y: int) -> Forbidden | None:
    """The forbidden test proper, with the black stone already at (x, y)."""
    lengths = [line_length(cells, size, x, y, dx, dy, BLACK) for dx, dy in DIRECTIONS]
    if 5 in lengths:
        return None
    if any(length > 5 for length in lengths):
        return Forbidden.OVERLINE
    fours = 0
    threes = 0
    for dx, dy in DIRECTIONS:
        direction_fours = _count_fours(cells, size, x, y, dx, dy)
        if direction_fours:
            fours += direction_fours
        elif _is_three(cells, size, x, y, dx, dy):
            threes += 1
    if fours >= 2:
        return Forbidden.DOUBLE_FOUR
    if threes >= 2:
        return Forbidden.DOUBLE_THREE
    return None


def _empty_points_near(cells: list[int], size: int, x: int, y: int, dx: int, dy: int) -> Iterator[tuple[int, int, int]]:
    """(k, qx, qy) for each empty point within four steps of (x, y) along (dx, dy)."""
    for k in (-4, -3, -2, -1, 1, 2, 3, 4):
        qx = x + k * dx
        qy = y + k * dy
        if 0 <= qx < size and 0 <= qy < size and cells[qy * size + qx] == EMPTY:
            yield k, qx, qy


def _five_completions(cells: list[int], size: int, x: int, y: int, dx: int, dy: int) -> list[int]:
    """Offsets k along (dx, dy) of the empty points where black would make exactly
    five through the black stone at (x, y)."""
    offsets = []
    for k, qx, qy in _empty_points_near(cells, size, x, y, dx, dy):
        cells[qy * size + qx] = BLACK
        forward = count_direction(cells, size, qx, qy, dx, dy, BLACK)
        backward = count_direction(cells, size, qx, qy, -dx, -dy, BLACK)
        cells[qy * size + qx] = EMPTY
        # The run through q spans offsets k-backward .. k+forward; it must hold (x, y).
        if forward + backward == 4 and k - backward <= 0 <= k + forward:
            offsets.append(k)
    return offsets


def _count_fours(cells: list[int], size: int, x: int, y: int, dx: int, dy: int) -> int:
    """How many fours the black stone at (x, y) belongs to along one line.

    A straight four (`.XXXX.`) has two completions five points apart and is
    one four; completions that are not so placed (`X.XXX.X`) are separate
    fours, which is how a double-four can lie on one line.
    """
    offsets = _five_completions(cells, size, x, y, dx, dy)
    if len(offsets) == 2 and abs(offsets[0] - offsets[1]) == 5:
        return 1
    return len(offsets)


def _is_straight_four(cells: list[int], size: int, x: int, y: int, dx: int, dy: int) -> bool:
    """Whether the black stone at (x, y) is part of a straight four along (dx, dy)."""
    offsets = _five_completions(cells, size, x, y, dx, dy)
    return any(abs(a - b) == 5 for a in offsets for b in offsets)


def _is_three(cells: list[int], size: int, x: int, y: int, dx: int, dy: int) -> bool:
    """Whether the black stone at (x, y) is part of a real three along (dx, dy).

    It is, if some empty point on the line turns it into a straight four
    and that point is not itself forbidden for black (the recursive rule).
    """
    for _, qx, qy in _empty_points_near(cells, size, x, y, dx, dy):
        cells[qy * size + qx] = BLACK
        makes_straight_four = _is_straight_four(cells, size, x, y, dx, dy)
        cells[qy * size + qx] = EMPTY
        if makes_straight_four and forbidden_reason(cells, size, qx, qy) is None:
            return True
    return False


def no_five_possible(cells: list[int], size: int) -> bool:
    """Whether no line of five cells is left that either colour could still fill.

    Such a game can only end in a draw (a bot accepts a draw offer then, and
    declines it otherwise).
    """
    for y in range(size):
        for x in range(size):
            for dx, dy in DIRECTIONS:
                end_x, end_y = x + 4 * dx, y + 4 * dy
                if not (0 <= end_x < size and 0 <= end_y < size):
                    continue
                stones = {cells[(y + step * dy) * size + x + step * dx] for step in range(5)} - {EMPTY}
                if len(stones) < 2:
                    return False
    return True
