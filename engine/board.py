"""The Board: stones, turn, history, hash and result of one Gomoku game.

There are two doors onto it, as in python-chess:

* `play(point)` checks everything (on the board, empty, game not over,
  renju forbidden points) and raises a precise IllegalMoveError subclass;
* `push(point)` / `pop()` do no checks, for a search that already knows
  its moves are legal. Both keep the Zobrist hash and the result exact.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from engine import rules
from engine.errors import (
    ForbiddenMoveError,
    GameOverError,
    NothingToUndoError,
    OccupiedError,
    OffBoardError,
    WrongTurnError,
)
from engine.notation import MAX_SIZE, MIN_SIZE, format_point
from engine.types import Color, EndReason, GameResult, Point, Rule
from engine.zobrist import zobrist_keys

DEFAULT_SIZE = 15

_PICTURE_STONES = {"x": Color.BLACK, "o": Color.WHITE}
_PICTURE_EMPTY = {".", "+"}


class Board:
    """A Gomoku position together with the moves that led to it."""

    __slots__ = ("_size", "_rule", "cells", "_moves", "_hash", "_results", "_keys")

    def __init__(self, size: int = DEFAULT_SIZE, rule: Rule = Rule.FREESTYLE) -> None:
        """An empty board. Raises ValueError for a size outside 5..26, or renju not on 15x15."""
        if not MIN_SIZE <= size <= MAX_SIZE:
            raise ValueError(f"board size must be {MIN_SIZE} to {MAX_SIZE}, not {size}")
        if rule is Rule.RENJU and size != 15:
            raise ValueError(f"renju is played on 15x15 only, not {size}x{size}")
        self._size = size
        self._rule = rule
        self.cells: list[int] = [rules.EMPTY] * (size * size)
        """Read-only for callers: y * size + x -> 0 empty, 1 black, 2 white."""
        self._moves: list[Point] = []
        self._hash = 0
        self._results: list[GameResult | None] = [None]
        self._keys = zobrist_keys(size)

    # ----------------------------------------------------------- construction

    @classmethod
    def from_moves(cls, moves: Iterable[Point], size: int = DEFAULT_SIZE, rule: Rule = Rule.FREESTYLE) -> Board:
        """A board after playing `moves` in order, each checked by `play`."""
        board = cls(size, rule)
        for point in moves:
            board.play(point)
        return board

    @classmethod
    def from_picture(cls, picture: str, rule: Rule = Rule.FREESTYLE) -> Board:
        """A board drawn as text: one line per row from the top, `X` black, `O` white,
        `.` or `+` empty; spaces are ignored, blank lines skipped.

        The board is square (as many rows as columns). Stones are pushed
        alternately black then white, so black must have as many stones as
        white or one more. Meant for tests and examples, where positions are
        easiest to read as pictures.
        """
        rows = [line.replace(" ", "") for line in picture.strip().splitlines() if line.strip()]
        size = len(rows)
        blacks: list[Point] = []
        whites: list[Point] = []
        for y, row in enumerate(rows):
            if len(row) != size:
                raise ValueError(f"row {y} has {len(row)} cells; a {size}-row picture needs {size}")
            for x, char in enumerate(row.lower()):
                if char in _PICTURE_STONES:
                    (blacks if _PICTURE_STONES[char] is Color.BLACK else whites).append(Point(x, y))
                elif char not in _PICTURE_EMPTY:
                    raise ValueError(f"unexpected {char!r} at row {y}, column {x}")
        if not 0 <= len(blacks) - len(whites) <= 1:
            raise ValueError(f"black has {len(blacks)} stones and white {len(whites)}: not a reachable count")
        board = cls(size, rule)
        for index, black in enumerate(blacks):
            board.push(black)
            if index < len(whites):
                board.push(whites[index])
        return board

    def copy(self) -> Board:
        """An independent board with the same position and history."""
        clone = Board.__new__(Board)
        clone._size = self._size
        clone._rule = self._rule
        clone.cells = self.cells.copy()
        clone._moves = self._moves.copy()
        clone._hash = self._hash
        clone._results = self._results.copy()
        clone._keys = self._keys
        return clone

    # ----------------------------------------------------------------- state

    @property
    def size(self) -> int:
        """Width and height of the board."""
        return self._size

    @property
    def rule(self) -> Rule:
        """The rule the game is played under."""
        return self._rule

    @property
    def moves(self) -> tuple[Point, ...]:
        """Every move so far, black's first."""
        return tuple(self._moves)

    @property
    def ply(self) -> int:
        """How many stones have been played."""
        return len(self._moves)

    @property
    def to_move(self) -> Color:
        """The colour whose turn it is (black after an even number of moves)."""
        return Color.BLACK if len(self._moves) % 2 == 0 else Color.WHITE

    @property
    def hash(self) -> int:
        """Zobrist hash of the stones on the board (kept incrementally)."""
        return self._hash

    @property
    def result(self) -> GameResult | None:
        """The result if the position ended the game (five or full board), else None."""
        return self._results[-1]

    @property
    def last_move(self) -> Point | None:
        """The most recent move, or None on an empty board."""
        return self._moves[-1] if self._moves else None

    def stone_at(self, point: Point) -> Color | None:
        """The colour of the stone at `point`, or None if empty. Raises OffBoardError."""
        self._check_on_board(point)
        value = self.cells[point.y * self._size + point.x]
        return Color(value) if value else None

    def is_on_board(self, point: Point) -> bool:
        """Whether `point` lies on this board."""
        return 0 <= point.x < self._size and 0 <= point.y < self._size

    def is_full(self) -> bool:
        """Whether every point holds a stone."""
        return len(self._moves) == self._size * self._size

    def empty_points(self) -> Iterator[Point]:
        """Every empty point, row by row from the top."""
        size = self._size
        for index, value in enumerate(self.cells):
            if value == rules.EMPTY:
                yield Point(index % size, index // size)

    # ------------------------------------------------------------- legality

    def forbidden_reason(self, point: Point) -> rules.Forbidden | None:
        """Why `point` would be forbidden for the side to move, or None.

        Only black under renju has forbidden points; the point must be empty.
        """
        if self._rule is not Rule.RENJU or self.to_move is not Color.BLACK:
            return None
        return rules.forbidden_reason(self.cells, self._size, point.x, point.y)

    def is_forbidden(self, point: Point) -> bool:
        """Whether playing the empty `point` now would be a forbidden renju move."""
        return self.forbidden_reason(point) is not None

    def check_move(self, point: Point, color: Color | None = None) -> None:
        """Raise the IllegalMoveError subclass that says why `point` cannot be played now.

        When `color` is given, it must be the colour to move (WrongTurnError otherwise).
        """
        if self.result is not None:
            raise GameOverError("the game is over")
        if color is not None and color is not self.to_move:
            raise WrongTurnError(f"it is {self.to_move}'s turn, not {color}'s")
        self._check_on_board(point)
        if self.cells[point.y * self._size + point.x] != rules.EMPTY:
            raise OccupiedError(f"{self._name(point)} is already taken")
        reason = self.forbidden_reason(point)
        if reason is not None:
            raise ForbiddenMoveError(f"{self._name(point)} is forbidden for black under renju ({reason})")

    def is_legal(self, point: Point) -> bool:
        """Whether `play(point)` would succeed."""
        try:
            self.check_move(point)
        except ValueError:
            return False
        return True

    def legal_moves(self) -> list[Point]:
        """Every point the side to move may play (empty on a finished game)."""
        if self.result is not None:
            return []
        return [point for point in self.empty_points() if not self.is_forbidden(point)]

    # ---------------------------------------------------------------- moving

    def play(self, point: Point, color: Color | None = None) -> GameResult | None:
        """Play `point` for the side to move after checking it; return the new result.

        `color`, when given, is the colour the caller believes is to move.
        Raises OffBoardError, OccupiedError, ForbiddenMoveError, GameOverError
        or WrongTurnError, leaving the board unchanged.
        """
        self.check_move(point, color)
        self.push(point)
        return self.result

    def push(self, point: Point) -> None:
        """Place a stone for the side to move without any check (for searches)."""
        color = self.to_move
        index = point.y * self._size + point.x
        self.cells[index] = color
        self._moves.append(point)
        self._hash ^= self._keys[color][index]
        result = self._results[-1]
        if result is None:
            result = self._result_after(point, color)
        self._results.append(result)

    def pop(self) -> Point:
        """Take back the last move and return it. Raises NothingToUndoError on an empty board."""
        if not self._moves:
            raise NothingToUndoError("there is no move to take back")
        point = self._moves.pop()
        index = point.y * self._size + point.x
        color = self.cells[index]
        self.cells[index] = rules.EMPTY
        self._hash ^= self._keys[color][index]
        self._results.pop()
        return point

    def _result_after(self, point: Point, color: Color) -> GameResult | None:
        run = rules.winning_run(self.cells, self._size, point.x, point.y, color, self._rule)
        if run is not None:
            return GameResult(color, EndReason.FIVE, tuple(Point(x, y) for x, y in run))
        if self.is_full():
            return GameResult(None, EndReason.FULL_BOARD)
        return None

    # -------------------------------------------------------------- helpers

    def _check_on_board(self, point: Point) -> None:
        if not self.is_on_board(point):
            raise OffBoardError(f"({point.x}, {point.y}) is outside the {self._size}x{self._size} board")

    def _name(self, point: Point) -> str:
        return format_point(point, self._size)

    def __str__(self) -> str:
        """The position as a picture with column letters and row numbers."""
        symbols = {rules.EMPTY: ".", rules.BLACK: "X", rules.WHITE: "O"}
        size = self._size
        lines = []
        for y in range(size):
            row = " ".join(symbols[self.cells[y * size + x]] for x in range(size))
            lines.append(f"{size - y:>2} {row}")
        lines.append("   " + " ".join(chr(ord("a") + x) for x in range(size)))
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"<Board {self._size}x{self._size} {self._rule} ply={self.ply} to_move={self.to_move}>"
