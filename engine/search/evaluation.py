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
from collections.abc import Iterable
from dataclasses import dataclass

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
DOUBLE_THREAT_WIN = 6000
"""Bonus for the side to move with a point that makes two threats, when the opponent has no four."""
DOUBLE_THREAT_DANGER = 2500
"""Penalty per point (up to two) where the opponent would make two threats at once."""


def shape_count(code: int, shape: int) -> int:
    """How many directions of a packed count hold `shape`."""
    return (code >> (SHAPE_COUNT_BITS * shape)) & 15


Affected = tuple[tuple[tuple[int, int, int, int, int], ...], ...]
"""Per point: (key, point, line, left shift, right shift) of each (direction, point) a move there changes."""
LogEntry = tuple[int, int, int, int]
"""(key, point, black shape, white shape): a change of shapes, applied by a move or by its undo."""


@dataclass(frozen=True, slots=True)
class Geometry:
    """Index arithmetic for one board size, computed once: where each point sits on its lines."""

    stone_shifts: tuple[tuple[tuple[int, int], ...], ...]
    """Per point: (line, bit shift of the point's cell) in each direction."""
    affected: Affected
    """Per point: the (direction, point) entries whose shapes a stone there can change."""
    neighbours: tuple[tuple[int, ...], ...]
    """Per point: the points close enough to become candidates once it holds a stone."""


@functools.cache
def geometry(size: int, reach: int) -> Geometry:
    """The geometry of a `size` board; a stone changes shapes up to `reach` points away."""
    area = size * size
    line_bases = (0, size, 2 * size, 4 * size - 1)

    def line_and_position(direction: int, x: int, y: int) -> tuple[int, int]:
        # Direction order follows rules.DIRECTIONS: (1,0), (0,1), (1,1), (1,-1).
        ids = (y, x, x - y + size - 1, x + y)
        positions = (x, y, x, x)
        return line_bases[direction] + ids[direction], positions[direction]

    stone_shifts = []
    affected = []
    neighbours = []
    for y in range(size):
        for x in range(size):
            shifts = []
            entries = []
            for direction, (dx, dy) in enumerate(rules.DIRECTIONS):
                line, position = line_and_position(direction, x, y)
                shifts.append((line, 2 * (position + SIDE_CELLS)))
                for step in range(-reach, reach + 1):
                    qx, qy = x + step * dx, y + step * dy
                    if step and 0 <= qx < size and 0 <= qy < size:
                        _, other = line_and_position(direction, qx, qy)
                        point = qy * size + qx
                        left, right = 2 * other, 2 * (other + SIDE_CELLS + 1)
                        entries.append((direction * area + point, point, line, left, right))
            stone_shifts.append(tuple(shifts))
            affected.append(tuple(entries))
            near = []
            for dy in range(-2, 3):
                for dx in range(-2, 3):
                    on_line = dx == 0 or dy == 0 or abs(dx) == abs(dy)
                    if (dx or dy) and (max(abs(dx), abs(dy)) == 1 or on_line):
                        if 0 <= x + dx < size and 0 <= y + dy < size:
                            near.append((y + dy) * size + x + dx)
            neighbours.append(tuple(near))
    return Geometry(tuple(stone_shifts), tuple(affected), tuple(neighbours))


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
        black_exact = rule is not Rule.FREESTYLE
        white_exact = rule is Rule.STANDARD
        # The sixth point away only matters to tell an exact five from an overline.
        self._geometry = geometry(size, SIDE_CELLS if black_exact or white_exact else SIDE_CELLS - 1)
        self._lines = _empty_lines(size)
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
        self._apply(self._changes_around(range(area), full=True)[0])

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
        self.cells[point] = color
        self.hash ^= self._keys[color][point]
        self.moves.append(point)
        lines = self._lines
        for line, shift in self._geometry.stone_shifts[point]:
            lines[line] |= color << shift
        changes, log = self._changes_around((point,))
        self._apply(changes)
        self._logs.append(log)
        cells = self.cells
        near_count = self._near_count
        nearby = self.nearby
        nearby.discard(point)
        for other in self._geometry.neighbours[point]:
            near_count[other] += 1
            if cells[other] == EMPTY:
                nearby.add(other)
        self.side = WHITE if color == BLACK else BLACK

    def undo(self) -> int:
        """Take back the last move and return its point."""
        point = self.moves.pop()
        color = self.cells[point]
        self._apply(self._logs.pop()[::-1])
        lines = self._lines
        for line, shift in self._geometry.stone_shifts[point]:
            lines[line] &= ~(3 << shift)
        self.cells[point] = EMPTY
        self.hash ^= self._keys[color][point]
        near_count = self._near_count
        nearby = self.nearby
        for other in self._geometry.neighbours[point]:
            near_count[other] -= 1
            if near_count[other] == 0:
                nearby.discard(other)
        if near_count[point]:
            nearby.add(point)
        self.side = color
        return point

    def _changes_around(self, stones: Iterable[int], full: bool = False) -> tuple[list[LogEntry], list[LogEntry]]:
        """The shape changes that new stones at `stones` cause, and the log to undo them.

        A stone's own point loses its shapes; the empty points on its lines
        get theirs read again from the line bits and two table lookups per
        colour. With `full`, every point of `stones` is read (to start).
        """
        cells = self.cells
        lines = self._lines
        black_shapes = self.shapes[BLACK]
        white_shapes = self.shapes[WHITE]
        black_table = self._tables[BLACK]
        white_table = self._tables[WHITE]
        black_left, black_right = self._sides[BLACK]
        white_left, white_right = self._sides[WHITE]
        area = self.area
        changes: list[LogEntry] = []
        log: list[LogEntry] = []
        for stone in stones:
            if full:
                entries: Iterable[tuple[int, int, int, int, int]] = (
                    (direction * area + stone, stone, line, shift - 2 * SIDE_CELLS, shift + 2)
                    for direction, (line, shift) in enumerate(self._geometry.stone_shifts[stone])
                )
            else:
                entries = self._geometry.affected[stone]
                for direction in range(4):
                    key = direction * area + stone
                    old_black = black_shapes[key]
                    old_white = white_shapes[key]
                    if old_black or old_white:
                        changes.append((key, stone, NONE, NONE))
                        log.append((key, stone, old_black, old_white))
            for key, other, line, left_shift, right_shift in entries:
                if cells[other]:
                    continue
                bits = lines[line]
                left = (bits >> left_shift) & SIDE_MASK
                right = (bits >> right_shift) & SIDE_MASK
                black = black_table[black_left[left] + black_right[right]]
                white = white_table[white_left[left] + white_right[right]]
                old_black = black_shapes[key]
                old_white = white_shapes[key]
                if black != old_black or white != old_white:
                    changes.append((key, other, black, white))
                    log.append((key, other, old_black, old_white))
        return changes, log

    def _apply(self, changes: Iterable[LogEntry]) -> None:
        """Give (direction, point) entries new shapes, keeping counts, values, sets and totals in step.

        Both colours are handled in one pass with the same steps written out
        twice: this is the innermost loop of the whole engine. A point joins
        or leaves the threat, four and five sets only when its packed count
        crosses their marks, which are nested (a five is a four is a threat).
        """
        black_shapes, white_shapes = self.shapes[BLACK], self.shapes[WHITE]
        black_codes, white_codes = self.codes[BLACK], self.codes[WHITE]
        black_values, white_values = self.values[BLACK], self.values[WHITE]
        black_threats, white_threats = self.threats[BLACK], self.threats[WHITE]
        black_fours, white_fours = self.fours[BLACK], self.fours[WHITE]
        black_fives, white_fives = self.fives[BLACK], self.fives[WHITE]
        black_total = white_total = 0
        for key, point, black, white in changes:
            old = black_shapes[key]
            if old != black:
                black_shapes[key] = black
                before = black_codes[point]
                after = before + PACK[black] - PACK[old]
                black_codes[point] = after
                change = VALUE[black] - VALUE[old]
                black_values[point] += change
                black_total += change
                if after >= THREAT_MARK:
                    black_threats.add(point)
                    if after >= FOUR_MARK:
                        black_fours.add(point)
                        if after >= FIVE_MARK:
                            black_fives.add(point)
                        elif before >= FIVE_MARK:
                            black_fives.discard(point)
                    elif before >= FOUR_MARK:
                        black_fours.discard(point)
                        black_fives.discard(point)
                elif before >= THREAT_MARK:
                    black_threats.discard(point)
                    black_fours.discard(point)
                    black_fives.discard(point)
            old = white_shapes[key]
            if old != white:
                white_shapes[key] = white
                before = white_codes[point]
                after = before + PACK[white] - PACK[old]
                white_codes[point] = after
                change = VALUE[white] - VALUE[old]
                white_values[point] += change
                white_total += change
                if after >= THREAT_MARK:
                    white_threats.add(point)
                    if after >= FOUR_MARK:
                        white_fours.add(point)
                        if after >= FIVE_MARK:
                            white_fives.add(point)
                        elif before >= FIVE_MARK:
                            white_fives.discard(point)
                    elif before >= FOUR_MARK:
                        white_fours.discard(point)
                        white_fives.discard(point)
                elif before >= THREAT_MARK:
                    white_threats.discard(point)
                    white_fours.discard(point)
                    white_fives.discard(point)
        self.totals[BLACK] += black_total
        self.totals[WHITE] += white_total

    # --------------------------------------------------------------- queries

    @property
    def ply(self) -> int:
        """Stones on the board."""
        return len(self.moves)

    def point(self, index: int) -> Point:
        """The Point of a point index."""
        return Point(index % self.size, index // self.size)

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
        """Static value for the side to move: its potential against the opponent's, and double threats.

        The opponent's open threes (points where it would make an open four)
        count for little: the side to move will block them, while its own
        would already have won (the search looks for that first). A point
        that makes two threats at once (three-three, four-three) is nearly a
        win for the side to move if the opponent has no four to answer with,
        and a danger when it is the opponent's: two such points cannot both
        be stopped by one move.
        """
        side = self.side
        other = WHITE if side == BLACK else BLACK
        codes = self.codes[other]
        open_fours = sum(shape_count(codes[point], OPEN_FOUR) for point in self.fours[other])
        blocked = open_fours * VALUE[OPEN_FOUR] * 3 // 4
        value = self.totals[side] - (self.totals[other] - blocked) * 9 // 10
        if not self.fours[other] and self.double_threats(side, 1):
            value += DOUBLE_THREAT_WIN
        dangers = self.double_threats(other, 2)
        return value - (DOUBLE_THREAT_DANGER if dangers == 1 else 2 * DOUBLE_THREAT_DANGER if dangers else 0)

    def double_threats(self, color: int, enough: int) -> int:
        """How many points (counting up to `enough`) would give `color` two threats at once."""
        codes = self.codes[color]
        found = 0
        for point in self.threats[color]:
            code = codes[point]
            if shape_count(code, OPEN_THREE) + shape_count(code, FOUR) + shape_count(code, OPEN_FOUR) >= 2:
                if color == BLACK and self.forbidden_for_black(point):
                    continue
                found += 1
                if found >= enough:
                    break
        return found

    def move_value(self, point: int) -> int:
        """How promising `point` is for the side to move: its own shapes plus the opponent's it blocks."""
        side = self.side
        other = WHITE if side == BLACK else BLACK
        return self.values[side][point] * 10 + self.values[other][point] * 8

    def line_neighbours(self, point: int) -> list[int]:
        """Empty points on the four lines through `point`, as far as a stone there changes shapes."""
        cells = self.cells
        return [entry[1] for entry in self._geometry.affected[point] if cells[entry[1]] == EMPTY]

    def describe(self, color: int, point: int) -> list[int]:
        """The four shapes a stone of `color` at `point` would make, by direction (for tests)."""
        return [self.shapes[color][direction * self.area + point] for direction in range(4)]
