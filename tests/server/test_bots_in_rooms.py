"""Bot seats and analysis through the real bot pool (worker processes)."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from server_harness import ClientFactory, RunningServer, ServerFactory, WireClient

from engine.build import build_kind
from engine.record import PlayerInfo
from engine.types import Color, Point, Rule
from server.domain import GameId, GameStarted, MovePlayed, RoomId
from server.storage.database import Storage


@pytest.fixture
async def bot_server(start_server: ServerFactory) -> RunningServer:
    return await start_server(bot_workers=1, analysis_level="greedy")


async def next_of(wire: WireClient, kind: str) -> dict[str, Any]:
    """The next message of type `kind`, skipping others."""
    while (message := await wire.receive())["type"] != kind:
        pass
    return message


async def test_a_bot_answers_each_move_and_takes_back_on_request(
    bot_server: RunningServer, client: ClientFactory
) -> None:
    alice = await client("alice", server=bot_server)
    created = await alice.request(type="create_room", black="me", white={"bot": "greedy"})
    assert created["you"] == "black" and created["room"]["status"] == "playing"
    white = created["room"]["white"]
    assert {key: white[key] for key in ("name", "kind", "level", "connected")} == {
        "name": "greedy",
        "kind": "bot",
        "level": "greedy",
        "connected": True,
    }
    assert white["rating"] > 0 and white["games"] == 0, "a bot's seat shows its standing in the pool"
    room_id = created["room"]["room_id"]

    assert (await alice.request(type="move", room_id=room_id, move="h8"))["ply"] == 1
    reply = await next_of(alice, "moved")
    assert (reply["ply"], reply["color"]) == (2, "white")

    undone = await alice.request(type="request_undo", room_id=room_id)
    assert undone["type"] == "undone" and len(undone["removed"]) == 2 and undone["to_move"] == "black"
    declined = await alice.request(type="offer_draw", room_id=room_id)
    assert (declined["type"], declined["what"]) == ("declined", "draw")

    analysis = await alice.request(type="analyze", room_id=room_id, time_ms=200, point={"x": 7, "y": 7})
    assert analysis["type"] == "analysis" and analysis["best"]["move"] == "h8"
    assert isinstance(analysis["score"], int)


async def test_two_bots_play_a_whole_game_for_a_spectator(bot_server: RunningServer, client: ClientFactory) -> None:
    carol = await client("carol", server=bot_server)
    created = await carol.request(
        type="create_room", size=7, black={"bot": "greedy"}, white={"bot": "greedy"}, private=True
    )
    assert created["you"] == "spectator" and created["room"]["status"] == "playing"
    events = []
    while (message := await carol.receive())["type"] != "game_over":
        if message["type"] == "moved":
            events.append(message)
    assert [event["ply"] for event in events] == list(range(1, len(events) + 1))
    assert [event["seq"] for event in events] == list(range(1, len(events) + 1))
    assert message["seq"] == len(events) + 1
    record = await carol.request(type="get_game", game_id=created["room"]["game_id"])
    assert len(record["record"]["moves"]) == len(events)
    assert record["record"]["black"]["kind"] == "bot"


async def test_bots_are_listed_and_unknown_levels_refused(bot_server: RunningServer, client: ClientFactory) -> None:
    alice = await client("alice", server=bot_server)
    bots = await alice.request(type="list_bots")
    levels = [bot["level"] for bot in bots["bots"]]
    assert "greedy" in levels and all(bot["description"] for bot in bots["bots"])
    assert bots["engine_build"] == build_kind()
    refused = await alice.request(type="create_room", white={"bot": "grandmaster-9000"})
    assert refused["code"] == "bad_request" and "greedy" in refused["message"]


async def test_a_restored_bot_game_goes_on_and_a_bot_that_cannot_move_resigns(
    start_server: ServerFactory, client: ClientFactory, db_path: Path
) -> None:
    storage = await Storage.open(db_path)
    moves = [MovePlayed(GameId("g1"), 1, Point(7, 7), Color.BLACK, 100, None)]
    for game_id, level in (("g1", "greedy"), ("g2", "retired-level")):
        start = GameStarted(
            GameId(game_id),
            RoomId(f"room-{game_id}"),
            Rule.FREESTYLE,
            15,
            PlayerInfo("alice"),
            PlayerInfo(level, "bot", level),
            None,
            datetime(2026, 11, 22, 17, 0, tzinfo=UTC),
            False,
        )
        await storage.apply([start, replace(moves[0], game_id=GameId(game_id))])
    await storage.close()

    server = await start_server(bot_workers=1)
    alice = await client("alice", server=server)
    resumed = await alice.request(type="join_room", room_id="room-g1")
    if len(resumed["room"]["moves"]) < 2:
        assert (await next_of(alice, "moved"))["color"] == "white"
    broken = await alice.request(type="join_room", room_id="room-g2")
    if broken["room"]["status"] == "playing":
        broken = await next_of(alice, "game_over")
        assert {key: broken["result"][key] for key in ("winner", "reason", "line")} == {
            "winner": "black",
            "reason": "resign",
            "line": None,
        }
        assert "unknown bot level 'retired-level'" in broken["result"]["detail"]
    else:
        assert broken["room"]["result"]["reason"] == "resign"


async def test_any_position_of_a_stored_game_can_be_analysed(bot_server: RunningServer, client: ClientFactory) -> None:
    alice = await client("alice", server=bot_server)
    bob = await client("bob", server=bot_server)
    room_id = (await alice.request(type="create_room"))["room"]["room_id"]
    game_id = (await bob.request(type="join_room", room_id=room_id))["room"]["game_id"]
    five = [(7, 7), (7, 8), (8, 7), (8, 8), (9, 7), (9, 8), (10, 7), (10, 8)]
    for ply, (x, y) in enumerate(five, start=1):
        await (alice if ply % 2 else bob).request(type="move", room_id=room_id, x=x, y=y)

    carol = await client("carol", server=bot_server)
    for who in (alice, carol):
        refused = await who.request(type="analyze", game_id=game_id, ply=4, time_ms=200)
        assert (refused["type"], refused["code"]) == ("error", "not_allowed"), "an unfinished game between people"

    await alice.request(type="move", room_id=room_id, x=11, y=7)
    analysis = await carol.request(type="analyze", game_id=game_id, ply=8, time_ms=200)
    assert (analysis["type"], analysis["game_id"], analysis["ply"]) == ("analysis", game_id, 8)
    assert analysis["best"]["move"] in ("l8", "g8"), "black's four: the engine finds the five"
    assert (await alice.request(type="analyze", game_id=game_id, ply=2, time_ms=200))["type"] == "analysis"
    too_far = await alice.request(type="analyze", game_id=game_id, ply=10, time_ms=200)
    assert (too_far["type"], too_far["code"]) == ("error", "bad_request")
    decided = await alice.request(type="analyze", game_id=game_id, ply=9, time_ms=200)
    assert (decided["type"], decided["code"]) == ("error", "game_over")
    both = await alice.request(type="analyze", room_id=room_id, game_id=game_id, ply=2)
    assert (both["type"], both["code"]) == ("error", "bad_request")
