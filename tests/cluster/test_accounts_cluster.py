"""Deleting an account on one node while its name holds a seat in a room another node serves.

Real server processes on one SQLite file and a real Redis (`start_node`): the room waits for an
opponent on node 1 (no game is stored yet), and the account is deleted from node 2.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from tests.cluster.conftest import Node

StartNode = Callable[[str], Awaitable[Node]]


async def test_an_account_seated_in_a_room_on_another_node_is_not_deleted(start_node: StartNode) -> None:
    first, second = await start_node("n1"), await start_node("n2")
    alice_here = await first.client("alice")
    await alice_here.request(type="create_room")
    alice_there = await second.client("alice", alice_here.token)

    refused = await alice_there.request(type="delete_account")

    assert refused["type"] == "error" and refused["code"] == "not_allowed", refused
    assert (await alice_there.request(type="get_account"))["name"] == "alice"
