"""A private game is its players' business: its record, its summary and its id are served to them only,
over the wire and over HTTP, and a player proves who they are over HTTP with their token
(`Authorization: Bearer TOKEN`)."""

from __future__ import annotations

import asyncio
import json
import urllib.request

import pytest
from server_harness import RECEIVE_TIMEOUT_S, ClientFactory, RunningServer, WireClient


@pytest.fixture
def db_path(database: str) -> str:
    """Every test here runs on both databases: a SQLite file and PostgreSQL (`tests/cluster/services.py`)."""
    return database


RECORD_PATHS = ("/api/games/{}", "/api/games/{}.sgf", "/api/games/{}.psq")


async def finished_private_rated_game(client: ClientFactory) -> tuple[WireClient, str]:
    """Alice and Bob play a private rated game, each moves once, then Bob resigns; Alice and the game id."""
    alice = await client("alice")
    bob = await client("bob")
    created = await alice.request(type="create_room", private=True, rated=True)
    room_id = created["room"]["room_id"]
    joined = await bob.request(type="join_room", room_id=room_id)
    await alice.request(type="move", room_id=room_id, move="h8")
    await bob.request(type="move", room_id=room_id, move="h9")
    over = await bob.request(type="resign", room_id=room_id)
    assert over["type"] == "game_over" and over["ratings"] is not None, "a rated result"
    return alice, joined["room"]["game_id"]


async def get_as(server: RunningServer, path: str, token: str | None) -> tuple[int, str, dict[str, str]]:
    """Status, body and headers of a GET that carries `Authorization: Bearer token` when given one."""
    return await get_with(server, path, None if token is None else f"Bearer {token}")


async def get_with(server: RunningServer, path: str, authorization: str | None) -> tuple[int, str, dict[str, str]]:
    """Status, body and headers of a GET with this `Authorization` header (none when None)."""

    def get() -> tuple[int, str, dict[str, str]]:
        headers = {} if authorization is None else {"Authorization": authorization}
        request = urllib.request.Request(f"http://127.0.0.1:{server.port}{path}", headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=RECEIVE_TIMEOUT_S) as reply:
                return reply.status, reply.read().decode("utf-8"), dict(reply.headers)
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode("utf-8"), dict(error.headers)

    return await asyncio.to_thread(get)


async def test_nobody_else_finds_a_private_game_in_a_profile_or_reads_its_record_over_http(
    client: ClientFactory, game_server: RunningServer
) -> None:
    _, game_id = await finished_private_rated_game(client)
    carol = await client("carol")

    for name in ("alice", "bob"):
        status, body, _ = await get_as(game_server, f"/api/players/{name}", None)
        profile = json.loads(body)
        assert status == 200 and profile["games"] == 1 and len(profile["history"]) == 1, "the rating is public"
        assert game_id not in body, "but not which game made it"
        status, body, _ = await get_as(game_server, f"/api/players/{name}", carol.token)
        assert status == 200 and game_id not in body
    for path in RECORD_PATHS:
        assert (await get_as(game_server, path.format(game_id), None))[0] == 404
        assert (await get_as(game_server, path.format(game_id), carol.token))[0] == 404


async def test_nobody_else_reads_or_analyses_a_private_game_over_the_wire(client: ClientFactory) -> None:
    _, game_id = await finished_private_rated_game(client)
    carol = await client("carol")

    for format in ("json", "sgf", "psq"):
        refused = await carol.request(type="get_game", game_id=game_id, format=format)
        assert (refused["type"], refused["code"]) == ("error", "not_found")
    refused = await carol.request(type="analyze", game_id=game_id, ply=1)
    assert (refused["type"], refused["code"]) == ("error", "not_found")
    refused = await carol.request(type="list_games", before=game_id)
    assert (refused["type"], refused["code"]) == ("error", "not_found"), "not even a page from just before it"


async def test_its_players_read_a_private_game_over_the_wire_and_with_their_token_over_http(
    client: ClientFactory, game_server: RunningServer
) -> None:
    alice, game_id = await finished_private_rated_game(client)
    bob = await client("bob")

    for player in (alice, bob):
        record = await player.request(type="get_game", game_id=game_id)
        assert record["type"] == "game" and record["record"]["moves"][1]["move"] == "h9"
        for path in RECORD_PATHS:
            status, _, _ = await get_as(game_server, path.format(game_id), player.token)
            assert status == 200, path
        status, body, _ = await get_as(game_server, f"/api/games/{game_id}", player.token)
        assert [move["move"] for move in json.loads(body)["moves"]] == ["h8", "h9"]
        status, body, _ = await get_as(game_server, "/api/games?player=alice", player.token)
        assert status == 200 and [game["game_id"] for game in json.loads(body)] == [game_id]
        status, body, _ = await get_as(game_server, "/api/players/alice", player.token)
        profile = json.loads(body)
        assert [game["game_id"] for game in profile["recent"]] == [game_id]
        assert [point["game_id"] for point in profile["history"]] == [game_id]
    status, body, _ = await get_as(game_server, "/api/games?player=alice", None)
    assert status == 200 and json.loads(body) == []


async def test_a_token_that_is_nobodys_is_refused_over_http(client: ClientFactory, game_server: RunningServer) -> None:
    alice = await client("alice")
    for header in ("Bearer not-a-token", "Bearer ", "Basic YWxpY2U6eA==", f"Token {alice.token}"):
        status, body, headers = await get_with(game_server, "/api/games", header)
        assert (status, headers.get("WWW-Authenticate")) == (401, "Bearer"), header
        assert "token" in body
    status, _, _ = await get_with(game_server, "/api/games", f"bearer {alice.token}")
    assert status == 200, "the scheme's name ignores case"
