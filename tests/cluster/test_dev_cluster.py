"""`./dev cluster`: PostgreSQL, Redis, HAProxy and the nodes, started by one command on loopback, one
address to play through, everything stopped on Ctrl-C.

The command runs as a real process (`python -m tools.cluster`, which `./dev cluster` runs), stopped
by its pid; it stops its own children by theirs.
"""

from __future__ import annotations

import asyncio
import os
import re
import signal
import sys
from pathlib import Path

import pytest
from websockets.asyncio.client import connect

from tests.server.server_harness import FIVE_FOR_BLACK, WireClient
from tools.local_services import missing_programs

REPO = Path(__file__).resolve().parents[2]
START_TIMEOUT_S = 120.0
STOP_TIMEOUT_S = 60.0
ADDRESS = re.compile(r"cluster at http://(127\.0\.0\.1:\d+)/ \(2 nodes;")


async def test_dev_cluster_starts_two_nodes_behind_one_address_plays_a_game_and_stops_on_ctrl_c() -> None:
    missing = missing_programs()
    if missing:
        message = f"apt-get install {' '.join(missing)}"
        if os.environ.get("GOMOKU_CLUSTER_TESTS") == "required":
            pytest.fail(f"GOMOKU_CLUSTER_TESTS=required, but missing: {message}")
        pytest.skip(f"missing: {message}")
    cluster = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tools.cluster", "2", "--bot-workers", "0", cwd=REPO, stdout=asyncio.subprocess.PIPE
    )
    assert cluster.stdout is not None
    try:
        line = (await asyncio.wait_for(cluster.stdout.readline(), START_TIMEOUT_S)).decode()
        started = ADDRESS.match(line)
        assert started is not None, line
        address = started.group(1)
        alice = WireClient(await connect(f"ws://{address}/ws"))
        bob = WireClient(await connect(f"ws://{address}/ws"))  # round robin: the other node
        await alice.hello("alice")
        await bob.hello("bob")
        room_id = (await alice.request(type="create_room"))["room"]["room_id"]
        assert (await bob.request(type="join_room", room_id=room_id, as_="player"))["you"] == "white"
        for ply, (x, y) in enumerate(FIVE_FOR_BLACK, start=1):
            answer = await (alice if ply % 2 else bob).request(type="move", room_id=room_id, x=x, y=y)
            assert answer["type"] == "moved", answer
        assert (await bob.expect_next("game_over"))["result"]["winner"] == "black"
        await alice.close()
        await bob.close()

        cluster.send_signal(signal.SIGINT)  # Ctrl-C
        assert await asyncio.wait_for(cluster.wait(), STOP_TIMEOUT_S) == 0
    finally:
        if cluster.returncode is None:
            cluster.kill()  # by its pid; the test fails above
            await cluster.wait()
