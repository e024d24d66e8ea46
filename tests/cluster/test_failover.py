"""The cluster whole: PostgreSQL owns the rooms under leases, Redis carries them between nodes, and a
game survives the SIGKILL of the node that owns it (issue 29, "Done when").

Real processes: a throw-away PostgreSQL, a `redis-server` and three `gomoku-server` nodes, each
stopped by its pid. Leases are short (a heartbeat of 0.25 s, an expiry of 2 s) so that a take-over
takes seconds; a client whose room is being taken over is answered `unavailable` and asks again,
as a real client would.
"""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Callable
from typing import Any

from tests.cluster.conftest import StartClusterNode
from tests.server.server_harness import WireClient
from tests.server.test_storage_node_faults import stored_moves, until_served


def board_as_told(wire: WireClient) -> list[tuple[int, int]]:
    """The moves the client knows of, from what it has been told: each `room` snapshot gives them
    all, and each `moved` after it must add the next ply (none missed, none told twice)."""
    moves: list[tuple[int, int]] = []
    for message in wire.seen:
        if message["type"] == "room":
            moves = [(stone["x"], stone["y"]) for stone in message["room"]["moves"]]
        elif message["type"] == "moved":
            assert message["ply"] == len(moves) + 1, f"told ply {message['ply']} after {len(moves)} moves"
            moves.append((message["x"], message["y"]))
    return moves


async def board_once_told(wire: WireClient, plies: int) -> list[tuple[int, int]]:
    """The client's board (`board_as_told`) once it holds `plies` moves."""
    while len(board_as_told(wire)) < plies:
        await wire.receive()
    return board_as_told(wire)


async def test_a_game_across_nodes_survives_the_sigkill_of_its_owner_with_nothing_lost(
    start_cluster_node: StartClusterNode, clients: Callable[..., Any], postgres_url: str
) -> None:
    first, second, third = start_cluster_node("n1"), start_cluster_node("n2"), start_cluster_node("n3")
    alice, bob, carol = await clients(first, "alice"), await clients(second, "bob"), await clients(third, "carol")
    room_id = (await alice.request(type="create_room"))["room"]["room_id"]  # owned by n1
    assert (await bob.request(type="join_room", room_id=room_id, as_="player"))["you"] == "white"
    assert (await carol.request(type="join_room", room_id=room_id, as_="spectator"))["type"] == "room"
    played = [await alice.request(type="move", room_id=room_id, x=7, y=7)]
    played.append(await bob.request(type="move", room_id=room_id, x=8, y=8))
    assert await board_once_told(carol, 2) == [(7, 7), (8, 8)]

    os.kill(first.pid, signal.SIGKILL)
    killed_at = time.monotonic()
    alice = await clients(third, "alice", alice.token)  # reconnects to another node
    rejoined = await until_served(alice, type="join_room", room_id=room_id, as_="player")
    assert rejoined["type"] == "room" and rejoined["you"] == "black", rejoined
    assert [(m["x"], m["y"]) for m in rejoined["room"]["moves"]] == [(7, 7), (8, 8)]
    assert rejoined["room"]["seq"] > max(m.get("seq", 0) for m in bob.seen + carol.seen)  # never backwards
    played.append(await until_served(alice, type="move", room_id=room_id, x=7, y=8))
    took = time.monotonic() - killed_at
    print(f"\nkill -> next accepted move: {took:.2f} s")

    assert [move["type"] for move in played] == ["moved"] * 3, played
    after_the_kill = [(7, 7), (8, 8), (7, 8)]
    assert await board_once_told(bob, 3) == after_the_kill  # the player on n2 knows it, once
    assert await board_once_told(carol, 3) == after_the_kill  # and the spectator on n3
    played.append(await bob.request(type="move", room_id=room_id, x=9, y=9))
    assert played[-1]["type"] == "moved", played[-1]
    stored = await stored_moves(postgres_url, played[0]["game_id"])
    assert stored == [(move["x"], move["y"]) for move in played]
