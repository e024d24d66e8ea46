"""Faults of the whole cluster, PostgreSQL and the bus together (issue 29, "Faults, each tested"): a node
paused past its lease, Redis restarted, PostgreSQL restarted, a client whose node dies reconnecting
through HAProxy.

Real processes: PostgreSQL, `redis-server`, HAProxy and `gomoku-server` nodes, each stopped by its pid.
Leases are short (`tests.cluster.conftest.LEASE`), so that a take-over takes seconds; a client
answered `unavailable` asks again, as a real client would (`until_served`).
"""

from __future__ import annotations

import asyncio
import os
import shutil
import signal
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import asyncpg
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from tests.cluster.conftest import RedisServer, StartClusterNode
from tests.cluster.services import require_postgres
from tests.cluster.test_failover import board_as_told, board_once_told
from tests.server.server_harness import WireClient
from tests.server.test_storage_node_faults import TAKE_OVER_TIMEOUT_S, stored_moves, until_served
from tools.local_services import LocalPostgres, LocalProxy, ServerNode

Clients = Callable[..., Any]


def room_seqs(wire: WireClient, room_id: str) -> list[int]:
    """The `seq` of every message about the room the client has been told, in order."""
    seqs = []
    for message in wire.seen:
        about = message.get("room", message)
        if isinstance(about, dict) and about.get("room_id") == room_id and "seq" in about:
            seqs.append(about["seq"])
    return seqs


def assert_nothing_stale(wire: WireClient, room_id: str) -> None:
    """The room's `seq` never goes back for this client (a node that lost the room would tell its
    old, lower `seq`), and each move it is told follows the last it knew (`board_as_told`)."""
    seqs = room_seqs(wire, room_id)
    assert seqs == sorted(seqs), f"seq went back: {seqs}"
    board_as_told(wire)


async def seat_players_on_two_nodes(
    clients: Clients, black_node: ServerNode, white_node: ServerNode
) -> tuple[WireClient, WireClient, str]:
    """Alice opens a room on `black_node` (which owns it), bob takes the white seat from `white_node`."""
    alice, bob = await clients(black_node, "alice"), await clients(white_node, "bob")
    room_id = (await alice.request(type="create_room"))["room"]["room_id"]
    assert (await bob.request(type="join_room", room_id=room_id, as_="player"))["you"] == "white"
    return alice, bob, room_id


async def test_a_node_paused_past_its_lease_serves_nothing_stale_and_rejoins_as_a_follower(
    start_cluster_node: StartClusterNode, clients: Clients, postgres_url: str
) -> None:
    first, second, third = start_cluster_node("n1"), start_cluster_node("n2"), start_cluster_node("n3")
    alice, bob, room_id = await seat_players_on_two_nodes(clients, first, second)
    carol = await clients(third, "carol")
    assert (await carol.request(type="join_room", room_id=room_id, as_="spectator"))["type"] == "room"
    played = [await alice.request(type="move", room_id=room_id, x=7, y=7)]
    played.append(await bob.request(type="move", room_id=room_id, x=8, y=8))
    assert await board_once_told(carol, 2) == [(7, 7), (8, 8)]

    os.kill(first.pid, signal.SIGSTOP)
    forwarded = asyncio.create_task(bob.request(type="join_room", room_id=room_id, as_="player"))  # for n1
    late = asyncio.create_task(alice.request(type="move", room_id=room_id, x=7, y=8))  # waits in n1's socket
    await until_owned_elsewhere(postgres_url, room_id, "n1")
    for member in (bob, carol):  # told by the new owner
        assert await board_once_told(member, 2) == [(7, 7), (8, 8)]
    os.kill(first.pid, signal.SIGCONT)

    refused = await late
    assert refused["type"] == "error" and refused["code"] == "unavailable", refused
    answered = await forwarded  # n1 had it before it slept: it must not answer from the room it lost
    assert answered["type"] == "error" and answered["code"] == "unavailable", answered
    assert await stored_moves(postgres_url, played[0]["game_id"]) == [(7, 7), (8, 8)]
    alice_elsewhere = await clients(third, "alice", alice.token)  # reconnected: she joins the room again
    rejoined = await until_served(alice_elsewhere, type="join_room", room_id=room_id, as_="player")
    assert rejoined["you"] == "black", rejoined
    played.append(await until_served(alice_elsewhere, type="move", room_id=room_id, x=7, y=8))
    played.append(await bob.request(type="move", room_id=room_id, x=9, y=9))
    assert [move["type"] for move in played] == ["moved"] * 4, played
    for member in (bob, carol, alice_elsewhere):
        assert await board_once_told(member, 4) == [(7, 7), (8, 8), (7, 8), (9, 9)]
    for member in (alice, bob, carol, alice_elsewhere):
        assert_nothing_stale(member, room_id)
    assert await stored_moves(postgres_url, played[0]["game_id"]) == [(m["x"], m["y"]) for m in played]

    dave, erin = await clients(first, "dave"), await clients(second, "erin")  # n1 is back, as a follower
    new_room = (await until_served(dave, type="create_room"))["room"]["room_id"]
    assert (await erin.request(type="join_room", room_id=new_room, as_="player"))["you"] == "white"
    assert (await dave.request(type="move", room_id=new_room, x=7, y=7))["type"] == "moved"
    assert await board_once_told(erin, 1) == [(7, 7)]


@pytest.mark.xfail(
    reason="issue 41, open: a node woken after SIGSTOP may still send one stale `moved` of its old copy of "
    "the room before it drops it (seen once in the fault schedule, and in 1 of 2 CI runs here); the spectator "
    "following the room to its new owner holds",
    strict=False,
)
async def test_a_spectator_on_a_node_paused_past_its_lease_follows_the_room_to_its_new_owner(
    start_cluster_node: StartClusterNode, clients: Clients, postgres_url: str
) -> None:
    """The new owner's notice reaches the paused node as it wakes, before it finds its lease lost:
    joining its spectator again there failed on its own stale copy of the room, and the spectator
    was told nothing more. Once the node drops the room, its members join the room where it is."""
    first, second, third = start_cluster_node("n1"), start_cluster_node("n2"), start_cluster_node("n3")
    alice, bob, room_id = await seat_players_on_two_nodes(clients, first, second)
    dave = await clients(first, "dave")  # watches from the node that will sleep
    assert (await dave.request(type="join_room", room_id=room_id, as_="spectator"))["type"] == "room"
    assert (await alice.request(type="move", room_id=room_id, x=7, y=7))["type"] == "moved"

    os.kill(first.pid, signal.SIGSTOP)
    await until_owned_elsewhere(postgres_url, room_id, "n1")
    await asyncio.sleep(0.5)  # the new owner's notice waits in n1's subscription
    os.kill(first.pid, signal.SIGCONT)

    assert (await until_served(bob, type="move", room_id=room_id, x=8, y=8))["type"] == "moved"
    alice_elsewhere = await clients(third, "alice", alice.token)
    assert (await until_served(alice_elsewhere, type="move", room_id=room_id, x=7, y=8))["type"] == "moved"
    async with asyncio.timeout(TAKE_OVER_TIMEOUT_S):
        assert await board_once_told(dave, 3) == [(7, 7), (8, 8), (7, 8)]
    assert_nothing_stale(dave, room_id)


async def until_owned_elsewhere(database: str, room_id: str, node_id: str) -> None:
    """Wait until PostgreSQL says another node than `node_id` owns the room (it took it over)."""
    give_up_at = time.monotonic() + TAKE_OVER_TIMEOUT_S
    while await owner_of(database, room_id) == node_id:
        assert time.monotonic() < give_up_at, f"{node_id} still owns the room after {TAKE_OVER_TIMEOUT_S} s"
        await asyncio.sleep(0.1)


async def test_redis_restarted_with_owners_in_postgres_play_across_nodes_stops_then_resumes_with_nothing_lost(
    start_cluster_node: StartClusterNode, clients: Clients, postgres_url: str, redis_server: RedisServer
) -> None:
    first, second = start_cluster_node("n1"), start_cluster_node("n2")
    alice, bob, room_id = await seat_players_on_two_nodes(clients, first, second)
    played = [await alice.request(type="move", room_id=room_id, x=7, y=7)]

    await redis_server.stop()
    refused = await bob.request(type="move", room_id=room_id, x=8, y=8)
    assert refused["type"] == "error" and refused["code"] == "unavailable", refused
    await redis_server.start()

    played.append(await until_served(bob, type="move", room_id=room_id, x=8, y=8))
    played.append(await alice.request(type="move", room_id=room_id, x=7, y=8))
    assert [move["type"] for move in played] == ["moved"] * 3, played
    assert await board_once_told(bob, 3) == [(7, 7), (8, 8), (7, 8)]
    assert await stored_moves(postgres_url, played[0]["game_id"]) == [(m["x"], m["y"]) for m in played]


async def test_postgres_restarted_under_three_nodes_requests_are_unavailable_then_play_resumes_on_every_node(
    start_cluster_node: StartClusterNode, clients: Clients
) -> None:
    require_postgres()
    database = LocalPostgres.start()  # a server of its own, to restart
    try:
        first, second, third = (start_cluster_node(name, database.url) for name in ("n1", "n2", "n3"))
        alice, bob, room_id = await seat_players_on_two_nodes(clients, first, second)
        carol = await clients(third, "carol")
        played = [await alice.request(type="move", room_id=room_id, x=7, y=7)]

        database.stop()
        refused = [await bob.request(type="move", room_id=room_id, x=8, y=8), await carol.request(type="create_room")]
        assert [answer.get("code") for answer in refused] == ["unavailable"] * 2, refused
        database.start_again()

        played.append(await until_served(bob, type="move", room_id=room_id, x=8, y=8))
        played.append(await until_served(alice, type="move", room_id=room_id, x=7, y=8))
        assert [move["type"] for move in played] == ["moved"] * 3, played
        assert await stored_moves(database.url, played[0]["game_id"]) == [(m["x"], m["y"]) for m in played]
        opened = [await until_served(player, type="create_room") for player in (alice, bob, carol)]
        assert [answer["type"] for answer in opened] == ["room"] * 3, opened  # one on each node
    finally:
        database.remove()


def require_haproxy() -> None:
    if shutil.which("haproxy") is None:
        if os.environ.get("GOMOKU_CLUSTER_TESTS") == "required":
            pytest.fail("GOMOKU_CLUSTER_TESTS=required, but haproxy is not installed (apt-get install haproxy)")
        pytest.skip("haproxy is not installed (apt-get install haproxy)")


async def connect_through(proxy: LocalProxy, name: str, token: str | None = None) -> WireClient:
    """A client signed in through the proxy, trying again while the proxy still sends it to a node
    that has died (HAProxy answers 503 until its health checks have marked the node down)."""
    give_up_at = time.monotonic() + TAKE_OVER_TIMEOUT_S
    while True:
        try:
            wire = WireClient(await connect(f"ws://127.0.0.1:{proxy.port}/ws"))
        except (InvalidStatus, OSError):
            assert time.monotonic() < give_up_at, f"no node behind the proxy after {TAKE_OVER_TIMEOUT_S} s"
            await asyncio.sleep(0.1)
            continue
        await wire.hello(name, token)
        return wire


async def owner_of(database: str, room_id: str) -> str:
    """The node that owns the room, as PostgreSQL says."""
    connection = await asyncpg.connect(database)
    try:
        node_id: str = await connection.fetchval("SELECT node_id FROM room_owners WHERE room_id = $1", room_id)
    finally:
        await connection.close()
    return node_id


async def test_a_client_whose_node_dies_reconnects_through_the_proxy_and_goes_on_in_its_game(
    start_cluster_node: StartClusterNode, clients: Clients, postgres_url: str, tmp_path: Path
) -> None:
    require_haproxy()
    behind_proxy = {name: start_cluster_node(name) for name in ("n1", "n2")}
    proxy = LocalProxy.start([node.url for node in behind_proxy.values()], tmp_path)
    try:
        alice = await connect_through(proxy, "alice")
        bob = await clients(start_cluster_node("n3"), "bob")
        room_id = (await alice.request(type="create_room"))["room"]["room_id"]  # owned by alice's node
        assert (await bob.request(type="join_room", room_id=room_id, as_="player"))["you"] == "white"
        played = [await alice.request(type="move", room_id=room_id, x=7, y=7)]
        played.append(await bob.request(type="move", room_id=room_id, x=8, y=8))

        os.kill(behind_proxy[await owner_of(postgres_url, room_id)].pid, signal.SIGKILL)
        await alice.close()
        alice = await connect_through(proxy, "alice", alice.token)
        try:
            rejoined = await until_served(alice, type="join_room", room_id=room_id, as_="player")
            assert rejoined["you"] == "black" and len(rejoined["room"]["moves"]) == 2, rejoined
            played.append(await until_served(alice, type="move", room_id=room_id, x=7, y=8))
        finally:
            await alice.close()
        assert [move["type"] for move in played] == ["moved"] * 3, played
        assert await board_once_told(bob, 3) == [(7, 7), (8, 8), (7, 8)]
        assert await stored_moves(postgres_url, played[0]["game_id"]) == [(m["x"], m["y"]) for m in played]
    finally:
        proxy.stop()
