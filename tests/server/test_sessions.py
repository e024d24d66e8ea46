"""Signing in: names are unique ignoring case, bots' names are theirs, and every refusal carries its id."""

from __future__ import annotations

import asyncio
import json

from server_harness import ClientFactory, RunningServer, ServerFactory
from websockets.asyncio.client import connect

from server.hub.services import Limits


async def test_a_name_differing_only_in_case_is_the_same_player(client: ClientFactory) -> None:
    alice = await client("alice")
    shouting = await client()

    refused = await shouting.request(type="hello", name="ALICE")
    assert (refused["type"], refused["code"]) == ("error", "name_taken")

    welcome = await shouting.request(type="hello", name="ALICE", token=alice.token)
    assert welcome["type"] == "welcome"
    assert welcome["player"]["name"] == "alice", "shown as first written"


async def test_a_player_cannot_take_a_bots_name(client: ClientFactory) -> None:
    newcomer = await client()
    refused = await newcomer.request(type="hello", name="Master")
    assert (refused["type"], refused["code"]) == ("error", "name_taken")
    assert "bot" in refused["message"]


async def test_names_that_would_speak_with_authority_are_reserved(client: ClientFactory) -> None:
    newcomer = await client()
    for name in ("admin", "Moderator", "SYSTEM"):
        refused = await newcomer.request(type="hello", name=name)
        assert (refused["type"], refused["code"]) == ("error", "name_taken"), name
        assert "reserved" in refused["message"]
    assert (await newcomer.request(type="hello", name="admiral"))["type"] == "welcome"


async def test_a_rate_limited_request_gets_its_id_back(start_server: ServerFactory) -> None:
    server = await start_server(rate_per_second=0.5, rate_burst=2.0)
    async with connect(server.ws_url) as websocket:
        for index in range(6):
            await websocket.send(json.dumps({"type": "list_bots", "id": f"r{index}"}))
        replies = [json.loads(await websocket.recv()) for _ in range(6)]
    limited = [reply for reply in replies if reply.get("code") == "rate_limited"]
    assert limited, replies
    assert [reply["id"] for reply in limited] == [f"r{index}" for index in range(6 - len(limited), 6)]


async def test_many_newcomers_signing_in_at_once_are_all_welcomed(start_server: ServerFactory) -> None:
    server = await start_server(limits=Limits(new_names_per_address_per_hour=60))
    connections = [await connect(server.ws_url) for _ in range(60)]

    async def sign_in(index: int) -> str:
        await connections[index].send(json.dumps({"type": "hello", "name": f"newcomer{index}"}))
        return str(json.loads(await connections[index].recv())["type"])

    replies = await asyncio.gather(*(sign_in(index) for index in range(len(connections))))
    assert replies == ["welcome"] * len(connections)
    for connection in connections:
        await connection.close()


async def test_one_address_makes_only_so_many_new_names_an_hour_and_known_names_still_sign_in(
    start_server: ServerFactory, client: ClientFactory
) -> None:
    server = await start_server(limits=Limits(new_names_per_address_per_hour=3))
    first = await client("name0", server=server)
    for index in (1, 2):
        await client(f"name{index}", server=server)
    refused = await (await client(server=server)).request(type="hello", name="name3")
    assert (refused["type"], refused["code"]) == ("error", "limit_reached")
    assert "3 new names an hour" in refused["message"]
    again = await client("name0", server=server)
    assert again.token == first.token, "a known name signs in with its token"


async def test_what_the_server_keeps_of_a_player_goes_with_its_last_connection(
    game_server: RunningServer, client: ClientFactory
) -> None:
    carol = await client("carol")
    await carol.request(type="watch_lobby")
    first_tab = await client("alice")
    second_tab = await client("alice")
    online = game_server.app.lobby.online  # who the lobby keeps as signed in, by name
    assert "alice" in online
    await first_tab.close()
    while (await carol.expect_next("online"))["count"] != 2:
        pass
    assert "alice" in online
    await second_tab.close()
    while (await carol.expect_next("online"))["count"] != 1:
        pass
    assert "alice" not in online and "carol" in online
