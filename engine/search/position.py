"""The search's view of a position: shapes kept up to date one move at a time.

For every empty point, every direction and both colours, a `Position`
knows the shape a stone there would make (see `patterns`). A move changes
shapes only on the four lines through it, within five points, so `play`
reads those again (one table read per point and direction) and logs what
it changed; `undo` writes the log back without recomputing anything. From
the shapes it keeps, also incrementally:

* per colour, the sets of points that make a five, a four (or better) and
  an open three (or better): the threat lists the threat search walks;
* per colour, the sum of the potentials of every empty point (`totals`):
  the static evaluation, which therefore costs nothing to read (and the
  sum of their move values, for the opening judge's `evaluate_by_hand`).

What a single point would make, its packed count of shapes by kind
(`code()`) and its move value (`move_value`), is read from its four shape
pairs when asked: far fewer points are asked about than a move changes.

The evaluation (`POTENTIAL`, `evaluate`) and the move ordering's values
(`MOVE_VALUE`, `move_value`) stay in this module because they are made of
those running sums: their value tables are packed into the totals that
`play` updates, so they cannot be read apart from them. That is why the
module runs past 500 lines: splitting the evaluation off would split
the sums from the tables they are made of.

Points are plain integers `y * size + x`, as in `Board.cells`.

The module is compiled by mypyc (see `engine.build`), and written for it:
constants are `Final`, so that the compiled code holds them in C; every
packed integer stays below 2**62, the largest a compiled engine keeps in
a machine word; and a move logs one integer per changed entry, since the
compiled code must box every integer it puts in a list or tuple.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Final

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
    PAIR_WHITE_SHIFT,
    SIDE_CELLS,
    THREE,
    TWO,
    WALL,
    WINDOW_MASK,
    window_table,
)
from engine.types import Point, Rule
from engine.zobrist import zobrist_keys

PAIR_BLACK: Final = (1 << PAIR_WHITE_SHIFT) - 1
"""The bits of a shape pair (see `patterns.window_table`) that hold black's shape; white's are above."""
PAIR_BITS: Final = 2 * PAIR_WHITE_SHIFT
"""Bits of a shape pair."""
PAIR_MASK: Final = (1 << PAIR_BITS) - 1
SHAPE_COUNT_BITS: Final = 3
"""Bits per shape kind in a packed count: at most four directions, so three bits suffice."""
COUNT_MASK: Final = (1 << SHAPE_COUNT_BITS) - 1
PACK: Final = tuple(0 if shape == NONE else 1 << (SHAPE_COUNT_BITS * shape) for shape in range(FIVE + 1))
FIVE_MARK: Final = 1 << (SHAPE_COUNT_BITS * FIVE)
"""A packed count at least this large holds a five (`PACK[FIVE]`)."""
FOUR_MARK: Final = 1 << (SHAPE_COUNT_BITS * FOUR)
"""A packed count at least this large holds a four or better (`PACK[FOUR]`)."""
THREAT_MARK: Final = 1 << (SHAPE_COUNT_BITS * OPEN_THREE)
"""A packed count at least this large holds an open three or better (`PACK[OPEN_THREE]`)."""

MOVE_VALUE: Final = {
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
"""What a stone making each shape is worth, for ordering moves (and in `evaluate_by_hand`)."""
VALUE: Final = tuple(MOVE_VALUE[shape] for shape in range(FIVE + 1))
POTENTIAL: Final = {
    NONE: 0,
    OVERLINE: 0,
    TWO: 57,
    OPEN_TWO: 9,
    THREE: 160,
    OPEN_THREE: 462,
    FOUR: 806,
    OPEN_FOUR: 24710,
    FIVE: 50000,
}
"""What an empty point where a colour would make each shape is worth to that colour, in the
evaluation. Fitted to game results (see `tools/tune_evaluation.py`), like the other weights of
`evaluate`: they are the values that best predict who goes on to win."""
POINT_VALUE: Final = tuple(POTENTIAL[shape] for shape in range(FIVE + 1))
OPPONENT_PERCENT: Final = 73
"""The opponent's potential counts this much (in percent) against the side to move's: the side to
move gets to use its own first."""
BLOCKED_OPEN_FOUR_PERCENT: Final = 87
"""The part of an opponent's open-four point that the side to move's next move takes away."""
DOUBLE_THREAT_WIN: Final = 36455
"""Bonus for the side to move with a point that makes two threats, when the opponent has no four."""
DOUBLE_THREAT_DANGER: Final = 94
"""Penalty per point (up to two) where the opponent would make two threats at once."""
HAND_SET: Final = (90, 75, 6000, 2500)
"""`evaluate_by_hand`'s opponent percent, blocked open-four percent, double-threat win and danger."""

WIN: Final = 1_000_000
"""The search's score of a five now; wins further away score less (a win in n plies, WIN - n)."""
WON: Final = WIN - 1_000
"""Scores beyond this are proven wins (and below -WON proven losses); evaluations stay far below."""

CODE_BITS: Final = SHAPE_COUNT_BITS * (FIVE + 1)
"""Bits of one colour's packed count; both colours' are packed in one integer, black's low."""
CODE_MASK: Final = (1 << CODE_BITS) - 1
VALUE_BITS: Final = 30
"""Bits of one colour's value (or total) in an integer holding both, black's low (far more than
any sum of values reaches)."""
VALUE_MASK: Final = (1 << VALUE_BITS) - 1
STRONG_BITS: Final = CODE_MASK ^ (THREAT_MARK - 1)
"""The bits of one colour's counts of open threes or better: only their changes move a point
between the threat, four and five sets."""
STRONG_MASK: Final = STRONG_BITS | STRONG_BITS << CODE_BITS


def _shapes_of_pair(pair: int) -> tuple[int, int]:
    """(black's shape, white's shape) of a shape pair, NONE for pairs no table holds."""
    black, white = pair & PAIR_BLACK, pair >> PAIR_WHITE_SHIFT
    return (black, white) if black <= FIVE and white <= FIVE else (NONE, NONE)


SHAPES_OF_PAIRS: Final = tuple(map(_shapes_of_pair, range(1 << PAIR_BITS)))
"""Shape pair -> (black's shape, white's shape)."""
PAIR_CODE: Final = tuple(PACK[black] + (PACK[white] << CODE_BITS) for black, white in SHAPES_OF_PAIRS)
"""Shape pair -> both colours' packed counts of it."""
PAIR_VALUE: Final = tuple(
    VALUE[black] + (VALUE[white] << VALUE_BITS) for black, white in map(_shapes_of_pair, range(256))
)
"""Shape pair -> both colours' move values of it (for ordering moves)."""
PAIR_POTENTIAL: Final = tuple(
    POINT_VALUE[black] + (POINT_VALUE[white] << VALUE_BITS) for black, white in map(_shapes_of_pair, range(256))
)
"""Shape pair -> both colours' potential in it (for the evaluation)."""


def shape_count(code: int, shape: int) -> int:
    """How many directions of a packed count hold `shape`."""
    return (code >> (SHAPE_COUNT_BITS * shape)) & COUNT_MASK


Entry = tuple[int, int, int, int]
"""(key, point, line, window shift) of one (direction, point): where its shape pair is kept
(`Position.pairs[key]`) and where to read the window of cells around it."""
Affected = tuple[tuple[Entry, ...], ...]
"""Per point: the entries a move there changes."""


@dataclass(slots=True)
class MoveLog:
    """What a move changed, so that `Position.undo` can put it back without recomputing it.

    A position keeps one log per ply and fills it again at every move
    there, so that moving allocates no log.
    """

    changes: list[int]
    """The entries whose shapes changed, in order, each as `key << PAIR_BITS | the shape pair it
    held before`."""
    switched: list[set[int]]
    """The threat, four and five sets the move put a point in or took one out of, in order."""
    switched_points: list[int]
    """The point each of `switched` gained or lost (two lists rather than one of pairs, so that
    logging a switch allocates no pair)."""
    totals: int
    """Both colours' totals before the move."""
    value_totals: int
    """Both colours' totals of move values before the move."""


@dataclass(frozen=True, slots=True)
class Geometry:
    """Index arithmetic for one board size, computed once: where each point sits on its lines."""

    stone_shifts: tuple[tuple[tuple[int, int], ...], ...]
    """Per point: (line, bit shift of the point's cell) in each direction."""
    affected: Affected
    """Per point: the (direction, point) entries whose shapes a stone there can change, its own
    four included."""
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
                    if 0 <= qx < size and 0 <= qy < size:
                        _, other = line_and_position(direction, qx, qy)
                        point = qy * size + qx
                        entries.append((direction * area + point, point, line, 2 * other))
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
        self._window_table = window_table(black_exact, white_exact)
        self.pairs = [0] * (4 * area)
        """[direction * area + point] -> the shapes a stone of either colour there would make,
        as a shape pair (see `patterns.window_table`)."""
        self.totals = 0
        """Both colours' sums of potentials over every empty point (see `POTENTIAL`), black's low."""
        self.value_totals = 0
        """Both colours' sums of move values over every empty point (for `evaluate_by_hand`)."""
        self.fives: tuple[set[int], set[int], set[int]] = (set(), set(), set())
        self.fours: tuple[set[int], set[int], set[int]] = (set(), set(), set())
        self.threats: tuple[set[int], set[int], set[int]] = (set(), set(), set())
        # Typed as tuples of any length, which compiled code walks by index (a fixed-length tuple it
        # would walk with an iterator object, allocated at every call).
        self._marked_sets: tuple[tuple[tuple[set[int], int], ...], ...] = tuple(
            ((self.threats[color], THREAT_MARK), (self.fours[color], FOUR_MARK), (self.fives[color], FIVE_MARK))
            for color in (EMPTY, BLACK, WHITE)
        )
        """[colour] -> each threat set with the packed count from which a point belongs to it."""
        self.nearby: set[int] = set()
        """Empty points within reach of a stone: the candidates for a move."""
        self._near_count = [0] * area
        self._logs: list[MoveLog] = []
        """[ply] -> what the move at that ply changed (logs beyond the current ply are spare)."""
        own_entries = tuple(
            entry for stone, entries in enumerate(self._geometry.affected) for entry in entries if entry[1] == stone
        )
        self._reshape(own_entries, MoveLog([], [], [], 0, 0))

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
        log = self._log_for(len(self.moves))
        self.moves.append(point)
        lines = self._lines
        for line, shift in self._geometry.stone_shifts[point]:
            lines[line] = lines[line] | color << shift
        self._reshape(self._geometry.affected[point], log)
        cells = self.cells
        near_count = self._near_count
        nearby = self.nearby
        nearby.discard(point)
        for other in self._geometry.neighbours[point]:
            count = near_count[other] + 1
            near_count[other] = count
            if count == 1 and cells[other] == EMPTY:
                nearby.add(other)
        self.side = WHITE if color == BLACK else BLACK

    def undo(self) -> int:
        """Take back the last move and return its point."""
        point = self.moves.pop()
        color = self.cells[point]
        self._restore(self._logs[len(self.moves)])
        lines = self._lines
        for line, shift in self._geometry.stone_shifts[point]:
            lines[line] = lines[line] & ~(3 << shift)
        self.cells[point] = EMPTY
        self.hash ^= self._keys[color][point]
        near_count = self._near_count
        nearby = self.nearby
        for other in self._geometry.neighbours[point]:
            count = near_count[other] - 1
            near_count[other] = count
            if count == 0:
                nearby.discard(other)
        if near_count[point]:
            nearby.add(point)
        self.side = color
        return point

    def _log_for(self, ply: int) -> MoveLog:
        """The log of the move at `ply`, emptied, with the totals before it."""
        if ply == len(self._logs):
            self._logs.append(MoveLog([], [], [], 0, 0))
        log = self._logs[ply]
        log.changes.clear()
        log.switched.clear()
        log.switched_points.clear()
        log.totals = self.totals
        log.value_totals = self.value_totals
        return log

    def _reshape(self, entries: tuple[Entry, ...], log: MoveLog) -> None:
        """Bring shapes, totals and threat sets up to date for `entries` (those a new stone
        changes, or every point's own to start), writing to `log` what undoes it.

        This is the innermost loop of the whole engine. A point holding a
        stone has no shapes; an empty point's are one table read of the
        window of cells around it. Both colours' totals are updated at once,
        packed in one integer, and a point's sets are only looked at when
        a count of open threes or better changes (most changes are of
        weaker shapes).
        """
        cells, lines, table = self.cells, self._lines, self._window_table
        pairs, changes = self.pairs, log.changes
        total = 0
        values = 0
        for key, point, line, shift in entries:
            pair = 0 if cells[point] else table[(lines[line] >> shift) & WINDOW_MASK]
            old = pairs[key]
            if pair == old:
                continue
            changes.append(key << PAIR_BITS | old)
            pairs[key] = pair
            total += PAIR_POTENTIAL[pair] - PAIR_POTENTIAL[old]
            values += PAIR_VALUE[pair] - PAIR_VALUE[old]
            if (PAIR_CODE[pair] | PAIR_CODE[old]) & STRONG_MASK:
                self._reclassify(point, PAIR_CODE[pair] - PAIR_CODE[old], log)
        self.totals += total
        self.value_totals += values

    def _reclassify(self, point: int, change: int, log: MoveLog) -> None:
        """After a change of `change` to the packed counts of `point` that involved an open three
        or better, move the point in or out of either colour's sets."""
        after = self._codes(point)
        before = after - change
        crossed = before ^ after
        if crossed & STRONG_BITS:
            self._switch_sets(BLACK, point, before & CODE_MASK, after & CODE_MASK, log)
        if (crossed >> CODE_BITS) & STRONG_BITS:
            self._switch_sets(WHITE, point, before >> CODE_BITS, after >> CODE_BITS, log)

    def _switch_sets(self, color: int, point: int, old: int, new: int, log: MoveLog) -> None:
        """Move `point` in or out of `color`'s threat, four and five sets as its packed count
        went from `old` to `new`, logging each switch."""
        for members, mark in self._marked_sets[color]:
            if (new >= mark) != (old >= mark):
                if new >= mark:
                    members.add(point)
                else:
                    members.discard(point)
                log.switched.append(members)
                log.switched_points.append(point)

    def _restore(self, log: MoveLog) -> None:
        """Put back what a move's `_reshape` changed."""
        pairs = self.pairs
        for change in reversed(log.changes):
            pairs[change >> PAIR_BITS] = change & PAIR_MASK
        for index, members in enumerate(log.switched):
            point = log.switched_points[index]
            if point in members:
                members.discard(point)
            else:
                members.add(point)
        self.totals = log.totals
        self.value_totals = log.value_totals

    # --------------------------------------------------------------- queries

    def code(self, color: int, point: int) -> int:
        """`color`'s packed count of the shapes a stone at `point` would make (see `shape_count`)."""
        code = self._codes(point)
        return code & CODE_MASK if color == BLACK else code >> CODE_BITS

    def _codes(self, point: int) -> int:
        """Both colours' packed counts of the shapes a stone at `point` would make, black's low."""
        pairs, area = self.pairs, self.area
        return (
            PAIR_CODE[pairs[point]]
            + PAIR_CODE[pairs[area + point]]
            + PAIR_CODE[pairs[2 * area + point]]
            + PAIR_CODE[pairs[3 * area + point]]
        )

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
        code = self.code(BLACK, point)
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
        be stopped by one move. The weights are fitted to game results (see
        `POTENTIAL`).
        """
        weights = (OPPONENT_PERCENT, BLOCKED_OPEN_FOUR_PERCENT, DOUBLE_THREAT_WIN, DOUBLE_THREAT_DANGER)
        return self._weighed(self.totals, POINT_VALUE[OPEN_FOUR], weights)

    def evaluate_by_hand(self) -> int:
        """`evaluate` with the hand-set weights it had before they were fitted: the move values.

        The opening judge (engine.opening_judge) compares sparse positions,
        such as stones thrown into the corners, on an absolute scale. The
        fitted weights were fitted on positions from real games past their
        opening, and there they rank positions well, but they lean far to the
        side to move in positions no game reaches; the hand-set weights keep
        the judge's verdicts, its margins and its book as they were measured.
        """
        return self._weighed(self.value_totals, VALUE[OPEN_FOUR], HAND_SET)

    def _weighed(self, totals: int, open_four: int, weights: tuple[int, int, int, int]) -> int:
        """The evaluation from both colours' `totals` (packed as `self.totals`), what an open-four
        point is worth in them, and (opponent percent, blocked percent, double-threat win, danger)."""
        opponent_percent, blocked_percent, win, danger = weights
        side = self.side
        other = WHITE if side == BLACK else BLACK
        own, theirs = totals & VALUE_MASK, totals >> VALUE_BITS
        if side == WHITE:
            own, theirs = theirs, own
        open_fours = sum(shape_count(self.code(other, point), OPEN_FOUR) for point in self.fours[other])
        blocked = open_fours * open_four * blocked_percent // 100
        value = own - (theirs - blocked) * opponent_percent // 100
        if not self.fours[other] and self.double_threats(side, 1):
            value += win
        dangers = self.double_threats(other, 2)
        return value - (danger if dangers == 1 else 2 * danger if dangers else 0)

    def double_threats(self, color: int, enough: int) -> int:
        """How many points (counting up to `enough`) would give `color` two threats at once."""
        found = 0
        for point in self.threats[color]:
            code = self.code(color, point)
            if shape_count(code, OPEN_THREE) + shape_count(code, FOUR) + shape_count(code, OPEN_FOUR) >= 2:
                if color == BLACK and self.forbidden_for_black(point):
                    continue
                found += 1
                if found >= enough:
                    break
        return found

    def move_value(self, point: int) -> int:
        """How promising `point` is for the side to move: its own shapes plus the opponent's it blocks."""
        pairs, area = self.pairs, self.area
        values = (
            PAIR_VALUE[pairs[point]]
            + PAIR_VALUE[pairs[area + point]]
            + PAIR_VALUE[pairs[2 * area + point]]
            + PAIR_VALUE[pairs[3 * area + point]]
        )
        black, white = values & VALUE_MASK, values >> VALUE_BITS
        return black * 10 + white * 8 if self.side == BLACK else white * 10 + black * 8

    def line_neighbours(self, point: int) -> list[int]:
        """Empty points on the four lines through `point` (not `point` itself), as far as a stone
        there changes shapes."""
        cells = self.cells
        return [entry[1] for entry in self._geometry.affected[point] if cells[entry[1]] == EMPTY and entry[1] != point]

    def describe(self, color: int, point: int) -> list[int]:
        """The four shapes a stone of `color` at `point` would make, by direction (for tests)."""
        shift = 0 if color == BLACK else PAIR_WHITE_SHIFT
        return [(self.pairs[direction * self.area + point] >> shift) & PAIR_BLACK for direction in range(4)]
