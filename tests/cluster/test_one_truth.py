"""Every node tells a player's standing as the database holds it (issue 41, "One truth per fact").

Three real nodes on PostgreSQL and Redis. A rated game is rated once, in the
transaction that stores its result, by whichever node holds its room; the
other nodes kept the standings of their players online in a cache of their
own, so that signing in again on them answered `welcome` with the rating of
before the game (1500, 0 games), still seconds later. Standings are now read
from the database wherever they are shown.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any
from urllib.request import urlopen

from tests.cluster.conftest import StartClusterNode
from tests.server.server_harness import WireClient
from tools.local_services import ServerNode

Clients = Callable[..., Any]
FIRST_MOVES = {"black": (7, 7), "white": (8, 8)}


async def stored_standing(node: ServerNode, name: str) -> tuple[int, int]:
    """The player's rating and rated games as the node's HTTP API reads them from the database."""
    url = node.url.replace("ws://", "http://").removesuffix("/ws") + f"/api/players/{name}"
    body = await asyncio.to_thread(_get, url)
    return body["rating"], body["games"]


def _get(url: str) -> dict[str, Any]:
    with urlopen(url, timeout=10) as response:
        answer: dict[str, Any] = json.loads(response.read())
    return answer


async def welcomed_standing(clients: Clients, node: ServerNode, name: str, token: str) -> tuple[int, int]:
    """The rating and games a fresh sign-in on `node` is told in its `welcome`."""
    welcome = (await clients(node, name, token)).seen[0]
    assert welcome["type"] == "welcome", welcome
    return welcome["player"]["rating"], welcome["player"]["games"]


async def rated_game_begun(owner: WireClient, joiner: WireClient) -> str:
    """`owner` opens a rated room (on its node), `joiner` sits as white, each plays a move (so that
    the game counts): the room's id."""
    room_id: str = (await owner.request(type="create_room", rated=True))["room"]["room_id"]
    assert (await joiner.request(type="join_room", room_id=room_id, as_="player"))["you"] == "white"
    assert (await owner.request(type="move", room_id=room_id, x=7, y=7))["type"] == "moved"
    assert (await joiner.request(type="move", room_id=room_id, x=8, y=8))["type"] == "moved"
    return room_id


async def test_after_a_rated_game_every_node_welcomes_its_player_with_the_stored_rating(
    start_cluster_node: StartClusterNode, clients: Clients
) -> None:
    nodes = [await asyncio.to_thread(start_cluster_node, name) for name in ("n1", "n2", "n3")]
    alice, bob = await clients(nodes[0], "alice"), await clients(nodes[1], "bob")
    await clients(nodes[2], "alice", alice.token)  # alice is online on n3 too
    room_id = await rated_game_begun(bob, alice)  # held by n2

    over = await alice.request(type="resign", room_id=room_id)
    assert over["type"] == "game_over", over
    stored = await stored_standing(nodes[0], "alice")
    assert stored[1] == 1 and stored[0] < 1500

    for node in nodes:
        assert await welcomed_standing(clients, node, "alice", alice.token) == stored, node.url


async def test_two_rated_games_of_one_player_ending_at_once_on_two_nodes_count_twice_everywhere(
    start_cluster_node: StartClusterNode, clients: Clients
) -> None:
    nodes = [await asyncio.to_thread(start_cluster_node, name) for name in ("n1", "n2", "n3")]
    alice = await clients(nodes[0], "alice")
    alice_again = await clients(nodes[0], "alice", alice.token)  # one connection per game
    bob, carol = await clients(nodes[1], "bob"), await clients(nodes[2], "carol")
    rooms = [await rated_game_begun(bob, alice), await rated_game_begun(carol, alice_again)]  # on n2 and n3

    resigning = zip((alice, alice_again), rooms, strict=True)
    ended = await asyncio.gather(*(player.request(type="resign", room_id=room_id) for player, room_id in resigning))
    assert [answer["type"] for answer in ended] == ["game_over", "game_over"], ended
    stored = await stored_standing(nodes[0], "alice")
    assert stored[1] == 2

    for node in nodes:
        assert await stored_standing(node, "alice") == stored
        assert await welcomed_standing(clients, node, "alice", alice.token) == stored, node.url
