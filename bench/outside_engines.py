"""Outside engines: what the server adds to each of their moves, and how one does against `master`.

    ./dev run python -m bench.outside_engines                           # our greedy level as the engine
    ./dev run python -m bench.outside_engines --engine "rapfi=/opt/rapfi/pbrain-rapfi" --openings 4
    ./dev run python -m bench.outside_engines --moves 10 --openings 0   # the overhead only

1. Overhead. A `gomoku-server` process runs with the engine configured as
   an outside engine; a person's client plays it `--moves` moves, timing
   each from sending its move to receiving the engine's reply. Then the
   same engine, driven straight over its pipes by the same asyncio layer
   the server uses (`brains.process`), is asked the same positions
   in the same order. The difference, move by move, is the server's
   overhead: the person's move stored and sent, the bot's turn scheduled
   and given a slot, the Gomocup exchange, the engine's move checked,
   stored and sent. The engine alone is the yardstick of the same run.
2. Strength. The arena (`gomoku-arena`, through the same Gomocup manager)
   plays the engine against `master` at `--time-ms` per move, `--openings`
   openings with each colour.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shlex
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

from bench.figures import Spread, command_line, milliseconds, note, ratio, table
from bench.server_process import ServerProcess
from brains.process import BrainProcess
from engine.gomocup_manager import COMMAND_PACE_MS, TimeLimits
from engine.types import Point, Rule
from tools import arena

DEFAULT_ENGINE = f"greedy-outside={shlex.join([sys.executable, '-m', 'tools.brain', '--level', 'greedy'])}"
ANSWER_TIMEOUT_S = 60.0
ANSWER_PAUSE_S = COMMAND_PACE_MS / 1000
"""The pause before asking the engine alone its next move, as an opponent's move takes a moment: the
pace `brains.process` keeps after a brain's answer (some brains drop a command that comes within
microseconds of it) then falls outside the timed part."""
ENGINE_TIME_MS = 1000
"""The time per move the server gives the engine (our greedy level takes far less)."""


@dataclass(frozen=True, slots=True)
class Sample:
    """One engine move through the server: the game it was in, the position, the wall time."""

    game: int
    moves: tuple[Point, ...]
    """The position the engine answered."""
    seconds: float


def parse_arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench.outside_engines", description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--engine",
        default=DEFAULT_ENGINE,
        help="NAME=COMMAND of the outside engine (default: our greedy level through gomoku-engine)",
    )
    parser.add_argument(
        "--moves",
        type=int,
        default=41,
        help="engine moves timed through the server, the first "
        "(which starts the engine's process) shown apart (default 41)",
    )
    parser.add_argument(
        "--openings",
        type=int,
        default=4,
        help="openings against master, each with both colours; 0 skips the match (default 4)",
    )
    parser.add_argument("--time-ms", type=int, default=1000, help="time per move in the match (default 1000)")
    return parser.parse_args(argv)


def person_moves(size: int) -> list[Point]:
    """The person's moves: the edge points, far from the centre, in an order that makes no threat."""
    edge = [Point(x, 0) for x in range(0, size, 2)] + [Point(x, size - 1) for x in range(1, size, 2)]
    return edge + [Point(0, y) for y in range(2, size - 1, 2)] + [Point(size - 1, y) for y in range(1, size - 1, 2)]


async def through_the_server(url: str, engine: str, wanted: int) -> list[Sample]:
    """Play the engine until `wanted` of its moves are timed, a new game whenever one ends."""
    samples: list[Sample] = []
    async with connect(url) as websocket:
        await request(websocket, {"type": "hello", "name": "bench-person"})
        game = 0
        while len(samples) < wanted:
            room = await request(websocket, {"type": "create_room", "black": "me", "white": {"bot": engine}})
            samples.extend(await play_one_game(websocket, room["room"]["room_id"], game, wanted - len(samples)))
            game += 1
    return samples


async def play_one_game(websocket: ClientConnection, room_id: str, game: int, wanted: int) -> list[Sample]:
    samples: list[Sample] = []
    moves: list[Point] = []
    for point in person_moves(15):
        if point in moves or len(samples) >= wanted:
            continue
        began = time.perf_counter()
        played = await request(websocket, {"type": "move", "room_id": room_id, "x": point.x, "y": point.y})
        if played["type"] != "moved":
            break
        moves.append(point)
        reply = await next_of(websocket, ("moved", "game_over"))
        if reply["type"] != "moved":
            break
        samples.append(Sample(game, tuple(moves), time.perf_counter() - began))
        moves.append(Point(reply["x"], reply["y"]))
    return samples


async def request(websocket: ClientConnection, fields: dict[str, object]) -> dict[str, Any]:
    await websocket.send(json.dumps({**fields, "id": 1}))
    while True:
        message: dict[str, Any] = json.loads(await asyncio.wait_for(websocket.recv(), ANSWER_TIMEOUT_S))
        if message.get("id") == 1:
            return message


async def next_of(websocket: ClientConnection, kinds: tuple[str, ...]) -> dict[str, Any]:
    while True:
        message: dict[str, Any] = json.loads(await asyncio.wait_for(websocket.recv(), ANSWER_TIMEOUT_S))
        if message["type"] in kinds:
            return message


async def straight(command: Sequence[str], samples: Sequence[Sample]) -> list[float]:
    """The same positions asked of the engine over its pipes alone, game by game, in order."""
    brain = await BrainProcess.start(command, "engine")
    seconds = []
    game = None
    try:
        for sample in samples:
            if sample.game != game:
                await brain.new_game(15, Rule.FREESTYLE, ANSWER_TIMEOUT_S)
                game = sample.game
            await asyncio.sleep(ANSWER_PAUSE_S)
            began = time.perf_counter()
            await brain.move(sample.moves, TimeLimits(ENGINE_TIME_MS), ANSWER_TIMEOUT_S)
            seconds.append(time.perf_counter() - began)
    finally:
        await brain.close()
    return seconds


def overhead_report(served: Sequence[Sample], alone: Sequence[float]) -> str:
    """The table of the overhead; the first move, for which the server starts the engine's process,
    is shown apart."""
    first, served, alone = served[0], served[1:], alone[1:]
    through = Spread.of([sample.seconds for sample in served])
    by_itself = Spread.of(alone)
    added = Spread.of([sample.seconds - own for sample, own in zip(served, alone, strict=True)])
    assert through is not None and by_itself is not None and added is not None
    rows = [
        [name, milliseconds(spread.p50), milliseconds(spread.p99), milliseconds(spread.maximum)]
        for name, spread in (
            ("the engine alone, over its pipes", by_itself),
            ("through the server, move to reply", through),
            ("the server's overhead (paired)", added),
        )
    ]
    rows.append(["through the server / alone (p50)", ratio(through.p50, by_itself.p50), "", ""])
    rows.append(["first move, process started", milliseconds(first.seconds), "", ""])
    return table(["per engine move", "p50", "p99", "max"], rows)


def main(argv: Sequence[str] | None = None) -> int:
    arguments = parse_arguments(argv)
    name, separator, command_text = arguments.engine.partition("=")
    command = shlex.split(command_text)
    if not separator or not name or not command:
        print("bench.outside_engines: --engine is NAME=COMMAND", file=sys.stderr)
        return 2
    print(f"$ {command_line(argv, 'bench.outside_engines')}")
    with tempfile.TemporaryDirectory(prefix="bench-engines-") as scratch:
        folder = Path(scratch)
        config = folder / "engines.toml"
        config.write_text(f"[engines.{name}]\ncommand = {json.dumps(command)}\ntime_ms = {ENGINE_TIME_MS}\n")
        if arguments.moves > 1:
            note(f"timing {arguments.moves} moves of {name} through a server, then alone")
            extra = ["--engines", str(config), "--bot-pause-s", "0"]
            with ServerProcess.start(folder / "bench.sqlite3", 1, extra) as server:
                served = asyncio.run(through_the_server(server.url, name, arguments.moves))
            alone = asyncio.run(straight(command, served))
            print(overhead_report(served, alone))
        if arguments.openings > 0:
            note(f"{name} against master, {arguments.openings} openings, {arguments.time_ms} ms per move")
            print()
            match = [
                "master",
                "--engine",
                arguments.engine,
                f"--time-ms={arguments.time_ms}",
                f"--openings={arguments.openings}",
                "--jobs=1",
                f"--out={folder / 'games'}",
            ]
            return arena.main(match)
    return 0


if __name__ == "__main__":
    sys.exit(main())
