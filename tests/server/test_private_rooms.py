"""Private rooms stay private: their games are listed only to their own players (1.1 "Paging")."""

from __future__ import annotations

import json

from server_harness import ClientFactory, RunningServer, ServerFactory


async def private_game(client: ClientFactory) -> tuple[str, str]:
    """Alice and Bob start a private game; its room id and game id."""
    alice = await client("alice")
    bob = await client("bob")
    created = await alice.request(type="create_room", private=True)
    room_id = created["room"]["room_id"]
    joined = await bob.request(type="join_room", room_id=room_id)
    await alice.request(type="move", room_id=room_id, move="h8")
    return room_id, joined["room"]["game_id"]


async def test_a_private_game_is_not_listed_to_anyone_else(client: ClientFactory) -> None:
    room_id, game_id = await private_game(client)
    carol = await client("carol")

    for query in ({}, {"player": "alice"}, {"player": "bob"}):
        listed = await carol.request(type="list_games", **query)
        assert listed["type"] == "games"
        assert game_id not in [game["game_id"] for game in listed["games"]]
        assert room_id not in json.dumps(listed)


async def test_a_private_game_is_listed_to_its_own_players(client: ClientFactory) -> None:
    room_id, game_id = await private_game(client)
    alice = await client("alice")
    listed = await alice.request(type="list_games", player="alice")
    mine = [game for game in listed["games"] if game["game_id"] == game_id]
    assert mine and mine[0]["room_id"] == room_id


async def test_http_never_lists_a_private_game(client: ClientFactory, game_server: RunningServer) -> None:
    room_id, game_id = await private_game(client)
    for query in ("", "?player=alice"):
        status, _, body = await game_server.get(f"/api/games{query}")
        assert status == 200 and game_id not in body and room_id not in body


async def test_games_are_found_by_a_bots_name_and_by_whoever_created_them(
    start_server: ServerFactory, client: ClientFactory
) -> None:
    server = await start_server(bot_workers=1)
    alice = await client("alice", server=server)
    against_bot = await alice.request(type="create_room", white={"bot": "greedy"})
    bots_only = await alice.request(type="create_room", black={"bot": "greedy"}, white={"bot": "easy"})

    by_bot = await alice.request(type="list_games", player="greedy")
    assert {game["game_id"] for game in by_bot["games"]} == {
        against_bot["room"]["game_id"],
        bots_only["room"]["game_id"],
    }
    by_creator = await alice.request(type="list_games", player="alice")
    assert bots_only["room"]["game_id"] in {game["game_id"] for game in by_creator["games"]}
