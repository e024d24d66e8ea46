"""Drawing boards and clocks as text."""

from __future__ import annotations

import pytest

from client.render import format_clock, format_clock_setting, render_board
from engine.board import Board
from engine.record import ClockSetting
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


@pytest.mark.parametrize(
    ("initial_ms", "increment_ms", "text"),
    [
        (60_000, 2_000, "1+2"),
        (300_000, 3_000, "5+3"),
        (600_000, 0, "10+0"),
        (30_000, 1_000, "0:30+1"),
        (90_000, 0, "1:30+0"),
        (180_000, 500, "3+0.5"),
        (1_500, 0, "0:01.5+0"),
    ],
)
def test_a_clock_setting_reads_as_minutes_plus_seconds(initial_ms: int, increment_ms: int, text: str) -> None:
    assert format_clock_setting(ClockSetting(initial_ms, increment_ms)) == text
