"""Line-pattern tables: what a stone placed on an empty point makes along one line.

Only the five points on each side of a point can take part in a five
through it, so the shape a stone makes along one direction depends on ten
neighbours. Each side is read as five cells of 2 bits (0 empty, 1 black,
2 white, 3 wall) and reduced, for one colour, to a canonical side: own
stones and empty points up to the first blocker (an opponent stone or the
edge), after which nothing matters. There are only 63 canonical sides, so
the shape of every (left side, right side) pair fits in a table of 3,969
entries, computed once per kind of five (exact or five-or-more).

For the search, `window_table` folds all of this into one read: the
eleven cells centred on an empty point (22 bits straight from the line)
index a table of both colours' shapes at once. The tables never change
after they are built.
"""

from __future__ import annotations

import functools
from typing import Final

SIDE_CELLS: Final = 5
"""Cells read on each side of a point: enough to see an overline through it."""
WINDOW_BITS: Final = 2 * (2 * SIDE_CELLS + 1)
WINDOW_MASK: Final = (1 << WINDOW_BITS) - 1
"""The bits of an eleven-cell window: five cells, the point itself, five cells."""
PAIR_WHITE_SHIFT: Final = 4
"""A shape pair holds both colours' shapes as `black | white << PAIR_WHITE_SHIFT`."""
WALL: Final = 3
"""The 2-bit code of a cell beyond the edge of the board."""

# Shapes, weakest first; comparisons such as `shape >= FOUR` rely on this order.
NONE: Final = 0
OVERLINE: Final = 1
"""The stone would make six or more where only an exact five wins."""
TWO: Final = 2
"""One more stone makes a THREE."""
OPEN_TWO: Final = 3
"""One more stone makes an OPEN_THREE."""
THREE: Final = 4
"""One more stone makes a FOUR."""
OPEN_THREE: Final = 5
"""One more stone makes an OPEN_FOUR: a threat that must be answered."""
FOUR: Final = 6
"""One point left to complete a five."""
OPEN_FOUR: Final = 7
"""Two or more points complete a five: it cannot be blocked."""
FIVE: Final = 8
"""The stone completes a winning five."""

_OWN: Final = 1
_EMPTY: Final = 0
_BLOCK: Final = 2
_CENTER: Final = SIDE_CELLS


@functools.cache
def canonical_sides() -> tuple[tuple[int, ...], ...]:
    """Every canonical side, nearest cell first: own/empty cells, then blockers to the end."""
    sides: list[tuple[int, ...]] = []

    def extend(prefix: tuple[int, ...]) -> None:
        if len(prefix) == SIDE_CELLS:
            sides.append(prefix)
            return
        sides.append(prefix + (_BLOCK,) * (SIDE_CELLS - len(prefix)))
        extend(prefix + (_OWN,))
        extend(prefix + (_EMPTY,))

    extend(())
    return tuple(sides)


def _canonical(cells: tuple[int, ...]) -> tuple[int, ...]:
    """Blank out everything behind the first blocker of a side (nearest cell first)."""
    if _BLOCK in cells:
        cut = cells.index(_BLOCK)
        return cells[:cut] + (_BLOCK,) * (SIDE_CELLS - cut)
    return cells


@functools.cache
def side_tables(color: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """For `color` (1 or 2): (left, right) tables from 10 side bits to a pre-scaled side index.

    Left bits hold the far cell lowest (cells x-5 .. x-1); right bits hold the
    near cell lowest (cells x+1 .. x+5). Look a shape up as
    `shape_table(exact)[left[bits_left] + right[bits_right]]`.
    """
    index = {side: number for number, side in enumerate(canonical_sides())}
    count = len(index)
    left = []
    right = []
    for bits in range(1 << (2 * SIDE_CELLS)):
        codes = [(bits >> (2 * k)) & 3 for k in range(SIDE_CELLS)]
        local = tuple(_OWN if code == color else _EMPTY if code == 0 else _BLOCK for code in codes)
        right.append(index[_canonical(local)])
        left.append(index[_canonical(local[::-1])] * count)
    return tuple(left), tuple(right)


def _run_through(line: list[int], at: int) -> int:
    """Length of the run of own stones through `at` (which must hold an own stone)."""
    start = at
    while start > 0 and line[start - 1] == _OWN:
        start -= 1
    end = at
    while end < len(line) - 1 and line[end + 1] == _OWN:
        end += 1
    return end - start + 1


def _is_win(run: int, exact: bool) -> bool:
    return run == 5 or (run > 5 and not exact)


def _completions(line: list[int], exact: bool) -> int:
    """How many empty points would complete a winning five through the centre."""
    count = 0
    for at in range(1, 2 * SIDE_CELLS):
        if line[at] != _EMPTY:
            continue
        line[at] = _OWN
        if _is_win(_run_through(line, _CENTER), exact):
            count += 1
        line[at] = _EMPTY
    return count


_WEAKER: Final = {OPEN_FOUR: OPEN_THREE, FOUR: THREE, OPEN_THREE: OPEN_TWO, THREE: TWO}
"""The shape one stone short of each shape that a further stone can lead to."""


def _shape(line: list[int], exact: bool, memo: dict[tuple[int, ...], int]) -> int:
    """The shape of an 11-cell line whose centre holds an own stone."""
    key = tuple(line)
    known = memo.get(key)
    if known is not None:
        return known
    run = _run_through(line, _CENTER)
    if run >= 5:
        shape = FIVE if _is_win(run, exact) else OVERLINE
    else:
        completions = _completions(line, exact)
        if completions >= 2:
            shape = OPEN_FOUR
        elif completions == 1:
            shape = FOUR
        else:
            shape = NONE
            for at in range(1, 2 * SIDE_CELLS):
                if line[at] != _EMPTY:
                    continue
                line[at] = _OWN
                shape = max(shape, _WEAKER.get(_shape(line, exact, memo), NONE))
                line[at] = _EMPTY
    memo[key] = shape
    return shape


@functools.cache
def shape_table(exact: bool) -> tuple[int, ...]:
    """Shape by (pre-scaled left side index + right side index); `exact`: only five wins, not six."""
    sides = canonical_sides()
    memo: dict[tuple[int, ...], int] = {}
    table = []
    for left in sides:
        for right in sides:
            line = list(left[::-1]) + [_OWN] + list(right)
            table.append(_shape(line, exact, memo))
    return tuple(table)


@functools.cache
def window_table(black_exact: bool, white_exact: bool) -> bytes:
    """Both colours' shapes (a shape pair) by the 22-bit window around an empty point.

    The window holds the five cells left of the point in its low ten bits
    (far cell lowest), the point's own (empty) cell, then the five cells to
    its right (near cell lowest), exactly as they lie in a line's bits, so
    the search reads a shape pair with one shift, one mask and one index.
    Windows whose centre is not empty are never read and hold 0.
    """
    black_table, white_table = shape_table(black_exact), shape_table(white_exact)
    black_left, black_right = side_tables(1)
    white_left, white_right = side_tables(2)
    sides = range(1 << (2 * SIDE_CELLS))
    table = bytearray(1 << WINDOW_BITS)
    right_shift = 2 * (SIDE_CELLS + 1)
    for right in sides:
        black_index, white_index = black_right[right], white_right[right]
        start = right << right_shift
        table[start : start + len(sides)] = bytes(
            black_table[black_left[left] + black_index]
            | white_table[white_left[left] + white_index] << PAIR_WHITE_SHIFT
            for left in sides
        )
    return bytes(table)


def shape_of_cells(left_near_first: str, right_near_first: str, exact: bool) -> int:
    """The shape for a side written as text (`x` own, `.` empty, `o` blocker), for tests and docs.

    Each side lists up to five cells starting next to the point; missing
    cells count as blockers (the edge).
    """
    codes = {"x": _OWN, ".": _EMPTY, "o": _BLOCK}

    def side(text: str) -> tuple[int, ...]:
        cells = tuple(codes[char] for char in text.lower()) + (_BLOCK,) * (SIDE_CELLS - len(text))
        return _canonical(cells[:SIDE_CELLS])

    index = {value: number for number, value in enumerate(canonical_sides())}
    return shape_table(exact)[index[side(left_near_first)] * len(index) + index[side(right_near_first)]]
