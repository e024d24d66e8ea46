"""One client connection: its send queue, its rate limit and who signed in on it.

Messages to a client go through a bounded queue drained by the
connection's own writer task, so a slow reader never holds up a room: when
its queue is full (too many messages, or too many bytes), the connection is
closed instead. Lobby changes to a 1.1 watcher are the exception: they go
stale, so a backlog of them is replaced by one fresh snapshot of the lobby
rather than closing the client.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from websockets.asyncio.server import ServerConnection
from websockets.exceptions import ConnectionClosed
from websockets.frames import CloseCode

from engine.record import PlayerKind
from server.domain import ConnectionId
from wire.messages import ServerMessage

logger = logging.getLogger(__name__)

SEND_QUEUE_LIMIT = 512
"""Messages waiting for one client before it is judged too slow and closed."""
SEND_QUEUE_BYTES = 1024 * 1024
"""Bytes waiting for one client before it is judged too slow and closed: 16 of the largest frames,
thousands of the usual ones. Without it, 512 frames of 64 KB would keep 32 MB per client."""
LOBBY_BACKLOG_LIMIT = 100
"""Lobby changes waiting for one 1.1 watcher past which they give way to one fresh snapshot."""


_CLOSE_HERE = b""
"""Queued in place of a frame (no message is empty): close the connection when the writer reaches it."""


class AddressCounts:
    """The open connections from each address, capped (`--max-connections-per-address`). In one
    process they are all here; a node of several adds the other nodes' (`SharedAddressCounts`)."""

    def __init__(self) -> None:
        self.here: Counter[str] = Counter()
        """This node's open connections, by address."""

    async def admit(self, address: str, limit: int) -> bool:
        """Count a new connection from `address`, unless `limit` are open from it already (False).
        Counted before any await, so that connections arriving at once cannot all pass."""
        self.here[address] += 1
        self.changed(address)
        if self.here[address] > limit or self.here[address] + await self.elsewhere(address) > limit:
            self.closed(address)
            return False
        return True

    def closed(self, address: str) -> None:
        """A connection from `address` (admitted) has closed."""
        self.here[address] -= 1
        if not self.here[address]:
            del self.here[address]
        self.changed(address)

    async def elsewhere(self, address: str) -> int:
        """The connections from `address` open on other nodes (in one process, none)."""
        return 0

    def changed(self, address: str) -> None:
        """This node's count of `address` has changed (a node of several tells the others)."""


@dataclass(slots=True)
class RateLimit:
    """A token bucket: `burst` requests at once, refilled at `per_second`."""

    per_second: float = 20.0
    burst: float = 40.0
    strikes_before_close: int = 20
    """Requests refused in a row after which the connection is closed (1008)."""
    _tokens: float = field(default=-1.0, repr=False)
    _updated: float = 0.0
    _strikes: int = 0

    def allow(self, now: float) -> bool:
        """Take one token if there is one."""
        if self._tokens < 0:
            self._tokens = self.burst
            self._updated = now
        self._tokens = min(self.burst, self._tokens + (now - self._updated) * self.per_second)
        self._updated = now
        if self._tokens >= 1:
            self._tokens -= 1
            self._strikes = 0
            return True
        self._strikes += 1
        return False

    @property
    def exhausted(self) -> bool:
        """Whether the client kept sending long after being told to slow down."""
        return self._strikes > self.strikes_before_close


def peer_address(websocket: ServerConnection) -> str:
    """The IP address of the socket's other end (a proxy's, behind one: `server.edge.client_address`)."""
    remote = websocket.remote_address
    return str(remote[0]) if isinstance(remote, tuple) and remote else str(remote)


def forwarded_for(websocket: ServerConnection) -> list[str]:
    """The `X-Forwarded-For` lines of the websocket's opening request, in order."""
    return [] if websocket.request is None else websocket.request.headers.get_all("X-Forwarded-For")


class Connection:
    """A websocket client as the server sees it."""

    def __init__(
        self, connection_id: ConnectionId, websocket: ServerConnection, rate_limit: RateLimit, address: str
    ) -> None:
        self.id = connection_id
        self.websocket = websocket
        self.rate_limit = rate_limit
        self.player: str | None = None
        """The signed-in player's name, after `welcome`."""
        self.player_kind: PlayerKind = "human"
        """Whether that player is a person or a bot account."""
        self.address = address
        """The client's address as the per-address limits count it (`server.edge.client_address`)."""
        """The IP address the client connects from."""
        self._queue: asyncio.Queue[tuple[bytes, bool]] = asyncio.Queue(SEND_QUEUE_LIMIT)
        """Frames to send (UTF-8 text), each with whether it is a lobby change a snapshot may replace."""
        self._queued_bytes = 0
        """The size of the frames in the queue and of the one being sent."""
        self._lobby_queued = 0
        """How many of the queued frames are lobby changes."""
        self._writer = asyncio.get_running_loop().create_task(self._write_loop())
        self._dropping: asyncio.Task[None] | None = None
        """Set once the client has fallen too far behind: the task closing it."""
        self._closing_reason = ""
        """Why the connection is closed once its queue is sent (`close_after_sent`)."""

    def send(self, message: ServerMessage) -> None:
        """Queue a message; close the connection if it is not keeping up."""
        self.send_wire(message.to_wire().encode())

    def send_wire(self, frame: bytes) -> None:
        """Queue a message already in its wire form, UTF-8 (one serves every recipient of a
        broadcast); close the connection if it is not keeping up."""
        self._put(frame, False)

    def send_lobby_change(self, frame: bytes, fresh_snapshot: Callable[[], bytes]) -> None:
        """Queue a lobby change for a 1.1 watcher; past LOBBY_BACKLOG_LIMIT of them waiting, they are
        all dropped and `fresh_snapshot()` (the lobby as it is now, in its wire form) takes their place."""
        if self._lobby_queued >= LOBBY_BACKLOG_LIMIT:
            self._drop_queued_lobby_changes()
            frame = fresh_snapshot()
        self._put(frame, True)

    def close_after_sent(self, reason: str) -> None:
        """Close the connection (1008, `reason`) once the messages queued now are sent: a device signed
        out, or an account deleted, hears why before it is closed."""
        self._closing_reason = reason
        self._put(_CLOSE_HERE, False)

    def _drop_queued_lobby_changes(self) -> None:
        kept = [self._queue.get_nowait() for _ in range(self._queue.qsize())]
        for frame, is_lobby_change in kept:
            if is_lobby_change:
                self._queued_bytes -= len(frame)
            else:
                self._queue.put_nowait((frame, False))
        self._lobby_queued = 0

    def _put(self, frame: bytes, is_lobby_change: bool) -> None:
        if self._dropping is not None:
            return
        if self._queued_bytes + len(frame) > SEND_QUEUE_BYTES or self._queue.full():
            logger.warning("connection %d is too slow to read; closing it", self.id)
            self._dropping = asyncio.get_running_loop().create_task(self._drop())
            return
        self._queue.put_nowait((frame, is_lobby_change))
        self._queued_bytes += len(frame)
        self._lobby_queued += is_lobby_change

    async def _drop(self) -> None:
        """Stop writing to a client that does not read, and close it: with 1013 if the close frame
        can still reach it, else (websockets' close timeout) by closing the socket."""
        self._writer.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._writer
        await self.websocket.close(CloseCode.TRY_AGAIN_LATER, "too slow to read")

    async def _write_loop(self) -> None:
        with contextlib.suppress(ConnectionClosed):
            while True:
                frame, is_lobby_change = await self._queue.get()
                self._lobby_queued -= is_lobby_change
                if frame == _CLOSE_HERE:
                    await self.websocket.close(CloseCode.POLICY_VIOLATION, self._closing_reason)
                    return
                await self.websocket.send(frame, text=True)
                self._queued_bytes -= len(frame)

    async def stop(self) -> None:
        """Stop the writer (the socket is closed; what is still queued cannot be sent)."""
        self._writer.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._writer
        if self._dropping is not None:
            await self._dropping
