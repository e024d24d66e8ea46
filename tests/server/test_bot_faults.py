"""Bot worker processes dying under the server: the game goes on, and analysis is answered, never `internal`."""

from __future__ import annotations

import os
import signal

from server_harness import ClientFactory, ServerFactory, wait_for_worker


async def test_analysis_survives_its_worker_being_killed(start_server: ServerFactory, client: ClientFactory) -> None:
    server = await start_server(bot_workers=1, analysis_level="hard")
    carol = await client("carol", server=server)
    created = await carol.request(type="create_room", black="me", white={"bot": "greedy"})
    await carol.send(type="analyze", room_id=created["room"]["room_id"], time_ms=2_000, id="look")
    os.kill(await wait_for_worker(), signal.SIGKILL)

    reply = await carol.receive()
    assert reply["id"] == "look" and reply["type"] == "analysis", reply


async def test_a_bot_whose_worker_is_killed_mid_search_still_moves(
    start_server: ServerFactory, client: ClientFactory
) -> None:
    server = await start_server(bot_workers=1, bot_time_ms=2_000)
    alice = await client("alice", server=server)
    room_id = (await alice.request(type="create_room", white={"bot": "hard"}))["room"]["room_id"]
    await alice.request(type="move", room_id=room_id, move="h8")
    os.kill(await wait_for_worker(), signal.SIGKILL)

    reply = await alice.expect_next("moved")
    assert (reply["ply"], reply["color"]) == (2, "white")
