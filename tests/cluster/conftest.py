"""Fixtures for cluster tests: a real `redis-server` on loopback and real server processes (nodes)
on one SQLite file (`start_node`) or on the test's PostgreSQL database with short leases
(`start_cluster_node`), each started on a free port and stopped by its pid.

Without `redis-server` the tests are skipped, saying how to install it; with
GOMOKU_CLUSTER_TESTS=required (set by CI) that skip is a failure.
"""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import signal
import sys
from collections.abc import AsyncIterator, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

import pytest
from websockets.asyncio.client import connect

from tests.server.server_harness import WireClient
from tools.local_services import LocalRedis, ServerNode, stop_nodes

REPO = Path(__file__).resolve().parents[2]
REQUIRED = os.environ.get("GOMOKU_CLUSTER_TESTS") == "required"
START_TIMEOUT_S = 60.0
STOP_TIMEOUT_S = 30.0
LISTENING = re.compile(r"listening on ws://127\.0\.0\.1:(\d+)/ws")
LEASE = ["--heartbeat-s", "0.25", "--lease-s", "2", "--bot-workers", "0"]
"""Short leases (renewed every 0.25 s, lost after 2 s), so that a take-over takes seconds."""


class StartClusterNode(Protocol):
    """Starts a node named `name` on the test's database, or on `database` when given, with any
    other `arguments` of `gomoku-server`."""

    def __call__(self, name: str, database: str | None = None, arguments: Sequence[str] = ()) -> ServerNode: ...


@dataclass
class RedisServer:
    """The test's Redis (`tools.local_services.LocalRedis`), which a test may stop and start again on
    the same port, as a Redis restarted."""

    log: Path
    server: LocalRedis

    @property
    def url(self) -> str:
        return self.server.url

    async def start(self) -> None:
        """Start it again on its port and return once it accepts connections."""
        self.server = await asyncio.to_thread(LocalRedis.start, self.log, self.server.port)

    async def stop(self) -> None:
        """Stop it by its pid and wait until it has gone."""
        await asyncio.to_thread(self.server.stop)


def require_redis() -> str:
    path = shutil.which("redis-server")
    if path is None:
        message = "redis-server is not installed (apt-get install redis-server)"
        if REQUIRED:
            pytest.fail(f"{message} (GOMOKU_CLUSTER_TESTS=required)")
        pytest.skip(message)
    return path


@pytest.fixture
async def redis_server(tmp_path: Path) -> AsyncIterator[RedisServer]:
    require_redis()
    log = tmp_path / "redis.log"
    server = RedisServer(log, await asyncio.to_thread(LocalRedis.start, log))
    yield server
    await server.stop()


@dataclass
class Node:
    """A `gomoku-server` process, one node of the cluster."""

    name: str
    process: asyncio.subprocess.Process
    port: int
    clients: list[WireClient] = field(default_factory=list)

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    async def client(self, name: str, token: str | None = None) -> WireClient:
        """A client signed in on this node as `name` (with its token if it has one)."""
        wire = WireClient(await connect(self.ws_url))
        self.clients.append(wire)
        await wire.hello(name, token)
        return wire


@pytest.fixture
async def start_node(tmp_path: Path, redis_server: RedisServer) -> AsyncIterator[object]:
    """Start nodes on one database file and the test's Redis; all are stopped at the end."""
    started: list[Node] = []

    async def start(name: str, arguments: Sequence[str] = ()) -> Node:
        """Node `name`, with these options of `server.main` too."""
        with open(tmp_path / f"{name}.log", "wb") as log:
            process = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "server.main",
                "--port",
                "0",
                "--db",
                str(tmp_path / "games.sqlite3"),
                "--bot-workers",
                "0",
                "--bus",
                redis_server.url,
                "--node-id",
                name,
                *arguments,
                cwd=REPO,
                stdout=asyncio.subprocess.PIPE,
                stderr=log,
            )
        assert process.stdout is not None
        line = (await asyncio.wait_for(process.stdout.readline(), START_TIMEOUT_S)).decode().strip()
        match = LISTENING.fullmatch(line)
        assert match is not None, f"unexpected first line {line!r}: {(tmp_path / f'{name}.log').read_text()}"
        node = Node(name, process, int(match.group(1)))
        started.append(node)
        return node

    yield start
    hung = []
    for node in started:
        for wire in node.clients:
            await wire.close()
        if node.process.returncode is None:
            node.process.send_signal(signal.SIGTERM)
            try:
                await asyncio.wait_for(node.process.wait(), STOP_TIMEOUT_S)
            except TimeoutError:
                hung.append(node.name)
                node.process.kill()  # by its pid: no node outlives its test
                await node.process.wait()
    assert not hung, f"nodes {hung} did not stop within {STOP_TIMEOUT_S:.0f} s of SIGTERM"


@pytest.fixture
def start_cluster_node(tmp_path: Path, postgres_url: str, redis_server: RedisServer) -> Iterator[StartClusterNode]:
    """Start nodes on the test's PostgreSQL database (or another one) and Redis; all are stopped by
    their pids."""
    nodes: list[ServerNode] = []

    def start(name: str, database: str | None = None, arguments: Sequence[str] = ()) -> ServerNode:
        every = [*LEASE, "--bus", redis_server.url, *arguments]
        node = ServerNode.start(database or postgres_url, name, tmp_path / f"{name}.log", every)
        nodes.append(node)
        return node

    yield start
    stop_nodes(nodes)
