"""The websocket endpoint lets in the server's own pages, programs (no `Origin`) and the origins the
operator lists, and refuses a page of any other site before the handshake (issue 40, finding 7)."""

from __future__ import annotations

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus
from websockets.typing import Origin

from server.edge.origins import OriginPolicy
from server.main import parse_arguments
from tests.server.server_harness import RunningServer, ServerFactory


async def opens(server: RunningServer, origin: str | None) -> bool:
    """Whether a websocket from a page of `origin` (None: a program, sending no Origin) is let in."""
    try:
        async with connect(server.ws_url, origin=None if origin is None else Origin(origin)):
            return True
    except InvalidStatus as refused:
        assert refused.response.status_code == 403
        return False


async def test_a_page_of_another_site_is_refused_and_the_servers_own_page_and_programs_are_let_in(
    game_server: RunningServer,
) -> None:
    assert await opens(game_server, None)
    assert await opens(game_server, f"http://127.0.0.1:{game_server.port}")
    assert not await opens(game_server, "https://evil.example")
    assert not await opens(game_server, f"http://127.0.0.1:{game_server.port + 1}")
    assert not await opens(game_server, "null")


async def test_an_origin_the_operator_lists_is_let_in(start_server: ServerFactory) -> None:
    server = await start_server(origins=OriginPolicy(frozenset({"https://play.example.org"})))

    assert await opens(server, "https://play.example.org")
    assert await opens(server, "HTTPS://Play.Example.org")
    assert not await opens(server, "https://play.example.org.evil.example")


def test_the_flag_reads_origins_and_refuses_what_is_not_one() -> None:
    settings = parse_arguments(["--allowed-origins", "https://play.example.org, http://lan-box:8080"])
    assert settings.origins.allowed == {"https://play.example.org", "http://lan-box:8080"}
    with pytest.raises(SystemExit):
        parse_arguments(["--allowed-origins", "https://play.example.org/lobby"])
