"""The bots' book of three-stone openings, each appraised by the engine itself.

Under swap, swap2 and Soosõrv-8 the first player places three stones
(black, white, black) and the other player then takes the better colour,
so the first player wants an opening that is balanced: neither colour
better with white to move. The book holds every candidate opening of one
family with the value the engine gave it (for white, who moves next), most
balanced first; `engine.opening_bot` picks among the first few.

The candidates: black on the centre, white touching it (h9 beside it or i9
on its diagonal, as renju's openings), black's second stone anywhere within
BOOK_RADIUS of the centre, each opening once up to the symmetries of its
first two stones. That family holds renju's 26 standard openings, which
Soosõrv-8 requires, and the arena's balanced openings.

The values themselves live in `engine.opening_book_data`, written by

    ./dev run python -m tools.opening_book

which appraises every candidate with `master`'s search under each rule
(see that tool for the budget); the command and the date are in that
module's docstring.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.notation import format_point, parse_point
from engine.opening_book_data import BOOK_DATA
from engine.symmetry import Symmetry, symmetries_keeping
from engine.types import Point, Rule

BOOK_SIZE = 15
"""The board the book's openings were appraised on."""
BOOK_CENTRE = Point(7, 7)
"""h8 on that board."""
BOOK_RADIUS = 5
"""Black's second stone stands at most this far from the centre, in columns and rows."""
WHITE_STONES = (Point(7, 6), Point(8, 6))
"""White's stone: h9 beside the centre, or i9 on its diagonal."""


@dataclass(frozen=True, slots=True)
class BookOpening:
    """One appraised opening."""

    stones: tuple[Point, Point, Point]
    """Black, white, black on the 15x15 board, black's first on the centre."""
    value: int
    """Its value for white (to move) by the engine's search: near 0 is balanced."""
    depth: int
    """The deepest search depth behind the value."""

    def __str__(self) -> str:
        return " ".join(format_point(point, BOOK_SIZE) for point in self.stones)

    def fits(self, size: int) -> bool:
        """Whether the opening, moved to the centre of a `size` board, stays on it."""
        return all(0 <= point.x < size and 0 <= point.y < size for point in self.on_board(size))

    def on_board(self, size: int, symmetry: Symmetry | None = None) -> tuple[Point, ...]:
        """The stones moved to the centre of a `size` board, then turned by `symmetry` if given
        (the result may be off a board too small: see `fits`)."""
        shift = size // 2 - BOOK_CENTRE.x
        moved = tuple(Point(point.x + shift, point.y + shift) for point in self.stones)
        return moved if symmetry is None else symmetry.apply_all(moved, size)


def candidate_openings(radius: int = BOOK_RADIUS) -> list[tuple[Point, Point, Point]]:
    """Every candidate opening, once each up to symmetry (see the module docstring)."""
    candidates: list[tuple[Point, Point, Point]] = []
    for white in WHITE_STONES:
        keeping = symmetries_keeping([BOOK_CENTRE], [white], BOOK_SIZE)
        seen: set[Point] = set()
        for y in range(BOOK_CENTRE.y - radius, BOOK_CENTRE.y + radius + 1):
            for x in range(BOOK_CENTRE.x - radius, BOOK_CENTRE.x + radius + 1):
                third = Point(x, y)
                if third in (BOOK_CENTRE, white):
                    continue
                canonical = min(symmetry.apply(third, BOOK_SIZE) for symmetry in keeping)
                if canonical not in seen:
                    seen.add(canonical)
                    candidates.append((BOOK_CENTRE, white, canonical))
    return candidates


def book(rule: Rule) -> tuple[BookOpening, ...]:
    """The book for games of `rule`, most balanced first (ties: as the data lists them)."""
    openings = [_read(entry) for entry in BOOK_DATA[rule.value]]
    return tuple(sorted(openings, key=lambda opening: abs(opening.value)))


def _read(entry: tuple[str, int, int]) -> BookOpening:
    text, value, depth = entry
    first, white, second = (parse_point(word, BOOK_SIZE) for word in text.split())
    return BookOpening((first, white, second), value, depth)
