"""The status line pinned to the bottom row of a terminal."""

from __future__ import annotations

import io

from client.statusline import (
    PinnedStatusLine,
    draw_bottom_row,
    release_bottom_row,
    scroll_above,
)


class Screen:
    """A terminal of a given size whose escape sequences the test reads."""

    def __init__(self, columns: int, rows: int) -> None:
        self.size = (columns, rows)
        self.stream = io.StringIO()

    def take(self) -> str:
        text = self.stream.getvalue()
        self.stream.seek(0)
        self.stream.truncate()
        return text


def test_the_first_status_takes_the_bottom_row_out_of_the_scrolling_area() -> None:
    screen = Screen(80, 24)
    line = PinnedStatusLine(screen.stream, lambda: screen.size)
    line.show("black 5:00 | white 5:00")
    out = screen.take()
    assert out == scroll_above(24) + draw_bottom_row(24, 80, "black 5:00 | white 5:00")
    assert "\x1b[1;23r" in out and "\x1b[24;1H" in out


def test_later_statuses_only_redraw_the_row() -> None:
    screen = Screen(80, 24)
    line = PinnedStatusLine(screen.stream, lambda: screen.size)
    line.show("black 5:00")
    screen.take()
    line.show("black 4:59")
    assert screen.take() == draw_bottom_row(24, 80, "black 4:59")


def test_no_status_gives_the_row_back() -> None:
    screen = Screen(80, 24)
    line = PinnedStatusLine(screen.stream, lambda: screen.size)
    line.show(None)
    assert screen.take() == ""
    line.show("black 5:00")
    screen.take()
    line.show(None)
    assert screen.take() == release_bottom_row(24)


def test_a_resized_terminal_gets_the_status_on_its_new_last_row() -> None:
    screen = Screen(80, 24)
    line = PinnedStatusLine(screen.stream, lambda: screen.size)
    line.show("black 5:00")
    screen.take()
    screen.size = (60, 30)
    line.show("black 4:59")
    out = screen.take()
    assert out.endswith(scroll_above(30) + draw_bottom_row(30, 60, "black 4:59"))


def test_the_status_is_cut_to_the_width_and_never_drawn_on_a_tiny_terminal() -> None:
    assert "x" * 9 + "\x1b8" in draw_bottom_row(24, 10, "x" * 50)
    screen = Screen(80, 3)
    PinnedStatusLine(screen.stream, lambda: screen.size).show("black 5:00")
    assert screen.take() == ""
