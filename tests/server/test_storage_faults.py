"""The database failing under the server: locked by another process, or full.

A failed write must never stop a room's timer or its bot, a request that
cannot be stored is answered `unavailable` with nothing changed, and the
game goes on once the database is back.
"""

from __future__ import annotations

import asyncio
import sqlite3
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from server_harness import ClientFactory, RunningServer, ServerFactory, WireClient

from server.storage.database import StorageSettings

QUICK_GIVE_UP = StorageSettings(busy_timeout_ms=50, retry_s=0.3)
"""Storage that gives up on a locked database within a third of a second, so tests run quickly."""

HOLD_LOCK = """
import sqlite3, sys, time
connection = sqlite3.connect(sys.argv[1], isolation_level=None, timeout=30)
connection.execute("BEGIN EXCLUSIVE")
print("locked", flush=True)
sys.stdin.readline()
connection.execute("ROLLBACK")
"""


class ForeignLock:
    """Another process holding an exclusive lock on the database until released."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self._process = process

    @classmethod
    async def take(cls, db_path: Path) -> ForeignLock:
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-c", HOLD_LOCK, str(db_path), stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE
        )
        assert process.stdout is not None
        assert (await asyncio.wait_for(process.stdout.readline(), 30)).strip() == b"locked"
        return cls(process)

    async def release(self) -> None:
        if self._process.returncode is None:
            assert self._process.stdin is not None
            self._process.stdin.write(b"go\n")
            await self._process.stdin.drain()
            await asyncio.wait_for(self._process.wait(), 30)


@pytest.fixture
async def locks() -> AsyncIterator[list[ForeignLock]]:
    held: list[ForeignLock] = []
    yield held
    for lock in held:
        await lock.release()


async def next_of(wire: WireClient, kind: str) -> dict[str, Any]:
    while (message := await wire.receive())["type"] != kind:
        pass
    return message


async def test_a_bot_moves_once_a_lock_that_outlasted_its_write_is_gone(
    db_path: Path, start_server: ServerFactory, client: ClientFactory, locks: list[ForeignLock]
) -> None:
    server = await start_server(bot_workers=1, bot_time_ms=1_500, storage=QUICK_GIVE_UP)
    alice = await client("alice", server=server)
    room_id = (await alice.request(type="create_room", white={"bot": "hard"}))["room"]["room_id"]
    assert (await alice.request(type="move", room_id=room_id, move="h8"))["type"] == "moved"
    locks.append(await ForeignLock.take(db_path))  # while `hard` thinks (it uses all of its time)

    await asyncio.sleep(3.0)  # the bot's answer comes, and its write gives up meanwhile
    await locks[0].release()

    reply = await next_of(alice, "moved")
    assert (reply["ply"], reply["color"]) == (2, "white")


async def test_a_clock_that_runs_out_during_a_lock_ends_the_game_once_it_is_gone(
    db_path: Path, start_server: ServerFactory, client: ClientFactory, locks: list[ForeignLock]
) -> None:
    server = await start_server(storage=QUICK_GIVE_UP)
    alice = await client("alice", server=server)
    bob = await client("bob", server=server)
    created = await alice.request(type="create_room", clock={"initial_ms": 800, "increment_ms": 0})
    await bob.request(type="join_room", room_id=created["room"]["room_id"])
    locks.append(await ForeignLock.take(db_path))

    await asyncio.sleep(2.0)  # black's flag falls; the timer's write gives up
    await locks[0].release()

    over = await next_of(bob, "game_over")
    assert over["result"] == {"winner": "white", "reason": "timeout", "line": None}


async def test_a_move_that_cannot_be_stored_is_unavailable_and_changes_nothing(
    db_path: Path, start_server: ServerFactory, client: ClientFactory, locks: list[ForeignLock]
) -> None:
    server = await start_server(storage=QUICK_GIVE_UP)
    alice = await client("alice", server=server)
    bob = await client("bob", server=server)
    room_id = (await alice.request(type="create_room"))["room"]["room_id"]
    await bob.request(type="join_room", room_id=room_id)
    locks.append(await ForeignLock.take(db_path))

    refused = await alice.request(type="move", room_id=room_id, move="h8")
    assert (refused["type"], refused["code"]) == ("error", "unavailable")
    assert (await alice.request(type="join_room", room_id=room_id))["room"]["moves"] == []

    await locks[0].release()
    assert (await alice.request(type="move", room_id=room_id, move="h8"))["type"] == "moved"


async def test_a_full_disk_refuses_moves_with_unavailable_until_there_is_room_again(
    tmp_path: Path, start_server: ServerFactory, client: ClientFactory
) -> None:
    small_pages = tmp_path / "small-pages.sqlite3"
    with sqlite3.connect(small_pages) as connection:  # so that a few moves need a new page
        connection.execute("PRAGMA page_size = 512")
        connection.execute("CREATE TABLE made_with_small_pages (x)")
    server: RunningServer = await start_server(db_path=str(small_pages), rate_per_second=1e6, rate_burst=1e6)
    alice = await client("alice", server=server)
    bob = await client("bob", server=server)
    room_id = (await alice.request(type="create_room", size=26))["room"]["room_id"]
    await bob.request(type="join_room", room_id=room_id)
    await server.app.storage.limit_pages(await server.app.storage.page_count())

    sparse = [(x, y) for y in range(0, 26, 3) for x in range(0, 26, 3)]
    refused = None
    for ply, (x, y) in enumerate(sparse, start=1):
        reply = await (alice if ply % 2 else bob).request(type="move", room_id=room_id, x=x, y=y)
        if reply["type"] == "error":
            refused = (ply, reply)
            break
    assert refused is not None, "the database never filled up"
    ply, error = refused
    assert error["code"] == "unavailable"
    snapshot = await alice.request(type="join_room", room_id=room_id)
    assert len(snapshot["room"]["moves"]) == ply - 1

    await server.app.storage.limit_pages(None)
    x, y = sparse[ply - 1]
    assert (await (alice if ply % 2 else bob).request(type="move", room_id=room_id, x=x, y=y))["type"] == "moved"
