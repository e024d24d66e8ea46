"""The bus itself, against a real Redis: batches per tick, order per lane, confirmation, outage."""

from __future__ import annotations

import asyncio
import json

import redis.asyncio as redis

from server.cluster.bus import RedisBus, channel, lane_of
from server.cluster.bus_messages import BusMessage, BusUnavailable, OwnerNotice
from server.domain import RoomId
from tests.cluster.conftest import RedisServer


async def started_bus(redis_server: RedisServer, node: str) -> tuple[RedisBus, asyncio.Queue[BusMessage]]:
    """A bus whose node hands every message it receives to the queue, once it listens."""
    bus = await RedisBus.connect(redis_server.url, node)
    received: asyncio.Queue[BusMessage] = asyncio.Queue()

    async def receive(message: BusMessage) -> None:
        received.put_nowait(message)

    async def reconnected() -> None:
        pass

    bus.start(receive, reconnected)
    await bus.subscribed.wait()
    return bus, received


async def test_what_a_node_sends_in_one_tick_goes_out_as_one_publish_per_lane(redis_server: RedisServer) -> None:
    sender, _ = await started_bus(redis_server, "n1")
    spy = redis.Redis.from_url(redis_server.url)
    pubsub = spy.pubsub(ignore_subscribe_messages=True)
    rooms = [RoomId("room-a"), RoomId("room-b")]
    assert lane_of(rooms[0]) != lane_of(rooms[1])
    await pubsub.subscribe(*(channel("n2", lane_of(room)) for room in rooms))

    for number in range(50):  # one tick: no await between the posts
        for room in rooms:
            sender.post("n2", room, OwnerNotice(room, f"node-{number}"))

    batches = []
    async with asyncio.timeout(20):
        async for raw in pubsub.listen():
            batches.append(json.loads(raw["data"]))
            if len(batches) == len(rooms):
                break
    assert sorted(batch[0]["room_id"] for batch in batches) == rooms
    for batch in batches:
        assert [item["node"] for item in batch] == [f"node-{number}" for number in range(50)]
        assert {item["room_id"] for item in batch} == {batch[0]["room_id"]}
    sender.post("n2", rooms[0], OwnerNotice(rooms[0], "last"))  # the next publish is the next tick's
    async with asyncio.timeout(20):
        async for raw in pubsub.listen():
            assert [item["node"] for item in json.loads(raw["data"])] == ["last"]
            break
    await pubsub.aclose()
    await spy.aclose()
    await sender.close()


async def test_a_rooms_messages_arrive_in_the_order_sent_across_ticks(redis_server: RedisServer) -> None:
    sender, _ = await started_bus(redis_server, "n1")
    receiver, received = await started_bus(redis_server, "n2")
    room = RoomId("room-a")
    for number in range(30):
        sender.post("n2", room, OwnerNotice(room, f"node-{number}"))
        if number % 7 == 0:
            await asyncio.sleep(0)  # a new tick now and then: several batches
    got = [await received.get() for _ in range(30)]
    assert [message.node for message in got if isinstance(message, OwnerNotice)] == [
        f"node-{number}" for number in range(30)
    ]
    await sender.close()
    await receiver.close()


async def test_delivering_to_a_node_that_does_not_listen_or_with_redis_away_fails(
    redis_server: RedisServer,
) -> None:
    sender, _ = await started_bus(redis_server, "n1")
    receiver, received = await started_bus(redis_server, "n2")
    room = RoomId("room-a")
    await sender.deliver("n2", room, OwnerNotice(room, "n1"))
    assert await received.get() == OwnerNotice(room, "n1")

    try:
        await sender.deliver("n3", room, OwnerNotice(room, "n1"))
    except BusUnavailable as error:
        assert "no node listens" in str(error)
    else:
        raise AssertionError("a message to a node that does not listen was taken as delivered")

    await redis_server.stop()
    try:
        await sender.deliver("n2", room, OwnerNotice(room, "n1"))
    except BusUnavailable:
        pass
    else:
        raise AssertionError("a message was taken as delivered with Redis away")
    await sender.close()
    await receiver.close()
