"""`gomoku-bot` signs in to a bot account kept with a password, from a machine that has no token for it,
reading the password from a file or the environment (never from its command line)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from client_harness import RunningServer
from test_bot_over_the_wire import ENGINE, WAIT_S
from websockets.asyncio.client import connect

from client.bot.main import PASSWORD_ENV, read_password
from client.bot.runner import BotRunner
from client.bot.settings import BotSettings
from client.tokens import TokenStore

PASSWORD = "robo's own password"


async def keep_bot_name_with_password(url: str, name: str) -> str:
    """Make the bot account `name` and give it PASSWORD, as its owner would once; its first token."""
    async with connect(url) as websocket:
        await websocket.send(json.dumps({"type": "hello", "name": name, "kind": "bot"}))
        welcome = json.loads(await websocket.recv())
        await websocket.send(json.dumps({"type": "set_password", "password": PASSWORD}))
        assert json.loads(await websocket.recv())["type"] == "password_set"
        return str(welcome["token"])


async def test_a_bot_signs_in_with_its_password_where_it_has_no_token(
    running_server: RunningServer, tmp_path: Path
) -> None:
    url = f"ws://127.0.0.1:{running_server.port}/ws"
    await keep_bot_name_with_password(url, "robo")
    elsewhere = TokenStore(tmp_path / "another machine")
    runner = BotRunner(url, "robo", ENGINE, BotSettings(start_timeout_s=WAIT_S), elsewhere, PASSWORD)
    task = asyncio.get_running_loop().create_task(runner.run())
    try:
        async with asyncio.timeout(WAIT_S):
            await runner.signed_in.wait()
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
    assert elsewhere.get(url, "robo") is not None, "the new device's token is kept for next time"


async def test_a_bot_whose_token_was_signed_out_signs_in_again_with_its_password(
    running_server: RunningServer, tmp_path: Path
) -> None:
    url = f"ws://127.0.0.1:{running_server.port}/ws"
    first_token = await keep_bot_name_with_password(url, "robo")
    tokens = TokenStore(tmp_path / "bot")
    tokens.put(url, "robo", first_token)
    async with connect(url) as websocket:
        await websocket.send(json.dumps({"type": "hello", "name": "robo", "password": PASSWORD}))
        assert json.loads(await websocket.recv())["type"] == "welcome"
        await websocket.send(json.dumps({"type": "list_devices"}))
        devices = json.loads(await websocket.recv())["devices"]
        first = next(device["device_id"] for device in devices if not device["current"])
        await websocket.send(json.dumps({"type": "sign_out", "device_id": first}))
        assert json.loads(await websocket.recv())["type"] == "signed_out"
    runner = BotRunner(url, "robo", ENGINE, BotSettings(start_timeout_s=WAIT_S), tokens, PASSWORD)
    task = asyncio.get_running_loop().create_task(runner.run())
    try:
        async with asyncio.timeout(WAIT_S):
            await runner.signed_in.wait()
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
    assert tokens.get(url, "robo") != first_token


def test_the_password_comes_from_a_file_before_the_environment(tmp_path: Path) -> None:
    secret = tmp_path / "password"
    secret.write_text("from the file\nnot this line\n", encoding="utf-8")
    assert read_password(secret, {PASSWORD_ENV: "from the environment"}) == "from the file"
    assert read_password(None, {PASSWORD_ENV: "from the environment"}) == "from the environment"
    assert read_password(None, {}) is None
