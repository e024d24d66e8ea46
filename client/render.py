"""Text pictures of boards, clocks and results for a terminal (pure: strings in, strings out)."""

from __future__ import annotations

from engine.board import Board
from engine.record import ClockSetting
from engine.types import Color, Point

STONES = {None: ".", Color.BLACK: "X", Color.WHITE: "O"}
"""How each point is drawn: black X, white O, empty a dot."""


def column_letters(size: int) -> str:
    """The column header line, aligned with the cells drawn by `render_board`."""
    return "   " + " ".join(chr(ord("a") + x) for x in range(size))


def render_board(board: Board, marked: Point | None = None) -> str:
    """The board with column letters above and below, row numbers on both sides
    (as in human notation, 1 at the bottom) and `marked` (usually the last
    move) drawn between brackets, like `[X]`."""
    size = board.size
    lines = [column_letters(size)]
    for y in range(size):
        # Cell x sits at 2x + 1; the places on either side hold a space or a bracket.
        row = [" "] * (2 * size + 1)
        for x in range(size):
            row[2 * x + 1] = STONES[board.stone_at(Point(x, y))]
        if marked is not None and marked.y == y:
            row[2 * marked.x] = "["
            row[2 * marked.x + 2] = "]"
        number = size - y
        lines.append(f"{number:>2}{''.join(row)} {number}")
    lines.append(column_letters(size))
    return "\n".join(lines)


def format_clock(ms: int) -> str:
    """Time left as m:ss, or h:mm:ss from an hour up, with tenths under ten seconds."""
    ms = max(ms, 0)
    if ms < 10_000:
        return f"0:0{ms // 1000}.{ms % 1000 // 100}"
    seconds = ms // 1000
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    if hours:
        return f"{hours}:{minutes:02}:{seconds:02}"
    return f"{minutes}:{seconds:02}"


def format_clock_setting(setting: ClockSetting) -> str:
    """A time control as players say it, minutes + seconds added per move: `5+3`, or `0:30+1`
    when the initial time is not a whole number of minutes."""
    minutes, rest_ms = divmod(setting.initial_ms, 60_000)
    initial = str(minutes) if rest_ms == 0 else f"{minutes}:{'0' if rest_ms < 10_000 else ''}{_seconds(rest_ms)}"
    return f"{initial}+{_seconds(setting.increment_ms)}"


def _seconds(ms: int) -> str:
    """Milliseconds as seconds, with decimals only when needed: `3`, `0.5`, `1.25`."""
    whole, fraction = divmod(ms, 1000)
    return str(whole) if fraction == 0 else f"{whole}.{fraction:03}".rstrip("0")
