"""`gomoku-server`: run the game server until SIGTERM or SIGINT.

    gomoku-server [--host 127.0.0.1] [--port 8765] [--db PATH] [--bot-workers N]
                  [--abandon-after-s SECONDS]

Prints `listening on ws://HOST:PORT/ws` once connections are accepted. On
SIGTERM or SIGINT it closes every connection with 1001, lets the writes in
progress finish, and exits 0.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import signal
import sys

from server.app import GameServer, ServerSettings
from server.rooms import RoomSettings
from server.storage import StorageError

DEFAULT_DB = "gomoku.sqlite3"


def parse_arguments(argv: list[str] | None) -> ServerSettings:
    """Read the command line into settings."""
    parser = argparse.ArgumentParser(prog="gomoku-server", description="Run the Gomoku websocket server.")
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8765, help="port to listen on; 0 picks a free one (default 8765)")
    parser.add_argument("--db", default=DEFAULT_DB, help=f"SQLite database file (default ./{DEFAULT_DB})")
    parser.add_argument("--bot-workers", type=int, default=1, help="bot search processes; 0 disables bots (default 1)")
    parser.add_argument(
        "--abandon-after-s",
        type=float,
        default=120.0,
        help="seconds a disconnected player may stay away before the game is lost (default 120)",
    )
    parser.add_argument(
        "--bot-time-ms", type=int, default=None, help="the most a bot thinks per move (default: its level's time)"
    )
    parser.add_argument(
        "--bot-pause-s",
        type=float,
        default=1.0,
        help="in a game between two bots, the least time between moves, so people can watch (default 1)",
    )
    arguments = parser.parse_args(argv)
    if not 0 <= arguments.port <= 65535:
        parser.error(f"--port must be 0 to 65535, not {arguments.port}")
    if arguments.bot_workers < 0:
        parser.error(f"--bot-workers must be 0 or more, not {arguments.bot_workers}")
    if arguments.abandon_after_s <= 0:
        parser.error("--abandon-after-s must be positive")
    if arguments.bot_time_ms is not None and arguments.bot_time_ms <= 0:
        parser.error("--bot-time-ms must be positive")
    if arguments.bot_pause_s < 0:
        parser.error("--bot-pause-s must not be negative")
    return ServerSettings(
        host=arguments.host,
        port=arguments.port,
        db_path=arguments.db,
        bot_workers=arguments.bot_workers,
        room=RoomSettings(
            abandon_after_s=arguments.abandon_after_s,
            bot_time_ms=arguments.bot_time_ms,
            bot_move_pause_s=arguments.bot_pause_s,
        ),
    )


async def run(settings: ServerSettings) -> None:
    """Serve until a stop signal, then shut down cleanly."""
    app, server = await GameServer.start(settings)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop.set)
    port = server.sockets[0].getsockname()[1] if server.sockets else settings.port
    print(f"listening on ws://{settings.host}:{port}/ws", flush=True)
    await stop.wait()
    server.close()
    await server.wait_closed()
    await app.close()


def main(argv: list[str] | None = None) -> None:
    """Entry point of `gomoku-server`."""
    settings = parse_arguments(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s", stream=sys.stderr)
    logging.getLogger("websockets").setLevel(logging.WARNING)
    try:
        asyncio.run(run(settings))
    except StorageError as error:
        print(f"gomoku-server: {error}", file=sys.stderr)
        sys.exit(2)
    sys.exit(0)


if __name__ == "__main__":
    main()
