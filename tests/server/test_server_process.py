"""`gomoku-server` as a real process: the listening line, a crash in mid-game, a clean stop."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import subprocess
import sys
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest
from server_harness import WireClient
from websockets.asyncio.client import connect

from engine import build_info
from server.app import CLOCK_SAVE_EVERY_S

REPO = Path(__file__).resolve().parents[2]
LISTENING = re.compile(r"listening on ws://127\.0\.0\.1:(\d+)/ws")
START_TIMEOUT_S = 60.0


class ServerProcess:
    """A `gomoku-server` child process on a port it picked itself."""

    def __init__(self, process: asyncio.subprocess.Process, port: int, first_line: str) -> None:
        self.process = process
        self.port = port
        self.first_line = first_line

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    async def client(self, name: str | None = None, token: str | None = None) -> WireClient:
        wire = WireClient(await connect(self.ws_url))
        if name is not None:
            await wire.hello(name, token)
        return wire


async def launch(db_path: Path, *options: str) -> ServerProcess:
    """A server process on the database, with these command-line options besides."""
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "server.main",
        "--port",
        "0",
        "--db",
        str(db_path),
        "--bot-workers",
        "0",
        *options,
        cwd=REPO,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.DEVNULL,
    )
    assert process.stdout is not None
    line = (await asyncio.wait_for(process.stdout.readline(), START_TIMEOUT_S)).decode().strip()
    match = LISTENING.fullmatch(line)
    assert match is not None, f"unexpected first line {line!r}"
    return ServerProcess(process, int(match.group(1)), line)


@pytest.fixture
async def spawn(tmp_path: Path) -> AsyncIterator[Callable[[], asyncio.Future[ServerProcess]]]:
    """Start server processes on one database file; any still running at the end are killed."""
    started: list[ServerProcess] = []
    db_path = tmp_path / "games.sqlite3"

    def start() -> asyncio.Future[ServerProcess]:
        async def go() -> ServerProcess:
            server = await launch(db_path)
            started.append(server)
            return server

        return asyncio.ensure_future(go())

    yield start
    for server in started:
        if server.process.returncode is None:
            server.process.kill()
            await server.process.wait()


async def test_killed_in_mid_game_and_restarted_every_seen_move_is_there_and_play_goes_on(
    spawn: Callable[[], asyncio.Future[ServerProcess]],
) -> None:
    first = await spawn()
    alice = await first.client("alice")
    bob = await first.client("bob")
    carol = await first.client("carol")
    room_id = (await alice.request(type="create_room", clock={"initial_ms": 600_000, "increment_ms": 0}))["room"][
        "room_id"
    ]
    await bob.request(type="join_room", room_id=room_id, as_="player")
    await carol.request(type="join_room", room_id=room_id, as_="spectator")
    opening = [(7, 7), (0, 0), (8, 7), (0, 1), (9, 7), (0, 2)]
    seen = []
    for ply, (x, y) in enumerate(opening, start=1):
        mover = alice if ply % 2 else bob
        moved = await mover.request(type="move", room_id=room_id, x=x, y=y)
        assert moved["type"] == "moved"
        seen.append((x, y))

    first.process.send_signal(signal.SIGKILL)
    assert await asyncio.wait_for(first.process.wait(), 30) == -signal.SIGKILL

    second = await spawn()
    alice_back = await second.client("alice", alice.token)
    listed = await alice_back.request(type="list_rooms")
    assert [room["room_id"] for room in listed["rooms"]] == [room_id]
    state = await alice_back.request(type="join_room", room_id=room_id, as_="player")
    assert state["you"] == "black"
    assert [(stone["x"], stone["y"]) for stone in state["room"]["moves"]] == seen
    assert state["room"]["status"] == "playing" and state["room"]["to_move"] == "black"
    assert 590_000 <= state["room"]["clock"]["black_ms"] <= 600_000

    bob_back = await second.client("bob", bob.token)
    await bob_back.request(type="join_room", room_id=room_id, as_="player")
    assert (await alice_back.request(type="move", room_id=room_id, x=10, y=7))["ply"] == 7
    assert (await bob_back.request(type="move", room_id=room_id, x=0, y=3))["ply"] == 8
    over = await alice_back.request(type="move", room_id=room_id, x=11, y=7)
    assert over["type"] == "moved"
    while (message := await alice_back.receive())["type"] != "game_over":
        pass
    assert message["result"]["winner"] == "black"

    record = await alice_back.request(type="get_game", game_id=state["room"]["game_id"], format="json")
    moves = [(move["x"], move["y"]) for move in record["record"]["moves"]]
    assert moves == [*seen, (10, 7), (0, 3), (11, 7)]
    assert record["record"]["result"]["reason"] == "five"
    for wire in (alice, bob, carol, alice_back, bob_back):
        await wire.close()
    second.process.send_signal(signal.SIGTERM)
    assert await asyncio.wait_for(second.process.wait(), 30) == 0


async def test_killed_outright_the_server_gives_back_at_most_a_few_seconds_of_thinking(
    spawn: Callable[[], asyncio.Future[ServerProcess]],
) -> None:
    first = await spawn()
    alice = await first.client("alice")
    bob = await first.client("bob")
    room_id = (await alice.request(type="create_room", clock={"initial_ms": 600_000, "increment_ms": 0}))["room"][
        "room_id"
    ]
    await bob.request(type="join_room", room_id=room_id, as_="player")
    await asyncio.sleep(CLOCK_SAVE_EVERY_S + 1.5)  # black thinks; its clock is saved meanwhile
    first.process.send_signal(signal.SIGKILL)
    await asyncio.wait_for(first.process.wait(), 30)

    second = await spawn()
    back = await second.client("alice", alice.token)
    state = await back.request(type="join_room", room_id=room_id, as_="player")
    assert state["room"]["clock"]["black_ms"] <= 600_000 - (CLOCK_SAVE_EVERY_S - 1) * 1000
    for wire in (alice, bob, back):
        await wire.close()


async def test_sigterm_closes_connections_with_1001_and_exits_0(
    spawn: Callable[[], asyncio.Future[ServerProcess]],
) -> None:
    server = await spawn()
    assert server.first_line == f"listening on ws://127.0.0.1:{server.port}/ws"
    alice = await server.client("alice")
    room_id = (await alice.request(type="create_room"))["room"]["room_id"]
    bob = await server.client("bob")
    await bob.request(type="join_room", room_id=room_id)
    assert (await alice.request(type="move", room_id=room_id, move="h8"))["type"] == "moved"

    server.process.send_signal(signal.SIGTERM)
    assert await asyncio.wait_for(server.process.wait(), 30) == 0
    await asyncio.wait_for(alice.websocket.wait_closed(), 30)
    assert alice.websocket.close_code == 1001

    again = await spawn()
    alice_back = await again.client("alice", alice.token)
    state = await alice_back.request(type="join_room", room_id=room_id)
    assert [stone["x"] for stone in state["room"]["moves"]] == [7]
    await alice_back.close()


def test_the_console_script_runs_the_same_server(tmp_path: Path) -> None:
    script = Path(sys.executable).parent / "gomoku-server"
    process = subprocess.Popen(
        [str(script), "--port", "0", "--db", str(tmp_path / "x.sqlite3"), "--bot-workers", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    try:
        assert process.stdout is not None
        assert LISTENING.fullmatch(process.stdout.readline().strip())
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=30) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


def test_the_server_says_at_start_which_build_of_the_engine_it_runs(tmp_path: Path) -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "server.main", "--port", "0", "--db", str(tmp_path / "x.sqlite3"), "--bot-workers", "0"],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    try:
        assert process.stdout is not None
        assert LISTENING.fullmatch(process.stdout.readline().strip())
        process.send_signal(signal.SIGINT)
        _, log = process.communicate(timeout=30)
        assert process.returncode == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert [line for line in log.splitlines() if line.endswith(build_info())], log
