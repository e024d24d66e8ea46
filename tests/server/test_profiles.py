"""What a profile counts: its headline is the rated games, with their wins, losses and draws; `played`
counts every finished game in a seat, rated or not, that the one asking may see. An abort (a game that
ends before each side has moved) is not rated, and is not listed as rated."""

from __future__ import annotations

import json

import pytest
from server_harness import ClientFactory, RunningServer, WireClient


@pytest.fixture
def db_path(database: str) -> str:
    """Every test here runs on both databases: a SQLite file and PostgreSQL (`tests/cluster/services.py`)."""
    return database


FIVE_FOR_BLACK = ["h8", "h9", "i8", "i9", "j8", "j9", "k8", "k9", "l8"]


async def game(black: WireClient, white: WireClient, rated: bool, moves: list[str]) -> tuple[str, str]:
    """A game between the two in which `moves` are played; its room's id and its id."""
    room = (await black.request(type="create_room", rated=rated))["room"]
    await white.request(type="join_room", room_id=room["room_id"])
    for ply, move in enumerate(moves, start=1):
        reply = await (black if ply % 2 else white).request(type="move", room_id=room["room_id"], move=move)
        assert reply["type"] == "moved", reply
    return room["room_id"], room["game_id"]


async def aborted(black: WireClient, white: WireClient) -> str:
    """A rated game the two agree to draw before anyone has moved; its id."""
    room_id, game_id = await game(black, white, rated=True, moves=[])
    await black.request(type="offer_draw", room_id=room_id)
    over = await white.request(type="answer_draw", room_id=room_id, accept=True)
    assert over["type"] == "game_over" and over.get("ratings") is None
    return game_id


async def test_a_profile_counts_rated_games_in_its_headline_and_every_game_apart(
    client: ClientFactory, game_server: RunningServer
) -> None:
    alice = await client("alice")
    bob = await client("bob")
    await game(alice, bob, rated=True, moves=FIVE_FOR_BLACK)
    await game(bob, alice, rated=False, moves=FIVE_FOR_BLACK)
    await aborted(alice, bob)

    status, _, body = await game_server.get("/api/players/alice")
    profile = json.loads(body)
    assert status == 200
    assert (profile["games"], profile["wins"], profile["losses"], profile["draws"]) == (1, 1, 0, 0)
    assert profile["played"] == 3
    status, _, body = await game_server.get("/api/players/bob")
    profile = json.loads(body)
    assert (profile["games"], profile["wins"], profile["losses"], profile["draws"]) == (1, 0, 1, 0)
    assert profile["played"] == 3


async def test_an_aborted_rated_game_is_listed_as_not_rated(client: ClientFactory, game_server: RunningServer) -> None:
    alice = await client("alice")
    bob = await client("bob")
    _, played = await game(alice, bob, rated=True, moves=FIVE_FOR_BLACK)
    abort = await aborted(alice, bob)

    listed = await alice.request(type="list_games", player="alice")
    rated = {summary["game_id"]: summary["rated"] for summary in listed["games"]}
    assert rated == {played: True, abort: False}
    status, _, body = await game_server.get("/api/players/alice")
    assert {summary["game_id"]: summary["rated"] for summary in json.loads(body)["recent"]} == rated


async def test_an_unfinished_rated_game_is_listed_as_rated(client: ClientFactory) -> None:
    alice = await client("alice")
    bob = await client("bob")
    _, game_id = await game(alice, bob, rated=True, moves=["h8"])
    listed = await alice.request(type="list_games", player="alice")
    assert [(summary["game_id"], summary["rated"]) for summary in listed["games"]] == [(game_id, True)]
