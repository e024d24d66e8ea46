"""A status line pinned to the bottom row of a terminal, where the running clocks tick.

The client is line-based: the player types below what the server said, and
the terminal echoes it. Redrawing a clock in place with a carriage return
would write over the line being typed, and printing a line every second
would bury the board. Instead the bottom row is taken out of the scrolling
area (a VT100 scroll region, as apt does for its progress bar): text and
typing scroll above it, and the status is redrawn there without moving the
cursor (saved and restored around each drawing). Only used when both input
and output are a terminal.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TextIO

_ESC = "\x1b"
SAVE_CURSOR = _ESC + "7"
RESTORE_CURSOR = _ESC + "8"
CLEAR_ROW = _ESC + "[2K"
CURSOR_UP = _ESC + "[1A"
RESET_SCROLL_REGION = _ESC + "[r"


def scroll_above(rows: int) -> str:
    """Keep scrolling to the rows above the last one, leaving the cursor where it was (on a fresh line)."""
    # The newline makes room when the cursor is on the last row: setting the region homes the cursor, so it
    # is saved and restored around it, then moved back up into the region.
    return "\n" + SAVE_CURSOR + f"{_ESC}[1;{rows - 1}r" + RESTORE_CURSOR + CURSOR_UP


def draw_bottom_row(rows: int, columns: int, text: str) -> str:
    """Write `text` (cut to the width) on the last row, and put the cursor back."""
    return SAVE_CURSOR + f"{_ESC}[{rows};1H" + CLEAR_ROW + text[: max(columns - 1, 0)] + RESTORE_CURSOR


def release_bottom_row(rows: int) -> str:
    """Give the last row back to the scrolling text, blank."""
    return SAVE_CURSOR + RESET_SCROLL_REGION + f"{_ESC}[{rows};1H" + CLEAR_ROW + RESTORE_CURSOR


class PinnedStatusLine:
    """The bottom row of a terminal, kept for one line of status while there is one to show."""

    MIN_ROWS = 4
    """Below this height the status line would crowd out the text: it is not shown."""

    def __init__(self, stream: TextIO, size: Callable[[], tuple[int, int]]) -> None:
        """`size` gives the terminal's (columns, rows) now; it is asked at each drawing, so a resized
        terminal gets its status line on its new last row."""
        self._stream = stream
        self._size = size
        self._pinned_rows: int | None = None
        """The height of the terminal when the bottom row was taken, or None when it is not."""

    def show(self, text: str | None) -> None:
        """Show `text` on the bottom row, or give the row back when it is None."""
        columns, rows = self._size()
        out = ""
        if self._pinned_rows is not None and text is None:
            out += release_bottom_row(self._pinned_rows)
            self._pinned_rows = None
        elif self._pinned_rows is not None and rows != self._pinned_rows:
            # Resized: the old last row may now hold text, so it is left as it is; the row is taken anew.
            out += SAVE_CURSOR + RESET_SCROLL_REGION + RESTORE_CURSOR
            self._pinned_rows = None
        if text is not None and rows >= self.MIN_ROWS:
            if self._pinned_rows is None:
                out += scroll_above(rows)
                self._pinned_rows = rows
            out += draw_bottom_row(rows, columns, text)
        if out:
            self._stream.write(out)
            self._stream.flush()
