"""Fixtures: a real server on 127.0.0.1 (port 0, a SQLite file in tmp_path) and real websocket clients."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import fields, replace
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import connect

from server.app import GameServer, ServerSettings
from server.rooms.room import RoomSettings
from tests.server.server_harness import ClientFactory, RunningServer, ServerFactory, WireClient


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "gomoku.sqlite3"


@pytest.fixture
async def start_server(db_path: Path) -> AsyncIterator[ServerFactory]:
    """Start servers on port 0 with the test's database; all are stopped at the end."""
    running: list[RunningServer] = []

    async def start(**overrides: Any) -> RunningServer:
        """A server with these settings: any field of ServerSettings or of RoomSettings by name
        (rooms default to a 0 s pause between bot moves, so that bot games run fast)."""
        room_fields = {field.name for field in fields(RoomSettings)}
        room = {"bot_move_pause_s": 0.0, **{key: value for key, value in overrides.items() if key in room_fields}}
        rest = {key: value for key, value in overrides.items() if key not in room_fields}
        node_id = f"test-node-{len(running) + 1}"  # on PostgreSQL each server is a node of its own
        settings = ServerSettings(
            port=0, db_path=str(db_path), bot_workers=0, room=RoomSettings(**room), node_id=node_id
        )
        settings = replace(settings, **rest)
        app, server = await GameServer.start(settings)
        port = server.sockets[0].getsockname()[1]
        instance = RunningServer(app, server, port)
        running.append(instance)
        return instance

    yield start
    for instance in running:
        await instance.stop()


@pytest.fixture
async def game_server(start_server: ServerFactory) -> RunningServer:
    return await start_server()


@pytest.fixture
async def client(game_server: RunningServer) -> AsyncIterator[ClientFactory]:
    """Open clients to `game_server`, signed in when given a name (again with the name's token
    when the name was used before); all are closed at the end."""
    clients: list[WireClient] = []
    tokens: dict[str, str] = {}

    async def open_client(name: str | None = None, server: RunningServer | None = None) -> WireClient:
        websocket = await connect((server or game_server).ws_url)
        wire = WireClient(websocket)
        clients.append(wire)
        if name is not None:
            await wire.hello(name, tokens.get(name))
            tokens[name] = wire.token or ""
        return wire

    yield open_client
    for wire in clients:
        await wire.close()
