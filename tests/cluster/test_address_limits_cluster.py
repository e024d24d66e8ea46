"""`--max-connections-per-address` caps an address's open connections over every node together: each
node shares its counts through Redis, a dead node's stop counting with its lease, and while Redis
is away each node caps by its own count alone.

Real processes: Redis and two nodes, on SQLite and on PostgreSQL (short leases), stopped by pid.
Every connection here comes from 127.0.0.1.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import time
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from tests.cluster.conftest import RedisServer, StartClusterNode
from tools.local_services import ServerNode

CAP = ("--max-connections-per-address", "2")
PATIENCE_S = 20.0
"""How long a change of the counts may take to reach the other node (a dead node's: its lease)."""


async def opened(node: ServerNode, request: dict[str, Any]) -> tuple[ClientConnection, dict[str, Any]]:
    """A connection to the node sending `request`, and the first thing the node answers: the answer,
    or the `limit_reached` error it sends before closing a connection over the cap."""
    websocket = await connect(node.url)
    with contextlib.suppress(ConnectionClosed):  # refused: the node may have closed it already
        await websocket.send(json.dumps(request))
    return websocket, json.loads(await websocket.recv())  # what came before the close is still read


async def admitted(node: ServerNode, name: str) -> ClientConnection:
    websocket, answer = await opened(node, {"type": "hello", "name": name})
    assert answer["type"] == "welcome", answer
    return websocket


async def answer_before_hello(node: ServerNode) -> dict[str, Any]:
    """What the node answers a connection that asks before saying hello: `unauthorized` if admitted,
    `limit_reached` over the cap."""
    websocket, answer = await opened(node, {"type": "list_rooms"})
    await websocket.close()
    assert answer["type"] == "error" and answer["code"] in ("unauthorized", "limit_reached"), answer
    return answer


async def until_refused(node: ServerNode) -> str:
    """The refusal of a connection to the node, once the counts of the other node have reached it."""
    give_up_at = time.monotonic() + PATIENCE_S
    while (answer := await answer_before_hello(node))["code"] != "limit_reached":
        assert time.monotonic() < give_up_at, f"{node.url} still admits connections over the cap"
        await asyncio.sleep(0.05)
    return str(answer["message"])


async def until_admitted(node: ServerNode, name: str) -> ClientConnection:
    """A connection the node admits, once the connections that have gone elsewhere stop counting."""
    give_up_at = time.monotonic() + PATIENCE_S
    while True:
        websocket, answer = await opened(node, {"type": "hello", "name": name})
        if answer["type"] == "welcome":
            return websocket
        await websocket.close()
        assert time.monotonic() < give_up_at, f"{node.url} still refuses connections under the cap: {answer}"
        await asyncio.sleep(0.05)


async def test_the_cap_counts_an_addresss_connections_on_every_node(
    start_cluster_node: StartClusterNode, database: str
) -> None:
    first, second = start_cluster_node("n1", database, CAP), start_cluster_node("n2", database, CAP)
    on_first = await admitted(first, "alice")
    on_second = await admitted(second, "bob")
    assert await until_refused(first) == "2 connections from your address are open, the most allowed"
    assert (await answer_before_hello(second))["code"] == "limit_reached"

    await on_first.close()  # one of the two gone: one more may open, on either node
    again = await until_admitted(second, "carol")
    assert (await answer_before_hello(first))["code"] == "limit_reached"
    for websocket in (on_second, again):
        await websocket.close()


async def test_a_dead_nodes_connections_stop_counting_with_its_lease(
    start_cluster_node: StartClusterNode, postgres_url: str
) -> None:
    first, second = start_cluster_node("n1", postgres_url, CAP), start_cluster_node("n2", postgres_url, CAP)
    kept = [await admitted(second, "alice"), await admitted(second, "bob")]
    await until_refused(first)

    os.kill(second.pid, signal.SIGKILL)
    await (await until_admitted(first, "carol")).close()
    for websocket in kept:
        await websocket.close()


async def test_with_redis_away_each_node_caps_by_its_own_connections(
    start_cluster_node: StartClusterNode, redis_server: RedisServer, postgres_url: str
) -> None:
    first, second = start_cluster_node("n1", postgres_url, CAP), start_cluster_node("n2", postgres_url, CAP)
    kept = [await admitted(second, "alice"), await admitted(second, "bob")]
    await until_refused(first)

    await redis_server.stop()
    kept += [await until_admitted(first, "carol"), await until_admitted(first, "dave")]
    assert (await answer_before_hello(first))["code"] == "limit_reached"  # its own two
    for websocket in kept:
        await websocket.close()
