"""Exceptions raised by the engine, one class per kind of mistake.

Every class derives from ValueError, so a caller that only wants to say
"that was not allowed" can catch ValueError; a caller that maps errors to
wire codes (the server) catches the precise class.
"""

from __future__ import annotations


class IllegalMoveError(ValueError):
    """A move that the rules do not allow in the current position."""


class OffBoardError(IllegalMoveError):
    """The point is outside the board."""


class OccupiedError(IllegalMoveError):
    """The point already holds a stone."""


class ForbiddenMoveError(IllegalMoveError):
    """Renju: the point is forbidden for black (overline, double-four or double-three)."""


class GameOverError(IllegalMoveError):
    """The game has already ended."""


class WrongTurnError(IllegalMoveError):
    """The colour that tried to move is not the colour to move."""


class NothingToUndoError(ValueError):
    """An undo was asked for on a board with no moves."""


class NotationError(ValueError):
    """A point or move sequence written in a notation could not be read."""


class RecordFormatError(ValueError):
    """A game record (JSON, PSQ, SGF) could not be read."""
