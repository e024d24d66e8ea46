"""Bots share the pool fairly: people's games first, bot games paused when unwatched, and limits."""

from __future__ import annotations

import asyncio
import json
import time

from server_harness import ClientFactory, ServerFactory

from engine.registry import level_names
from engine.types import Point, Rule
from server.bots.pool import BotPool, BotRequest, Priority
from server.hub.services import Limits

OPENING = (Point(7, 7), Point(8, 8), Point(8, 7))
STRONGEST = level_names()[-1]


async def test_a_persons_search_goes_ahead_of_bot_games_and_finds_a_worker_free() -> None:
    pool = BotPool(workers=2)
    try:
        bot_games = [
            asyncio.create_task(
                pool.choose(BotRequest(STRONGEST, Rule.FREESTYLE, 15, OPENING, 60_000, priority=Priority.BOT_GAME))
            )
            for _ in range(4)
        ]
        await asyncio.sleep(0.5)
        started = time.monotonic()
        decision = await pool.choose(BotRequest("greedy", Rule.FREESTYLE, 15, OPENING, 200))
        assert time.monotonic() - started < 30, "a person waited for a bot game's minute-long search"
        assert decision.move not in OPENING
        assert not any(task.done() for task in bot_games)
    finally:
        await pool.close()
        await asyncio.gather(*bot_games, return_exceptions=True)


async def test_an_unwatched_bot_game_pauses_and_goes_on_when_watched(
    start_server: ServerFactory, client: ClientFactory
) -> None:
    server = await start_server(bot_workers=1)
    carol = await client("carol", server=server)
    created = await carol.request(type="create_room", size=19, black={"bot": "greedy"}, white={"bot": "greedy"})
    room_id, game_id = created["room"]["room_id"], created["room"]["game_id"]
    await carol.expect_next("moved")
    await carol.request(type="leave_room", room_id=room_id)
    await asyncio.sleep(0.3)  # a search already asked for may still come back
    paused = len((await carol.request(type="get_game", game_id=game_id))["record"]["moves"])
    await asyncio.sleep(1.0)
    assert len((await carol.request(type="get_game", game_id=game_id))["record"]["moves"]) == paused

    watched = await carol.request(type="join_room", room_id=room_id, as_="spectator")
    assert watched["room"]["status"] == "playing"
    assert (await carol.expect_next("moved"))["ply"] == paused + 1


async def test_a_bot_game_nobody_watches_ends_drawn_after_a_while_unrated(
    start_server: ServerFactory, client: ClientFactory
) -> None:
    server = await start_server(bot_workers=1, bot_game_idle_s=0.5)
    carol = await client("carol", server=server)
    bots = {"black": {"bot": "greedy"}, "white": {"bot": "medium"}}
    created = await carol.request(type="create_room", size=19, rated=True, **bots)
    room_id, game_id = created["room"]["room_id"], created["room"]["game_id"]
    before = created["room"]["white"]
    while (await carol.expect_next("moved"))["ply"] < 2:  # both bots have played: not an abort
        pass
    await carol.request(type="leave_room", room_id=room_id)

    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        record = (await carol.request(type="get_game", game_id=game_id))["record"]
        if record["result"] is not None:
            break
        await asyncio.sleep(0.2)
    assert record["result"] == {"winner": None, "reason": "draw_agreed", "line": None}
    after = (await carol.request(type="create_room", white={"bot": "medium"}))["room"]["white"]
    assert (after["rating"], after["games"]) == (before["rating"], before["games"]), "nobody played it out"


async def test_bot_games_are_limited_per_player_and_in_total(
    start_server: ServerFactory, client: ClientFactory
) -> None:
    server = await start_server(bot_workers=1, limits=Limits(bot_games_per_player=2, bot_games=3))
    both_bots = {"black": {"bot": "greedy"}, "white": {"bot": "greedy"}, "size": 19}
    carol = await client("carol", server=server)
    for _ in range(2):
        assert (await carol.request(type="create_room", **both_bots))["type"] == "room"
    refused = await carol.request(type="create_room", **both_bots)
    assert (refused["type"], refused["code"]) == ("error", "limit_reached")
    assert "2" in refused["message"] and "per player" in refused["message"]

    dave = await client("dave", server=server)
    assert (await dave.request(type="create_room", **both_bots))["type"] == "room"
    refused = await dave.request(type="create_room", **both_bots)
    assert (refused["type"], refused["code"]) == ("error", "limit_reached")
    assert "3" in refused["message"] and "server" in refused["message"]
    assert (await dave.request(type="create_room", white={"bot": "greedy"}))["type"] == "room"


async def test_open_rooms_are_limited_per_player(start_server: ServerFactory, client: ClientFactory) -> None:
    server = await start_server(limits=Limits(rooms_per_player=2))
    alice = await client("alice", server=server)
    for _ in range(2):
        await alice.request(type="create_room")
    refused = await alice.request(type="create_room")
    assert (refused["type"], refused["code"]) == ("error", "limit_reached")


async def test_a_room_with_a_bot_is_refused_busy_when_the_pool_is_full(
    start_server: ServerFactory, client: ClientFactory
) -> None:
    server = await start_server(bot_workers=1, bot_queue_limit=0)
    carol = await client("carol", server=server)
    bots = server.app.bots
    assert bots is not None
    search = asyncio.create_task(bots.pool.choose(BotRequest(STRONGEST, Rule.FREESTYLE, 15, OPENING, 60_000)))
    try:
        while not bots.saturated:  # the search is admitted at its first step
            await asyncio.sleep(0)
        refused = await carol.request(type="create_room", white={"bot": "greedy"})
        assert (refused["type"], refused["code"]) == ("error", "busy")
    finally:
        search.cancel()


async def test_connections_from_one_address_are_limited(start_server: ServerFactory) -> None:
    from websockets.asyncio.client import connect

    server = await start_server(limits=Limits(connections_per_address=2))
    kept = [await connect(server.ws_url) for _ in range(2)]
    async with connect(server.ws_url) as third:
        refusal = json.loads(await third.recv())
        assert (refusal["type"], refusal["code"]) == ("error", "limit_reached")
        await asyncio.wait_for(third.wait_closed(), 20)
    for connection in kept:
        await connection.close()
    for _ in range(100):  # the server lets go of a closed connection a moment after its close
        async with connect(server.ws_url) as again:
            await again.send(json.dumps({"type": "hello", "name": "again"}))
            if json.loads(await again.recv())["type"] == "welcome":
                return
        await asyncio.sleep(0.05)
    raise AssertionError("the address stayed at its limit after its connections closed")
