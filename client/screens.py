"""What the player sees of a room: its header, board, clocks and events, as text (pure: views in, text out)."""

from __future__ import annotations

from client.render import format_clock, format_clock_setting, render_board
from client.state import RoomView
from client.text import describe_result, describe_seat
from engine.notation import format_point
from engine.record import ClockSetting
from engine.types import Color, Point
from server.protocol import (
    Analysis,
    Declined,
    DrawOffered,
    GameOver,
    Moved,
    RematchOffered,
    Undone,
    UndoRequested,
)

ScreenEvent = Moved | GameOver | DrawOffered | UndoRequested | Undone | RematchOffered | Declined
"""The room events the player is told about."""

_OFFER_WORDS = {
    "draw_offered": ("offer a draw", "offers a draw"),
    "undo_requested": ("ask to take back a move", "asks to take back a move"),
    "rematch_offered": ("ask for a rematch", "asks for a rematch"),
}
"""How an offer reads when the player made it, and when the opponent did."""


def room_screen(room: RoomView, now: float, clock_setting: ClockSetting | None) -> str:
    """Header (with the time control, when the room is timed and it is known), board with the
    last move marked, clocks, and whose turn or the result."""
    clock = f", clock {format_clock_setting(clock_setting)}" if room.clock and clock_setting else ""
    title = (
        f"room {room.room_id}, {room.rule.value} {room.size}x{room.size}{clock}: "
        f"black {describe_seat(room.black)}, white {describe_seat(room.white)}, {room.spectators} watching"
    )
    return board_screen(room, title, now)


def board_screen(room: RoomView, title: str, now: float) -> str:
    """A title over the board with the last move marked, then the clocks and whose turn."""
    lines = [title, render_board(room.board, room.board.last_move), status_line(room, now)]
    return "\n".join(line for line in lines if line)


def status_line(room: RoomView, now: float) -> str:
    """The clocks as they stand at `now`, then whose turn it is or how the game ended."""
    parts = []
    if room.clock is not None:
        parts.append(
            f"black {format_clock(room.clock.left_ms(Color.BLACK, now))}"
            f" | white {format_clock(room.clock.left_ms(Color.WHITE, now))}"
        )
    if room.status == "waiting":
        parts.append("waiting for an opponent")
    elif room.status == "finished" and room.result is not None:
        winner = Color.parse(room.result.winner) if room.result.winner else None
        parts.append(describe_result(winner, room.result.reason.value, seat_names(room)))
    elif room.to_move is not None:
        turn = "your move" if room.to_move is room.my_colour else f"{room.to_move} to move"
        parts.append(f"move {room.board.ply + 1}, {turn}")
    return " -- ".join(parts)


def event_screen(room: RoomView, event: ScreenEvent, now: float) -> str:
    """What to show once `event` has been applied to `room`."""
    names = seat_names(room)
    match event:
        case Moved():
            mover = Color.parse(event.color)
            return board_screen(room, f"{event.ply}. {mover} ({names[mover]}) {event.move}", now)
        case GameOver():
            winner = Color.parse(event.result.winner) if event.result.winner else None
            line = ""
            if event.result.line:
                points = [Point(x, y) for x, y in event.result.line]
                line = ": " + " ".join(format_point(point, room.size) for point in points)
            return f"game over: {describe_result(winner, event.result.reason.value, names)}{line}"
        case Undone():
            taken = " ".join(format_point(Point(stone.x, stone.y), room.size) for stone in event.removed)
            return board_screen(room, f"taken back: {taken}", now)
        case Declined():
            return f"the {event.what} offer was declined"
        case _:
            by = Color.parse(event.by)
            mine, theirs = _OFFER_WORDS[event.type]
            if by is room.my_colour:
                return f"you {mine}"
            question = " Accept? (yes/no)" if room.my_colour is not None else ""
            return f"{by} ({names[by]}) {theirs}.{question}"


def analysis_text(message: Analysis) -> str:
    """The engine's view in one line: best move, score, depth, nodes and the expected line."""
    pv = " ".join(message.pv)
    point = f", the point asked about: {message.point_score}" if message.point_score is not None else ""
    return (
        f"engine: best {message.best.move}, score {message.score}{point}, depth {message.depth}, "
        f"{message.nodes} nodes; line {pv}"
    )


def seat_names(room: RoomView) -> dict[Color, str]:
    """Who plays each colour, as the player reads it."""
    return {colour: describe_seat(room.seat(colour)) for colour in Color}
