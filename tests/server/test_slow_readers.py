"""A client that never reads: the server never waits for it, and closes it once it falls too far behind."""

from __future__ import annotations

import asyncio
import json
import socket

from server_harness import ClientFactory, ServerFactory
from websockets.asyncio.client import connect

from server.domain import Refusal
from wire.messages import error_message


async def test_a_spectator_that_never_reads_is_closed_and_nobody_waits_for_it(
    start_server: ServerFactory, client: ClientFactory
) -> None:
    server = await start_server()
    alice = await client("alice", server=server)
    bob = await client("bob", server=server)
    room_id = (await alice.request(type="create_room"))["room"]["room_id"]
    await bob.request(type="join_room", room_id=room_id)

    tiny = socket.socket()
    tiny.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    tiny.connect(("127.0.0.1", server.port))
    sluggard = await connect(server.ws_url, sock=tiny, max_queue=1)
    await sluggard.send(json.dumps({"type": "hello", "name": "sluggard", "id": 1}))
    async with asyncio.timeout(30):  # its welcome is never read: wait until the server has signed it in
        while not (signed := [known for known in server.app.connections.values() if known.player == "sluggard"]):
            await asyncio.sleep(0.05)
    (connection,) = signed

    flood = error_message(Refusal("not_allowed", "x" * 2_000), None)
    for _ in range(3_000):  # 6 MB it does not read; handing them over never waits
        server.app.deliver([(connection.id, flood)])

    async with asyncio.timeout(60):
        await sluggard.wait_closed()
    assert sluggard.close_code in (1013, 1006)  # 1006: the close frame could not get through its full buffer
    assert (await alice.request(type="move", room_id=room_id, move="h8"))["type"] == "moved"
    assert (await bob.expect_next("moved"))["move"] == "h8"
