"""No request left unanswered, and no claim overwritten, when nodes die, pause or lose their rooms.

Real nodes on a real Redis (and PostgreSQL where rooms change owner): a move forwarded to a room's
owner that dies before serving it is served by the next owner once another node owns the room, and
a node must not renew a lobby that another node claimed meanwhile.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
from collections.abc import Awaitable, Callable
from typing import Any

import redis.asyncio as redis

from server.cluster.bus import channel, lane_of
from server.cluster.bus_lobby import LOBBY_OWNER_KEY
from server.cluster.bus_messages import LOBBY_LANE
from server.domain import RoomId
from tests.cluster.conftest import Node, RedisServer, StartClusterNode
from tests.cluster.test_cluster_faults import seat_players_on_two_nodes
from tests.server.test_storage_node_faults import stored_moves

StartNode = Callable[[str], Awaitable[Node]]
Clients = Callable[..., Any]
EVENT_TIMEOUT_S = 10.0
"""The longest wait for what a node does within a few heartbeats (1 s each by default), or for a
take-over (a 2 s lease in these tests)."""


async def test_a_move_whose_owner_is_killed_before_serving_it_is_played_once_by_the_next_owner(
    start_cluster_node: StartClusterNode, clients: Clients, postgres_url: str, redis_server: RedisServer
) -> None:
    """Bob's move goes from n2 to n1, the room's owner, paused (Redis counts its subscriber: the
    move is delivered, unread); n1 is then killed. Once n2 has taken the room over, bob's node sends
    the move again there (n1 might have stored it: `server.cluster.forwarded`), where it is played,
    once, and answered."""
    owner, other = start_cluster_node("n1"), start_cluster_node("n2")
    alice, bob, room_id = await seat_players_on_two_nodes(clients, owner, other)
    first = await alice.request(type="move", room_id=room_id, x=7, y=7)
    assert first["type"] == "moved", first
    spy = redis.Redis.from_url(redis_server.url)
    owners_lane = spy.pubsub(ignore_subscribe_messages=True)
    await owners_lane.subscribe(channel("n1", lane_of(RoomId(room_id))))

    os.kill(owner.pid, signal.SIGSTOP)
    in_flight = asyncio.create_task(bob.request(type="move", room_id=room_id, x=8, y=8))
    async with asyncio.timeout(EVENT_TIMEOUT_S):
        async for raw in owners_lane.listen():  # the move has reached n1's subscription
            if any(item["message"] == "CommandMessage" for item in json.loads(raw["data"])):
                break
    os.kill(owner.pid, signal.SIGKILL)

    async with asyncio.timeout(EVENT_TIMEOUT_S):
        answer = await in_flight
    assert answer["type"] == "moved" and answer["ply"] == 2, answer
    again = await bob.request(type="move", room_id=room_id, x=9, y=9)
    assert again["type"] == "error" and again["code"] == "not_your_turn", again
    assert await stored_moves(postgres_url, first["game_id"]) == [(7, 7), (8, 8)]
    await owners_lane.aclose()  # type: ignore[no-untyped-call]  # redis-py leaves it untyped
    await spy.aclose()


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
