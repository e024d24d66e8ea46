"""A server stopped and started again on the same database: clocks, finished rooms and rematches."""

from __future__ import annotations

import asyncio

from server_harness import ClientFactory, ServerFactory


async def test_time_spent_thinking_before_a_shutdown_stays_spent(
    start_server: ServerFactory, client: ClientFactory
) -> None:
    first = await start_server()
    alice = await client("alice", server=first)
    bob = await client("bob", server=first)
    room_id = (await alice.request(type="create_room", clock={"initial_ms": 60_000, "increment_ms": 0}))["room"][
        "room_id"
    ]
    await bob.request(type="join_room", room_id=room_id)
    await asyncio.sleep(1.5)  # black thinks
    await first.stop()

    second = await start_server()
    back = await client("alice", server=second)
    snapshot = await back.request(type="join_room", room_id=room_id)
    assert snapshot["room"]["clock"]["black_ms"] <= 58_500
    assert snapshot["room"]["clock"]["white_ms"] == 60_000


async def test_a_finished_room_comes_back_after_a_restart_for_a_rematch(
    start_server: ServerFactory, client: ClientFactory
) -> None:
    first = await start_server()
    alice = await client("alice", server=first)
    bob = await client("bob", server=first)
    room_id = (await alice.request(type="create_room"))["room"]["room_id"]
    await bob.request(type="join_room", room_id=room_id)
    await alice.request(type="resign", room_id=room_id)
    await first.stop()

    second = await start_server()
    alice = await client("alice", server=second)
    bob = await client("bob", server=second)
    back = await alice.request(type="join_room", room_id=room_id)
    assert back["type"] == "room" and back["room"]["status"] == "finished"
    assert back["room"]["result"]["reason"] == "resign"
    await bob.request(type="join_room", room_id=room_id)
    assert (await alice.request(type="rematch", room_id=room_id))["type"] == "rematch_offered"
    new_game = await bob.request(type="rematch", room_id=room_id)
    assert new_game["type"] == "room" and new_game["room"]["status"] == "playing"
    assert new_game["you"] == "black"


async def test_a_room_brought_back_shows_its_players_ratings_as_stored(
    start_server: ServerFactory, client: ClientFactory
) -> None:
    first = await start_server()
    alice = await client("alice", server=first)
    bob = await client("bob", server=first)
    room_id = (await alice.request(type="create_room", rated=True))["room"]["room_id"]
    await bob.request(type="join_room", room_id=room_id)
    await first.stop()

    second = await start_server()
    carol = await client("carol", server=second)
    room = (await carol.request(type="join_room", room_id=room_id, **{"as": "spectator"}))["room"]
    seats = [room["black"], room["white"]]
    assert [(seat["name"], seat.get("rating"), seat.get("games")) for seat in seats] == [
        ("alice", 1500, 0),
        ("bob", 1500, 0),
    ]


async def test_two_bots_pause_between_their_moves_so_that_people_can_watch(
    start_server: ServerFactory, client: ClientFactory
) -> None:
    server = await start_server(bot_workers=1, bot_move_pause_s=0.4)
    carol = await client("carol", server=server)
    created = await carol.request(type="create_room", black={"bot": "greedy"}, white={"bot": "greedy"})
    for _ in range(4):
        await carol.expect_next("moved")
    record = (await carol.request(type="get_game", game_id=created["room"]["game_id"]))["record"]
    thinking = [move["time_ms"] for move in record["moves"]]
    assert len(thinking) >= 4 and min(thinking) >= 400, thinking
    await carol.request(type="leave_room", room_id=created["room"]["room_id"])


async def test_a_rooms_seq_never_goes_backwards_across_a_restart(
    start_server: ServerFactory, client: ClientFactory
) -> None:
    """Events the stopped server sent but did not store (an offer declined, chat) raised the seq
    too: the room brought back starts above anything it can have sent."""
    first = await start_server()
    alice = await client("alice", server=first)
    bob = await client("bob", server=first)
    room_id = (await alice.request(type="create_room"))["room"]["room_id"]
    await bob.request(type="join_room", room_id=room_id)
    await alice.request(type="move", room_id=room_id, move="h8")
    await alice.request(type="offer_draw", room_id=room_id)
    declined = await bob.request(type="answer_draw", room_id=room_id, accept=False)
    assert declined["type"] == "declined", declined
    await first.stop()

    second = await start_server()
    back = await client("bob", server=second)
    snapshot = await back.request(type="join_room", room_id=room_id)
    assert snapshot["room"]["seq"] > declined["seq"]
    moved = await back.request(type="move", room_id=room_id, move="j9")
    assert moved["seq"] == snapshot["room"]["seq"] + 1
