"""Lists come in pages, so that every frame the server sends fits in 65,536 bytes (1.1 "Paging")."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime

import pytest
from server_harness import ClientFactory, RunningServer, ServerFactory

from engine.record import PlayerInfo
from engine.types import Rule
from server.domain import GameStarted, new_game_id, new_room_id
from server.hub.services import Limits
from server.storage.database import Storage
from wire.messages import MAX_FRAME_BYTES


@pytest.fixture
def db_path(database: str) -> str:
    """Every test here runs on both databases: a SQLite file and PostgreSQL (`tests/cluster/services.py`)."""
    return database


MANY_ROOMS = 1_200
"""Enough rooms that one list of them all (about 190 bytes each) would be over 200 KB."""


async def store_games(db_path: str, count: int, black: str = "alice") -> list[str]:
    """`count` unfinished games with long player names, oldest first; their ids."""
    storage = await Storage.open(db_path)
    ids = []
    started = datetime(2026, 11, 23, tzinfo=UTC)
    for index in range(count):
        game_id = new_game_id()
        white = PlayerInfo(f"opponent-with-a-long-name-{index:05d}")
        await storage.apply(
            [GameStarted(game_id, new_room_id(), Rule.FREESTYLE, 15, PlayerInfo(black), white, None, started, False)]
        )
        ids.append(game_id)
    await storage.close()
    return ids


async def test_the_room_list_comes_in_pages_each_within_a_frame(
    start_server: ServerFactory, client: ClientFactory
) -> None:
    server = await start_server(rate_per_second=1e6, rate_burst=1e6, limits=Limits(rooms_per_player=MANY_ROOMS))
    creators = [await client(f"creator{index}", server=server) for index in range(4)]

    async def create(creator_index: int) -> None:
        for _ in range(MANY_ROOMS // len(creators)):
            await creators[creator_index].request(type="create_room", size=19)

    await asyncio.gather(*(create(index) for index in range(len(creators))))
    reader = await client("reader", server=server)

    seen: list[str] = []
    first = await reader.request(type="list_rooms")
    assert len(first["rooms"]) == 100 and first["next"] is not None
    page = first
    while True:
        seen += [room["room_id"] for room in page["rooms"]]
        if page["next"] is None:
            break
        page = await reader.request(type="list_rooms", limit=100, after=page["next"])
    assert len(seen) == len(set(seen)) == MANY_ROOMS
    assert reader.largest_frame <= MAX_FRAME_BYTES


async def test_a_room_page_is_as_long_as_asked_and_a_limit_over_100_is_refused(client: ClientFactory) -> None:
    alice = await client("alice")
    for _ in range(5):
        await alice.request(type="create_room")
    page = await alice.request(type="list_rooms", limit=2)
    assert len(page["rooms"]) == 2 and page["next"] == page["rooms"][-1]["room_id"]
    rest = await alice.request(type="list_rooms", limit=100, after=page["next"])
    assert len(rest["rooms"]) == 3 and rest["next"] is None
    refused = await alice.request(type="list_rooms", limit=101)
    assert (refused["type"], refused["code"]) == ("error", "bad_request")


async def test_the_game_list_comes_in_pages_each_within_a_frame(
    db_path: str, start_server: ServerFactory, client: ClientFactory
) -> None:
    stored = await store_games(db_path, 250)
    server = await start_server()
    reader = await client("reader", server=server)

    refused = await reader.request(type="list_games", limit=200)
    assert (refused["type"], refused["code"]) == ("error", "bad_request")

    seen: list[str] = []
    page = await reader.request(type="list_games", player="alice", limit=100)
    while True:
        seen += [game["game_id"] for game in page["games"]]
        if page["next"] is None:
            break
        page = await reader.request(type="list_games", player="alice", limit=100, before=page["next"])
    assert seen == stored[::-1]
    assert reader.largest_frame <= MAX_FRAME_BYTES


async def test_http_pages_games_with_before_and_refuses_a_limit_over_100(
    db_path: str, start_server: ServerFactory
) -> None:
    stored = await store_games(db_path, 30)
    server: RunningServer = await start_server()

    status, _, body = await server.get("/api/games?limit=20")
    first = json.loads(body)
    assert status == 200 and [game["game_id"] for game in first] == stored[::-1][:20]
    status, _, body = await server.get(f"/api/games?limit=20&before={first[-1]['game_id']}")
    assert status == 200 and [game["game_id"] for game in json.loads(body)] == stored[::-1][20:]
    status, _, _ = await server.get("/api/games?limit=101")
    assert status == 400


async def test_welcome_lists_paging_among_the_features(client: ClientFactory) -> None:
    welcome = (await client("alice")).seen[-1]
    assert welcome["type"] == "welcome" and "paging" in welcome["features"]
