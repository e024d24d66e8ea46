"""An outside engine that floods stderr: what it costs the server, and whether it still plays.

    ./dev run python -m bench.stderr_flood
    ./dev run python -m bench.stderr_flood --line-bytes 80 1000 300000 --seconds 15

For each line length, a `gomoku-server` process runs with the test suite's
scripted brain as its one outside engine, printing lines of that length on
stderr without a pause from a thread of its own (`flood N`); a quiet brain
(`none`) is the yardstick. A client plays one move against it, so that the
engine's process is started and kept alive; then the server's CPU time
(`/proc`, all its threads) is sampled over `--seconds` while nothing else
happens, and one more move times the engine's answer. `/metrics` says how
much of the flood the log dropped in all (from the engine's start).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
import urllib.request
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

from bench.figures import command_line, cpu_share, note, table
from bench.server_process import REPO, ServerProcess

SCRIPTED_BRAIN = REPO / "tests" / "brains" / "scripted_brain.py"
DROPPED = 'gomoku_engine_stderr_dropped_bytes_total{engine="flooder"} '


async def engine_reply(websocket: ClientConnection, room_id: str, move: str) -> float:
    """Play `move`; the seconds until the engine's answer."""
    sent = time.monotonic()
    await websocket.send(json.dumps({"type": "move", "room_id": room_id, "move": move}))
    while True:
        message: dict[str, Any] = json.loads(await websocket.recv())
        if message["type"] == "game_over":
            raise RuntimeError(f"the game ended: {message['result']}")
        if message["type"] == "moved" and message["color"] == "white":
            return time.monotonic() - sent


async def measure(server: ServerProcess, seconds: float) -> tuple[float, float]:
    """The server's CPU time over `seconds` with the engine alive, and its next reply time."""
    async with connect(server.url) as websocket:
        await websocket.send(json.dumps({"type": "hello", "name": "bench", "id": 1}))
        request = {"type": "create_room", "id": 2, "black": "me", "white": {"bot": "flooder"}}
        await websocket.send(json.dumps(request))
        while (message := json.loads(await websocket.recv())).get("id") != 2:
            pass
        room_id = message["room"]["room_id"]
        await engine_reply(websocket, room_id, "h8")
        before = server.cpu_seconds()
        await asyncio.sleep(seconds)
        used = server.cpu_seconds() - before
        return used, await engine_reply(websocket, room_id, "a1")


def dropped_bytes(server: ServerProcess) -> float:
    metrics_url = server.url.replace("ws://", "http://").removesuffix("/ws") + "/metrics"
    with urllib.request.urlopen(metrics_url, timeout=20) as reply:
        text = reply.read().decode()
    return sum(float(line.removeprefix(DROPPED)) for line in text.splitlines() if line.startswith(DROPPED))


def run(line_bytes: str, seconds: float) -> list[str]:
    fault = [] if line_bytes == "none" else ["flood", line_bytes]
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        command = json.dumps([sys.executable, str(SCRIPTED_BRAIN), *fault])
        engines = folder / "engines.toml"
        engines.write_text(f"[engines.flooder]\ncommand = {command}\ntime_ms = 300\nstart_timeout_s = 30\n")
        with ServerProcess.start(folder / "flood.sqlite3", 1, ["--engines", str(engines)]) as server:
            used, reply_s = asyncio.run(measure(server, seconds))
            dropped = dropped_bytes(server)
    return [line_bytes, cpu_share(used, seconds), f"{reply_s * 1000:.0f} ms", f"{dropped / 1e6:.1f} MB"]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.stderr_flood", description=__doc__.splitlines()[0])
    parser.add_argument("--line-bytes", nargs="+", default=["none", "80", "300000"], help="'none': a quiet brain")
    parser.add_argument("--seconds", type=float, default=10.0, help="how long the CPU time is sampled")
    options = parser.parse_args(argv)
    rows = []
    for line_bytes in options.line_bytes:
        note(f"brain printing lines of {line_bytes} bytes...")
        rows.append(run(line_bytes, options.seconds))
    print(f"$ {command_line(argv, 'bench.stderr_flood')}")
    print(table(["stderr lines", "server CPU", "next engine move", "dropped by the log in all"], rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
