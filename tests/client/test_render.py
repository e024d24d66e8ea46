"""Drawing boards and clocks as text."""

from __future__ import annotations

from client.render import format_clock, render_board
from engine.board import Board
from engine.types import Point


def test_the_board_has_coordinates_and_brackets_around_the_marked_stone() -> None:
    board = Board.from_picture(
        """
        . . . . .
        . . . . .
        . . X O .
        . . . . .
        . . . . .
        """
    )
    assert render_board(board, Point(3, 2)) == "\n".join(
        [
            "   a b c d e",
            " 5 . . . . .  5",
            " 4 . . . . .  4",
            " 3 . . X[O].  3",
            " 2 . . . . .  2",
            " 1 . . . . .  1",
            "   a b c d e",
        ]
    )


def test_a_mark_in_the_corner_stays_in_its_column() -> None:
    board = Board.from_moves([Point(0, 0)], size=5)
    first_row = render_board(board, Point(0, 0)).splitlines()[1]
    assert first_row == " 5[X]. . . .  5"


def test_without_a_mark_no_brackets_are_drawn() -> None:
    assert "[" not in render_board(Board(15))


def test_clocks_read_as_minutes_and_seconds_with_tenths_when_short() -> None:
    assert format_clock(300_000) == "5:00"
    assert format_clock(65_400) == "1:05"
    assert format_clock(3_723_000) == "1:02:03"
    assert format_clock(9_870) == "0:09.8"
    assert format_clock(-50) == "0:00.0"
