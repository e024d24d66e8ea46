"""No request left unanswered, and no claim overwritten, when nodes die, pause or lose their rooms.

Real nodes on a real Redis (and PostgreSQL where rooms change owner): a node must not renew a
lobby that another node claimed meanwhile.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable

import redis.asyncio as redis

from server.cluster.bus import channel, lane_of
from server.cluster.bus_lobby import LOBBY_OWNER_KEY
from server.cluster.bus_messages import LOBBY_LANE
from tests.cluster.conftest import Node, RedisServer

StartNode = Callable[[str], Awaitable[Node]]
EVENT_TIMEOUT_S = 10.0
"""The longest wait for what a node does within a few heartbeats (1 s each by default)."""


async def test_a_node_running_the_lobby_does_not_renew_it_over_another_nodes_claim(
    start_node: StartNode, redis_server: RedisServer
) -> None:
    """Another node claimed the lobby's key while this one still held it in its mind (after a
    restart of Redis, or a pause): this node's next heartbeat finds the key is not its own any more
    and follows the other node (its players sign in there), leaving the key as the other set it."""
    node = await start_node("n1")
    await node.client("alice")  # n1, alone, runs the lobby: alice is signed in there
    spy = redis.Redis.from_url(redis_server.url)
    held = await spy.get(LOBBY_OWNER_KEY)
    assert isinstance(held, bytes) and held.startswith(b"n1 "), held
    other_lobby = channel("n2", lane_of(LOBBY_LANE))
    pubsub = spy.pubsub(ignore_subscribe_messages=True)
    await pubsub.subscribe(other_lobby)

    await spy.set(LOBBY_OWNER_KEY, "n2 0123456789abcdef", px=60_000)
    async with asyncio.timeout(EVENT_TIMEOUT_S):
        async for raw in pubsub.listen():
            signed_in = [item for item in json.loads(raw["data"]) if item["message"] == "LobbySignedInMessage"]
            if signed_in:
                break
    assert [item["name"] for item in signed_in] == ["alice"]
    assert await spy.get(LOBBY_OWNER_KEY) == b"n2 0123456789abcdef"
    await pubsub.aclose()  # type: ignore[no-untyped-call]  # redis-py leaves it untyped
    await spy.aclose()
