"""Opening rules over the wire (1.1 openings): swap2 between two people in each of its three
branches, people against bots in swap2 and Soosõrv-8, wrong steps refused, and an opening that
survives a restart of the server."""

from __future__ import annotations

import asyncio
from typing import Any

from server_harness import ClientFactory, RunningServer, ServerFactory, WireClient


def stones(*points: tuple[int, int]) -> dict[str, Any]:
    """A `place` step."""
    return {"kind": "place", "points": [{"x": x, "y": y} for x, y in points]}


def color(name: str) -> dict[str, Any]:
    """A `choose_color` step."""
    return {"kind": "choose_color", "color": name}


FIRST_THREE = stones((7, 7), (0, 0), (8, 7))
"""Black on h8 and i8, white far away in a corner: black is one stone short of an open three."""


async def swap2_room(client: ClientFactory) -> tuple[WireClient, WireClient, str]:
    """alice (the first player, seated black) and bob in a swap2 room whose opening has begun."""
    alice = await client("alice")
    bob = await client("bob")
    created = await alice.request(type="create_room", opening="swap2")
    room_id = created["room"]["room_id"]
    joined = await bob.request(type="join_room", room_id=room_id)
    room = joined["room"]
    assert room["status"] == "opening"
    assert room["opening"]["decider"] == "alice" and room["opening"]["to_decide"] == "black"
    assert room["opening"]["choices"] == [choice("place", colors=["black", "white", "black"])]
    return alice, bob, room_id


def choice(kind: str, **fields: Any) -> dict[str, Any]:
    """A choice open to the decider, as the wire lists it."""
    return {"kind": kind, "colors": None, "least": None, "most": None, "count": None, "offers": None, **fields}


async def step(player: WireClient, room_id: str, taken: dict[str, Any]) -> dict[str, Any]:
    """Take an opening step; return the room as it is after it (the fresh `room` that follows)."""
    reply = await player.request(type="opening_step", room_id=room_id, step=taken)
    assert reply["type"] == "opening_step", reply
    return await room_after(player, reply["seq"])


async def room_after(player: WireClient, seq: int) -> dict[str, Any]:
    """The first `room` snapshot at or after `seq` (older ones, still unread, are passed over)."""
    while (room := (await player.expect_next("room"))["room"])["seq"] < seq:
        pass
    return room


async def play_out(players: dict[str, WireClient], room_id: str, moves: list[tuple[int, int]]) -> dict[str, Any]:
    """Play moves in turn for whoever sits on the colour to move; return the `game_over` that follows."""
    for x, y in moves:
        room = (await players["alice"].request(type="join_room", room_id=room_id))["room"]
        name = room[room["to_move"]]["name"]
        assert (await players[name].request(type="move", room_id=room_id, x=x, y=y))["type"] == "moved"
    return await players["alice"].expect_next("game_over")


async def test_swap2_second_player_takes_white_and_plays_on(client: ClientFactory) -> None:
    alice, bob, room_id = await swap2_room(client)
    room = await step(alice, room_id, FIRST_THREE)
    assert room["opening"]["decider"] == "bob"
    assert room["opening"]["choices"] == [choice("choose_color"), choice("place", colors=["white", "black"])]
    assert len(room["moves"]) == 3

    room = await step(bob, room_id, color("white"))
    assert room["status"] == "playing" and room["to_move"] == "white"
    assert (room["black"]["name"], room["white"]["name"]) == ("alice", "bob")
    over = await play_out({"alice": alice, "bob": bob}, room_id, [(0, 1), (9, 7), (0, 2), (10, 7), (0, 3), (11, 7)])
    assert over["type"] == "game_over" and over["result"]["winner"] == "black"


async def test_swap2_second_player_takes_black_and_the_seats_swap(client: ClientFactory) -> None:
    alice, bob, room_id = await swap2_room(client)
    await step(alice, room_id, FIRST_THREE)
    room = await step(bob, room_id, color("black"))
    assert (room["black"]["name"], room["white"]["name"]) == ("bob", "alice")
    assert room["status"] == "playing" and room["to_move"] == "white"
    snapshot = await alice.request(type="join_room", room_id=room_id)
    assert snapshot["you"] == "white"

    over = await play_out({"alice": alice, "bob": bob}, room_id, [(0, 1), (9, 7), (0, 2), (10, 7), (0, 3), (11, 7)])
    assert over["type"] == "game_over" and over["result"]["winner"] == "black"
    game = await alice.request(type="get_game", game_id=room["game_id"])
    record = game["record"]
    assert (record["black"]["name"], record["white"]["name"], record["result"]["winner"]) == ("bob", "alice", "black")
    assert [taken["step"]["kind"] for taken in record["opening"]["steps"]] == ["place", "choose_color"]


async def test_swap2_second_player_places_two_more_and_the_first_chooses(client: ClientFactory) -> None:
    alice, bob, room_id = await swap2_room(client)
    await step(alice, room_id, FIRST_THREE)
    room = await step(bob, room_id, stones((0, 1), (9, 7)))
    assert room["status"] == "opening" and room["opening"]["decider"] == "alice"
    assert room["opening"]["choices"] == [choice("choose_color")]
    assert len(room["moves"]) == 5

    room = await step(alice, room_id, color("white"))
    assert (room["black"]["name"], room["white"]["name"]) == ("bob", "alice")
    assert room["status"] == "playing" and room["to_move"] == "white"
    over = await play_out({"alice": alice, "bob": bob}, room_id, [(0, 2), (10, 7), (0, 3), (11, 7)])
    assert over["type"] == "game_over" and over["result"]["winner"] == "black"


async def test_wrong_opening_steps_are_refused_and_change_nothing(client: ClientFactory) -> None:
    alice, bob, room_id = await swap2_room(client)
    refusals = [
        (bob, FIRST_THREE, "not_your_turn"),
        (alice, color("white"), "not_allowed"),
        (alice, stones((7, 7), (8, 8)), "not_allowed"),
        (alice, stones((7, 7), (7, 7), (8, 8)), "occupied"),
        (alice, stones((7, 7), (15, 0), (8, 8)), "out_of_board"),
        (alice, {"kind": "pass"}, "bad_request"),
    ]
    for player, taken, code in refusals:
        refused = await player.request(type="opening_step", room_id=room_id, step=taken)
        assert (refused["type"], refused["code"]) == ("error", code), (taken, refused)
    move = await alice.request(type="move", room_id=room_id, move="h8")
    assert (move["type"], move["code"]) == ("error", "not_allowed")
    spectator = await client("carol")
    await spectator.request(type="join_room", room_id=room_id, as_="spectator")
    watching = await spectator.request(type="opening_step", room_id=room_id, step=FIRST_THREE)
    assert (watching["type"], watching["code"]) == ("error", "not_a_player")

    room = (await alice.request(type="join_room", room_id=room_id))["room"]
    assert room["moves"] == [] and room["opening"]["steps"] == [] and room["opening"]["decider"] == "alice"


async def test_an_opening_rule_needs_its_game_rule(client: ClientFactory) -> None:
    alice = await client("alice")
    refused = await alice.request(type="create_room", rule="freestyle", opening="soosorv8")
    assert (refused["type"], refused["code"]) == ("error", "bad_request")
    assert "renju" in refused["message"]


async def test_a_person_against_a_bot_in_swap2_reaches_the_game_proper(
    start_server: ServerFactory, client: ClientFactory
) -> None:
    server = await start_server(bot_workers=1)
    alice = await client("alice", server=server)
    created = await alice.request(type="create_room", opening="swap2", white={"bot": "greedy"})
    room_id = created["room"]["room_id"]
    assert created["room"]["opening"]["decider"] == "alice"
    await alice.request(type="opening_step", room_id=room_id, step=FIRST_THREE)
    room = await until_the_bot_has_decided(alice, "alice")
    bot_step = room["opening"]["steps"][1]
    assert bot_step["by"] == "greedy"
    if room["status"] == "opening":  # the bot placed two more stones: alice chooses
        assert bot_step["step"]["kind"] == "place" and len(room["moves"]) == 5
        room = await step(alice, room_id, color("black"))
    assert room["status"] == "playing"
    seated = {room["black"]["name"], room["white"]["name"]}
    assert seated == {"alice", "greedy"}


async def until_the_bot_has_decided(player: WireClient, person: str) -> dict[str, Any]:
    """The room once the decision is the person's again or the opening is over."""
    while True:
        room = (await player.expect_next("room"))["room"]
        if room["status"] != "opening" or room["opening"]["decider"] == person:
            return room


async def test_a_person_against_a_bot_in_soosorv8_plays_through_every_decision(
    start_server: ServerFactory, client: ClientFactory
) -> None:
    """The bot is the first player: it places a standard opening and decides whenever it is its
    turn; the person answers every decision left to them, always keeping the colour they hold."""
    server = await start_server(bot_workers=1)
    alice = await client("alice", server=server)
    created = await alice.request(
        type="create_room", rule="renju", opening="soosorv8", black={"bot": "greedy"}, white="me"
    )
    room_id = created["room"]["room_id"]
    room = created["room"]
    answers = 0
    while room["status"] == "opening":
        if room["opening"]["decider"] != "alice":
            room = await until_the_bot_has_decided(alice, "alice")
            continue
        room = await step(alice, room_id, answer(room))
        answers += 1
    assert room["status"] == "playing" and answers >= 1
    assert len(room["moves"]) == 5
    deciders = [taken["by"] for taken in room["opening"]["steps"]]
    assert deciders[0] == "greedy" and deciders.count("greedy") >= 2, deciders
    assert {room["black"]["name"], room["white"]["name"]} == {"alice", "greedy"}


def answer(room: dict[str, Any]) -> dict[str, Any]:
    """A legal decision for the person in a Soosõrv-8 room: keep their colour, place a 4th stone
    on the first free point of the top row, ask for two offers, take the first offer."""
    opening = room["opening"]
    kinds = {choice["kind"]: choice for choice in opening["choices"]}
    if "choose_color" in kinds:
        return color(opening["to_decide"])
    if "place" in kinds:
        taken = {(move["x"], move["y"]) for move in room["moves"]}
        x = next(x for x in range(15) if (x, 0) not in taken)
        return stones((x, 0))
    if "declare_offers" in kinds:
        return {"kind": "declare_offers", "count": 2}
    if "select_fifth" in kinds:
        return {"kind": "select_fifth", "point": kinds["select_fifth"]["offers"][0]}
    raise AssertionError(f"no answer for {opening['choices']}")


async def test_an_opening_being_decided_survives_a_restart(start_server: ServerFactory, client: ClientFactory) -> None:
    first = await start_server()
    alice = await client("alice", server=first)
    bob = await client("bob", server=first)
    room_id = (
        await alice.request(type="create_room", opening="swap2", clock={"initial_ms": 60_000, "increment_ms": 0})
    )["room"]["room_id"]
    await bob.request(type="join_room", room_id=room_id)
    await step(alice, room_id, FIRST_THREE)
    await stop(first)

    second = await start_server()
    alice = await client("alice", server=second)
    bob = await client("bob", server=second)
    room = (await bob.request(type="join_room", room_id=room_id))["room"]
    assert room["status"] == "opening" and room["opening"]["decider"] == "bob"
    assert [taken["by"] for taken in room["opening"]["steps"]] == ["alice"] and len(room["moves"]) == 3
    await alice.request(type="join_room", room_id=room_id)
    room = await step(bob, room_id, color("black"))
    assert (room["black"]["name"], room["white"]["name"], room["status"]) == ("bob", "alice", "playing")


async def stop(server: RunningServer) -> None:
    """Stop a server and let its clients see the close."""
    await server.stop()
    await asyncio.sleep(0)


async def test_a_rated_game_left_before_the_second_player_decides_is_an_abort(client: ClientFactory) -> None:
    alice = await client("alice")
    bob = await client("bob")
    room_id = (await alice.request(type="create_room", opening="swap2", rated=True))["room"]["room_id"]
    await bob.request(type="join_room", room_id=room_id)
    await step(alice, room_id, FIRST_THREE)
    await bob.request(type="resign", room_id=room_id)
    over = await alice.expect_next("game_over")
    assert over["result"]["winner"] == "black" and over.get("ratings") is None
    top = await alice.request(type="leaderboard", kind="human")
    assert all(entry["games"] == 0 for entry in top["players"])


async def test_a_seek_with_an_opening_makes_its_owner_the_first_player(client: ClientFactory) -> None:
    alice = await client("alice")
    bob = await client("bob")
    seek = (await alice.request(type="seek", opening="swap2", color="white"))["seek"]
    assert seek["opening"] == "swap2"
    await bob.request(type="accept_seek", seek_id=seek["seek_id"])
    room = (await alice.expect_next("room"))["room"]
    assert room["status"] == "opening" and room["black"]["name"] == "alice"
    assert room["opening"]["decider"] == "alice"
