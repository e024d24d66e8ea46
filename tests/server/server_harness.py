"""Test helpers: a server started in-process and a websocket client that speaks JSON frames."""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import time
import urllib.request
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection
from websockets.asyncio.server import Server
from websockets.exceptions import ConnectionClosed

from server.app import GameServer

RECEIVE_TIMEOUT_S = 20.0
"""How long a test waits for a message it expects (generous: the machine is shared)."""


@dataclass
class RunningServer:
    """A server started by a test, and where to reach it."""

    app: GameServer
    server: Server
    port: int

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    def http_get(self, path: str) -> tuple[int, str, str]:
        """Status, content type and body of a GET (blocking; call through `asyncio.to_thread`)."""
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{self.port}{path}", timeout=RECEIVE_TIMEOUT_S) as reply:
                return reply.status, reply.headers["Content-Type"], reply.read().decode("utf-8")
        except urllib.error.HTTPError as error:
            return error.code, error.headers["Content-Type"], error.read().decode("utf-8")

    async def get(self, path: str) -> tuple[int, str, str]:
        return await asyncio.to_thread(self.http_get, path)

    def get_with_token(self, path: str, token: str | None) -> tuple[int, Any]:
        """Status and body (JSON when it succeeds) of a GET sent with `Authorization: Bearer TOKEN`
        (blocking; call through `asyncio.to_thread`)."""
        request = urllib.request.Request(f"http://127.0.0.1:{self.port}{path}")
        if token is not None:
            request.add_header("Authorization", f"Bearer {token}")
        try:
            with urllib.request.urlopen(request, timeout=RECEIVE_TIMEOUT_S) as reply:
                return reply.status, json.loads(reply.read())
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode()

    async def stop(self) -> None:
        self.server.close()
        await self.server.wait_closed()
        await self.app.close()


class WireClient:
    """A websocket client that speaks JSON frames and keeps what it has not read yet."""

    _ids = itertools.count(1)

    def __init__(self, websocket: ClientConnection) -> None:
        self.websocket = websocket
        self.backlog: list[dict[str, Any]] = []
        self.seen: list[dict[str, Any]] = []
        """Every message received, in order."""
        self.largest_frame = 0
        """The size in bytes of the largest frame received."""
        self.token: str | None = None

    async def send(self, **fields: Any) -> None:
        if "as_" in fields:
            fields["as"] = fields.pop("as_")
        await self.websocket.send(json.dumps(fields))

    async def _next_frame(self) -> dict[str, Any]:
        async with asyncio.timeout(RECEIVE_TIMEOUT_S):
            text = await self.websocket.recv()
        self.largest_frame = max(self.largest_frame, len(text.encode("utf-8") if isinstance(text, str) else text))
        message: dict[str, Any] = json.loads(text)
        self.seen.append(message)
        return message

    async def receive(self) -> dict[str, Any]:
        """The next message not read yet."""
        if self.backlog:
            return self.backlog.pop(0)
        return await self._next_frame()

    async def expect(self, kind: str, **fields: Any) -> dict[str, Any]:
        """The next message, which must be of type `kind` and have `fields`."""
        message = await self.receive()
        assert message["type"] == kind, message
        for key, value in fields.items():
            assert message[key] == value, (key, message)
        return message

    async def expect_next(self, kind: str) -> dict[str, Any]:
        """The next message of type `kind`; those of other types before it are read and dropped."""
        while (message := await self.receive())["type"] != kind:
            pass
        return message

    async def request(self, **fields: Any) -> dict[str, Any]:
        """Send with a fresh id; return the first message carrying that id (others wait in the backlog)."""
        request_id = next(self._ids)
        await self.send(id=request_id, **fields)
        for index, message in enumerate(self.backlog):
            if message.get("id") == request_id:
                return self.backlog.pop(index)
        while True:
            message = await self._next_frame()
            if message.get("id") == request_id:
                return message
            self.backlog.append(message)

    async def hello(self, name: str, token: str | None = None) -> dict[str, Any]:
        reply = await self.request(type="hello", name=name, **({"token": token} if token else {}))
        assert reply["type"] == "welcome", reply
        self.token = reply["token"]
        return reply

    async def close(self) -> None:
        await self.websocket.close()


FIVE_FOR_BLACK = [(7, 7), (7, 8), (8, 7), (8, 8), (9, 7), (9, 8), (10, 7), (10, 8), (11, 7)]
"""Moves of a game black wins in nine plies."""


async def closed_with(player: WireClient) -> tuple[int, str]:
    """The close code and reason of a connection the server closes (reading what comes before)."""
    try:
        while True:
            await player.receive()
    except ConnectionClosed as closed:
        assert closed.rcvd is not None, closed
        return closed.rcvd.code, closed.rcvd.reason


def refused(reply: dict[str, Any], code: str) -> str:
    """The message of an `error` reply, which must have `code`."""
    assert (reply["type"], reply["code"]) == ("error", code), reply
    return str(reply["message"])


async def win_rated_game(winner: WireClient, loser: WireClient) -> None:
    """A rated game `winner` (black) wins against `loser`: a newcomer's rating goes about 160 points
    up, the other's as much down."""
    room_id = (await winner.request(type="create_room", rated=True))["room"]["room_id"]
    await loser.request(type="join_room", room_id=room_id)
    for ply, (x, y) in enumerate(FIVE_FOR_BLACK, start=1):
        await (winner if ply % 2 else loser).request(type="move", room_id=room_id, x=x, y=y)
    await winner.expect_next("game_over")


def worker_pids() -> set[int]:
    """The bot workers of this test process: the children of its forkserver, its grandchildren."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            parents[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])
    forkservers = {pid for pid, parent in parents.items() if parent == os.getpid() and _is_forkserver(pid)}
    return {pid for pid, parent in parents.items() if parent in forkservers}


def _is_forkserver(pid: int) -> bool:
    """Whether the process is multiprocessing's forkserver (not, say, a PostgreSQL or Redis that a
    cluster test of this same test process started, whose own children are no bot workers)."""
    try:
        return b"forkserver" in (Path("/proc") / str(pid) / "cmdline").read_bytes()
    except OSError:
        return False


async def wait_for_worker() -> int:
    """The pid of the single worker, once the pool has started it."""
    give_up = time.monotonic() + 30
    while not (pids := worker_pids()):
        assert time.monotonic() < give_up, "no worker process was started"
        await asyncio.sleep(0.05)
    (pid,) = pids
    return pid


ServerFactory = Callable[..., Awaitable[RunningServer]]
ClientFactory = Callable[..., Awaitable[WireClient]]
