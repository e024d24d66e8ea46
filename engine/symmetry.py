"""The eight symmetries of a square board: rotations and mirror images.

Two positions that one of these maps onto the other are the same position
for every rule in this project, since the rules look only at lines of
stones. Opening rules lean on that: renju's 26 standard openings are
counted up to symmetry, and Soosõrv-8 forbids offering two fifth moves that
some symmetry of the position maps onto each other.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass

from engine.types import Point


@dataclass(frozen=True, slots=True)
class Symmetry:
    """One way of turning or mirroring a square board onto itself.

    It transposes the board (swapping columns and rows) if asked, then
    mirrors it left to right and top to bottom if asked; the eight
    combinations are the board's eight symmetries.
    """

    name: str
    """What it does, in words (`identity`, `rotate 90` ...)."""
    transpose: bool
    """Swap x and y first (a mirror in the diagonal from the top left)."""
    mirror_x: bool
    """Then turn column x into column size - 1 - x."""
    mirror_y: bool
    """Then turn row y into row size - 1 - y."""

    def apply(self, point: Point, size: int) -> Point:
        """Where `point` of a `size` board goes under this symmetry."""
        x, y = (point.y, point.x) if self.transpose else (point.x, point.y)
        if self.mirror_x:
            x = size - 1 - x
        if self.mirror_y:
            y = size - 1 - y
        return Point(x, y)

    def apply_all(self, points: Iterable[Point], size: int) -> tuple[Point, ...]:
        """Every point mapped, in the same order."""
        return tuple(self.apply(point, size) for point in points)


SYMMETRIES: tuple[Symmetry, ...] = (
    Symmetry("identity", transpose=False, mirror_x=False, mirror_y=False),
    Symmetry("mirror left-right", transpose=False, mirror_x=True, mirror_y=False),
    Symmetry("mirror top-bottom", transpose=False, mirror_x=False, mirror_y=True),
    Symmetry("rotate 180", transpose=False, mirror_x=True, mirror_y=True),
    Symmetry("mirror in the diagonal a15-o1", transpose=True, mirror_x=False, mirror_y=False),
    Symmetry("rotate 90 clockwise", transpose=True, mirror_x=True, mirror_y=False),
    Symmetry("rotate 90 anticlockwise", transpose=True, mirror_x=False, mirror_y=True),
    Symmetry("mirror in the diagonal a1-o15", transpose=True, mirror_x=True, mirror_y=True),
)
"""The eight symmetries of a square board, the identity first.

The diagonals are named as on a 15x15 board (a15 is the top left corner)."""


def symmetries_keeping(black: Collection[Point], white: Collection[Point], size: int) -> tuple[Symmetry, ...]:
    """The symmetries that map this position onto itself, colours kept (always the identity)."""
    black_set = frozenset(black)
    white_set = frozenset(white)
    return tuple(
        symmetry
        for symmetry in SYMMETRIES
        if frozenset(symmetry.apply_all(black_set, size)) == black_set
        and frozenset(symmetry.apply_all(white_set, size)) == white_set
    )
