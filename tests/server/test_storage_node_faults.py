"""Faults of real server processes on one PostgreSQL: a node killed mid-game, a node paused past its
lease, the database restarted. Each node is a `gomoku-server` process stopped by its pid at the end.

Leases here are short (a heartbeat of 0.25 s, an expiry of 2 s), so that a take-over takes seconds;
a client whose room is being taken over is answered `unavailable` and asks again, every 0.1 s, as a
real client would (nothing announces the end of a lease: it is a matter of time)."""

from __future__ import annotations

import asyncio
import os
import signal
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from server.storage.database import Storage
from tests.cluster.services import require_postgres
from tests.server.server_harness import WireClient
from tools.local_services import LocalPostgres, ServerNode, stop_nodes

LEASE = ["--heartbeat-s", "0.25", "--lease-s", "2", "--bot-workers", "0"]
TAKE_OVER_TIMEOUT_S = 30.0
"""The longest a test waits for a room to be served again (the target is under 5 s)."""


@pytest.fixture
def start_node(tmp_path: Path) -> Iterator[Any]:
    nodes: list[ServerNode] = []

    def start(database: str, name: str) -> ServerNode:
        node = ServerNode.start(database, name, tmp_path / f"{name}.log", LEASE)
        nodes.append(node)
        return node

    yield start
    stop_nodes(nodes)


async def start_game(clients: Any, node: ServerNode) -> tuple[WireClient, WireClient, str]:
    alice, bob = await clients(node, "alice"), await clients(node, "bob")
    room_id = (await alice.request(type="create_room"))["room"]["room_id"]
    await bob.request(type="join_room", room_id=room_id)
    return alice, bob, room_id


async def until_served(player: WireClient, **request: Any) -> dict[str, Any]:
    """Ask until the answer is not `unavailable` (the room is being taken over)."""
    give_up_at = time.monotonic() + TAKE_OVER_TIMEOUT_S
    while (answer := await player.request(**request)).get("code") == "unavailable":
        assert time.monotonic() < give_up_at, f"still unavailable after {TAKE_OVER_TIMEOUT_S} s: {answer}"
        await asyncio.sleep(0.1)
    return answer


async def until_refused_as_elsewhere(player: WireClient, **request: Any) -> dict[str, Any]:
    """Ask until the node says another node serves the room (a node that lost its lease drops its
    rooms as soon as it notices; until then it refuses every write to them all the same)."""
    give_up_at = time.monotonic() + TAKE_OVER_TIMEOUT_S
    while (answer := await player.request(**request)).get("message") != "the room is served by another node":
        assert answer["type"] == "error", f"a node without its lease accepted {request}: {answer}"
        assert time.monotonic() < give_up_at, f"still served here after {TAKE_OVER_TIMEOUT_S} s: {answer}"
        await asyncio.sleep(0.1)
    return answer


async def stored_moves(database: str, game_id: str) -> list[tuple[int, int]]:
    storage = await Storage.open(database)
    record = await storage.game_record(game_id, None)
    await storage.close()
    assert record is not None
    return [(move.point.x, move.point.y) for move in record.moves]


async def test_a_game_goes_on_on_another_node_after_its_node_is_killed(
    postgres_url: str, start_node: Any, clients: Any
) -> None:
    first, second = start_node(postgres_url, "first"), start_node(postgres_url, "second")
    alice, bob, room_id = await start_game(clients, first)
    played = [await alice.request(type="move", room_id=room_id, move="h8")]
    played.append(await bob.request(type="move", room_id=room_id, move="j9"))

    os.kill(first.pid, signal.SIGKILL)
    killed_at = time.monotonic()
    alice = await clients(second, "alice", alice.token)
    await until_served(alice, type="join_room", room_id=room_id)
    played.append(await alice.request(type="move", room_id=room_id, move="h9"))
    took = time.monotonic() - killed_at

    print(f"\nkill -> next accepted move: {took:.2f} s")
    assert [move["type"] for move in played] == ["moved"] * 3
    stored = await stored_moves(postgres_url, played[0]["game_id"])
    assert stored == [(move["x"], move["y"]) for move in played]


async def test_a_node_paused_past_its_lease_has_its_late_move_refused_and_comes_back_owning_nothing(
    postgres_url: str, start_node: Any, clients: Any
) -> None:
    first, second = start_node(postgres_url, "first"), start_node(postgres_url, "second")
    alice, bob, room_id = await start_game(clients, first)
    played = [await alice.request(type="move", room_id=room_id, move="h8")]

    os.kill(first.pid, signal.SIGSTOP)
    alice_elsewhere = await clients(second, "alice", alice.token)
    await until_served(alice_elsewhere, type="join_room", room_id=room_id)  # the second node took it over
    late = asyncio.create_task(bob.request(type="move", room_id=room_id, move="j9"))  # waits in its socket
    os.kill(first.pid, signal.SIGCONT)

    assert (await late)["code"] == "unavailable"
    assert await stored_moves(postgres_url, played[0]["game_id"]) == [(played[0]["x"], played[0]["y"])]
    served_elsewhere = await until_refused_as_elsewhere(bob, type="move", room_id=room_id, move="j9")
    assert served_elsewhere["message"] == "the room is served by another node"
    bob_elsewhere = await clients(second, "bob", bob.token)
    assert (await bob_elsewhere.request(type="move", room_id=room_id, move="j9"))["type"] == "moved"


async def test_requests_are_unavailable_while_the_database_restarts_then_play_resumes(
    start_node: Any, clients: Any
) -> None:
    require_postgres()
    database = LocalPostgres.start()
    try:
        node = start_node(database.url, "only")
        alice, bob, room_id = await start_game(clients, node)
        played = [await alice.request(type="move", room_id=room_id, move="h8")]

        database.stop()
        assert (await bob.request(type="move", room_id=room_id, move="j9"))["code"] == "unavailable"
        database.start_again()

        await until_served(bob, type="join_room", room_id=room_id)
        played.append(await until_served(bob, type="move", room_id=room_id, move="j9"))
        assert played[1]["type"] == "moved"
        stored = await stored_moves(database.url, played[0]["game_id"])
        assert stored == [(move["x"], move["y"]) for move in played]
    finally:
        database.remove()
