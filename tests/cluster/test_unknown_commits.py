"""A commit whose answer is lost (issue 41): the room answers what is stored, and goes on from it.

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
from collections.abc import AsyncIterator, Callable
from typing import Any
from urllib.parse import urlsplit

import pytest

from tests.cluster.conftest import StartClusterNode
from tests.server.test_storage_node_faults import stored_moves, until_served
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
