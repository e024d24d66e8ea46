"""Room caps hold when many tabs ask at once: a cap is checked and taken in one step.

Each test sends one `create_room` from each of many connections without
waiting for any answer, so that every request is in flight while the
others are being stored.
"""

from __future__ import annotations

import asyncio
from typing import Any

from server_harness import ClientFactory, ServerFactory, WireClient

from server.hub.services import Limits

BOTH_BOTS = {"type": "create_room", "black": {"bot": "greedy"}, "white": {"bot": "greedy"}, "size": 19}
PAUSED = {"bot_move_pause_s": 600.0}
"""Bot games that make at most one move, so that none ends while the test counts them."""


async def all_at_once(tabs: list[WireClient], request: dict[str, Any]) -> list[str]:
    """Send `request` from every tab before reading any answer; each answer's type (or error code)."""
    for tab in tabs:
        await tab.send(id="at-once", **request)

    async def answer(tab: WireClient) -> str:
        while (message := await tab.receive()).get("id") != "at-once":
            pass
        return str(message["code"] if message["type"] == "error" else message["type"])

    return list(await asyncio.gather(*(answer(tab) for tab in tabs)))


async def test_rooms_per_player_hold_against_many_tabs_at_once(
    start_server: ServerFactory, client: ClientFactory
) -> None:
    server = await start_server(bot_workers=1, limits=Limits(rooms_per_player=10))
    tabs = [await client("alice", server=server) for _ in range(25)]
    answers = await all_at_once(tabs, {"type": "create_room", "white": {"bot": "greedy"}})
    assert sorted(answers) == ["limit_reached"] * 15 + ["room"] * 10


async def test_bot_games_per_player_hold_against_many_tabs_at_once(
    start_server: ServerFactory, client: ClientFactory
) -> None:
    server = await start_server(bot_workers=1, limits=Limits(bot_games_per_player=3), **PAUSED)
    tabs = [await client("carol", server=server) for _ in range(20)]
    answers = await all_at_once(tabs, BOTH_BOTS)
    assert sorted(answers) == ["limit_reached"] * 17 + ["room"] * 3


async def test_bot_games_on_the_server_hold_against_many_players_at_once(
    start_server: ServerFactory, client: ClientFactory
) -> None:
    server = await start_server(bot_workers=1, limits=Limits(bot_games=4), **PAUSED)
    tabs = [await client(f"player{index}", server=server) for index in range(8)]
    answers = await all_at_once(tabs, BOTH_BOTS)
    assert sorted(answers) == ["limit_reached"] * 4 + ["room"] * 4
    assert (await tabs[0].request(**BOTH_BOTS))["code"] == "limit_reached"
