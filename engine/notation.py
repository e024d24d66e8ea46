"""Writing points and games as text, and reading them back.

Two notations are supported:

* Human notation, as in renju books: column letter then row number counted
  from the bottom. On 15x15, `h8` is the centre (x=7, y=7) and `a1` is the
  bottom-left corner (x=0, y=14). Letters run a..z with none skipped, which
  covers every size up to 26.
* Letter pairs, as in the classic exercise feeds: each move is two letters,
  the first the row from the top and the second the column from the left,
  both with `a` = 0. A game is one string of pairs, `hhjhii...`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from engine.errors import NotationError
from engine.types import Point

MIN_SIZE = 5
MAX_SIZE = 26

_HUMAN = re.compile(r"([a-z])([0-9]{1,2})")


def _check_size(size: int) -> None:
    if not MIN_SIZE <= size <= MAX_SIZE:
        raise NotationError(f"board size {size} is outside {MIN_SIZE}..{MAX_SIZE}")


def _check_on_board(point: Point, size: int, text: str) -> None:
    if not (0 <= point.x < size and 0 <= point.y < size):
        raise NotationError(f"{text!r} is outside the {size}x{size} board")


def format_point(point: Point, size: int) -> str:
    """Human notation of `point` on a `size` board, e.g. `h8`."""
    _check_size(size)
    _check_on_board(point, size, f"({point.x}, {point.y})")
    return f"{chr(ord('a') + point.x)}{size - point.y}"


def looks_like_point(text: str) -> bool:
    """Whether `text` is written as a point in human notation (a column letter and a row
    number, any case, spaces around allowed), whatever the board: `z26` does, `hello` and
    `7,7` do not.

    This is how a caller tells "not a point at all" (refuse it as such) from
    "a point off this board" (which `parse_point` then raises for).
    """
    return _HUMAN.fullmatch(text.strip().lower()) is not None


def parse_point(text: str, size: int) -> Point:
    """Read human notation such as `h8` (any case) on a `size` board.

    Raises NotationError when the text is not a letter and a row number
    (`looks_like_point` is false), or names a point off the board.
    """
    _check_size(size)
    match = _HUMAN.fullmatch(text.strip().lower())
    if match is None:
        raise NotationError(f"{text!r} is not a point: expected a column letter and a row number, like 'h8'")
    column = ord(match.group(1)) - ord("a")
    row = int(match.group(2))
    if column >= size or not 1 <= row <= size:
        raise NotationError(f"{text!r} is outside the {size}x{size} board")
    return Point(column, size - row)


def format_pairs(points: Iterable[Point]) -> str:
    """Letter-pair notation of a move sequence: row letter then column letter per move."""
    pieces = []
    for point in points:
        if not (0 <= point.x < MAX_SIZE and 0 <= point.y < MAX_SIZE):
            raise NotationError(f"({point.x}, {point.y}) cannot be written as a letter pair")
        pieces.append(chr(ord("a") + point.y) + chr(ord("a") + point.x))
    return "".join(pieces)


def parse_pairs(text: str, size: int) -> list[Point]:
    """Read a letter-pair move sequence such as `hhjhii` on a `size` board.

    Whitespace around the string is ignored. Raises NotationError for an odd
    number of letters, a character that is not a letter, or a point off the
    board. Repeated points are not checked here: playing them on a board is
    what reports an occupied point.
    """
    _check_size(size)
    letters = text.strip().lower()
    if len(letters) % 2:
        raise NotationError(f"letter-pair text has an odd number of letters ({len(letters)})")
    points = []
    for start in range(0, len(letters), 2):
        pair = letters[start : start + 2]
        if not ("a" <= pair[0] <= "z" and "a" <= pair[1] <= "z"):
            raise NotationError(f"{pair!r} at position {start} is not a pair of letters")
        point = Point(ord(pair[1]) - ord("a"), ord(pair[0]) - ord("a"))
        _check_on_board(point, size, pair)
        points.append(point)
    return points
