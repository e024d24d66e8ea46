"""Two server nodes on one PostgreSQL, in one process: each serves the rooms it owns; a room the other
node serves is answered `unavailable`; once its node has stopped, the room is taken over where it is
asked for, and play goes on with every move kept."""

from __future__ import annotations

import pytest
from server_harness import ClientFactory, ServerFactory


@pytest.fixture
def db_path(postgres_url: str) -> str:
    return postgres_url


async def test_a_room_is_served_by_its_node_and_taken_over_when_that_node_stops(
    start_server: ServerFactory, client: ClientFactory
) -> None:
    first, second = await start_server(), await start_server()
    alice, bob = await client("alice", server=first), await client("bob", server=first)
    room_id = (await alice.request(type="create_room"))["room"]["room_id"]
    await bob.request(type="join_room", room_id=room_id)
    await alice.request(type="move", room_id=room_id, move="h8")

    carol = await client("carol", server=second)
    refused = await carol.request(type="join_room", room_id=room_id)
    assert (refused["code"], refused["message"]) == ("unavailable", "the room is served by another node")

    await first.stop()
    bob_again = await client("bob", server=second)
    snapshot = await bob_again.request(type="join_room", room_id=room_id)
    assert snapshot["room"]["moves"] == [{"x": 7, "y": 7, "color": "black"}]
    assert (await bob_again.request(type="move", room_id=room_id, move="j9"))["type"] == "moved"
    record = await second.app.storage.game_record(snapshot["room"]["game_id"], None)
    assert record is not None and len(record.moves) == 2
