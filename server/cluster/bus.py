"""The bus between nodes: Redis publish/subscribe, one channel per node and lane, batched per tick.

Every node subscribes to its own `LANES` channels. A message about a room goes to the lane the
room's id hashes to, on the node it is for, so that one room's messages keep their order (one
publishing connection per node, and each lane served in order by one task on the receiving side)
while a slow room holds up only its lane, not the node (as lila-ws does). Everything a node sends
in one turn of its event loop goes out in one pipeline, one PUBLISH per channel carrying the list
of that channel's messages: measured here, one unbatched publish costs about 390 us of CPU, 50 in
one publish about 18 us each.

When Redis goes away, sending fails (`BusUnavailable`: a forwarded request is answered
`unavailable`) and the subscriber tries again until Redis is back, then tells the node
(`reconnected`), which asks for fresh snapshots of the rooms whose events it may have missed.
The few keys kept in Redis (room owners) are read and written here too, with an expiry.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import zlib
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import redis.asyncio as redis
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.exceptions import RedisError

from server.chores import pause, stop_if_asked
from server.cluster.bus_messages import BusMessage, BusUnavailable, decode_batch, encode_batch
from server.domain import RoomId

logger = logging.getLogger(__name__)

LANES = 16
"""Channels per node: a room's messages keep their order within its lane."""
PREFIX = "gomoku:bus"
RECONNECT_FIRST_S = 0.1
"""The first pause before subscribing again after Redis went away; it doubles up to RECONNECT_LONGEST_S."""
RECONNECT_LONGEST_S = 2.0

Receive = Callable[[BusMessage], Awaitable[None]]


def lane_of(room_id: RoomId) -> int:
    """The lane a room's messages take (the same on every node)."""
    return zlib.crc32(room_id.encode()) % LANES


def channel(node: str, lane: int) -> str:
    """The channel of one lane of one node."""
    return f"{PREFIX}:{node}:{lane}"


ROOMS_KEY = "gomoku:rooms:"
"""A node's lines of the room list: a hash of room id -> the room's summary (wire JSON)."""
NODES_KEY = "gomoku:nodes"
"""The names of the nodes that have written lines of the room list."""
_REMOVE_IF = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"
"""Lua: delete KEYS[1] if it holds ARGV[1] (Redis runs a script whole, with nothing in between)."""
_RENEW_IF = (
    "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2]) end "
    "return 0"
)
"""Lua: set KEYS[1] to ARGV[1] again, expiring ARGV[2] ms from now, if it still holds ARGV[1]."""
BROADCAST = f"{PREFIX}:all"
"""The channel every node hears (notices that concern them all, such as a take-over)."""
ADDRESSES_KEY = "gomoku:addresses:"
"""A node's open connections per address: a hash of address -> count."""
ADDRESS_NODES_KEY = "gomoku:address-nodes"
"""The names of the nodes that have written their connections per address."""


class RedisBus:
    """One node's end of the bus: its publishing connection, its subscription and its lanes."""

    def __init__(self, client: redis.Redis, listener: redis.Redis, node: str) -> None:
        """A bus sending through `client` and subscribing through `listener`, which must not
        reconnect by itself: the node has to know when it missed messages."""
        self.node = node
        self._client = client
        self._listener = listener
        self._outbox: dict[str, list[BusMessage]] = {}
        self._confirmations: list[tuple[str, asyncio.Future[None]]] = []
        self._wake = asyncio.Event()
        self._lanes: list[asyncio.Queue[BusMessage]] = [asyncio.Queue() for _ in range(LANES)]
        self._tasks: list[asyncio.Task[None]] = []
        self._closing = False
        self.subscribed = asyncio.Event()
        """Set while the subscription is up (tests wait for it after a restart of Redis)."""

    @classmethod
    async def connect(cls, url: str, node: str) -> RedisBus:
        """A bus on the Redis at `url` (`redis://HOST:PORT/DB`); raises BusUnavailable if it does not answer."""
        client = redis.Redis.from_url(url)
        listener = redis.Redis.from_url(url, retry=Retry(NoBackoff(), 0), socket_timeout=None)
        try:
            await client.ping()
        except (RedisError, OSError) as error:
            await client.aclose()
            await listener.aclose()
            raise BusUnavailable(f"no Redis at {url}: {error}") from error
        return cls(client, listener, node)

    def start(self, receive: Receive, reconnected: Callable[[], Awaitable[None]]) -> None:
        """Send what is posted, and hand each message received to `receive`, in its lane's order;
        after Redis came back, call `reconnected` (messages sent meanwhile are lost)."""
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._send_loop()), loop.create_task(self._listen(reconnected))]
        self._tasks += [loop.create_task(self._serve_lane(queue, receive)) for queue in self._lanes]

    async def close(self) -> None:
        """Send what is posted, stop listening, and close the connections. The sender is not
        cancelled but let finish: redis-py's pipeline, cancelled in the middle, may never return."""
        self._closing = True
        self._wake.set()
        sender, *others = self._tasks
        for task in others:
            task.cancel()
        await asyncio.gather(sender, *others, return_exceptions=True)
        await self._client.aclose()
        await self._listener.aclose()

    # ------------------------------------------------------------- sending

    def post(self, node: str, room_id: RoomId, message: BusMessage) -> None:
        """Send a message about a room to a node, with this tick's others (lost if Redis is away)."""
        self._queue(channel(node, lane_of(room_id)), message)

    async def deliver(self, node: str, room_id: RoomId, message: BusMessage) -> None:
        """Send as `post` does, and return once Redis has handed it to the node; raises
        BusUnavailable if Redis cannot be reached or the node does not listen (yet)."""
        confirmed = asyncio.get_running_loop().create_future()
        to = channel(node, lane_of(room_id))
        self._confirmations.append((to, confirmed))
        self._queue(to, message)
        await confirmed

    def broadcast(self, message: BusMessage) -> None:
        """Send a message to every node (this one too)."""
        self._queue(BROADCAST, message)

    def _queue(self, to: str, message: BusMessage) -> None:
        self._outbox.setdefault(to, []).append(message)
        self._wake.set()

    async def _send_loop(self) -> None:
        """Send what was posted since the last time, in one pipeline: the posts of one tick (and of
        the ticks that passed while the last pipeline was on its way) go together, in order."""
        while not self._closing:
            await self._wake.wait()
            self._wake.clear()
            await self._send_posted()
        await self._send_posted()

    async def _send_posted(self) -> None:
        outbox, self._outbox = self._outbox, {}
        confirmations, self._confirmations = self._confirmations, []
        if not outbox:
            return
        listeners = await self._publish(outbox)
        for to, confirmed in confirmations:
            if confirmed.done():
                continue
            if isinstance(listeners, BusUnavailable):
                confirmed.set_exception(listeners)
            elif listeners[to] == 0:
                confirmed.set_exception(BusUnavailable(f"no node listens on {to}"))
            else:
                confirmed.set_result(None)

    async def _publish(self, outbox: dict[str, list[BusMessage]]) -> dict[str, int] | BusUnavailable:
        """Publish each channel's messages; how many subscribers each channel's reached."""
        try:
            async with self._client.pipeline(transaction=False) as pipeline:
                for to, messages in outbox.items():
                    pipeline.publish(to, encode_batch(messages))
                counts = await pipeline.execute()
        except (RedisError, OSError) as error:
            count = sum(len(messages) for messages in outbox.values())
            logger.warning("bus: %d messages not sent: %s", count, error)
            return BusUnavailable(str(error))
        return {to: int(count) for to, count in zip(outbox, counts, strict=True)}

    # ----------------------------------------------------------- receiving

    async def _listen(self, reconnected: Callable[[], Awaitable[None]]) -> None:
        """Subscribe to this node's lanes and the broadcast channel, and sort what arrives into the
        lanes; when Redis goes away, subscribe again after a pause, for as long as it takes."""
        channels = [channel(self.node, lane) for lane in range(LANES)] + [BROADCAST]
        wait_s = RECONNECT_FIRST_S
        lost = False
        while True:
            pubsub = self._listener.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(*channels)
                self.subscribed.set()
                if lost:
                    logger.info("bus: subscribed again")
                    lost = False
                    wait_s = RECONNECT_FIRST_S
                    await self._client.connection_pool.disconnect()  # those kept from before are dead
                    await reconnected()
                async for raw in pubsub.listen():
                    if raw["type"] == "message":
                        self._sort(raw["data"])
            except (RedisError, OSError) as error:
                if not lost:
                    logger.warning("bus: lost the subscription (%s); trying again", error)
                lost = True
                self.subscribed.clear()
            finally:
                with contextlib.suppress(RedisError, OSError):
                    await pubsub.aclose()
            await pause(wait_s)
            wait_s = min(wait_s * 2, RECONNECT_LONGEST_S)

    def _sort(self, data: bytes) -> None:
        try:
            messages = decode_batch(data)
        except ValueError as error:
            logger.error("bus: a batch that cannot be read: %s", error)
            return
        for message in messages:
            self._lanes[lane_of(message.room_id)].put_nowait(message)

    async def _serve_lane(self, queue: asyncio.Queue[BusMessage], receive: Receive) -> None:
        while True:
            stop_if_asked()  # a cancel the last message's Redis call dropped
            message = await queue.get()
            try:
                await receive(message)
            except Exception:  # one message that fails must not stop its lane
                logger.exception("bus: cannot serve %s", type(message).__name__)

    # ---------------------------------------------------------------- keys

    async def put(self, items: dict[str, str], ttl_s: float) -> None:
        """Set keys that expire after `ttl_s`, in one round trip; raises BusUnavailable."""
        try:
            async with self._client.pipeline(transaction=False) as pipeline:
                for key, value in items.items():
                    pipeline.set(key, value, px=round(ttl_s * 1000))
                await pipeline.execute()
        except (RedisError, OSError) as error:
            raise BusUnavailable(str(error)) from error

    async def put_new(self, key: str, value: str, ttl_s: float) -> bool:
        """Set a key that expires after `ttl_s` unless it is set already; whether it was set. Raises
        BusUnavailable."""
        try:
            return bool(await self._client.set(key, value, px=round(ttl_s * 1000), nx=True))
        except (RedisError, OSError) as error:
            raise BusUnavailable(str(error)) from error

    async def remove_if(self, key: str, value: str) -> bool:
        """Remove a key if it holds `value` (in one step: never another node's value set meanwhile);
        whether it was removed. Raises BusUnavailable."""
        try:
            removed = await self._client.eval(_REMOVE_IF, 1, key, value)
        except (RedisError, OSError) as error:
            raise BusUnavailable(str(error)) from error
        return bool(removed)

    async def renew_if(self, key: str, value: str, ttl_s: float) -> bool:
        """Keep a key that holds `value` for `ttl_s` more, in one step (never over another node's
        value set meanwhile, nor bringing back a key that lapsed or was lost with Redis); whether it
        was renewed. Raises BusUnavailable."""
        try:
            renewed = await self._client.eval(_RENEW_IF, 1, key, value, round(ttl_s * 1000))
        except (RedisError, OSError) as error:
            raise BusUnavailable(str(error)) from error
        return bool(renewed)

    async def write_rooms(
        self, rooms: dict[str, str | None], ttl_s: float, replace: bool = False, taken_over: bool = False
    ) -> None:
        """Write this node's lines of the room list (None: a line to drop; `replace`: all of them, the
        others dropped), kept for `ttl_s` after the last write; `taken_over`: the rooms were other
        nodes' (dead), whose lines of them go in the same transaction. Raises BusUnavailable."""
        try:
            others = await self._other_nodes() if taken_over and rooms else []
        except (RedisError, OSError) as error:
            raise BusUnavailable(str(error)) from error
        elsewhere = [ROOMS_KEY + node for node in others]
        await self._write_node_hash(ROOMS_KEY, NODES_KEY, rooms, ttl_s, replace, elsewhere)

    async def _write_node_hash(
        self,
        prefix: str,
        nodes_key: str,
        fields: dict[str, str | None],
        ttl_s: float,
        replace: bool,
        drop_from: Sequence[str] = (),
    ) -> None:
        """Write fields of this node's hash under `prefix` (None drops one; `replace` drops the
        others), kept for `ttl_s` after the last write, name the node in `nodes_key`, and drop the
        same fields from the hashes `drop_from` (other nodes'), in one transaction. Raises
        BusUnavailable."""
        key = prefix + self.node
        kept = {name: value for name, value in fields.items() if value is not None}
        dropped = [name for name, value in fields.items() if value is None]
        try:
            async with self._client.pipeline(transaction=True) as pipeline:
                for other in drop_from:
                    pipeline.hdel(other, *fields)
                pipeline.sadd(nodes_key, self.node)
                if replace:
                    pipeline.delete(key)
                if kept:
                    pipeline.hset(key, mapping=kept)  # type: ignore[arg-type]  # redis-py's mapping type is narrower
                if dropped:
                    pipeline.hdel(key, *dropped)
                pipeline.pexpire(key, round(ttl_s * 1000))
                await pipeline.execute()
        except (RedisError, OSError) as error:
            raise BusUnavailable(str(error)) from error

    async def every_nodes_rooms(self) -> list[str]:
        """The lines of the room list of every node (those of a node that stopped writing have
        expired). Raises BusUnavailable."""
        try:
            nodes = sorted(_text(node) for node in await self._client.smembers(NODES_KEY))
            async with self._client.pipeline(transaction=False) as pipeline:
                for node in nodes:
                    pipeline.hvals(ROOMS_KEY + node)
                found = await pipeline.execute()
        except (RedisError, OSError) as error:
            raise BusUnavailable(str(error)) from error
        return [_text(line) for lines in found for line in lines]

    async def _other_nodes(self) -> list[str]:
        """The other nodes that have written lines of the room list."""
        return sorted(node for node in map(_text, await self._client.smembers(NODES_KEY)) if node != self.node)

    async def get(self, key: str) -> str | None:
        """A key's value, or None; raises BusUnavailable."""
        try:
            value: Any = await self._client.get(key)
        except (RedisError, OSError) as error:
            raise BusUnavailable(str(error)) from error
        return None if value is None else _text(value)

    async def write_address_counts(self, counts: dict[str, int], ttl_s: float, replace: bool = False) -> None:
        """Write this node's open connections per address (0 drops one; `replace`: all of them, the
        others dropped), kept for `ttl_s` after the last write. Raises BusUnavailable."""
        fields = {address: str(count) if count > 0 else None for address, count in counts.items()}
        await self._write_node_hash(ADDRESSES_KEY, ADDRESS_NODES_KEY, fields, ttl_s, replace)

    async def address_counts(self, address: str) -> dict[str, int]:
        """Each node's open connections from `address`, as last written (a node that stopped writing
        has expired: none). Raises BusUnavailable."""
        try:
            nodes = sorted(_text(node) for node in await self._client.smembers(ADDRESS_NODES_KEY))
            async with self._client.pipeline(transaction=False) as pipeline:
                for node in nodes:
                    pipeline.hget(ADDRESSES_KEY + node, address)
                found = await pipeline.execute()
        except (RedisError, OSError) as error:
            raise BusUnavailable(str(error)) from error
        return {node: int(count) for node, count in zip(nodes, found, strict=True) if count is not None}


def _text(value: bytes | str) -> str:
    """A value read from Redis, as text (redis-py gives bytes unless told to decode)."""
    return value.decode() if isinstance(value, bytes) else value
