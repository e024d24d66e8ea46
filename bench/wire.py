"""The load generator's websocket client: one signed-in connection, timestamps on every message.

Each connection has one reader task. Every message it receives is stamped
with `time.monotonic()` the moment it is read, then handed to whoever
waits for it: a request's reply (matched by `id`), a waiter for a
particular message (the opponent's `moved` for ply 12), or the
connection's listener (a spectator's log of arrivals). Nothing is kept
that nobody asked for, so that thousands of connections stay cheap; and a
text that many connections of one process read alike (a broadcast) is
parsed once for all of them (`parse_frame`): the messages are read, never
changed.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

Message = dict[str, Any]
REPLY_TIMEOUT_S = 60.0
"""How long a request waits for its answer before the benchmark gives up on it (a busy server is slow,
not broken; the figures show how slow)."""
OPEN_TIMEOUT_S = 60.0
RECENT_FRAMES = 16
"""How many of the latest texts read in this process `parse_frame` keeps parsed."""

_recently_parsed: dict[str | bytes, Message] = {}


def parse_frame(text: str | bytes) -> Message:
    """The message in a text frame; one of the last RECENT_FRAMES texts read is not parsed again."""
    message = _recently_parsed.get(text)
    if message is None:
        if len(_recently_parsed) >= RECENT_FRAMES:
            del _recently_parsed[next(iter(_recently_parsed))]
        message = _recently_parsed[text] = json.loads(text)
    return message


class WireError(Exception):
    """The server answered a request with an error, or never answered it."""

    def __init__(self, text: str, code: str | None = None) -> None:
        super().__init__(text)
        self.code = code
        """The error's code, when the server answered with one."""


@dataclass(frozen=True, slots=True)
class Received:
    """A message and the moment (time.monotonic) it was read off the socket."""

    message: Message
    at: float


Listener = Callable[[Message, float], None]


class BenchClient:
    """A signed-in websocket connection of the load generator."""

    def __init__(self, websocket: ClientConnection, name: str) -> None:
        self.websocket = websocket
        self.name = name
        self.listener: Listener | None = None
        """Called with every message received and its arrival time."""
        self.errors: Counter[str] = Counter()
        """Error codes received, by code."""
        self.closed_by_server: int | None = None
        """The close code, when the server closed the connection before we did."""
        self.features: list[str] = []
        """The additions the server's `welcome` lists."""
        self._closing = False
        self._ids = itertools.count(1)
        self._replies: dict[int, asyncio.Future[Received]] = {}
        self._waiters: list[tuple[Callable[[Message], bool], asyncio.Future[Received]]] = []
        self._reader = asyncio.get_running_loop().create_task(self._read_loop())

    @classmethod
    async def open(cls, url: str, name: str, compression: bool = True) -> BenchClient:
        """Connect and sign in as `name` (a fresh name: no token needed).

        `compression` offers permessage-deflate as browsers do; without it
        the connection sends plain frames.
        """
        websocket = await connect(
            url,
            compression="deflate" if compression else None,
            ping_interval=None,
            open_timeout=OPEN_TIMEOUT_S,
            max_size=2**16,
        )
        client = cls(websocket, name)
        try:
            welcome = await client.request({"type": "hello", "name": name}, expect="welcome")
            client.features = list(welcome.message.get("features", []))
        except BaseException:
            await client.close()
            raise
        return client

    async def _read_loop(self) -> None:
        try:
            async for frame in self.websocket:
                arrived = time.monotonic()
                message = parse_frame(frame)
                self._dispatch(message, arrived)
        except ConnectionClosed:
            pass
        finally:
            if not self._closing:
                self.closed_by_server = self.websocket.close_code
            closed = ConnectionError(f"{self.name}: connection closed ({self.websocket.close_code})")
            for future in [*self._replies.values(), *(future for _, future in self._waiters)]:
                if not future.done():
                    future.set_exception(closed)
                    future.add_done_callback(_mark_retrieved)
            self._replies.clear()
            self._waiters.clear()

    def _dispatch(self, message: Message, arrived: float) -> None:
        if message.get("type") == "error":
            self.errors[str(message.get("code"))] += 1
        received = Received(message, arrived)
        reply = self._replies.pop(message["id"], None) if isinstance(message.get("id"), int) else None
        if reply is not None and not reply.done():
            reply.set_result(received)
        if self._waiters:
            still_waiting = []
            for wanted, future in self._waiters:
                if future.done():
                    continue
                if wanted(message):
                    future.set_result(received)
                else:
                    still_waiting.append((wanted, future))
            self._waiters = still_waiting
        if self.listener is not None:
            self.listener(message, arrived)

    async def send_request(self, fields: Message) -> tuple[asyncio.Future[Received], float]:
        """Send a request with a fresh id: the future of its answer, and when it was sent."""
        request_id = next(self._ids)
        answer: asyncio.Future[Received] = asyncio.get_running_loop().create_future()
        self._replies[request_id] = answer
        text = json.dumps({**fields, "id": request_id})
        sent_at = time.monotonic()
        await self.websocket.send(text)
        return answer, sent_at

    async def request(self, fields: Message, expect: str | None = None) -> Received:
        """Send a request and return its answer; WireError if it is an error (or not `expect`)."""
        answer, _ = await self.send_request(fields)
        return await answer_of(self.name, fields["type"], answer, expect)

    def wait_for(self, wanted: Callable[[Message], bool]) -> asyncio.Future[Received]:
        """The future of the next message for which `wanted` is true."""
        future: asyncio.Future[Received] = asyncio.get_running_loop().create_future()
        self._waiters.append((wanted, future))
        return future

    async def close(self) -> None:
        """Close the connection and stop the reader."""
        self._closing = True
        await self.websocket.close()
        await self._reader


def _mark_retrieved(future: asyncio.Future[Received]) -> None:
    """Nobody may be waiting any more for a future failed by a closed connection: no warning then."""
    if not future.cancelled():
        future.exception()


async def answer_of(name: str, kind: str, answer: asyncio.Future[Received], expect: str | None = None) -> Received:
    """The answer to a request of type `kind`; WireError if it is an error, not `expect`, or late."""
    try:
        received = await asyncio.wait_for(answer, REPLY_TIMEOUT_S)
    except TimeoutError:
        raise WireError(f"{name}: no answer to {kind} within {REPLY_TIMEOUT_S:.0f} s") from None
    answered = received.message.get("type")
    if answered == "error":
        raise WireError(f"{name}: {kind} answered with {received.message}", received.message.get("code"))
    if expect is not None and answered != expect:
        raise WireError(f"{name}: {kind} answered with {received.message}")
    return received


def moved(room_id: str, ply: int) -> Callable[[Message], bool]:
    """Matches the `moved` of ply `ply` in room `room_id`."""
    return lambda message: (
        message.get("type") == "moved" and message.get("room_id") == room_id and message.get("ply") == ply
    )


def game_over(room_id: str) -> Callable[[Message], bool]:
    """Matches the `game_over` of room `room_id`."""
    return lambda message: message.get("type") == "game_over" and message.get("room_id") == room_id
