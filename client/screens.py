"""What the player sees of a room: its header, board, clocks and events, as text (pure: views in, text out)."""

from __future__ import annotations

from client.opening_text import describe_decision
from client.render import format_clock, format_clock_setting, render_board
from client.state import PendingOffer, RoomView
from client.text import counted, describe_rated_seat, describe_result, seat_name
from engine.notation import format_point
from engine.types import Color, Point
from wire.messages import (
    Analysis,
    Declined,
    DrawOffered,
    GameOver,
    Moved,
    RatingsModel,
    RematchOffered,
    Undone,
    UndoRequested,
)

ScreenEvent = Moved | GameOver | DrawOffered | UndoRequested | Undone | RematchOffered | Declined
"""The room events the player is told about."""

_OFFER_WORDS = {
    "draw": ("offer a draw", "offers a draw"),
    "undo": ("ask to take back a move", "asks to take back a move"),
    "rematch": ("ask for a rematch", "asks for a rematch"),
}
"""How an offer reads when the player made it, and when the opponent did."""

_OFFERED = {"draw_offered": "draw", "undo_requested": "undo", "rematch_offered": "rematch"}


def room_screen(room: RoomView, now: float) -> str:
    """Header (time control, rated, players with their ratings), board with the last move marked,
    clocks, whose turn or the result, and an offer waiting for an answer."""
    clock = f", clock {format_clock_setting(room.time_control)}" if room.time_control else ""
    rated = ", rated" if room.rated else ""
    opening = f", opening {room.opening.rule}" if room.opening is not None and room.opening.rule != "none" else ""
    title = (
        f"room {room.room_id}, {room.rule.value} {room.size}x{room.size}{clock}{rated}{opening}: "
        f"black {describe_rated_seat(room.black)}, white {describe_rated_seat(room.white)}, "
        f"{room.spectators} watching"
    )
    screen = board_screen(room, title, now)
    if room.status == "opening" and room.opening is not None:
        screen += "\n" + describe_decision(room.opening, room.my_decision, room.size)
    if room.pending is not None and room.status != "waiting":
        screen += "\n" + offer_text(room, room.pending)
    return screen


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
    elif room.status == "opening" and room.opening is not None and room.opening.to_decide is not None:
        who = "your decision" if room.my_decision else f"{room.opening.to_decide} ({room.opening.decider}) to decide"
        parts.append(f"opening {room.opening.rule}, {who}")
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
            over = f"game over: {describe_result(winner, event.result.reason.value, names)}{line}"
            return over if event.ratings is None else over + "\n" + rating_changes(event.ratings, names)
        case Undone():
            taken = " ".join(format_point(Point(stone.x, stone.y), room.size) for stone in event.removed)
            return board_screen(room, f"taken back: {taken}", now)
        case Declined():
            return f"the {event.what} offer was declined"
        case _:
            return offer_text(room, PendingOffer(_OFFERED[event.type], Color.parse(event.by)))


def offer_text(room: RoomView, offer: PendingOffer) -> str:
    """An offer as the player reads it: their own, or the opponent's as a question."""
    mine, theirs = _OFFER_WORDS[offer.what]
    if offer.by is room.my_colour:
        return f"you {mine}"
    question = " Accept? (yes/no)" if room.my_colour is not None else ""
    return f"{offer.by} ({seat_names(room)[offer.by]}) {theirs}.{question}"


def rating_changes(ratings: RatingsModel, names: dict[Color, str]) -> str:
    """How a rated game moved both players' ratings: `alice 1500 -> 1662 (+162)`."""
    changes = []
    for colour, change in ((Color.BLACK, ratings.black), (Color.WHITE, ratings.white)):
        changes.append(f"{names[colour]} {change.before} -> {change.after} ({change.after - change.before:+d})")
    return "ratings: " + ", ".join(changes)


def analysis_text(message: Analysis) -> str:
    """The engine's view in one line: best move, score, depth, nodes and the expected line (and which
    stored position, when it is one)."""
    pv = " ".join(message.pv)
    point = f", the point asked about: {message.point_score}" if message.point_score is not None else ""
    stored = message.game_id is not None and message.ply is not None
    where = f" (game {message.game_id} after {counted(message.ply or 0, 'move')})" if stored else ""
    return (
        f"engine{where}: best {message.best.move}, score {message.score}{point}, depth {message.depth}, "
        f"{message.nodes} nodes; line {pv}"
    )


def seat_names(room: RoomView) -> dict[Color, str]:
    """Who plays each colour, to name them in a sentence (`black (alice) h8`)."""
    return {colour: seat_name(room.seat(colour)) for colour in Color}
