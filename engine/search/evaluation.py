"""The search's view of a position: shapes kept up to date one move at a time.

For every empty point, every direction and both colours, a `Position`
knows the shape a stone there would make (see `patterns`). A move changes
shapes only on the four lines through it, within five points, so `play`
recomputes those (about forty table reads) and `undo` restores them from a
log. From the shapes it keeps, also incrementally:

* per point and colour, a packed count of shapes by kind (`codes`) and a
  move value (`values`): what playing there would make;
* per colour, the sets of points that make a five, a four (or better) and
  an open three (or better): the threat lists the threat search walks;
* per colour, the sum of the values of every empty point: the static
  evaluation, which therefore costs nothing to read.

Points are plain integers `y * size + x`, as in `Board.cells`.
"""

from __future__ import annotations

import functools

from engine import rules
from engine.board import Board
from engine.rules import BLACK, EMPTY, WHITE
from engine.search.patterns import (
    FIVE,
    FOUR,
    NONE,
    OPEN_FOUR,
    OPEN_THREE,
    OPEN_TWO,
    OVERLINE,
    SIDE_CELLS,
    SIDE_MASK,
    THREE,
    TWO,
    WALL,
    shape_table,
    side_tables,
)
from engine.types import Point, Rule
from engine.zobrist import zobrist_keys

SHAPE_COUNT_BITS = 4
"""Bits per shape kind in a packed count: at most four directions, so four bits suffice."""
PACK = tuple(0 if shape == NONE else 1 << (SHAPE_COUNT_BITS * shape) for shape in range(FIVE + 1))
FIVE_MARK = PACK[FIVE]
"""A packed count at least this large holds a five."""
FOUR_MARK = PACK[FOUR]
"""A packed count at least this large holds a four or better."""
THREAT_MARK = PACK[OPEN_THREE]
"""A packed count at least this large holds an open three or better."""

MOVE_VALUE = {
    NONE: 0,
    OVERLINE: 0,
    TWO: 2,
    OPEN_TWO: 12,
    THREE: 14,
    OPEN_THREE: 70,
    FOUR: 90,
    OPEN_FOUR: 3000,
    FIVE: 50000,
}
"""What a stone making each shape is worth, for ordering moves and for the evaluation."""
VALUE = tuple(MOVE_VALUE[shape] for shape in range(FIVE + 1))


def shape_count(code: int, shape: int) -> int:
    """How many directions of a packed count hold `shape`."""
    return (code >> (SHAPE_COUNT_BITS * shape)) & 15


Affected = tuple[tuple[tuple[int, int, int, int], ...], ...]
"""Per point: (key, point, line, position) of every (direction, point) a move there changes."""
LogEntry = tuple[int, int, int, int]
"""(key, point, old black shape, old white shape): one change made by a move, for undo."""


@functools.cache
def _geometry(size: int) -> tuple[tuple[int, ...], tuple[int, ...], Affected, tuple[tuple[int, ...], ...]]:
    """Per board size: line index and position of (direction, point), the (key, point, line,
    position) entries a move at each point affects, and each point's neighbourhood."""
    area = size * size
    line_of = [0] * (4 * area)
    position_of = [0] * (4 * area)
    # Direction order follows rules.DIRECTIONS: (1,0), (0,1), (1,1), (1,-1).
    line_bases = (0, size, 2 * size, 4 * size - 1)
    for y in range(size):
        for x in range(size):
            point = y * size + x
            ids = (y, x, x - y + size - 1, x + y)
            positions = (x, y, x, x)
            for direction in range(4):
                line_of[direction * area + point] = line_bases[direction] + ids[direction]
                position_of[direction * area + point] = positions[direction]
    affected = []
    for y in range(size):
        for x in range(size):
            entries = []
            for direction, (dx, dy) in enumerate(rules.DIRECTIONS):
                for step in range(-SIDE_CELLS, SIDE_CELLS + 1):
                    qx, qy = x + step * dx, y + step * dy
                    if step and 0 <= qx < size and 0 <= qy < size:
                        key = direction * area + qy * size + qx
                        entries.append((key, qy * size + qx, line_of[key], position_of[key]))
            affected.append(tuple(entries))
    neighbours = []
    for y in range(size):
        for x in range(size):
            near = []
            for dy in range(-2, 3):
                for dx in range(-2, 3):
                    on_line = dx == 0 or dy == 0 or abs(dx) == abs(dy)
                    if (dx or dy) and (max(abs(dx), abs(dy)) == 1 or on_line):
                        if 0 <= x + dx < size and 0 <= y + dy < size:
                            near.append((y + dy) * size + x + dx)
            neighbours.append(tuple(near))
    return tuple(line_of), tuple(position_of), tuple(affected), tuple(neighbours)


def _empty_lines(size: int) -> list[int]:
    """Every line as 2-bit cells, walls beyond the board, empty on it."""
    lines = []
    for direction in range(4):
        count = size if direction < 2 else 2 * size - 1
        for line_id in range(count):
            if direction < 2:
                on_board = range(size)
            elif direction == 2:  # x - y = line_id - (size - 1)
                offset = line_id - (size - 1)
                on_board = range(max(0, offset), min(size, size + offset))
            else:  # x + y = line_id
                on_board = range(max(0, line_id - size + 1), min(size, line_id + 1))
            bits = 0
            for position in range(size + 2 * SIDE_CELLS):
                if position - SIDE_CELLS not in on_board:
                    bits |= WALL << (2 * position)
            lines.append(bits)
    return lines


class Position:
    """A position with shapes, threat sets and evaluation kept incrementally."""

    def __init__(self, size: int, rule: Rule) -> None:
        """An empty position (black to move)."""
        self.size = size
        self.rule = rule
        area = size * size
        self.area = area
        self.cells = [EMPTY] * area
        """y * size + x -> 0 empty, 1 black, 2 white (the layout of Board.cells)."""
        self.side = BLACK
        """The colour to move."""
        self.moves: list[int] = []
        self.hash = 0
        self._keys = zobrist_keys(size)
        self._line_of, self._position_of, self._affected, self._neighbours = _geometry(size)
        self._lines = _empty_lines(size)
        black_exact = rule is not Rule.FREESTYLE
        white_exact = rule is Rule.STANDARD
        self._tables = ((), shape_table(black_exact), shape_table(white_exact))
        self._sides = (((), ()), side_tables(BLACK), side_tables(WHITE))
        self.shapes: tuple[list[int], list[int], list[int]] = ([], [NONE] * (4 * area), [NONE] * (4 * area))
        """[colour][direction * area + point] -> the shape a stone of that colour there would make."""
        self.codes: tuple[list[int], list[int], list[int]] = ([], [0] * area, [0] * area)
        """[colour][point] -> packed count of shapes over the four directions."""
        self.values: tuple[list[int], list[int], list[int]] = ([], [0] * area, [0] * area)
        """[colour][point] -> the value of the shapes a stone there would make."""
        self.totals = [0, 0, 0]
        """[colour] -> sum of values over every empty point."""
        self.fives: tuple[set[int], set[int], set[int]] = (set(), set(), set())
        self.fours: tuple[set[int], set[int], set[int]] = (set(), set(), set())
        self.threats: tuple[set[int], set[int], set[int]] = (set(), set(), set())
        self.nearby: set[int] = set()
        """Empty points within reach of a stone: the candidates for a move."""
        self._near_count = [0] * area
        self._logs: list[list[LogEntry]] = []
        for point in range(area):
            for direction in range(4):
                self._refresh(
                    direction * area + point,
                    point,
                    self._line_of[direction * area + point],
                    self._position_of[direction * area + point],
                    None,
                )

    @classmethod
    def from_board(cls, board: Board) -> Position:
        """The position of `board`, with its stones played in the board's order."""
        position = cls(board.size, board.rule)
        for point in board.moves:
            position.play(point.y * board.size + point.x)
        return position

    # ----------------------------------------------------------------- moves

    def play(self, point: int) -> None:
        """Place a stone of the side to move on the empty `point` (no checks)."""
        color = self.side
        area = self.area
        self.cells[point] = color
        self.hash ^= self._keys[color][point]
        self.moves.append(point)
        lines = self._lines
        for direction in range(4):
            key = direction * area + point
            lines[self._line_of[key]] |= color << (2 * (self._position_of[key] + SIDE_CELLS))
        log: list[LogEntry] = []
        for direction in range(4):
            self._set(direction * area + point, point, NONE, NONE, log)
        cells = self.cells
        for key, other, line, position in self._affected[point]:
            if cells[other] == EMPTY:
                self._refresh(key, other, line, position, log)
        self._logs.append(log)
        near_count = self._near_count
        nearby = self.nearby
        nearby.discard(point)
        for other in self._neighbours[point]:
            near_count[other] += 1
            if cells[other] == EMPTY:
                nearby.add(other)
        self.side = WHITE if color == BLACK else BLACK

    def undo(self) -> int:
        """Take back the last move and return its point."""
        point = self.moves.pop()
        color = self.cells[point]
        log = self._logs.pop()
        for key, other, black, white in reversed(log):
            self._set(key, other, black, white, None)
        area = self.area
        for direction in range(4):
            key = direction * area + point
            self._lines[self._line_of[key]] &= ~(3 << (2 * (self._position_of[key] + SIDE_CELLS)))
        self.cells[point] = EMPTY
        self.hash ^= self._keys[color][point]
        near_count = self._near_count
        nearby = self.nearby
        for other in self._neighbours[point]:
            near_count[other] -= 1
            if near_count[other] == 0:
                nearby.discard(other)
        if near_count[point]:
            nearby.add(point)
        self.side = color
        return point

    def _refresh(self, key: int, point: int, line: int, position: int, log: list[LogEntry] | None) -> None:
        """Recompute both colours' shapes at (direction, point) from its line."""
        bits = self._lines[line]
        left = (bits >> (2 * position)) & SIDE_MASK
        right = (bits >> (2 * (position + SIDE_CELLS + 1))) & SIDE_MASK
        black_left, black_right = self._sides[BLACK]
        white_left, white_right = self._sides[WHITE]
        black = self._tables[BLACK][black_left[left] + black_right[right]]
        white = self._tables[WHITE][white_left[left] + white_right[right]]
        self._set(key, point, black, white, log)

    def _set(self, key: int, point: int, black: int, white: int, log: list[LogEntry] | None) -> None:
        """Give (direction, point) new shapes, keeping counts, values, sets and totals in step."""
        old_black = self.shapes[BLACK][key]
        old_white = self.shapes[WHITE][key]
        if old_black == black and old_white == white:
            return
        if log is not None:
            log.append((key, point, old_black, old_white))
        for color, old, new in ((BLACK, old_black, black), (WHITE, old_white, white)):
            if old == new:
                continue
            self.shapes[color][key] = new
            codes = self.codes[color]
            before = codes[point]
            after = before + PACK[new] - PACK[old]
            codes[point] = after
            change = VALUE[new] - VALUE[old]
            self.values[color][point] += change
            self.totals[color] += change
            if (before >= FIVE_MARK) != (after >= FIVE_MARK):
                (self.fives[color].add if after >= FIVE_MARK else self.fives[color].discard)(point)
            if (before >= FOUR_MARK) != (after >= FOUR_MARK):
                (self.fours[color].add if after >= FOUR_MARK else self.fours[color].discard)(point)
            if (before >= THREAT_MARK) != (after >= THREAT_MARK):
                (self.threats[color].add if after >= THREAT_MARK else self.threats[color].discard)(point)

    # --------------------------------------------------------------- queries

    @property
    def ply(self) -> int:
        """Stones on the board."""
        return len(self.moves)

    def point(self, index: int) -> Point:
        """The Point of a point index."""
        return Point(index % self.size, index // self.size)

    def index(self, point: Point) -> int:
        """The point index of a Point."""
        return point.y * self.size + point.x

    def is_forbidden(self, point: int) -> bool:
        """Whether the empty `point` is a renju forbidden point for the side to move."""
        return self.side == BLACK and self.forbidden_for_black(point)

    def forbidden_for_black(self, point: int) -> bool:
        """Whether the empty `point` would be a renju forbidden point for black.

        Only points whose shapes could be forbidden (an overline, two fours
        or threes, or two completions on one line) are handed to the exact
        rules check, so the answer equals `rules.forbidden_reason(...) is not None`.
        """
        if self.rule is not Rule.RENJU:
            return False
        return self.black_could_be_forbidden(point) and (
            rules.forbidden_reason(self.cells, self.size, point % self.size, point // self.size) is not None
        )

    def black_could_be_forbidden(self, point: int) -> bool:
        """Whether black's shapes at `point` need the exact forbidden check (never misses one)."""
        code = self.codes[BLACK][point]
        if code >= FIVE_MARK:
            return False
        strong = shape_count(code, OPEN_THREE) + shape_count(code, FOUR) + shape_count(code, OPEN_FOUR)
        return strong >= 2 or shape_count(code, OPEN_FOUR) > 0 or shape_count(code, OVERLINE) > 0

    def evaluate(self) -> int:
        """Static value for the side to move: its potential against the opponent's."""
        side = self.side
        other = WHITE if side == BLACK else BLACK
        return self.totals[side] - self.totals[other] * 9 // 10

    def move_value(self, point: int) -> int:
        """How promising `point` is for the side to move: its own shapes plus the opponent's it blocks."""
        side = self.side
        other = WHITE if side == BLACK else BLACK
        return self.values[side][point] * 10 + self.values[other][point] * 8

    def line_neighbours(self, point: int) -> list[int]:
        """Empty points on the four lines through `point`, at most five points away."""
        cells = self.cells
        return [other for _, other, _, _ in self._affected[point] if cells[other] == EMPTY]

    def describe(self, color: int, point: int) -> list[int]:
        """The four shapes a stone of `color` at `point` would make, by direction (for tests)."""
        return [self.shapes[color][direction * self.area + point] for direction in range(4)]
