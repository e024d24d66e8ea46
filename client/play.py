"""`gomoku play --bot LEVEL`: a game against a bot, the player's moves read from a script.

Each move of the game is printed as it is played, `PLY COLOUR MOVE` (for
example `1 black h8`), after a first line `game GAME_ID` and before a last
line `result WINNER REASON` (`result white five`, `result draw full_board`).
A line is read only when it is the player's turn, so a script can be a
plain list of moves; a move the server refuses is reported on stderr and
the next line is read instead. When input ends before the game does, the
game is resigned, so that it does not wait for a player who will not come.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TextIO

from client import commands as cmd
from client.connection import Connection, Refused, ScriptError
from client.state import Outcome, RoomView, reply_wait_s
from engine.notation import format_point
from engine.types import Color, Rule
from wire.messages import (
    BotSeatSpec,
    ClockSettingModel,
    CreateRoom,
    GameOver,
    Moved,
    Resign,
    RoomMessage,
    SeatSpec,
    ServerEvent,
)
from wire.messages import Move as MoveRequest

INPUT_ENDED = 3
"""The exit status when input ended before the game (which was then resigned)."""


@dataclass(frozen=True, slots=True)
class PlaySettings:
    """The game to play."""

    bot: str
    """The bot's level."""
    colour: Color
    """The player's colour."""
    rule: Rule = Rule.FREESTYLE
    size: int = 15
    clock: tuple[int, int] | None = None
    """(initial_ms, increment_ms), or None for an untimed game."""
    rated: bool = False


LineSource = Callable[[], Awaitable[str | None]]
"""The next line of the script, or None at its end."""


class BotGame:
    """One game against a bot, played from a script's lines, printed move by move."""

    def __init__(self, connection: Connection, out: TextIO, err: TextIO) -> None:
        self._connection = connection
        self._out = out
        self._err = err
        self._room: RoomView | None = None
        self._printed_plies = 0

    async def play(self, settings: PlaySettings, read_line: LineSource) -> int:
        """Play to the end; the exit status (0, or INPUT_ENDED after resigning). Raises ScriptError."""
        room = self._enter(await self._connection.request(_create_room(settings)))
        self._print(f"game {room.game_id}")
        self._print_new_moves()
        while room.to_move is not None:
            if room.to_move is room.my_colour:
                line = await read_line()
                if line is None:
                    self._err.write("gomoku: input ended before the game did: resigning it\n")
                    self._follow(await self._connection.request(Resign(room_id=room.room_id)))
                    await self._until_over()
                    return INPUT_ENDED
                await self._move(line)
            else:
                self._follow(await self._connection.receive(reply_wait_s(room, time.monotonic())))
            room = self._current_room()
        await self._until_over()
        return 0

    async def _move(self, line: str) -> None:
        """Send the move on `line`; a line that is not a move, or a refused move, is reported on stderr."""
        room = self._current_room()
        try:
            command = cmd.parse_command(line)
            if not isinstance(command, cmd.PlayMove):
                raise cmd.CommandError("not a move: moves are written like h8 (or x,y from the top left)")
            point = command.resolve(room.size)
            self._follow(await self._connection.request(MoveRequest(room_id=room.room_id, x=point.x, y=point.y)))
        except (cmd.CommandError, Refused) as error:
            self._err.write(f"gomoku: {line.strip()}: {error}\n")
            self._err.flush()
        for event in self._connection.take_unclaimed():  # a game that ended meanwhile (on time) is noticed
            self._follow(event)

    async def _until_over(self) -> None:
        """Follow the room until its result is known, then print it."""
        room = self._current_room()
        while room.result is None:
            self._follow(await self._connection.receive(reply_wait_s(room, time.monotonic())))
            room = self._current_room()
        winner = room.result.winner or "draw"
        self._print(f"result {winner} {room.result.reason.value}")

    def _follow(self, message: ServerEvent) -> None:
        """Apply a message about the room and print the moves it added."""
        room = self._current_room()
        if isinstance(message, RoomMessage) and message.room.room_id == room.room_id:
            self._enter(message)
        elif isinstance(message, Moved | GameOver) and message.room_id == room.room_id:
            if room.apply(message, time.monotonic()) is Outcome.RESYNC:
                raise ScriptError("lost track of the game (an event was missed)")
        self._print_new_moves()

    def _enter(self, message: ServerEvent) -> RoomView:
        if not isinstance(message, RoomMessage):
            raise ScriptError(f"the server answered with {message.type!r} instead of the room")
        self._room = RoomView.from_snapshot(message, time.monotonic())
        return self._room

    def _current_room(self) -> RoomView:
        assert self._room is not None, "the room is entered first"
        return self._room

    def _print_new_moves(self) -> None:
        room = self._current_room()
        for ply in range(self._printed_plies + 1, room.board.ply + 1):
            colour = Color.BLACK if ply % 2 == 1 else Color.WHITE
            self._print(f"{ply} {colour} {format_point(room.board.moves[ply - 1], room.size)}")
        self._printed_plies = max(self._printed_plies, room.board.ply)

    def _print(self, line: str) -> None:
        self._out.write(line + "\n")
        self._out.flush()


def _create_room(settings: PlaySettings) -> CreateRoom:
    bot: SeatSpec = BotSeatSpec(bot=settings.bot)
    me: SeatSpec = "me"
    black, white = (me, bot) if settings.colour is Color.BLACK else (bot, me)
    clock = None
    if settings.clock is not None:
        clock = ClockSettingModel(initial_ms=settings.clock[0], increment_ms=settings.clock[1])
    return CreateRoom(
        rule=settings.rule, size=settings.size, black=black, white=white, clock=clock, rated=settings.rated
    )
