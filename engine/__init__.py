"""The Gomoku engine: rules, notation, records, evaluation and search.

Pure Python with no I/O: nothing here reads files, opens sockets, prints
or touches asyncio. The server, the client and the command-line tools all
stand on it.

The one exception is how the package imports itself: the search's hot
path can run compiled to C by mypyc or as the same Python sources, and
`GOMOKU_ENGINE=pure` in the environment asks for the sources (see
`engine.build`). `use_pure_python_if_asked` must run before any of those
modules is imported, hence first.
"""

from engine.build import build_info, use_pure_python_if_asked

use_pure_python_if_asked()

from engine.board import DEFAULT_SIZE, Board
from engine.errors import (
    ForbiddenMoveError,
    GameOverError,
    IllegalMoveError,
    NotationError,
    NothingToUndoError,
    OccupiedError,
    OffBoardError,
    RecordFormatError,
    WrongTurnError,
)
from engine.notation import format_pairs, format_point, looks_like_point, parse_pairs, parse_point
from engine.rules import Forbidden
from engine.types import Color, EndReason, GameResult, Point, Rule

__all__ = [
    "DEFAULT_SIZE",
    "Board",
    "Color",
    "EndReason",
    "Forbidden",
    "ForbiddenMoveError",
    "GameOverError",
    "GameResult",
    "IllegalMoveError",
    "NotationError",
    "NothingToUndoError",
    "OccupiedError",
    "OffBoardError",
    "Point",
    "RecordFormatError",
    "Rule",
    "WrongTurnError",
    "build_info",
    "format_pairs",
    "format_point",
    "looks_like_point",
    "parse_pairs",
    "parse_point",
]
