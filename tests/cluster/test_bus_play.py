"""Any node takes any socket: players and spectators on two nodes, one room, its owner on one of them.

Real server processes share one SQLite file and a real Redis. The room is
opened on node 1 (which owns it); a player on node 2 and a spectator on node 3
reach it through the bus, and every member sees the same events in the same
order.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from typing import Any

import redis.asyncio as redis

from server.cluster.bus import BROADCAST
from tests.cluster.conftest import Node, RedisServer
from tests.server.server_harness import FIVE_FOR_BLACK, WireClient

StartNode = Callable[[str], Awaitable[Node]]


async def moves_seen(wire: WireClient, count: int) -> list[tuple[int, int, int]]:
    """The next `count` moves the client is told of, as (ply, x, y), skipping other messages."""
    seen = []
    while len(seen) < count:
        message = await wire.receive()
        if message["type"] == "moved":
            seen.append((message["ply"], message["x"], message["y"]))
    return seen


async def alice_on_node_1_and_bob_on_node_2_seated(start_node: StartNode) -> tuple[WireClient, WireClient, str, Node]:
    """Two nodes; alice opens a room on node 1 (black), bob on node 2 takes its other seat (white);
    the clients, the room and node 2."""
    first, second = await start_node("n1"), await start_node("n2")
    alice = await first.client("alice")
    bob = await second.client("bob")
    room_id = (await alice.request(type="create_room"))["room"]["room_id"]
    await bob.request(type="join_room", room_id=room_id, as_="player")
    return alice, bob, room_id, second


async def play(room_id: str, black: WireClient, white: WireClient, moves: list[tuple[int, int]]) -> None:
    for ply, (x, y) in enumerate(moves, start=1):
        answer = await (black if ply % 2 else white).request(type="move", room_id=room_id, x=x, y=y)
        assert answer["type"] == "moved", answer


async def test_a_game_between_players_on_two_nodes_watched_from_a_third(start_node: StartNode) -> None:
    first, second, third = await start_node("n1"), await start_node("n2"), await start_node("n3")
    alice = await first.client("alice")
    bob = await second.client("bob")
    carol = await third.client("carol")
    assert all("cluster" in wire.seen[0]["features"] for wire in (alice, bob, carol))  # a node of several says so
    room_id = (await alice.request(type="create_room", rated=True))["room"]["room_id"]

    joined = await bob.request(type="join_room", room_id=room_id, as_="player")
    assert joined["type"] == "room" and joined["you"] == "white" and joined["room"]["status"] == "playing"
    watching = await carol.request(type="join_room", room_id=room_id, as_="spectator")
    assert watching["you"] == "spectator"

    await play(room_id, alice, bob, FIVE_FOR_BLACK)
    expected = [(ply, x, y) for ply, (x, y) in enumerate(FIVE_FOR_BLACK, start=1)]
    assert await moves_seen(carol, len(expected)) == expected
    for wire in (alice, bob, carol):
        over = await wire.expect_next("game_over")
        assert over["result"]["winner"] == "black"


async def test_a_request_the_owner_refuses_is_answered_on_the_callers_node(start_node: StartNode) -> None:
    alice, bob, room_id, second = await alice_on_node_1_and_bob_on_node_2_seated(start_node)

    refused = await bob.request(type="move", room_id=room_id, x=7, y=7)
    assert refused["type"] == "error" and refused["code"] == "not_your_turn", refused
    missing = await bob.request(type="join_room", room_id="no-such-room")
    assert missing["type"] == "error" and missing["code"] == "not_found"


async def test_a_player_who_leaves_on_one_node_is_away_for_the_owner_and_back_on_return(
    start_node: StartNode,
) -> None:
    alice, bob, room_id, second = await alice_on_node_1_and_bob_on_node_2_seated(start_node)
    await bob.close()

    away: dict[str, Any] = await alice.expect_next("opponent_away")
    assert away["color"] == "white"
    bob_again = await second.client("bob", bob.token)
    state = await bob_again.request(type="join_room", room_id=room_id, as_="player")
    assert state["you"] == "white"
    back = await alice.expect_next("opponent_back")
    assert back["color"] == "white"


async def test_redis_restarted_play_across_nodes_stops_then_resumes_with_nothing_lost(
    start_node: StartNode, redis_server: RedisServer
) -> None:
    alice, bob, room_id, second = await alice_on_node_1_and_bob_on_node_2_seated(start_node)
    await play(room_id, alice, bob, FIVE_FOR_BLACK[:4])

    await redis_server.stop()
    refused = await bob.request(type="move", room_id=room_id, x=0, y=0)
    assert refused["type"] == "error" and refused["code"] == "unavailable", refused
    await redis_server.start()

    snapshot = await bob.expect_next("room")
    assert [(stone["x"], stone["y"]) for stone in snapshot["room"]["moves"]] == FIVE_FOR_BLACK[:4]
    answer = await alice.request(type="move", room_id=room_id, x=FIVE_FOR_BLACK[4][0], y=FIVE_FOR_BLACK[4][1])
    assert answer["type"] == "moved"
    assert (await moves_seen(bob, 1)) == [(5, *FIVE_FOR_BLACK[4])]


async def test_a_node_started_later_leaves_the_rooms_another_node_holds(start_node: StartNode) -> None:
    """Every node reads the same stored games at its start: a game going on at node 1 stays node 1's
    (node 2 does not bring back a second copy of it), and node 2's players play it through node 1."""
    first = await start_node("n1")
    alice = await first.client("alice")
    bob_first = await first.client("bob")
    room_id = (await alice.request(type="create_room"))["room"]["room_id"]
    await bob_first.request(type="join_room", room_id=room_id, as_="player")
    await play(room_id, alice, bob_first, FIVE_FOR_BLACK[:2])

    second = await start_node("n2")
    bob = await second.client("bob", bob_first.token)
    state = await bob.request(type="join_room", room_id=room_id, as_="player")
    assert state["you"] == "white" and len(state["room"]["moves"]) == 2
    (x, y) = FIVE_FOR_BLACK[2]
    assert (await alice.request(type="move", room_id=room_id, x=x, y=y))["ply"] == 3
    assert await moves_seen(bob, 1) == [(3, x, y)]
    (x, y) = FIVE_FOR_BLACK[3]
    assert (await bob.request(type="move", room_id=room_id, x=x, y=y))["ply"] == 4
    assert (await moves_seen(alice, 2))[-1] == (4, x, y)  # after bob's move on node 1


async def test_a_move_right_after_a_join_from_another_node_reaches_the_joiner(start_node: StartNode) -> None:
    """The owner sends a room's events to a node from the change that names it on, not from the
    node's count of its connections (which comes back later): the first move, made as soon as the
    joiner is answered, reaches the joiner. Eight rooms at once, to leave no room for luck."""
    first, second = await start_node("n1"), await start_node("n2")

    async def one_room(number: int) -> None:
        black = await first.client(f"black{number}")
        white = await second.client(f"white{number}")
        room_id = (await black.request(type="create_room"))["room"]["room_id"]
        await white.request(type="join_room", room_id=room_id, as_="player")
        await black.request(type="move", room_id=room_id, x=7, y=7)
        assert await moves_seen(white, 1) == [(1, 7, 7)]

    await asyncio.gather(*(one_room(number) for number in range(8)))


async def test_after_a_take_over_notice_the_members_on_other_nodes_get_a_fresh_snapshot(
    start_node: StartNode, redis_server: RedisServer
) -> None:
    """A node that takes a room over tells every node (`OwnerNotice` on the broadcast channel, sent
    here as that node would); the room's members elsewhere join it again and get its state."""
    alice, bob, room_id, _ = await alice_on_node_1_and_bob_on_node_2_seated(start_node)
    await play(room_id, alice, bob, FIVE_FOR_BLACK[:2])

    notice = [{"message": "OwnerNotice", "room_id": room_id, "node": "n1"}]
    publisher = redis.Redis.from_url(redis_server.url)
    await publisher.publish(BROADCAST, json.dumps(notice))
    await publisher.aclose()

    snapshot = await bob.expect_next("room")
    assert snapshot["you"] == "white" and "id" not in snapshot
    assert [(stone["x"], stone["y"]) for stone in snapshot["room"]["moves"]] == FIVE_FOR_BLACK[:2]


async def test_chat_in_a_room_held_by_another_node_reaches_every_member(start_node: StartNode) -> None:
    alice, bob, room_id, second = await alice_on_node_1_and_bob_on_node_2_seated(start_node)
    carol = await second.client("carol")
    await carol.request(type="join_room", room_id=room_id, as_="spectator")

    said = await bob.request(type="chat", room_id=room_id, text="good luck")
    assert said["type"] == "chat" and said["from"] == "bob" and said["room_id"] == room_id, said
    for member in (alice, carol):
        heard = await member.expect_next("chat")
        assert heard["text"] == "good luck" and "id" not in heard
    stranger = await second.client("dave")
    refused = await stranger.request(type="chat", room_id=room_id, text="hi")
    assert refused["type"] == "error" and refused["code"] == "not_allowed", refused
    missing = await stranger.request(type="chat", room_id="no-such-room", text="hi")
    assert missing["type"] == "error" and missing["code"] == "not_found", missing


async def test_a_player_with_tabs_on_two_nodes_is_away_only_when_both_have_closed(start_node: StartNode) -> None:
    """Each node's edge counts only its own connections; the room's node adds them up, counting a
    tab that enters from another node at once (before that node's count comes back). Six rooms at
    once, black's first tab closing as soon as its second has joined."""
    first, second = await start_node("n1"), await start_node("n2")

    async def one_room(number: int) -> None:
        black = await first.client(f"black{number}")
        white = await second.client(f"white{number}")
        room_id = (await black.request(type="create_room"))["room"]["room_id"]
        await white.request(type="join_room", room_id=room_id, as_="player")
        black_too = await second.client(f"black{number}", black.token)
        await black_too.request(type="join_room", room_id=room_id, as_="player")
        await black.close()
        refused = await white.request(type="move", room_id=room_id, x=0, y=0)  # not white's turn
        assert refused["type"] == "error", refused

        await black_too.close()
        away = await white.expect_next("opponent_away")
        assert away["color"] == "black"
        assert [message["type"] for message in white.seen].count("opponent_away") == 1, white.seen
        assert all(message["type"] != "opponent_back" for message in white.seen), white.seen

    await asyncio.gather(*(one_room(number) for number in range(6)))
