"""`gomoku-bot` through a real server: a bot account with our own gomoku-engine as its brain plays
a person (accepting undo, declining a draw), another bot account, and comes back after the server
restarts to finish its game."""

from __future__ import annotations

import asyncio
import itertools
import json
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from client_harness import RunningServer
from websockets.asyncio.client import ClientConnection, connect

from client.bot.runner import BotRunner
from client.bot.settings import BotSettings, SeekTerms
from client.tokens import TokenStore
from engine.types import Rule

ENGINE = [sys.executable, "-m", "tools.brain", "--level", "greedy"]
NAIVE = [sys.executable, str(Path(__file__).parents[2] / "brains" / "scripted_brain.py")]
"""A brain that plays the first free point in reading order: it loses fast."""
WAIT_S = 30.0
"""Generous: the machine may be busy."""


class Person:
    """A person's client: JSON requests with ids, and the messages that arrive meanwhile."""

    _ids = itertools.count(1)

    def __init__(self, websocket: ClientConnection) -> None:
        self.websocket = websocket
        self.backlog: list[dict[str, Any]] = []
        self.welcome: dict[str, Any] = {}

    async def _frame(self) -> dict[str, Any]:
        async with asyncio.timeout(WAIT_S):
            message: dict[str, Any] = json.loads(await self.websocket.recv())
        return message

    async def request(self, **fields: Any) -> dict[str, Any]:
        request_id = next(self._ids)
        await self.websocket.send(json.dumps({"id": request_id, **fields}))
        while (message := await self._frame()).get("id") != request_id:
            self.backlog.append(message)
        return message

    async def next_of(self, kind: str) -> dict[str, Any]:
        while self.backlog:
            message = self.backlog.pop(0)
            if message["type"] == kind:
                return message
        while (message := await self._frame())["type"] != kind:
            pass
        return message


@pytest.fixture
async def person(running_server: RunningServer) -> AsyncIterator[Callable[..., Awaitable[Person]]]:
    opened: list[ClientConnection] = []

    async def open_person(name: str, token: str | None = None) -> Person:
        websocket = await connect(f"ws://127.0.0.1:{running_server.port}/ws")
        opened.append(websocket)
        wire = Person(websocket)
        wire.welcome = await wire.request(type="hello", name=name, **({"token": token} if token else {}))
        assert wire.welcome["type"] == "welcome", wire.welcome
        return wire

    yield open_person
    for websocket in opened:
        await websocket.close()


@pytest.fixture
async def bots(running_server: RunningServer, tmp_path: Path) -> AsyncIterator[Callable[..., Awaitable[BotRunner]]]:
    tasks: list[asyncio.Task[None]] = []

    async def start_bot(name: str, settings: BotSettings, engine: list[str] = ENGINE) -> BotRunner:
        url = f"ws://127.0.0.1:{running_server.port}/ws"
        runner = BotRunner(url, name, engine, settings, TokenStore(tmp_path / name))
        tasks.append(asyncio.get_running_loop().create_task(runner.run()))
        async with asyncio.timeout(WAIT_S):
            await runner.signed_in.wait()
        return runner

    yield start_bot
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


QUICK = BotSettings(move_time_ms=200, start_timeout_s=WAIT_S)


async def test_a_bot_account_accepts_a_persons_seek_and_plays_as_a_bot_would(
    person: Callable[..., Awaitable[Person]], bots: Callable[..., Awaitable[BotRunner]]
) -> None:
    await bots("robo", QUICK)
    alice = await person("alice")
    await alice.request(type="seek", color="black")
    room = (await alice.next_of("room"))["room"]
    assert room["white"]["name"] == "robo" and room["white"]["kind"] == "bot" and room["white"]["level"] is None
    room_id = room["room_id"]

    await alice.request(type="move", room_id=room_id, move="h8")
    assert (await alice.next_of("moved"))["color"] == "white"
    undone = await alice.request(type="request_undo", room_id=room_id)
    assert undone["type"] == "undo_requested"
    assert len((await alice.next_of("undone"))["removed"]) == 2, "a bot accepts undo in a casual game"
    await alice.request(type="move", room_id=room_id, move="a1")
    await alice.next_of("moved")
    await alice.request(type="offer_draw", room_id=room_id)
    assert (await alice.next_of("declined"))["what"] == "draw", "a bot declines draws"
    assert (await alice.request(type="resign", room_id=room_id))["type"] == "game_over"

    leaders = await alice.request(type="leaderboard", kind="bot")
    assert {"name": "robo", "kind": "bot"}.items() <= next(p for p in leaders["players"] if p["name"] == "robo").items()


async def test_two_bot_accounts_play_each_other_to_the_end(
    person: Callable[..., Awaitable[Person]], bots: Callable[..., Awaitable[BotRunner]]
) -> None:
    await bots("taker", BotSettings(sizes=frozenset({9}), move_time_ms=200, start_timeout_s=WAIT_S))
    seeking = BotSettings(sizes=frozenset({9}), move_time_ms=200, seek=SeekTerms(Rule.FREESTYLE, 9))
    await bots("seeker", seeking, NAIVE)
    watcher = await person("watcher")
    while True:  # the two bots go on to play more games: look for the first that has finished
        games = (await watcher.request(type="list_games", player="seeker"))["games"]
        if finished := [game for game in games if game["status"] == "finished"]:
            break
        await asyncio.sleep(0.2)
    game = finished[-1]
    assert {game["black"]["name"], game["white"]["name"]} == {"seeker", "taker"}
    assert game["black"]["kind"] == game["white"]["kind"] == "bot"
    assert game["result"]["reason"] == "five" and game["moves"] >= 9


async def test_a_bot_comes_back_after_the_server_restarts_and_finishes_its_game(
    running_server: RunningServer,
    person: Callable[..., Awaitable[Person]],
    bots: Callable[..., Awaitable[BotRunner]],
) -> None:
    await bots("robo", QUICK)
    alice = await person("alice")
    await alice.request(type="seek", color="black")
    room_id = (await alice.next_of("room"))["room"]["room_id"]
    await alice.request(type="move", room_id=room_id, move="h8")
    await alice.next_of("moved")

    await running_server.stop()
    await running_server.start()
    alice = await person("alice", alice.welcome["token"])
    assert alice.welcome["rooms"] == [room_id]
    await alice.request(type="join_room", room_id=room_id)
    await alice.request(type="move", room_id=room_id, move="a1")
    reply = await alice.next_of("moved")
    assert (reply["color"], reply["ply"]) == ("white", 4), "the bot reconnected, rejoined its room and answered"


async def test_a_bot_plays_several_games_at_once_each_with_an_engine_of_its_own(
    person: Callable[..., Awaitable[Person]], bots: Callable[..., Awaitable[BotRunner]]
) -> None:
    robo = await bots("robo", BotSettings(max_games=2, move_time_ms=200, start_timeout_s=WAIT_S))
    alice, bob, carol = await person("alice"), await person("bob"), await person("carol")
    rooms = {}
    for wire in (alice, bob):
        await wire.request(type="seek", color="black")
        rooms[wire] = (await wire.next_of("room"))["room"]["room_id"]
        await wire.request(type="move", room_id=rooms[wire], move="h8")
    for wire in (alice, bob):
        assert (await wire.next_of("moved"))["color"] == "white"
    pids = {driver.engine_pid for driver in robo.drivers.values()}
    assert len(pids) == 2 and None not in pids

    await carol.request(type="seek", color="black")  # waits: the bot plays as many games as it may
    await alice.request(type="resign", room_id=rooms[alice])
    room = (await carol.next_of("room"))["room"]
    assert room["white"]["name"] == "robo", "a game that ends frees a seat for the seek that waited"
