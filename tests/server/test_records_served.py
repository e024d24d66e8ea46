"""Game records over the websocket and over HTTP, in JSON, Piskvork and SGF."""

from __future__ import annotations

import json

import pytest
from server_harness import ClientFactory, RunningServer

from engine.psq import read_psq
from engine.sgf import read_sgf
from engine.types import Color, Point
from server.version import server_version


@pytest.fixture
def db_path(database: str) -> str:
    """Every test here runs on both databases: a SQLite file and PostgreSQL (`tests/cluster/services.py`)."""
    return database


MOVES = [(7, 7), (7, 8), (8, 7), (8, 8), (9, 7), (9, 8), (10, 7), (10, 8), (11, 7)]


async def play_a_game(client: ClientFactory, black: str = "alice", white: str = "bob") -> str:
    """A finished timed game won by black; returns its game id."""
    first = await client(black)
    second = await client(white)
    created = await first.request(type="create_room", clock={"initial_ms": 300_000, "increment_ms": 5_000})
    room_id = created["room"]["room_id"]
    joined = await second.request(type="join_room", room_id=room_id)
    for ply, (x, y) in enumerate(MOVES, start=1):
        mover = first if ply % 2 else second
        assert (await mover.request(type="move", room_id=room_id, x=x, y=y))["type"] == "moved"
    game_id: str = joined["room"]["game_id"]
    return game_id


async def test_a_record_over_the_websocket_in_every_format(client: ClientFactory) -> None:
    game_id = await play_a_game(client)
    reader = await client("reader")

    as_json = await reader.request(type="get_game", game_id=game_id, format="json")
    record = as_json["record"]
    assert (as_json["type"], as_json["format"], record["game_id"]) == ("game", "json", game_id)
    assert record["black"] == {"name": "alice", "kind": "human", "level": None}
    assert record["clock"] == {"initial_ms": 300_000, "increment_ms": 5_000}
    assert [(move["x"], move["y"]) for move in record["moves"]] == MOVES
    assert all(isinstance(move["time_ms"], int) for move in record["moves"])
    assert record["result"]["reason"] == "five" and record["started_at"] and record["ended_at"]

    psq = await reader.request(type="get_game", game_id=game_id, format="psq")
    from_psq = read_psq(psq["record"])
    assert [move.point for move in from_psq.moves] == [Point(x, y) for x, y in MOVES]

    sgf = await reader.request(type="get_game", game_id=game_id, format="sgf")
    assert "GM[4]" in sgf["record"]
    from_sgf = read_sgf(sgf["record"])
    assert [move.point for move in from_sgf.moves] == [Point(x, y) for x, y in MOVES]
    assert from_sgf.result is not None and from_sgf.result.winner is Color.BLACK


async def test_a_record_over_http_in_every_format(client: ClientFactory, game_server: RunningServer) -> None:
    game_id = await play_a_game(client)

    status, content_type, body = await game_server.get(f"/api/games/{game_id}")
    assert (status, content_type) == (200, "application/json")
    assert json.loads(body)["result"]["winner"] == "black"

    status, _, body = await game_server.get(f"/api/games/{game_id}.psq")
    assert status == 200
    assert [move.point for move in read_psq(body).moves][-1] == Point(11, 7)

    status, _, body = await game_server.get(f"/api/games/{game_id}.sgf")
    assert status == 200 and "GM[4]" in body
    assert read_sgf(body).result is not None

    for missing in ("/api/games/nothing", "/api/games/nothing.sgf", f"/api/games/{game_id}.txt", "/elsewhere"):
        assert (await game_server.get(missing))[0] == 404
    assert await game_server.get("/healthz") == (
        200,
        "text/plain; charset=utf-8",
        f"ok gomoku-server {server_version()}",
    )


async def test_games_are_listed_newest_first_by_player_with_a_limit(
    client: ClientFactory, game_server: RunningServer
) -> None:
    first = await play_a_game(client, "alice", "bob")
    second = await play_a_game(client, "carol", "alice")
    third = await play_a_game(client, "bob", "carol")
    reader = await client("reader")

    everything = await reader.request(type="list_games")
    assert [game["game_id"] for game in everything["games"]] == [third, second, first]
    summary = everything["games"][0]
    assert summary["black"]["name"] == "bob" and summary["status"] == "finished" and summary["moves"] == len(MOVES)

    alices = await reader.request(type="list_games", player="alice")
    assert [game["game_id"] for game in alices["games"]] == [second, first]
    page = await reader.request(type="list_games", limit=1, before=third)
    assert [game["game_id"] for game in page["games"]] == [second]
    assert (await reader.request(type="list_games", before="nope"))["code"] == "not_found"

    status, _, body = await game_server.get("/api/games?player=carol&limit=1")
    assert status == 200 and [game["game_id"] for game in json.loads(body)] == [third]
    assert (await game_server.get("/api/games?limit=zero"))[0] == 400


async def test_the_player_filter_ignores_case_as_names_do(client: ClientFactory, game_server: RunningServer) -> None:
    first = await play_a_game(client, "Alice", "bob")
    second = await play_a_game(client, "carol", "Alice")
    reader = await client("reader")

    for written in ("alice", "ALICE", "aLiCe"):
        listed = await reader.request(type="list_games", player=written)
        assert [game["game_id"] for game in listed["games"]] == [second, first], written
        status, _, body = await game_server.get(f"/api/games?player={written}")
        assert status == 200 and [game["game_id"] for game in json.loads(body)] == [second, first], written


async def test_an_unfinished_game_can_be_fetched_too(client: ClientFactory, game_server: RunningServer) -> None:
    alice = await client("alice")
    bob = await client("bob")
    room = (await alice.request(type="create_room"))["room"]
    await bob.request(type="join_room", room_id=room["room_id"])
    await alice.request(type="move", room_id=room["room_id"], move="h8")
    status, _, body = await game_server.get(f"/api/games/{room['game_id']}")
    record = json.loads(body)
    assert status == 200 and record["result"] is None and record["moves"][0]["move"] == "h8"
    listed = await alice.request(type="list_games", player="alice")
    assert listed["games"][0]["status"] == "playing"
