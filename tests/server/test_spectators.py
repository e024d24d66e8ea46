"""Many spectators: joining costs everyone little, and a move reaches every one of them."""

from __future__ import annotations

import asyncio
from typing import Any

from server_harness import ClientFactory, RunningServer, ServerFactory, WireClient
from websockets.asyncio.client import connect

from server.hub.services import Limits

CROWD = 200


async def watch(server: RunningServer, room_id: str, index: int) -> WireClient:
    wire = WireClient(await connect(server.ws_url))
    await wire.hello(f"fan{index}")
    reply = await wire.request(type="join_room", room_id=room_id, as_="spectator")
    assert reply["type"] == "room" and reply["you"] == "spectator"
    return wire


def counts(wire: WireClient) -> list[int]:
    return [message["count"] for message in wire.seen if message["type"] == "spectators"]


async def test_a_crowd_joining_sends_few_count_updates_and_every_move_reaches_it(
    start_server: ServerFactory, client: ClientFactory
) -> None:
    server = await start_server(limits=Limits(new_names_per_address_per_hour=CROWD + 2))
    alice = await client("alice", server=server)
    bob = await client("bob", server=server)
    room_id = (await alice.request(type="create_room"))["room"]["room_id"]
    await bob.request(type="join_room", room_id=room_id)

    crowd = await asyncio.gather(*(watch(server, room_id, index) for index in range(CROWD)))
    await asyncio.sleep(1.5)  # the last count update is due within a second
    await alice.request(type="move", room_id=room_id, move="h8")

    moved: list[dict[str, Any]] = await asyncio.gather(*(fan.expect_next("moved") for fan in crowd))
    assert all(message["move"] == "h8" for message in moved)
    await bob.expect_next("moved")
    assert len(counts(bob)) <= 10, f"{len(counts(bob))} count updates for {CROWD} joins"
    assert counts(bob)[-1] == CROWD
    received = sum(len(counts(fan)) for fan in crowd)
    assert received <= 10 * CROWD, f"{received} count updates in all, for {CROWD} joins"
    for fan in crowd:
        await fan.close()
