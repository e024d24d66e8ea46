"""`gomoku`: the terminal client, and subcommands for scripts.

`gomoku --server ws://127.0.0.1:8765/ws --name alice` plays interactively
(type `help`). `gomoku bots|rooms|games|export|import|delete|play|top|online|seeks|profile|login|passwd
...` does one job, prints plain text and exits: see `gomoku SUBCOMMAND --help`.
"""

from __future__ import annotations

import argparse
import asyncio
import getpass
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Literal

from client import account_commands, player_commands, subcommands, tournament_commands, values
from client import commands as cmd
from client import review as review_commands
from client.connection import Connection, ScriptError
from client.core import ClientCore
from client.lines import StdinLines
from client.play import INPUT_ENDED, BotGame, PlaySettings
from client.session import Session, StdioTerminal
from client.tokens import CONFIG_DIR_ENV, TokenStore, TokenStoreError, default_config_dir
from engine.game_import import MAX_NAME_LENGTH, UploadTerms
from engine.types import Color, Rule
from wire.messages import GameId

DEFAULT_SERVER = "ws://127.0.0.1:8765/ws"
NAME_ENV = "GOMOKU_NAME"
MAX_LEVEL_LENGTH = 64
"""The longest bot level the protocol carries."""

EXIT_STATUSES = (
    "exit status: 0 done; 1 the server could not be reached or refused (the reason is on stderr); "
    f"2 bad options; {INPUT_ENDED} (play) input ended before the game, which was resigned; 130 interrupted"
)


def _common_options(parser: argparse.ArgumentParser, defaults: bool) -> None:
    """The options of every command; a subcommand's copies have no defaults, so as not to hide
    the values given before the subcommand."""

    def default(value: object) -> object:
        return value if defaults else argparse.SUPPRESS

    parser.add_argument(
        "--server", default=default(DEFAULT_SERVER), help=f"websocket address (default {DEFAULT_SERVER})"
    )
    parser.add_argument(
        "--name",
        default=default(os.environ.get(NAME_ENV) or getpass.getuser()),
        help=f"player name: 1 to 32 of A-Z a-z 0-9 _ - (default ${NAME_ENV}, else your login name)",
    )
    parser.add_argument(
        "--config-dir",
        type=Path,
        default=default(None),
        help=f"where the token for each server and name is kept (default ${CONFIG_DIR_ENV}, else ~/.config/gomoku)",
    )


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="gomoku",
        description="Play, watch and replay Gomoku games on a gomoku-server. Without a subcommand: "
        "the interactive client (type 'help'); a subcommand does one job for a script and exits.",
        epilog=EXIT_STATUSES,
    )
    _common_options(parser, defaults=True)
    common = argparse.ArgumentParser(add_help=False)
    _common_options(common, defaults=False)
    commands = parser.add_subparsers(dest="subcommand", metavar="SUBCOMMAND")

    def subcommand(name: str, summary: str, details: str) -> argparse.ArgumentParser:
        return commands.add_parser(
            name, parents=[common], help=summary, description=f"{summary}. {details}", epilog=EXIT_STATUSES
        )

    def columns(names: tuple[str, ...]) -> str:
        return f"Prints one line per item, tab-separated: {' '.join(names)} ('-' for none)."

    bots = subcommand("bots", "list the bot levels", columns(subcommands.BOT_COLUMNS))
    rooms = subcommand("rooms", "list the open and running rooms", columns(subcommands.ROOM_COLUMNS))
    games = subcommand("games", "list a player's stored games, newest first", columns(subcommands.GAME_COLUMNS))
    games.add_argument(
        "player", nargs="?", type=_player_name, help="whose games (default: yours); a bot's games by its level"
    )
    games.add_argument(
        "--limit", type=_positive, default=cmd.DEFAULT_GAMES_LIMIT, help="at most this many (default 20; any number)"
    )
    games.add_argument(
        "--before",
        metavar="GAME_ID",
        help="only games older than this one (--before=-Xy12 for an id with a leading '-')",
    )
    top = subcommand(
        "top", "list the best rated players, provisional ratings last", columns(subcommands.LEADERBOARD_COLUMNS)
    )
    top.add_argument("kind", nargs="?", choices=("humans", "bots", "all"), default="all", help="default all")
    top.add_argument(
        "--limit", type=_page_limit, default=player_commands.DEFAULT_TOP_LIMIT, help="1 to 100 (default 20)"
    )
    online = subcommand("online", "list who is online, idle or playing", columns(subcommands.ONLINE_COLUMNS))
    seeks = subcommand("seeks", "list the seeks waiting in the lobby", columns(subcommands.SEEK_COLUMNS))
    profile = subcommand(
        "profile",
        "show a player's rating and results",
        f"{columns(subcommands.PROFILE_COLUMNS)} Read over HTTP from the server's address (ws:// becomes http://); "
        "--json prints the whole profile, recent games and rating history included.",
    )
    profile.add_argument("player", nargs="?", type=_player_name, help="whose profile (default: yours)")
    tournaments = subcommand(
        "tournaments", "list the listed tournaments, newest first", columns(tournament_commands.TOURNAMENT_COLUMNS)
    )
    standing_columns = columns(tournament_commands.STANDING_COLUMNS)
    standings = subcommand("standings", "show a tournament's standings", standing_columns)
    join = subcommand("join", "enter a tournament, then show its standings", standing_columns)
    withdraw = subcommand("withdraw", "leave a tournament, then show its standings", standing_columns)
    for with_id in (standings, join, withdraw):
        with_id.add_argument("tournament_id", metavar="TOURNAMENT_ID")
    for listing in (bots, rooms, games, top, online, seeks, profile, tournaments, standings, join, withdraw):
        listing.add_argument("--json", action="store_true", help="one JSON object per line, as the server sent it")
    export = subcommand(
        "export",
        "write a stored game's record",
        "Finished and unfinished games alike. A GAME_ID that starts with '-' goes after '--': "
        "gomoku export -f sgf -- -Xy12",
    )
    export.add_argument("game_id", metavar="GAME_ID")
    export.add_argument("-f", "--format", choices=cmd.RECORD_FORMATS, help="default: from -o's suffix, else json")
    export.add_argument("-o", "--output", type=Path, help="the file to write (default: standard output)")
    import_ = subcommand(
        "import",
        "store games from Piskvork (.psq), SGF and move-list files as imported games",
        "Each move is checked under its game's rule; all the files' games are stored, or none and the reason "
        "(file, game, line, move) is on stderr. A move-list file has one game a line, moves like h8 or 7,7 "
        "(x, y from 0, from the top left). Prints a line per game stored: " + columns(subcommands.IMPORT_COLUMNS),
    )
    import_.add_argument("files", nargs="+", type=Path, metavar="FILE")
    import_.add_argument(
        "--rule",
        choices=[rule.value for rule in Rule],
        default=Rule.FREESTYLE.value,
        help="the rule of .psq games, move lists and SGF games without RU (default freestyle)",
    )
    import_.add_argument("--size", type=_board_size, default=15, help="the board of move lists: 5 to 26, default 15")
    import_.add_argument("--black", type=_text_name, default="black", metavar="NAME", help="black's name in move lists")
    import_.add_argument("--white", type=_text_name, default="white", metavar="NAME", help="white's name in move lists")
    import_.add_argument("--private", action="store_true", help="only you may read the games")
    delete = subcommand(
        "delete",
        "delete stored games",
        "Your own finished casual games against bots (an admin's: any finished games), all or none. "
        "Prints 'deleted GAME_ID' for each.",
    )
    delete.add_argument("game_ids", nargs="+", metavar="GAME_ID")
    play = subcommand(
        "play",
        "play a bot, reading your moves (h8, or x,y) from standard input, one per line",
        "Prints 'game GAME_ID', then each move as 'PLY COLOUR MOVE', then 'result WINNER REASON' "
        "(WINNER: black, white or draw). A line is read when it is your turn; a refused move is reported "
        "on stderr and the next line is read. If input ends first, the game is resigned.",
    )
    play.add_argument(
        "--bot", required=True, type=_bot_level, metavar="LEVEL", help="the bot's level ('gomoku bots' lists them)"
    )
    play.add_argument("--as", dest="colour", choices=("black", "white"), default="black", help="default black")
    play.add_argument("--rule", choices=[rule.value for rule in Rule], default=Rule.FREESTYLE.value)
    play.add_argument("--size", type=_board_size, default=15, help="5 to 26 (renju: 15), default 15")
    play.add_argument("--clock", type=_clock, metavar="MINUTES+SECONDS", help="e.g. 5+3 (default: untimed)")
    play.add_argument("--rated", action="store_true", help="a rated game: both ratings change with the result")
    subcommand(
        "login",
        "sign this machine in to a name kept with a password",
        "Asks for the password without echo; the token this machine gets is kept for later commands.",
    )
    subcommand(
        "passwd",
        "keep your name with a password, or change it",
        "Asks for the current password (if the name has one) and the new one twice, without echo; "
        "then 'gomoku login' signs in from any other machine.",
    )
    review = subcommand(
        "review",
        "show a finished game's review: missed wins and blunders, with their winning lines",
        "The server computes it first if nobody has asked yet (seconds for a long game); --json prints it as sent.",
    )
    review.add_argument("game_id", metavar="GAME_ID")
    review.add_argument("--json", action="store_true", help="the review as the server sent it")
    puzzles = subcommand(
        "puzzles",
        "solve puzzles from the server's games, reading your moves (h8, or x,y) from standard input",
        "Shows each puzzle's board; after each right move prints the defender's answer; a wrong move ends "
        "the puzzle and shows the solution; at the end, how many were solved.",
    )
    puzzles.add_argument("--count", type=_positive, default=3, help="how many puzzles (default 3)")
    puzzles.add_argument("--daily", action="store_true", help="the puzzle of the day only")
    return parser


def _player_name(text: str) -> str:
    if not values.PLAYER_NAME.fullmatch(text):
        raise argparse.ArgumentTypeError(f"{text!r} is not a player name: use 1 to 32 of A-Z a-z 0-9 _ -")
    return text


def _text_name(text: str) -> str:
    """A player's name as an imported game keeps it: any text on one line, not an account's name."""
    if not 1 <= len(text) <= MAX_NAME_LENGTH or not text.isprintable():
        raise argparse.ArgumentTypeError(f"a name is 1 to {MAX_NAME_LENGTH} printable characters")
    return text


def _bot_level(text: str) -> str:
    if not 1 <= len(text) <= MAX_LEVEL_LENGTH:
        raise argparse.ArgumentTypeError(f"a bot level is 1 to {MAX_LEVEL_LENGTH} characters")
    return text


def _positive(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"a whole number of 1 or more, not {text!r}")
    return int(text)


def _page_limit(text: str) -> int:
    if not text.isdigit() or not 1 <= int(text) <= player_commands.MAX_TOP_LIMIT:
        raise argparse.ArgumentTypeError(f"a whole number from 1 to {player_commands.MAX_TOP_LIMIT}, not {text!r}")
    return int(text)


def _board_size(text: str) -> int:
    if not text.isdigit() or not 5 <= int(text) <= 26:
        raise argparse.ArgumentTypeError(f"a board size from 5 to 26, not {text!r}")
    return int(text)


def _clock(text: str) -> tuple[int, int]:
    try:
        return values.parse_clock(text)
    except values.CommandError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def main(argv: Sequence[str] | None = None) -> int:
    """Run the client or a subcommand; the exit status is described in EXIT_STATUSES."""
    parser = _parser()
    arguments = parser.parse_args(argv)
    try:
        _player_name(arguments.name)
    except argparse.ArgumentTypeError as error:
        parser.error(str(error))
    if arguments.subcommand == "play" and arguments.rule == Rule.RENJU.value and arguments.size != 15:
        parser.error("renju is played on 15x15 only")
    tokens = TokenStore(arguments.config_dir or default_config_dir())
    try:
        if arguments.subcommand is None:
            return _interactive(arguments, tokens)
        if arguments.subcommand == "profile":
            return asyncio.run(_profile(arguments))
        if arguments.subcommand in ("login", "passwd"):
            return asyncio.run(_account(arguments, tokens))
        return asyncio.run(_subcommand(arguments, tokens))
    except KeyboardInterrupt:
        return 130


def _interactive(arguments: argparse.Namespace, tokens: TokenStore) -> int:
    try:
        token = tokens.get(arguments.server, arguments.name)
    except TokenStoreError as error:
        print(f"gomoku: {error}", file=sys.stderr)
        return 2
    core = ClientCore(arguments.name, token, scripted_input=not sys.stdin.isatty())
    return asyncio.run(Session(core, arguments.server, StdioTerminal(), tokens).run())


async def _subcommand(arguments: argparse.Namespace, tokens: TokenStore) -> int:
    """Run one subcommand; a ScriptError is reported on stderr with exit status 1."""
    try:
        async with Connection.signed_in(arguments.server, arguments.name, tokens) as connection:
            return await _run(arguments, connection)
    except ScriptError as error:
        sys.stdout.flush()
        print(f"gomoku: {error}", file=sys.stderr)
        return 1


async def _account(arguments: argparse.Namespace, tokens: TokenStore) -> int:
    """`gomoku login` or `gomoku passwd`, reading passwords without echo."""
    command = account_commands.login if arguments.subcommand == "login" else account_commands.passwd
    try:
        await command(arguments.server, arguments.name, tokens, getpass.getpass, sys.stdout)
    except ScriptError as error:
        print(f"gomoku: {error}", file=sys.stderr)
        return 1
    return 0


async def _profile(arguments: argparse.Namespace) -> int:
    """`gomoku profile`: over HTTP, without signing in."""
    try:
        await subcommands.profile(arguments.server, arguments.player or arguments.name, sys.stdout, arguments.json)
    except ScriptError as error:
        print(f"gomoku: {error}", file=sys.stderr)
        return 1
    return 0


async def _run(arguments: argparse.Namespace, connection: Connection) -> int:
    out = sys.stdout
    match arguments.subcommand:
        case "bots":
            await subcommands.list_bots(connection, out, arguments.json)
        case "rooms":
            await subcommands.list_rooms(connection, out, arguments.json)
        case "games":
            player = arguments.player or arguments.name
            before = GameId(arguments.before) if arguments.before else None
            await subcommands.list_games(connection, out, player, arguments.limit, before, arguments.json)
        case "top":
            kinds: dict[str, Literal["human", "bot"] | None] = {"humans": "human", "bots": "bot", "all": None}
            await subcommands.leaderboard(connection, out, kinds[arguments.kind], arguments.limit, arguments.json)
        case "online":
            await subcommands.online(connection, out, arguments.json)
        case "seeks":
            await subcommands.seeks(connection, out, arguments.json)
        case "export":
            record_format = _export_format(arguments.format, arguments.output)
            await subcommands.export_game(connection, GameId(arguments.game_id), record_format, out, arguments.output)
        case "import":
            terms = UploadTerms(Rule.parse(arguments.rule), arguments.size, arguments.black, arguments.white)
            await subcommands.import_games(connection, out, arguments.files, terms, arguments.private)
        case "delete":
            await subcommands.delete_games(connection, out, [GameId(game_id) for game_id in arguments.game_ids])
        case "tournaments":
            await tournament_commands.list_tournaments(connection, out, arguments.json)
        case "standings":
            await tournament_commands.standings(connection, out, arguments.tournament_id, arguments.json)
        case "join":
            await tournament_commands.join(connection, out, arguments.tournament_id, arguments.json)
        case "withdraw":
            await tournament_commands.withdraw(connection, out, arguments.tournament_id, arguments.json)
        case "play":
            settings = PlaySettings(
                bot=arguments.bot,
                colour=Color.parse(arguments.colour),
                rule=Rule.parse(arguments.rule),
                size=arguments.size,
                clock=arguments.clock,
                rated=arguments.rated,
            )
            return await BotGame(connection, out, sys.stderr).play(settings, StdinLines().read_line)
        case "review":
            await review_commands.review_game(connection, GameId(arguments.game_id), out, arguments.json)
        case "puzzles":
            await review_commands.train(connection, StdinLines().read_line, out, arguments.count, arguments.daily)
    return 0


def _export_format(chosen: str | None, output: Path | None) -> cmd.RecordFormat:
    """The format asked for, else the one the output file's suffix names, else json."""
    wanted = chosen or (output.suffix.lstrip(".").lower() if output is not None else "")
    for record_format in cmd.RECORD_FORMATS:
        if record_format == wanted:
            return record_format
    return "json"


if __name__ == "__main__":
    sys.exit(main())
