"""What the player types, read into commands (pure: a line in, a command or a CommandError out).

Moves are typed in human notation (`h8`) or as wire coordinates `x,y`
(0-based, `y` from the top); every other command is a word followed by its
arguments, listed in `HELP`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Literal

from client import opening_commands as opening
from client import player_commands as players
from client.moderation_commands import DeleteGamesCommand, parse_delete
from client.opening_commands import OpeningCommand
from client.player_commands import PlayerCommand
from client.review import ReviewGameCommand, parse_review
from client.values import (
    PLAYER_NAME,
    GameTerms,
    TypedPoint,
    positive_number,
    read_colour,
    read_count,
    read_point,
    read_whole,
    value_of,
)
from client.values import CommandError as CommandError
from engine.types import Color, Point, Rule
from wire.messages import GameId, OpeningName, RoomId

HELP = """\
rooms and games:
  rooms                         list open and running rooms
  bots                          list the bot levels
  create [vs LEVEL | bots LEVEL LEVEL] [as black|white] [rule freestyle|standard|renju]
         [size N] [clock MINUTES+SECONDS, e.g. 5+3 or 0:30+1] [private] [rated]
         [opening swap|swap2|soosorv8] [depth N] [width N]
                                open a room (default: you black, white seat open; with an opening,
                                black's player places the first stones and the colours are decided;
                                depth and width set the search of the bot (the first of 'bots')
                                where its level takes them: 'bots' lists the bounds)
  join ROOM                     take a seat in a room (or come back to yours)
  watch ROOM                    watch a room as a spectator
  leave                         leave the room (resigns a game you are playing: asks first)
  h8  or  7,7                   play a move (column letter + row, or x,y from the top left)
  resign | draw | undo          resign (asks first), offer a draw, ask to take back your move
  yes | no                      answer the question on screen (draw, undo, rematch, resign, leave, quit)
  rematch                       ask for a new game with colours swapped
  claim                         win the game when your opponent has been away long enough
  board                         draw the board and clocks again
  clock                         show the clocks and whose turn it is (at a terminal, the running
                                clock also ticks on the bottom row)
  hint [SECONDS]                the engine's view of the position (spectators, bot games, replays)
openings (the room shows whose decision it is and the steps open to them):
  place POINT...                place the stones due, in order (a single stone: just type it)
  choose black|white            take a colour for the rest of the game
  declare N                     (soosorv8) how many fifth moves black must offer
  offer POINT...                (soosorv8) the fifth moves you offer as black
  select POINT                  (soosorv8) the offered fifth move you take as white
finding an opponent:
  seek [rule R] [size N] [clock M+S] [rated] [as black|white] [rating MIN-MAX] [opening O]
                                offer a game in the lobby; you go into its room once accepted
  pair [rule R] [size N] [clock M+S] [rated]
                                play the nearest-rated player asking for the same game (waits for one)
  cancel [SEEK]                 withdraw a seek (all of yours without SEEK)
  seeks                         watch the lobby: the seeks waiting, then seeks as they come and go
  unwatch                       stop watching the lobby
  accept SEEK                   take a seek (its id, or the name of who seeks): the game starts
  online                        who is online, idle or playing
  say TEXT                      chat in your room (or in the lobby when you are in none)
  top [humans|bots] [LIMIT]     the best rated players (? marks a provisional rating)
  profile [PLAYER]              a player's rating, results and recent games (yours by default)
records:
  games [PLAYER] [LIMIT]        a player's stored games (yours by default), newest first, LIMIT 1 to 100
  games more                    the next page of the last games list
  export GAME FILE [json|psq|sgf]   save a game to a file (format from the file name if not given)
  delete GAME...                delete your finished casual games against bots (an admin: any games)
  replay GAME                   step through a game: Enter or n next, p back, NUMBER to jump, q to stop
  analyze GAME MOVE [SECONDS]   the engine's view of a stored game after MOVE moves
  review GAME                   a finished game's missed wins and blunders, with their winning lines
  help                          this list
  quit                          leave the client (asks first during a game, which goes on without you)"""

RecordFormat = Literal["json", "psq", "sgf"]
RECORD_FORMATS: tuple[RecordFormat, ...] = ("json", "psq", "sgf")


@dataclass(frozen=True, slots=True)
class BotSeat:
    """A seat for a bot of the named level."""

    level: str
    depth: int | None = None
    """The search depth the player set (a level that takes one: `bots` says); None: the level's own."""
    width: int | None = None
    """The candidates per ply the player set; None: the level's own."""


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
    rated: bool = False
    opening: OpeningName = "none"


@dataclass(frozen=True, slots=True)
class JoinRoomCommand:
    room_id: RoomId
    spectator: bool


@dataclass(frozen=True, slots=True)
class LeaveRoomCommand:
    pass


@dataclass(frozen=True, slots=True)
class PlayMove:
    where: TypedPoint

    def resolve(self, size: int) -> Point:
        """The point on a board of `size`. Raises CommandError when it is off the board."""
        return self.where.resolve(size)


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
class AnalyzeGameCommand:
    """The engine's view of a stored game's position after `ply` moves."""

    game_id: GameId
    ply: int
    time_ms: int


@dataclass(frozen=True, slots=True)
class ClaimWinCommand:
    pass


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
    | AnalyzeGameCommand
    | ClaimWinCommand
    | ListGamesCommand
    | MoreGamesCommand
    | ExportGameCommand
    | ReplayCommand
    | PlayerCommand
    | OpeningCommand
    | DeleteGamesCommand
    | ReviewGameCommand
)

LOCAL_COMMANDS = (ShowHelp, ShowBoard, ShowClocks, ResignCommand)
"""Commands answered without the server (resign only asks a question; the answer is sent).
`quit` is not one: it waits its turn, so that the lines before it are sent and answered."""

QUIT_WORDS = ("quit", "exit")


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
    "claim": ClaimWinCommand(),
    "seeks": players.WatchLobbyCommand(),
    "unwatch": players.UnwatchLobbyCommand(),
    "online": players.OnlineCommand(),
    "yes": Answer(True),
    "y": Answer(True),
    "no": Answer(False),
    "n": Answer(False),
    "decline": Answer(False),
}

DEFAULT_HINT_MS = 1000
MAX_HINT_MS = 60_000
"""The longest analysis the protocol lets a client ask for (a server may lower it to its own cap,
`--analysis-max-ms`, 5 s by default)."""
MAX_PLY = 26 * 26
"""The most moves a game can have (the largest board full)."""
DEFAULT_GAMES_LIMIT = 20
MAX_GAMES_LIMIT = 100
"""The most games one page may hold (the server's limit)."""


def parse_command(line: str) -> Command | None:
    """The command on `line`, or None for a blank line. Raises CommandError."""
    text = line.strip()
    if not text:
        return None
    point = read_point(text)
    if point is not None:
        return PlayMove(point)
    word, *arguments = text.split()
    word = word.lower()
    if word == "say":
        return players.parse_say(text[len(word) :].strip())
    if word == "accept":
        return players.parse_accept_seek(arguments) if arguments else Answer(True)
    if word in _WITHOUT_ARGUMENTS:
        if arguments:
            raise CommandError(f"{word!r} takes no arguments")
        return _WITHOUT_ARGUMENTS[word]
    parsers: dict[str, Callable[[list[str]], Command]] = {
        "move": _parse_move,
        "create": _parse_create,
        "join": lambda arguments: _parse_join("join", arguments),
        "watch": lambda arguments: _parse_join("watch", arguments),
        "hint": _parse_hint,
        "analyze": _parse_analyze,
        "review": parse_review,
        "games": _parse_games,
        "export": _parse_export,
        "replay": _parse_replay,
        "seek": players.parse_seek,
        "pair": players.parse_pair,
        "cancel": players.parse_cancel,
        "top": players.parse_top,
        "profile": players.parse_profile,
        "place": opening.parse_place,
        "choose": opening.parse_choose,
        "declare": opening.parse_declare,
        "offer": opening.parse_offer,
        "select": opening.parse_select,
        "delete": parse_delete,
    }
    if word not in parsers:
        raise CommandError(f"unknown command {word!r}: type 'help' for the list")
    return parsers[word](arguments)


def _parse_move(arguments: list[str]) -> Command:
    command = parse_command(" ".join(arguments)) if arguments else None
    if not isinstance(command, PlayMove):
        raise CommandError("move needs a point, like 'move h8' or 'move 7,7'")
    return command


def _parse_join(word: str, arguments: list[str]) -> Command:
    if len(arguments) != 1:
        raise CommandError(f"{word} needs one room id, like '{word} r1'")
    return JoinRoomCommand(RoomId(arguments[0]), spectator=word == "watch")


def _parse_hint(arguments: list[str]) -> Command:
    if len(arguments) > 1:
        raise CommandError("hint takes at most one number of seconds")
    return HintCommand(_thinking_time(arguments[0] if arguments else None))


def _parse_analyze(arguments: list[str]) -> Command:
    """`analyze GAME PLY [SECONDS]`."""
    if len(arguments) not in (2, 3):
        raise CommandError("analyze needs a game id and a move number, like 'analyze g1 12' (after move 12)")
    game_id, ply = arguments[0], arguments[1]
    if not (ply.isascii() and ply.isdigit()) or int(ply) > MAX_PLY:
        raise CommandError(f"the move number is 0 (the empty board) to {MAX_PLY}, not {ply!r}")
    return AnalyzeGameCommand(GameId(game_id), int(ply), _thinking_time(arguments[2] if len(arguments) == 3 else None))


def _thinking_time(seconds: str | None) -> int:
    """The engine's thinking time in ms, from seconds as typed (the default when None)."""
    if seconds is None:
        return DEFAULT_HINT_MS
    time_ms = round(positive_number(seconds, "seconds") * 1000)
    if time_ms > MAX_HINT_MS:
        raise CommandError(f"the engine thinks {MAX_HINT_MS // 1000} seconds at most")
    return time_ms


def _parse_games(arguments: list[str]) -> Command:
    if [argument.lower() for argument in arguments] == ["more"]:
        return MoreGamesCommand()
    if len(arguments) > 2:
        raise CommandError("games takes a player name and a limit, both optional")
    player = None
    limit = DEFAULT_GAMES_LIMIT
    for argument in arguments:
        if argument.isdigit():
            limit = read_count(argument, "the games limit", MAX_GAMES_LIMIT)
        elif PLAYER_NAME.fullmatch(argument):
            player = argument
        else:
            raise CommandError(f"{argument!r} is not a player name (1 to 32 of A-Z a-z 0-9 _ -) nor a limit")
    return ListGamesCommand(player, limit)


def _parse_export(arguments: list[str]) -> Command:
    if len(arguments) not in (2, 3):
        raise CommandError("export needs a game id and a file name, like 'export g1 game.sgf'")
    game_id, path_text = GameId(arguments[0]), arguments[1]
    path = Path(path_text).expanduser()
    chosen = arguments[2].lower() if len(arguments) == 3 else path.suffix.lstrip(".").lower()
    for record_format in RECORD_FORMATS:
        if chosen == record_format:
            return ExportGameCommand(game_id, path, record_format)
    raise CommandError(f"say which format to write ({', '.join(RECORD_FORMATS)}), e.g. 'export {game_id} game.sgf'")


def _with_search(
    opponent: Seat, bots: tuple[BotSeat, BotSeat] | None, depth: int | None, width: int | None
) -> tuple[Seat, tuple[BotSeat, BotSeat] | None]:
    """The bot seats of `create` with the depth and width given: the opponent's, or the first of
    two bots. Raises CommandError when there is no bot to give them to."""
    if bots is not None:
        return opponent, (replace(bots[0], depth=depth, width=width), bots[1])
    if isinstance(opponent, BotSeat):
        return replace(opponent, depth=depth, width=width), bots
    raise CommandError("depth and width set a bot's search: add 'vs LEVEL' or 'bots LEVEL LEVEL'")


def _parse_replay(arguments: list[str]) -> Command:
    if len(arguments) != 1:
        raise CommandError("replay needs one game id, like 'replay g1'")
    return ReplayCommand(GameId(arguments[0]))


def _parse_create(arguments: list[str]) -> Command:
    """`create [vs LEVEL | bots LEVEL LEVEL] [as COLOUR] [rule R] [size N] [clock M+S] [private] [rated]
    [opening O] [depth N] [width N]`."""
    terms = GameTerms()
    opponent: Seat = "open"
    my_colour: Color | None = None
    bots: tuple[BotSeat, BotSeat] | None = None
    private = False
    depth: int | None = None
    width: int | None = None
    words = iter(arguments)
    for word in words:
        option = word.lower()
        changed = terms.with_option(option, words)
        if changed is not None:
            terms = changed
        elif option == "private":
            private = True
        elif option == "depth":
            depth = read_whole(value_of(option, words), option)
        elif option == "width":
            width = read_whole(value_of(option, words), option)
        elif option == "vs":
            opponent = BotSeat(value_of(option, words))
        elif option == "bots":
            bots = (BotSeat(value_of(option, words)), BotSeat(value_of(option, words)))
        elif option == "as":
            my_colour = read_colour(value_of(option, words))
        else:
            raise CommandError(f"unknown create option {word!r}: type 'help' for the list")
    if depth is not None or width is not None:
        opponent, bots = _with_search(opponent, bots, depth, width)
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
    terms = terms.checked()
    return CreateRoomCommand(terms.rule, terms.size, black, white, terms.clock, private, terms.rated, terms.opening)
