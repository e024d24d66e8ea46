"""The cluster's gaps closed (issue 29): `analyze` of a room another node holds, a dead node's lines
in the room list, a command reaching a node that has just lost its room, lobby requests when the
lobby's node has just stopped or started again.

Real processes: a throw-away PostgreSQL, a `redis-server` and `gomoku-server` nodes, each stopped
by its pid. Leases are short (`tests.cluster.conftest.LEASE`), so that a take-over takes seconds.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

import redis.asyncio as redis
from redis.asyncio.client import PubSub

from server.cluster.bus import channel, lane_of
from server.cluster.bus_messages import (
    BusMessage,
    CommandMessage,
    OwnerNotice,
    ReplyMessage,
    decode_batch,
    encode_batch,
)
from server.domain import CallerRef, RoomId
from tests.cluster.conftest import LEASE, RedisServer, StartClusterNode
from tests.cluster.test_bus_lobby import SEEK
from tests.cluster.test_cluster_faults import until_owned_elsewhere
from tests.server.server_harness import RECEIVE_TIMEOUT_S
from tests.server.test_storage_node_faults import TAKE_OVER_TIMEOUT_S, until_served
from tools.local_services import ServerNode, stop_nodes
from wire.messages import JoinRoom

Clients = Callable[..., Any]

WITH_BOTS = ["--bot-workers", "1"]
"""A node that searches (a bot worker and an analysis worker); the others run no bots."""


async def test_analyze_of_a_room_another_node_holds_is_searched_by_that_node_under_its_fair_play_rules(
    start_cluster_node: StartClusterNode, clients: Clients
) -> None:
    with_bots, without = start_cluster_node("n1", arguments=WITH_BOTS), start_cluster_node("n2")
    alice, carol = await clients(with_bots, "alice"), await clients(with_bots, "carol")
    bob, dave = await clients(without, "bob"), await clients(without, "dave")
    against_a_bot = await alice.request(type="create_room", black="me", white={"bot": "greedy"})  # held by n1
    room_id, game_id = against_a_bot["room"]["room_id"], against_a_bot["room"]["game_id"]
    assert (await alice.request(type="move", room_id=room_id, move="h8"))["type"] == "moved"

    of_the_room = await bob.request(type="analyze", room_id=room_id, time_ms=100)
    assert of_the_room["type"] == "analysis" and of_the_room["room_id"] == room_id, of_the_room
    of_the_game = await bob.request(type="analyze", game_id=game_id, ply=1, time_ms=100)
    assert of_the_game["type"] == "analysis" and of_the_game["game_id"] == game_id, of_the_game

    between_people = (await carol.request(type="create_room"))["room"]["room_id"]  # held by n1
    joined = await dave.request(type="join_room", room_id=between_people, as_="player")
    refused = [
        await bob.request(type="analyze", room_id=between_people, time_ms=100),
        await bob.request(type="analyze", game_id=joined["room"]["game_id"], ply=0, time_ms=100),
    ]
    assert [answer.get("code") for answer in refused] == ["not_allowed"] * 2, refused
    unknown = await bob.request(type="analyze", room_id="no-such-room", time_ms=100)
    assert unknown.get("code") == "not_found", unknown


async def test_one_analysis_at_a_time_per_player_holds_for_analyses_searched_by_another_node(
    start_cluster_node: StartClusterNode, clients: Clients
) -> None:
    with_bots, without = start_cluster_node("n1", arguments=WITH_BOTS), start_cluster_node("n2")
    alice, bob = await clients(with_bots, "alice"), await clients(without, "bob")
    room_id = (await alice.request(type="create_room", black="me", white={"bot": "greedy"}))["room"]["room_id"]
    assert (await alice.request(type="move", room_id=room_id, move="h8"))["type"] == "moved"  # not an empty
    # board, which the engine answers at once: this position takes the whole second

    await bob.send(type="analyze", room_id=room_id, time_ms=1_000, id="first")
    second = await bob.request(type="analyze", room_id=room_id, time_ms=100)
    assert second.get("code") == "rate_limited", second
    first = await bob.expect_next("analysis")
    assert first["id"] == "first", first


async def test_rooms_taken_over_from_a_dead_node_are_listed_once_at_once(
    start_cluster_node: StartClusterNode, clients: Clients
) -> None:
    doomed, survivor = start_cluster_node("n1"), start_cluster_node("n2")
    alice, bob = await clients(doomed, "alice"), await clients(survivor, "bob")
    room_id = (await alice.request(type="create_room"))["room"]["room_id"]  # held by n1
    assert (await bob.request(type="join_room", room_id=room_id, as_="player"))["you"] == "white"
    assert (await alice.request(type="move", room_id=room_id, x=7, y=7))["type"] == "moved"

    os.kill(doomed.pid, signal.SIGKILL)
    alice = await clients(survivor, "alice", alice.token)
    rejoined = await until_served(alice, type="join_room", room_id=room_id, as_="player")  # n2 took it over
    assert rejoined["type"] == "room", rejoined
    listed = [room["room_id"] for room in (await alice.request(type="list_rooms"))["rooms"]]
    assert listed == [room_id], listed
    assert (await clients(survivor, "bob", bob.token)).seen[-1]["rooms"] == [room_id]


async def test_a_command_reaching_a_node_that_lost_the_room_is_answered_unavailable_and_its_new_owner_named(
    start_cluster_node: StartClusterNode, clients: Clients, postgres_url: str, redis_server: RedisServer
) -> None:
    """A node paused past its lease loses its room to another and drops it when it wakes; a command
    forwarded to it by a node that still knew it as the owner (sent here as that node, `probe`,
    would) is answered `unavailable`, and that node is told the new owner, to ask it next."""
    paused, taker = start_cluster_node("n1"), start_cluster_node("n2")
    alice, bob = await clients(paused, "alice"), await clients(taker, "bob")
    room_id = (await alice.request(type="create_room"))["room"]["room_id"]  # held by n1
    assert (await bob.request(type="join_room", room_id=room_id, as_="player"))["you"] == "white"
    os.kill(paused.pid, signal.SIGSTOP)
    await until_owned_elsewhere(postgres_url, room_id, "n1")
    os.kill(paused.pid, signal.SIGCONT)
    await until_it_holds_no_room(paused)  # it has found its lease gone, and dropped the room

    lane = lane_of(RoomId(room_id))
    bus = redis.Redis.from_url(redis_server.url)
    probe = bus.pubsub()
    await probe.subscribe(channel("probe", lane))
    stale = CommandMessage(
        RoomId(room_id), CallerRef("probe/1"), "carol", "human", JoinRoom(room_id=room_id, id="stale").to_wire()
    )
    assert await bus.publish(channel("n1", lane), encode_batch([stale])) == 1  # n1 listens
    *before, reply = await messages_until_a_reply(probe)
    await probe.aclose()  # type: ignore[no-untyped-call]  # redis-py leaves it untyped
    await bus.aclose()
    assert isinstance(reply, ReplyMessage) and reply.refs == ("probe/1",), reply
    assert json.loads(reply.text)["code"] == "unavailable", reply
    assert before == [OwnerNotice(RoomId(room_id), "n2")]  # told first: it forgets n1, asks n2 next


async def until_it_holds_no_room(node: ServerNode) -> None:
    """Wait until the node's `/metrics` count no room (`gomoku_rooms`)."""
    metrics = node.url.replace("ws://", "http://").removesuffix("/ws") + "/metrics"
    give_up_at = time.monotonic() + TAKE_OVER_TIMEOUT_S
    while any(line.startswith("gomoku_rooms{") and float(line.split()[-1]) > 0 for line in await _lines(metrics)):
        assert time.monotonic() < give_up_at, f"{node.url} still holds a room after {TAKE_OVER_TIMEOUT_S} s"
        await asyncio.sleep(0.1)


async def _lines(url: str) -> list[str]:
    def read() -> list[str]:
        with urllib.request.urlopen(url, timeout=RECEIVE_TIMEOUT_S) as response:
            return str(response.read().decode()).splitlines()

    return await asyncio.to_thread(read)


async def messages_until_a_reply(subscription: PubSub) -> list[BusMessage]:
    """The bus messages a subscription gets, up to the first `ReplyMessage`."""
    found: list[BusMessage] = []
    async with asyncio.timeout(RECEIVE_TIMEOUT_S):
        while not found or not isinstance(found[-1], ReplyMessage):
            raw = await subscription.get_message(ignore_subscribe_messages=True, timeout=RECEIVE_TIMEOUT_S)
            if raw is not None:
                found += decode_batch(raw["data"])
    return found


async def test_a_node_started_right_after_the_lobbys_node_stopped_serves_lobby_requests_at_once(
    start_cluster_node: StartClusterNode, clients: Clients
) -> None:
    """The lobby's node, stopped cleanly, gives the lobby up: a node starting then runs it at once
    rather than following a node that is gone until its key lapses (`--lease-s`, here longer than
    the test)."""
    long_lease = ["--heartbeat-s", "1", "--lease-s", "30"]
    first = start_cluster_node("n1", arguments=long_lease)
    await asyncio.to_thread(first.stop)
    bob = await clients(start_cluster_node("n2", arguments=long_lease), "bob")
    online = await bob.request(type="who_is_online")
    assert online["type"] == "online_players" and online["count"] == 1, online
    assert (await bob.request(type="watch_lobby"))["type"] == "lobby"


async def test_the_lobbys_node_killed_and_started_again_under_its_name_serves_the_other_nodes_players_again(
    start_cluster_node: StartClusterNode, clients: Clients
) -> None:
    """The lobby's node, killed and started again at once under the same name, finds the lobby's
    key still naming it (here for longer than the test) and runs the lobby anew, empty: the other
    nodes see that it is a new lobby, sign their players in again and watch it again."""
    long_lease = ["--heartbeat-s", "0.25", "--lease-s", "30"]
    first, second = start_cluster_node("n1", arguments=long_lease), start_cluster_node("n2", arguments=long_lease)
    bob = await clients(second, "bob")
    assert (await bob.request(type="watch_lobby"))["type"] == "lobby"  # watched at n1

    os.kill(first.pid, signal.SIGKILL)
    first.process.wait()
    alice = await clients(start_cluster_node("n1", arguments=long_lease), "alice")
    snapshot = await bob.expect_next("lobby")  # from the new lobby
    assert "id" not in snapshot, snapshot
    online = await alice.request(type="who_is_online")
    assert online["count"] == 2, online  # bob signed in again
    seek = await alice.request(type="seek", **SEEK)
    assert (await bob.expect_next("seek_added"))["seek"]["seek_id"] == seek["seek"]["seek_id"]


async def test_without_a_bus_analyze_of_a_room_another_live_node_serves_is_unavailable_as_its_other_requests(
    postgres_url: str, clients: Clients, tmp_path: Path
) -> None:
    """Nodes on one PostgreSQL without a bus cannot hand requests on: `analyze` of a room another
    live node serves is refused as a move there would be, not `not_found`."""
    nodes = [ServerNode.start(postgres_url, name, tmp_path / f"{name}.log", LEASE) for name in ("n1", "n2")]
    try:
        alice, carol = await clients(nodes[0], "alice"), await clients(nodes[0], "carol")
        bob = await clients(nodes[1], "bob")
        room_id = (await alice.request(type="create_room"))["room"]["room_id"]  # served by n1
        assert (await carol.request(type="join_room", room_id=room_id, as_="player"))["you"] == "white"
        refused = await bob.request(type="analyze", room_id=room_id, time_ms=100)
        assert refused.get("code") == "unavailable", refused
        assert refused["message"] == "the room is served by another node", refused
        for wire in (alice, carol, bob):
            await wire.close()  # a node stopping waits for its connections to close
    finally:
        stop_nodes(nodes)


async def test_a_lobby_request_right_after_the_lobbys_node_stopped_is_served_by_the_node_asked(
    start_cluster_node: StartClusterNode, clients: Clients
) -> None:
    """The lobby's node gives the lobby up as it stops; a lobby request on another node before that
    node's next heartbeat (here longer than the test) finds the lobby's node gone, looks again,
    claims the lobby and serves it, rather than answering `unavailable` until then."""
    slow_heartbeat = ["--heartbeat-s", "30", "--lease-s", "90"]
    first, second = start_cluster_node("n1"), start_cluster_node("n2", arguments=slow_heartbeat)  # n1 runs it
    bob = await clients(second, "bob")
    assert (await bob.request(type="who_is_online"))["count"] == 1  # answered by n1
    await asyncio.to_thread(first.stop)
    online = await bob.request(type="who_is_online")
    assert online["type"] == "online_players" and online["count"] == 1, online
