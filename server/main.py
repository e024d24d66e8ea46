"""`gomoku-server`: run the game server until SIGTERM or SIGINT.

    gomoku-server [--host 127.0.0.1] [--port 8765] [--db PATH|postgresql://...] [--bot-workers N] [--engines FILE] ...
    gomoku-server --db postgresql://... --bus redis://HOST:PORT/0 [--node-id NAME] ...   (one node of a cluster)

(`gomoku-server --help` lists every option: bots' time and pauses, how long
a dropped player may stay away, and the limits per player and address.)

Prints `listening on ws://HOST:PORT/ws` once connections are accepted. On
SIGTERM or SIGINT it closes every connection with 1001, lets the writes in
progress finish, and exits 0. A server that cannot start (a database it
cannot use, a port taken, a bad engines file, a missing extra) says why in
one line on stderr and exits 2, leaving no process behind.

One process on SQLite needs nothing but the package; `--bus` and a
`postgresql://` `--db` need the `cluster` extra, whose modules are imported
only then.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import logging
import signal
import sys

from websockets.asyncio.server import Server

from engine import build_info
from server.accounts.service import AccountSettings
from server.app import GameServer, ServerSettings
from server.bots.engine_config import EngineConfigError, read_engines
from server.cluster.lease_settings import LeaseSettings, default_node_id
from server.domain import LOCAL_NODE
from server.edge.client_address import ClientAddresses, Network, trusted_networks
from server.edge.origins import OriginPolicy, normalized_origin
from server.hub.services import Limits
from server.review.service import ReviewSettings
from server.rooms.room import RoomSettings
from server.storage.database import StorageError, is_postgres
from server.tournaments.director import TournamentSettings
from server.version import server_version

DEFAULT_DB = "gomoku.sqlite3"

CLUSTER_EXTRA = "pip install 'gomoku-server[cluster]'"
"""How to install what a node of several needs (asyncpg, redis-py)."""


class CannotStart(Exception):
    """The server cannot start as asked; the message says why in one line."""


def _positive_int(text: str) -> int:
    value = int(text)
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be positive, not {value}")
    return value


def _count(text: str) -> int:
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, not {value}")
    return value


def _positive_seconds(text: str) -> float:
    value = float(text)
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be positive, not {text}")
    return value


def _seconds(text: str) -> float:
    value = float(text)
    if not value >= 0:
        raise argparse.ArgumentTypeError(f"must not be negative, not {text}")
    return value


def _port(text: str) -> int:
    value = int(text)
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"must be 0 to 65535, not {value}")
    return value


def _node_id(text: str) -> str:
    if not text or not all(char.isalnum() or char in "-_." for char in text):
        raise argparse.ArgumentTypeError(f"a node's name is letters, digits, '-', '_' and '.', not {text!r}")
    return text


def _node_name(arguments: argparse.Namespace) -> str:
    """The node's name: the one given, else (one of several: a bus or PostgreSQL) the host's and
    the process id, else `local`."""
    if arguments.node_id is not None:
        return str(arguments.node_id)
    if arguments.bus is None and not is_postgres(arguments.db):
        return LOCAL_NODE
    return _node_id(default_node_id())


def _trusted_proxies(text: str) -> tuple[Network, ...]:
    try:
        return trusted_networks(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _origins(text: str) -> frozenset[str]:
    """`--allowed-origins`: comma-separated origins, each as `normalized_origin` writes it."""
    try:
        return frozenset(normalized_origin(origin) for origin in text.split(",") if origin.strip())
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def parse_arguments(argv: list[str] | None) -> ServerSettings:
    """Read the command line into settings: a wrong option exits as argparse does (status 2, with the
    usage); an engines file that cannot be used raises CannotStart."""
    parser = argparse.ArgumentParser(prog="gomoku-server", description="Run the Gomoku websocket server.")
    add = parser.add_argument
    add("--version", action="version", version=f"gomoku-server {server_version()}")
    add("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1; 0.0.0.0 for a LAN)")
    add("--port", type=_port, default=8765, help="port to listen on; 0 picks a free one (default 8765)")
    add(
        "--db",
        default=DEFAULT_DB,
        help=f"SQLite database file (default ./{DEFAULT_DB}), or a PostgreSQL database as "
        "postgresql://USER@HOST:PORT/DB (needs the cluster extra: pip install 'gomoku-server[cluster]')",
    )
    add("--bot-workers", type=_count, default=1, help="bot search processes; 0 disables bots (default 1)")
    add(
        "--abandon-after-s",
        type=_positive_seconds,
        default=120.0,
        help="seconds a dropped player may stay away "
        "before the game is lost, and a finished room is kept for a rematch (default 120)",
    )
    add("--bot-time-ms", type=_positive_int, default=None, help="the most a bot thinks per move (default: its level's)")
    add("--bot-pause-s", type=_seconds, default=1.0, help="the least time between the moves of two bots (default 1)")
    add(
        "--bot-idle-s",
        type=_positive_seconds,
        default=600.0,
        help="a game between two bots that nobody watches pauses, and ends drawn after this many seconds (default 600)",
    )
    defaults = ServerSettings()
    add(
        "--analysis-workers",
        type=_positive_int,
        default=defaults.analysis_workers,
        help="search processes for "
        "`analyze`, apart from the bots', so that no analysis delays a bot's move "
        f"(default {defaults.analysis_workers})",
    )
    add(
        "--analysis-max-ms",
        type=_positive_int,
        default=defaults.analysis_max_ms,
        help=f"the longest analysis: a longer time_ms is lowered to it (default {defaults.analysis_max_ms})",
    )
    add(
        "--compression",
        action="store_true",
        help="offer per-message deflate to clients: less traffic on a "
        "slow network, more memory and CPU per connection (default off)",
    )
    add(
        "--claim-after-s",
        type=_positive_seconds,
        default=30.0,
        help="seconds a player must have been away before the opponent may claim the win (default 30)",
    )
    add(
        "--engines",
        metavar="FILE",
        default=None,
        help="a TOML file of outside Gomocup engines to offer as bot levels (see docs/engines.md)",
    )
    review = ReviewSettings()
    add(
        "--review-nodes",
        type=_positive_int,
        default=review.budget_nodes,
        help=f"solver nodes per position of a game review or a puzzle check (default {review.budget_nodes})",
    )
    add(
        "--review-rated",
        action="store_true",
        help="review every rated game as soon as it ends (default: reviews are computed when first asked for)",
    )
    add("--no-puzzle-mining", action="store_true", help="do not look for puzzles in finished games")
    add(
        "--bus",
        metavar="URL",
        default=None,
        help="run as one node of a cluster, the nodes talking through "
        "this Redis (redis://HOST:PORT/0; needs the cluster extra); without it, one process (default)",
    )
    add(
        "--node-id",
        type=_node_id,
        default=None,
        help="this node's name in the cluster, unique among its "
        "nodes (default: the host's name and this process's id with --bus or PostgreSQL, else 'local')",
    )
    add(
        "--trusted-proxies",
        type=_trusted_proxies,
        default=(),
        help="comma-separated addresses or networks of reverse proxies whose X-Forwarded-For names the client "
        "(its right-most address not a trusted proxy's); from any other peer the header is ignored (default: none)",
    )
    add(
        "--allowed-origins",
        type=_origins,
        default=frozenset(),
        help="comma-separated origins (https://HOST[:PORT]) whose pages may open websockets besides the "
        "server's own (the host and port a request reached); a request without Origin (a program) is let in",
    )
    limits = Limits()
    add(
        "--max-connections-per-address",
        type=_positive_int,
        default=limits.connections_per_address,
        help=f"open connections from one IP address (default {limits.connections_per_address})",
    )
    add(
        "--max-rooms-per-player",
        type=_positive_int,
        default=limits.rooms_per_player,
        help=f"rooms one player may have open (default {limits.rooms_per_player})",
    )
    add(
        "--max-bot-games-per-player",
        type=_count,
        default=limits.bot_games_per_player,
        help=f"games between two bots one player may run (default {limits.bot_games_per_player})",
    )
    add(
        "--max-bot-games",
        type=_count,
        default=limits.bot_games,
        help=f"games between two bots on the whole server (default {limits.bot_games})",
    )
    add(
        "--max-seeks-per-player",
        type=_positive_int,
        default=limits.seeks_per_player,
        help=f"seeks one player may have waiting in the lobby (default {limits.seeks_per_player})",
    )
    add(
        "--max-quick-seeks-per-address",
        type=_positive_int,
        default=limits.quick_seeks_per_address,
        help=f"quick seeks waiting from one IP address (default {limits.quick_seeks_per_address})",
    )
    add(
        "--max-new-names-per-address-per-hour",
        type=_count,
        default=limits.new_names_per_address_per_hour,
        help=f"new players one IP address may sign up in an hour (default {limits.new_names_per_address_per_hour})",
    )
    add(
        "--new-player-chat-lines",
        type=_count,
        default=limits.new_player_chat_lines,
        help=f"chat lines per {limits.chat_window_s:g} s for a player with no rated game yet (default "
        f"{limits.new_player_chat_lines}; everyone else {limits.chat_lines})",
    )
    accounts = AccountSettings()
    add(
        "--max-password-failures-per-name",
        type=_positive_int,
        default=accounts.failures_per_name,
        help=f"wrong passwords for one name per {accounts.failure_window_s / 60:g} minutes, then each attempt "
        f"waits 5 s, doubling, at most {accounts.longest_name_pause_s:g} s (default {accounts.failures_per_name})",
    )
    add(
        "--max-password-failures-per-address",
        type=_positive_int,
        default=accounts.failures_per_address,
        help=f"wrong passwords from one IP address per {accounts.failure_window_s / 60:g} minutes "
        f"(default {accounts.failures_per_address})",
    )
    add(
        "--deleted-name-reserved-days",
        type=_seconds,
        default=accounts.name_reserved_days,
        help=f"days a deleted account's name waits before anyone may take it (default {accounts.name_reserved_days:g})",
    )
    lease = LeaseSettings()
    add(
        "--heartbeat-s",
        type=_positive_seconds,
        default=lease.heartbeat_s,
        help="how often a node on PostgreSQL "
        f"renews its lease and looks for dead nodes (default {lease.heartbeat_s:g})",
    )
    add(
        "--lease-s",
        type=_positive_seconds,
        default=lease.expiry_s,
        help="how long a node's lease outlasts its "
        f"last renewal: a node silent that long has its rooms taken over (default {lease.expiry_s:g})",
    )
    tournaments = TournamentSettings()
    add(
        "--tournament-round-pause-s",
        type=_seconds,
        default=tournaments.round_pause_s,
        help=f"seconds between a tournament's rounds (default {tournaments.round_pause_s:g})",
    )
    add(
        "--arena-wave-s",
        type=_seconds,
        default=tournaments.arena_wave_s,
        help=f"seconds an arena gathers free players before pairing them (default {tournaments.arena_wave_s:g})",
    )
    add(
        "--max-tournaments-per-player",
        type=_positive_int,
        default=tournaments.open_per_player,
        help=f"tournaments not yet over one player may organise (default {tournaments.open_per_player})",
    )
    add(
        "--tournament-organisers",
        metavar="NAME,...",
        default="",
        type=lambda text: text.replace(" ", ""),
        help="only these players may create tournaments (default: anyone signed in)",
    )
    arguments = parser.parse_args(argv)
    try:
        lease = LeaseSettings(arguments.heartbeat_s, arguments.lease_s)
    except ValueError as error:
        parser.error(str(error))
    try:
        engines = read_engines(arguments.engines) if arguments.engines is not None else ()
    except EngineConfigError as error:
        raise CannotStart(str(error)) from error
    return ServerSettings(
        host=arguments.host,
        port=arguments.port,
        db_path=arguments.db,
        bot_workers=arguments.bot_workers,
        analysis_workers=arguments.analysis_workers,
        analysis_max_ms=arguments.analysis_max_ms,
        room=RoomSettings(
            abandon_after_s=arguments.abandon_after_s,
            bot_time_ms=arguments.bot_time_ms,
            bot_move_pause_s=arguments.bot_pause_s,
            bot_game_idle_s=arguments.bot_idle_s,
            claim_after_s=arguments.claim_after_s,
        ),
        compression=arguments.compression,
        engines=engines,
        node_id=_node_name(arguments),
        lease=lease,
        review=ReviewSettings(
            budget_nodes=arguments.review_nodes,
            review_rated=arguments.review_rated,
            mine_puzzles=not arguments.no_puzzle_mining,
        ),
        bus_url=arguments.bus,
        limits=Limits(
            connections_per_address=arguments.max_connections_per_address,
            rooms_per_player=arguments.max_rooms_per_player,
            bot_games_per_player=arguments.max_bot_games_per_player,
            bot_games=arguments.max_bot_games,
            seeks_per_player=arguments.max_seeks_per_player,
            quick_seeks_per_address=arguments.max_quick_seeks_per_address,
            new_names_per_address_per_hour=arguments.max_new_names_per_address_per_hour,
            new_player_chat_lines=arguments.new_player_chat_lines,
        ),
        accounts=AccountSettings(
            failures_per_name=arguments.max_password_failures_per_name,
            failures_per_address=arguments.max_password_failures_per_address,
            name_reserved_days=arguments.deleted_name_reserved_days,
        ),
        origins=OriginPolicy(arguments.allowed_origins),
        client_addresses=ClientAddresses(arguments.trusted_proxies),
        tournaments=TournamentSettings(
            round_pause_s=arguments.tournament_round_pause_s,
            arena_wave_s=arguments.arena_wave_s,
            open_per_player=arguments.max_tournaments_per_player,
            organisers=frozenset(name.lower() for name in arguments.tournament_organisers.split(",") if name),
        ),
    )


async def run(settings: ServerSettings) -> None:
    """Serve until a stop signal, then shut down cleanly."""
    app, server = await start_or_explain(settings)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop.set)
    port = server.sockets[0].getsockname()[1] if server.sockets else settings.port
    print(f"listening on ws://{settings.host}:{port}/ws", flush=True)
    logging.getLogger(__name__).info("the web client is at http://%s:%d/", settings.host, port)
    logging.getLogger(__name__).info("%s", build_info())
    await stop.wait()
    server.close()
    await server.wait_closed()
    await app.close()


def check_extras(settings: ServerSettings) -> None:
    """Refuse at once, naming the extra to install, a cluster setting whose packages are missing."""
    wanted = []
    if settings.bus_url is not None:
        wanted.append(("--bus", "redis"))
    if is_postgres(settings.db_path):
        wanted.append(("a postgresql:// --db", "asyncpg"))
    for option, module in wanted:
        if importlib.util.find_spec(module) is None:
            raise CannotStart(f"{option} needs the cluster extra ({module} is not installed): {CLUSTER_EXTRA}")


async def start_or_explain(settings: ServerSettings) -> tuple[GameServer, Server]:
    """Start the server, or raise CannotStart with the reason in one line."""
    try:
        return await GameServer.start(settings)
    except (StorageError, EngineConfigError) as error:
        raise CannotStart(str(error)) from error
    except OSError as error:
        raise CannotStart(f"cannot listen on {settings.host}:{settings.port}: {error.strerror or error}") from error
    except Exception as error:
        # A failure nobody foresaw: its traceback goes to the log, for a report, and the reason to the last line.
        logging.getLogger(__name__).exception("the server failed while starting")
        raise CannotStart(f"failed while starting: {type(error).__name__}: {error}") from error


def main(argv: list[str] | None = None) -> None:
    """Entry point of `gomoku-server`: exit 0 after a clean stop, 2 when it cannot start."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s", stream=sys.stderr)
    logging.getLogger("websockets").setLevel(logging.WARNING)
    try:
        settings = parse_arguments(argv)
        check_extras(settings)
        asyncio.run(run(settings))
    except CannotStart as error:
        print(f"gomoku-server: {error}", file=sys.stderr)
        sys.exit(2)
    sys.exit(0)


if __name__ == "__main__":
    main()
