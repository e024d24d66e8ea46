"""Fair play (1.2): no engine in a live game between people nor in a live rated game, and no analysis
ever delays a bot's move, on a real server with one bot worker."""

from __future__ import annotations

from typing import Any

from server_harness import ClientFactory, RunningServer, ServerFactory, WireClient

from engine.registry import level_names

STRONGEST = level_names()[-1]
"""The level that uses all the time it is given: an analysis by it holds its worker that long."""

STUDIED_MOVES = ("h8", "i9", "i8", "g8", "h9", "h7")
"""A few moves of a real game, black to move."""

LONG_ANALYSIS_MS = 20_000
"""As long as a test waits for any message: a bot's move queued behind such an analysis never
arrives in time."""


async def analysis_server(start_server: ServerFactory, **overrides: Any) -> RunningServer:
    """The default server's bots (one worker) with long analyses allowed."""
    settings: dict[str, Any] = {"bot_workers": 1, "analysis_level": STRONGEST, "analysis_max_ms": 60_000}
    return await start_server(**(settings | overrides))


async def finished_game(black: WireClient, white: WireClient) -> str:
    """The id of a finished game between the two, whose position after ply 6 gives an engine something
    to think about for all its time."""
    room_id = (await black.request(type="create_room"))["room"]["room_id"]
    game_id = str((await white.request(type="join_room", room_id=room_id))["room"]["game_id"])
    for ply, move in enumerate(STUDIED_MOVES, start=1):
        await (black if ply % 2 else white).request(type="move", room_id=room_id, move=move)
    await black.request(type="resign", room_id=room_id)
    return game_id


async def refusal(wire: WireClient, **analyze: Any) -> str:
    """The error code an `analyze` is answered with (a test fails if it is analysed)."""
    reply = await wire.request(type="analyze", time_ms=200, **analyze)
    assert reply["type"] == "error", reply
    return str(reply["code"])


async def refused_to_everyone(wires: tuple[WireClient, ...], room_id: str, game_id: str) -> None:
    """Each of `wires` is refused the analysis of the room and of the game's first ply."""
    for wire in wires:
        assert await refusal(wire, room_id=room_id) == "not_allowed"
        assert await refusal(wire, game_id=game_id, ply=1) == "not_allowed"


async def test_queued_and_running_analyses_never_delay_a_bots_move_in_a_live_game(
    start_server: ServerFactory, client: ClientFactory
) -> None:
    server = await analysis_server(start_server)
    alice = await client("alice", server=server)
    created = await alice.request(type="create_room", black="me", white={"bot": "greedy"})
    room_id = created["room"]["room_id"]
    analysts = [await client(name, server=server) for name in ("carol", "dave", "erin")]
    game_id = await finished_game(analysts[0], analysts[1])
    for analyst in analysts:
        await analyst.send(type="analyze", game_id=game_id, ply=6, time_ms=LONG_ANALYSIS_MS, id="long")
        await analyst.request(type="list_bots")  # answered after the analysis was put in line

    await alice.request(type="move", room_id=room_id, move="h8")
    while (reply := await alice.expect_next("moved"))["ply"] != 2:
        pass
    assert reply["color"] == "white"
    for analyst in analysts:
        still = await analyst.request(type="analyze", game_id=game_id, ply=6, time_ms=200)
        assert still["code"] == "rate_limited", "the bot answered while every analysis was still searching"


async def test_one_analysis_at_a_time_per_player_on_all_their_connections_and_time_ms_is_capped(
    start_server: ServerFactory, client: ClientFactory
) -> None:
    server = await analysis_server(start_server, analysis_max_ms=500)
    carol = await client("carol", server=server)
    carol_again = await client("carol", server=server)
    game_id = await finished_game(carol, await client("dave", server=server))

    await carol.send(type="analyze", game_id=game_id, ply=6, time_ms=60_000, id="first")
    assert await refusal(carol_again, game_id=game_id, ply=6) == "rate_limited"
    assert (await carol.expect_next("analysis"))["id"] == "first", "60 s asked, the server's 0.5 s given"
    assert (await carol_again.request(type="analyze", game_id=game_id, ply=6, time_ms=200))["type"] == "analysis"


async def test_nobody_analyses_an_unfinished_rated_game_against_a_bot(
    start_server: ServerFactory, client: ClientFactory
) -> None:
    server = await analysis_server(start_server)
    alice = await client("alice", server=server)
    clock = {"initial_ms": 600_000, "increment_ms": 0}
    created = await alice.request(type="create_room", black="me", white={"bot": "greedy"}, rated=True, clock=clock)
    room_id, game_id = created["room"]["room_id"], created["room"]["game_id"]
    await alice.request(type="move", room_id=room_id, move="h8")
    await alice.expect_next("moved")
    carol = await client("carol", server=server)
    await carol.request(type="join_room", room_id=room_id, as_="spectator")

    await refused_to_everyone((alice, carol), room_id, game_id)
    await alice.request(type="resign", room_id=room_id)
    assert (await carol.request(type="analyze", game_id=game_id, ply=1, time_ms=200))["type"] == "analysis"


async def test_a_casual_game_against_a_bot_stays_open_to_analysis(
    start_server: ServerFactory, client: ClientFactory
) -> None:
    server = await analysis_server(start_server)
    alice = await client("alice", server=server)
    created = await alice.request(type="create_room", black="me", white={"bot": "greedy"})
    room_id = created["room"]["room_id"]
    carol = await client("carol", server=server)
    await carol.request(type="join_room", room_id=room_id, as_="spectator")
    for who in (alice, carol):
        assert (await who.request(type="analyze", room_id=room_id, time_ms=200))["type"] == "analysis"


async def test_spectators_get_no_engine_hints_in_a_live_game_between_people(
    start_server: ServerFactory, client: ClientFactory
) -> None:
    server = await analysis_server(start_server)
    alice = await client("alice", server=server)
    bob = await client("bob", server=server)
    carol = await client("carol", server=server)
    room_id = (await alice.request(type="create_room"))["room"]["room_id"]
    game_id = (await bob.request(type="join_room", room_id=room_id))["room"]["game_id"]
    await alice.request(type="move", room_id=room_id, move="h8")
    await carol.request(type="join_room", room_id=room_id, as_="spectator")

    await refused_to_everyone((alice, bob, carol), room_id, game_id)
    await alice.request(type="resign", room_id=room_id)
    for who in (alice, bob, carol):
        assert (await who.request(type="analyze", room_id=room_id, time_ms=200))["type"] == "analysis"


async def test_analyses_beyond_the_analysis_pools_capacity_are_busy_and_take_none_of_the_bots(
    start_server: ServerFactory, client: ClientFactory
) -> None:
    server = await analysis_server(start_server, bot_queue_limit=0)
    carol = await client("carol", server=server)
    dave = await client("dave", server=server)
    game_id = await finished_game(carol, dave)
    await carol.send(type="analyze", game_id=game_id, ply=6, time_ms=LONG_ANALYSIS_MS, id="long")
    await carol.request(type="list_bots")  # answered after the analysis was put in line

    assert await refusal(dave, game_id=game_id, ply=6) == "busy"
    created = await dave.request(type="create_room", black="me", white={"bot": "greedy"})
    assert created["type"] == "room", "the bots' worker is free for games"
