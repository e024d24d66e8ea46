"""Small value types shared by every part of the project.

They are immutable, hashable and carry their own string forms, so that a
colour, a rule or a result reads the same in a log, on the wire and in a
test.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass


class Color(enum.IntEnum):
    """A stone colour; its integer value is what the board stores in a cell."""

    BLACK = 1
    WHITE = 2

    @property
    def other(self) -> Color:
        """The opponent's colour."""
        return Color.WHITE if self is Color.BLACK else Color.BLACK

    def __str__(self) -> str:
        return self.name.lower()

    @classmethod
    def parse(cls, text: str) -> Color:
        """Read `black` or `white` (any case); raise ValueError otherwise."""
        try:
            return cls[text.strip().upper()]
        except KeyError:
            raise ValueError(f"unknown colour {text!r}: expected 'black' or 'white'") from None


class Rule(enum.StrEnum):
    """The win condition and restrictions of a game (see PROTOCOL.md)."""

    FREESTYLE = "freestyle"
    """Five or more in a row wins, for both colours."""
    STANDARD = "standard"
    """Exactly five wins; an overline does not win."""
    RENJU = "renju"
    """Black: exactly five, with forbidden points; white: five or more."""

    @classmethod
    def parse(cls, text: str) -> Rule:
        """Read a rule name; raise ValueError naming the accepted ones."""
        try:
            return cls(text.strip().lower())
        except ValueError:
            names = ", ".join(rule.value for rule in cls)
            raise ValueError(f"unknown rule {text!r}: expected one of {names}") from None


class EndReason(enum.StrEnum):
    """Why a game ended, as named on the wire."""

    FIVE = "five"
    RESIGN = "resign"
    TIMEOUT = "timeout"
    DRAW_AGREED = "draw_agreed"
    FULL_BOARD = "full_board"
    ABANDONED = "abandoned"


@dataclass(frozen=True, slots=True, order=True)
class Point:
    """A point of the board: `x` is the column from the left, `y` the row from the top."""

    x: int
    """Column, 0 at the left."""
    y: int
    """Row, 0 at the top."""


@dataclass(frozen=True, slots=True)
class GameResult:
    """How a game ended."""

    winner: Color | None
    """The winning colour, or None for a draw."""
    reason: EndReason
    """Why the game ended."""
    line: tuple[Point, ...] | None = None
    """The winning stones when `reason` is FIVE, else None."""
    detail: str | None = None
    """Why, in words, when the reason alone does not say it (a bot that resigned because its
    engine kept failing says how it failed); None otherwise."""
