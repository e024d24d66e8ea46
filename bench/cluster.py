"""Cluster benchmark (a first skeleton): moves per second and move round trip, one node against two.

    ./dev run python -m bench.cluster                     # 8 games at once, 20 plies each, per setup
    ./dev run python -m bench.cluster --games 4 --plies 20

Starts a throw-away `redis-server` on 127.0.0.1 (a free port, no persistence)
and, for each setup, fresh `gomoku-server` processes on one scratch SQLite
file (`--bot-workers 0`):

1. `1 node`: one process, no bus (the default server);
2. `2 nodes, same node`: two nodes on the bus, both players of each game on
   the node that owns its room (the bus carries nothing for them);
3. `2 nodes, across`: each game's room on node 1, its white player on node 2,
   so that every white move and every event to white crosses Redis twice
   or once.

In each, `--games` games run at once, each as fast as its two players
answer: the mover sends `move`, the opponent reads `moved`, then moves in
turn. Measured: plies per second over all games, the round trip of a move
(sending `move` to the opponent reading `moved`), and the servers' CPU time
per move (all nodes together). The load generator is this one asyncio
process; on a 2-core machine it competes with the nodes and Redis for the
CPU, so the figures compare the setups with each other, not with a larger
machine. Not yet measured: fail-over, the lobby across nodes, 3 nodes behind
a proxy (the issue's full list).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

from bench.figures import Spread, command_line, milliseconds, note, table
from bench.server_process import BenchError, ServerProcess

SIZE = 15


def plies_without_five(count: int) -> list[tuple[int, int]]:
    """The first `count` cells of the board row by row: stones of each colour alternate along a row,
    so that up to a row and a third nobody has five."""
    if count > SIZE + SIZE // 3:
        raise BenchError(f"at most {SIZE + SIZE // 3} plies per game")
    return [(index % SIZE, index // SIZE) for index in range(count)]


class Player:
    """A websocket client signed in as one player."""

    def __init__(self, websocket: ClientConnection) -> None:
        self.websocket = websocket
        self._ids = 0

    @classmethod
    async def signed_in(cls, url: str, name: str) -> Player:
        player = cls(await connect(url))
        await player.ask("hello", "welcome", name=name)
        return player

    async def send(self, kind: str, **fields: Any) -> int:
        self._ids += 1
        await self.websocket.send(json.dumps({"type": kind, "id": self._ids, **fields}))
        return self._ids

    async def ask(self, kind: str, answer: str, **fields: Any) -> dict[str, Any]:
        """Send a request and read until its answer (of type `answer`)."""
        request_id = await self.send(kind, **fields)
        while True:
            message: dict[str, Any] = json.loads(await self.websocket.recv())
            if message.get("id") == request_id:
                if message["type"] != answer:
                    raise BenchError(f"{kind} answered {message}")
                return message

    async def until_moved(self, ply: int) -> None:
        """Read until the opponent's move of `ply` arrives."""
        while True:
            message = json.loads(await self.websocket.recv())
            if message["type"] == "moved" and message["ply"] == ply:
                return


async def play_game(black: Player, white: Player, plies: list[tuple[int, int]], round_trips: list[float]) -> None:
    """One room, two players, every ply's round trip measured; the game ends with black resigning."""
    room_id = (await black.ask("create_room", "room"))["room"]["room_id"]
    await white.ask("join_room", "room", room_id=room_id, **{"as": "player"})
    for ply, (x, y) in enumerate(plies, start=1):
        mover, other = (black, white) if ply % 2 else (white, black)
        sent = time.perf_counter()
        await mover.send("move", room_id=room_id, x=x, y=y)
        await other.until_moved(ply)
        round_trips.append(time.perf_counter() - sent)
    await black.send("resign", room_id=room_id)


@dataclass(frozen=True, slots=True)
class Figures:
    setup: str
    plies: int
    elapsed_s: float
    round_trip: Spread | None
    server_cpu_s: float


async def measure(setup: str, urls: tuple[str, str], games: int, plies: int, nodes: Sequence[ServerProcess]) -> Figures:
    """Play `games` games at once, black on `urls[0]`, white on `urls[1]`."""
    pairs = [
        (await Player.signed_in(urls[0], f"black{game}"), await Player.signed_in(urls[1], f"white{game}"))
        for game in range(games)
    ]
    round_trips: list[float] = []
    cpu_before = sum(node.cpu_seconds() for node in nodes)
    started = time.perf_counter()
    moves = plies_without_five(plies)
    await asyncio.gather(*(play_game(black, white, moves, round_trips) for black, white in pairs))
    elapsed = time.perf_counter() - started
    cpu = sum(node.cpu_seconds() for node in nodes) - cpu_before
    for black, white in pairs:
        await black.websocket.close()
        await white.websocket.close()
    return Figures(setup, len(round_trips), elapsed, Spread.of(round_trips), cpu)


def free_port() -> int:
    """A port nothing listens on now (Redis cannot pick its own)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class RedisProcess:
    """A throw-away `redis-server` on loopback, no persistence; stopped on leaving."""

    def __init__(self) -> None:
        path = shutil.which("redis-server")
        if path is None:
            raise BenchError("redis-server is not installed (apt-get install redis-server)")
        self.port = free_port()
        self.process = subprocess.Popen(
            [path, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        assert self.process.stdout is not None
        for line in self.process.stdout:
            if "Ready to accept connections" in line:
                return
        raise BenchError("redis-server stopped before it was ready")

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(20)


def run_setup(setup: str, folder: Path, redis: RedisProcess | None, across: bool, games: int, plies: int) -> Figures:
    """Start the setup's nodes on a fresh database, measure, stop them."""
    database = folder / f"{setup.replace(' ', '-').replace(',', '')}.sqlite3"
    names = ["n1", "n2"] if redis is not None else ["local"]
    nodes: list[ServerProcess] = []
    try:
        for name in names:
            bus = [] if redis is None else ["--bus", redis.url, "--node-id", name]
            nodes.append(ServerProcess.start(database, 0, bus))
        urls = (nodes[0].url, nodes[-1].url if across else nodes[0].url)
        note(f"{setup}: {games} games of {plies} plies")
        return asyncio.run(measure(setup, urls, games, plies, nodes))
    finally:
        for node in nodes:
            node.stop()


def row(figures: Figures) -> list[str]:
    spread = figures.round_trip
    per_move = figures.server_cpu_s / figures.plies if figures.plies else 0.0
    return [
        figures.setup,
        str(figures.plies),
        f"{figures.plies / figures.elapsed_s:.0f}",
        milliseconds(None if spread is None else spread.p50),
        milliseconds(None if spread is None else spread.p99),
        f"{per_move * 1e6:.0f} us",
    ]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.cluster", description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=8, help="games played at once (default 8)")
    parser.add_argument("--plies", type=int, default=20, help="plies per game, at most 20 (default 20)")
    arguments = parser.parse_args(argv)
    redis = RedisProcess()
    try:
        with tempfile.TemporaryDirectory(prefix="bench-cluster-") as scratch:
            folder = Path(scratch)
            results = [
                run_setup("1 node", folder, None, False, arguments.games, arguments.plies),
                run_setup("2 nodes, same node", folder, redis, False, arguments.games, arguments.plies),
                run_setup("2 nodes, across", folder, redis, True, arguments.games, arguments.plies),
            ]
    finally:
        redis.stop()
    print(command_line(argv, "bench.cluster"))
    header = ["setup", "plies", "plies/s", "round trip p50", "round trip p99", "server CPU per ply"]
    print(table(header, [row(figures) for figures in results]))


if __name__ == "__main__":
    main()
