"""Cluster benchmark (issue 29): one node on SQLite or PostgreSQL against two and three behind HAProxy,
the CPU each component spends per move, fail-over over repeated SIGKILLs, lobby delivery across nodes.

    ./dev run python -m bench.cluster                     # 8 games at once, 20 plies, 10 kills
    ./dev run python -m bench.cluster --games 4 --plies 10 --kills 3 --seeks 10

Starts, on 127.0.0.1 only, a throw-away PostgreSQL (a fresh database per setup), a `redis-server`
that keeps nothing on disk and, per setup, fresh `gomoku-server` nodes (`--bot-workers 0`), with
`tools.local_services` as `./dev cluster` does. The setups:

1. `1 node, SQLite`: the default server, no bus;
2. `1 node, PostgreSQL`: one node on PostgreSQL, no bus;
3. `N nodes, same node` (N = 2, 3): nodes on PostgreSQL and the bus; each game's two players on
   one node (game i on node i mod N, which owns its room), its spectator on the next node;
4. `N nodes, HAProxy`: every client through HAProxy's one address. Its round robin hands out the
   nodes in turn, and the clients connect in turn (black, white, spectator of each game), so the
   two players of a game are always on two different nodes: every white move crosses the bus.

In each, `--games` games run at once, each as fast as its two players answer: the mover sends
`move`, the opponent reads `moved`, then moves in turn. Measured: plies per second, the move's
round trip (`move` sent to the opponent reading `moved`), its delivery to the spectator (`move`
sent to the spectator reading `moved`), and the CPU time of each component per ply (nodes,
PostgreSQL with its backends, Redis, HAProxy, from /proc).

Then, on three nodes: lobby delivery (a player on the first node posts and cancels `--seeks` seeks
one after the other; the time from `seek` sent to `seek_added` read by a lobby watcher on each other
node), and fail-over: `--kills` times, a game between players on two nodes watched from a third,
the node that owns it SIGKILLed after two plies, its black player reconnecting to another node;
the time from the kill to the next accepted move, and the stored moves compared with the moves the
players were told were played (none may be lost or stored twice). A fresh node replaces each killed
one. Nodes run with the server's default lease (`--heartbeat-s 1 --lease-s 4`).

The load generator is this one asyncio process, on the same cores as the services; on a small
machine the figures compare the setups with each other (bench/RESULTS.md says what a larger one
would show).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import tempfile
import time
from collections.abc import Awaitable, Iterator, Mapping, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

from bench.figures import Spread, command_line, milliseconds, note, table
from bench.server_process import BenchError, cpu_seconds, descendants
from server.storage.database import Storage
from tools.local_services import LocalPostgres, LocalProxy, LocalRedis, ServerNode, missing_programs

SIZE = 15
TAKE_OVER_TIMEOUT_S = 30.0
"""The longest a room may stay unavailable after its owner is killed before the bench gives up."""
RETRY_PAUSE_S = 0.05
LOAD_LIMITS = ["--max-connections-per-address", "100000", "--max-new-names-per-address-per-hour", "100000"]
"""Every client of the bench comes from 127.0.0.1: the per-address limits would refuse them."""
SEEKS_EACH = 10
"""Seeks one seeker posts and cancels: 21 requests in all, within a connection's burst of 40."""
NODES = "nodes"
COMPONENTS = (NODES, "PostgreSQL", "Redis", "HAProxy")


def plies_without_five(count: int) -> list[tuple[int, int]]:
    """The first `count` cells of the board row by row: stones of each colour alternate along a row,
    so that up to a row and a third nobody has five."""
    if count > SIZE + SIZE // 3:
        raise BenchError(f"at most {SIZE + SIZE // 3} plies per game")
    return [(index % SIZE, index // SIZE) for index in range(count)]


class Player:
    """A websocket client signed in as one player."""

    def __init__(self, websocket: ClientConnection, token: str) -> None:
        self.websocket = websocket
        self.token = token
        self._ids = 0

    @classmethod
    async def signed_in(cls, url: str, name: str, token: str | None = None) -> Player:
        """Connect to `url` and say hello as `name` (with `token`: the same player again)."""
        websocket = await connect(url)
        player = cls(websocket, "")
        welcome = await player.ask("hello", "welcome", name=name, **({"token": token} if token else {}))
        player.token = welcome["token"]
        return player

    async def send(self, kind: str, **fields: Any) -> int:
        self._ids += 1
        await self.websocket.send(json.dumps({"type": kind, "id": self._ids, **fields}))
        return self._ids

    async def answer(self, kind: str, **fields: Any) -> dict[str, Any]:
        """Send a request and read until its answer, whatever it is."""
        request_id = await self.send(kind, **fields)
        while True:
            message: dict[str, Any] = json.loads(await self.websocket.recv())
            if message.get("id") == request_id:
                return message

    async def ask(self, kind: str, expected: str, **fields: Any) -> dict[str, Any]:
        """Send a request and read until its answer, which must be of type `expected`."""
        message = await self.answer(kind, **fields)
        if message["type"] != expected:
            raise BenchError(f"{kind} answered {message}")
        return message

    async def ask_until_served(self, kind: str, expected: str, **fields: Any) -> dict[str, Any]:
        """Ask until the answer is not `unavailable` (a room being taken over after its node died, the
        lobby while its owner starts)."""
        give_up_at = time.monotonic() + TAKE_OVER_TIMEOUT_S
        while (message := await self.answer(kind, **fields)).get("code") == "unavailable":
            if time.monotonic() > give_up_at:
                raise BenchError(f"{kind} still unavailable after {TAKE_OVER_TIMEOUT_S} s: {message}")
            await asyncio.sleep(RETRY_PAUSE_S)
        if message["type"] != expected:
            raise BenchError(f"{kind} answered {message}")
        return message

    async def until(self, kind: str, **fields: Any) -> dict[str, Any]:
        """Read until a message of type `kind` with these fields arrives."""
        while True:
            message: dict[str, Any] = json.loads(await self.websocket.recv())
            if message["type"] == kind and all(message.get(name) == value for name, value in fields.items()):
                return message

    async def close(self) -> None:
        await self.websocket.close()


@dataclass
class Delays:
    """What one setup's games measured, in seconds."""

    round_trips: list[float] = field(default_factory=list)
    to_spectator: list[float] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class Seats:
    """Where the three clients of one game connect."""

    black: str
    white: str
    spectator: str


async def timed(reading: Awaitable[object], sent: float, delays: list[float]) -> None:
    """Await `reading` and add the seconds from `sent` (a perf_counter reading) to it ending."""
    await reading
    delays.append(time.perf_counter() - sent)


@dataclass(frozen=True, slots=True)
class Table:
    """One game's clients, seated in its room."""

    black: Player
    white: Player
    spectator: Player
    room_id: str


async def seat_game(seats: Seats, game: int) -> Table:
    """Sign the three clients in, black creates the room, white joins it, the spectator watches."""
    black = await Player.signed_in(seats.black, f"black{game}")
    white = await Player.signed_in(seats.white, f"white{game}")
    spectator = await Player.signed_in(seats.spectator, f"spectator{game}")
    room_id = (await black.ask("create_room", "room"))["room"]["room_id"]
    await white.ask("join_room", "room", room_id=room_id, **{"as": "player"})
    await spectator.ask("join_room", "room", room_id=room_id, **{"as": "spectator"})
    return Table(black, white, spectator, room_id)


async def play_game(game: Table, plies: list[tuple[int, int]], delays: Delays) -> None:
    """Each ply's round trip and its delivery to the spectator measured."""
    for ply, (x, y) in enumerate(plies, start=1):
        mover, other = (game.black, game.white) if ply % 2 else (game.white, game.black)
        sent = time.perf_counter()
        await mover.send("move", room_id=game.room_id, x=x, y=y)
        await asyncio.gather(
            timed(other.until("moved", ply=ply), sent, delays.round_trips),
            timed(game.spectator.until("moved", ply=ply), sent, delays.to_spectator),
        )


async def leave_game(game: Table) -> None:
    """Black resigns, everyone leaves."""
    await game.black.send("resign", room_id=game.room_id)
    for player in (game.black, game.white, game.spectator):
        await player.close()


@dataclass(frozen=True, slots=True)
class Services:
    """The processes of one setup, by component, and the addresses its games' clients use."""

    pids: Mapping[str, Sequence[int]]
    seats: Sequence[Seats]


def component_cpu(pids: Mapping[str, Sequence[int]]) -> dict[str, float]:
    """CPU seconds used so far by each component: its processes and all their descendants (a
    PostgreSQL's backends, a node's worker processes)."""
    used: dict[str, float] = {}
    for component, roots in pids.items():
        everyone = [pid for root in roots for pid in (root, *descendants(root))]
        used[component] = sum(_cpu_or_nothing(pid) for pid in everyone)
    return used


def _cpu_or_nothing(pid: int) -> float:
    """A process's CPU time, or 0 if it ended meanwhile (a backend that closed)."""
    try:
        return cpu_seconds(pid)
    except (FileNotFoundError, ProcessLookupError):
        return 0.0


@dataclass(frozen=True, slots=True)
class Figures:
    setup: str
    plies: int
    elapsed_s: float
    round_trip: Spread | None
    to_spectator: Spread | None
    cpu_s: Mapping[str, float]


async def measure(setup: str, services: Services, plies: int) -> Figures:
    """Seat one game per seat triple, then play them all at once: only the plies are timed and
    charged with the CPU used meanwhile."""
    delays = Delays()
    moves = plies_without_five(plies)
    games = [await seat_game(seats, game) for game, seats in enumerate(services.seats)]
    before = component_cpu(services.pids)
    started = time.perf_counter()
    await asyncio.gather(*(play_game(game, moves, delays) for game in games))
    elapsed = time.perf_counter() - started
    after = component_cpu(services.pids)
    for game in games:
        await leave_game(game)
    cpu = {component: after[component] - before[component] for component in services.pids}
    return Figures(
        setup, len(delays.round_trips), elapsed, Spread.of(delays.round_trips), Spread.of(delays.to_spectator), cpu
    )


class Bench:
    """The services shared by every setup (PostgreSQL, Redis) and a scratch folder for logs and
    SQLite; each setup's nodes and proxy are started and stopped within it."""

    def __init__(self, folder: Path, postgres: LocalPostgres, redis: LocalRedis) -> None:
        self.folder = folder
        self.postgres = postgres
        self.redis = redis
        self._databases = 0
        self._nodes = 0

    def new_database(self) -> str:
        """A fresh, empty PostgreSQL database: no setup restores another's rooms."""
        self._databases += 1
        name = f"bench{self._databases}"
        asyncio.run(_create_database(self.postgres.url, name))
        return self.postgres.database_url(name)

    def start_node(self, running: ExitStack, database: str, bus: bool) -> ServerNode:
        """Start a node (stopped when `running` closes) with a name never used before."""
        self._nodes += 1
        name = f"n{self._nodes}"
        arguments = ["--bot-workers", "0", *LOAD_LIMITS, *(["--bus", self.redis.url] if bus else [])]
        node = ServerNode.start(database, name, self.folder / f"{name}.log", arguments)
        running.callback(node.stop)
        return node

    def shared_pids(self, bus: bool) -> dict[str, list[int]]:
        """The processes of the shared services a setup uses: PostgreSQL, and Redis if on the bus."""
        used = {"PostgreSQL": [self.postgres.process.pid]}
        return {**used, "Redis": [self.redis.process.pid]} if bus else used


async def _create_database(url: str, name: str) -> None:
    import asyncpg  # the cluster extra, as the server imports it

    connection = await asyncpg.connect(url)
    try:
        await connection.execute(f'CREATE DATABASE "{name}"')
    finally:
        await connection.close()


def direct_seats(nodes: Sequence[ServerNode], games: int) -> list[Seats]:
    """Game i's players on node i mod N, its spectator on the next node."""
    count = len(nodes)
    return [Seats(nodes[i % count].url, nodes[i % count].url, nodes[(i + 1) % count].url) for i in range(games)]


def run_setup(bench: Bench, setup: str, node_count: int, through_proxy: bool, games: int, plies: int) -> Figures:
    """Start the setup's nodes (and proxy) on a fresh database, measure, stop them."""
    note(f"{setup}: {games} games of {plies} plies")
    with ExitStack() as running:
        on_postgres = setup != "1 node, SQLite"
        database = bench.new_database() if on_postgres else str(bench.folder / "bench.sqlite3")
        nodes = [bench.start_node(running, database, node_count > 1) for _ in range(node_count)]
        pids: dict[str, list[int]] = {NODES: [node.pid for node in nodes]}
        if on_postgres:
            pids.update(bench.shared_pids(bus=node_count > 1))
        seats = direct_seats(nodes, games)
        if through_proxy:
            proxy = LocalProxy.start([node.url for node in nodes], bench.folder)
            running.callback(proxy.stop)
            pids["HAProxy"] = [proxy.process.pid]
            url = f"ws://127.0.0.1:{proxy.port}/ws"
            seats = [Seats(url, url, url)] * games
        return asyncio.run(measure(setup, Services(pids, seats), plies))


async def lobby_delivery(nodes: Sequence[ServerNode], seeks: int) -> list[float]:
    """Seconds from a `seek` sent on the first node to `seek_added` read by a watcher on each other
    node, for `seeks` seeks posted and cancelled one after the other."""
    watchers = [await Player.signed_in(node.url, f"watcher{index}") for index, node in enumerate(nodes[1:])]
    for watcher in watchers:
        await watcher.ask_until_served("watch_lobby", "lobby")
    seekers = [await Player.signed_in(nodes[0].url, f"seeker{index}") for index in range(-(-seeks // SEEKS_EACH))]
    for seeker in seekers:
        await seeker.ask_until_served("who_is_online", "online_players", limit=1)  # the lobby answers its node
    delays: list[float] = []
    for index in range(seeks):
        seeker = seekers[index // SEEKS_EACH]
        sent = time.perf_counter()
        seek_id = (await seeker.ask("seek", "seek_created"))["seek"]["seek_id"]
        await asyncio.gather(*(timed(seek_added(watcher, seek_id), sent, delays) for watcher in watchers))
        await seeker.ask("cancel_seek", "seek_removed", seek_id=seek_id)
    for player in (*seekers, *watchers):
        await player.close()
    return delays


async def seek_added(watcher: Player, seek_id: str) -> None:
    """Read until the lobby tells `watcher` of the seek `seek_id`."""
    while (await watcher.until("seek_added"))["seek"]["seek_id"] != seek_id:
        pass


@dataclass(frozen=True, slots=True)
class FailOver:
    """One kill: how long until the next accepted move, and the stored moves against those played."""

    took_s: float
    lost: int
    duplicated: int


async def one_fail_over(nodes: Sequence[ServerNode], kill: int, database: str) -> FailOver:
    """A game on `nodes[0]` (black), `nodes[1]` (white), watched from `nodes[2]`; two plies, then
    `nodes[0]`, its owner, is SIGKILLed; black comes back on `nodes[2]` and moves, white answers."""
    black = await Player.signed_in(nodes[0].url, f"black-k{kill}")
    white = await Player.signed_in(nodes[1].url, f"white-k{kill}")
    spectator = await Player.signed_in(nodes[2].url, f"spectator-k{kill}")
    room_id = (await black.ask("create_room", "room"))["room"]["room_id"]
    await white.ask("join_room", "room", room_id=room_id, **{"as": "player"})
    await spectator.ask("join_room", "room", room_id=room_id, **{"as": "spectator"})
    first, second, third, fourth = plies_without_five(4)
    played = [await black.ask("move", "moved", room_id=room_id, x=first[0], y=first[1])]
    played.append(await white.ask("move", "moved", room_id=room_id, x=second[0], y=second[1]))

    os.kill(nodes[0].pid, signal.SIGKILL)
    killed_at = time.perf_counter()
    black = await Player.signed_in(nodes[2].url, f"black-k{kill}", black.token)
    await black.ask_until_served("join_room", "room", room_id=room_id, **{"as": "player"})
    played.append(await black.ask_until_served("move", "moved", room_id=room_id, x=third[0], y=third[1]))
    took = time.perf_counter() - killed_at
    played.append(await white.ask_until_served("move", "moved", room_id=room_id, x=fourth[0], y=fourth[1]))
    await black.send("resign", room_id=room_id)
    for player in (black, white, spectator):
        await player.close()

    told = [(move["x"], move["y"]) for move in played]
    stored = await stored_moves(database, played[0]["game_id"])
    lost = len([move for move in told if move not in stored])
    return FailOver(took, lost, len(stored) - len(set(stored)))


async def stored_moves(database: str, game_id: str) -> list[tuple[int, int]]:
    """The moves of a game as its record in the database holds them."""
    storage = await Storage.open(database)
    try:
        record = await storage.game_record(game_id, None)
    finally:
        await storage.close()
    if record is None:
        raise BenchError(f"game {game_id} is not stored")
    return [(move.point.x, move.point.y) for move in record.moves]


def fail_overs_and_lobby(bench: Bench, kills: int, seeks: int) -> tuple[list[float], list[FailOver]]:
    """On three nodes: lobby delivery, then `kills` fail-overs, each killed node replaced by a new one."""
    note(f"3 nodes: lobby delivery over {seeks} seeks, then {kills} kills")
    with ExitStack() as running:
        database = bench.new_database()
        nodes = [bench.start_node(running, database, bus=True) for _ in range(3)]
        lobby = asyncio.run(lobby_delivery(nodes, seeks))
        fail_overs = []
        for kill in range(kills):
            fail_overs.append(asyncio.run(one_fail_over(nodes, kill, database)))
            nodes = [*nodes[1:], bench.start_node(running, database, bus=True)]
        return lobby, fail_overs


@contextmanager
def shared_services(folder: Path) -> Iterator[Bench]:
    """PostgreSQL and Redis for the whole run, stopped and removed on leaving."""
    missing = missing_programs()
    if missing:
        raise BenchError(f"missing: {', '.join(missing)} (apt-get install {' '.join(missing)})")
    postgres = LocalPostgres.start()
    try:
        redis = LocalRedis.start(folder / "redis.log")
        try:
            yield Bench(folder, postgres, redis)
        finally:
            redis.stop()
    finally:
        postgres.remove()


SETUPS = (
    ("1 node, SQLite", 1, False),
    ("1 node, PostgreSQL", 1, False),
    ("2 nodes, same node", 2, False),
    ("2 nodes, HAProxy", 2, True),
    ("3 nodes, same node", 3, False),
    ("3 nodes, HAProxy", 3, True),
)
"""Each setup's name, how many nodes, and whether its clients go through HAProxy."""


def play_row(figures: Figures) -> list[str]:
    per_ply = {component: cpu / figures.plies if figures.plies else 0.0 for component, cpu in figures.cpu_s.items()}
    return [
        figures.setup,
        str(figures.plies),
        f"{figures.plies / figures.elapsed_s:.0f}",
        milliseconds(None if figures.round_trip is None else figures.round_trip.p50),
        milliseconds(None if figures.round_trip is None else figures.round_trip.p99),
        milliseconds(None if figures.to_spectator is None else figures.to_spectator.p99),
        *(f"{per_ply[component] * 1e6:.0f} us" if component in per_ply else "-" for component in COMPONENTS),
    ]


def fail_over_lines(lobby: list[float], fail_overs: list[FailOver]) -> list[str]:
    lobby_spread = Spread.of(lobby)
    lines = [
        f"lobby delivery across nodes ({len(lobby)} deliveries): "
        f"p50 {milliseconds(None if lobby_spread is None else lobby_spread.p50)}, "
        f"p99 {milliseconds(None if lobby_spread is None else lobby_spread.p99)}"
    ]
    took = Spread.of([fail_over.took_s for fail_over in fail_overs])
    if took is not None:
        lines.append(
            f"fail-over over {len(fail_overs)} kills, kill to next accepted move: p50 {took.p50:.2f} s, "
            f"max {max(fail_over.took_s for fail_over in fail_overs):.2f} s; "
            f"moves lost {sum(fail_over.lost for fail_over in fail_overs)}, "
            f"duplicated {sum(fail_over.duplicated for fail_over in fail_overs)}"
        )
    return lines


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.cluster", description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=8, help="games played at once per setup (default 8)")
    parser.add_argument("--plies", type=int, default=20, help="plies per game, at most 20 (default 20)")
    parser.add_argument("--kills", type=int, default=10, help="owners SIGKILLed, one after the other (default 10)")
    parser.add_argument("--seeks", type=int, default=50, help="seeks posted for lobby delivery (default 50)")
    arguments = parser.parse_args(argv)
    print(command_line(argv, "bench.cluster"), flush=True)
    with tempfile.TemporaryDirectory(prefix="bench-cluster-") as scratch, shared_services(Path(scratch)) as bench:
        results = [
            run_setup(bench, setup, node_count, through_proxy, arguments.games, arguments.plies)
            for setup, node_count, through_proxy in SETUPS
        ]
        header = ["setup", "plies", "plies/s", "round trip p50", "round trip p99", "to spectator p99"]
        header += [f"CPU per ply, {component}" for component in COMPONENTS]
        print(table(header, [play_row(figures) for figures in results]), flush=True)
        lobby, fail_overs = fail_overs_and_lobby(bench, arguments.kills, arguments.seeks)
    print("\n".join(fail_over_lines(lobby, fail_overs)))


if __name__ == "__main__":
    main()
