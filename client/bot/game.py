"""One room where a `gomoku-bot` holds a seat, as it follows it from the server's messages (no I/O).

A `BotGame` keeps what the bot needs of its room (its colour, the moves,
the clock, the opening, whose turn it is, the room's event number) and
says what to do next: nothing, a move, or an opening decision (`to_act`),
and how to answer the opponent's offers (`answers`). A gap in the room's
event numbers means a message was missed: the room must be joined again
for a fresh snapshot.
"""

from __future__ import annotations

from typing import Literal

from engine.board import Board
from engine.openings import ChooseColor, PlaceStones
from engine.types import Color, Point, Rule
from wire.messages import (
    AnswerDraw,
    AnswerUndo,
    ChooseColorModel,
    ClientMessage,
    ClockModel,
    ClockSettingModel,
    DrawOffered,
    GameOver,
    Moved,
    OpeningStateModel,
    OpeningStepModel,
    PlaceStonesModel,
    PointModel,
    RematchOffered,
    RoomId,
    RoomMessage,
    Undone,
    UndoRequested,
)

Action = Literal["move", "swap2"]
"""What the bot must do in its room: play a move, or take a swap2 decision."""


class BotGame:
    """The bot's view of one room, from the snapshots and events the server sends."""

    def __init__(self, room_id: RoomId, name: str) -> None:
        self.room_id = room_id
        self.name = name
        """The bot's own name."""
        self.color: Color | None = None
        """The bot's colour; None when it holds no seat (or has not had a snapshot yet)."""
        self.game_id: str | None = None
        self.rule = Rule.FREESTYLE
        self.size = 15
        self.status = "waiting"
        self.moves: list[Point] = []
        self.clock: ClockModel | None = None
        self.time_control: ClockSettingModel | None = None
        self.rated = False
        self.opening: OpeningStateModel | None = None
        self.opponent: str | None = None
        self.seq = 0

    # ------------------------------------------------------------- following

    def take_snapshot(self, message: RoomMessage) -> None:
        """Take a whole `room` snapshot (on joining, after a seat change, an opening step, a rematch)."""
        room = message.room
        self.color = None if message.you == "spectator" else Color.parse(message.you)
        self.game_id = room.game_id
        self.rule = room.rule
        self.size = room.size
        self.status = room.status
        self.moves = [Point(stone.x, stone.y) for stone in room.moves]
        self.clock = room.clock
        self.time_control = room.time_control
        self.rated = room.rated
        self.opening = room.opening
        seats = {Color.BLACK: room.black, Color.WHITE: room.white}
        other = None if self.color is None else seats[self.color.other]
        self.opponent = None if other is None else other.name
        self.seq = room.seq

    def follows(self, seq: int) -> bool:
        """Take the event numbered `seq`: False when an event was missed (join the room again)."""
        if seq != self.seq + 1:
            return False
        self.seq = seq
        return True

    def take_move(self, message: Moved) -> None:
        self.moves.append(Point(message.x, message.y))
        self.clock = message.clock

    def take_undo(self, message: Undone) -> None:
        removed = {Point(stone.x, stone.y) for stone in message.removed}
        self.moves = [point for point in self.moves if point not in removed]
        self.clock = message.clock or self.clock

    def take_game_over(self, message: GameOver) -> None:
        self.status = "finished"

    # --------------------------------------------------------------- acting

    @property
    def playing(self) -> bool:
        """Whether a game is going on in the room with the bot in it."""
        return self.color is not None and self.status in ("opening", "playing")

    def to_act(self) -> Action | None:
        """What the bot must do now, if anything."""
        if self.color is None:
            return None
        if self.status == "playing":
            if self._decided_on_the_board():
                return None  # the last move made five: `game_over` is on its way, no move is due
            to_move = Color.BLACK if len(self.moves) % 2 == 0 else Color.WHITE
            return "move" if to_move is self.color else None
        opening = self.opening
        if self.status == "opening" and opening is not None and opening.decider == self.name:
            return "swap2" if opening.rule == "swap2" else None
        return None

    def _decided_on_the_board(self) -> bool:
        """Whether the moves so far already end the game (the server sends `moved` before `game_over`)."""
        return Board.from_moves(self.moves, self.size, self.rule).result is not None

    def unplayable_opening(self) -> bool:
        """Whether the bot must decide a step of an opening its engine cannot (it then resigns)."""
        opening = self.opening
        deciding = self.status == "opening" and opening is not None and opening.decider == self.name
        return deciding and opening is not None and opening.rule != "swap2"

    def answers(self, message: DrawOffered | UndoRequested | RematchOffered, accept_draws: bool) -> list[ClientMessage]:
        """The answer to an opponent's offer: undo accepted (in a casual game: a rated one has none),
        a draw declined unless `accept_draws`; a rematch is the runner's to decide (it counts games)."""
        if self.color is None or message.by == str(self.color):
            return []
        match message:
            case UndoRequested():
                return [AnswerUndo(room_id=self.room_id, accept=not self.rated)]
            case DrawOffered():
                return [AnswerDraw(room_id=self.room_id, accept=accept_draws)]
            case _:
                return []


def step_model(step: PlaceStones | ChooseColor) -> OpeningStepModel:
    """An opening step as the wire writes it."""
    if isinstance(step, PlaceStones):
        return PlaceStonesModel(points=[PointModel(x=point.x, y=point.y) for point in step.points])
    return ChooseColorModel(color="black" if step.color is Color.BLACK else "white")
