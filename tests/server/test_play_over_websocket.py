"""Whole games against a real server on 127.0.0.1 with real websocket clients and a real SQLite file."""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any

from server_harness import ClientFactory, RunningServer, ServerFactory, WireClient
from websockets.exceptions import ConnectionClosed

from server.hub.services import Limits

FIVE_FOR_BLACK = [(7, 7), (7, 8), (8, 7), (8, 8), (9, 7), (9, 8), (10, 7), (10, 8), (11, 7)]


async def open_game(client: ClientFactory, **room: Any) -> tuple[WireClient, WireClient, str]:
    """Alice (black) creates a room, Bob (white) joins; both have read the start."""
    alice = await client("alice")
    bob = await client("bob")
    created = await alice.request(type="create_room", black="me", white="open", **room)
    room_id: str = created["room"]["room_id"]
    joined = await bob.request(type="join_room", room_id=room_id, as_="player")
    assert joined["you"] == "white" and joined["room"]["status"] == "playing"
    started = await alice.expect("room")
    assert started["room"]["status"] == "playing"
    return alice, bob, room_id


async def test_a_full_game_to_five_with_a_spectator_who_sees_every_event_in_order(client: ClientFactory) -> None:
    alice, bob, room_id = await open_game(client)
    carol = await client("carol")
    watching = await carol.request(type="join_room", room_id=room_id, as_="spectator")
    assert watching["you"] == "spectator"
    await carol.expect("spectators", count=1)
    await alice.expect("spectators", count=1)
    await bob.expect("spectators", count=1)

    for ply, (x, y) in enumerate(FIVE_FOR_BLACK, start=1):
        mover, other = (alice, bob) if ply % 2 else (bob, alice)
        echoed = await mover.request(type="move", room_id=room_id, x=x, y=y)
        assert (echoed["type"], echoed["ply"], echoed["x"], echoed["y"]) == ("moved", ply, x, y)
        await other.expect("moved", ply=ply)

    over = await alice.expect("game_over")
    assert over["result"]["winner"] == "black" and over["result"]["reason"] == "five"
    assert over["result"]["line"] == [[7, 7], [8, 7], [9, 7], [10, 7], [11, 7]]

    events = [await carol.receive() for _ in range(len(FIVE_FOR_BLACK) + 1)]
    assert [event["type"] for event in events] == ["moved"] * 9 + ["game_over"]
    assert [event["seq"] for event in events] == list(range(1, 11))
    assert [(event["x"], event["y"]) for event in events[:-1]] == FIVE_FOR_BLACK
    assert [event["color"] for event in events[:-1]] == ["black", "white"] * 4 + ["black"]
    assert events[0]["move"] == "h8"


async def test_moves_in_notation_and_the_errors_of_play(client: ClientFactory) -> None:
    alice, bob, room_id = await open_game(client, rule="renju")
    assert (await alice.request(type="move", room_id=room_id, move="h8"))["x"] == 7
    await bob.expect("moved")
    assert (await alice.request(type="move", room_id=room_id, move="a1"))["code"] == "not_your_turn"
    assert (await bob.request(type="move", room_id=room_id, move="h8"))["code"] == "occupied"
    assert (await bob.request(type="move", room_id=room_id, x=15, y=0))["code"] == "out_of_board"
    assert (await bob.request(type="move", room_id="nowhere", x=1, y=1))["code"] == "not_found"
    carol = await client("carol")
    assert (await carol.request(type="move", room_id=room_id, x=1, y=1))["code"] == "not_a_player"
    assert (await carol.request(type="offer_draw", room_id=room_id))["code"] == "not_a_player"


async def test_renju_rejects_a_forbidden_double_three(client: ClientFactory) -> None:
    alice, bob, room_id = await open_game(client, rule="renju")
    black = ["f8", "g8", "h10", "h9"]
    white = ["a1", "o1", "a15", "o15"]
    for black_move, white_move in zip(black, white, strict=True):
        await alice.request(type="move", room_id=room_id, move=black_move)
        await bob.request(type="move", room_id=room_id, move=white_move)
    refused = await alice.request(type="move", room_id=room_id, move="h8")
    assert refused["type"] == "error" and refused["code"] == "forbidden"
    played = await alice.request(type="move", room_id=room_id, move="k11")
    assert played["type"] == "moved" and played["ply"] == 9


async def test_undo_draw_and_resign_flows(client: ClientFactory) -> None:
    alice, bob, room_id = await open_game(client)
    await alice.request(type="move", room_id=room_id, move="h8")
    await bob.request(type="move", room_id=room_id, move="j9")

    asked = await alice.request(type="request_undo", room_id=room_id)
    assert (asked["type"], asked["by"]) == ("undo_requested", "black")
    assert (await bob.expect("moved", ply=1))["move"] == "h8"
    await bob.expect("undo_requested", by="black")
    undone = await bob.request(type="answer_undo", room_id=room_id, accept=True)
    assert undone["type"] == "undone" and undone["to_move"] == "black"
    assert [stone["color"] for stone in undone["removed"]] == ["white", "black"]
    assert (await alice.expect("moved", ply=2))["move"] == "j9"
    assert (await alice.expect("undone"))["seq"] == undone["seq"]

    offered = await alice.request(type="offer_draw", room_id=room_id)
    assert offered["type"] == "draw_offered"
    await bob.expect("draw_offered", by="black")
    declined = await bob.request(type="answer_draw", room_id=room_id, accept=False)
    assert (declined["type"], declined["what"]) == ("declined", "draw")
    assert (await bob.request(type="answer_draw", room_id=room_id, accept=True))["code"] == "no_pending_offer"

    resigned = await bob.request(type="resign", room_id=room_id)
    assert resigned["type"] == "game_over"
    assert resigned["result"] == {"winner": "black", "reason": "resign", "line": None}
    assert (await alice.request(type="resign", room_id=room_id))["code"] == "game_over"


async def test_a_clock_runs_out_with_nobody_sending(client: ClientFactory) -> None:
    alice, bob, room_id = await open_game(client, clock={"initial_ms": 600, "increment_ms": 0})
    await alice.request(type="move", room_id=room_id, move="h8")
    over = await bob.expect("moved")
    over = await bob.expect("game_over")
    assert over["result"] == {"winner": "black", "reason": "timeout", "line": None}
    assert (await alice.expect("game_over"))["seq"] == over["seq"]


async def test_a_dropped_player_comes_back_with_the_token(client: ClientFactory) -> None:
    alice, bob, room_id = await open_game(client)
    await alice.request(type="move", room_id=room_id, move="h8")
    await bob.close()
    seat = (await alice.expect("room"))["room"]["white"]
    assert (seat["name"], seat["kind"], seat["connected"]) == ("bob", "human", False)
    assert (seat["rating"], seat["rd"], seat["games"]) == (1500, 350, 0)
    away = await alice.expect("opponent_away")
    assert (away["color"], away["room_id"]) == ("white", room_id) and away["claim_at_ms"] > 0

    stranger = await client()
    assert (await stranger.request(type="hello", name="bob"))["code"] == "name_taken"
    assert (await stranger.request(type="hello", name="bob", token="guess"))["code"] == "unauthorized"

    bob_again = await client()
    welcome = await bob_again.hello("bob", bob.token)
    assert welcome["rooms"] == [room_id]
    back = await bob_again.request(type="join_room", room_id=room_id, as_="player")
    assert back["you"] == "white" and [stone["x"] for stone in back["room"]["moves"]] == [7]
    assert (await alice.expect("room"))["room"]["white"]["connected"] is True
    assert (await alice.expect("opponent_back"))["color"] == "white"
    assert (await bob_again.request(type="move", room_id=room_id, move="j9"))["type"] == "moved"


async def test_a_player_who_does_not_come_back_loses_by_abandonment(
    start_server: ServerFactory, client: ClientFactory
) -> None:
    quick = await start_server(abandon_after_s=0.5)
    alice = await client("alice", server=quick)
    bob = await client("bob", server=quick)
    room_id = (await alice.request(type="create_room"))["room"]["room_id"]
    await bob.request(type="join_room", room_id=room_id)
    await bob.close()
    while (message := await alice.receive())["type"] != "game_over":
        assert message["type"] in ("room", "spectators", "opponent_away")
    assert message["result"] == {"winner": "black", "reason": "abandoned", "line": None}


async def test_rooms_are_listed_joined_and_left(client: ClientFactory) -> None:
    alice = await client("alice")
    public = (await alice.request(type="create_room", rule="standard", size=19))["room"]["room_id"]
    private = (await alice.request(type="create_room", private=True))["room"]["room_id"]
    bob = await client("bob")
    listed = await bob.request(type="list_rooms")
    assert [room["room_id"] for room in listed["rooms"]] == [public]
    assert listed["rooms"][0]["rule"] == "standard" and listed["rooms"][0]["size"] == 19
    joined = await bob.request(type="join_room", room_id=private, as_="player")
    assert joined["you"] == "white"
    carol = await client("carol")
    assert (await carol.request(type="join_room", room_id=private, as_="player"))["code"] == "room_full"
    left = await bob.request(type="leave_room", room_id=private)
    assert left == {"type": "left", "room_id": private, "id": left["id"]}
    while (message := await alice.receive())["type"] != "game_over":
        pass
    assert message["result"]["reason"] == "resign" and message["result"]["winner"] == "black"


async def test_each_request_error_code(client: ClientFactory, game_server: RunningServer) -> None:
    anon = await client()
    await anon.websocket.send("{not json")
    assert (await anon.receive())["code"] == "bad_json"
    await anon.websocket.send("[1, 2]")
    assert (await anon.receive())["code"] == "bad_request"
    assert (await anon.request(type="dance"))["code"] == "unknown_type"
    assert (await anon.request(type="list_rooms"))["code"] == "unauthorized"
    assert (await anon.request(type="hello", name="no spaces"))["code"] == "bad_request"
    await anon.hello("dave")
    assert (await anon.request(type="move", room_id="r", x="7", y=7))["code"] == "bad_request"
    assert (await anon.request(type="create_room", size=4))["code"] == "bad_request"
    assert (await anon.request(type="create_room", black={"bot": "hard"}))["code"] == "not_allowed"
    assert (await anon.request(type="join_room", room_id="nope"))["code"] == "not_found"
    assert (await anon.request(type="get_game", game_id="nope"))["code"] == "not_found"
    assert (await anon.request(type="hello", name="dave"))["code"] == "not_allowed"
    waiting = (await anon.request(type="create_room"))["room"]["room_id"]
    assert (await anon.request(type="move", room_id=waiting, move="h8"))["code"] == "not_started"
    unknown = json.dumps({"type": "list_rooms", "id": "x1", "extra": {"ignored": True}})
    await anon.websocket.send(unknown)
    listed = await anon.receive()
    assert (listed["type"], listed["id"], [room["room_id"] for room in listed["rooms"]]) == ("rooms", "x1", [waiting])


async def test_rate_limited_requests_are_answered_then_the_socket_closed(start_server: ServerFactory) -> None:
    from websockets.asyncio.client import connect

    server = await start_server(rate_per_second=1.0, rate_burst=2.0)
    async with connect(server.ws_url) as websocket:
        for _ in range(40):
            await websocket.send(json.dumps({"type": "list_rooms"}))
        replies = []
        with contextlib.suppress(ConnectionClosed):
            async for frame in websocket:
                replies.append(json.loads(frame))
        codes = [reply.get("code") for reply in replies]
        assert codes[:2] == ["unauthorized", "unauthorized"]
        assert "rate_limited" in codes
        assert websocket.close_code == 1008


async def test_binary_and_oversized_frames_close_the_connection(game_server: RunningServer) -> None:
    from websockets.asyncio.client import connect

    async with connect(game_server.ws_url) as websocket:
        await websocket.send(b"\x00\x01")
        await asyncio.wait_for(websocket.wait_closed(), 20)
        assert websocket.close_code == 1003
    async with connect(game_server.ws_url, max_size=None) as websocket:
        await websocket.send(json.dumps({"type": "hello", "name": "x" * 70_000}))
        await asyncio.wait_for(websocket.wait_closed(), 20)
        assert websocket.close_code == 1009


async def test_a_failure_inside_the_server_is_internal_and_the_connection_stays(
    client: ClientFactory, game_server: RunningServer
) -> None:
    alice = await client("alice")
    await game_server.app.storage.close()
    failed = await alice.request(type="list_games")
    assert failed["code"] == "internal"
    assert (await alice.request(type="list_rooms"))["type"] == "rooms"


async def test_two_players_racing_for_the_last_seat_one_gets_it(client: ClientFactory) -> None:
    alice = await client("alice")
    room_id = (await alice.request(type="create_room"))["room"]["room_id"]
    racers = [await client(f"racer{index}") for index in range(6)]
    replies = await asyncio.gather(*(racer.request(type="join_room", room_id=room_id) for racer in racers))
    assert sorted(reply.get("code", reply["type"]) for reply in replies) == ["room", *["room_full"] * 5]


async def test_many_rooms_play_at_once_without_mixing_their_events(
    start_server: ServerFactory, client: ClientFactory
) -> None:
    server = await start_server(limits=Limits(new_names_per_address_per_hour=24))

    async def one_game(index: int) -> list[int]:
        black = await client(f"black{index}", server=server)
        white = await client(f"white{index}", server=server)
        room_id = (await black.request(type="create_room"))["room"]["room_id"]
        await white.request(type="join_room", room_id=room_id)
        for ply, (x, y) in enumerate(FIVE_FOR_BLACK, start=1):
            mover = black if ply % 2 else white
            reply = await mover.request(type="move", room_id=room_id, x=x, y=y)
            assert reply["type"] == "moved" and reply["room_id"] == room_id
        seqs = []
        while (message := await white.receive())["type"] != "game_over":
            if message["type"] == "moved":
                assert message["room_id"] == room_id
                seqs.append(message["seq"])
        return seqs

    results = await asyncio.gather(*(one_game(index) for index in range(12)))
    assert all(seqs == [1, 3, 5, 7, 9] for seqs in results)
