"""A bot seat of `alphabeta` or `static` may carry its own search depth and width (candidates per ply), within
the bounds `list_bots` gives; the game keeps them, through a restart too."""

from __future__ import annotations

from typing import Any

from server_harness import ClientFactory, ServerFactory, WireClient

from engine.types import Point, Rule
from server.bots.pool import BotRequest, choose_in_worker


async def next_of(wire: WireClient, kind: str) -> dict[str, Any]:
    """The next message of type `kind`, skipping others."""
    while (message := await wire.receive())["type"] != kind:
        pass
    return message


def searched(seat: dict[str, Any]) -> tuple[Any, Any, Any]:
    return seat["level"], seat["depth"], seat["width"]


async def test_list_bots_says_which_levels_take_a_depth_and_width_and_within_what(
    start_server: ServerFactory, client: ClientFactory
) -> None:
    server = await start_server(bot_workers=1)
    alice = await client("alice", server=server)
    bots = {bot["level"]: bot for bot in (await alice.request(type="list_bots"))["bots"]}
    assert (bots["alphabeta"]["depth"], bots["alphabeta"]["width"]) == ({"min": 1, "max": 8}, {"min": 1, "max": 30})
    assert bots["static"]["depth"] == bots["alphabeta"]["depth"]
    assert (bots["master"]["depth"], bots["greedy"]["width"]) == (None, None)


async def test_a_seats_depth_and_width_are_shown_stored_and_kept_through_a_restart(
    start_server: ServerFactory, client: ClientFactory
) -> None:
    first = await start_server(bot_workers=1)
    alice = await client("alice", server=first)
    created = await alice.request(type="create_room", white={"bot": "alphabeta", "depth": 2, "width": 5})
    assert searched(created["room"]["white"]) == ("alphabeta", 2, 5)
    assert searched(created["room"]["black"]) == (None, None, None)
    room_id, game_id = created["room"]["room_id"], created["room"]["game_id"]
    await alice.request(type="move", room_id=room_id, move="h8")
    assert (await next_of(alice, "moved"))["color"] == "white"
    record = await alice.request(type="get_game", game_id=game_id)
    assert (record["record"]["white"]["depth"], record["record"]["white"]["width"]) == (2, 5)
    await first.stop()

    second = await start_server(bot_workers=1)
    alice = await client("alice", server=second)
    resumed = await alice.request(type="join_room", room_id=room_id)
    assert searched(resumed["room"]["white"]) == ("alphabeta", 2, 5)
    games = await alice.request(type="list_games", player="alice")
    assert searched(games["games"][0]["white"]) == ("alphabeta", 2, 5)


async def test_a_depth_or_width_out_of_bounds_or_for_a_level_without_them_is_refused(
    start_server: ServerFactory, client: ClientFactory
) -> None:
    server = await start_server(bot_workers=1)
    alice = await client("alice", server=server)
    too_deep = await alice.request(type="create_room", white={"bot": "alphabeta", "depth": 9})
    assert too_deep["code"] == "bad_request" and "1 to 8" in too_deep["message"]
    too_wide = await alice.request(type="create_room", white={"bot": "alphabeta", "width": 31})
    assert too_wide["code"] == "bad_request" and "1 to 30" in too_wide["message"]
    own_search = await alice.request(type="create_room", white={"bot": "master", "width": 3})
    assert own_search["code"] == "bad_request" and "only static and alphabeta" in own_search["message"]
    rated = await alice.request(type="create_room", white={"bot": "alphabeta", "depth": 2}, rated=True)
    assert rated["code"] == "not_allowed" and "unrated" in rated["message"]
    assert (await alice.request(type="list_rooms"))["rooms"] == [], "nothing was opened"


def test_the_worker_searches_as_deep_as_the_seat_says() -> None:
    moves = (Point(7, 7), Point(8, 8), Point(7, 8))
    for depth in (1, 3):
        request = BotRequest("alphabeta", Rule.FREESTYLE, 15, moves, 5_000, seed=1, depth=depth, width=4)
        assert choose_in_worker(request).depth == depth
