"""`gomoku-bot`: bring a Gomocup brain to any server as a bot account.

    gomoku-bot --server ws://HOST:PORT/ws --name NAME --engine "COMMAND" [filters] [--seek ...]

By default it accepts the seeks in the lobby that its filters allow, one
game at a time; `--max-games N` plays N at once (one engine process each),
`--seek` also seeks games itself, `--join-rooms` joins open public rooms.
It runs until interrupted, reconnecting after drops and resuming its games.
docs/engines.md has examples.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import shlex
import signal
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Literal

from client.bot.runner import BotRunner, BotStopped
from client.bot.settings import BotSettings, SeekTerms
from client.tokens import CONFIG_DIR_ENV, TokenStore, default_config_dir
from client.values import CommandError, parse_clock
from engine.types import Rule
from wire.messages import ClockSettingModel

DEFAULT_SERVER = "ws://127.0.0.1:8765/ws"
PASSWORD_ENV = "GOMOKU_BOT_PASSWORD"
"""The environment variable that holds the account's password (`--password-file` overrides it)."""


def _rules(text: str) -> frozenset[Rule]:
    try:
        return frozenset(Rule.parse(word) for word in text.split(",") if word.strip())
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _sizes(text: str) -> frozenset[int]:
    try:
        sizes = frozenset(int(word) for word in text.split(",") if word.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(f"sizes are numbers separated by commas, not {text!r}") from None
    if not sizes or not all(5 <= size <= 26 for size in sizes):
        raise argparse.ArgumentTypeError(f"sizes are 5 to 26, not {text!r}")
    return sizes


def _names(text: str) -> frozenset[str]:
    return frozenset(word.strip() for word in text.split(",") if word.strip())


def _clock(text: str) -> ClockSettingModel | None:
    """`M+S` as the client's `create` reads it (M minutes and S seconds of increment); `none` for untimed."""
    if text.lower() == "none":
        return None
    try:
        initial_ms, increment_ms = parse_clock(text)
    except CommandError as error:
        raise argparse.ArgumentTypeError(f"{error} (or none: untimed)") from None
    return ClockSettingModel(initial_ms=initial_ms, increment_ms=increment_ms)


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more, not {value}")
    return value


def parse_arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="gomoku-bot", description=__doc__.split("\n\n")[0])
    add = parser.add_argument
    add("--server", default=DEFAULT_SERVER, help=f"websocket address (default {DEFAULT_SERVER})")
    add("--name", required=True, help="the bot account's name (created as a bot on first use)")
    add("--engine", required=True, help='the brain\'s command line, e.g. "pbrain-rapfi" (split like a shell)')
    add(
        "--password-file",
        type=Path,
        default=None,
        help=f"a file whose first line is the account's password (default ${PASSWORD_ENV}, else none)",
    )
    add(
        "--config-dir",
        type=Path,
        default=None,
        help=f"where the account's token is kept (default ${CONFIG_DIR_ENV}, else ~/.config/gomoku)",
    )
    add("--max-games", type=_positive, default=1, help="games at once, one engine process each (default 1)")
    add(
        "--rules",
        type=_rules,
        default=frozenset({Rule.FREESTYLE}),
        help="rules it plays, comma-separated (default freestyle)",
    )
    add("--sizes", type=_sizes, default=frozenset({15}), help="board sizes it plays, comma-separated (default 15)")
    add("--no-untimed", action="store_true", help="refuse games without a clock")
    add("--min-initial-s", type=float, default=0.0, help="the least initial time of a timed game (default 0)")
    add("--max-initial-s", type=float, default=24 * 3600.0, help="the most initial time of a timed game")
    add("--rated", choices=("rated", "casual", "any"), default="any", help="which games it plays (default any)")
    add("--swap2", action="store_true", help="the engine takes swap2 decisions (SWAP2BOARD): play swap2 rooms too")
    add("--opponents", choices=("human", "bot", "any"), default="any", help="people, bots or both (default any)")
    add("--allow", type=_names, default=frozenset(), help="play only these names (comma-separated)")
    add("--deny", type=_names, default=frozenset(), help="never play these names (comma-separated)")
    add(
        "--move-time-ms",
        type=_positive,
        default=2000,
        help="the most its engine thinks per move; untimed games get this (default 2000)",
    )
    add("--tolerance-ms", type=int, default=1000, help="how long past that the engine may answer (default 1000)")
    add("--start-timeout-s", type=float, default=30.0, help="how long the engine may take to start (default 30)")
    add("--accept-draws", action="store_true", help="accept draw offers (default: decline them)")
    add("--no-rematch", action="store_true", help="decline rematches")
    add("--no-accept", action="store_true", help="do not accept seeks from the lobby")
    add("--join-rooms", action="store_true", help="join open public rooms its filters allow")
    add("--seek", action="store_true", help="seek games itself (with --seek-rule, --seek-size, --seek-clock)")
    add("--seek-rule", type=Rule.parse, default=Rule.FREESTYLE, help="the rule of its seeks (default freestyle)")
    add("--seek-size", type=int, default=15, help="the board size of its seeks (default 15)")
    add("--seek-clock", type=_clock, default=None, help="the clock of its seeks, M+S or none (default none)")
    add("--seek-rated", action="store_true", help="seek rated games")
    add("--verbose", action="store_true", help="log every engine's stderr too")
    return parser.parse_args(argv)


def settings_from(arguments: argparse.Namespace) -> BotSettings:
    """The bot's settings from its command line."""
    kinds: dict[str, frozenset[Literal["human", "bot"]]] = {
        "any": frozenset({"human", "bot"}),
        "human": frozenset({"human"}),
        "bot": frozenset({"bot"}),
    }
    seek = None
    if arguments.seek:
        seek = SeekTerms(arguments.seek_rule, arguments.seek_size, arguments.seek_clock, arguments.seek_rated)
    return BotSettings(
        rules=arguments.rules,
        sizes=arguments.sizes,
        untimed=not arguments.no_untimed,
        min_initial_s=arguments.min_initial_s,
        max_initial_s=arguments.max_initial_s,
        rated=arguments.rated,
        swap2=arguments.swap2,
        opponents=kinds[arguments.opponents],
        allow=arguments.allow,
        deny=arguments.deny,
        max_games=arguments.max_games,
        move_time_ms=arguments.move_time_ms,
        tolerance_ms=arguments.tolerance_ms,
        start_timeout_s=arguments.start_timeout_s,
        accept_draws=arguments.accept_draws,
        rematch=not arguments.no_rematch,
        seek=seek,
        join_rooms=arguments.join_rooms,
        accept_seeks=not arguments.no_accept,
    )


def read_password(path: Path | None, environ: Mapping[str, str]) -> str | None:
    """The account's password: the first line of `path` (without its line break), else the
    environment's PASSWORD_ENV, else None (the bot signs in with its token only). Never a
    command-line argument, which other users of the machine can read."""
    if path is not None:
        lines = path.read_text(encoding="utf-8").splitlines()
        return lines[0] if lines else None
    return environ.get(PASSWORD_ENV) or None


async def run(runner: BotRunner) -> None:
    """Run the bot until SIGINT or SIGTERM."""
    task = asyncio.current_task()
    assert task is not None
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, task.cancel)
    with contextlib.suppress(asyncio.CancelledError):
        await runner.run()


def main(argv: Sequence[str] | None = None) -> int:
    arguments = parse_arguments(argv)
    level = logging.DEBUG if arguments.verbose else logging.INFO
    logging.basicConfig(level=level, format="%(asctime)s %(levelname)s %(name)s: %(message)s", stream=sys.stderr)
    logging.getLogger("websockets").setLevel(logging.WARNING)
    engine = shlex.split(arguments.engine)
    if not engine:
        print("gomoku-bot: --engine is empty", file=sys.stderr)
        return 2
    try:
        password = read_password(arguments.password_file, os.environ)
    except OSError as error:
        print(f"gomoku-bot: cannot read the password file: {error}", file=sys.stderr)
        return 2
    tokens = TokenStore(arguments.config_dir or default_config_dir())
    runner = BotRunner(arguments.server, arguments.name, engine, settings_from(arguments), tokens, password)
    try:
        asyncio.run(run(runner))
    except BotStopped as error:
        print(f"gomoku-bot: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
