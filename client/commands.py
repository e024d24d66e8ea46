"""What the player types, read into commands (pure: a line in, a command or a CommandError out).

Moves are typed in human notation (`h8`) or as wire coordinates `x,y`
(0-based, `y` from the top); every other command is a word followed by its
arguments, listed in `HELP`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from engine.errors import NotationError
from engine.notation import looks_like_point, parse_point
from engine.types import Color, Point, Rule
from server.protocol import GameId, RoomId

HELP = """\
commands:
  rooms                         list open and running rooms
  bots                          list the bot levels
  create [vs LEVEL | bots LEVEL LEVEL] [as black|white] [rule freestyle|standard|renju]
         [size N] [clock MINUTES+SECONDS, e.g. 5+3 or 0:30+1] [private]
                                open a room (default: you black, white seat open)
  join ROOM                     take a seat in a room (or come back to yours)
  watch ROOM                    watch a room as a spectator
  leave                         leave the room (resigns a game you are playing: asks first)
  h8  or  7,7                   play a move (column letter + row, or x,y from the top left)
  resign | draw | undo          resign (asks first), offer a draw, ask to take back your move
  yes | no                      answer the question on screen (draw, undo, rematch, resign, leave, quit)
  rematch                       ask for a new game with colours swapped
  board                         draw the board and clocks again
  clock                         show the clocks and whose turn it is (at a terminal, the running
                                clock also ticks on the bottom row)
  hint [SECONDS]                the engine's view of the position (spectators and bot games)
  games [PLAYER] [LIMIT]        a player's stored games (yours by default), newest first, LIMIT 1 to 100
  games more                    the next page of the last games list
  export GAME FILE [json|psq|sgf]   save a game to a file (format from the file name if not given)
  replay GAME                   step through a game: Enter or n next, p back, NUMBER to jump, q to stop
  help                          this list
  quit                          leave the client (asks first during a game, which goes on without you)"""

RecordFormat = Literal["json", "psq", "sgf"]
RECORD_FORMATS: tuple[RecordFormat, ...] = ("json", "psq", "sgf")


class CommandError(ValueError):
    """A line that is not a command; the message says what was expected."""


@dataclass(frozen=True, slots=True)
class BotSeat:
    """A seat for a bot of the named level."""

    level: str


Seat = Literal["me", "open"] | BotSeat
"""Who sits on a seat of a new room: the player, anyone who joins, or a bot."""


@dataclass(frozen=True, slots=True)
class ShowHelp:
    pass


@dataclass(frozen=True, slots=True)
class QuitClient:
    pass


@dataclass(frozen=True, slots=True)
class ListRoomsCommand:
    pass


@dataclass(frozen=True, slots=True)
class ListBotsCommand:
    pass


@dataclass(frozen=True, slots=True)
class CreateRoomCommand:
    rule: Rule
    size: int
    black: Seat
    white: Seat
    clock: tuple[int, int] | None
    """(initial_ms, increment_ms), or None for an untimed game."""
    private: bool


@dataclass(frozen=True, slots=True)
class JoinRoomCommand:
    room_id: RoomId
    spectator: bool


@dataclass(frozen=True, slots=True)
class LeaveRoomCommand:
    pass


@dataclass(frozen=True, slots=True)
class PlayMove:
    point: Point | None
    """The point, when it was typed as x,y (needs no board size)."""
    text: str | None
    """The point in human notation, read once the board size is known."""

    def resolve(self, size: int) -> Point:
        """The point on a board of `size`. Raises CommandError when it is off the board."""
        if self.point is not None:
            if not (0 <= self.point.x < size and 0 <= self.point.y < size):
                raise CommandError(f"{self.point.x},{self.point.y} is outside the {size}x{size} board")
            return self.point
        assert self.text is not None
        try:
            return parse_point(self.text, size)
        except NotationError as error:
            raise CommandError(str(error)) from None


@dataclass(frozen=True, slots=True)
class ResignCommand:
    pass


@dataclass(frozen=True, slots=True)
class OfferDrawCommand:
    pass


@dataclass(frozen=True, slots=True)
class RequestUndoCommand:
    pass


@dataclass(frozen=True, slots=True)
class RematchCommand:
    pass


@dataclass(frozen=True, slots=True)
class Answer:
    accept: bool


@dataclass(frozen=True, slots=True)
class ShowBoard:
    pass


@dataclass(frozen=True, slots=True)
class ShowClocks:
    pass


@dataclass(frozen=True, slots=True)
class HintCommand:
    time_ms: int


@dataclass(frozen=True, slots=True)
class ListGamesCommand:
    player: str | None
    limit: int


@dataclass(frozen=True, slots=True)
class MoreGamesCommand:
    pass


@dataclass(frozen=True, slots=True)
class ExportGameCommand:
    game_id: GameId
    path: Path
    format: RecordFormat


@dataclass(frozen=True, slots=True)
class ReplayCommand:
    game_id: GameId


Command = (
    ShowHelp
    | QuitClient
    | ListRoomsCommand
    | ListBotsCommand
    | CreateRoomCommand
    | JoinRoomCommand
    | LeaveRoomCommand
    | PlayMove
    | ResignCommand
    | OfferDrawCommand
    | RequestUndoCommand
    | RematchCommand
    | Answer
    | ShowBoard
    | ShowClocks
    | HintCommand
    | ListGamesCommand
    | MoreGamesCommand
    | ExportGameCommand
    | ReplayCommand
)

LOCAL_COMMANDS = (ShowHelp, ShowBoard, ShowClocks, ResignCommand)
"""Commands answered without the server (resign only asks a question; the answer is sent).
`quit` is not one: it waits its turn, so that the lines before it are sent and answered."""

QUIT_WORDS = ("quit", "exit")

_XY_POINT = re.compile(r"(\d{1,2})\s*,\s*(\d{1,2})")
_CLOCK = re.compile(r"(?:(\d+):([0-5]\d(?:\.\d+)?)|(\d+(?:\.\d+)?))(?:\+(\d+(?:\.\d+)?))?")
"""`MINUTES[+SECONDS]` or `MINUTES:SS[+SECONDS]`, as `client.render.format_clock_setting` writes them."""
_PLAYER_NAME = re.compile(r"[A-Za-z0-9_-]{1,32}")
MAX_INITIAL_MS = 24 * 3600 * 1000
MAX_INCREMENT_MS = 3600 * 1000
"""The longest time control the server accepts."""

_WITHOUT_ARGUMENTS: dict[str, Command] = {
    "help": ShowHelp(),
    "?": ShowHelp(),
    **dict.fromkeys(QUIT_WORDS, QuitClient()),
    "rooms": ListRoomsCommand(),
    "bots": ListBotsCommand(),
    "leave": LeaveRoomCommand(),
    "resign": ResignCommand(),
    "draw": OfferDrawCommand(),
    "undo": RequestUndoCommand(),
    "rematch": RematchCommand(),
    "board": ShowBoard(),
    "clock": ShowClocks(),
    "yes": Answer(True),
    "y": Answer(True),
    "accept": Answer(True),
    "no": Answer(False),
    "n": Answer(False),
    "decline": Answer(False),
}

DEFAULT_HINT_MS = 1000
MAX_HINT_MS = 60_000
"""The longest analysis the server runs."""
DEFAULT_GAMES_LIMIT = 20
MAX_GAMES_LIMIT = 100
"""The most games one page may hold (the server's limit)."""


def parse_command(line: str) -> Command | None:
    """The command on `line`, or None for a blank line. Raises CommandError."""
    text = line.strip()
    if not text:
        return None
    if looks_like_point(text):
        return PlayMove(None, text.lower())
    xy = _XY_POINT.fullmatch(text)
    if xy:
        return PlayMove(Point(int(xy.group(1)), int(xy.group(2))), None)
    word, *arguments = text.split()
    word = word.lower()
    if word in _WITHOUT_ARGUMENTS:
        if arguments:
            raise CommandError(f"{word!r} takes no arguments")
        return _WITHOUT_ARGUMENTS[word]
    parsers = {
        "move": _parse_move,
        "create": _parse_create,
        "join": _parse_join,
        "watch": _parse_join,
        "hint": _parse_hint,
        "games": _parse_games,
        "export": _parse_export,
        "replay": _parse_replay,
    }
    if word not in parsers:
        raise CommandError(f"unknown command {word!r}: type 'help' for the list")
    return parsers[word](word, arguments)


def _parse_move(_: str, arguments: list[str]) -> Command:
    command = parse_command(" ".join(arguments)) if arguments else None
    if not isinstance(command, PlayMove):
        raise CommandError("move needs a point, like 'move h8' or 'move 7,7'")
    return command


def _parse_join(word: str, arguments: list[str]) -> Command:
    if len(arguments) != 1:
        raise CommandError(f"{word} needs one room id, like '{word} r1'")
    return JoinRoomCommand(RoomId(arguments[0]), spectator=word == "watch")


def _parse_hint(_: str, arguments: list[str]) -> Command:
    if not arguments:
        return HintCommand(DEFAULT_HINT_MS)
    if len(arguments) > 1:
        raise CommandError("hint takes at most one number of seconds")
    time_ms = round(_positive_number(arguments[0], "seconds") * 1000)
    if time_ms > MAX_HINT_MS:
        raise CommandError(f"the engine thinks {MAX_HINT_MS // 1000} seconds at most")
    return HintCommand(time_ms)


def _parse_games(_: str, arguments: list[str]) -> Command:
    if [argument.lower() for argument in arguments] == ["more"]:
        return MoreGamesCommand()
    if len(arguments) > 2:
        raise CommandError("games takes a player name and a limit, both optional")
    player = None
    limit = DEFAULT_GAMES_LIMIT
    for argument in arguments:
        if argument.isdigit():
            limit = int(argument)
        elif _PLAYER_NAME.fullmatch(argument):
            player = argument
        else:
            raise CommandError(f"{argument!r} is not a player name (1 to 32 of A-Z a-z 0-9 _ -) nor a limit")
    if not 1 <= limit <= MAX_GAMES_LIMIT:
        raise CommandError(f"the games limit must be 1 to {MAX_GAMES_LIMIT}; 'games more' shows the next page")
    return ListGamesCommand(player, limit)


def _parse_export(_: str, arguments: list[str]) -> Command:
    if len(arguments) not in (2, 3):
        raise CommandError("export needs a game id and a file name, like 'export g1 game.sgf'")
    game_id, path_text = GameId(arguments[0]), arguments[1]
    path = Path(path_text).expanduser()
    chosen = arguments[2].lower() if len(arguments) == 3 else path.suffix.lstrip(".").lower()
    for record_format in RECORD_FORMATS:
        if chosen == record_format:
            return ExportGameCommand(game_id, path, record_format)
    raise CommandError(f"say which format to write ({', '.join(RECORD_FORMATS)}), e.g. 'export {game_id} game.sgf'")


def _parse_replay(_: str, arguments: list[str]) -> Command:
    if len(arguments) != 1:
        raise CommandError("replay needs one game id, like 'replay g1'")
    return ReplayCommand(GameId(arguments[0]))


def _parse_create(_: str, arguments: list[str]) -> Command:
    """`create [vs LEVEL | bots LEVEL LEVEL] [as COLOUR] [rule R] [size N] [clock M+S] [private]`."""
    rule = Rule.FREESTYLE
    size = 15
    opponent: Seat = "open"
    my_colour: Color | None = None
    bots: tuple[BotSeat, BotSeat] | None = None
    clock: tuple[int, int] | None = None
    private = False
    words = iter(arguments)
    for word in words:
        option = word.lower()
        if option == "private":
            private = True
        elif option == "vs":
            opponent = BotSeat(_value_of(option, words))
        elif option == "bots":
            bots = (BotSeat(_value_of(option, words)), BotSeat(_value_of(option, words)))
        elif option == "as":
            my_colour = _colour(_value_of(option, words))
        elif option == "rule":
            rule = _rule(_value_of(option, words))
        elif option == "size":
            size = _size(_value_of(option, words))
        elif option == "clock":
            clock = parse_clock(_value_of(option, words))
        else:
            raise CommandError(f"unknown create option {word!r}: type 'help' for the list")
    black: Seat
    white: Seat
    if bots is not None:
        if opponent != "open" or my_colour is not None:
            raise CommandError("a bots-only room has no seat for you: drop 'vs' and 'as'")
        black, white = bots
    elif my_colour is Color.WHITE:
        black, white = opponent, "me"
    else:
        black, white = "me", opponent
    if rule is Rule.RENJU and size != 15:
        raise CommandError("renju is played on 15x15 only")
    return CreateRoomCommand(rule, size, black, white, clock, private)


def _value_of(option: str, words: Iterator[str]) -> str:
    value = next(words, None)
    if value is None:
        raise CommandError(
            f"'{option}' needs a value" + (": two levels, black's then white's" if option == "bots" else "")
        )
    return value


def _colour(text: str) -> Color:
    try:
        return Color.parse(text)
    except ValueError as error:
        raise CommandError(str(error)) from None


def _rule(text: str) -> Rule:
    try:
        return Rule.parse(text)
    except ValueError as error:
        raise CommandError(str(error)) from None


def _size(text: str) -> int:
    if not text.isdigit() or not 5 <= int(text) <= 26:
        raise CommandError(f"size must be a number from 5 to 26, not {text!r}")
    return int(text)


def parse_clock(text: str) -> tuple[int, int]:
    """(initial_ms, increment_ms) from `5+3` (five minutes, three seconds added per move), `10` (ten
    minutes, no increment) or `0:30+1` (thirty seconds). Raises CommandError, also for a time control
    the server would refuse."""
    match = _CLOCK.fullmatch(text)
    if match is None:
        raise CommandError(f"clock is MINUTES+SECONDS, like '5+3' (or '0:30+1' under a minute), not {text!r}")
    minutes, seconds, decimal_minutes, increment = match.groups()
    if decimal_minutes is not None:
        initial_ms = round(float(decimal_minutes) * 60_000)
    else:
        initial_ms = int(minutes) * 60_000 + round(float(seconds) * 1000)
    increment_ms = round(float(increment or 0) * 1000)
    if initial_ms <= 0:
        raise CommandError("a clock needs some time to start with")
    if initial_ms > MAX_INITIAL_MS:
        raise CommandError("a clock starts with 24 hours at most")
    if increment_ms > MAX_INCREMENT_MS:
        raise CommandError("the increment is an hour at most")
    return initial_ms, increment_ms


def _positive_number(text: str, what: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise CommandError(f"{what} must be a number, not {text!r}") from None
    if value <= 0:
        raise CommandError(f"{what} must be more than zero")
    return value
