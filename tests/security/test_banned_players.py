"""A ban bars every way in: `hello` is refused, and so is every HTTP request that carries the banned
player's token, an admin's included (issue 40, finding 5)."""

from __future__ import annotations

import asyncio

from server.moderation.actions import Moderation
from tests.server.server_harness import ClientFactory, RunningServer, refused


async def test_a_banned_admins_token_opens_nothing_over_http(game_server: RunningServer, client: ClientFactory) -> None:
    boss = await client("boss2")
    await Moderation(game_server.app.storage).grant("operator:test", "boss2", "admin", "trusted")
    assert (await asyncio.to_thread(game_server.get_with_token, "/api/audit", boss.token))[0] == 200

    await Moderation(game_server.app.storage).ban("operator:test", "boss2", "abuse")

    again = await client()
    assert "banned" in refused(await again.request(type="hello", name="boss2", token=boss.token), "not_allowed")
    for path in ("/api/audit", "/api/games", "/api/players/boss2"):
        status, body = await asyncio.to_thread(game_server.get_with_token, path, boss.token)
        assert (status, body) == (403, "'boss2' is banned from this server"), path
