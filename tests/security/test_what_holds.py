"""The checks that held before issue 40, kept here with its cases so that a regression fails CI: a
token is stored only as its hash; no path leaves the static folder; frames too big, binary or nested
too deep break nothing; a player is refused every moderator's request; a private game is its
players' alone."""

from __future__ import annotations

import asyncio
import http.client
import json
from pathlib import Path

import pytest

from server.players.sessions import hash_token
from tests.server.server_harness import ClientFactory, RunningServer, closed_with, refused
from wire.messages import MAX_FRAME_BYTES


async def test_a_token_is_stored_as_its_hash_only(game_server: RunningServer, client: ClientFactory) -> None:
    alice = await client("alice")
    assert alice.token is not None
    stored = b"".join(path.read_bytes() for path in _database_files(game_server))

    assert alice.token.encode() not in stored
    assert hash_token(alice.token) in stored


def _database_files(server: RunningServer) -> list[Path]:
    """The SQLite file and its write-ahead log."""
    database = Path(server.app.settings.db_path)
    return [path for path in database.parent.glob(database.name + "*") if path.is_file()]


@pytest.mark.parametrize(
    "path", ["/../../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd", "/static/../../pyproject.toml", "//etc/passwd"]
)
async def test_no_path_leaves_the_static_folder(game_server: RunningServer, path: str) -> None:
    def get() -> tuple[int, bytes]:
        connection = http.client.HTTPConnection("127.0.0.1", game_server.port, timeout=20)
        connection.request("GET", path)
        reply = connection.getresponse()
        return reply.status, reply.read()

    status, body = await asyncio.to_thread(get)
    assert status == 404 and b"root:" not in body and b"[project]" not in body


async def test_frames_too_big_or_binary_are_closed_and_deep_nesting_is_refused(client: ClientFactory) -> None:
    nested = await client("nested")
    deep = '{"type": "chat", "text": ' + "[" * 100_000 + "]" * 100_000 + "}"
    await nested.websocket.send(deep[: MAX_FRAME_BYTES - 1])
    assert (await nested.receive())["code"] in ("bad_json", "bad_request")
    assert (await nested.request(type="list_rooms"))["type"] == "rooms", "the connection goes on"

    big = await client("big")
    await big.websocket.send(json.dumps({"type": "chat", "text": "x" * MAX_FRAME_BYTES}))
    assert (await closed_with(big))[0] == 1009
    binary = await client("binary")
    await binary.websocket.send(b'{"type": "list_rooms"}')
    assert (await closed_with(binary))[0] == 1003


async def test_a_player_is_refused_every_moderators_request(client: ClientFactory) -> None:
    alice, bob = await client("alice"), await client("bob")
    said = await bob.request(type="chat", text="hello")
    for request in (
        {"type": "mute", "player": "bob", "minutes": 5, "reason": "x"},
        {"type": "ban", "player": "bob", "reason": "x"},
        {"type": "rename_player", "player": "bob", "new_name": "robert", "reason": "x"},
        {"type": "remove_chat", "chat_id": said["chat_id"], "reason": "x"},
        {"type": "list_reports"},
        {"type": "get_audit_log"},
    ):
        refused(await alice.request(**request), "not_allowed")


async def test_a_private_game_is_its_players_alone(game_server: RunningServer, client: ClientFactory) -> None:
    alice, bob, eve = await client("alice"), await client("bob"), await client("eve")
    room = (await alice.request(type="create_room", private=True))["room"]
    await bob.request(type="join_room", room_id=room["room_id"])
    assert (await bob.request(type="resign", room_id=room["room_id"]))["type"] == "game_over"
    game_id = room["game_id"]

    assert refused(await eve.request(type="get_game", game_id=game_id), "not_found")
    assert (await eve.request(type="list_games", player="alice"))["games"] == []
    status, _ = await asyncio.to_thread(game_server.get_with_token, f"/api/games/{game_id}", eve.token)
    assert status == 404
    status, listed = await asyncio.to_thread(game_server.get_with_token, "/api/games?player=alice", eve.token)
    assert status == 200 and listed == []
    assert (await alice.request(type="get_game", game_id=game_id))["type"] == "game"
