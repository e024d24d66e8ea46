"""A move whose answer is lost (issue 41): the player is told what is stored, and the game goes on from it.

A node on PostgreSQL through the test's own TCP proxy (`tools.fault_proxy`),
which lets one commit reach the server and closes the node's connection
before the server's answer comes back: the move is stored, and the node
cannot know it but by reading it back. Before the fix the player was told
`unavailable` about a move that counts, and the room, still on the old
board, answered every later move `internal` (a duplicate key on the moves'
primary key) until the game ended.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable
from typing import Any
from urllib.parse import urlsplit

import pytest

from tests.cluster.conftest import RedisServer, StartClusterNode
from tests.server.server_harness import WireClient
from tests.server.test_storage_node_faults import TAKE_OVER_TIMEOUT_S, stored_moves, until_served
from tools.fault_proxy import FaultProxy

Clients = Callable[..., Any]


def through(url: str, port: int) -> str:
    """The database URL `url`, reached through a proxy listening on `port` of loopback."""
    parts = urlsplit(url)
    return parts._replace(netloc=f"{parts.username}@127.0.0.1:{port}").geturl()


@pytest.fixture
async def database_proxy(postgres_url: str) -> AsyncIterator[FaultProxy]:
    """A fault proxy in front of the test's PostgreSQL."""
    proxy = await FaultProxy.start("127.0.0.1", urlsplit(postgres_url).port or 5432)
    yield proxy
    await proxy.close()


async def test_a_move_whose_commit_answer_is_lost_is_told_as_stored_and_the_game_goes_on(
    start_cluster_node: StartClusterNode, clients: Clients, postgres_url: str, database_proxy: FaultProxy
) -> None:
    node = await asyncio.to_thread(start_cluster_node, "n1", through(postgres_url, database_proxy.port))
    alice, bob = await clients(node, "alice"), await clients(node, "bob")
    room_id = (await alice.request(type="create_room"))["room"]["room_id"]
    assert (await bob.request(type="join_room", room_id=room_id, as_="player"))["you"] == "white"
    first = await alice.request(type="move", room_id=room_id, x=7, y=7)
    game_id = first["game_id"]

    database_proxy.lose_commit_answer(game_id.encode())
    lost = await until_served(bob, type="move", room_id=room_id, x=8, y=8)
    assert database_proxy.commits_lost == 1
    assert lost["type"] == "moved", f"a move stored was answered {lost}"
    assert await stored_moves(postgres_url, game_id) == [(7, 7), (8, 8)]

    after = await until_served(alice, type="move", room_id=room_id, x=7, y=8)
    assert after["type"] == "moved", after
    assert await stored_moves(postgres_url, game_id) == [(7, 7), (8, 8), (7, 8)]


async def answer_to(wire: WireClient, request_id: str) -> dict[str, Any]:
    """The message answering the request `request_id` (others are read and kept in `seen`)."""
    while (message := await wire.receive()).get("id") != request_id:
        pass
    return message


async def until_stored(database: str, game_id: str, moves: list[tuple[int, int]]) -> None:
    give_up_at = time.monotonic() + TAKE_OVER_TIMEOUT_S
    while await stored_moves(database, game_id) != moves:
        assert time.monotonic() < give_up_at, f"not stored: {moves}"
        await asyncio.sleep(0.1)


async def test_a_forwarded_move_stored_by_an_owner_that_never_answered_is_told_as_played_by_the_next_owner(
    start_cluster_node: StartClusterNode,
    clients: Clients,
    postgres_url: str,
    database_proxy: FaultProxy,
    redis_server: RedisServer,
) -> None:
    bus_proxy = await FaultProxy.start("127.0.0.1", urlsplit(redis_server.url).port or 6379)
    try:
        bus = ["--bus", f"redis://127.0.0.1:{bus_proxy.port}/0"]
        owner = await asyncio.to_thread(start_cluster_node, "n1", through(postgres_url, database_proxy.port), bus)
        second, third = [await asyncio.to_thread(start_cluster_node, name) for name in ("n2", "n3")]
        alice, bob = await clients(owner, "alice"), await clients(second, "bob")
        await clients(third, "carol")
        room_id = (await alice.request(type="create_room"))["room"]["room_id"]  # held by n1
        assert (await bob.request(type="join_room", room_id=room_id, as_="player"))["you"] == "white"
        game_id = (await alice.request(type="move", room_id=room_id, x=7, y=7))["game_id"]

        bus_proxy.cut_after_delivering(b"answer-me-once")  # n1 gets bob's move, stores it, cannot answer
        await bob.send(id="answer-me-once", type="move", room_id=room_id, x=8, y=8)
        await until_stored(postgres_url, game_id, [(7, 7), (8, 8)])
        database_proxy.cut()  # n1 loses its lease: another node takes the room over from the store

        answer = await answer_to(bob, "answer-me-once")
        assert answer["type"] == "moved" and answer["ply"] == 2, f"a move stored was answered {answer}"
        after = await until_served(bob, type="move", room_id=room_id, x=9, y=9)
        assert after["type"] == "error" and after["code"] == "not_your_turn", after
        assert await stored_moves(postgres_url, game_id) == [(7, 7), (8, 8)]
    finally:
        await bus_proxy.close()
