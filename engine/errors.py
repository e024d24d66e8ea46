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


class OpeningError(ValueError):
    """A step that the opening rule does not allow now; the opening is unchanged.

    An opening stone that is illegal as a stone (off the board, on another
    stone, forbidden) raises the IllegalMoveError subclass instead, as a
    move would.
    """


class OpeningOverError(OpeningError):
    """The opening has ended: from here on stones are game moves."""


class NotYourDecisionError(OpeningError):
    """The other player makes the opening's next decision."""


class StepNotOpenError(OpeningError):
    """That kind of step is not one of those the opening rule offers now."""


class WrongCountError(OpeningError):
    """A number of stones, of offered fifth moves, or a declared count that the rule does not allow here."""


class NotStandardOpeningError(OpeningError):
    """Soosõrv-8: the first three stones are not one of the 26 standard renju openings."""


class SymmetricOffersError(OpeningError):
    """Soosõrv-8: two offered fifth moves are the same move, or mirror images of each other in the position."""


class NotOfferedError(OpeningError):
    """Soosõrv-8: the chosen fifth move is not one of those offered."""
