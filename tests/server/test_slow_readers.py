"""A client that never reads: the server never waits for it, and closes it once it falls too far behind."""

from __future__ import annotations

import asyncio
import json
import socket

from server_harness import ClientFactory, RunningServer, ServerFactory
from websockets.asyncio.client import ClientConnection, connect

from server.domain import Refusal
from server.edge.connections import SEND_QUEUE_LIMIT, Connection
from wire.messages import error_message


async def sluggard_of(server: RunningServer) -> tuple[ClientConnection, Connection]:
    """A client that never reads (a tiny receive buffer it never empties), signed in, and the
    server's side of it."""
    tiny = socket.socket()
    tiny.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    tiny.connect(("127.0.0.1", server.port))
    sluggard = await connect(server.ws_url, sock=tiny, max_queue=1)
    await sluggard.send(json.dumps({"type": "hello", "name": "sluggard", "id": 1}))
    async with asyncio.timeout(30):  # its welcome is never read: wait until the server has signed it in
        while not (signed := [known for known in server.app.connections.values() if known.player == "sluggard"]):
            await asyncio.sleep(0.05)
    (connection,) = signed
    return sluggard, connection


async def code_the_server_closed_with(connection: Connection) -> int | None:
    """The code of the close frame the server sent on the connection, once it is closed (its
    client may never read it: the close frame waits behind what it did not read)."""
    async with asyncio.timeout(60):
        await connection.websocket.wait_closed()
    sent = connection.websocket.protocol.close_sent
    return None if sent is None else sent.code


async def test_a_spectator_that_never_reads_is_closed_and_nobody_waits_for_it(
    start_server: ServerFactory, client: ClientFactory
) -> None:
    server = await start_server()
    alice = await client("alice", server=server)
    bob = await client("bob", server=server)
    room_id = (await alice.request(type="create_room"))["room"]["room_id"]
    await bob.request(type="join_room", room_id=room_id)
    sluggard, connection = await sluggard_of(server)

    flood = error_message(Refusal("not_allowed", "x" * 2_000), None)
    for _ in range(3_000):  # 6 MB it does not read; handing them over never waits
        server.app.deliver([(connection.id, flood)])

    assert await code_the_server_closed_with(connection) == 1013
    sluggard.transport.abort()
    assert (await alice.request(type="move", room_id=room_id, move="h8"))["type"] == "moved"
    assert (await bob.expect_next("moved"))["move"] == "h8"


async def test_a_client_that_never_reads_a_few_large_messages_is_closed_past_a_budget_of_bytes(
    start_server: ServerFactory,
) -> None:
    server = await start_server()
    sluggard, connection = await sluggard_of(server)

    large = error_message(Refusal("not_allowed", "x" * 60_000), None)
    for _ in range(SEND_QUEUE_LIMIT // 2):  # far fewer messages than the queue holds, but 15 MB
        server.app.deliver([(connection.id, large)])

    assert await code_the_server_closed_with(connection) == 1013, "not the keepalive's 1011: the budget's 1013"
    sluggard.transport.abort()
