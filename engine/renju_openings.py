"""The 26 standard renju openings, and recognising one from its three stones.

A renju game under the RIF's opening rules begins with one of these: black
on the centre h8, white on one of the eight points around it, black's
second stone within the central 5x5 square (f6 to j10). Up to the board's
symmetries that leaves 13 openings with white beside black ("direct", white
on h9 here) and 13 with white on black's diagonal ("indirect", white on i9
here); the 26 are numbered 1D to 13D and 1I to 13I and have Japanese names.

Sources checked: the numbering and names are those of Wikipedia's "Renju
opening pattern" (which follows renju.net); the position of each third
stone was checked against the opening tables of two independent renju
programs published on GitHub, which agree with each other on every one.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

from engine.notation import format_point, parse_point
from engine.symmetry import SYMMETRIES
from engine.types import Point

RENJU_SIZE = 15
"""Renju is played on 15x15 only."""
CENTRE = Point(7, 7)
"""h8, where every standard opening puts black's first stone."""


class OpeningFamily(enum.StrEnum):
    """Where white's first stone stands against black's."""

    DIRECT = "D"
    """Beside black's stone, on its row or column (h9 in the table)."""
    INDIRECT = "I"
    """On one of black's diagonals (i9 in the table)."""


@dataclass(frozen=True, slots=True)
class RenjuOpening:
    """One of the 26 standard openings, in the orientation of the renju books."""

    family: OpeningFamily
    """Direct or indirect."""
    number: int
    """1 to 13 within its family."""
    name: str
    """The Japanese name in Latin letters, as RIF writes it."""
    kanji: str
    """The Japanese name."""
    stones: tuple[Point, Point, Point]
    """Black h8, then white (h9 or i9), then black's second stone."""

    @property
    def code(self) -> str:
        """The short name used in renju records: `2D`, `13I`."""
        return f"{self.number}{self.family}"

    def __str__(self) -> str:
        moves = " ".join(format_point(point, RENJU_SIZE) for point in self.stones)
        return f"{self.code} {self.name} ({moves})"


def _opening(family: OpeningFamily, number: int, name: str, kanji: str, third: str) -> RenjuOpening:
    white = "h9" if family is OpeningFamily.DIRECT else "i9"
    stones = (CENTRE, parse_point(white, RENJU_SIZE), parse_point(third, RENJU_SIZE))
    return RenjuOpening(family, number, name, kanji, stones)


_D = OpeningFamily.DIRECT
_I = OpeningFamily.INDIRECT

STANDARD_OPENINGS: tuple[RenjuOpening, ...] = (
    # Direct: white on h9. Third stones on the h column or to its right
    # (the left side mirrors them): rows 10 to 6, left to right.
    _opening(_D, 1, "Kansei", "寒星", "h10"),
    _opening(_D, 2, "Keigetsu", "渓月", "i10"),
    _opening(_D, 3, "Sosei", "疎星", "j10"),
    _opening(_D, 4, "Kagetsu", "花月", "i9"),
    _opening(_D, 5, "Zangetsu", "残月", "j9"),
    _opening(_D, 6, "Ugetsu", "雨月", "i8"),
    _opening(_D, 7, "Kinsei", "金星", "j8"),
    _opening(_D, 8, "Shogetsu", "松月", "h7"),
    _opening(_D, 9, "Kyugetsu", "丘月", "i7"),
    _opening(_D, 10, "Shingetsu", "新月", "j7"),
    _opening(_D, 11, "Zuisei", "瑞星", "h6"),
    _opening(_D, 12, "Sangetsu", "山月", "i6"),
    _opening(_D, 13, "Yusei", "遊星", "j6"),
    # Indirect: white on i9. Third stones on the diagonal j10-f6 or below
    # it (the other side mirrors them): the j column top down, then the
    # i, h and g columns, then f6.
    _opening(_I, 1, "Chosei", "長星", "j10"),
    _opening(_I, 2, "Kyogetsu", "峡月", "j9"),
    _opening(_I, 3, "Kosei", "恒星", "j8"),
    _opening(_I, 4, "Suigetsu", "水月", "j7"),
    _opening(_I, 5, "Ryusei", "流星", "j6"),
    _opening(_I, 6, "Ungetsu", "雲月", "i8"),
    _opening(_I, 7, "Hogetsu", "浦月", "i7"),
    _opening(_I, 8, "Rangetsu", "嵐月", "i6"),
    _opening(_I, 9, "Gingetsu", "銀月", "h7"),
    _opening(_I, 10, "Myojo", "明星", "h6"),
    _opening(_I, 11, "Shagetsu", "斜月", "g7"),
    _opening(_I, 12, "Meigetsu", "名月", "g6"),
    _opening(_I, 13, "Suisei", "彗星", "f6"),
)
"""The 26 standard openings: 1D to 13D, then 1I to 13I."""


def recognise_opening(stones: Sequence[Point]) -> RenjuOpening | None:
    """Which standard opening these three stones (black, white, black, on 15x15) are.

    The stones may be turned or mirrored in any of the board's eight ways;
    the opening is returned in its book orientation. None when they are no
    standard opening: not three stones, black's first not on h8, white not
    next to it, or black's second outside the central 5x5 square.
    """
    return _BY_STONES.get(tuple(stones))


_BY_STONES: Mapping[tuple[Point, ...], RenjuOpening] = MappingProxyType(
    {
        symmetry.apply_all(opening.stones, RENJU_SIZE): opening
        for opening in STANDARD_OPENINGS
        for symmetry in SYMMETRIES
    }
)
"""Each standard opening under each of the board's symmetries, by its stones: recognising one is a
look-up (bots filter their whole book with it)."""
